#ifndef DIORAMA_SHIMS_H
#define DIORAMA_SHIMS_H
// Plain functions around C macros and variadic callbacks that Swift cannot import or implement.

/// Installs a silent ALSA error handler, so a missing card does not print to stderr.
void diorama_alsa_silence_errors(void);

#include "diorama_sdl.h"

#endif
