// A header of small static inline helpers, as projects keep them.
#ifndef CW6_UTIL_H
#define CW6_UTIL_H
#define CW6_CAP 4
static inline int cw6_clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static inline unsigned cw6_rotl(unsigned v, int k) { return (v << k) | (v >> (32 - k)); }
#endif
