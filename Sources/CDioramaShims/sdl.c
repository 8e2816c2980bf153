#include "diorama_sdl.h"
#include <SDL2/SDL.h>
#include <string.h>

int diorama_sdl_windowpos_centered(void) {
    return SDL_WINDOWPOS_CENTERED;
}

static void diorama_sdl_quiet(void *userdata, int category, SDL_LogPriority priority, const char *message) {
    (void)userdata; (void)category; (void)priority; (void)message;
}

void diorama_sdl_silence_logs(void) {
    SDL_LogSetOutputFunction(diorama_sdl_quiet, NULL);
}

int diorama_sdl_push_key(int32_t keycode, int32_t scancode, uint16_t modifiers, int pressed) {
    SDL_Event event;
    memset(&event, 0, sizeof event);
    event.type = pressed ? SDL_KEYDOWN : SDL_KEYUP;
    event.key.timestamp = SDL_GetTicks();
    event.key.state = pressed ? SDL_PRESSED : SDL_RELEASED;
    event.key.keysym.sym = keycode;
    event.key.keysym.scancode = (SDL_Scancode)scancode;
    event.key.keysym.mod = modifiers;
    return SDL_PushEvent(&event) == 1;
}

int diorama_sdl_push_mouse_button(int32_t x, int32_t y, int pressed, uint32_t window_id) {
    SDL_Event event;
    memset(&event, 0, sizeof event);
    event.type = pressed ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
    event.button.timestamp = SDL_GetTicks();
    event.button.windowID = window_id;
    event.button.button = SDL_BUTTON_LEFT;
    event.button.state = pressed ? SDL_PRESSED : SDL_RELEASED;
    event.button.clicks = 1;
    event.button.x = x;
    event.button.y = y;
    return SDL_PushEvent(&event) == 1;
}

int diorama_sdl_push_mouse_motion(int32_t x, int32_t y, int held, uint32_t window_id) {
    SDL_Event event;
    memset(&event, 0, sizeof event);
    event.type = SDL_MOUSEMOTION;
    event.motion.timestamp = SDL_GetTicks();
    event.motion.windowID = window_id;
    event.motion.state = held ? SDL_BUTTON_LMASK : 0;
    event.motion.x = x;
    event.motion.y = y;
    return SDL_PushEvent(&event) == 1;
}

int diorama_sdl_push_text(const char *text, uint32_t window_id) {
    SDL_Event event;
    memset(&event, 0, sizeof event);
    event.type = SDL_TEXTINPUT;
    event.text.timestamp = SDL_GetTicks();
    event.text.windowID = window_id;
    strncpy(event.text.text, text, sizeof event.text.text - 1);
    return SDL_PushEvent(&event) == 1;
}
