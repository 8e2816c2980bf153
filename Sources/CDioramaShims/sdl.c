#include "diorama_sdl.h"
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
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

/* The X display and window behind an SDL window, or 0 when it is not on X11. */
static int diorama_x11_window(SDL_Window *window, Display **display, Window *x11) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!window || !SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return 0;
    *display = info.info.x11.display;
    *x11 = info.info.x11.window;
    return 1;
}

static int diorama_x11_error_seen;
static int diorama_x11_note_error(Display *display, XErrorEvent *error) {
    (void)display; (void)error;
    diorama_x11_error_seen = 1;
    return 0;
}

/* The window named by `property` on `owner`, or None (also when `owner` is gone: a window manager that died leaves
   its check window's id behind). */
static Window diorama_x11_window_property(Display *display, Window owner, Atom property) {
    Atom type = None;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char *data = NULL;
    Window named = None;
    diorama_x11_error_seen = 0;
    XSync(display, False);
    int (*previous)(Display *, XErrorEvent *) = XSetErrorHandler(diorama_x11_note_error);
    int status = XGetWindowProperty(display, owner, property, 0, 1, False, XA_WINDOW, &type, &format, &count, &after, &data);
    XSync(display, False);
    XSetErrorHandler(previous);
    if (status == Success && !diorama_x11_error_seen && type == XA_WINDOW && format == 32 && count == 1 && data) {
        named = *(Window *)data;
    }
    if (data) XFree(data);
    return named;
}

int diorama_sdl_x11_window_manager_running(DioramaSDLWindow *window) {
    Display *display;
    Window x11;
    if (!diorama_x11_window(window, &display, &x11)) return -1;
    Atom check = XInternAtom(display, "_NET_SUPPORTING_WM_CHECK", True);
    if (check == None) return 0;
    Window named = diorama_x11_window_property(display, DefaultRootWindow(display), check);
    // EWMH: the window manager's check window names itself too; a stale id from a dead manager does not.
    return named != None && diorama_x11_window_property(display, named, check) == named;
}

int diorama_sdl_x11_set_title(DioramaSDLWindow *window, const char *title) {
    Display *display;
    Window x11;
    if (!diorama_x11_window(window, &display, &x11)) return -1;
    Atom utf8 = XInternAtom(display, "UTF8_STRING", False);
    const char *names[] = {"_NET_WM_NAME", "_NET_WM_ICON_NAME"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        XChangeProperty(display, x11, XInternAtom(display, names[i], False), utf8, 8, PropModeReplace,
                        (const unsigned char *)title, (int)strlen(title));
    }
    XFlush(display);
    return 0;
}

int diorama_sdl_x11_title(DioramaSDLWindow *window, char *title, int size) {
    Display *display;
    Window x11;
    if (size < 1 || !diorama_x11_window(window, &display, &x11)) return -1;
    Atom type = None;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char *data = NULL;
    XSync(display, False);
    int status = XGetWindowProperty(display, x11, XInternAtom(display, "_NET_WM_NAME", False), 0, size / 4 + 1, False,
                                    XInternAtom(display, "UTF8_STRING", False), &type, &format, &count, &after, &data);
    int result = -1;
    if (status == Success && data && format == 8 && count < (unsigned long)size) {
        memcpy(title, data, count);
        title[count] = 0;
        result = 0;
    }
    if (data) XFree(data);
    return result;
}

int diorama_sdl_x11_window_geometry(DioramaSDLWindow *window, int *x, int *y, int *width, int *height) {
    Display *display;
    Window x11, child;
    XWindowAttributes attributes;
    if (!diorama_x11_window(window, &display, &x11)) return -1;
    XSync(display, False);
    if (!XGetWindowAttributes(display, x11, &attributes)) return -1;
    if (!XTranslateCoordinates(display, x11, attributes.root, 0, 0, x, y, &child)) return -1;
    *width = attributes.width;
    *height = attributes.height;
    return 0;
}

int diorama_sdl_x11_read_screen(DioramaSDLWindow *window, int x, int y, int width, int height, uint32_t *pixels) {
    Display *display;
    Window x11;
    if (!diorama_x11_window(window, &display, &x11)) return -1;
    XSync(display, False);
    XImage *image = XGetImage(display, DefaultRootWindow(display), x, y, (unsigned)width, (unsigned)height, AllPlanes, ZPixmap);
    if (!image) return -1;
    for (int row = 0; row < height; row++) {
        for (int column = 0; column < width; column++) {
            pixels[row * width + column] = (uint32_t)(XGetPixel(image, column, row) & 0xFFFFFF);
        }
    }
    XDestroyImage(image);
    return 0;
}
