/* The SAT kernel, written once against lanes.h and compiled by meson once per
 * ISA (SEPAX_ISA_* picks the lanes, SEPAX_KERNEL_NAME names the export).
 *
 * Layout of the work: a pair owns an 8-lane slot, one lane per plane of A.
 * For each vertex j of B, broadcast it and take the running minimum of its
 * projection on all of A's planes at once; A's offsets are subtracted at the
 * end. The same with the roles swapped gives B's planes. All 8 vertices and
 * planes are visited whatever the real count (padding repeats the last one),
 * so the loop has no data-dependent branch: mispredictions cost more here
 * than the extra arithmetic. */
#include <string.h>

#include "kernel.h"
#include "lanes.h"

#if SEPAX_P == 1
#define SLOT1(arr) (arr)[0]
#else
#define SLOT1(arr) (arr)[1]
#endif

typedef const sepax_poly_rec *rec_ptr;

/* sep_a: per plane of A, the least projection of B minus A's offset (how far
 * B lies outside that edge); sep_b: the same for B's planes against A. */
static inline void pair_separations(const rec_ptr *a, const rec_ptr *b, lf *sep_a, lf *sep_b) {
    lf anx = lf_load(a[0]->nx, SLOT1(a)->nx), any = lf_load(a[0]->ny, SLOT1(a)->ny);
    lf bnx = lf_load(b[0]->nx, SLOT1(b)->nx), bny = lf_load(b[0]->ny, SLOT1(b)->ny);
    lf min_a = lf_add(lf_mul(anx, lf_bcast(&b[0]->x[0], &SLOT1(b)->x[0])),
                      lf_mul(any, lf_bcast(&b[0]->y[0], &SLOT1(b)->y[0])));
    lf min_b = lf_add(lf_mul(bnx, lf_bcast(&a[0]->x[0], &SLOT1(a)->x[0])),
                      lf_mul(bny, lf_bcast(&a[0]->y[0], &SLOT1(a)->y[0])));
#if defined(__clang__) || defined(__GNUC__)
#pragma GCC unroll 8
#endif
    for (int j = 1; j < SEPAX_MAX_VERTS; j++) {
        lf da = lf_add(lf_mul(anx, lf_bcast(&b[0]->x[j], &SLOT1(b)->x[j])),
                       lf_mul(any, lf_bcast(&b[0]->y[j], &SLOT1(b)->y[j])));
        lf db = lf_add(lf_mul(bnx, lf_bcast(&a[0]->x[j], &SLOT1(a)->x[j])),
                       lf_mul(bny, lf_bcast(&a[0]->y[j], &SLOT1(a)->y[j])));
        min_a = lf_min(da, min_a);
        min_b = lf_min(db, min_b);
    }
    *sep_a = lf_sub(min_a, lf_load(a[0]->c, SLOT1(a)->c));
    *sep_b = lf_sub(min_b, lf_load(b[0]->c, SLOT1(b)->c));
}

/* Overlap flags of one step; slot p's flag goes to hit[p] for p < live. */
static inline void overlap_step(const rec_ptr *a, const rec_ptr *b, uint8_t *hit, int live) {
    lf sa, sb;
    pair_separations(a, b, &sa, &sb);
    float m[8 * SEPAX_P];
    lf_store(lf_slot_max(lf_max(sa, sb)), m);
    for (int p = 0; p < live; p++) hit[p] = (uint8_t)(m[8 * p] <= 0.0f);
}

static inline uint32_t float_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float bits_float(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* cond ? a : b on the bits, so the compiler cannot turn it into a branch */
static inline float pick(int cond, float a, float b) {
    uint32_t m = 0u - (uint32_t)(cond != 0);
    return bits_float((float_bits(a) & m) | (float_bits(b) & ~m));
}

static inline void collide_step(const rec_ptr *a, const rec_ptr *b, sepax_hit *out, int live) {
    lf sa, sb;
    pair_separations(a, b, &sa, &sb);
    lf mx = lf_slot_max(lf_max(sa, sb));
    unsigned eq_a = lf_eq_bits(sa, mx), eq_b = lf_eq_bits(sb, mx);
    float m[8 * SEPAX_P];
    lf_store(mx, m);
    for (int p = 0; p < live; p++) {
        /* lowest equal lane wins: A's planes are bits 0-7, B's bits 8-15;
         * bit 16 and the mask keep the index in range even for NaN input */
        unsigned bits = ((eq_a >> (8 * p)) & 0xffu) | ((eq_b >> (8 * p)) & 0xffu) << 8;
        unsigned axis = (unsigned)__builtin_ctz(bits | 0x10000u) & 15u;
        const sepax_poly_rec *owner = axis < 8u ? a[p] : b[p];
        /* B's outward normal points from B to A: reverse it, as 0 - n so a
         * zero component stays +0 */
        float nx = owner->nx[axis & 7u], ny = owner->ny[axis & 7u];
        nx = pick(axis >= 8u, 0.0f - nx, nx);
        ny = pick(axis >= 8u, 0.0f - ny, ny);
        float best = m[8 * p];
        /* Whether the pair overlaps is a coin toss in a typical batch: a
         * branch on it mispredicts half the time, so a miss is written by
         * masking the hit's fields to +0 instead. */
        uint32_t keep = 0u - (uint32_t)(best <= 0.0f);
        sepax_hit h;
        h.hit = keep & 1u;
        h.normal.x = bits_float(float_bits(nx) & keep);
        h.normal.y = bits_float(float_bits(ny) & keep);
        h.depth = bits_float(float_bits(0.0f - best) & keep);
        out[p] = h;
    }
}

/* Walk a pair list SEPAX_P pairs at a time. A short tail fills the spare
 * slots with its last pair and keeps only the live results. Inlined with a
 * constant `step`, so each query gets its own loop. */
typedef void (*pair_step)(const rec_ptr *a, const rec_ptr *b, void *out, size_t i, int live);

static inline __attribute__((always_inline)) void walk_pairs(const sepax_poly_rec *rec,
                                                             const sepax_pair *pairs, size_t n,
                                                             void *out, pair_step step) {
    rec_ptr a[SEPAX_P], b[SEPAX_P];
    for (size_t i = 0; i < n; i += SEPAX_P) {
        int live = n - i < SEPAX_P ? (int)(n - i) : SEPAX_P;
        for (int p = 0; p < SEPAX_P; p++) {
            size_t k = p < live ? i + (size_t)p : i;
            a[p] = rec + pairs[k].a;
            b[p] = rec + pairs[k].b;
        }
        step(a, b, out, i, live);
    }
}

static inline void overlap_at(const rec_ptr *a, const rec_ptr *b, void *out, size_t i, int live) {
    overlap_step(a, b, (uint8_t *)out + i, live);
}

static inline void collide_at(const rec_ptr *a, const rec_ptr *b, void *out, size_t i, int live) {
    collide_step(a, b, (sepax_hit *)out + i, live);
}

static void kernel_overlap(const sepax_poly_rec *rec, const sepax_pair *pairs, size_t n,
                           uint8_t *hit) {
    walk_pairs(rec, pairs, n, hit, overlap_at);
}

static void kernel_collide(const sepax_poly_rec *rec, const sepax_pair *pairs, size_t n,
                           sepax_hit *out) {
    walk_pairs(rec, pairs, n, out, collide_at);
}

/* Per target lane, the largest separation between the probe and the shapes
 * of blocks b0 (slot 0) and b1 (slot 1). The probe's own loops run over its
 * real vertex count: that count is the same for the whole call, so those
 * branches are predicted; the targets' 8 rows are all visited. */
static inline lf block_separation(const sepax_poly_rec *pr, int pn, const sepax_poly_block *b0,
                                  const sepax_poly_block *b1) {
    lf best = lf_bcast(&pr->c[0], &pr->c[0]); /* overwritten at i == 0 */
    for (int i = 0; i < pn; i++) {            /* the probe's planes against the targets' vertices */
        lf pnx = lf_bcast(&pr->nx[i], &pr->nx[i]), pny = lf_bcast(&pr->ny[i], &pr->ny[i]);
        lf m = lf_add(lf_mul(pnx, lf_load(b0->x[0], b1->x[0])),
                      lf_mul(pny, lf_load(b0->y[0], b1->y[0])));
#if defined(__clang__) || defined(__GNUC__)
#pragma GCC unroll 8
#endif
        for (int k = 1; k < SEPAX_MAX_VERTS; k++) {
            lf d = lf_add(lf_mul(pnx, lf_load(b0->x[k], b1->x[k])),
                          lf_mul(pny, lf_load(b0->y[k], b1->y[k])));
            m = lf_min(d, m);
        }
        lf s = lf_sub(m, lf_bcast(&pr->c[i], &pr->c[i]));
        best = i ? lf_max(s, best) : s;
    }
#if defined(__clang__) || defined(__GNUC__)
#pragma GCC unroll 8
#endif
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) { /* the targets' planes against the probe */
        lf tnx = lf_load(b0->nx[k], b1->nx[k]), tny = lf_load(b0->ny[k], b1->ny[k]);
        lf m = lf_add(lf_mul(tnx, lf_bcast(&pr->x[0], &pr->x[0])),
                      lf_mul(tny, lf_bcast(&pr->y[0], &pr->y[0])));
        for (int j = 1; j < pn; j++) {
            lf d = lf_add(lf_mul(tnx, lf_bcast(&pr->x[j], &pr->x[j])),
                          lf_mul(tny, lf_bcast(&pr->y[j], &pr->y[j])));
            m = lf_min(d, m);
        }
        best = lf_max(lf_sub(m, lf_load(b0->c[k], b1->c[k])), best);
    }
    return best;
}

static void kernel_overlap_one(const sepax_shapes *store, uint32_t probe, uint32_t first,
                               size_t count, uint8_t *hit) {
    const sepax_poly_rec *pr = store->rec + probe;
    int pn = store->nverts[probe];
    size_t end = first + count;
    size_t b = first / SEPAX_BLOCK_LANES, b_end = (end + SEPAX_BLOCK_LANES - 1) / SEPAX_BLOCK_LANES;
    for (; b < b_end; b += SEPAX_P) {
        const sepax_poly_block *b1 = store->block + (b + 1 < b_end ? b + SEPAX_P - 1 : b);
        lf best = block_separation(pr, pn, store->block + b, b1);
        float m[8 * SEPAX_P];
        lf_store(best, m);
        /* write the lanes inside [first, end): all of them but at the ends */
        size_t lo = b * SEPAX_BLOCK_LANES, hi = lo + 8 * SEPAX_P;
        size_t from = lo > first ? lo : first, to = hi < end ? hi : end;
        for (size_t id = from; id < to; id++) hit[id - first] = (uint8_t)(m[id - lo] <= 0.0f);
    }
}

#ifndef SEPAX_KERNEL_NAME
#error "the build names each copy with -DSEPAX_KERNEL_NAME=sepax_kernel_<isa>"
#endif
#ifndef SEPAX_KERNEL_BACKEND
#error "the build sets -DSEPAX_KERNEL_BACKEND=SEPAX_BACKEND_<ISA>"
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
void CAT(SEPAX_KERNEL_NAME, _update)(sepax_shapes *st); /* update_kernel.c */

const sepax_kernel SEPAX_KERNEL_NAME = {
    STR(SEPAX_KERNEL_NAME), SEPAX_KERNEL_BACKEND, kernel_overlap,
    kernel_collide,         kernel_overlap_one,   CAT(SEPAX_KERNEL_NAME, _update),
};
