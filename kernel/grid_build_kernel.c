/* The grid build's per-shape passes that are arithmetic on boxes or moves of them (grown
 * boxes, cells, sorted columns), compiled per ISA like sat_kernel.c. With 256-bit registers
 * (AVX2, AVX-512) the boxes go a block of 8 at a time and the cells' doubles four to a
 * register; elsewhere four shapes and two doubles at a time, in 128-bit lanes (SIMDe's
 * 256-bit values, split in two, cost more there). The columns go four at a time everywhere:
 * they are gathered entry by entry. Each lane runs the scalar build's operations in its order
 * (grid.c's grown_box and classify_one, broadphase.h's sepax_clamp_cell and
 * sepax_grid_cell), so every backend, and the scalar tails (here and in grid.c's boxes pass),
 * key the same shapes the same way. */
#include "broadphase.h"

#if defined(SEPAX_ISA_AVX2) || defined(SEPAX_ISA_AVX512)
#include <simde/x86/avx2.h>
#else
#include <simde/x86/sse2.h>
#endif

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

void CAT(SEPAX_KERNEL_NAME, _grid_boxes)(const sepax_aabb_block *aabb, const sepax_filter *filter,
                                         uint32_t first_block, uint32_t blocks, float grow,
                                         float limit, const float below[2], bp_box *ubox,
                                         uint32_t *key, bp_tally *tally, const bp_recent *recent,
                                         bp_lanes *lanes, int stream);
void CAT(SEPAX_KERNEL_NAME, _grid_cells)(const bp_box *ubox, uint32_t i0, uint32_t i1,
                                         const bp_geometry *g, uint32_t *key);
void CAT(SEPAX_KERNEL_NAME, _grid_columns)(const bp_box *ubox, const uint32_t *sid, uint32_t p0,
                                           uint32_t p1, const bp_columns *out);

/* The tally from the running lanes a width of grid_boxes kept, `w` each (run + q * w) of the
 * largest extent, the least lower corner's x and y, the greatest's x and y (q = 0 .. 4), each
 * reduced in lane order with the scalar comparisons (x > m ? x : m), and its counts. */
static void tally_of(const float *run, int w, uint32_t nsmall, uint32_t nbelow0, uint32_t nbelow1,
                     bp_tally *t) {
    float r[5];
    for (int q = 0; q < 5; q++) {
        r[q] = run[q * w];
        for (int k = 1; k < w; k++) {
            float f = run[q * w + k];
            r[q] = (q == 1 || q == 2) ? (f < r[q] ? f : r[q]) : (f > r[q] ? f : r[q]);
        }
    }
    *t = (bp_tally){r[0], r[1], r[2], r[3], r[4], nsmall, {nbelow0, nbelow1}};
}

#if defined(SEPAX_ISA_AVX2) || defined(SEPAX_ISA_AVX512)
/* a where m is set, else b */
static inline simde__m256 sel(simde__m256 m, simde__m256 a, simde__m256 b) {
    return simde_mm256_or_ps(simde_mm256_and_ps(m, a), simde_mm256_andnot_ps(m, b));
}

/* An entry's half (stream: around the caches; p is 32-byte aligned, ubox being 64) */
static inline void put_half(float *p, simde__m256 v, int stream) {
    if (stream)
        simde_mm256_stream_ps(p, v);
    else
        simde_mm256_storeu_ps(p, v);
}

static inline uint32_t count_lanes(simde__m256 m) {
    return (uint32_t)__builtin_popcount((unsigned)simde_mm256_movemask_ps(m));
}

/* bit k set where the k-th of the four filters in f has the bits r holds */
static inline unsigned same_filter(simde__m256 f, simde__m256i r) {
    simde__m256i eq = simde_mm256_cmpeq_epi64(simde_mm256_castps_si256(f), r);
    return (unsigned)simde_mm256_movemask_pd(simde_mm256_castsi256_pd(eq));
}

/* A block at a time, its 8 lanes in one register. */
void CAT(SEPAX_KERNEL_NAME, _grid_boxes)(const sepax_aabb_block *aabb, const sepax_filter *filter,
                                         uint32_t first_block, uint32_t blocks, float grow,
                                         float limit, const float below[2], bp_box *ubox,
                                         uint32_t *key, bp_tally *tally, const bp_recent *recent,
                                         bp_lanes *lanes, int stream) {
    const simde__m256 vgrow = simde_mm256_set1_ps(grow), vlimit = simde_mm256_set1_ps(limit);
    const simde__m256 absmask = simde_mm256_castsi256_ps(simde_mm256_set1_epi32(0x7fffffff));
    const simde__m256 scale = simde_mm256_set1_ps(0x1p-20f), zero = simde_mm256_setzero_ps();
    const simde__m256 inf = simde_mm256_set1_ps(INFINITY), ninf = simde_mm256_set1_ps(-INFINITY);
    const simde__m256 below0 = simde_mm256_set1_ps(below[0]);
    const simde__m256 below1 = simde_mm256_set1_ps(below[1]);
    const simde__m256i r0 = simde_mm256_set1_epi64x((int64_t)recent->f[0]);
    const simde__m256i r1 = simde_mm256_set1_epi64x((int64_t)recent->f[1]);
    simde__m256 cell = zero, minx = inf, miny = inf, maxx = ninf, maxy = ninf;
    uint32_t nsmall = 0, nbelow0 = 0, nbelow1 = 0;
    for (uint32_t b = first_block; b < first_block + blocks; b++) {
        const sepax_aabb_block *a = &aabb[b];
        uint32_t i = b * SEPAX_BLOCK_LANES;
        simde__m256 lx = simde_mm256_loadu_ps(a->minx), ly = simde_mm256_loadu_ps(a->miny);
        simde__m256 hx = simde_mm256_loadu_ps(a->maxx), hy = simde_mm256_loadu_ps(a->maxy);
        /* sepax_grid_slack, then grown_box */
        simde__m256 slack = simde_mm256_add_ps(
            simde_mm256_add_ps(simde_mm256_add_ps(simde_mm256_and_ps(lx, absmask),
                                                  simde_mm256_and_ps(hx, absmask)),
                               simde_mm256_and_ps(ly, absmask)),
            simde_mm256_and_ps(hy, absmask));
        slack = simde_mm256_add_ps(simde_mm256_mul_ps(slack, scale), simde_mm256_set1_ps(0x1p-62f));
        lx = simde_mm256_sub_ps(simde_mm256_sub_ps(lx, vgrow), slack);
        ly = simde_mm256_sub_ps(simde_mm256_sub_ps(ly, vgrow), slack);
        hx = simde_mm256_add_ps(hx, slack);
        hy = simde_mm256_add_ps(hy, slack);
        /* w > h ? w : h, as max_ps(w, h) is */
        simde__m256 e = simde_mm256_max_ps(simde_mm256_sub_ps(hx, lx), simde_mm256_sub_ps(hy, ly));
        simde__m256 large = simde_mm256_cmp_ps(e, vlimit, SIMDE_CMP_GT_OQ);
        simde_mm256_storeu_si256((void *)(key + i), simde_mm256_castps_si256(large));
        /* the small ones' tally, each comparison the scalar one (x > m ? x : m) */
        cell = simde_mm256_max_ps(simde_mm256_andnot_ps(large, e), cell);
        minx = simde_mm256_min_ps(sel(large, inf, lx), minx);
        miny = simde_mm256_min_ps(sel(large, inf, ly), miny);
        maxx = simde_mm256_max_ps(sel(large, ninf, lx), maxx);
        maxy = simde_mm256_max_ps(sel(large, ninf, ly), maxy);
        nsmall += 8u - count_lanes(large);
        nbelow0 += count_lanes(simde_mm256_cmp_ps(e, below0, SIMDE_CMP_LT_OQ));
        nbelow1 += count_lanes(simde_mm256_cmp_ps(e, below1, SIMDE_CMP_LT_OQ));
        /* The entries. Within each 128-bit half, the corners transposed: c[k] holds lane k's
         * corners low and lane k + 4's high. Then the filters and extents the same way:
         * lane k's (category, mask, extent, 0) low in x[k], lane k + 4's high. */
        simde__m256 t0 = simde_mm256_unpacklo_ps(lx, ly), t1 = simde_mm256_unpackhi_ps(lx, ly);
        simde__m256 t2 = simde_mm256_unpacklo_ps(hx, hy), t3 = simde_mm256_unpackhi_ps(hx, hy);
        simde__m256 c[4] = {simde_mm256_shuffle_ps(t0, t2, SIMDE_MM_SHUFFLE(1, 0, 1, 0)),
                            simde_mm256_shuffle_ps(t0, t2, SIMDE_MM_SHUFFLE(3, 2, 3, 2)),
                            simde_mm256_shuffle_ps(t1, t3, SIMDE_MM_SHUFFLE(1, 0, 1, 0)),
                            simde_mm256_shuffle_ps(t1, t3, SIMDE_MM_SHUFFLE(3, 2, 3, 2))};
        simde__m256 f0 = simde_mm256_loadu_ps((const float *)(const void *)(filter + i));
        simde__m256 f1 = simde_mm256_loadu_ps((const float *)(const void *)(filter + i + 4));
        lanes[b - first_block] =
            (bp_lanes){(uint8_t)(same_filter(f0, r0) | same_filter(f1, r0) << 4),
                       (uint8_t)(same_filter(f0, r1) | same_filter(f1, r1) << 4),
                       (uint8_t)simde_mm256_movemask_ps(large), 0};
        simde__m256 g0 = simde_mm256_permute2f128_ps(f0, f1, 0x20); /* lanes 0, 1 | 4, 5 */
        simde__m256 g1 = simde_mm256_permute2f128_ps(f0, f1, 0x31); /* lanes 2, 3 | 6, 7 */
        simde__m256 e0 = simde_mm256_unpacklo_ps(e, zero), e1 = simde_mm256_unpackhi_ps(e, zero);
        simde__m256 x[4] = {simde_mm256_shuffle_ps(g0, e0, SIMDE_MM_SHUFFLE(1, 0, 1, 0)),
                            simde_mm256_shuffle_ps(g0, e0, SIMDE_MM_SHUFFLE(3, 2, 3, 2)),
                            simde_mm256_shuffle_ps(g1, e1, SIMDE_MM_SHUFFLE(1, 0, 1, 0)),
                            simde_mm256_shuffle_ps(g1, e1, SIMDE_MM_SHUFFLE(3, 2, 3, 2))};
        float *out = (float *)(void *)(ubox + i);
        for (int k = 0; k < 4; k++) {
            put_half(out + 8 * k, simde_mm256_permute2f128_ps(c[k], x[k], 0x20), stream);
            put_half(out + 8 * (k + 4), simde_mm256_permute2f128_ps(c[k], x[k], 0x31), stream);
        }
    }
    float run[5 * 8];
    simde_mm256_storeu_ps(run, cell);
    simde_mm256_storeu_ps(run + 8, minx);
    simde_mm256_storeu_ps(run + 16, miny);
    simde_mm256_storeu_ps(run + 24, maxx);
    simde_mm256_storeu_ps(run + 32, maxy);
    tally_of(run, 8, nsmall, nbelow0, nbelow1, tally);
    if (stream) simde_mm_sfence();
}
#else
/* Half a block at a time: SIMDe's 256-bit values split in two cost more here (SSE2, a
 * bullet-hell 10k frame: 2,459,709 -> 2,615,141 instructions). */
/* a where m is set, else b */
static inline simde__m128 sel(simde__m128 m, simde__m128 a, simde__m128 b) {
    return simde_mm_or_ps(simde_mm_and_ps(m, a), simde_mm_andnot_ps(m, b));
}

/* Stores around the caches with SSE only: NEON and the scalar copy store as usual and need
 * no fence (as their lanes' lf_stream2) */
#if defined(SEPAX_ISA_SSE2) || defined(SEPAX_ISA_SSE41)
#define GRID_STREAM 1
#else
#define GRID_STREAM 0
#endif

/* bit k set where the k-th of the two filters in f has the bits r holds (64-bit equality
 * from 32-bit compares: SSE2 has no other) */
static inline unsigned same_filter(simde__m128 f, simde__m128i r) {
    simde__m128i eq = simde_mm_cmpeq_epi32(simde_mm_castps_si128(f), r);
    eq = simde_mm_and_si128(eq, simde_mm_shuffle_epi32(eq, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
    return (unsigned)simde_mm_movemask_pd(simde_mm_castsi128_pd(eq));
}

/* A quarter of an entry (stream: around the caches; p is 16-byte aligned, ubox being 64) */
static inline void put_quarter(float *p, simde__m128 v, int stream) {
    if (GRID_STREAM && stream)
        simde_mm_stream_ps(p, v);
    else
        simde_mm_storeu_ps(p, v);
}

void CAT(SEPAX_KERNEL_NAME, _grid_boxes)(const sepax_aabb_block *aabb, const sepax_filter *filter,
                                         uint32_t first_block, uint32_t blocks, float grow,
                                         float limit, const float below[2], bp_box *ubox,
                                         uint32_t *key, bp_tally *tally, const bp_recent *recent,
                                         bp_lanes *lanes, int stream) {
    const simde__m128 vgrow = simde_mm_set1_ps(grow), vlimit = simde_mm_set1_ps(limit);
    const simde__m128 absmask = simde_mm_castsi128_ps(simde_mm_set1_epi32(0x7fffffff));
    const simde__m128 scale = simde_mm_set1_ps(0x1p-20f), zero = simde_mm_setzero_ps();
    const simde__m128 inf = simde_mm_set1_ps(INFINITY), ninf = simde_mm_set1_ps(-INFINITY);
    const simde__m128 below0 = simde_mm_set1_ps(below[0]), below1 = simde_mm_set1_ps(below[1]);
    simde__m128 cell = zero, minx = inf, miny = inf, maxx = ninf, maxy = ninf;
    uint32_t nsmall = 0, nbelow0 = 0, nbelow1 = 0;
    const simde__m128i r0f = simde_mm_set1_epi64x((int64_t)recent->f[0]);
    const simde__m128i r1f = simde_mm_set1_epi64x((int64_t)recent->f[1]);
    for (uint32_t b = first_block; b < first_block + blocks; b++) {
        const sepax_aabb_block *a = &aabb[b];
        bp_lanes m = {0, 0, 0, 0};
        for (uint32_t h = 0; h < SEPAX_BLOCK_LANES; h += 4) {
            uint32_t i = b * SEPAX_BLOCK_LANES + h;
            simde__m128 lx = simde_mm_loadu_ps(a->minx + h), ly = simde_mm_loadu_ps(a->miny + h);
            simde__m128 hx = simde_mm_loadu_ps(a->maxx + h), hy = simde_mm_loadu_ps(a->maxy + h);
            /* sepax_grid_slack, then grown_box */
            simde__m128 slack =
                simde_mm_add_ps(simde_mm_add_ps(simde_mm_add_ps(simde_mm_and_ps(lx, absmask),
                                                                simde_mm_and_ps(hx, absmask)),
                                                simde_mm_and_ps(ly, absmask)),
                                simde_mm_and_ps(hy, absmask));
            slack = simde_mm_add_ps(simde_mm_mul_ps(slack, scale), simde_mm_set1_ps(0x1p-62f));
            lx = simde_mm_sub_ps(simde_mm_sub_ps(lx, vgrow), slack);
            ly = simde_mm_sub_ps(simde_mm_sub_ps(ly, vgrow), slack);
            hx = simde_mm_add_ps(hx, slack);
            hy = simde_mm_add_ps(hy, slack);
            /* w > h ? w : h, as max_ps(w, h) is */
            simde__m128 e = simde_mm_max_ps(simde_mm_sub_ps(hx, lx), simde_mm_sub_ps(hy, ly));
            simde__m128 large = simde_mm_cmpgt_ps(e, vlimit);
            simde_mm_storeu_si128((void *)(key + i), simde_mm_castps_si128(large));
            /* the small ones' tally, each comparison the scalar one (x > m ? x : m) */
            cell = simde_mm_max_ps(simde_mm_andnot_ps(large, e), cell);
            minx = simde_mm_min_ps(sel(large, inf, lx), minx);
            miny = simde_mm_min_ps(sel(large, inf, ly), miny);
            maxx = simde_mm_max_ps(sel(large, ninf, lx), maxx);
            maxy = simde_mm_max_ps(sel(large, ninf, ly), maxy);
            nsmall += 4u - (uint32_t)__builtin_popcount((unsigned)simde_mm_movemask_ps(large));
            nbelow0 += (uint32_t)__builtin_popcount(
                (unsigned)simde_mm_movemask_ps(simde_mm_cmplt_ps(e, below0)));
            nbelow1 += (uint32_t)__builtin_popcount(
                (unsigned)simde_mm_movemask_ps(simde_mm_cmplt_ps(e, below1)));
            /* the entries: the corners transposed, then filter, extent and a zero */
            simde__m128 r0 = lx, r1 = ly, r2 = hx, r3 = hy;
            SIMDE_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            simde__m128 f01 = simde_mm_loadu_ps((const float *)(const void *)(filter + i));
            simde__m128 f23 = simde_mm_loadu_ps((const float *)(const void *)(filter + i + 2));
            m.eq0 |= (uint8_t)((same_filter(f01, r0f) | same_filter(f23, r0f) << 2) << h);
            m.eq1 |= (uint8_t)((same_filter(f01, r1f) | same_filter(f23, r1f) << 2) << h);
            m.large |= (uint8_t)((unsigned)simde_mm_movemask_ps(large) << h);
            simde__m128 e01 = simde_mm_unpacklo_ps(e, zero), e23 = simde_mm_unpackhi_ps(e, zero);
            float *out = (float *)(void *)(ubox + i);
            put_quarter(out, r0, stream);
            put_quarter(out + 4, simde_mm_shuffle_ps(f01, e01, SIMDE_MM_SHUFFLE(1, 0, 1, 0)),
                        stream);
            put_quarter(out + 8, r1, stream);
            put_quarter(out + 12, simde_mm_shuffle_ps(f01, e01, SIMDE_MM_SHUFFLE(3, 2, 3, 2)),
                        stream);
            put_quarter(out + 16, r2, stream);
            put_quarter(out + 20, simde_mm_shuffle_ps(f23, e23, SIMDE_MM_SHUFFLE(1, 0, 1, 0)),
                        stream);
            put_quarter(out + 24, r3, stream);
            put_quarter(out + 28, simde_mm_shuffle_ps(f23, e23, SIMDE_MM_SHUFFLE(3, 2, 3, 2)),
                        stream);
        }
        lanes[b - first_block] = m;
    }
    float run[5 * 4];
    simde_mm_storeu_ps(run, cell);
    simde_mm_storeu_ps(run + 4, minx);
    simde_mm_storeu_ps(run + 8, miny);
    simde_mm_storeu_ps(run + 12, maxx);
    simde_mm_storeu_ps(run + 16, maxy);
    tally_of(run, 4, nsmall, nbelow0, nbelow1, tally);
    if (GRID_STREAM && stream) simde_mm_sfence();
}
#endif

#if defined(SEPAX_ISA_AVX2) || defined(SEPAX_ISA_AVX512)
/* Four lanes' doubles in one register, the ints of row * nx + col by mullo. */
typedef struct cell_consts {
    simde__m256d ox, oy, inv, lastx, lasty;
    simde__m128i nx;
} cell_consts;

static inline cell_consts cell_consts_of(const bp_geometry *g) {
    cell_consts k = {simde_mm256_set1_pd(g->ox),    simde_mm256_set1_pd(g->oy),
                     simde_mm256_set1_pd(g->inv),   simde_mm256_set1_pd(g->lastx),
                     simde_mm256_set1_pd(g->lasty), simde_mm_set1_epi32((int32_t)g->nx)};
    return k;
}

/* floor(q) clamped to 0 .. last: sepax_clamp_cell's comparisons and selects (NaN gives 0) */
static inline simde__m128i cell_of(simde__m128 x, simde__m256d o, simde__m256d inv,
                                   simde__m256d last) {
    simde__m256d q = simde_mm256_mul_pd(simde_mm256_sub_pd(simde_mm256_cvtps_pd(x), o), inv);
    q = simde_mm256_and_pd(simde_mm256_cmp_pd(q, simde_mm256_setzero_pd(), SIMDE_CMP_GT_OQ), q);
    q = simde_mm256_blendv_pd(last, q, simde_mm256_cmp_pd(q, last, SIMDE_CMP_LT_OQ));
    return simde_mm256_cvttpd_epi32(q);
}

/* The cells of four lower corners, row * nx + col in 32 bits as the scalar rule's. */
static inline simde__m128i cells_of(simde__m128 lx, simde__m128 ly, const cell_consts *k) {
    simde__m128i col = cell_of(lx, k->ox, k->inv, k->lastx);
    simde__m128i row = cell_of(ly, k->oy, k->inv, k->lasty);
    return simde_mm_add_epi32(simde_mm_mullo_epi32(row, k->nx), col);
}
#else
/* Two lanes' doubles in one register (SSE2), row * nx + col in double. */
typedef struct cell_consts {
    simde__m128d ox, oy, inv, lastx, lasty, nx;
} cell_consts;

static inline cell_consts cell_consts_of(const bp_geometry *g) {
    cell_consts k = {simde_mm_set1_pd(g->ox),    simde_mm_set1_pd(g->oy),
                     simde_mm_set1_pd(g->inv),   simde_mm_set1_pd(g->lastx),
                     simde_mm_set1_pd(g->lasty), simde_mm_set1_pd((double)g->nx)};
    return k;
}

/* floor(q) clamped to 0 .. last, as a double holding an integer: sepax_clamp_cell's
 * comparisons and selects, so NaN gives 0 here too (max_pd and min_pd would pass a NaN on
 * where SIMDe maps them to NEON's max and min) */
static inline simde__m128d cell_of(simde__m128d x, simde__m128d o, simde__m128d inv,
                                   simde__m128d last) {
    simde__m128d q = simde_mm_mul_pd(simde_mm_sub_pd(x, o), inv);
    q = simde_mm_and_pd(simde_mm_cmpgt_pd(q, simde_mm_setzero_pd()), q);
    simde__m128d in = simde_mm_cmplt_pd(q, last);
    q = simde_mm_or_pd(simde_mm_and_pd(in, q), simde_mm_andnot_pd(in, last));
    return simde_mm_cvtepi32_pd(simde_mm_cvttpd_epi32(q));
}

/* The cells of four lower corners: row * nx + col, exact in double (the grid has fewer than
 * 2^31 cells). */
static inline simde__m128i cells_of(simde__m128 lx, simde__m128 ly, const cell_consts *k) {
    simde__m128d col01 = cell_of(simde_mm_cvtps_pd(lx), k->ox, k->inv, k->lastx);
    simde__m128d col23 =
        cell_of(simde_mm_cvtps_pd(simde_mm_movehl_ps(lx, lx)), k->ox, k->inv, k->lastx);
    simde__m128d row01 = cell_of(simde_mm_cvtps_pd(ly), k->oy, k->inv, k->lasty);
    simde__m128d row23 =
        cell_of(simde_mm_cvtps_pd(simde_mm_movehl_ps(ly, ly)), k->oy, k->inv, k->lasty);
    simde__m128i k01 = simde_mm_cvttpd_epi32(simde_mm_add_pd(simde_mm_mul_pd(row01, k->nx), col01));
    simde__m128i k23 = simde_mm_cvttpd_epi32(simde_mm_add_pd(simde_mm_mul_pd(row23, k->nx), col23));
    return simde_mm_unpacklo_epi64(k01, k23);
}
#endif

void CAT(SEPAX_KERNEL_NAME, _grid_cells)(const bp_box *ubox, uint32_t i0, uint32_t i1,
                                         const bp_geometry *g, uint32_t *key) {
    const cell_consts k = cell_consts_of(g);
    const simde__m128i large = simde_mm_set1_epi32(-1);
    const simde__m128i large_key = simde_mm_set1_epi32((int32_t)g->large);
    uint32_t i = i0;
    for (; i1 - i >= 4; i += 4) {
        /* the lower corners of four entries: (lx, ly) pairs, then lx and ly lanes */
        simde__m128 c0 = simde_mm_castsi128_ps(simde_mm_loadl_epi64((const void *)&ubox[i]));
        simde__m128 c1 = simde_mm_castsi128_ps(simde_mm_loadl_epi64((const void *)&ubox[i + 1]));
        simde__m128 c2 = simde_mm_castsi128_ps(simde_mm_loadl_epi64((const void *)&ubox[i + 2]));
        simde__m128 c3 = simde_mm_castsi128_ps(simde_mm_loadl_epi64((const void *)&ubox[i + 3]));
        simde__m128 c01 = simde_mm_unpacklo_ps(c0, c1), c23 = simde_mm_unpacklo_ps(c2, c3);
        simde__m128i cells =
            cells_of(simde_mm_movelh_ps(c01, c23), simde_mm_movehl_ps(c23, c01), &k);
        simde__m128i is_large =
            simde_mm_cmpeq_epi32(simde_mm_loadu_si128((const void *)(key + i)), large);
        simde_mm_storeu_si128((void *)(key + i),
                              simde_mm_or_si128(simde_mm_and_si128(is_large, large_key),
                                                simde_mm_andnot_si128(is_large, cells)));
    }
    for (; i < i1; i++)
        key[i] = key[i] == UINT32_MAX ? g->large : sepax_grid_cell(ubox[i].lx, ubox[i].ly, g);
}

void CAT(SEPAX_KERNEL_NAME, _grid_columns)(const bp_box *ubox, const uint32_t *sid, uint32_t p0,
                                           uint32_t p1, const bp_columns *out) {
    /* sorted order reads the entries anywhere: ask for them a few shapes ahead */
    enum { AHEAD = 16 };
    uint32_t p = p0;
    for (; p1 - p >= 4; p += 4) {
        if (p1 - p > AHEAD + 4)
            for (uint32_t k = 0; k < 4; k++)
                __builtin_prefetch(&ubox[sid[p + AHEAD + k] & SEPAX_ID_INDEX_MASK]);
        const float *e[4];
        for (uint32_t k = 0; k < 4; k++)
            e[k] = (const float *)(const void *)&ubox[sid[p + k] & SEPAX_ID_INDEX_MASK];
        /* the corners, four entries' rows transposed into four columns */
        simde__m128 r0 = simde_mm_loadu_ps(e[0]), r1 = simde_mm_loadu_ps(e[1]);
        simde__m128 r2 = simde_mm_loadu_ps(e[2]), r3 = simde_mm_loadu_ps(e[3]);
        SIMDE_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        simde_mm_storeu_ps(out->lox + p, r0);
        simde_mm_storeu_ps(out->loy + p, r1);
        simde_mm_storeu_ps(out->hix + p, r2);
        simde_mm_storeu_ps(out->hiy + p, r3);
        /* the filters (category, mask) pairs, split */
        simde__m128 f0 = simde_mm_castsi128_ps(simde_mm_loadl_epi64((const void *)(e[0] + 4)));
        simde__m128 f1 = simde_mm_castsi128_ps(simde_mm_loadl_epi64((const void *)(e[1] + 4)));
        simde__m128 f2 = simde_mm_castsi128_ps(simde_mm_loadl_epi64((const void *)(e[2] + 4)));
        simde__m128 f3 = simde_mm_castsi128_ps(simde_mm_loadl_epi64((const void *)(e[3] + 4)));
        simde__m128 f01 = simde_mm_unpacklo_ps(f0, f1), f23 = simde_mm_unpacklo_ps(f2, f3);
        simde_mm_storeu_ps((float *)(void *)(out->cat + p), simde_mm_movelh_ps(f01, f23));
        simde_mm_storeu_ps((float *)(void *)(out->mask + p), simde_mm_movehl_ps(f23, f01));
    }
    for (; p < p1; p++) {
        const bp_box *b = &ubox[sid[p] & SEPAX_ID_INDEX_MASK];
        out->lox[p] = b->lx;
        out->loy[p] = b->ly;
        out->hix[p] = b->hx;
        out->hiy[p] = b->hy;
        out->cat[p] = b->f.category;
        out->mask[p] = b->f.mask;
    }
}
