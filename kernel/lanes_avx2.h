/* AVX2: a slot is one 8-lane register. */
#include <simde/x86/avx2.h>

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
static inline lf lf_gather(const float *b, const int32_t *i0, const int32_t *i1) {
    (void)i1;
    return simde_mm256_i32gather_ps(b, simde_mm256_loadu_si256((const void *)i0), 4);
}
static inline lf lf_sqrt(lf a) { return simde_mm256_sqrt_ps(a); }
static inline lf lf_sel_lt(lf a, lf b, lf x, lf y) {
    return simde_mm256_blendv_ps(y, x, simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ));
}
static inline lf lf_sel_gt(lf a, lf b, lf x, lf y) { return lf_sel_lt(b, a, x, y); }

static inline lf lf_slot_min(lf a) {
    lf m = simde_mm256_min_ps(a, simde_mm256_permute2f128_ps(a, a, 1));
    m = simde_mm256_min_ps(m, simde_mm256_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm256_min_ps(m, simde_mm256_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
}

static inline lf lf_slot_max(lf a) {
    lf m = simde_mm256_max_ps(a, simde_mm256_permute2f128_ps(a, a, 1));
    m = simde_mm256_max_ps(m, simde_mm256_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm256_max_ps(m, simde_mm256_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
}

static inline unsigned lf_eq_bits(lf a, lf b) {
    return (unsigned)simde_mm256_movemask_ps(simde_mm256_cmp_ps(a, b, SIMDE_CMP_EQ_OQ));
}

static inline void lf_store(lf a, float *out) { simde_mm256_storeu_ps(out, a); }

static inline void lf_store2(lf a, float *p0, float *p1) {
    (void)p1;
    simde_mm256_store_ps(p0, a);
}
