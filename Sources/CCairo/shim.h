#include <cairo.h>
#include <pango/pangocairo.h>
#include <cairo-svg.h>
