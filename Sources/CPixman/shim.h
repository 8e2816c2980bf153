#include <pixman.h>

/// `x` truncated toward zero, for an `x` the caller has already brought within range (a NaN sent elsewhere):
/// Swift's `Int(_: Double)` checks the range at every call, and in the renderer's per-pixel loops (a gradient's
/// colour index) the check cost more than the conversion.
static inline long diorama_truncate(double x) { return (long)x; }
