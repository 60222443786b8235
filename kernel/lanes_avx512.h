/* AVX-512F: two pairs per 16-lane register, slot 0 in the low 256 bits. */
#include <simde/x86/avx512.h>

#include "lanes_rows8.h"

#define SEPAX_P 2

typedef simde__m512 lf;

static inline lf lf_load(const float *p0, const float *p1) {
    simde__m512 lo = simde_mm512_castps256_ps512(simde_mm256_load_ps(p0));
    simde__m256d hi = simde_mm256_castps_pd(simde_mm256_load_ps(p1));
    return simde_mm512_castpd_ps(simde_mm512_insertf64x4(simde_mm512_castps_pd(lo), hi, 1));
}
static inline lf lf_bcast(const float *p0, const float *p1) {
    return simde_mm512_mask_mov_ps(simde_mm512_set1_ps(*p0), (simde__mmask16)0xff00,
                                   simde_mm512_set1_ps(*p1));
}
static inline lf lf_add(lf a, lf b) { return simde_mm512_add_ps(a, b); }
static inline lf lf_sub(lf a, lf b) { return simde_mm512_sub_ps(a, b); }
static inline lf lf_mul(lf a, lf b) { return simde_mm512_mul_ps(a, b); }
static inline lf lf_min(lf a, lf b) { return simde_mm512_min_ps(a, b); }
static inline lf lf_max(lf a, lf b) { return simde_mm512_max_ps(a, b); }
static inline lf lf_div(lf a, lf b) { return simde_mm512_div_ps(a, b); }

/* Sixteen rows, four 128-bit quarters to a register: quarter q of quad j holds row 4q + j,
 * loaded by broadcasts merged under a mask (load ports and a blend) rather than inserted
 * (the shuffle port, which the transpose after them needs); then the 4 x 4 transpose in
 * each quarter puts row t's element k in lane t of out[k]. */
LF_INLINE simde__m512 quad(const float *const *p, size_t at, int j) {
    simde__m512 r = simde_mm512_broadcast_f32x4(simde_mm_load_ps(p[j] + at));
    r = simde_mm512_mask_broadcast_f32x4(r, (simde__mmask16)0x00f0,
                                         simde_mm_load_ps(p[4 + j] + at));
    r = simde_mm512_mask_broadcast_f32x4(r, (simde__mmask16)0x0f00,
                                         simde_mm_load_ps(p[8 + j] + at));
    return simde_mm512_mask_broadcast_f32x4(r, (simde__mmask16)0xf000,
                                            simde_mm_load_ps(p[12 + j] + at));
}
LF_INLINE void lf_rows4(const float *const *p, size_t at, lf out[4]) {
    simde__m512 r0 = quad(p, at, 0), r1 = quad(p, at, 1), r2 = quad(p, at, 2), r3 = quad(p, at, 3);
    simde__m512 t0 = simde_mm512_unpacklo_ps(r0, r1), t1 = simde_mm512_unpackhi_ps(r0, r1);
    simde__m512 t2 = simde_mm512_unpacklo_ps(r2, r3), t3 = simde_mm512_unpackhi_ps(r2, r3);
    out[0] = simde_mm512_shuffle_ps(t0, t2, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    out[1] = simde_mm512_shuffle_ps(t0, t2, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
    out[2] = simde_mm512_shuffle_ps(t1, t3, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    out[3] = simde_mm512_shuffle_ps(t1, t3, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
}
static inline lf lf_sqrt(lf a) { return simde_mm512_sqrt_ps(a); }
static inline lf lf_sel_lt(lf a, lf b, lf x, lf y) {
    return simde_mm512_mask_blend_ps(simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LT_OQ), y, x);
}
static inline lf lf_sel_gt(lf a, lf b, lf x, lf y) { return lf_sel_lt(b, a, x, y); }
/* integer lanes for squared distances, as lanes_avx2.h */
static inline lf lf_min_nn(lf a, lf b) {
    return simde_mm512_castsi512_ps(
        simde_mm512_min_epi32(simde_mm512_castps_si512(a), simde_mm512_castps_si512(b)));
}
static inline lf lf_sel_lt_nn(lf a, lf b, lf x, lf y) {
    return simde_mm512_mask_blend_ps(
        simde_mm512_cmpgt_epi32_mask(simde_mm512_castps_si512(b), simde_mm512_castps_si512(a)), y,
        x);
}

static inline lf lf_slot_max(lf a) {
    /* swap the 128-bit quarters inside each 256-bit slot, then within 128 */
    lf m = simde_mm512_max_ps(a, simde_mm512_shuffle_f32x4(a, a, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
    m = simde_mm512_max_ps(m, simde_mm512_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm512_max_ps(m, simde_mm512_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
}

static inline unsigned lf_eq_bits(lf a, lf b) {
    return (unsigned)simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_EQ_OQ);
}

static inline void lf_store(lf a, float *out) { simde_mm512_storeu_ps(out, a); }

static inline unsigned lf_le_bits(lf a, lf b) {
    return (unsigned)simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LE_OQ);
}

static inline void lf_store2(lf a, float *p0, float *p1) {
    simde_mm256_store_ps(p0, simde_mm512_castps512_ps256(a));
    simde_mm256_store_ps(
        p1, simde_mm256_castpd_ps(simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(a), 1)));
}

/* a store that bypasses the caches (for data not read again soon); lf_stream_fence after */
static inline void lf_stream2(lf a, float *p0, float *p1) {
    simde_mm256_stream_ps(p0, simde_mm512_castps512_ps256(a));
    simde_mm256_stream_ps(
        p1, simde_mm256_castpd_ps(simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(a), 1)));
}
static inline void lf_stream_fence(void) { simde_mm_sfence(); }

/* SIMDe 0.7 has no 512-bit float-to-integer conversion: a whole number v < 2^23 plus 2^23 is
 * exact, with v as its mantissa's bits */
static inline simde__m512i whole_bits(lf v) {
    simde__m512 two23 = simde_mm512_set1_ps(8388608.0f);
    return simde_mm512_xor_si512(simde_mm512_castps_si512(simde_mm512_add_ps(v, two23)),
                                 simde_mm512_castps_si512(two23));
}
/* lanes of two whole numbers lo, hi in [0, 65536), joined as the bits of the integer
 * lo | hi << 16 (feature ids: moved and stored, never computed with as floats) */
static inline lf lf_join16(lf lo, lf hi) {
    return simde_mm512_castsi512_ps(
        simde_mm512_or_si512(whole_bits(lo), simde_mm512_slli_epi32(whole_bits(hi), 16)));
}

/* rows[l][f] = lane l of field[f]: eight fields of the sixteen lanes, transposed in registers
 * a 256-bit half at a time */
LF_INLINE void lf_put_rows(const lf field[8], float (*rows)[8]) {
    for (int half = 0; half < 2; half++) {
        simde__m256 h[8];
        for (int f = 0; f < 8; f++)
            h[f] = half ? simde_mm256_castpd_ps(
                              simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(field[f]), 1))
                        : simde_mm512_castps512_ps256(field[f]);
        put_rows8(h, rows + 8 * half);
    }
}
