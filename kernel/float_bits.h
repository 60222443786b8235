/* A float's (and a double's) bits, and selects on them: shared by the kernels, the pose
 * rules and the rotations. */
#ifndef SEPAX_FLOAT_BITS_H
#define SEPAX_FLOAT_BITS_H

#include <stdint.h>
#include <string.h>

/* A float's bits and back (memcpy: one move once compiled, and no aliasing rule broken). */
static inline uint32_t sepax_float_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float sepax_bits_float(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The same for a double (the rotation's quadrant swap, rot.c). */
static inline uint64_t sepax_double_bits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static inline double sepax_bits_double(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* cond ? a : b on the bits, so the compiler cannot turn it into a branch (where which is
 * taken is a coin toss, a branch would mispredict half the time) */
static inline float sepax_pick(int cond, float a, float b) {
    uint32_t m = 0u - (uint32_t)(cond != 0);
    return sepax_bits_float((sepax_float_bits(a) & m) | (sepax_float_bits(b) & ~m));
}

#endif
