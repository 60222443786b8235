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
        unsigned k = axis & 7u;
        int from_b = axis >= 8u;
        float nx = from_b ? -b[p]->nx[k] : a[p]->nx[k];
        float ny = from_b ? -b[p]->ny[k] : a[p]->ny[k];
        float best = m[8 * p];
        sepax_hit h = {0, {0.0f, 0.0f}, 0.0f};
        if (best <= 0.0f) {
            h.hit = 1;
            h.normal.x = nx;
            h.normal.y = ny;
            h.depth = 0.0f - best;
        }
        out[p] = h;
    }
}

static void kernel_overlap(const sepax_poly_rec *rec, const sepax_pair *pairs, size_t n,
                           uint8_t *hit) {
    rec_ptr a[SEPAX_P], b[SEPAX_P];
    size_t i = 0;
    for (; i + SEPAX_P <= n; i += SEPAX_P) {
        for (int p = 0; p < SEPAX_P; p++) {
            a[p] = rec + pairs[i + p].a;
            b[p] = rec + pairs[i + p].b;
        }
        overlap_step(a, b, hit + i, SEPAX_P);
    }
    if (i < n) { /* tail: every slot runs the last pair, one result is kept */
        for (int p = 0; p < SEPAX_P; p++) {
            a[p] = rec + pairs[i].a;
            b[p] = rec + pairs[i].b;
        }
        overlap_step(a, b, hit + i, (int)(n - i));
    }
}

static void kernel_collide(const sepax_poly_rec *rec, const sepax_pair *pairs, size_t n,
                           sepax_hit *out) {
    rec_ptr a[SEPAX_P], b[SEPAX_P];
    size_t i = 0;
    for (; i + SEPAX_P <= n; i += SEPAX_P) {
        for (int p = 0; p < SEPAX_P; p++) {
            a[p] = rec + pairs[i + p].a;
            b[p] = rec + pairs[i + p].b;
        }
        collide_step(a, b, out + i, SEPAX_P);
    }
    if (i < n) {
        for (int p = 0; p < SEPAX_P; p++) {
            a[p] = rec + pairs[i].a;
            b[p] = rec + pairs[i].b;
        }
        collide_step(a, b, out + i, (int)(n - i));
    }
}

static void kernel_overlap_one(const sepax_poly_rec *rec, uint32_t probe, uint32_t first,
                               size_t count, uint8_t *hit) {
    rec_ptr a[SEPAX_P], b[SEPAX_P];
    const sepax_poly_rec *targets = rec + first;
    for (int p = 0; p < SEPAX_P; p++) a[p] = rec + probe;
    size_t i = 0;
    for (; i + SEPAX_P <= count; i += SEPAX_P) {
        for (int p = 0; p < SEPAX_P; p++) b[p] = targets + i + p;
        overlap_step(a, b, hit + i, SEPAX_P);
    }
    if (i < count) {
        for (int p = 0; p < SEPAX_P; p++) b[p] = targets + i;
        overlap_step(a, b, hit + i, (int)(count - i));
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

const sepax_kernel SEPAX_KERNEL_NAME = {
    STR(SEPAX_KERNEL_NAME), SEPAX_KERNEL_BACKEND, kernel_overlap,
    kernel_collide,         kernel_overlap_one,
};
