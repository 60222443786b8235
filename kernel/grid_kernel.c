/* The broadphase's range test, compiled per ISA like sat_kernel.c: one box
 * (and filter) against a contiguous run of the grid's sorted boxes, 8 (AVX2,
 * AVX-512) or 4 lanes at a time, the passing positions written out in order
 * without a branch per candidate. Comparisons are exact, so every backend
 * finds the same positions. */
#include "kernel.h"

#if defined(SEPAX_ISA_AVX512)
#include <simde/x86/avx512.h>
#define BOX_WIDE 1
/* AVX-512VL at 256 bits: the tests into a mask register and the passing positions packed by
 * vpcompressd, where AVX2 needs a movemask, a table load and a variable shift */
#define BOX_MASKED 1
#elif defined(SEPAX_ISA_AVX2)
#include <simde/x86/avx2.h>
#define BOX_WIDE 1
#define BOX_MASKED 0
#else
#include <simde/x86/sse2.h>
#define BOX_WIDE 0
#endif

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

size_t CAT(SEPAX_KERNEL_NAME, _box_run)(const sepax_box_soa *soa, const uint32_t *runs,
                                        uint32_t nruns, const sepax_box_probe *probe,
                                        uint32_t *out);
size_t CAT(SEPAX_KERNEL_NAME, _box_cell)(const sepax_box_soa *soa, uint32_t first, uint32_t owners,
                                         const uint32_t runs[4], int filter, uint32_t *out,
                                         uint32_t *owner_of);

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
#if !BOX_MASKED
/* For each 8-bit mask, the lanes of its set bits in order, a nibble each (low nibble
 * first): one table load and a shift per lane compress a register's passing positions.
 * Generated: entry m = sum over the i-th set bit k of m of k << 4i. */
static const uint32_t k_compress[256] = {
    0x00000000u, 0x00000000u, 0x00000001u, 0x00000010u, 0x00000002u, 0x00000020u, 0x00000021u,
    0x00000210u, 0x00000003u, 0x00000030u, 0x00000031u, 0x00000310u, 0x00000032u, 0x00000320u,
    0x00000321u, 0x00003210u, 0x00000004u, 0x00000040u, 0x00000041u, 0x00000410u, 0x00000042u,
    0x00000420u, 0x00000421u, 0x00004210u, 0x00000043u, 0x00000430u, 0x00000431u, 0x00004310u,
    0x00000432u, 0x00004320u, 0x00004321u, 0x00043210u, 0x00000005u, 0x00000050u, 0x00000051u,
    0x00000510u, 0x00000052u, 0x00000520u, 0x00000521u, 0x00005210u, 0x00000053u, 0x00000530u,
    0x00000531u, 0x00005310u, 0x00000532u, 0x00005320u, 0x00005321u, 0x00053210u, 0x00000054u,
    0x00000540u, 0x00000541u, 0x00005410u, 0x00000542u, 0x00005420u, 0x00005421u, 0x00054210u,
    0x00000543u, 0x00005430u, 0x00005431u, 0x00054310u, 0x00005432u, 0x00054320u, 0x00054321u,
    0x00543210u, 0x00000006u, 0x00000060u, 0x00000061u, 0x00000610u, 0x00000062u, 0x00000620u,
    0x00000621u, 0x00006210u, 0x00000063u, 0x00000630u, 0x00000631u, 0x00006310u, 0x00000632u,
    0x00006320u, 0x00006321u, 0x00063210u, 0x00000064u, 0x00000640u, 0x00000641u, 0x00006410u,
    0x00000642u, 0x00006420u, 0x00006421u, 0x00064210u, 0x00000643u, 0x00006430u, 0x00006431u,
    0x00064310u, 0x00006432u, 0x00064320u, 0x00064321u, 0x00643210u, 0x00000065u, 0x00000650u,
    0x00000651u, 0x00006510u, 0x00000652u, 0x00006520u, 0x00006521u, 0x00065210u, 0x00000653u,
    0x00006530u, 0x00006531u, 0x00065310u, 0x00006532u, 0x00065320u, 0x00065321u, 0x00653210u,
    0x00000654u, 0x00006540u, 0x00006541u, 0x00065410u, 0x00006542u, 0x00065420u, 0x00065421u,
    0x00654210u, 0x00006543u, 0x00065430u, 0x00065431u, 0x00654310u, 0x00065432u, 0x00654320u,
    0x00654321u, 0x06543210u, 0x00000007u, 0x00000070u, 0x00000071u, 0x00000710u, 0x00000072u,
    0x00000720u, 0x00000721u, 0x00007210u, 0x00000073u, 0x00000730u, 0x00000731u, 0x00007310u,
    0x00000732u, 0x00007320u, 0x00007321u, 0x00073210u, 0x00000074u, 0x00000740u, 0x00000741u,
    0x00007410u, 0x00000742u, 0x00007420u, 0x00007421u, 0x00074210u, 0x00000743u, 0x00007430u,
    0x00007431u, 0x00074310u, 0x00007432u, 0x00074320u, 0x00074321u, 0x00743210u, 0x00000075u,
    0x00000750u, 0x00000751u, 0x00007510u, 0x00000752u, 0x00007520u, 0x00007521u, 0x00075210u,
    0x00000753u, 0x00007530u, 0x00007531u, 0x00075310u, 0x00007532u, 0x00075320u, 0x00075321u,
    0x00753210u, 0x00000754u, 0x00007540u, 0x00007541u, 0x00075410u, 0x00007542u, 0x00075420u,
    0x00075421u, 0x00754210u, 0x00007543u, 0x00075430u, 0x00075431u, 0x00754310u, 0x00075432u,
    0x00754320u, 0x00754321u, 0x07543210u, 0x00000076u, 0x00000760u, 0x00000761u, 0x00007610u,
    0x00000762u, 0x00007620u, 0x00007621u, 0x00076210u, 0x00000763u, 0x00007630u, 0x00007631u,
    0x00076310u, 0x00007632u, 0x00076320u, 0x00076321u, 0x00763210u, 0x00000764u, 0x00007640u,
    0x00007641u, 0x00076410u, 0x00007642u, 0x00076420u, 0x00076421u, 0x00764210u, 0x00007643u,
    0x00076430u, 0x00076431u, 0x00764310u, 0x00076432u, 0x00764320u, 0x00764321u, 0x07643210u,
    0x00000765u, 0x00007650u, 0x00007651u, 0x00076510u, 0x00007652u, 0x00076520u, 0x00076521u,
    0x00765210u, 0x00007653u, 0x00076530u, 0x00076531u, 0x00765310u, 0x00076532u, 0x00765320u,
    0x00765321u, 0x07653210u, 0x00007654u, 0x00076540u, 0x00076541u, 0x00765410u, 0x00076542u,
    0x00765420u, 0x00765421u, 0x07654210u, 0x00076543u, 0x00765430u, 0x00765431u, 0x07654310u,
    0x00765432u, 0x07654320u, 0x07654321u, 0x76543210u,
};
#endif

#if BOX_MASKED
static inline size_t emit_wide(uint32_t *out, size_t n, uint32_t base, unsigned bits) {
    const simde__m256i iota = simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    simde__m256i lanes = simde_mm256_add_epi32(iota, simde_mm256_set1_epi32((int32_t)base));
    simde_mm256_storeu_si256((void *)(out + n),
                             simde_mm256_maskz_compress_epi32((simde__mmask8)bits, lanes));
    return n + (size_t)__builtin_popcount(bits);
}
#else
static inline size_t emit_wide(uint32_t *out, size_t n, uint32_t base, unsigned bits) {
    static const int32_t shift[8] = {0, 4, 8, 12, 16, 20, 24, 28};
    simde__m256i lanes = simde_mm256_and_si256(
        simde_mm256_srlv_epi32(simde_mm256_set1_epi32((int32_t)k_compress[bits]),
                               simde_mm256_loadu_si256((const void *)shift)),
        simde_mm256_set1_epi32(7));
    simde_mm256_storeu_si256((void *)(out + n),
                             simde_mm256_add_epi32(lanes, simde_mm256_set1_epi32((int32_t)base)));
    return n + (size_t)__builtin_popcount(bits);
}
#endif

/* A probe broadcast to every lane. */
typedef struct probe_lanes {
    simde__m256 lox, loy, hix, hiy;
    simde__m256i cat, mask, nofilter;
} probe_lanes;

static inline probe_lanes probe_lanes_of(const sepax_box_probe *p) {
    probe_lanes q = {simde_mm256_set1_ps(p->lox),
                     simde_mm256_set1_ps(p->loy),
                     simde_mm256_set1_ps(p->hix),
                     simde_mm256_set1_ps(p->hiy),
                     simde_mm256_set1_epi32((int32_t)p->cat),
                     simde_mm256_set1_epi32((int32_t)p->mask),
                     simde_mm256_set1_epi32(p->filter ? 0 : -1)};
    return q;
}

static inline __attribute__((always_inline)) unsigned
test_lanes(const sepax_box_soa *soa, uint32_t j, const probe_lanes *q, int use_filter) {
    simde__m256 plox = q->lox, ploy = q->loy, phix = q->hix, phiy = q->hiy;
    simde__m256i pcat = q->cat, pmask = q->mask, nofilter = q->nofilter;
    simde__m256 lox = simde_mm256_loadu_ps(soa->lox + j), loy = simde_mm256_loadu_ps(soa->loy + j);
    simde__m256 hix = simde_mm256_loadu_ps(soa->hix + j), hiy = simde_mm256_loadu_ps(soa->hiy + j);
#if BOX_MASKED
    unsigned in = (unsigned)(simde_mm256_cmp_ps_mask(phix, lox, SIMDE_CMP_GE_OQ) &
                             simde_mm256_cmp_ps_mask(hix, plox, SIMDE_CMP_GE_OQ) &
                             simde_mm256_cmp_ps_mask(phiy, loy, SIMDE_CMP_GE_OQ) &
                             simde_mm256_cmp_ps_mask(hiy, ploy, SIMDE_CMP_GE_OQ));
    if (!use_filter) return in;
    simde__m256i cat = simde_mm256_loadu_si256((const void *)(soa->cat + j));
    simde__m256i mask = simde_mm256_loadu_si256((const void *)(soa->mask + j));
    /* a lane passes the filter when both ands are nonzero, or the probe has no filter */
    unsigned pass = (unsigned)(simde_mm256_test_epi32_mask(pcat, mask) &
                               simde_mm256_test_epi32_mask(cat, pmask)) |
                    (unsigned)simde_mm256_movepi32_mask(nofilter);
    return in & pass;
#else
    simde__m256 in = simde_mm256_and_ps(simde_mm256_cmp_ps(phix, lox, SIMDE_CMP_GE_OQ),
                                        simde_mm256_cmp_ps(hix, plox, SIMDE_CMP_GE_OQ));
    in = simde_mm256_and_ps(in, simde_mm256_and_ps(simde_mm256_cmp_ps(phiy, loy, SIMDE_CMP_GE_OQ),
                                                   simde_mm256_cmp_ps(hiy, ploy, SIMDE_CMP_GE_OQ)));
    if (!use_filter) return (unsigned)simde_mm256_movemask_ps(in) & 0xffu;
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
#endif
}
#else
#define W 4
/* A probe broadcast to every lane. */
typedef struct probe_lanes {
    simde__m128 lox, loy, hix, hiy;
    simde__m128i cat, mask, nofilter;
} probe_lanes;

static inline probe_lanes probe_lanes_of(const sepax_box_probe *p) {
    probe_lanes q = {simde_mm_set1_ps(p->lox),
                     simde_mm_set1_ps(p->loy),
                     simde_mm_set1_ps(p->hix),
                     simde_mm_set1_ps(p->hiy),
                     simde_mm_set1_epi32((int32_t)p->cat),
                     simde_mm_set1_epi32((int32_t)p->mask),
                     simde_mm_set1_epi32(p->filter ? 0 : -1)};
    return q;
}

static inline __attribute__((always_inline)) unsigned
test_lanes(const sepax_box_soa *soa, uint32_t j, const probe_lanes *q, int use_filter) {
    simde__m128 plox = q->lox, ploy = q->loy, phix = q->hix, phiy = q->hiy;
    simde__m128i pcat = q->cat, pmask = q->mask, nofilter = q->nofilter;
    simde__m128 lox = simde_mm_loadu_ps(soa->lox + j), loy = simde_mm_loadu_ps(soa->loy + j);
    simde__m128 hix = simde_mm_loadu_ps(soa->hix + j), hiy = simde_mm_loadu_ps(soa->hiy + j);
    simde__m128 in = simde_mm_and_ps(simde_mm_cmpge_ps(phix, lox), simde_mm_cmpge_ps(hix, plox));
    in = simde_mm_and_ps(
        in, simde_mm_and_ps(simde_mm_cmpge_ps(phiy, loy), simde_mm_cmpge_ps(hiy, ploy)));
    if (!use_filter) return (unsigned)simde_mm_movemask_ps(in) & 0xfu;
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

#if BOX_WIDE
#define EMIT(out, n, base, bits) emit_wide(out, n, base, bits)
/* The ids at positions j .. j + 7 (sid, padded past the last) whose bits are set, in order,
 * and the owner's id beside each: all 8 lanes of both written, like emit_wide. Ids, not
 * positions, so that the pairing does not look each one up again, a load on a load per
 * candidate (the positions are consecutive: here one vector load serves 8). */
static inline size_t emit_ids(uint32_t *out, uint32_t *owner_of, size_t n, const uint32_t *sid,
                              uint32_t j, unsigned bits, uint32_t owner) {
    simde__m256i ids = simde_mm256_loadu_si256((const void *)(sid + j));
    simde_mm256_storeu_si256((void *)(owner_of + n), simde_mm256_set1_epi32((int32_t)owner));
#if BOX_MASKED
    simde_mm256_storeu_si256((void *)(out + n),
                             simde_mm256_maskz_compress_epi32((simde__mmask8)bits, ids));
#else
    static const int32_t shift[8] = {0, 4, 8, 12, 16, 20, 24, 28};
    simde__m256i lanes = simde_mm256_and_si256(
        simde_mm256_srlv_epi32(simde_mm256_set1_epi32((int32_t)k_compress[bits]),
                               simde_mm256_loadu_si256((const void *)shift)),
        simde_mm256_set1_epi32(7));
    simde_mm256_storeu_si256((void *)(out + n), simde_mm256_permutevar8x32_epi32(ids, lanes));
#endif
    return n + (size_t)__builtin_popcount(bits);
}
#else
#define EMIT(out, n, base, bits) emit(out, n, base, bits, W)
static inline size_t emit_ids(uint32_t *out, uint32_t *owner_of, size_t n, const uint32_t *sid,
                              uint32_t j, unsigned bits, uint32_t owner) {
    for (int k = 0; k < W; k++) owner_of[n + (size_t)k] = owner;
    for (int k = 0; k < W; k++) {
        out[n] = sid[j + (uint32_t)k];
        n += (bits >> k) & 1u;
    }
    return n;
}
#endif

/* Lanes of a vector starting at j that lie before a run's end (j < end). A minimum, not a
 * choice between two masks: gcc made that a branch, missed at the end of most runs. */
static inline unsigned live_lanes(uint32_t j, uint32_t end) {
    uint32_t live = end - j < W ? end - j : W;
    return (1u << live) - 1u;
}

size_t CAT(SEPAX_KERNEL_NAME, _box_run)(const sepax_box_soa *soa, const uint32_t *runs,
                                        uint32_t nruns, const sepax_box_probe *probe,
                                        uint32_t *out) {
    const probe_lanes q = probe_lanes_of(probe);
    /* the columns by value: stores to out could alias them as far as the compiler knows */
    const sepax_box_soa cols = *soa;
    soa = &cols;
    size_t n = 0;
    for (uint32_t r = 0; r < nruns; r++) {
        uint32_t j = runs[2 * r], end = runs[2 * r + 1];
        for (; j + W <= end; j += W) {
            unsigned bits = test_lanes(soa, j, &q, 1);
            n = EMIT(out, n, j, bits); /* no branch: in a dense frame it is a coin toss */
        }
        if (j < end) { /* the last lanes read the padding past the run; their bits are dropped */
            unsigned bits = test_lanes(soa, j, &q, 1);
            n = EMIT(out, n, j, bits & live_lanes(j, end));
        }
    }
    return n;
}

/* Positions of a vector starting at j that lie past owner p: its lanes from p + 1 - j on. */
static inline unsigned lanes_after(uint32_t j, uint32_t p) {
    int64_t d = (int64_t)p + 1 - (int64_t)j;
    d = d < 0 ? 0 : d; /* a clamp (conditional moves), as in live_lanes */
    d = d > W ? W : d;
    return (0xffu << (unsigned)d) & ((1u << W) - 1u);
}

/* box_cell's loops, the filter test compiled in or out. */
static inline __attribute__((always_inline)) size_t
cell_owners(const sepax_box_soa *soa, uint32_t first, uint32_t owners, const uint32_t runs[4],
            int use_filter, uint32_t *out, uint32_t *owner_of) {
    size_t n = 0;
    const uint32_t a0 = runs[0], a1 = runs[1], b0 = runs[2], b1 = runs[3];
    const uint32_t *sid = soa->sid;
    for (uint32_t p = first; p < first + owners; p++) {
        const sepax_box_probe probe = {soa->lox[p], soa->loy[p],  soa->hix[p], soa->hiy[p],
                                       soa->cat[p], soa->mask[p], 1,           0};
        const probe_lanes q = probe_lanes_of(&probe);
        const uint32_t id = sid[p];
        /* the same trip counts for every owner of the call: the loop branches are learnt */
        for (uint32_t j = a0; j < a1; j += W) {
            unsigned bits = test_lanes(soa, j, &q, use_filter);
            n = emit_ids(out, owner_of, n, sid, j, bits & live_lanes(j, a1) & lanes_after(j, p),
                         id);
        }
        for (uint32_t j = b0; j < b1; j += W) {
            unsigned bits = test_lanes(soa, j, &q, use_filter);
            n = emit_ids(out, owner_of, n, sid, j, bits & live_lanes(j, b1), id);
        }
    }
    return n;
}

size_t CAT(SEPAX_KERNEL_NAME, _box_cell)(const sepax_box_soa *soa, uint32_t first, uint32_t owners,
                                         const uint32_t runs[4], int filter, uint32_t *out,
                                         uint32_t *owner_of) {
    const sepax_box_soa cols = *soa; /* by value, as in box_run */
    return filter ? cell_owners(&cols, first, owners, runs, 1, out, owner_of)
                  : cell_owners(&cols, first, owners, runs, 0, out, owner_of);
}
