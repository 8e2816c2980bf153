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

/// An SDL window, as the functions below take it (SDL_Window * without SDL's header).
typedef struct SDL_Window DioramaSDLWindow;

/// Whether an EWMH window manager runs on the X server of `window` (the root window names a live window in
/// _NET_SUPPORTING_WM_CHECK): 1 yes, 0 no (a bare X server, as a kiosk started with xinit), -1 when `window` is not an
/// X11 window. Without a window manager nobody carries out a fullscreen request, and SDL believes it happened anyway.
int diorama_sdl_x11_window_manager_running(DioramaSDLWindow *window);

/// Sets the EWMH title of `window` (_NET_WM_NAME and _NET_WM_ICON_NAME, UTF-8), which window managers show: SDL 2.26
/// updates only WM_NAME (as Latin-1, mangling "—") when the C locale cannot convert UTF-8, and _NET_WM_NAME keeps the
/// first title. 0 on success, -1 when `window` is not an X11 window.
int diorama_sdl_x11_set_title(DioramaSDLWindow *window, const char *title);

/// Reads `window`'s _NET_WM_NAME into `title` (`size` bytes with the terminating zero): 0 on success, -1 when it is
/// missing, longer, or `window` is not an X11 window.
int diorama_sdl_x11_title(DioramaSDLWindow *window, char *title, int size);

/// The X server's own idea of `window`'s place and size (root coordinates), whatever SDL believes: 0 on success,
/// -1 when `window` is not an X11 window or the server does not answer.
int diorama_sdl_x11_window_geometry(DioramaSDLWindow *window, int *x, int *y, int *width, int *height);

/// Reads `width`×`height` pixels at (x, y) of the X screen of `window` as it is shown (the root window, what a
/// screenshot takes) into `pixels` (0xRRGGBB per pixel, rows of `width`): 0 on success, -1 otherwise. For tests that
/// check what the screen shows rather than what SDL drew.
int diorama_sdl_x11_read_screen(DioramaSDLWindow *window, int x, int y, int width, int height, uint32_t *pixels);

#endif
