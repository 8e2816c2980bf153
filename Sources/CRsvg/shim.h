#include <librsvg/rsvg.h>
#include <gio/gio.h>
