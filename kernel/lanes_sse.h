/* SSE2 / SSE4.1: a slot is two 4-lane registers. */
#if defined(SEPAX_ISA_SSE41)
#include <simde/x86/sse4.1.h>
#else
#include <simde/x86/sse2.h>
#endif

#define SEPAX_P 1

typedef struct lf {
    simde__m128 lo, hi;
} lf;

static inline lf lf_load(const float *p0, const float *p1) {
    (void)p1;
    lf r = {simde_mm_load_ps(p0), simde_mm_load_ps(p0 + 4)};
    return r;
}
static inline lf lf_bcast(const float *p0, const float *p1) {
    (void)p1;
    simde__m128 v = simde_mm_set1_ps(*p0);
    lf r = {v, v};
    return r;
}

#define LF_BINOP(name, op)                                                                         \
    static inline lf name(lf a, lf b) {                                                            \
        lf r = {op(a.lo, b.lo), op(a.hi, b.hi)};                                                   \
        return r;                                                                                  \
    }
LF_BINOP(lf_add, simde_mm_add_ps)
LF_BINOP(lf_sub, simde_mm_sub_ps)
LF_BINOP(lf_mul, simde_mm_mul_ps)
LF_BINOP(lf_min, simde_mm_min_ps)
LF_BINOP(lf_max, simde_mm_max_ps)
LF_BINOP(lf_div, simde_mm_div_ps)

/* four registers transposed in place: lane c of r[k] becomes lane k of r[c] */
LF_INLINE void transpose4(simde__m128 r[4]) {
    simde__m128 t0 = simde_mm_unpacklo_ps(r[0], r[1]), t1 = simde_mm_unpackhi_ps(r[0], r[1]);
    simde__m128 t2 = simde_mm_unpacklo_ps(r[2], r[3]), t3 = simde_mm_unpackhi_ps(r[2], r[3]);
    r[0] = simde_mm_movelh_ps(t0, t2);
    r[1] = simde_mm_movehl_ps(t2, t0);
    r[2] = simde_mm_movelh_ps(t1, t3);
    r[3] = simde_mm_movehl_ps(t3, t1);
}
/* four rows transposed */
LF_INLINE void rows4_4(const float *const *p, size_t at, simde__m128 *c0, simde__m128 *c1,
                       simde__m128 *c2, simde__m128 *c3) {
    simde__m128 r[4] = {simde_mm_load_ps(p[0] + at), simde_mm_load_ps(p[1] + at),
                        simde_mm_load_ps(p[2] + at), simde_mm_load_ps(p[3] + at)};
    transpose4(r);
    *c0 = r[0];
    *c1 = r[1];
    *c2 = r[2];
    *c3 = r[3];
}
LF_INLINE void lf_rows4(const float *const *p, size_t at, lf out[4]) {
    rows4_4(p, at, &out[0].lo, &out[1].lo, &out[2].lo, &out[3].lo);
    rows4_4(p + 4, at, &out[0].hi, &out[1].hi, &out[2].hi, &out[3].hi);
}

static inline lf lf_sqrt(lf a) {
    lf r = {simde_mm_sqrt_ps(a.lo), simde_mm_sqrt_ps(a.hi)};
    return r;
}

static inline simde__m128 sel4(simde__m128 m, simde__m128 x, simde__m128 y) {
    return simde_mm_or_ps(simde_mm_and_ps(m, x), simde_mm_andnot_ps(m, y));
}
static inline lf lf_sel_lt(lf a, lf b, lf x, lf y) {
    lf r = {sel4(simde_mm_cmplt_ps(a.lo, b.lo), x.lo, y.lo),
            sel4(simde_mm_cmplt_ps(a.hi, b.hi), x.hi, y.hi)};
    return r;
}
static inline lf lf_sel_gt(lf a, lf b, lf x, lf y) { return lf_sel_lt(b, a, x, y); }
/* SSE4.1's integer minimum and SSE2's integer compare, as lanes_avx2.h; SSE2 has no
 * 32-bit integer minimum, and a compare and select would cost more than minps */
#if defined(SEPAX_ISA_SSE41)
static inline lf lf_min_nn(lf a, lf b) {
    lf r = {simde_mm_castsi128_ps(
                simde_mm_min_epi32(simde_mm_castps_si128(a.lo), simde_mm_castps_si128(b.lo))),
            simde_mm_castsi128_ps(
                simde_mm_min_epi32(simde_mm_castps_si128(a.hi), simde_mm_castps_si128(b.hi)))};
    return r;
}
#else
static inline lf lf_min_nn(lf a, lf b) { return lf_min(a, b); }
#endif
static inline simde__m128 lt_nn4(simde__m128 a, simde__m128 b) {
    return simde_mm_castsi128_ps(
        simde_mm_cmpgt_epi32(simde_mm_castps_si128(b), simde_mm_castps_si128(a)));
}
static inline lf lf_sel_lt_nn(lf a, lf b, lf x, lf y) {
    lf r = {sel4(lt_nn4(a.lo, b.lo), x.lo, y.lo), sel4(lt_nn4(a.hi, b.hi), x.hi, y.hi)};
    return r;
}

static inline lf lf_slot_max(lf a) {
    simde__m128 m = simde_mm_max_ps(a.lo, a.hi);
    m = simde_mm_max_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    m = simde_mm_max_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
    lf r = {m, m};
    return r;
}

static inline unsigned lf_eq_bits(lf a, lf b) {
    unsigned lo = (unsigned)simde_mm_movemask_ps(simde_mm_cmpeq_ps(a.lo, b.lo));
    unsigned hi = (unsigned)simde_mm_movemask_ps(simde_mm_cmpeq_ps(a.hi, b.hi));
    return lo | hi << 4;
}

static inline void lf_store(lf a, float *out) {
    simde_mm_storeu_ps(out, a.lo);
    simde_mm_storeu_ps(out + 4, a.hi);
}

static inline unsigned lf_le_bits(lf a, lf b) {
    unsigned lo = (unsigned)simde_mm_movemask_ps(simde_mm_cmple_ps(a.lo, b.lo));
    unsigned hi = (unsigned)simde_mm_movemask_ps(simde_mm_cmple_ps(a.hi, b.hi));
    return lo | hi << 4;
}

static inline void lf_store2(lf a, float *p0, float *p1) {
    (void)p1;
    simde_mm_store_ps(p0, a.lo);
    simde_mm_store_ps(p0 + 4, a.hi);
}

/* a store that bypasses the caches (for data not read again soon); lf_stream_fence after */
static inline void lf_stream2(lf a, float *p0, float *p1) {
    (void)p1;
    simde_mm_stream_ps(p0, a.lo);
    simde_mm_stream_ps(p0 + 4, a.hi);
}
static inline void lf_stream_fence(void) { simde_mm_sfence(); }

/* lanes of two whole numbers lo, hi in [0, 65536), joined as the bits of the integer
 * lo | hi << 16 (feature ids: moved and stored, never computed with as floats) */
static inline simde__m128 join16_4(simde__m128 lo, simde__m128 hi) {
    return simde_mm_castsi128_ps(simde_mm_or_si128(
        simde_mm_cvttps_epi32(lo), simde_mm_slli_epi32(simde_mm_cvttps_epi32(hi), 16)));
}
static inline lf lf_join16(lf lo, lf hi) {
    lf r = {join16_4(lo.lo, hi.lo), join16_4(lo.hi, hi.hi)};
    return r;
}

/* four registers transposed, then stored */
LF_INLINE void put4(simde__m128 r0, simde__m128 r1, simde__m128 r2, simde__m128 r3, float *c0,
                    float *c1, float *c2, float *c3) {
    simde__m128 r[4] = {r0, r1, r2, r3};
    transpose4(r);
    simde_mm_store_ps(c0, r[0]);
    simde_mm_store_ps(c1, r[1]);
    simde_mm_store_ps(c2, r[2]);
    simde_mm_store_ps(c3, r[3]);
}
/* rows[l][f] = lane l of field[f]: eight fields of the eight lanes, transposed in registers */
LF_INLINE void lf_put_rows(const lf field[8], float (*rows)[8]) {
    for (int f = 0; f < 8; f += 4) {
        put4(field[f].lo, field[f + 1].lo, field[f + 2].lo, field[f + 3].lo, rows[0] + f,
             rows[1] + f, rows[2] + f, rows[3] + f);
        put4(field[f].hi, field[f + 1].hi, field[f + 2].hi, field[f + 3].hi, rows[4] + f,
             rows[5] + f, rows[6] + f, rows[7] + f);
    }
}
