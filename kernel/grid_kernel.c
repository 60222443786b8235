/* The broadphase's range test, compiled per ISA like sat_kernel.c: one box
 * (and filter) against a contiguous run of the grid's sorted boxes, 8 (AVX2,
 * AVX-512) or 4 lanes at a time, the passing positions written out in order
 * without a branch per candidate. Comparisons are exact, so every backend
 * finds the same positions. */
#include "kernel.h"

#if defined(SEPAX_ISA_AVX2) || defined(SEPAX_ISA_AVX512)
#include <simde/x86/avx2.h>
#define BOX_WIDE 1
#else
#include <simde/x86/sse2.h>
#define BOX_WIDE 0
#endif

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

size_t CAT(SEPAX_KERNEL_NAME, _box_run)(const sepax_box_soa *soa, uint32_t begin, uint32_t end,
                                        const sepax_box_probe *probe, uint32_t *out);

/* Append begin + k for every set bit k of `bits`, in order: every lane is written, the
 * count advances only past the passing ones (out has room for the whole vector). */
static inline size_t emit(uint32_t *out, size_t n, uint32_t base, unsigned bits, int width) {
    for (int k = 0; k < width; k++) {
        out[n] = base + (uint32_t)k;
        n += (bits >> k) & 1u;
    }
    return n;
}

#if BOX_WIDE
#define W 8
static inline unsigned test_lanes(const sepax_box_soa *soa, uint32_t j, simde__m256 plox,
                                  simde__m256 ploy, simde__m256 phix, simde__m256 phiy,
                                  simde__m256i pcat, simde__m256i pmask, simde__m256i nofilter) {
    simde__m256 lox = simde_mm256_loadu_ps(soa->lox + j), loy = simde_mm256_loadu_ps(soa->loy + j);
    simde__m256 hix = simde_mm256_loadu_ps(soa->hix + j), hiy = simde_mm256_loadu_ps(soa->hiy + j);
    simde__m256 in = simde_mm256_and_ps(simde_mm256_cmp_ps(phix, lox, SIMDE_CMP_GE_OQ),
                                        simde_mm256_cmp_ps(hix, plox, SIMDE_CMP_GE_OQ));
    in = simde_mm256_and_ps(in, simde_mm256_and_ps(simde_mm256_cmp_ps(phiy, loy, SIMDE_CMP_GE_OQ),
                                                   simde_mm256_cmp_ps(hiy, ploy, SIMDE_CMP_GE_OQ)));
    simde__m256i cat = simde_mm256_loadu_si256((const void *)(soa->cat + j));
    simde__m256i mask = simde_mm256_loadu_si256((const void *)(soa->mask + j));
    simde__m256i zero = simde_mm256_setzero_si256();
    /* a lane fails the filter when either and is zero */
    simde__m256i fail =
        simde_mm256_or_si256(simde_mm256_cmpeq_epi32(simde_mm256_and_si256(pcat, mask), zero),
                             simde_mm256_cmpeq_epi32(simde_mm256_and_si256(cat, pmask), zero));
    fail = simde_mm256_andnot_si256(nofilter, fail);
    return (unsigned)simde_mm256_movemask_ps(
               simde_mm256_andnot_ps(simde_mm256_castsi256_ps(fail), in)) &
           0xffu;
}
#else
#define W 4
static inline unsigned test_lanes(const sepax_box_soa *soa, uint32_t j, simde__m128 plox,
                                  simde__m128 ploy, simde__m128 phix, simde__m128 phiy,
                                  simde__m128i pcat, simde__m128i pmask, simde__m128i nofilter) {
    simde__m128 lox = simde_mm_loadu_ps(soa->lox + j), loy = simde_mm_loadu_ps(soa->loy + j);
    simde__m128 hix = simde_mm_loadu_ps(soa->hix + j), hiy = simde_mm_loadu_ps(soa->hiy + j);
    simde__m128 in = simde_mm_and_ps(simde_mm_cmpge_ps(phix, lox), simde_mm_cmpge_ps(hix, plox));
    in = simde_mm_and_ps(
        in, simde_mm_and_ps(simde_mm_cmpge_ps(phiy, loy), simde_mm_cmpge_ps(hiy, ploy)));
    simde__m128i cat = simde_mm_loadu_si128((const void *)(soa->cat + j));
    simde__m128i mask = simde_mm_loadu_si128((const void *)(soa->mask + j));
    simde__m128i zero = simde_mm_setzero_si128();
    simde__m128i fail =
        simde_mm_or_si128(simde_mm_cmpeq_epi32(simde_mm_and_si128(pcat, mask), zero),
                          simde_mm_cmpeq_epi32(simde_mm_and_si128(cat, pmask), zero));
    fail = simde_mm_andnot_si128(nofilter, fail);
    return (unsigned)simde_mm_movemask_ps(simde_mm_andnot_ps(simde_mm_castsi128_ps(fail), in)) &
           0xfu;
}
#endif

size_t CAT(SEPAX_KERNEL_NAME, _box_run)(const sepax_box_soa *soa, uint32_t begin, uint32_t end,
                                        const sepax_box_probe *probe, uint32_t *out) {
#if BOX_WIDE
    simde__m256 plox = simde_mm256_set1_ps(probe->lox), ploy = simde_mm256_set1_ps(probe->loy);
    simde__m256 phix = simde_mm256_set1_ps(probe->hix), phiy = simde_mm256_set1_ps(probe->hiy);
    simde__m256i pcat = simde_mm256_set1_epi32((int32_t)probe->cat);
    simde__m256i pmask = simde_mm256_set1_epi32((int32_t)probe->mask);
    simde__m256i nofilter = simde_mm256_set1_epi32(probe->filter ? 0 : -1);
#else
    simde__m128 plox = simde_mm_set1_ps(probe->lox), ploy = simde_mm_set1_ps(probe->loy);
    simde__m128 phix = simde_mm_set1_ps(probe->hix), phiy = simde_mm_set1_ps(probe->hiy);
    simde__m128i pcat = simde_mm_set1_epi32((int32_t)probe->cat);
    simde__m128i pmask = simde_mm_set1_epi32((int32_t)probe->mask);
    simde__m128i nofilter = simde_mm_set1_epi32(probe->filter ? 0 : -1);
#endif
    size_t n = 0;
    uint32_t j = begin;
    for (; j + W <= end; j += W) {
        unsigned bits = test_lanes(soa, j, plox, ploy, phix, phiy, pcat, pmask, nofilter);
        if (bits) n = emit(out, n, j, bits, W); /* most groups of a sparse frame have none */
    }
    if (j < end) { /* the last lanes read the padding past the run; their bits are dropped */
        unsigned bits = test_lanes(soa, j, plox, ploy, phix, phiy, pcat, pmask, nofilter);
        n = emit(out, n, j, bits & ((1u << (end - j)) - 1u), W);
    }
    return n;
}
