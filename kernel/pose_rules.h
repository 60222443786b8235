/* The rules a pose must pass, shared by the store (its status per pose) and the kernels'
 * batch check (one answer for a whole batch), so both read the same definition. */
#ifndef SEPAX_POSE_RULES_H
#define SEPAX_POSE_RULES_H

#include <math.h>
#include <stdint.h>

#include "float_bits.h"
#include "sepax.h"

/* How far a rotation's squared length may be from 1: sepax_rot stays within
 * 2.5e-7; 2^-16 leaves room for rotations the caller composes itself. */
#define SEPAX_ROT_TOL (1.0f / 65536.0f)

/* The three rules of a pose, one bit each, without a branch. */
enum { SEPAX_POSE_FINITE = 1u, SEPAX_POSE_IN_RANGE = 2u, SEPAX_POSE_UNIT = 4u };

static inline uint32_t sepax_magnitude_bits(float f) { return sepax_float_bits(f) & 0x7fffffffu; }

/* On the bits of |v|, which order like the magnitudes: infinities and NaNs lie past every
 * finite value, so the limit test fails for them too. The unit test in double: the squares
 * of floats are exact there, so only the sum and the difference round. */
static inline unsigned sepax_pose_rules(const sepax_pose *p) {
    const uint32_t inf = 0x7f800000u, limit = sepax_magnitude_bits(SEPAX_COORD_LIMIT);
    uint32_t x = sepax_magnitude_bits(p->position.x), y = sepax_magnitude_bits(p->position.y);
    uint32_t c = sepax_magnitude_bits(p->rotation.c), s = sepax_magnitude_bits(p->rotation.s);
    unsigned finite = (x < inf) & (y < inf) & (c < inf) & (s < inf);
    unsigned in_range = (x <= limit) & (y <= limit);
    double rc = p->rotation.c, rs = p->rotation.s;
    unsigned unit = fabs((rc * rc + rs * rs) - 1.0) <= SEPAX_ROT_TOL;
    return finite | in_range << 1 | unit << 2;
}

/* Whether a pose passes every rule. The finite rule needs no test of its own: a position
 * within the limit is finite, and a NaN or infinite rotation fails the unit test. */
static inline int sepax_pose_ok(const sepax_pose *p) {
    const unsigned both = SEPAX_POSE_IN_RANGE | SEPAX_POSE_UNIT;
    return (sepax_pose_rules(p) & both) == both;
}

#endif
