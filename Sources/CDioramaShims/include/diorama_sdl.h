#ifndef DIORAMA_SDL_H
#define DIORAMA_SDL_H
// SDL2 macros and callbacks the player needs, as plain functions (function-like macros do not import).
#include <stdint.h>

/// `SDL_WINDOWPOS_CENTERED`: centre a new window on the first display.
int diorama_sdl_windowpos_centered(void);

/// Routes SDL's own log output to nowhere, so a missing display does not print SDL noise.
void diorama_sdl_silence_logs(void);

/// Pushes a key press (down then up when `release` is non-zero) for `keycode` (an SDL_Keycode) onto
/// SDL's event queue, as a keyboard would; returns 1 on success. Used by tests and benchmarks.
int diorama_sdl_push_key(int32_t keycode, int32_t scancode, uint16_t modifiers, int pressed);

/// Pushes a left mouse button press or release at window pixel (x, y); returns 1 on success.
int diorama_sdl_push_mouse_button(int32_t x, int32_t y, int pressed, uint32_t window_id);

/// Pushes a mouse motion to window pixel (x, y), with the left button held when `held` is non-zero.
int diorama_sdl_push_mouse_motion(int32_t x, int32_t y, int held, uint32_t window_id);

/// Pushes a text input event carrying `text` (at most 31 bytes of UTF-8), as typing `?` produces.
int diorama_sdl_push_text(const char *text, uint32_t window_id);

#endif
