#include <pixman.h>
