#include "CDioramaShims.h"
#include <alsa/asoundlib.h>

static void diorama_alsa_quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void diorama_alsa_silence_errors(void) {
    snd_lib_error_set_handler(diorama_alsa_quiet);
}
