/* NEON: a slot is two 4-lane registers. vminq/vmaxq order -0 below +0 where
 * minps/maxps return their second operand, so min and max are a compare and
 * a select: the same bits as x86 for every input. */
#include <simde/arm/neon.h>

#define SEPAX_P 1

typedef struct lf {
    simde_float32x4_t lo, hi;
} lf;

static inline lf lf_load(const float *p0, const float *p1) {
    (void)p1;
    lf r = {simde_vld1q_f32(p0), simde_vld1q_f32(p0 + 4)};
    return r;
}
static inline lf lf_bcast(const float *p0, const float *p1) {
    (void)p1;
    simde_float32x4_t v = simde_vld1q_dup_f32(p0);
    lf r = {v, v};
    return r;
}

static inline simde_float32x4_t min4(simde_float32x4_t a, simde_float32x4_t b) {
    return simde_vbslq_f32(simde_vcltq_f32(a, b), a, b);
}
static inline simde_float32x4_t max4(simde_float32x4_t a, simde_float32x4_t b) {
    return simde_vbslq_f32(simde_vcgtq_f32(a, b), a, b);
}

#define LF_BINOP(name, op)                                                                         \
    static inline lf name(lf a, lf b) {                                                            \
        lf r = {op(a.lo, b.lo), op(a.hi, b.hi)};                                                   \
        return r;                                                                                  \
    }
LF_BINOP(lf_add, simde_vaddq_f32)
LF_BINOP(lf_sub, simde_vsubq_f32)
LF_BINOP(lf_mul, simde_vmulq_f32)
LF_BINOP(lf_min, min4)
LF_BINOP(lf_max, max4)
/* SIMDe 0.7 has no vdivq_f32 / vsqrtq_f32: native on aarch64, elsewhere one
 * lane at a time (IEEE division and square root round the same either way). */
static inline simde_float32x4_t div4(simde_float32x4_t a, simde_float32x4_t b) {
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vdivq_f32(a, b);
#else
    float x[4], y[4];
    simde_vst1q_f32(x, a);
    simde_vst1q_f32(y, b);
    for (int k = 0; k < 4; k++) x[k] = x[k] / y[k];
    return simde_vld1q_f32(x);
#endif
}
static inline simde_float32x4_t sqrt4(simde_float32x4_t a) {
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vsqrtq_f32(a);
#else
    float x[4];
    simde_vst1q_f32(x, a);
    for (int k = 0; k < 4; k++) x[k] = __builtin_sqrtf(x[k]);
    return simde_vld1q_f32(x);
#endif
}
LF_BINOP(lf_div, div4)

/* four registers transposed in place (lane c of r[k] becomes lane k of r[c]): pairs of
 * lanes swapped, then halves recombined */
LF_INLINE void transpose4(simde_float32x4_t r[4]) {
    simde_float32x4x2_t t01 = simde_vtrnq_f32(r[0], r[1]), t23 = simde_vtrnq_f32(r[2], r[3]);
    r[0] = simde_vcombine_f32(simde_vget_low_f32(t01.val[0]), simde_vget_low_f32(t23.val[0]));
    r[1] = simde_vcombine_f32(simde_vget_low_f32(t01.val[1]), simde_vget_low_f32(t23.val[1]));
    r[2] = simde_vcombine_f32(simde_vget_high_f32(t01.val[0]), simde_vget_high_f32(t23.val[0]));
    r[3] = simde_vcombine_f32(simde_vget_high_f32(t01.val[1]), simde_vget_high_f32(t23.val[1]));
}
/* four rows transposed */
LF_INLINE void rows4_4(const float *const *p, size_t at, simde_float32x4_t *c0,
                       simde_float32x4_t *c1, simde_float32x4_t *c2, simde_float32x4_t *c3) {
    simde_float32x4_t r[4] = {simde_vld1q_f32(p[0] + at), simde_vld1q_f32(p[1] + at),
                              simde_vld1q_f32(p[2] + at), simde_vld1q_f32(p[3] + at)};
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
    lf r = {sqrt4(a.lo), sqrt4(a.hi)};
    return r;
}
static inline lf lf_sel_lt(lf a, lf b, lf x, lf y) {
    lf r = {simde_vbslq_f32(simde_vcltq_f32(a.lo, b.lo), x.lo, y.lo),
            simde_vbslq_f32(simde_vcltq_f32(a.hi, b.hi), x.hi, y.hi)};
    return r;
}
static inline lf lf_sel_gt(lf a, lf b, lf x, lf y) { return lf_sel_lt(b, a, x, y); }
/* the float forms: the same bits (lanes.h) */
static inline lf lf_min_nn(lf a, lf b) { return lf_min(a, b); }
static inline lf lf_sel_lt_nn(lf a, lf b, lf x, lf y) { return lf_sel_lt(a, b, x, y); }

static inline lf lf_slot_max(lf a) {
    simde_float32x4_t m = max4(a.lo, a.hi);
    m = max4(m, simde_vextq_f32(m, m, 2));
    m = max4(m, simde_vrev64q_f32(m));
    lf r = {m, m};
    return r;
}

static inline unsigned lf_eq_bits(lf a, lf b) {
    static const uint32_t weight[4] = {1, 2, 4, 8};
    simde_uint32x4_t w = simde_vld1q_u32(weight);
    unsigned lo = simde_vaddvq_u32(simde_vandq_u32(simde_vceqq_f32(a.lo, b.lo), w));
    unsigned hi = simde_vaddvq_u32(simde_vandq_u32(simde_vceqq_f32(a.hi, b.hi), w));
    return lo | hi << 4;
}

static inline void lf_store(lf a, float *out) {
    simde_vst1q_f32(out, a.lo);
    simde_vst1q_f32(out + 4, a.hi);
}

static inline unsigned lf_le_bits(lf a, lf b) {
    static const uint32_t weight[4] = {1, 2, 4, 8};
    simde_uint32x4_t w = simde_vld1q_u32(weight);
    unsigned lo = simde_vaddvq_u32(simde_vandq_u32(simde_vcleq_f32(a.lo, b.lo), w));
    unsigned hi = simde_vaddvq_u32(simde_vandq_u32(simde_vcleq_f32(a.hi, b.hi), w));
    return lo | hi << 4;
}

static inline void lf_store2(lf a, float *p0, float *p1) {
    (void)p1;
    lf_store(a, p0);
}

/* no cache-bypassing store here: a plain one */
static inline void lf_stream2(lf a, float *p0, float *p1) { lf_store2(a, p0, p1); }
static inline void lf_stream_fence(void) {}

/* lanes of two whole numbers lo, hi in [0, 65536), joined as the bits of the integer
 * lo | hi << 16 (feature ids: moved and stored, never computed with as floats) */
static inline simde_float32x4_t join16_4(simde_float32x4_t lo, simde_float32x4_t hi) {
    return simde_vreinterpretq_f32_u32(
        simde_vorrq_u32(simde_vcvtq_u32_f32(lo), simde_vshlq_n_u32(simde_vcvtq_u32_f32(hi), 16)));
}
static inline lf lf_join16(lf lo, lf hi) {
    lf r = {join16_4(lo.lo, hi.lo), join16_4(lo.hi, hi.hi)};
    return r;
}

/* four registers transposed, then stored */
LF_INLINE void put4(simde_float32x4_t r0, simde_float32x4_t r1, simde_float32x4_t r2,
                    simde_float32x4_t r3, float *c0, float *c1, float *c2, float *c3) {
    simde_float32x4_t r[4] = {r0, r1, r2, r3};
    transpose4(r);
    simde_vst1q_f32(c0, r[0]);
    simde_vst1q_f32(c1, r[1]);
    simde_vst1q_f32(c2, r[2]);
    simde_vst1q_f32(c3, r[3]);
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
