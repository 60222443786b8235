/* AVX2: a slot is one 8-lane register. */
#include <simde/x86/avx2.h>

#include "lanes_rows8.h"
#if defined(SEPAX_ISA_AVX512)
#include <simde/x86/avx512.h>
#endif

#define SEPAX_P 1

typedef simde__m256 lf;

static inline lf lf_load(const float *p0, const float *p1) {
    (void)p1;
    return simde_mm256_load_ps(p0);
}
static inline lf lf_bcast(const float *p0, const float *p1) {
    (void)p1;
    return simde_mm256_set1_ps(*p0);
}
static inline lf lf_add(lf a, lf b) { return simde_mm256_add_ps(a, b); }
static inline lf lf_sub(lf a, lf b) { return simde_mm256_sub_ps(a, b); }
static inline lf lf_mul(lf a, lf b) { return simde_mm256_mul_ps(a, b); }
static inline lf lf_min(lf a, lf b) { return simde_mm256_min_ps(a, b); }
static inline lf lf_max(lf a, lf b) { return simde_mm256_max_ps(a, b); }
static inline lf lf_div(lf a, lf b) { return simde_mm256_div_ps(a, b); }

/* eight rows, lanes k and k+4 in one register, transposed in 128-bit halves */
LF_INLINE simde__m256 two(const float *a, const float *b) {
    return simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(simde_mm_load_ps(a)),
                                     simde_mm_load_ps(b), 1);
}
LF_INLINE void lf_rows4(const float *const *p, size_t at, lf out[4]) {
    simde__m256 r0 = two(p[0] + at, p[4] + at), r1 = two(p[1] + at, p[5] + at);
    simde__m256 r2 = two(p[2] + at, p[6] + at), r3 = two(p[3] + at, p[7] + at);
    simde__m256 t0 = simde_mm256_unpacklo_ps(r0, r1), t1 = simde_mm256_unpackhi_ps(r0, r1);
    simde__m256 t2 = simde_mm256_unpacklo_ps(r2, r3), t3 = simde_mm256_unpackhi_ps(r2, r3);
    out[0] = simde_mm256_shuffle_ps(t0, t2, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    out[1] = simde_mm256_shuffle_ps(t0, t2, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
    out[2] = simde_mm256_shuffle_ps(t1, t3, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    out[3] = simde_mm256_shuffle_ps(t1, t3, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
}

static inline lf lf_sqrt(lf a) { return simde_mm256_sqrt_ps(a); }
#if defined(SEPAX_ISA_AVX512)
/* the AVX-512 copy at 256 bits: a blend under a mask register runs on any of a Zen 4's four
 * float pipes, blendv only on the two that multiply */
static inline lf lf_sel_lt(lf a, lf b, lf x, lf y) {
    return simde_mm256_mask_blend_ps(simde_mm256_cmp_ps_mask(a, b, SIMDE_CMP_LT_OQ), y, x);
}
#else
static inline lf lf_sel_lt(lf a, lf b, lf x, lf y) {
    return simde_mm256_blendv_ps(y, x, simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ));
}
#endif
static inline lf lf_sel_gt(lf a, lf b, lf x, lf y) { return lf_sel_lt(b, a, x, y); }
/* A Zen 4 runs float compares and minimums on its two adders' pipes, integer ones on all four
 * (README, "Integer lanes for squared distances"). */
static inline lf lf_min_nn(lf a, lf b) {
    return simde_mm256_castsi256_ps(
        simde_mm256_min_epi32(simde_mm256_castps_si256(a), simde_mm256_castps_si256(b)));
}
#if defined(SEPAX_ISA_AVX512)
static inline lf lf_sel_lt_nn(lf a, lf b, lf x, lf y) {
    /* y where a >= b, else x */
    return simde_mm256_mask_blend_ps(
        simde_mm256_cmpge_epi32_mask(simde_mm256_castps_si256(a), simde_mm256_castps_si256(b)), x,
        y);
}
#else
static inline lf lf_sel_lt_nn(lf a, lf b, lf x, lf y) {
    simde__m256i lt =
        simde_mm256_cmpgt_epi32(simde_mm256_castps_si256(b), simde_mm256_castps_si256(a));
    return simde_mm256_blendv_ps(y, x, simde_mm256_castsi256_ps(lt));
}
#endif

static inline lf lf_slot_max(lf a) {
    lf m = simde_mm256_max_ps(a, simde_mm256_permute2f128_ps(a, a, 1));
    m = simde_mm256_max_ps(m, simde_mm256_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm256_max_ps(m, simde_mm256_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
}

static inline unsigned lf_eq_bits(lf a, lf b) {
    return (unsigned)simde_mm256_movemask_ps(simde_mm256_cmp_ps(a, b, SIMDE_CMP_EQ_OQ));
}

static inline void lf_store(lf a, float *out) { simde_mm256_storeu_ps(out, a); }

static inline unsigned lf_le_bits(lf a, lf b) {
    return (unsigned)simde_mm256_movemask_ps(simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ));
}

static inline void lf_store2(lf a, float *p0, float *p1) {
    (void)p1;
    simde_mm256_store_ps(p0, a);
}

/* a store that bypasses the caches (for data not read again soon); lf_stream_fence after */
static inline void lf_stream2(lf a, float *p0, float *p1) {
    (void)p1;
    simde_mm256_stream_ps(p0, a);
}
static inline void lf_stream_fence(void) { simde_mm_sfence(); }

/* Eight 16-byte records (x, y, r, 0) from the lanes of x, y and r, to out (32-byte aligned)
 * around the caches: a 4 x 8 transpose in registers (the update's discs). */
#define LF_HAS_STREAM_DISCS 1
static inline void lf_stream_discs(lf x, lf y, lf r, float *out) {
    simde__m256 z = simde_mm256_setzero_ps();
    simde__m256 t0 = simde_mm256_unpacklo_ps(x, y), t1 = simde_mm256_unpackhi_ps(x, y);
    simde__m256 u0 = simde_mm256_unpacklo_ps(r, z), u1 = simde_mm256_unpackhi_ps(r, z);
    /* lanes k and k + 4 of each: [x y r 0 | x y r 0] */
    simde__m256 d0 = simde_mm256_shuffle_ps(t0, u0, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    simde__m256 d1 = simde_mm256_shuffle_ps(t0, u0, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
    simde__m256 d2 = simde_mm256_shuffle_ps(t1, u1, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    simde__m256 d3 = simde_mm256_shuffle_ps(t1, u1, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
    simde_mm256_stream_ps(out, simde_mm256_permute2f128_ps(d0, d1, 0x20));
    simde_mm256_stream_ps(out + 8, simde_mm256_permute2f128_ps(d2, d3, 0x20));
    simde_mm256_stream_ps(out + 16, simde_mm256_permute2f128_ps(d0, d1, 0x31));
    simde_mm256_stream_ps(out + 24, simde_mm256_permute2f128_ps(d2, d3, 0x31));
}

/* lanes of two whole numbers lo, hi in [0, 65536), joined as the bits of the integer
 * lo | hi << 16 (feature ids: moved and stored, never computed with as floats) */
static inline lf lf_join16(lf lo, lf hi) {
    return simde_mm256_castsi256_ps(simde_mm256_or_si256(
        simde_mm256_cvttps_epi32(lo), simde_mm256_slli_epi32(simde_mm256_cvttps_epi32(hi), 16)));
}

/* rows[l][f] = lane l of field[f]: eight fields of the eight lanes, transposed in registers */
LF_INLINE void lf_put_rows(const lf field[8], float (*rows)[8]) { put_rows8(field, rows); }
