/* sepax_rot for a batch of angles, compiled per ISA like sat_kernel.c: 4 angles a step, in
 * double lanes (4 with AVX2 and AVX-512, 2 and 2 with SSE2, SSE4.1 and NEON), computing
 * what rot.c computes for one angle, operation for operation (rot_poly.h), so every copy
 * gives sepax_rot's bits:
 *   - floor(y) as the truncation less 1 where it rounded up: exact for |y| < 2^31, and a
 *     valid angle's y is within 1.6e6;
 *   - the quadrant's swap and signs picked on the bits after rounding to float (rounding
 *     to nearest is symmetric, so negating after it gives the same bits);
 *   - an invalid angle (NaN, Inf, |angle| > SEPAX_ROT_LIMIT) computed as 0 and replaced
 *     by sepax_rot's {NaN, NaN}.
 * One angle at a time, sepax_rot took 12.5 ns a call on a Zen 4, most of it the two
 * polynomials' chains of dependent operations, which lanes run side by side. */
#include "kernel.h"
#include "rot_poly.h"

#include <math.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

void CAT(SEPAX_KERNEL_NAME, _rot)(const float *angles, size_t n, sepax_rotation *out);

#if defined(SEPAX_ISA_SCALAR)
void CAT(SEPAX_KERNEL_NAME, _rot)(const float *angles, size_t n, sepax_rotation *out) {
    for (size_t i = 0; i < n; i++) out[i] = sepax_rot(angles[i]);
}
#else

#if defined(SEPAX_ISA_AVX2) || defined(SEPAX_ISA_AVX512)
#include <simde/x86/avx2.h>
#define ROT_WIDE 1
typedef simde__m256d vd;
#define VD_SET1 simde_mm256_set1_pd
#define VD_ADD simde_mm256_add_pd
#define VD_SUB simde_mm256_sub_pd
#define VD_MUL simde_mm256_mul_pd
#define VD_AND simde_mm256_and_pd
#define VD_GT(a, b) simde_mm256_cmp_pd(a, b, SIMDE_CMP_GT_OQ)
#define VD_TRUNC simde_mm256_cvttpd_epi32
#define VD_FROM_I32 simde_mm256_cvtepi32_pd
#else
#include <simde/x86/sse2.h>
#define ROT_WIDE 0
typedef simde__m128d vd;
#define VD_SET1 simde_mm_set1_pd
#define VD_ADD simde_mm_add_pd
#define VD_SUB simde_mm_sub_pd
#define VD_MUL simde_mm_mul_pd
#define VD_AND simde_mm_and_pd
#define VD_GT simde_mm_cmpgt_pd
#define VD_TRUNC simde_mm_cvttpd_epi32
#define VD_FROM_I32 simde_mm_cvtepi32_pd
#endif

/* rot.c's reduction and polynomials on lanes of valid angles x: cos and sin of the reduced
 * angle, and the quadrant k (low lanes of the integers) */
static inline void sincos_lanes(vd x, vd *c, vd *s, simde__m128i *k_int) {
    vd y = VD_ADD(VD_MUL(x, VD_SET1(ROT_TWO_OVER_PI)), VD_SET1(0.5));
    vd t = VD_FROM_I32(VD_TRUNC(y));
    vd k = VD_SUB(t, VD_AND(VD_GT(t, y), VD_SET1(1.0))); /* floor(y) */
    *k_int = VD_TRUNC(k);
    vd r = VD_SUB(VD_SUB(VD_SUB(x, VD_MUL(k, VD_SET1(ROT_PIO2_1))), VD_MUL(k, VD_SET1(ROT_PIO2_2))),
                  VD_MUL(k, VD_SET1(ROT_PIO2_3)));
    vd r2 = VD_MUL(r, r);
    vd p = VD_SET1(ROT_SIN_13);
    p = VD_SUB(VD_MUL(p, r2), VD_SET1(ROT_SIN_11));
    p = VD_ADD(VD_MUL(p, r2), VD_SET1(ROT_SIN_9));
    p = VD_SUB(VD_MUL(p, r2), VD_SET1(ROT_SIN_7));
    p = VD_ADD(VD_MUL(p, r2), VD_SET1(ROT_SIN_5));
    p = VD_SUB(VD_MUL(p, r2), VD_SET1(ROT_SIN_3));
    *s = VD_ADD(r, VD_MUL(VD_MUL(r, r2), p));
    vd q = VD_SET1(ROT_COS_14);
    q = VD_SUB(VD_MUL(q, r2), VD_SET1(ROT_COS_12));
    q = VD_ADD(VD_MUL(q, r2), VD_SET1(ROT_COS_10));
    q = VD_SUB(VD_MUL(q, r2), VD_SET1(ROT_COS_8));
    q = VD_ADD(VD_MUL(q, r2), VD_SET1(ROT_COS_6));
    q = VD_SUB(VD_MUL(q, r2), VD_SET1(ROT_COS_4));
    q = VD_ADD(VD_MUL(q, r2), VD_SET1(ROT_COS_2));
    *c = VD_SUB(VD_SET1(1.0), VD_MUL(r2, q));
}

static inline simde__m128 pick4(simde__m128i m, simde__m128 x, simde__m128 y) {
    simde__m128 mf = simde_mm_castsi128_ps(m);
    return simde_mm_or_ps(simde_mm_and_ps(mf, x), simde_mm_andnot_ps(mf, y));
}

/* sepax_rot of a[0..3] into out[0..3] */
static inline void rot4(const float *a, sepax_rotation *out) {
    simde__m128 a4 = simde_mm_loadu_ps(a);
    simde__m128 mag = simde_mm_and_ps(a4, simde_mm_castsi128_ps(simde_mm_set1_epi32(0x7fffffff)));
    /* !(NaN <= limit): invalid */
    simde__m128i valid =
        simde_mm_castps_si128(simde_mm_cmple_ps(mag, simde_mm_set1_ps(SEPAX_ROT_LIMIT)));
    a4 = simde_mm_and_ps(a4, simde_mm_castsi128_ps(valid));
    simde__m128 c4, s4;
    simde__m128i k;
#if ROT_WIDE
    vd c, s;
    sincos_lanes(simde_mm256_cvtps_pd(a4), &c, &s, &k);
    c4 = simde_mm256_cvtpd_ps(c);
    s4 = simde_mm256_cvtpd_ps(s);
#else
    vd c0, s0, c1, s1;
    simde__m128i k0, k1;
    sincos_lanes(simde_mm_cvtps_pd(a4), &c0, &s0, &k0);
    sincos_lanes(simde_mm_cvtps_pd(simde_mm_movehl_ps(a4, a4)), &c1, &s1, &k1);
    c4 = simde_mm_movelh_ps(simde_mm_cvtpd_ps(c0), simde_mm_cvtpd_ps(c1));
    s4 = simde_mm_movelh_ps(simde_mm_cvtpd_ps(s0), simde_mm_cvtpd_ps(s1));
    k = simde_mm_unpacklo_epi64(k0, k1);
#endif
    /* quadrant 0: (c, s); 1: (-s, c); 2: (-c, -s); 3: (s, -c) */
    simde__m128i one = simde_mm_set1_epi32(1),
                 quadrant = simde_mm_and_si128(k, simde_mm_set1_epi32(3));
    simde__m128i swap = simde_mm_cmpeq_epi32(simde_mm_and_si128(quadrant, one), one);
    simde__m128i neg_c = simde_mm_slli_epi32(
        simde_mm_and_si128(simde_mm_srli_epi32(simde_mm_add_epi32(quadrant, one), 1), one), 31);
    simde__m128i neg_s = simde_mm_slli_epi32(simde_mm_srli_epi32(quadrant, 1), 31);
    simde__m128 zero = simde_mm_setzero_ps(), nan = simde_mm_set1_ps(NAN);
    simde__m128 rc = simde_mm_xor_ps(pick4(swap, s4, c4), simde_mm_castsi128_ps(neg_c));
    simde__m128 rs = simde_mm_xor_ps(pick4(swap, c4, s4), simde_mm_castsi128_ps(neg_s));
    /* 0 + x makes a zero component +0, as sepax_rot does */
    rc = pick4(valid, simde_mm_add_ps(zero, rc), nan);
    rs = pick4(valid, simde_mm_add_ps(zero, rs), nan);
    float *o = (float *)(void *)out;
    simde_mm_storeu_ps(o, simde_mm_unpacklo_ps(rc, rs));
    simde_mm_storeu_ps(o + 4, simde_mm_unpackhi_ps(rc, rs));
}

_Static_assert(sizeof(sepax_rotation) == 2 * sizeof(float), "a rotation is its c and s");

void CAT(SEPAX_KERNEL_NAME, _rot)(const float *angles, size_t n, sepax_rotation *out) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) rot4(angles + i, out + i);
    for (; i < n; i++) out[i] = sepax_rot(angles[i]);
}
#endif
