/* One lane at a time, in plain C: the portable backend. Built with
 * -fno-tree-vectorize so it stays what its name says. */
#define SEPAX_P 1

typedef struct lf {
    float v[8];
} lf;

/* Lane loops unrolled by request: the copy is built at -O2 (see
 * kernel/meson.build), which would keep them as loops through memory. */
#define LF_EACH(expr)                                                                              \
    lf r;                                                                                          \
    _Pragma("GCC unroll 8") for (int k = 0; k < 8; k++) r.v[k] = (expr);                           \
    return r

static inline lf lf_load(const float *p0, const float *p1) {
    (void)p1;
    LF_EACH(p0[k]);
}
static inline lf lf_bcast(const float *p0, const float *p1) {
    (void)p1;
    LF_EACH(*p0);
}
static inline lf lf_add(lf a, lf b) { LF_EACH(a.v[k] + b.v[k]); }
static inline lf lf_sub(lf a, lf b) { LF_EACH(a.v[k] - b.v[k]); }
static inline lf lf_mul(lf a, lf b) { LF_EACH(a.v[k] * b.v[k]); }
static inline lf lf_min(lf a, lf b) { LF_EACH(a.v[k] < b.v[k] ? a.v[k] : b.v[k]); }
static inline lf lf_max(lf a, lf b) { LF_EACH(a.v[k] > b.v[k] ? a.v[k] : b.v[k]); }
static inline lf lf_div(lf a, lf b) { LF_EACH(a.v[k] / b.v[k]); }
LF_INLINE void lf_rows4(const float *const *p, size_t at, lf out[4]) {
    _Pragma("GCC unroll 8") for (int k = 0; k < 8; k++) for (int c = 0; c < 4; c++) out[c].v[k] =
        p[k][at + c];
}
static inline lf lf_sqrt(lf a) { LF_EACH(__builtin_sqrtf(a.v[k])); }
static inline lf lf_sel_lt(lf a, lf b, lf x, lf y) { LF_EACH(a.v[k] < b.v[k] ? x.v[k] : y.v[k]); }
static inline lf lf_sel_gt(lf a, lf b, lf x, lf y) { LF_EACH(a.v[k] > b.v[k] ? x.v[k] : y.v[k]); }
/* the float forms: the same bits (lanes.h) */
static inline lf lf_min_nn(lf a, lf b) { return lf_min(a, b); }
static inline lf lf_sel_lt_nn(lf a, lf b, lf x, lf y) { return lf_sel_lt(a, b, x, y); }

static inline lf lf_slot_max(lf a) {
    float m = a.v[0];
    for (int k = 1; k < 8; k++) m = a.v[k] > m ? a.v[k] : m;
    LF_EACH(m);
}

static inline unsigned lf_eq_bits(lf a, lf b) {
    unsigned bits = 0;
    for (int k = 0; k < 8; k++) bits |= (unsigned)(a.v[k] == b.v[k]) << k;
    return bits;
}

static inline void lf_store(lf a, float *out) {
    for (int k = 0; k < 8; k++) out[k] = a.v[k];
}

static inline unsigned lf_le_bits(lf a, lf b) {
    unsigned bits = 0;
    for (int k = 0; k < 8; k++) bits |= (unsigned)(a.v[k] <= b.v[k]) << k;
    return bits;
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
static inline lf lf_join16(lf lo, lf hi) {
    lf r;
    for (int k = 0; k < 8; k++) {
        unsigned u = (unsigned)lo.v[k] | (unsigned)hi.v[k] << 16;
        __builtin_memcpy(&r.v[k], &u, sizeof u);
    }
    return r;
}

/* rows[l][f] = lane l of field[f] */
LF_INLINE void lf_put_rows(const lf field[8], float (*rows)[8]) {
    for (int l = 0; l < 8; l++)
        for (int f = 0; f < 8; f++) rows[l][f] = field[f].v[l];
}
