/* A frame's poses into the store, compiled per ISA like sat_kernel.c: the
 * batch check of every pose's rules (pose_rules.h) and the transpose into pose
 * blocks, 8 (AVX2, AVX-512) or 4 poses a step. One pose a step, they took
 * about 48 instructions a pose (5% of a particles frame's, all on the calling
 * thread); now about 10. The check computes what sepax_pose_ok does, in the same order
 * (integer compares on the bits of |x| and |y|; c*c + s*s - 1 in double, whose
 * squares of floats are exact), so every backend accepts the same poses. */
#include "kernel.h"
#include "pose_rules.h"

#if defined(SEPAX_ISA_AVX2) || defined(SEPAX_ISA_AVX512)
#include <simde/x86/avx2.h>
#define POSE_WIDE 1
#elif !defined(SEPAX_ISA_SCALAR)
#include <simde/x86/sse2.h>
#define POSE_WIDE 0
#endif

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

int CAT(SEPAX_KERNEL_NAME, _poses_valid)(const sepax_pose *poses, size_t count);
void CAT(SEPAX_KERNEL_NAME, _poses_store)(sepax_pose_block *dst, const sepax_pose *poses,
                                          size_t blocks);

#define L SEPAX_BLOCK_LANES

#if defined(POSE_WIDE) && POSE_WIDE
/* Poses q[0..7] as four vectors of lanes 0..7: each 128-bit half of a load holds a pose,
 * p and p + 4 in one register, so the unpacks leave every field in lane order. */
typedef struct pose_lanes {
    simde__m256 x, y, c, s;
} pose_lanes;

static inline pose_lanes load_poses(const sepax_pose *q) {
    const float *f = (const float *)q;
    simde__m256 r[4];
    for (int k = 0; k < 4; k++)
        r[k] = simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(simde_mm_loadu_ps(f + 4 * k)),
                                         simde_mm_loadu_ps(f + 4 * (k + 4)), 1);
    simde__m256 xy01 = simde_mm256_unpacklo_ps(r[0], r[1]),
                xy23 = simde_mm256_unpacklo_ps(r[2], r[3]);
    simde__m256 cs01 = simde_mm256_unpackhi_ps(r[0], r[1]),
                cs23 = simde_mm256_unpackhi_ps(r[2], r[3]);
#define LO(a, b)                                                                                   \
    simde_mm256_castpd_ps(                                                                         \
        simde_mm256_unpacklo_pd(simde_mm256_castps_pd(a), simde_mm256_castps_pd(b)))
#define HI(a, b)                                                                                   \
    simde_mm256_castpd_ps(                                                                         \
        simde_mm256_unpackhi_pd(simde_mm256_castps_pd(a), simde_mm256_castps_pd(b)))
    pose_lanes p = {LO(xy01, xy23), HI(xy01, xy23), LO(cs01, cs23), HI(cs01, cs23)};
#undef LO
#undef HI
    return p;
}

/* |(c*c + s*s) - 1| <= tolerance for 4 lanes, in double: all ones where it holds (NaN
 * fails, as in the scalar rule) */
static inline simde__m256d unit_lanes(simde__m128 c4, simde__m128 s4) {
    simde__m256d c = simde_mm256_cvtps_pd(c4), s = simde_mm256_cvtps_pd(s4);
    simde__m256d d =
        simde_mm256_sub_pd(simde_mm256_add_pd(simde_mm256_mul_pd(c, c), simde_mm256_mul_pd(s, s)),
                           simde_mm256_set1_pd(1.0));
    d = simde_mm256_andnot_pd(simde_mm256_set1_pd(-0.0), d);
    return simde_mm256_cmp_pd(d, simde_mm256_set1_pd((double)SEPAX_ROT_TOL), SIMDE_CMP_LE_OQ);
}

int CAT(SEPAX_KERNEL_NAME, _poses_valid)(const sepax_pose *poses, size_t count) {
    const simde__m256i magnitude = simde_mm256_set1_epi32(0x7fffffff);
    const simde__m256i limit =
        simde_mm256_set1_epi32((int32_t)sepax_magnitude_bits(SEPAX_COORD_LIMIT));
    simde__m256i far = simde_mm256_setzero_si256(); /* lanes past the limit (or not finite) */
    simde__m256d unit = simde_mm256_castsi256_pd(simde_mm256_set1_epi32(-1));
    size_t i = 0;
    for (; count - i >= L; i += L) {
        pose_lanes p = load_poses(poses + i);
        simde__m256i x = simde_mm256_and_si256(simde_mm256_castps_si256(p.x), magnitude);
        simde__m256i y = simde_mm256_and_si256(simde_mm256_castps_si256(p.y), magnitude);
        far = simde_mm256_or_si256(far, simde_mm256_or_si256(simde_mm256_cmpgt_epi32(x, limit),
                                                             simde_mm256_cmpgt_epi32(y, limit)));
        unit = simde_mm256_and_pd(
            unit, unit_lanes(simde_mm256_castps256_ps128(p.c), simde_mm256_castps256_ps128(p.s)));
        unit = simde_mm256_and_pd(unit, unit_lanes(simde_mm256_extractf128_ps(p.c, 1),
                                                   simde_mm256_extractf128_ps(p.s, 1)));
    }
    int ok = simde_mm256_movemask_epi8(far) == 0 && simde_mm256_movemask_pd(unit) == 0xf;
    for (; i < count; i++) ok &= sepax_pose_ok(&poses[i]);
    return ok;
}

void CAT(SEPAX_KERNEL_NAME, _poses_store)(sepax_pose_block *dst, const sepax_pose *poses,
                                          size_t blocks) {
    for (size_t b = 0; b < blocks; b++) {
        pose_lanes p = load_poses(poses + b * L);
        simde_mm256_storeu_ps(dst[b].px, p.x);
        simde_mm256_storeu_ps(dst[b].py, p.y);
        simde_mm256_storeu_ps(dst[b].c, p.c);
        simde_mm256_storeu_ps(dst[b].s, p.s);
    }
}

#elif defined(POSE_WIDE)
/* Poses q[0..3] as four vectors of lanes 0..3 (a 4 x 4 transpose). */
typedef struct pose_lanes {
    simde__m128 x, y, c, s;
} pose_lanes;

static inline pose_lanes load_poses(const sepax_pose *q) {
    const float *f = (const float *)q;
    simde__m128 r0 = simde_mm_loadu_ps(f), r1 = simde_mm_loadu_ps(f + 4);
    simde__m128 r2 = simde_mm_loadu_ps(f + 8), r3 = simde_mm_loadu_ps(f + 12);
    simde__m128 xy01 = simde_mm_unpacklo_ps(r0, r1), xy23 = simde_mm_unpacklo_ps(r2, r3);
    simde__m128 cs01 = simde_mm_unpackhi_ps(r0, r1), cs23 = simde_mm_unpackhi_ps(r2, r3);
    pose_lanes p = {simde_mm_movelh_ps(xy01, xy23), simde_mm_movehl_ps(xy23, xy01),
                    simde_mm_movelh_ps(cs01, cs23), simde_mm_movehl_ps(cs23, cs01)};
    return p;
}

/* the unit rule for lanes 0 and 1 of c4 and s4, in double */
static inline simde__m128d unit_lanes(simde__m128 c4, simde__m128 s4) {
    simde__m128d c = simde_mm_cvtps_pd(c4), s = simde_mm_cvtps_pd(s4);
    simde__m128d d = simde_mm_sub_pd(simde_mm_add_pd(simde_mm_mul_pd(c, c), simde_mm_mul_pd(s, s)),
                                     simde_mm_set1_pd(1.0));
    d = simde_mm_andnot_pd(simde_mm_set1_pd(-0.0), d);
    return simde_mm_cmple_pd(d, simde_mm_set1_pd((double)SEPAX_ROT_TOL));
}

int CAT(SEPAX_KERNEL_NAME, _poses_valid)(const sepax_pose *poses, size_t count) {
    const simde__m128i magnitude = simde_mm_set1_epi32(0x7fffffff);
    const simde__m128i limit =
        simde_mm_set1_epi32((int32_t)sepax_magnitude_bits(SEPAX_COORD_LIMIT));
    simde__m128i far = simde_mm_setzero_si128();
    simde__m128d unit = simde_mm_castsi128_pd(simde_mm_set1_epi32(-1));
    size_t i = 0;
    for (; count - i >= 4; i += 4) {
        pose_lanes p = load_poses(poses + i);
        simde__m128i x = simde_mm_and_si128(simde_mm_castps_si128(p.x), magnitude);
        simde__m128i y = simde_mm_and_si128(simde_mm_castps_si128(p.y), magnitude);
        far = simde_mm_or_si128(
            far, simde_mm_or_si128(simde_mm_cmpgt_epi32(x, limit), simde_mm_cmpgt_epi32(y, limit)));
        unit = simde_mm_and_pd(unit, unit_lanes(p.c, p.s));
        unit = simde_mm_and_pd(
            unit, unit_lanes(simde_mm_movehl_ps(p.c, p.c), simde_mm_movehl_ps(p.s, p.s)));
    }
    int ok = simde_mm_movemask_epi8(far) == 0 && simde_mm_movemask_pd(unit) == 0x3;
    for (; i < count; i++) ok &= sepax_pose_ok(&poses[i]);
    return ok;
}

void CAT(SEPAX_KERNEL_NAME, _poses_store)(sepax_pose_block *dst, const sepax_pose *poses,
                                          size_t blocks) {
    for (size_t b = 0; b < blocks; b++) {
        for (int h = 0; h < L; h += 4) {
            pose_lanes p = load_poses(poses + b * L + (size_t)h);
            simde_mm_storeu_ps(dst[b].px + h, p.x);
            simde_mm_storeu_ps(dst[b].py + h, p.y);
            simde_mm_storeu_ps(dst[b].c + h, p.c);
            simde_mm_storeu_ps(dst[b].s + h, p.s);
        }
    }
}

#else /* the scalar copy: the rules and the transpose one pose a step */
int CAT(SEPAX_KERNEL_NAME, _poses_valid)(const sepax_pose *poses, size_t count) {
    int ok = 1;
    for (size_t i = 0; i < count; i++) ok &= sepax_pose_ok(&poses[i]);
    return ok;
}

void CAT(SEPAX_KERNEL_NAME, _poses_store)(sepax_pose_block *dst, const sepax_pose *poses,
                                          size_t blocks) {
    for (size_t b = 0; b < blocks; b++) {
        for (unsigned l = 0; l < L; l++) {
            const sepax_pose *q = &poses[b * L + l];
            dst[b].px[l] = q->position.x;
            dst[b].py[l] = q->position.y;
            dst[b].c[l] = q->rotation.c;
            dst[b].s[l] = q->rotation.s;
        }
    }
}
#endif
