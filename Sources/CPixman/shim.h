#include <pixman.h>

/// `x` truncated toward zero, for an `x` the caller has already brought within `long`'s range (outside it, and for
/// a NaN, the cast is undefined in C, where Swift would trap): Swift's `Int(_: Double)` checks the range at every
/// call, and in the renderer's per-pixel loops (a gradient's colour index, feeding pixman's composite) the check
/// cost more than the conversion.
static inline long diorama_truncate(double x) { return (long)x; }
