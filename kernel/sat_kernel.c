/* The SAT kernel, written once against lanes.h and compiled by meson once per
 * ISA (SEPAX_ISA_* picks the lanes, SEPAX_KERNEL_NAME names the export).
 *
 * Every shape is a convex core (1..8 vertices, padded to 8 by repeating the
 * last) grown by a radius. A pair's separation is the largest of:
 *   - A's planes against B's vertices, B's planes against A's vertices (the
 *     one-sided form: least projection minus the plane's offset);
 *   - for curved pairs, the axis through the closest pair of core vertices
 *     (least projection of B minus greatest projection of A on it);
 * minus the two radii. Pairs are sorted into classes (kernel.h). Sharp
 * polygon pairs own an 8-lane slot (a lane per plane of A; they take no
 * vertex axis); a block of them runs in two passes when the block before had
 * misses enough (SIFT_MIN_*): A's planes first, then the rest for the pairs
 * those did not rule out. Every other class gets a pair
 * per lane: each lane loads its own pair's rows (transposed by lf_rows4) and
 * runs the same straight-line SAT, its loops sized by the class (1 row for a
 * circle, 2 for a capsule, 4 for a polygon of up to 4 vertices, 8 otherwise),
 * so there is no branch on data and no early-out. Padding rows repeat the
 * last, so a polygon read with more rows than it has gives the same answer.
 * sepax_overlap_one loops over real counts (the same for a whole call or block). */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "byte_flags.h"
#include "kernel.h"
#include "lanes.h"

#if SEPAX_P == 1
#define SLOT1(arr) (arr)[0]
#else
#define SLOT1(arr) (arr)[1]
#endif
#define LANES (8 * SEPAX_P)
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

/* The scalar copy keeps its row loops rolled: unrolled, its 8-float lane
 * structs turn into thousands of memory operations per class that gcc
 * takes minutes to compile, for no gain on a backend without vectors. */
#if (defined(__clang__) || defined(__GNUC__)) && !defined(SEPAX_ISA_SCALAR)
#define UNROLL8 _Pragma("GCC unroll 8")
#else
#define UNROLL8
#endif
#if defined(__clang__) || defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#define ALWAYS_INLINE inline
#endif

typedef const sepax_poly_rec *rec_ptr;

/* Five queries are named per copy, like its other files' functions: the AVX-512 copy at
 * 256 bits (SEPAX_KERNEL_WIDE, kernel/meson.build) takes the 512-bit copy's one-against-range
 * and range raycast, and its sweep for stores with curved shapes, whose lanes are the faster
 * ones for them on a Zen 4 (README, "AVX-512 at 256 bits"); its table for a Zen 5 takes the
 * 512-bit overlap and raycast too, for some stores (below). */
#define kernel_overlap CAT(SEPAX_KERNEL_NAME, _overlap)
#define kernel_raycast CAT(SEPAX_KERNEL_NAME, _raycast)
#define kernel_sweep CAT(SEPAX_KERNEL_NAME, _sweep)
#define kernel_overlap_one CAT(SEPAX_KERNEL_NAME, _overlap_one)
#define kernel_raycast_range CAT(SEPAX_KERNEL_NAME, _raycast_range)
#ifdef SEPAX_KERNEL_WIDE
#define WIDE_OR_OWN(f) CAT(SEPAX_KERNEL_WIDE, f)
#else
#define WIDE_OR_OWN(f) CAT(SEPAX_KERNEL_NAME, f)
#endif
void WIDE_OR_OWN(_overlap)(const sepax_shapes *st, const sepax_pair *pairs, size_t n, float margin,
                           uint8_t *hit, void *work);
void WIDE_OR_OWN(_raycast)(const sepax_shapes *st, const sepax_ray *rays, const uint32_t *ids,
                           size_t n, sepax_ray_hit *out, void *work);
void WIDE_OR_OWN(_sweep)(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                         const sepax_vec2 *va, const sepax_vec2 *vb, sepax_sweep_hit *out,
                         void *work);
void WIDE_OR_OWN(_overlap_one)(const sepax_shapes *st, uint32_t probe, uint32_t first, size_t count,
                               float margin, uint8_t *hit);
void WIDE_OR_OWN(_raycast_range)(const sepax_shapes *st, const sepax_ray *ray, uint32_t first,
                                 size_t count, sepax_ray_hit *out);
void kernel_sweep(const sepax_shapes *st, const sepax_pair *pairs, size_t n, const sepax_vec2 *va,
                  const sepax_vec2 *vb, sepax_sweep_hit *out, void *work);

/* aligned: lf_load is an aligned load */
static _Alignas(64) const float k_zero[8] = {0, 0, 0, 0, 0, 0, 0, 0};
static _Alignas(64) const float k_one[8] = {1, 1, 1, 1, 1, 1, 1, 1};
/* unit_lanes' constants: the least normal float, the largest subnormal (a squared length
 * above it is normal: under DAZ it reads as 0, as a subnormal square does), and 2^64. */
#define MIN_SQ 0x1p-126f
#define TINY_SQ 0x1.fffffcp-127f
#define UP 0x1p64f
static _Alignas(64) const
    float k_min_sq[8] = {MIN_SQ, MIN_SQ, MIN_SQ, MIN_SQ, MIN_SQ, MIN_SQ, MIN_SQ, MIN_SQ};
static _Alignas(64) const
    float k_tiny_sq[8] = {TINY_SQ, TINY_SQ, TINY_SQ, TINY_SQ, TINY_SQ, TINY_SQ, TINY_SQ, TINY_SQ};
static _Alignas(64) const float k_up[8] = {UP, UP, UP, UP, UP, UP, UP, UP};
/* the axis codes of kernel.h as floats, for lane selects */
static const float k_axis_code[SEPAX_AXIS_VERTICES + 1] = {0, 1,  2,  3,  4,  5,  6,  7, 8,
                                                           9, 10, 11, 12, 13, 14, 15, 16};
static _Alignas(64) const float k_ninf[8] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY,
                                             -INFINITY, -INFINITY, -INFINITY, -INFINITY};
/* the bits of the uint32_t 1 (a hit flag), as a float for lane selects: no arithmetic
 * ever touches it, it is only selected and stored */
static _Alignas(64) const float k_hit_bits[8] = {0x1p-149f, 0x1p-149f, 0x1p-149f, 0x1p-149f,
                                                 0x1p-149f, 0x1p-149f, 0x1p-149f, 0x1p-149f};

/* store_lane_records writes the hits as rows of floats (the flag as its bits) */
_Static_assert(sizeof(sepax_sweep_hit) == 4 * sizeof(float) && offsetof(sepax_sweep_hit, t) == 4 &&
                   offsetof(sepax_sweep_hit, normal) == 8,
               "sepax_sweep_hit is four 4-byte fields");
_Static_assert(sizeof(sepax_ray_hit) == 6 * sizeof(float) &&
                   offsetof(sepax_ray_hit, fraction) == 4 && offsetof(sepax_ray_hit, point) == 8 &&
                   offsetof(sepax_ray_hit, normal) == 16,
               "sepax_ray_hit is six 4-byte fields");
enum { RECORD_FIELDS = 6 }; /* the most fields of a record store_lane_records writes */

/* A hit, or all +0 for a miss, without a branch on which (a coin toss in a
 * typical batch, so a branch would mispredict half the time). The normal comes with no -0
 * (its callers add +0, as the reference does). */
static inline sepax_hit make_hit(float sep, float margin, float nx, float ny) {
    uint32_t keep = 0u - (uint32_t)(sep <= margin);
    sepax_hit h;
    h.hit = keep & 1u;
    h.normal.x = sepax_bits_float(sepax_float_bits(nx) & keep);
    h.normal.y = sepax_bits_float(sepax_float_bits(ny) & keep);
    h.depth = sepax_bits_float(sepax_float_bits(0.0f - sep) & keep);
    return h;
}

/* ---- slots: a pair per 8 lanes ---- */

/* The least projections run in MIN_CHAINS chains of minima, vertex j in chain j % MIN_CHAINS,
 * joined at the end. With AVX-512's 32 registers, two, where one would be seven deep (the
 * step's longest path): AVX-512 overlap 9.09-9.48 -> 8.47-8.77 ns a pair, collide
 * 11.26-11.36 -> 10.92-11.19 (docs/performance.md, "Two chains of minima"); with 16, one,
 * as the extra registers spill (SSE4.1 overlap 8% slower). The order cannot change the
 * value: the projections of valid shapes are never NaN, and a zero's sign, which min's
 * operand order can change, reaches no slot result (they compare separations, and a depth
 * is 0 - s, +0 for either zero). */
#if defined(SEPAX_ISA_AVX512)
#define MIN_CHAINS 2
#else
#define MIN_CHAINS 1
#endif

/* Vertex j's projection d (j >= 1) into the chains, chain[0] holding vertex 0's. */
static ALWAYS_INLINE void fold_min(lf *chain, int j, lf d) {
    if (j < MIN_CHAINS)
        chain[j] = d;
    else
        chain[j % MIN_CHAINS] = lf_min(d, chain[j % MIN_CHAINS]);
}

/* The chains' least, for n vertices. */
static ALWAYS_INLINE lf join_min(const lf *chain, int n) {
    return MIN_CHAINS > 1 && n > 1 ? lf_min(chain[MIN_CHAINS - 1], chain[0]) : chain[0];
}

/* Per plane of P (a lane each), the least projection of Q's vertices minus P's offset: how
 * far Q lies outside that edge. nq (4 or 8): the vertices of Q that count, the rest
 * repeating the last of them (which cannot change a least projection, bit for bit). */
static ALWAYS_INLINE lf plane_gaps(const rec_ptr *p, const rec_ptr *q, int nq) {
    lf nx = lf_load(p[0]->nx, SLOT1(p)->nx), ny = lf_load(p[0]->ny, SLOT1(p)->ny);
    lf least[MIN_CHAINS];
    least[0] = lf_add(lf_mul(nx, lf_bcast(&q[0]->x[0], &SLOT1(q)->x[0])),
                      lf_mul(ny, lf_bcast(&q[0]->y[0], &SLOT1(q)->y[0])));
    UNROLL8
    for (int j = 1; j < SEPAX_MAX_VERTS; j++) {
        if (j < nq)
            fold_min(least, j,
                     lf_add(lf_mul(nx, lf_bcast(&q[0]->x[j], &SLOT1(q)->x[j])),
                            lf_mul(ny, lf_bcast(&q[0]->y[j], &SLOT1(q)->y[j]))));
    }
    return lf_sub(join_min(least, nq), lf_load(p[0]->c, SLOT1(p)->c));
}

/* plane_gaps of A against B (sep_a) and of B against A (sep_b), in one loop: their chains of
 * minima side by side, which the one-pass steps take faster than one after the other (AVX2
 * overlap of the benchmark's polygons: 11.4-11.6 ns a pair against 10.8-10.9). */
static ALWAYS_INLINE void pair_separations(const rec_ptr *a, const rec_ptr *b, int na, int nb,
                                           lf *sep_a, lf *sep_b) {
    lf anx = lf_load(a[0]->nx, SLOT1(a)->nx), any = lf_load(a[0]->ny, SLOT1(a)->ny);
    lf bnx = lf_load(b[0]->nx, SLOT1(b)->nx), bny = lf_load(b[0]->ny, SLOT1(b)->ny);
    lf min_a[MIN_CHAINS], min_b[MIN_CHAINS];
    min_a[0] = lf_add(lf_mul(anx, lf_bcast(&b[0]->x[0], &SLOT1(b)->x[0])),
                      lf_mul(any, lf_bcast(&b[0]->y[0], &SLOT1(b)->y[0])));
    min_b[0] = lf_add(lf_mul(bnx, lf_bcast(&a[0]->x[0], &SLOT1(a)->x[0])),
                      lf_mul(bny, lf_bcast(&a[0]->y[0], &SLOT1(a)->y[0])));
    UNROLL8
    for (int j = 1; j < SEPAX_MAX_VERTS; j++) {
        if (j < nb)
            fold_min(min_a, j,
                     lf_add(lf_mul(anx, lf_bcast(&b[0]->x[j], &SLOT1(b)->x[j])),
                            lf_mul(any, lf_bcast(&b[0]->y[j], &SLOT1(b)->y[j]))));
        if (j < na)
            fold_min(min_b, j,
                     lf_add(lf_mul(bnx, lf_bcast(&a[0]->x[j], &SLOT1(a)->x[j])),
                            lf_mul(bny, lf_bcast(&a[0]->y[j], &SLOT1(a)->y[j]))));
    }
    *sep_a = lf_sub(join_min(min_a, nb), lf_load(a[0]->c, SLOT1(a)->c));
    *sep_b = lf_sub(join_min(min_b, na), lf_load(b[0]->c, SLOT1(b)->c));
}

/* What a collide step's lanes leave for its per-pair tail (slot_collide_emit): each slot's
 * largest separation in its every lane, and which of A's and B's planes equal it. */
typedef struct collide_tail {
    lf mx;
    unsigned eq_a, eq_b;
} collide_tail;

static ALWAYS_INLINE collide_tail slot_collide_lanes(lf sa, lf sb) {
    lf mx = lf_slot_max(lf_max(sa, sb));
    collide_tail t = {mx, lf_eq_bits(sa, mx), lf_eq_bits(sb, mx)};
    return t;
}

/* The collide results of the live pairs of a step from its lanes' tail, at their places
 * pos[p]: the largest of A's planes (axes 0-7) and B's (8-15), the lowest equal axis giving
 * the normal. Returns how many miss. */
static ALWAYS_INLINE int slot_collide_emit(const collide_tail *t, const rec_ptr *a,
                                           const rec_ptr *b, float margin, const size_t *pos,
                                           int live, sepax_hit *out, uint8_t *axis_out) {
    float m[LANES];
    lf_store(t->mx, m);
    int misses = 0;
    for (int p = 0; p < live; p++) {
        /* lowest equal axis wins; bit 17 keeps the index defined (and the
         * & 7 in range) even for NaN input, as before the curved axis left */
        unsigned bits = ((t->eq_a >> (8 * p)) & 0xffu) | ((t->eq_b >> (8 * p)) & 0xffu) << 8;
        unsigned axis = (unsigned)__builtin_ctz(bits | 0x20000u);
        const sepax_poly_rec *owner = axis < 8u ? a[p] : b[p];
        /* B's outward normal points from B to A: reverse it by its sign bit; then + 0, so a
         * zero component is +0 either way (an A plane turned by an exact quarter turn holds
         * -0), which is the reference's n + 0 for A and 0 - n for B, bit for bit */
        uint32_t flip = (uint32_t)(axis >= 8u) << 31;
        float nx = sepax_bits_float(sepax_float_bits(owner->nx[axis & 7u]) ^ flip) + 0.0f;
        float ny = sepax_bits_float(sepax_float_bits(owner->ny[axis & 7u]) ^ flip) + 0.0f;
        out[pos[p]] = make_hit(m[8 * p], margin, nx, ny);
        if (axis_out) axis_out[pos[p]] = (uint8_t)(axis & 15u);
        misses += !(m[8 * p] <= margin);
    }
    return misses;
}

/* Overlap flags of one step of SEPAX_P sharp pairs whose gaps sa (plane_gaps of A against B)
 * and sb are known, written for the live ones at their places pos[p]: a hit when the largest
 * separation is within the margin, that is when every lane's is, with no reduction (the
 * separations of valid shapes are never NaN). Returns how many miss. */
static ALWAYS_INLINE int slot_overlap_step(lf sa, lf sb, float margin, const size_t *pos, int live,
                                           uint8_t *hit) {
    unsigned in = lf_le_bits(lf_max(sa, sb), lf_bcast(&margin, &margin));
    int hits = 0;
    for (int p = 0; p < live; p++) {
        uint8_t h = ((in >> (8 * p)) & 0xffu) == 0xffu;
        hit[pos[p]] = h;
        hits += h;
    }
    return live - hits;
}

/* ---- a pair per lane: circles, and a circle or capsule against the rest ---- */

/* Lane t of out[c] = float c at byte offset `off` of record p[t] (8 floats
 * with `eight`, else 4). */
static ALWAYS_INLINE void rows_at(const char *const *p, size_t off, int eight, lf *out) {
    const float *r[LANES];
    for (int t = 0; t < LANES; t++) r[t] = (const float *)(const void *)(p[t] + off);
    lf_rows4(r, 0, out);
    if (eight) lf_rows4(r, 4, out + 4);
}

/* LANES shapes' records and discs, as byte pointers. */
typedef struct lane_shapes {
    const char *rec[LANES], *disc[LANES];
} lane_shapes;

static ALWAYS_INLINE void lane_shapes_of(const sepax_shapes *st, const uint32_t *id,
                                         lane_shapes *out) {
    for (int t = 0; t < LANES; t++) {
        out->rec[t] = (const char *)(st->rec + id[t]);
        out->disc[t] = (const char *)(st->disc + id[t]);
    }
}

#define DISC_ROWS(sh, out) rows_at((sh)->disc, 0, 0, out)
#define REC_ROWS(sh, field, eight, out)                                                            \
    rows_at((sh)->rec, offsetof(sepax_poly_rec, field), eight, out)

/* The running maximum over axes in the reference's order: the first of equal
 * separations keeps its normal. */
static ALWAYS_INLINE void take(lf s, lf nx, lf ny, int code, int first, int collide, lf *best,
                               lf *bnx, lf *bny, lf *bax) {
    lf ax = lf_bcast(&k_axis_code[code], &k_axis_code[code]);
    if (first) {
        *best = s;
        *bnx = nx;
        *bny = ny;
        *bax = ax;
        return;
    }
    if (collide) {
        *bnx = lf_sel_gt(s, *best, nx, *bnx);
        *bny = lf_sel_gt(s, *best, ny, *bny);
        *bax = lf_sel_gt(s, *best, ax, *bax);
    }
    *best = lf_max(s, *best);
}

/* One candidate of the closest-vertices axis: (dx, dy) replaces the best so far where its
 * squared length is strictly less, so the first closest pair wins, as in the reference.
 * With `nn`, both squared lengths are sums of squares of finite floats (world coordinates
 * stay within about 2.5 * SEPAX_COORD_LIMIT, so they stay below 5e37), never negative, NaN,
 * or a denormal under DAZ: the _nn lanes apply (lanes.h). The sweeps pass 0: their vertices
 * are moved to a contact time that can be NaN, and the float forms keep such a lane's best
 * (a compare with NaN is false; lf_min returns its second operand). */
static ALWAYS_INLINE void closer(lf dx, lf dy, int first, int nn, lf *bdx, lf *bdy, lf *bd2) {
    lf d2 = lf_add(lf_mul(dx, dx), lf_mul(dy, dy));
    if (first) {
        *bdx = dx;
        *bdy = dy;
        *bd2 = d2;
        return;
    }
    *bdx = nn ? lf_sel_lt_nn(d2, *bd2, dx, *bdx) : lf_sel_lt(d2, *bd2, dx, *bdx);
    *bdy = nn ? lf_sel_lt_nn(d2, *bd2, dy, *bdy) : lf_sel_lt(d2, *bd2, dy, *bdy);
    *bd2 = nn ? lf_min_nn(d2, *bd2) : lf_min(d2, *bd2);
}

/* The unit axis along each lane's (dx, dy) with d2 = dx^2 + dy^2. Where d2 is below the
 * least normal float (a vector shorter than about 1e-19, subnormal or 0 under DAZ), the
 * vector is first scaled by 2^64: exact, and a unit vector's bits do not depend on its
 * length's power of two, so this changes nothing where d2 was normal, and where it was not,
 * a subnormal's square root no longer divides it (a review's normals of length 0.93 and
 * 1.06, for shapes of ordinary size whose closest vertices were 4e-23 apart). (1, 0) where the
 * scaled square is still not normal (components below about 1e-38: coincident) or NaN. */
static ALWAYS_INLINE void unit_lanes(lf dx, lf dy, lf d2, lf *ux, lf *uy) {
    lf one = lf_load(k_one, k_one), zero = lf_load(k_zero, k_zero);
    lf up = lf_sel_lt(d2, lf_load(k_min_sq, k_min_sq), lf_load(k_up, k_up), one);
    lf sx = lf_mul(dx, up), sy = lf_mul(dy, up);
    lf s2 = lf_add(lf_mul(sx, sx), lf_mul(sy, sy)), d = lf_sqrt(s2);
    lf tiny = lf_load(k_tiny_sq, k_tiny_sq);
    *ux = lf_sel_gt(s2, tiny, lf_div(sx, d), one);
    *uy = lf_sel_gt(s2, tiny, lf_div(sy, d), zero);
}

/* The powers of two of reference_sweep.c's rounded corners, per lane, from the exponent
 * fields E of |v|, |d| and the radii (the largest component of each): gv = 2^-ev and
 * gd = 2^-em (em the floor of the mean of ed and er), and 2^(em - ev) in two halves, back0
 * and back1, where e = E - 126 is frexp's exponent (field 0, a subnormal or 0, counting as
 * -126, as there). A float of exponent field F is F << 23. Lanes a NaN reaches get some value,
 * and their results are dropped as misses, in the reference too. Lane by lane in scalar code:
 * it runs once a step of the curved sweeps, beside hundreds of lane operations. */
typedef struct corner_units {
    lf gv, gd, back0, back1;
} corner_units;

static ALWAYS_INLINE corner_units corner_units_of(lf v, lf d, lf r) {
    _Alignas(64) float fv[LANES], fd[LANES], fr[LANES], f[4][LANES];
    lf_store(v, fv);
    lf_store(d, fd);
    lf_store(r, fr);
    for (int k = 0; k < LANES; k++) {
        int ev = (int)(sepax_float_bits(fv[k]) >> 23 & 0xffu),
            ed = (int)(sepax_float_bits(fd[k]) >> 23 & 0xffu);
        /* exponent fields: never negative, so >> 1 halves */
        int em = (ed + (int)(sepax_float_bits(fr[k]) >> 23 & 0xffu)) >> 1;
        int back = em - ev, half = (back - (back & 1)) / 2;
        f[0][k] = sepax_bits_float((uint32_t)(253 - ev) << 23);
        f[1][k] = sepax_bits_float((uint32_t)(253 - em) << 23);
        f[2][k] = sepax_bits_float((uint32_t)(127 + half) << 23);
        f[3][k] = sepax_bits_float((uint32_t)(127 + back - half) << 23);
    }
    corner_units u = {lf_load(f[0], f[0] + 8), lf_load(f[1], f[1] + 8), lf_load(f[2], f[2] + 8),
                      lf_load(f[3], f[3] + 8)};
    return u;
}

/* One shape per lane, its rows transposed: vertex (or plane) k of lane t's
 * shape in lane t of x[k] etc. Only the rows a kernel asks for are loaded. */
typedef struct lane_rows {
    lf x[8], y[8], nx[8], ny[8], c[8], r;
} lane_rows;

/* The rows of LANES shapes with nv core vertices as the kernels see them:
 * 1 a circle (its disc is its vertex; its planes never separate, their
 * offsets being +Inf, so they are left out), 2 a capsule (2 vertices, 2
 * planes), 8 anything else (all 8 rows, the padding repeating the last). */
static ALWAYS_INLINE void load_rows(const lane_shapes *sh, int nv, lane_rows *out) {
    lf d[4];
    DISC_ROWS(sh, d);
    out->r = d[2];
    if (nv == 1) {
        out->x[0] = d[0];
        out->y[0] = d[1];
        return;
    }
    int eight = nv == 8;
    REC_ROWS(sh, x, eight, out->x);
    REC_ROWS(sh, y, eight, out->y);
    REC_ROWS(sh, nx, eight, out->nx);
    REC_ROWS(sh, ny, eight, out->ny);
    REC_ROWS(sh, c, eight, out->c);
}

/* The least of v's nv vertices projected on (nx, ny), vertex 0 first: the
 * planes' side of SAT, for the overlap kernels (nv known per class) and the
 * sweeps (whose loops stay rolled, see run_sweep, so the common 8 rows are
 * unrolled here: the counter and branch were a third of the loop). */
static ALWAYS_INLINE lf least_projection(lf nx, lf ny, const lane_rows *v, int nv) {
    lf m = lf_add(lf_mul(nx, v->x[0]), lf_mul(ny, v->y[0]));
    if (nv == 8) {
        UNROLL8
        for (int j = 1; j < 8; j++) m = lf_min(lf_add(lf_mul(nx, v->x[j]), lf_mul(ny, v->y[j])), m);
        return m;
    }
    UNROLL8
    for (int j = 1; j < nv; j++) m = lf_min(lf_add(lf_mul(nx, v->x[j]), lf_mul(ny, v->y[j])), m);
    return m;
}

/* Each lane's pair (A, B) with na and nb core vertices (1, 2 or 8, as in
 * load_rows), the reference's way: the largest of A's planes against B's
 * vertices, B's planes against A's, and the closest-vertices axis (the
 * first closest pair, A's vertex the outer loop; d = B - A), the first of
 * equal separations winning, minus both radii. With `collide` the normal
 * (from A to B) comes back through nx, ny. No branch on data. */
static ALWAYS_INLINE lf pair_lanes(const lane_rows *a, int na, const lane_rows *b, int nb,
                                   int collide, lf *nx, lf *ny, lf *axis) {
    lf zero = lf_load(k_zero, k_zero), best = zero, bnx = zero, bny = zero, bax = zero;
    int taken = 0; /* axes so far: the first one sets the maximum */
    UNROLL8
    for (int side = 0; side < 2; side++) {
        const lane_rows *p = side ? b : a, *v = side ? a : b; /* planes of p, vertices of v */
        int np = (side ? nb : na) == 1 ? 0 : side ? nb : na, nv = side ? na : nb;
        UNROLL8
        for (int i = 0; i < np; i++) {
            lf m = least_projection(p->nx[i], p->ny[i], v, nv);
            /* B's outward normal points from B to A: reverse it, as 0 - n so
             * a zero component stays +0 */
            lf px = side ? lf_sub(zero, p->nx[i]) : p->nx[i];
            lf py = side ? lf_sub(zero, p->ny[i]) : p->ny[i];
            take(lf_sub(m, p->c[i]), px, py, side * SEPAX_MAX_VERTS + i, !taken++, collide, &best,
                 &bnx, &bny, &bax);
        }
    }
    lf bdx = zero, bdy = zero, bd2 = zero;
    UNROLL8
    for (int i = 0; i < na; i++) {
        UNROLL8
        for (int j = 0; j < nb; j++) {
            lf dx = lf_sub(b->x[j], a->x[i]), dy = lf_sub(b->y[j], a->y[i]);
            closer(dx, dy, i == 0 && j == 0, 1, &bdx, &bdy, &bd2);
        }
    }
    lf ux, uy;
    unit_lanes(bdx, bdy, bd2, &ux, &uy);
    /* B's least projection on the axis minus A's greatest */
    lf hi = lf_add(lf_mul(ux, a->x[0]), lf_mul(uy, a->y[0]));
    UNROLL8
    for (int i = 1; i < na; i++) hi = lf_max(lf_add(lf_mul(ux, a->x[i]), lf_mul(uy, a->y[i])), hi);
    lf lo = lf_add(lf_mul(ux, b->x[0]), lf_mul(uy, b->y[0]));
    UNROLL8
    for (int j = 1; j < nb; j++) lo = lf_min(lf_add(lf_mul(ux, b->x[j]), lf_mul(uy, b->y[j])), lo);
    take(lf_sub(lo, hi), ux, uy, SEPAX_AXIS_VERTICES, !taken, collide, &best, &bnx, &bny, &bax);
    *nx = bnx;
    *ny = bny;
    *axis = bax;
    return lf_sub(best, lf_add(a->r, b->r));
}

/* The rows of LANES pairs of one lane class, list[t]: lanes_step's first half. */
static ALWAYS_INLINE void lanes_load(const sepax_shapes *st, const sepax_pair *list, unsigned cls,
                                     lane_rows *a, lane_rows *b) {
    uint32_t ia[LANES], ib[LANES];
    for (int t = 0; t < LANES; t++) {
        ia[t] = list[t].a & SEPAX_ID_INDEX_MASK;
        ib[t] = list[t].b & SEPAX_ID_INDEX_MASK;
    }
    unsigned lc = cls - SEPAX_PAIR_LANES; /* sepax_lane_class */
    lane_shapes sa, sb;
    lane_shapes_of(st, ia, &sa);
    lane_shapes_of(st, ib, &sb);
    load_rows(&sa, 1 << (lc / 4u), a);
    load_rows(&sb, 1 << (lc % 4u), b);
}

/* The answers of LANES pairs of one lane class from their rows (lanes_load), to positions
 * base + idx[t] (listed 0: base + t; a constant, so each caller's copy has no test of it):
 * lanes_step's second half. */
static ALWAYS_INLINE void lanes_answer(const lane_rows *a, const lane_rows *b, size_t base,
                                       int listed, const uint16_t *idx, unsigned cls, int collide,
                                       lf margin, uint8_t *hit, sepax_hit *out, uint8_t *axis_out) {
    size_t pos[LANES];
    for (int t = 0; t < LANES; t++) pos[t] = base + (listed ? idx[t] : (size_t)t);
    unsigned lc = cls - SEPAX_PAIR_LANES;
    int na = 1 << (lc / 4u), nb = 1 << (lc % 4u);
    lf nx, ny, ax, sep = pair_lanes(a, na, b, nb, collide, &nx, &ny, &ax);
    if (!collide) {
        unsigned bits = lf_le_bits(sep, margin);
        if (!listed) { /* consecutive: the flags of 8 lanes in one store */
            for (int p = 0; p < SEPAX_P; p++) {
                uint64_t f = byte_flags[(bits >> (8 * p)) & 0xffu];
                memcpy(hit + base + 8 * (size_t)p, &f, 8);
            }
        } else {
            for (int t = 0; t < LANES; t++) hit[pos[t]] = (uint8_t)((bits >> t) & 1u);
        }
        return;
    }
    float fs[LANES], fx[LANES], fy[LANES], mg[LANES], fa[LANES];
    lf zero = lf_load(k_zero, k_zero); /* + 0: a zero component is +0, as the reference's */
    lf_store(sep, fs);
    lf_store(lf_add(nx, zero), fx);
    lf_store(lf_add(ny, zero), fy);
    lf_store(margin, mg);
    for (int t = 0; t < LANES; t++) out[pos[t]] = make_hit(fs[t], mg[0], fx[t], fy[t]);
    if (axis_out) {
        lf_store(ax, fa);
        for (int t = 0; t < LANES; t++) axis_out[pos[t]] = (uint8_t)fa[t];
    }
}

/* LANES pairs of one lane class, list[t], results to positions base + idx[t]
 * (listed 0: base + t). */
static ALWAYS_INLINE void lanes_step(const sepax_shapes *st, const sepax_pair *list, size_t base,
                                     int listed, const uint16_t *idx, unsigned cls, int collide,
                                     lf margin, uint8_t *hit, sepax_hit *out, uint8_t *axis_out) {
    lane_rows a, b;
    lanes_load(st, list, cls, &a, &b);
    lanes_answer(&a, &b, base, listed, idx, cls, collide, margin, hit, out, axis_out);
}

/* The sorted pairs list[t] for t < n (positions base + idx[t]), one lane
 * class, a pair per lane. Both lists are padded to a whole number of steps
 * by repeating their last entry (sort_chunks does that): the spare lanes then
 * write the last pair's result again. */
static ALWAYS_INLINE void run_lanes(const sepax_shapes *st, const sepax_pair *list, size_t base,
                                    const uint16_t *idx, size_t n, unsigned cls, int collide,
                                    float margin, uint8_t *hit, sepax_hit *out, uint8_t *axis) {
    float mg = margin;
    lf vm = lf_bcast(&mg, &mg);
    for (size_t i = 0; i < n; i += LANES)
        lanes_step(st, list + i, base, 1, idx + i, cls, collide, vm, hit, out, axis);
}

/* Whether run_circles loads each step's discs a step ahead, before the step before it is
 * answered: a step's id and disc loads, transposes, square root and division make one
 * chain of about 90 cycles, too long for a core's reorder window to overlap more than two
 * steps of, and with the loads a step ahead the chain starts at the arithmetic. On a Zen 3,
 * AVX2 circle overlaps 2.13-2.21 -> 1.88-1.96 ns a pair (docs/performance.md, "A Zen 3:
 * the issues' machine"). Only the AVX2 copy: SSE2's and SSE4.1's steps of 4 pairs read the
 * same either way there (3.40-3.98 against 3.51-3.67 ns) for 2 instructions a pair more; the
 * scalar copy, whose lane structs stay in memory, took 115 -> 134 and was slower; AVX-512 (no
 * such CPU at hand) and NEON (timed only under emulation) were not timed. */
#if defined(SEPAX_ISA_AVX2)
#define CIRCLES_AHEAD 1
#else
#define CIRCLES_AHEAD 0
#endif

/* Pairs pairs[t] for t < n, a store of circles only: consecutive steps, the
 * short tail as a list padded with its last pair. */
static ALWAYS_INLINE void run_circles(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                                      int collide, float margin, uint8_t *hit, sepax_hit *out,
                                      uint8_t *axis) {
    unsigned cls = sepax_lane_class(0, 0);
    float mg = margin;
    lf vm = lf_bcast(&mg, &mg);
    size_t i = 0;
    if (!CIRCLES_AHEAD) {
        for (; n - i >= LANES; i += LANES)
            lanes_step(st, pairs + i, i, 0, NULL, cls, collide, vm, hit, out, axis);
    } else if (n >= LANES) {
        lane_rows a, b, na, nb;
        lanes_load(st, pairs, cls, &a, &b);
        for (; n - i >= 2 * LANES; i += LANES) {
            lanes_load(st, pairs + i + LANES, cls, &na, &nb);
            lanes_answer(&a, &b, i, 0, NULL, cls, collide, vm, hit, out, axis);
            a.x[0] = na.x[0], a.y[0] = na.y[0], a.r = na.r; /* a disc's rows (load_rows) */
            b.x[0] = nb.x[0], b.y[0] = nb.y[0], b.r = nb.r;
        }
        lanes_answer(&a, &b, i, 0, NULL, cls, collide, vm, hit, out, axis);
        i += LANES;
    }
    if (i < n) {
        sepax_pair tail[LANES];
        uint16_t at[LANES];
        for (size_t t = 0; t < LANES; t++) {
            at[t] = (uint16_t)(i + t < n ? t : n - 1 - i);
            tail[t] = pairs[i + at[t]];
        }
        lanes_step(st, tail, i, 1, at, cls, collide, vm, hit, out, axis);
    }
}

/* A list in no order of place reads each pair's two records (160 bytes, three lines each)
 * from wherever they are; once a store's records are past the L1 cache, the sharp pair
 * steps ask for the records of the pair AHEAD places on. Below a size the prefetches cost
 * more than they save, and the sweep's loop, which carries more, pays more for them:
 * overlap and collide prefetch in stores of more than FAR_PAIRS shapes (320 KiB of
 * records), the sweep in stores of more than FAR_SWEEP (1.25 MiB). Measured on the Zen 4,
 * AVX-512 copy, `sepax-bench --only Q --loops 7 --shuffle --pairs 200000 --shapes S`, ns a
 * pair without -> with: overlap 8.1-8.4 -> 7.2 at 2,048, 9.4-9.6 -> 7.3-7.4 at 4,096, 96 ->
 * 43 at 262,144; collide 9.9-10.2 -> 10.0-12.0 at 2,048, 11.2-11.3 -> 10.1-10.9 at 4,096;
 * sweep 14.5 -> 18.8 at 128, 16.3 -> 19.5 at 4,096, 18.9 -> 19.0 at 8,192, 21.4 -> 19.3 at
 * 16,384, 171 -> 55 at 262,144 (docs/performance.md, "Records asked for ahead"). The rays
 * against sharp polygons (run_ray_slots) in stores of more than FAR_RAYS shapes, the same
 * size: ns a ray with --only raycast --loops 5, 14.8-15.1 -> 13.7-13.8 at 4,096, 32-45 ->
 * 17.9-19.6 at 65,536; in every store, 13.0-13.5 -> 13.4-13.5 at 128 ("Rays asked for
 * ahead"). The lane loops (curved shapes) ask for nothing ahead: the next step's shapes
 * asked for cost their sweeps at every size measured (the same section). */
#define FAR_PAIRS SEPAX_FAR_PAIRS
#define FAR_SWEEP SEPAX_FAR_SWEEP
#define FAR_RAYS SEPAX_FAR_PAIRS
#define AHEAD 8

/* how many pairs from list[0] a step may ask for ahead: n in a store of more than `far`
 * shapes, else none */
static ALWAYS_INLINE size_t ahead_of(const sepax_shapes *st, size_t n, uint32_t far) {
#if defined(SEPAX_ISA_SCALAR)
    /* never: the portable copy keeps one copy of each loop, since two took its sweep past
     * the stack promised with scratch (25,160 of SEPAX_SCRATCH_STACK_BYTES, tests/stack_driver.c)
     */
    (void)st, (void)n, (void)far;
    return 0;
#else
    return st->high > far ? n : 0;
#endif
}

static ALWAYS_INLINE void prefetch_record(const sepax_poly_rec *r) {
    const char *p = (const char *)r; /* 160 bytes: three lines, wherever the record starts */
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
    __builtin_prefetch(p + 128);
}

/* whether a store is past `far` shapes for the loops built twice: as ahead_of, never in the
 * scalar copy */
static ALWAYS_INLINE int is_far(const sepax_shapes *st, uint32_t far) {
    return ahead_of(st, 1, far) != 0; /* 1: a list of one, so nonzero exactly when far */
}

/* The pairs of the slot step at k = i (list[k], at base + idx[k], idx NULL: base + k):
 * their positions and records, a short tail repeating its last pair in the spare slots.
 * Returns the live slots. With `ahead` (0 or more than i: the pairs of the list to look
 * ahead in), the records of the pairs AHEAD places on are asked for (the last such pair's
 * again past the end). */
static ALWAYS_INLINE int slot_pairs(const sepax_poly_rec *rec, const sepax_pair *list, size_t base,
                                    const uint16_t *idx, size_t i, size_t n, size_t ahead,
                                    size_t *pos, rec_ptr *a, rec_ptr *b) {
    int live = n - i < SEPAX_P ? (int)(n - i) : SEPAX_P;
    if (ahead) {
        for (int p = 0; p < SEPAX_P; p++) {
            size_t k = i + AHEAD + (size_t)p;
            k = k < ahead ? k : ahead - 1;
            prefetch_record(rec + (list[k].a & SEPAX_ID_INDEX_MASK));
            prefetch_record(rec + (list[k].b & SEPAX_ID_INDEX_MASK));
        }
    }
    for (int p = 0; p < SEPAX_P; p++) {
        size_t k = i + (size_t)(p < live ? p : live - 1);
        pos[p] = base + (idx ? idx[k] : k);
        a[p] = rec + (list[k].a & SEPAX_ID_INDEX_MASK);
        b[p] = rec + (list[k].b & SEPAX_ID_INDEX_MASK);
    }
    return live;
}

/* The pairs of a second-pass step: the lowest SEPAX_P set bits of *kept (offsets into
 * list), cleared, as slot_pairs (a short tail repeating its last), with their offsets k.
 * Returns the live slots. */
static ALWAYS_INLINE int kept_pairs(const sepax_poly_rec *rec, const sepax_pair *list, size_t base,
                                    const uint16_t *idx, uint64_t *kept, size_t *pos, rec_ptr *a,
                                    rec_ptr *b, size_t *k) {
    int live = 0;
    size_t last = 0;
    for (int p = 0; p < SEPAX_P; p++) {
        uint64_t m = *kept;
        k[p] = last = m ? (size_t)__builtin_ctzll(m) : last;
        live += m != 0;
        *kept = m & (m - 1);
        pos[p] = base + (idx ? idx[k[p]] : k[p]);
        a[p] = rec + (list[k[p]].a & SEPAX_ID_INDEX_MASK);
        b[p] = rec + (list[k[p]].b & SEPAX_ID_INDEX_MASK);
    }
    return live;
}

/* Pairs a slot kernel sifts at a time. A first pass takes A's planes against B's vertices
 * for SIFT pairs, writes a miss for each pair that some plane of A already separates (by
 * more than the margin; swept, for the whole step), and marks the others in a mask; a
 * second pass runs B's planes and the rest for the marked pairs only, reusing their A-side
 * gaps bit for bit. A pair missed on A's planes misses on all of them, so the answers are
 * the same (but for collide's axis code of a miss, which means nothing: kernel.h), and which
 * pairs go on is a mask, not a branch a pair (a coin toss in a typical batch). */
#define SIFT 64
_Static_assert(SIFT % SEPAX_P == 0 && SIFT <= 64, "whole steps in a sift, a mask bit a pair");
/* The two passes cost more than one when few pairs miss (AVX2 collide of polygons, every
 * pair touching: 15.0 -> 19.6 ns a pair) and save when many do, so a block sifts when at
 * least SIFT_MIN_* of the SIFT pairs of the block before were ruled out (missed, when it ran
 * in one pass): a branch a block, predicted while the share of misses holds. The thresholds
 * are near the break-even shares measured on a Zen 4, on shuffled lists (sepax-bench
 * --shuffle), with the AVX2 and 256-bit AVX-512 copies timed and SSE4.1 counted by
 * callgrind (README, "Sifting out the misses"); the 512-bit copy takes the 256-bit one's,
 * and SSE2, scalar and NEON SSE4.1's, unmeasured. SIFT + 1: never. */
#if defined(SEPAX_ISA_AVX512)
enum { SIFT_MIN_OVERLAP = SIFT + 1, SIFT_MIN_COLLIDE = SIFT / 6, SIFT_MIN_SWEEP = SIFT + 1 };
#elif defined(SEPAX_ISA_AVX2)
enum { SIFT_MIN_OVERLAP = SIFT + 1, SIFT_MIN_COLLIDE = SIFT / 3, SIFT_MIN_SWEEP = SIFT * 3 / 8 };
#else
enum { SIFT_MIN_OVERLAP = SIFT / 16, SIFT_MIN_COLLIDE = SIFT / 5, SIFT_MIN_SWEEP = SIFT * 3 / 8 };
#endif

/* A collide step whose tail (slot_collide_emit) waits until the next step's lanes are under
 * way (slots_one_pass, run_slots): that tail is a chain from the lanes' compares through the
 * axis, a load of its normal and the store, which, run at once, held up the next pair's
 * vector work (a software pipeline of one step: the same operations, the same bits). */
typedef struct collide_pending {
    size_t pos[SEPAX_P];
    rec_ptr a[SEPAX_P], b[SEPAX_P];
    int live;
    collide_tail tail;
} collide_pending;

static ALWAYS_INLINE collide_pending collide_one_pass_step(const sepax_poly_rec *rec,
                                                           const sepax_pair *list, size_t base,
                                                           const uint16_t *idx, size_t i, size_t n,
                                                           size_t ahead, int na, int nb) {
    collide_pending s;
    s.live = slot_pairs(rec, list, base, idx, i, n, ahead, s.pos, s.a, s.b);
    lf sa, sb;
    pair_separations(s.a, s.b, na, nb, &sa, &sb);
    s.tail = slot_collide_lanes(sa, sb);
    return s;
}

static ALWAYS_INLINE collide_pending collide_kept_step(const sepax_poly_rec *rec,
                                                       const sepax_pair *list, size_t base,
                                                       const uint16_t *idx, uint64_t *kept,
                                                       float (*gap)[8], int na) {
    collide_pending s;
    size_t k[SEPAX_P];
    s.live = kept_pairs(rec, list, base, idx, kept, s.pos, s.a, s.b, k);
    s.tail = slot_collide_lanes(lf_load(gap[k[0]], gap[SLOT1(k)]), plane_gaps(s.b, s.a, na));
    return s;
}

/* Sharp pairs list[k] (at base + idx[k], idx NULL: base + k) for k < n in one pass, a slot
 * each, as run_slots. Returns how many miss. */
static ALWAYS_INLINE size_t slots_one_pass(const sepax_poly_rec *rec, const sepax_pair *list,
                                           size_t base, const uint16_t *idx, size_t n, size_t ahead,
                                           int na, int nb, int collide, float margin, uint8_t *hit,
                                           sepax_hit *out, uint8_t *axis) {
    size_t missed = 0;
    if (!collide) {
        for (size_t i = 0; i < n; i += SEPAX_P) {
            size_t pos[SEPAX_P];
            rec_ptr a[SEPAX_P], b[SEPAX_P];
            int live = slot_pairs(rec, list, base, idx, i, n, ahead, pos, a, b);
            lf sa, sb;
            pair_separations(a, b, na, nb, &sa, &sb);
            missed += (size_t)slot_overlap_step(sa, sb, margin, pos, live, hit);
        }
        return missed;
    }
    if (n == 0) return 0;
    collide_pending s0 = collide_one_pass_step(rec, list, base, idx, 0, n, ahead, na, nb);
    for (size_t i = SEPAX_P; i < n; i += SEPAX_P) {
        collide_pending s1 = collide_one_pass_step(rec, list, base, idx, i, n, ahead, na, nb);
        missed +=
            (size_t)slot_collide_emit(&s0.tail, s0.a, s0.b, margin, s0.pos, s0.live, out, axis);
        s0 = s1;
    }
    missed += (size_t)slot_collide_emit(&s0.tail, s0.a, s0.b, margin, s0.pos, s0.live, out, axis);
    return missed;
}

/* Sharp pairs list[k] (at base + idx[k], idx NULL: base + k) for k < n, a
 * slot each, A's shapes held by na rows and B's by nb (4 or 8), sifted as above. A short
 * tail repeats its last pair in the spare slots and keeps only the live results. */
static ALWAYS_INLINE void run_slots_at(const sepax_shapes *st, const sepax_pair *list, size_t base,
                                       const uint16_t *idx, size_t n, size_t ahead, int na, int nb,
                                       int collide, float margin, uint8_t *hit, sepax_hit *out,
                                       uint8_t *axis) {
    const sepax_poly_rec *rec = st->rec;
    const size_t least = collide ? SIFT_MIN_COLLIDE : SIFT_MIN_OVERLAP;
    if (least > SIFT) { /* never sifts: one pass, no blocks (its miss count unused) */
        slots_one_pass(rec, list, base, idx, n, ahead, na, nb, collide, margin, hit, out, axis);
        return;
    }
    lf lim = lf_bcast(&margin, &margin);
    const sepax_hit none = {0};
    size_t ruled = SIFT; /* ruled out in the block before: the first block sifts if any may */
    for (size_t i0 = 0; i0 < n; i0 += SIFT) {
        const sepax_pair *sl = list + i0;
        const uint16_t *si = idx ? idx + i0 : NULL;
        size_t sbase = idx ? base : base + i0; /* where sl[k] goes: sbase + (si ? si[k] : k) */
        size_t m = n - i0 < SIFT ? n - i0 : SIFT;
        size_t block_ahead = ahead ? n - i0 : 0; /* across the blocks after this one */
        if (ruled < least) {
            ruled = slots_one_pass(rec, sl, sbase, si, m, block_ahead, na, nb, collide, margin, hit,
                                   out, axis);
            continue;
        }
        uint64_t kept = 0;
        _Alignas(64) float gap[SIFT + 1][8];
        for (size_t i = 0; i < m; i += SEPAX_P) {
            size_t pos[SEPAX_P];
            rec_ptr a[SEPAX_P], b[SEPAX_P];
            int live = slot_pairs(rec, sl, sbase, si, i, m, block_ahead, pos, a, b);
            lf sa = plane_gaps(a, b, nb);
            lf_store2(sa, gap[i], gap[i + 1]);
            unsigned in = lf_le_bits(sa, lim);
            for (int p = 0; p < live; p++) {
                kept |= (uint64_t)(((in >> (8 * p)) & 0xffu) == 0xffu) << (i + (size_t)p);
                /* a miss; a kept pair's result overwrites it */
                if (collide) {
                    out[pos[p]] = none;
                    if (axis) axis[pos[p]] = 0;
                } else {
                    hit[pos[p]] = 0;
                }
            }
        }
        ruled = m - (size_t)__builtin_popcountll(kept);
        if (!collide) {
            while (kept) {
                size_t pos[SEPAX_P], k[SEPAX_P];
                rec_ptr a[SEPAX_P], b[SEPAX_P];
                int live = kept_pairs(rec, sl, sbase, si, &kept, pos, a, b, k);
                lf sa = lf_load(gap[k[0]], gap[SLOT1(k)]);
                slot_overlap_step(sa, plane_gaps(b, a, na), margin, pos, live, hit);
            }
            continue;
        }
        if (!kept) continue;
        collide_pending s0 = collide_kept_step(rec, sl, sbase, si, &kept, gap, na);
        while (kept) {
            collide_pending s1 = collide_kept_step(rec, sl, sbase, si, &kept, gap, na);
            slot_collide_emit(&s0.tail, s0.a, s0.b, margin, s0.pos, s0.live, out, axis);
            s0 = s1;
        }
        slot_collide_emit(&s0.tail, s0.a, s0.b, margin, s0.pos, s0.live, out, axis);
    }
}

/* run_slots_at with a copy of its own for a far store: one loop for both, switched at run
 * time, took the AVX-512 sweep of a store in L2 from 16.1 to 19.7 ns a pair with no prefetch
 * made, so a near store's copy holds no trace of them */
static ALWAYS_INLINE void run_slots(const sepax_shapes *st, const sepax_pair *list, size_t base,
                                    const uint16_t *idx, size_t n, int na, int nb, int collide,
                                    float margin, uint8_t *hit, sepax_hit *out, uint8_t *axis) {
    size_t ahead = ahead_of(st, n, FAR_PAIRS);
    if (ahead)
        run_slots_at(st, list, base, idx, n, ahead, na, nb, collide, margin, hit, out, axis);
    else
        run_slots_at(st, list, base, idx, n, 0, na, nb, collide, margin, hit, out, axis);
}

/* ---- swept SAT: a pair per lane (curved pairs; sharp ones run in slots, below) ---- */

/* What a class's loop needs besides the pairs: the query's inputs and outputs. */
typedef struct pair_job {
    float margin;
    uint8_t *hit;
    sepax_hit *out;
    uint8_t *axis;
    const sepax_vec2 *va, *vb; /* sweeps: displacement per pair, NULL: not moving */
    sepax_sweep_hit *sweep;
    void *work; /* SEPAX_WORK_BYTES for the sort's buffers (kernel.h); NULL: the stack */
} pair_job;

/* the displacement of a side given none (run_slot_sweep) */
static const sepax_vec2 k_still[1] = {{0.0f, 0.0f}};

/* B's displacement relative to A for the pair at position pos (zero for a side with no
 * displacements). */
static ALWAYS_INLINE void relative_velocity(const pair_job *job, size_t pos, float *vx, float *vy) {
    sepax_vec2 va = job->va ? job->va[pos] : (sepax_vec2){0.0f, 0.0f};
    sepax_vec2 vb = job->vb ? job->vb[pos] : (sepax_vec2){0.0f, 0.0f};
    *vx = vb.x - va.x;
    *vy = vb.y - va.y;
}

/* Each lane's pair, B moving by (vx, vy) relative to A over t in [0, tmax]:
 * 1 in the lanes that touch, with the first time t and the normal (from A
 * to B) then. Every edge plane's separation is linear in t; the planes give
 * the interval of t in which all of them are within the radii (an entry
 * from the planes moving towards the other shape, an exit from those moving
 * away). At its start t_c the closest core vertices decide whether the
 * entry lies in a rounded corner (curved pairs only): then the contact is
 * when those two vertices come within the radii, a quadratic. The
 * reference (reference_sweep.c) does the same arithmetic. No branch on data. */
static ALWAYS_INLINE lf sweep_lanes(const lane_rows *a, int na, const lane_rows *b, int nb, lf vx,
                                    lf vy, lf tmax, lf *t_hit, lf *nx, lf *ny) {
    lf zero = lf_load(k_zero, k_zero), one = lf_load(k_one, k_one);
    lf ninf = lf_load(k_ninf, k_ninf), inf = lf_sub(zero, ninf);
    lf radii = lf_add(a->r, b->r);
    lf t_in = ninf, t_out = inf, in_nx = zero, in_ny = zero;
    lf s0 = ninf, n0x = zero, n0y = zero; /* the planes' SAT at t = 0 */
    for (int side = 0; side < 2; side++) {
        const lane_rows *p = side ? b : a, *v = side ? a : b; /* planes of p, vertices of v */
        int np = (side ? nb : na) == 1 ? 0 : side ? nb : na, nv = side ? na : nb;
        /* A moves by -v against B's planes: n.(-v) is -(n.v) exactly, the reference's
         * 0 - n.v but for the sign of a zero, which the + 0 below clears anyway */
        lf wx = side ? lf_sub(zero, vx) : vx, wy = side ? lf_sub(zero, vy) : vy;
        for (int i = 0; i < np; i++) {
            lf s = lf_sub(least_projection(p->nx[i], p->ny[i], v, nv), p->c[i]);
            /* + 0 turns a -0 rate into +0, so that the division below gives a still
             * plane's exit by IEEE rules: +Inf within the radii, -Inf beyond them
             * (before any t_c >= 0: they never meet), NaN exactly at them, which the
             * min ignores (it returns its second operand, on every backend) */
            lf rate = lf_add(lf_add(lf_mul(p->nx[i], wx), lf_mul(p->ny[i], wy)), zero);
            lf px = side ? lf_sub(zero, p->nx[i]) : p->nx[i];
            lf py = side ? lf_sub(zero, p->ny[i]) : p->ny[i];
            lf tc = lf_div(lf_sub(radii, s), rate);
            lf enter = lf_sel_lt(rate, zero, tc, ninf);
            in_nx = lf_sel_gt(enter, t_in, px, in_nx);
            in_ny = lf_sel_gt(enter, t_in, py, in_ny);
            t_in = lf_max(enter, t_in);
            t_out = lf_min(lf_sel_lt(rate, zero, inf, tc), t_out);
            n0x = lf_sel_gt(s, s0, px, n0x);
            n0y = lf_sel_gt(s, s0, py, n0y);
            s0 = lf_max(s, s0);
        }
    }
    lf t_c = lf_max(t_in, zero);
    lf ok = lf_sel_gt(t_in, t_out, zero, one);
    ok = lf_sel_gt(t_c, tmax, zero, ok);
    ok = lf_sel_gt(t_c, t_out, zero, ok);
    if (lf_eq_bits(radii, zero) == (1u << LANES) - 1u) {
        /* no radius in any lane (sharp pairs, rays at sharp polygons): no rounded corner, so
         * the closest vertices below would change nothing; the same bits, a third of the work */
        *t_hit = t_c;
        *nx = lf_sel_gt(t_in, zero, in_nx, n0x);
        *ny = lf_sel_gt(t_in, zero, in_ny, n0y);
        return ok;
    }
    /* B at t_c, and its closest vertex pair with A (the first closest, A's vertex outer) */
    lf bx[8], by[8];
    for (int j = 0; j < nb; j++) {
        bx[j] = lf_add(b->x[j], lf_mul(vx, t_c));
        by[j] = lf_add(b->y[j], lf_mul(vy, t_c));
    }
    lf bdx = zero, bdy = zero, bd2 = zero;
    for (int i = 0; i < na; i++) {
        for (int j = 0; j < nb; j++) {
            lf dx = lf_sub(bx[j], a->x[i]), dy = lf_sub(by[j], a->y[i]);
            closer(dx, dy, i == 0 && j == 0, 0, &bdx, &bdy, &bd2);
        }
    }
    lf ux, uy;
    unit_lanes(bdx, bdy, bd2, &ux, &uy);
    lf hi = lf_add(lf_mul(ux, a->x[0]), lf_mul(uy, a->y[0]));
    for (int i = 1; i < na; i++) hi = lf_max(lf_add(lf_mul(ux, a->x[i]), lf_mul(uy, a->y[i])), hi);
    lf lo = lf_add(lf_mul(ux, bx[0]), lf_mul(uy, by[0]));
    for (int j = 1; j < nb; j++) lo = lf_min(lf_add(lf_mul(ux, bx[j]), lf_mul(uy, by[j])), lo);
    lf su = lf_sub(lo, hi);
    /* in a rounded corner: the closest vertices are still beyond the radii */
    lf corner = lf_sel_gt(radii, zero, lf_sel_gt(su, radii, one, zero), zero);
    /* |d + v tau| = radii: tau = (-(d.v) - sqrt(|v|^2 radii^2 - (d x v)^2)) / |v|^2, with v and
     * with d and the radii each in units of a power of two of their own (reference_sweep.c) */
    corner_units cu = corner_units_of(
        lf_max(lf_max(vx, lf_sub(zero, vx)), lf_max(vy, lf_sub(zero, vy))),
        lf_max(lf_max(bdx, lf_sub(zero, bdx)), lf_max(bdy, lf_sub(zero, bdy))), radii);
    lf gvx = lf_mul(vx, cu.gv), gvy = lf_mul(vy, cu.gv);
    lf gdx = lf_mul(bdx, cu.gd), gdy = lf_mul(bdy, cu.gd), gr = lf_mul(radii, cu.gd);
    lf vv = lf_add(lf_mul(gvx, gvx), lf_mul(gvy, gvy));
    lf dv = lf_add(lf_mul(gdx, gvx), lf_mul(gdy, gvy));
    lf cr = lf_sub(lf_mul(gdx, gvy), lf_mul(gdy, gvx));
    lf disc = lf_sub(lf_mul(vv, lf_mul(gr, gr)), lf_mul(cr, cr));
    lf tau = lf_max(lf_div(lf_sub(lf_sub(zero, dv), lf_sqrt(disc)), vv), zero);
    lf reach =
        lf_sel_lt(disc, zero, zero, lf_sel_lt(dv, zero, lf_sel_gt(vv, zero, ok, zero), zero));
    lf t_corner = lf_add(t_c, lf_mul(lf_mul(tau, cu.back0), cu.back1)); /* tau in v's units */
    reach = lf_sel_gt(t_corner, tmax, zero, lf_sel_gt(t_corner, t_out, zero, reach));
    lf cx = lf_add(gdx, lf_mul(gvx, tau)), cy = lf_add(gdy, lf_mul(gvy, tau)), cux, cuy;
    unit_lanes(cx, cy, lf_add(lf_mul(cx, cx), lf_mul(cy, cy)), &cux, &cuy);
    /* not in a corner: the entry plane's normal, or at t = 0 the least penetration's */
    lf snx = lf_sel_gt(radii, zero, lf_sel_gt(su, s0, ux, n0x), n0x);
    lf sny = lf_sel_gt(radii, zero, lf_sel_gt(su, s0, uy, n0y), n0y);
    lf fnx = lf_sel_gt(t_in, zero, in_nx, snx), fny = lf_sel_gt(t_in, zero, in_ny, sny);
    *t_hit = lf_sel_gt(corner, zero, t_corner, t_c);
    *nx = lf_sel_gt(corner, zero, cux, fnx);
    *ny = lf_sel_gt(corner, zero, cuy, fny);
    return lf_sel_gt(corner, zero, reach, ok);
}

/* Lanes k0 <= k < k1 of LANES results as records of `fields` 4-byte fields, lane k's at
 * out's element pos[k]: field c is lane k of col[c], +0 for -0 past the first (the hit flag's
 * bits), and every field zero where ok is 0. The columns are selected and stored a step at a
 * time, then each lane's record copied whole: a select per field and step, not per lane. */
static ALWAYS_INLINE void store_lane_records(lf ok, const lf *col, int fields, const size_t *pos,
                                             int k0, int k1, void *out) {
    lf zero = lf_load(k_zero, k_zero);
    _Alignas(64) float f[RECORD_FIELDS][LANES];
    for (int c = 0; c < fields; c++)
        lf_store(lf_sel_gt(ok, zero, c ? lf_add(col[c], zero) : col[c], zero), f[c]);
    for (int k = k0; k < k1; k++) {
        float h[RECORD_FIELDS];
        for (int c = 0; c < fields; c++) h[c] = f[c][k];
        memcpy((char *)out + pos[k] * (size_t)fields * sizeof(float), h,
               (size_t)fields * sizeof(float));
    }
}

/* The sorted pairs list[k] at base + idx[k] for k < n (padded to whole
 * steps), one lane class (na, nb rows), swept. One function for every class, its loops rolled
 * and sized at run time (the same for a whole class, so well predicted):
 * unrolled per class like the overlap kernels, sweeps would triple the
 * kernel's build time, worst under the sanitizers. */
static NOINLINE void run_sweep(const sepax_shapes *st, const sepax_pair *list, size_t base,
                               const uint16_t *idx, size_t n, int na, int nb, const pair_job *job) {
    for (size_t i = 0; i < n; i += LANES) {
        size_t pos[LANES];
        uint32_t ia[LANES], ib[LANES];
        _Alignas(64) float fvx[LANES], fvy[LANES];
        for (int t = 0; t < LANES; t++) {
            pos[t] = base + idx[i + (size_t)t];
            ia[t] = list[i + (size_t)t].a & SEPAX_ID_INDEX_MASK;
            ib[t] = list[i + (size_t)t].b & SEPAX_ID_INDEX_MASK;
            relative_velocity(job, pos[t], &fvx[t], &fvy[t]);
        }
        lane_shapes sa, sb;
        lane_shapes_of(st, ia, &sa);
        lane_shapes_of(st, ib, &sb);
        lane_rows a, b;
        load_rows(&sa, na, &a);
        load_rows(&sb, nb, &b);
        lf t, nx, ny;
        lf ok = sweep_lanes(&a, na, &b, nb, lf_load(fvx, fvx + 8), lf_load(fvy, fvy + 8),
                            lf_load(k_one, k_one), &t, &nx, &ny);
        lf col[4] = {lf_load(k_hit_bits, k_hit_bits), t, nx, ny};
        store_lane_records(ok, col, 4, pos, 0, LANES, job->sweep);
    }
}

/* What a sweep step's lanes (slot_sweep_lanes) leave for its per-pair tail
 * (slot_sweep_emit): which lanes pass the exit test, which planes equal the key, and the
 * contact time in every lane of each slot. */
typedef struct sweep_tail {
    unsigned ok_bits, eq_a, eq_b;
    lf t;
} sweep_tail;

/* Swept SAT for SEPAX_P sharp pairs, a slot each (a lane per plane: A's in one register,
 * B's in another), B moving by (vx[p], vy[p]) relative to A over t in [0, 1]. The same
 * arithmetic as sweep_lanes for a pair with no radius, each plane in its own lane, then
 * reduced across the slot: the latest entry and its first plane (as sweep_lanes' strict >
 * keeps the first), and the planes' SAT at t = 0 with its first plane. Against the exits
 * only the answer's test is made, lane by lane: the contact time t (the latest entry when it
 * is above 0, else +0) counts when it is no later than 1 and than every exit, that is no
 * later than min(A's exit, B's exit, 1) in each lane. An entering plane's exit (+Inf in
 * sweep_lanes) is 1 here, and a still plane's exit, NaN exactly at contact (which
 * sweep_lanes' running min skips), gives way to min's second operand, so no lane holds a
 * NaN. The old test's third part, the entry no later than the earliest exit, followed from
 * these, since the entry is never above t. A zero's sign in the entry, an exit or the t = 0
 * separation reaches no result: they are only compared, and t comes out as max(entry, +0),
 * never -0. Padding planes repeat the last, as for collide. The lanes' part: slot_sweep_emit
 * writes the records from what it returns. */
static ALWAYS_INLINE sweep_tail slot_sweep_lanes(const rec_ptr *a, const rec_ptr *b, lf sa, lf sb,
                                                 const float *vx, const float *vy) {
    lf zero = lf_load(k_zero, k_zero), one = lf_load(k_one, k_one);
    lf ninf = lf_load(k_ninf, k_ninf);
    lf wx = lf_bcast(&vx[0], &SLOT1(vx)), wy = lf_bcast(&vy[0], &SLOT1(vy));
    lf anx = lf_load(a[0]->nx, SLOT1(a)->nx), any = lf_load(a[0]->ny, SLOT1(a)->ny);
    lf bnx = lf_load(b[0]->nx, SLOT1(b)->nx), bny = lf_load(b[0]->ny, SLOT1(b)->ny);
    /* rates as sweep_lanes makes them: n.v + 0 for A's planes, n.(0 - v) + 0 for B's. The
     * latter is 0 - n.v, bit for bit: negation is exact, and a zero comes out +0 either way */
    lf ra = lf_add(lf_add(lf_mul(anx, wx), lf_mul(any, wy)), zero);
    lf rb = lf_sub(zero, lf_add(lf_mul(bnx, wx), lf_mul(bny, wy)));
    lf ta = lf_div(lf_sub(zero, sa), ra), tb = lf_div(lf_sub(zero, sb), rb);
    lf ea = lf_sel_lt(ra, zero, ta, ninf), eb = lf_sel_lt(rb, zero, tb, ninf);
    lf last = lf_min(lf_sel_lt(ra, zero, one, ta), lf_min(lf_sel_lt(rb, zero, one, tb), one));
    lf t_in = lf_slot_max(lf_max(ea, eb)), s0 = lf_slot_max(lf_max(sa, sb));
    lf t = lf_max(t_in, zero);
    /* the planes that name the normal: those equal to the entry when entered (t_in > 0, the
     * same for a whole slot), else those equal to the t = 0 separation */
    lf ka = lf_sel_gt(t_in, zero, ea, sa), kb = lf_sel_gt(t_in, zero, eb, sb);
    lf key = lf_sel_gt(t_in, zero, t_in, s0);
    sweep_tail r = {lf_le_bits(t, last), lf_eq_bits(ka, key), lf_eq_bits(kb, key), t};
    return r;
}

/* The records of the live pairs of a step from its lanes' tail; returns how many miss. */
static ALWAYS_INLINE int slot_sweep_emit(const sweep_tail *s, const rec_ptr *a, const rec_ptr *b,
                                         const size_t *pos, int live, sepax_sweep_hit *out) {
#if SEPAX_P == 1 && (defined(SEPAX_ISA_AVX2) || defined(SEPAX_ISA_AVX512))
    /* A slot per step (AVX2, and AVX-512 at 256 bits): the record made in one 128-bit
     * register, {hit, t, nx, ny}, and stored whole. The scalar form below moved each normal
     * component between the integer and float registers three times (loaded and flipped as
     * bits, + 0 as a float, masked as bits) and built the record with inserts: with it, the
     * AVX-512 sweep of polygons took 15.6-15.9 ns a pair on a Zen 4, with this 15.3-15.5
     * (sepax-bench --only sweep --shuffle --pairs 1000000). */
    (void)live; /* 1: with one slot, every step the loops emit holds a pair (sweep_one_pass
                 * steps over pairs i < n, the sifted loop only while `kept` has a bit) */
    int32_t ok = (s->ok_bits & 0xffu) == 0xffu;
    unsigned bits = (s->eq_a & 0xffu) | (s->eq_b & 0xffu) << 8;
    unsigned axis = (unsigned)__builtin_ctz(bits | 0x20000u);
    /* the owner by a mask, not a branch, as below */
    uintptr_t side = 0 - (uintptr_t)(axis >= 8u);
    const sepax_poly_rec *owner =
        (const sepax_poly_rec *)(((uintptr_t)a[0] & ~side) | ((uintptr_t)b[0] & side));
    simde__m128 n = simde_mm_insert_ps(simde_mm_load_ss(&owner->nx[axis & 7u]),
                                       simde_mm_load_ss(&owner->ny[axis & 7u]), 0x10);
    /* B's normal reversed by its sign bit, then + 0, as below */
    int32_t flip = INT32_MIN & -(int32_t)(axis >= 8u);
    n = simde_mm_xor_ps(n, simde_mm_castsi128_ps(simde_mm_set1_epi32(flip)));
    n = simde_mm_add_ps(n, simde_mm_setzero_ps());
    /* the hit flag's bits and t (every lane of the slot holds it), then the normal: only
     * blended, shuffled and masked, so the flag's bits are never read as a float */
    simde__m128 ht =
        simde_mm_blend_ps(simde_mm256_castps256_ps128(s->t), simde_mm_load_ps(k_hit_bits), 1);
    simde__m128 r = simde_mm_shuffle_ps(ht, n, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    r = simde_mm_and_ps(r, simde_mm_castsi128_ps(simde_mm_set1_epi32(-ok)));
    simde_mm_storeu_ps((float *)(void *)&out[pos[0]], r);
    return 1 - ok;
#else
    float ft[LANES];
    lf_store(s->t, ft);
    int hits = 0;
    for (int p = 0; p < live; p++) {
        uint32_t ok = ((s->ok_bits >> (8 * p)) & 0xffu) == 0xffu;
        hits += (int)ok;
        /* A's planes in bits 0-7, B's in 8-15: the lowest equal plane is A's before B's;
         * bit 17 keeps the index defined for any bits */
        unsigned bits = ((s->eq_a >> (8 * p)) & 0xffu) | ((s->eq_b >> (8 * p)) & 0xffu) << 8;
        unsigned axis = (unsigned)__builtin_ctz(bits | 0x20000u);
        /* the owner by a mask, not a branch: which side names the normal is a coin toss a
         * pair, and gcc made `axis < 8u ? a[p] : b[p]` a jump (AVX-512 sweep of polygons
         * 16.4-16.7 -> 15.6-15.9 ns a pair without it, 1M pairs) */
        uintptr_t side = 0 - (uintptr_t)(axis >= 8u);
        const sepax_poly_rec *owner =
            (const sepax_poly_rec *)(((uintptr_t)a[p] & ~side) | ((uintptr_t)b[p] & side));
        /* B's normals reversed by their sign bit: sweep_lanes' 0 - n differs from -n only
         * in a zero's sign, which the + 0 below clears in both */
        uint32_t flip = (uint32_t)side & 0x80000000u, keep = 0u - ok;
        float nx = sepax_bits_float(sepax_float_bits(owner->nx[axis & 7u]) ^ flip);
        float ny = sepax_bits_float(sepax_float_bits(owner->ny[axis & 7u]) ^ flip);
        /* the record as four words, stored whole: no float lanes to assemble */
        uint32_t r[4] = {keep & 1u, sepax_float_bits(ft[8 * p]) & keep,
                         sepax_float_bits(nx + 0.0f) & keep, sepax_float_bits(ny + 0.0f) & keep};
        memcpy(&out[pos[p]], r, sizeof r);
    }
    return live - hits;
#endif
}

/* Whether each slot's pair, B moving by w0 (slot 0) or w1 (slot 1) relative to A, can touch in the
 * step as far as A's planes tell (bit 8 * p + k set for every lane k of slot p when it can): the
 * entry over A's planes no later than each plane's exit and 1. slot_sweep_lanes' test with B's
 * planes left out, on the same values: its entry is no earlier and each lane's exit no
 * later, so a pair this rules out, it rules out too. */
static ALWAYS_INLINE unsigned a_side_sweep(const rec_ptr *a, lf sa, const float *w0,
                                           const float *w1) {
    lf zero = lf_load(k_zero, k_zero), one = lf_load(k_one, k_one);
    lf ninf = lf_load(k_ninf, k_ninf);
    lf wx = lf_bcast(&w0[0], &w1[0]), wy = lf_bcast(&w0[1], &w1[1]);
    lf anx = lf_load(a[0]->nx, SLOT1(a)->nx), any = lf_load(a[0]->ny, SLOT1(a)->ny);
    lf ra = lf_add(lf_add(lf_mul(anx, wx), lf_mul(any, wy)), zero);
    lf ta = lf_div(lf_sub(zero, sa), ra);
    lf ea = lf_sel_lt(ra, zero, ta, ninf);
    lf last = lf_min(lf_sel_lt(ra, zero, one, ta), one);
    return lf_le_bits(lf_max(lf_slot_max(ea), zero), last);
}

/* A sweep step whose tail waits for the next step's lanes, as collide_pending. */
typedef struct sweep_pending {
    size_t pos[SEPAX_P];
    rec_ptr a[SEPAX_P], b[SEPAX_P];
    int live;
    sweep_tail tail;
} sweep_pending;

#if defined(SEPAX_ISA_AVX512)
/* A step of sweep_one_pass up to its projections (its displacements read at pos & ma,
 * pos & mb); sweep_lanes_of takes it on a step later. */
typedef struct sweep_projected {
    size_t pos[SEPAX_P];
    rec_ptr a[SEPAX_P], b[SEPAX_P];
    int live;
    lf sa, sb;
    float fvx[SEPAX_P], fvy[SEPAX_P];
} sweep_projected;

static ALWAYS_INLINE sweep_projected sweep_project_at(const sepax_poly_rec *rec,
                                                      const sepax_pair *list, size_t base,
                                                      const uint16_t *idx, size_t i, size_t n,
                                                      size_t ahead, int na, int nb,
                                                      const sepax_vec2 *va, size_t ma,
                                                      const sepax_vec2 *vb, size_t mb) {
    sweep_projected q;
    q.live = slot_pairs(rec, list, base, idx, i, n, ahead, q.pos, q.a, q.b);
    for (int p = 0; p < SEPAX_P; p++) {
        q.fvx[p] = vb[q.pos[p] & mb].x - va[q.pos[p] & ma].x;
        q.fvy[p] = vb[q.pos[p] & mb].y - va[q.pos[p] & ma].y;
    }
    pair_separations(q.a, q.b, na, nb, &q.sa, &q.sb);
    return q;
}

static ALWAYS_INLINE sweep_pending sweep_lanes_of(const sweep_projected *q) {
    sweep_pending s;
    memcpy(s.pos, q->pos, sizeof s.pos);
    memcpy(s.a, q->a, sizeof s.a);
    memcpy(s.b, q->b, sizeof s.b);
    s.live = q->live;
    s.tail = slot_sweep_lanes(q->a, q->b, q->sa, q->sb, q->fvx, q->fvy);
    return s;
}

#else
/* A step of sweep_one_pass (its displacements read at pos & ma, pos & mb). */
static ALWAYS_INLINE sweep_pending sweep_lanes_at(const sepax_poly_rec *rec, const sepax_pair *list,
                                                  size_t base, const uint16_t *idx, size_t i,
                                                  size_t n, size_t ahead, int na, int nb,
                                                  const sepax_vec2 *va, size_t ma,
                                                  const sepax_vec2 *vb, size_t mb) {
    sweep_pending s;
    float fvx[SEPAX_P], fvy[SEPAX_P];
    s.live = slot_pairs(rec, list, base, idx, i, n, ahead, s.pos, s.a, s.b);
    for (int p = 0; p < SEPAX_P; p++) {
        fvx[p] = vb[s.pos[p] & mb].x - va[s.pos[p] & ma].x;
        fvy[p] = vb[s.pos[p] & mb].y - va[s.pos[p] & ma].y;
    }
    lf sa, sb;
    pair_separations(s.a, s.b, na, nb, &sa, &sb);
    s.tail = slot_sweep_lanes(s.a, s.b, sa, sb, fvx, fvy);
    return s;
}
#endif

/* A second-pass step of run_slot_sweep: the kept pairs' A-side gaps and displacements
 * from the first pass. */
static ALWAYS_INLINE sweep_pending sweep_kept_step(const sepax_poly_rec *rec,
                                                   const sepax_pair *list, size_t base,
                                                   const uint16_t *idx, uint64_t *kept,
                                                   float (*gap)[8], float (*wv)[2], int na) {
    sweep_pending s;
    size_t k[SEPAX_P];
    float fvx[SEPAX_P], fvy[SEPAX_P];
    s.live = kept_pairs(rec, list, base, idx, kept, s.pos, s.a, s.b, k);
    for (int p = 0; p < SEPAX_P; p++) {
        fvx[p] = wv[k[p]][0];
        fvy[p] = wv[k[p]][1];
    }
    s.tail = slot_sweep_lanes(s.a, s.b, lf_load(gap[k[0]], gap[SLOT1(k)]), plane_gaps(s.b, s.a, na),
                              fvx, fvy);
    return s;
}

/* Sharp pairs list[k] (at base + idx[k], idx NULL: base + k) for k < n swept in one pass, a
 * slot each, as run_slot_sweep (va, vb: displacements read at pos & ma, pos & mb). Returns
 * how many miss. */
static ALWAYS_INLINE size_t sweep_one_pass(const sepax_poly_rec *rec, const sepax_pair *list,
                                           size_t base, const uint16_t *idx, size_t n, size_t ahead,
                                           int na, int nb, const sepax_vec2 *va, size_t ma,
                                           const sepax_vec2 *vb, size_t mb, sepax_sweep_hit *out) {
    if (n == 0) return 0;
    size_t missed = 0;
#if defined(SEPAX_ISA_AVX512)
    /* three steps in flight with 32 registers: step i's projections, step i - P's lanes and
     * step i - 2P's records, so that no stage waits on the one before it in the same
     * iteration (AVX-512 sweep of polygons, six alternations: 16.9-17.6 -> 16.1-16.7 ns a
     * pair, once 17.2; with 16 registers it was slower, AVX2 21.0-21.5 -> 21.3-22.1, and so
     * was the same for collide, whose lanes are short: AVX-512 10.9-11.1 -> 12.0-12.3) */
    sweep_projected q = sweep_project_at(rec, list, base, idx, 0, n, ahead, na, nb, va, ma, vb, mb);
    if (n <= SEPAX_P) {
        sweep_pending s = sweep_lanes_of(&q);
        return (size_t)slot_sweep_emit(&s.tail, s.a, s.b, s.pos, s.live, out);
    }
    sweep_projected q1 =
        sweep_project_at(rec, list, base, idx, SEPAX_P, n, ahead, na, nb, va, ma, vb, mb);
    sweep_pending s0 = sweep_lanes_of(&q);
    q = q1;
    for (size_t i = 2 * SEPAX_P; i < n; i += SEPAX_P) {
        q1 = sweep_project_at(rec, list, base, idx, i, n, ahead, na, nb, va, ma, vb, mb);
        sweep_pending s1 = sweep_lanes_of(&q);
        missed += (size_t)slot_sweep_emit(&s0.tail, s0.a, s0.b, s0.pos, s0.live, out);
        s0 = s1;
        q = q1;
    }
    sweep_pending s1 = sweep_lanes_of(&q);
    missed += (size_t)slot_sweep_emit(&s0.tail, s0.a, s0.b, s0.pos, s0.live, out);
    missed += (size_t)slot_sweep_emit(&s1.tail, s1.a, s1.b, s1.pos, s1.live, out);
#else
    sweep_pending s0 = sweep_lanes_at(rec, list, base, idx, 0, n, ahead, na, nb, va, ma, vb, mb);
    for (size_t i = SEPAX_P; i < n; i += SEPAX_P) {
        sweep_pending s1 =
            sweep_lanes_at(rec, list, base, idx, i, n, ahead, na, nb, va, ma, vb, mb);
        missed += (size_t)slot_sweep_emit(&s0.tail, s0.a, s0.b, s0.pos, s0.live, out);
        s0 = s1;
    }
    missed += (size_t)slot_sweep_emit(&s0.tail, s0.a, s0.b, s0.pos, s0.live, out);
#endif
    return missed;
}

/* Sharp pairs list[k] (at base + idx[k], idx NULL: base + k) for k < n, swept, a slot
 * each (na, nb: 4 or 8 rows), sifted as run_slots; a short tail repeats its last pair. */
static ALWAYS_INLINE void run_slot_sweep_at(const sepax_shapes *st, const sepax_pair *list,
                                            size_t base, const uint16_t *idx, size_t n,
                                            size_t ahead, int na, int nb, const pair_job *job) {
    const sepax_poly_rec *rec = st->rec;
    /* a side with no displacements reads k_still[0] for every pair (its index masked to 0):
     * the same +0 relative_velocity gives, with no branch a pair */
    const sepax_vec2 *va = job->va ? job->va : k_still, *vb = job->vb ? job->vb : k_still;
    size_t ma = job->va ? ~(size_t)0 : 0, mb = job->vb ? ~(size_t)0 : 0;
    if (SIFT_MIN_SWEEP > SIFT) { /* never sifts, as in run_slots */
        sweep_one_pass(rec, list, base, idx, n, ahead, na, nb, va, ma, vb, mb, job->sweep);
        return;
    }
    size_t ruled = SIFT; /* as run_slots */
    for (size_t i0 = 0; i0 < n; i0 += SIFT) {
        const sepax_pair *sl = list + i0;
        const uint16_t *si = idx ? idx + i0 : NULL;
        size_t sbase = idx ? base : base + i0; /* where sl[k] goes: sbase + (si ? si[k] : k) */
        size_t m = n - i0 < SIFT ? n - i0 : SIFT;
        size_t block_ahead = ahead ? n - i0 : 0; /* as run_slots */
        if (ruled < SIFT_MIN_SWEEP) {
            ruled = sweep_one_pass(rec, sl, sbase, si, m, block_ahead, na, nb, va, ma, vb, mb,
                                   job->sweep);
            continue;
        }
        _Alignas(64) float gap[SIFT + 1][8];
        float wv[SIFT + 1][2]; /* B's displacement relative to A */
        uint64_t kept = 0;
        for (size_t i = 0; i < m; i += SEPAX_P) {
            size_t pos[SEPAX_P];
            rec_ptr a[SEPAX_P], b[SEPAX_P];
            int live = slot_pairs(rec, sl, sbase, si, i, m, block_ahead, pos, a, b);
            for (int p = 0; p < SEPAX_P; p++) {
                wv[i + (size_t)p][0] = vb[pos[p] & mb].x - va[pos[p] & ma].x;
                wv[i + (size_t)p][1] = vb[pos[p] & mb].y - va[pos[p] & ma].y;
            }
            lf sa = plane_gaps(a, b, nb);
            lf_store2(sa, gap[i], gap[i + 1]);
            unsigned in = a_side_sweep(a, sa, wv[i], wv[i + SEPAX_P - 1]);
            for (int p = 0; p < live; p++) {
                kept |= (uint64_t)(((in >> (8 * p)) & 0xffu) == 0xffu) << (i + (size_t)p);
                /* a miss; a kept pair's record overwrites it */
                memset(&job->sweep[pos[p]], 0, sizeof job->sweep[pos[p]]);
            }
        }
        ruled = m - (size_t)__builtin_popcountll(kept);
        if (!kept) continue;
        sweep_pending s0 = sweep_kept_step(rec, sl, sbase, si, &kept, gap, wv, na);
        while (kept) {
            sweep_pending s1 = sweep_kept_step(rec, sl, sbase, si, &kept, gap, wv, na);
            slot_sweep_emit(&s0.tail, s0.a, s0.b, s0.pos, s0.live, job->sweep);
            s0 = s1;
        }
        slot_sweep_emit(&s0.tail, s0.a, s0.b, s0.pos, s0.live, job->sweep);
    }
}

/* run_slot_sweep_at, a far store's copy apart, as run_slots */
static ALWAYS_INLINE void run_slot_sweep(const sepax_shapes *st, const sepax_pair *list,
                                         size_t base, const uint16_t *idx, size_t n, int na, int nb,
                                         const pair_job *job) {
    size_t ahead = ahead_of(st, n, FAR_SWEEP);
    if (ahead)
        run_slot_sweep_at(st, list, base, idx, n, ahead, na, nb, job);
    else
        run_slot_sweep_at(st, list, base, idx, n, 0, na, nb, job);
}

/* ---- raycasts: a ray is a point (no planes, no radius) sweeping against a shape ---- */

/* The rays' origins as the moving shape B of sweep_lanes, and the results of
 * LANES rays (hit in `ok`, fraction t, normal) written to out[pos[k]] for
 * the lanes k0 <= k < k1: zeros on a miss, and the hit point from the fraction. */
static ALWAYS_INLINE void ray_point_rows(lf ox, lf oy, lane_rows *b) {
    b->x[0] = ox;
    b->y[0] = oy;
    b->r = lf_load(k_zero, k_zero);
}

static ALWAYS_INLINE void store_rays(lf ok, lf t, lf nx, lf ny, lf ox, lf oy, lf dx, lf dy,
                                     const size_t *pos, int k0, int k1, sepax_ray_hit *out) {
    t = lf_add(t, lf_load(k_zero, k_zero)); /* -0 is +0, before the point is made from it */
    lf col[6] = {lf_load(k_hit_bits, k_hit_bits), t,  lf_add(ox, lf_mul(t, dx)),
                 lf_add(oy, lf_mul(t, dy)),       nx, ny};
    store_lane_records(ok, col, 6, pos, k0, k1, out);
}

/* Rays rays[base + idx[k]] against shapes ids[same], k < n (padded to whole
 * steps), the shapes of one row count na. Rolled, like run_sweep. */
static NOINLINE void run_rays(const sepax_shapes *st, const sepax_ray *rays, const uint32_t *ids,
                              size_t base, const uint16_t *idx, size_t n, int na,
                              sepax_ray_hit *out) {
    for (size_t i = 0; i < n; i += LANES) {
        size_t pos[LANES];
        uint32_t is[LANES];
        _Alignas(64) float f[5][LANES]; /* origin x, y, direction x, y, max fraction */
        for (int t = 0; t < LANES; t++) {
            pos[t] = base + idx[i + (size_t)t];
            is[t] = ids[pos[t]] & SEPAX_ID_INDEX_MASK;
            const sepax_ray *r = &rays[pos[t]];
            f[0][t] = r->origin.x;
            f[1][t] = r->origin.y;
            f[2][t] = r->direction.x;
            f[3][t] = r->direction.y;
            f[4][t] = r->max_fraction;
        }
        lane_shapes sa;
        lane_shapes_of(st, is, &sa);
        lane_rows a, b;
        load_rows(&sa, na, &a);
        lf ox = lf_load(f[0], f[0] + 8), oy = lf_load(f[1], f[1] + 8);
        lf dx = lf_load(f[2], f[2] + 8), dy = lf_load(f[3], f[3] + 8);
        ray_point_rows(ox, oy, &b);
        lf t, nx, ny;
        lf ok = sweep_lanes(&a, na, &b, 1, dx, dy, lf_load(f[4], f[4] + 8), &t, &nx, &ny);
        store_rays(ok, t, nx, ny, ox, oy, dx, dy, pos, 0, LANES, out);
    }
}

/* Rays rays[base + idx[k]] against sharp polygons ids[same], k < n, a slot each (a lane per
 * plane): sweep_lanes' arithmetic for a point B with no planes and no radius. The entry and
 * the least penetration are reduced across the slot, with the first plane equal to each; the
 * exits are not: the contact time t (the entry when above 0, else +0) counts when it is no
 * later than min(the lane's exit, max_fraction) in every lane, as in slot_sweep_lanes. A
 * zero's sign reaches no result, as there. */
static ALWAYS_INLINE void run_ray_slots_at(const sepax_shapes *st, const sepax_ray *rays,
                                           const uint32_t *ids, size_t base, const uint16_t *idx,
                                           size_t n, int far, sepax_ray_hit *out) {
    const sepax_poly_rec *rec = st->rec;
    lf zero = lf_load(k_zero, k_zero), ninf = lf_load(k_ninf, k_ninf);
    for (size_t i = 0; i < n; i += SEPAX_P) {
        int live = n - i < SEPAX_P ? (int)(n - i) : SEPAX_P;
        if (far) /* the records of the rays AHEAD places on (the last ray's again past the end) */
            for (int p = 0; p < SEPAX_P; p++) {
                size_t k = i + AHEAD + (size_t)p;
                k = k < n ? k : n - 1;
                prefetch_record(rec + (ids[base + idx[k]] & SEPAX_ID_INDEX_MASK));
            }
        size_t pos[SEPAX_P];
        rec_ptr a[SEPAX_P];
        const sepax_ray *r[SEPAX_P];
        for (int p = 0; p < SEPAX_P; p++) {
            pos[p] = base + idx[i + (size_t)(p < live ? p : live - 1)];
            a[p] = rec + (ids[pos[p]] & SEPAX_ID_INDEX_MASK);
            r[p] = &rays[pos[p]];
        }
        lf ox = lf_bcast(&r[0]->origin.x, &SLOT1(r)->origin.x);
        lf oy = lf_bcast(&r[0]->origin.y, &SLOT1(r)->origin.y);
        lf dx = lf_bcast(&r[0]->direction.x, &SLOT1(r)->direction.x);
        lf dy = lf_bcast(&r[0]->direction.y, &SLOT1(r)->direction.y);
        lf nx = lf_load(a[0]->nx, SLOT1(a)->nx), ny = lf_load(a[0]->ny, SLOT1(a)->ny);
        lf s = lf_sub(lf_add(lf_mul(nx, ox), lf_mul(ny, oy)), lf_load(a[0]->c, SLOT1(a)->c));
        lf rate = lf_add(lf_add(lf_mul(nx, dx), lf_mul(ny, dy)), zero);
        lf tc = lf_div(lf_sub(zero, s), rate);
        lf enter = lf_sel_lt(rate, zero, tc, ninf);
        lf t_in = lf_slot_max(enter), s0 = lf_slot_max(s);
        lf t = lf_max(t_in, zero);
        /* each lane's exit, no later than the ray's end: t counts when it is no later than
         * every lane's (an entering plane's is the end; a still plane's NaN, exactly at
         * contact, gives way to min's second operand) */
        lf tmax = lf_bcast(&r[0]->max_fraction, &SLOT1(r)->max_fraction);
        lf last = lf_min(lf_sel_lt(rate, zero, tmax, tc), tmax);
        /* the planes that name the normal: those equal to the entry when entered, else
         * those equal to the least penetration */
        lf k = lf_sel_gt(t_in, zero, enter, s), key = lf_sel_gt(t_in, zero, t_in, s0);
        unsigned ok_bits = lf_le_bits(t, last), eq = lf_eq_bits(k, key);
        float ft[LANES];
        lf_store(t, ft);
        for (int p = 0; p < live; p++) {
            uint32_t keep = 0u - (uint32_t)(((ok_bits >> (8 * p)) & 0xffu) == 0xffu);
            unsigned plane = (unsigned)__builtin_ctz(((eq >> (8 * p)) & 0xffu) | 0x100u) & 7u;
            float tp = ft[8 * p];
            float f[6] = {sepax_bits_float(keep & 1u),
                          tp + 0.0f,
                          (r[p]->origin.x + tp * r[p]->direction.x) + 0.0f,
                          (r[p]->origin.y + tp * r[p]->direction.y) + 0.0f,
                          a[p]->nx[plane] + 0.0f,
                          a[p]->ny[plane] + 0.0f};
            for (int c = 1; c < 6; c++) f[c] = sepax_bits_float(sepax_float_bits(f[c]) & keep);
            memcpy(&out[pos[p]], f, sizeof f);
        }
    }
}

/* run_ray_slots_at, a far store's copy apart (as run_slots) */
static NOINLINE void run_ray_slots(const sepax_shapes *st, const sepax_ray *rays,
                                   const uint32_t *ids, size_t base, const uint16_t *idx, size_t n,
                                   sepax_ray_hit *out) {
    if (is_far(st, FAR_RAYS))
        run_ray_slots_at(st, rays, ids, base, idx, n, 1, out);
    else
        run_ray_slots_at(st, rays, ids, base, idx, n, 0, out);
}

/* ---- one function per pair class and query ----
 * Each class's loop is its own function, called once per class and chunk:
 * the call costs nothing next to a chunk's work, and compilers (register
 * allocation, debug-info tracking) take time that grows faster than a
 * function's size, so 36 small functions build in a fraction of the time
 * one function holding them all would. */

/* list[k] for k < n: the pair at position base + idx[k] (idx NULL: base + k) */
typedef void (*class_run)(const sepax_shapes *st, const sepax_pair *list, size_t base,
                          const uint16_t *idx, size_t n, const pair_job *job);

#define CLASS_RUN(name, call)                                                                      \
    static NOINLINE void name(const sepax_shapes *st, const sepax_pair *list, size_t base,         \
                              const uint16_t *idx, size_t n, const pair_job *job) {                \
        call;                                                                                      \
    }
#define LANE_RUNS(ra, rb)                                                                          \
    CLASS_RUN(lanes_##ra##rb##_overlap,                                                            \
              run_lanes(st, list, base, idx, n, sepax_lane_class(ra, rb), 0, job->margin,          \
                        job->hit, job->out, job->axis))                                            \
    CLASS_RUN(lanes_##ra##rb##_collide,                                                            \
              run_lanes(st, list, base, idx, n, sepax_lane_class(ra, rb), 1, job->margin,          \
                        job->hit, job->out, job->axis))                                            \
    CLASS_RUN(lanes_##ra##rb##_sweep, run_sweep(st, list, base, idx, n, 1 << ra, 1 << rb, job))
#define LANE_RUNS_A(ra) LANE_RUNS(ra, 0) LANE_RUNS(ra, 1) LANE_RUNS(ra, 2) LANE_RUNS(ra, 3)

/* The 8 x 8 class also runs a store of sharp polygons only, its whole list with no index
 * (run_pairs): that call gets its own copy, without the index's load and branch a pair.
 * ra * rb == 64 is a constant, so the other classes build one copy. */
#define SLOT_RUN(ra, rb, fn, ...)                                                                  \
    ((ra) * (rb) == 64 && !idx ? fn(st, list, base, NULL, n, ra, rb, __VA_ARGS__)                  \
                               : fn(st, list, base, idx, n, ra, rb, __VA_ARGS__))
#define SLOT_RUNS(ra, rb)                                                                          \
    CLASS_RUN(slots_##ra##rb##_overlap,                                                            \
              SLOT_RUN(ra, rb, run_slots, 0, job->margin, job->hit, job->out, job->axis))          \
    CLASS_RUN(slots_##ra##rb##_collide,                                                            \
              SLOT_RUN(ra, rb, run_slots, 1, job->margin, job->hit, job->out, job->axis))          \
    CLASS_RUN(slots_##ra##rb##_sweep, SLOT_RUN(ra, rb, run_slot_sweep, job))
SLOT_RUNS(4, 4)
SLOT_RUNS(4, 8)
SLOT_RUNS(8, 4)
SLOT_RUNS(8, 8)
LANE_RUNS_A(0)
LANE_RUNS_A(1)
LANE_RUNS_A(2)
LANE_RUNS_A(3)

#define LANE_ROW(ra, q) lanes_##ra##0_##q, lanes_##ra##1_##q, lanes_##ra##2_##q, lanes_##ra##3_##q
/* in class order (kernel.h): the slot classes, then the lane classes, each A's
 * rows outer, B's inner. */
enum { QUERY_OVERLAP, QUERY_COLLIDE, QUERY_SWEEP };
static const class_run k_class_run[3][SEPAX_PAIR_CLASSES] = {
    {slots_44_overlap, slots_48_overlap, slots_84_overlap, slots_88_overlap, LANE_ROW(0, overlap),
     LANE_ROW(1, overlap), LANE_ROW(2, overlap), LANE_ROW(3, overlap)},
    {slots_44_collide, slots_48_collide, slots_84_collide, slots_88_collide, LANE_ROW(0, collide),
     LANE_ROW(1, collide), LANE_ROW(2, collide), LANE_ROW(3, collide)},
    {slots_44_sweep, slots_48_sweep, slots_84_sweep, slots_88_sweep, LANE_ROW(0, sweep),
     LANE_ROW(1, sweep), LANE_ROW(2, sweep), LANE_ROW(3, sweep)},
};
#undef LANE_ROW
#undef LANE_RUNS_A
#undef LANE_RUNS
#undef SLOT_RUNS
#undef SLOT_RUN
#undef CLASS_RUN

static NOINLINE void circles_overlap(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                                     float margin, uint8_t *hit) {
    run_circles(st, pairs, n, 0, margin, hit, NULL, NULL);
}

static NOINLINE void circles_collide(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                                     float margin, sepax_hit *out, uint8_t *axis) {
    run_circles(st, pairs, n, 1, margin, NULL, out, axis);
}

/* ---- walking a pair list ---- */

/* Pairs sorted at a time (and kernel_raycast's rays: RAY_CHUNK). Each lane
 * class pads its last step with repeats, on average half a step of spare
 * lanes for each of 16 (the slot classes run their tails themselves), and
 * each class's loop starts once a chunk, so a long chunk wastes few lanes
 * and starts: 4096 pairs took 0.5 ns a pair less than 2048 on a mixed list
 * (docs/performance.md, "Longer chunks"), 0.7 with the sorted copies below ("Sorted
 * copies of the pairs"); 8192 measured the same as 4096. A chunk's buffers
 * take 11 bytes a pair of stack (sort_long: 46 KiB with 8 lanes, 48 with
 * 16), so lists no longer than SHORT_CHUNK, which are one chunk either way
 * (the frame's batches, a manifold call's pieces), sort with buffers of
 * that size (sort_short: 13 and 15 KiB), and lists of TINY_CHUNK or fewer (a broadphase
 * query's pieces of 64) with smaller ones still, so that those queries fit
 * SEPAX_SCRATCH_STACK_BYTES with no scratch of their own. */
#define CHUNK 4096
#define SHORT_CHUNK 1024
#define TINY_CHUNK 64
#define CHUNK_PAD (SEPAX_PAIR_CLASSES * LANES)
_Static_assert(CHUNK % LANES == 0 && SHORT_CHUNK % LANES == 0 && TINY_CHUNK % LANES == 0 &&
                   TINY_CHUNK <= SHORT_CHUNK && SHORT_CHUNK <= CHUNK && CHUNK + CHUNK_PAD <= 65536,
               "whole steps, and a chunk's positions fit its uint16_t indices");
/* a row of run_pairs' class tables: a power of two, at least SEPAX_CODES */
#define CODE_STRIDE 8u
_Static_assert((unsigned)SEPAX_CODES <= CODE_STRIDE, "a shape code fits a table row");
/* Four counter sets, one per t % 4 (sort_chunks), and a table for each: entry
 * code_a * CODE_STRIDE + code_b of table k is the pair's class plus k *
 * SEPAX_PAIR_CLASSES, its counter's place in the flat sets. A power-of-two
 * row is one shift and add away, and the set's offset costs nothing. */
enum { SETS = 4, SLOTS = SETS * SEPAX_PAIR_CLASSES };
typedef struct class_table {
    uint8_t t[SETS][SEPAX_CODES * CODE_STRIDE];
} class_table;

/* Sort each chunk of `chunk` pairs by class (a counting sort, each class's
 * run padded to whole steps), then run each class. The class comes from
 * a table, not from comparisons: in a mixed list those would mispredict
 * every few pairs. of, idx and list hold chunk (+ CHUNK_PAD) entries. */
static ALWAYS_INLINE void sort_chunks(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                                      const class_run *run, const class_table *tab,
                                      const pair_job *job, size_t chunk, uint8_t *of, uint16_t *idx,
                                      sepax_pair *list) {
    const uint8_t(*table)[SEPAX_CODES * CODE_STRIDE] = tab->t;
    const uint8_t *code = st->code;
    for (size_t base = 0; base < n; base += chunk) {
        size_t len = n - base < chunk ? n - base : chunk;
        /* Four sets of counters, one per t % 4: a single counter per class
         * would chain every pair to the last pair of its class through a
         * store and a load, one at a time. The order within a class does
         * not matter: each result goes back to its pair's position. of[t]
         * is the pair's counter: class + set * SEPAX_PAIR_CLASSES. */
        uint16_t cnt[SLOTS] = {0}, at[SLOTS];
        size_t t = 0;
#define CLASS_OF(k)                                                                                \
    do {                                                                                           \
        const sepax_pair *pr = &pairs[base + t + (k)];                                             \
        size_t slot = table[k][(size_t)code[pr->a & SEPAX_ID_INDEX_MASK] * CODE_STRIDE +           \
                               code[pr->b & SEPAX_ID_INDEX_MASK]];                                 \
        of[t + (k)] = (uint8_t)slot;                                                               \
        cnt[slot]++;                                                                               \
    } while (0)
        for (; len - t >= SETS; t += SETS) {
            CLASS_OF(0);
            CLASS_OF(1);
            CLASS_OF(2);
            CLASS_OF(3);
        }
        for (; t < len; t++) CLASS_OF(0);
#undef CLASS_OF
        size_t start[SEPAX_PAIR_CLASSES], total[SEPAX_PAIR_CLASSES], next = 0;
        for (unsigned c = 0; c < SEPAX_PAIR_CLASSES; c++) {
            start[c] = next;
            for (unsigned k = 0; k < SETS; k++) {
                at[c + k * SEPAX_PAIR_CLASSES] = (uint16_t)next;
                next += cnt[c + k * SEPAX_PAIR_CLASSES];
            }
            total[c] = next - start[c];
            next = start[c] + (total[c] + LANES - 1) / LANES * LANES;
        }
        /* each pair copied to its class's run with its place: the class kernels then read
         * both in order, where reading pairs[base + idx[k]], scattered over the chunk, took
         * 0.4-0.5 ns a pair more on a mixed list (docs/performance.md, "Sorted copies of the
         * pairs") */
#define PLACE(k)                                                                                   \
    do {                                                                                           \
        size_t w = at[of[t + (k)]]++;                                                              \
        idx[w] = (uint16_t)(t + (k));                                                              \
        list[w] = pairs[base + t + (k)];                                                           \
    } while (0)
        for (t = 0; len - t >= SETS; t += SETS) {
            PLACE(0);
            PLACE(1);
            PLACE(2);
            PLACE(3);
        }
        for (; t < len; t++) PLACE(0);
#undef PLACE
        for (unsigned c = 0; c < SEPAX_PAIR_CLASSES; c++) /* whole steps for run_lanes */
            for (size_t e = start[c] + total[c]; total[c] && (e - start[c]) % LANES; e++) {
                idx[e] = idx[start[c] + total[c] - 1];
                list[e] = list[start[c] + total[c] - 1];
            }
        for (unsigned c = 0; c < SEPAX_PAIR_CLASSES; c++)
            if (total[c]) run[c](st, list + start[c], base, idx + start[c], total[c], job);
    }
}

/* a sort with buffers for chunks of `size` pairs */
#define SORT_WITH(name, size)                                                                      \
    static NOINLINE void name(const sepax_shapes *st, const sepax_pair *pairs, size_t n,           \
                              const class_run *run, const class_table *tab, const pair_job *job) { \
        uint8_t of[size];                                                                          \
        uint16_t idx[(size) + CHUNK_PAD];                                                          \
        sepax_pair list[(size) + CHUNK_PAD];                                                       \
        sort_chunks(st, pairs, n, run, tab, job, size, of, idx, list);                             \
    }
SORT_WITH(sort_long, CHUNK)
SORT_WITH(sort_short, SHORT_CHUNK)
SORT_WITH(sort_tiny, TINY_CHUNK)
#undef SORT_WITH

/* The same buffers in the call's work memory (pair_job.work): chunks of CHUNK pairs
 * whatever the list's length, and nothing of the sort's on the stack. */
typedef struct sort_work {
    sepax_pair list[CHUNK + CHUNK_PAD];
    uint16_t idx[CHUNK + CHUNK_PAD];
    uint8_t of[CHUNK];
} sort_work;
_Static_assert(sizeof(sort_work) <= SEPAX_WORK_BYTES, "a sort's buffers fit the work memory");

static NOINLINE void sort_given(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                                const class_run *run, const class_table *tab, const pair_job *job) {
    sort_work *w = job->work;
    sort_chunks(st, pairs, n, run, tab, job, CHUNK, w->of, w->idx, w->list);
}

/* Lists of at most FEW_PAIRS pairs (a caller asking an entity at a time, a broadphase query's
 * last piece): each pair run alone, in one step of repeats of it, its class from its codes,
 * with no class table and no counting sort, which cost a call about 1,900 instructions of the
 * AVX2 copy whatever its length (bench/calls.c; docs/performance.md, "What a call costs").
 * Each pair's answer is the one the sorted path computes: the same class kernel on the same
 * pair, which a step's repeats do not change. */
#define FEW_PAIRS 4

static NOINLINE void run_each(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                              const class_run *run, int mpos, const pair_job *job) {
    sepax_pair list[LANES];
    uint16_t idx[LANES];
    const uint8_t *code = st->code;
    for (size_t i = 0; i < n; i++) {
        unsigned c = sepax_pair_class(code[pairs[i].a & SEPAX_ID_INDEX_MASK],
                                      code[pairs[i].b & SEPAX_ID_INDEX_MASK], mpos);
        for (unsigned l = 0; l < LANES; l++) {
            list[l] = pairs[i];
            idx[l] = (uint16_t)i;
        }
        run[c](st, list, 0, idx, 1, job);
    }
}

static void run_pairs(const sepax_shapes *st, const sepax_pair *pairs, size_t n, int query,
                      const pair_job *job) {
    /* a positive margin sends sharp pairs to the lanes too (sweeps have none) */
    int mpos = job->margin > 0.0f;
    const class_run *run = k_class_run[query];
    if (st->n_class[SEPAX_CLASS_CIRCLE] == st->count && query != QUERY_SWEEP) { /* circles only */
        if (query == QUERY_COLLIDE)
            circles_collide(st, pairs, n, job->margin, job->out, job->axis);
        else
            circles_overlap(st, pairs, n, job->margin, job->hit);
        return;
    }
    if (st->n_class[SEPAX_CLASS_SHARP] == st->count && !mpos) {  /* of sharp polygons only */
        run[sepax_slot_class(3, 3)](st, pairs, 0, NULL, n, job); /* 8 rows: any polygon */
        return;
    }
    if (n <= FEW_PAIRS) {
        run_each(st, pairs, n, run, mpos, job);
        return;
    }
    class_table table;
    for (unsigned x = 0; x < SEPAX_CODES * CODE_STRIDE; x++) {
        unsigned ca = x / CODE_STRIDE, cb = x % CODE_STRIDE;
        table.t[0][x] = (uint8_t)(cb < SEPAX_CODES ? sepax_pair_class(ca, cb, mpos) : 0);
    }
    /* the other sets by adding: the frame and the queries sort short lists too, and
     * the classes cost more to work out than the sort of a few pairs */
    for (unsigned k = 1; k < SETS; k++)
        for (unsigned x = 0; x < SEPAX_CODES * CODE_STRIDE; x++)
            table.t[k][x] = (uint8_t)(table.t[0][x] + k * SEPAX_PAIR_CLASSES);
    if (job->work)
        sort_given(st, pairs, n, run, &table, job);
    else if (n <= TINY_CHUNK)
        sort_tiny(st, pairs, n, run, &table, job);
    else if (n <= SHORT_CHUNK)
        sort_short(st, pairs, n, run, &table, job);
    else
        sort_long(st, pairs, n, run, &table, job);
}

void kernel_overlap(const sepax_shapes *st, const sepax_pair *pairs, size_t n, float margin,
                    uint8_t *hit, void *work) {
    pair_job job = {margin, hit, NULL, NULL, NULL, NULL, NULL, work};
    run_pairs(st, pairs, n, QUERY_OVERLAP, &job);
}

static void kernel_collide(const sepax_shapes *st, const sepax_pair *pairs, size_t n, float margin,
                           sepax_hit *out, uint8_t *axis, void *work) {
    pair_job job = {margin, NULL, out, axis, NULL, NULL, NULL, work};
    run_pairs(st, pairs, n, QUERY_COLLIDE, &job);
}

void kernel_sweep(const sepax_shapes *st, const sepax_pair *pairs, size_t n, const sepax_vec2 *va,
                  const sepax_vec2 *vb, sepax_sweep_hit *out, void *work) {
#ifdef SEPAX_KERNEL_WIDE
    /* sharp pairs' slot sweeps are the faster at 256 bits, curved pairs' lane sweeps at
     * 512: a store with any curved shape sweeps in the 512-bit copy */
    if (st->n_class[SEPAX_CLASS_SHARP] != st->count) {
        WIDE_OR_OWN(_sweep)(st, pairs, n, va, vb, out, work);
        return;
    }
#endif
    pair_job job = {0.0f, NULL, NULL, NULL, va, vb, out, work};
    run_pairs(st, pairs, n, QUERY_SWEEP, &job);
}

/* ---- one shape against a range: a lane per target ---- */

#ifndef SEPAX_KERNEL_WIDE /* the 256-bit copy takes the 512-bit one's sepax_overlap_one */
/* Per target lane of blocks b0 (slot 0) and b1 (slot 1), the separation from
 * the probe, radii not yet subtracted. The probe's loops run over its real
 * counts and the targets' over the most any lane of the blocks has: both are
 * the same for many lanes in a row, so those branches are predicted. */
static inline lf block_separation(const sepax_shapes *st, uint32_t probe, uint32_t b0i,
                                  uint32_t b1i, int margin_positive) {
    const sepax_poly_rec *pr = &st->rec[probe];
    const sepax_poly_block *b0 = &st->block[b0i], *b1 = &st->block[b1i];
    int pn = st->nverts[probe], pp = st->nplanes[probe];
    sepax_block_info i0 = st->info[b0i], i1 = st->info[b1i];
    /* each within sepax_step_rows, the rows the update wrote (store.h) */
    int tv = i0.maxv > i1.maxv ? i0.maxv : i1.maxv, tp = i0.maxp > i1.maxp ? i0.maxp : i1.maxp;
    lf best = lf_load(k_ninf, k_ninf);
    for (int i = 0; i < pp; i++) { /* the probe's planes against the targets' vertices */
        lf pnx = lf_bcast(&pr->nx[i], &pr->nx[i]), pny = lf_bcast(&pr->ny[i], &pr->ny[i]);
        lf m = lf_add(lf_mul(pnx, lf_load(b0->x[0], b1->x[0])),
                      lf_mul(pny, lf_load(b0->y[0], b1->y[0])));
        for (int k = 1; k < tv; k++) {
            lf d = lf_add(lf_mul(pnx, lf_load(b0->x[k], b1->x[k])),
                          lf_mul(pny, lf_load(b0->y[k], b1->y[k])));
            m = lf_min(d, m);
        }
        best = lf_max(lf_sub(m, lf_bcast(&pr->c[i], &pr->c[i])), best);
    }
    for (int k = 0; k < tp; k++) { /* the targets' planes against the probe */
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
    int probe_curved = st->cls[probe] != SEPAX_CLASS_SHARP || margin_positive;
    if (!probe_curved && !i0.curved && !i1.curved) return best;
    /* the closest-vertices axis, per lane: probe vertex i, target vertex k */
    lf bdx = best, bdy = best, bd2 = best; /* set at i == 0, k == 0 */
    for (int i = 0; i < pn; i++) {
        lf px = lf_bcast(&pr->x[i], &pr->x[i]), py = lf_bcast(&pr->y[i], &pr->y[i]);
        for (int k = 0; k < tv; k++) {
            lf dx = lf_sub(lf_load(b0->x[k], b1->x[k]), px);
            lf dy = lf_sub(lf_load(b0->y[k], b1->y[k]), py);
            closer(dx, dy, i == 0 && k == 0, 1, &bdx, &bdy, &bd2);
        }
    }
    lf ux, uy;
    unit_lanes(bdx, bdy, bd2, &ux, &uy);
    lf pa = best, pb = best; /* set at j == 0, k == 0 */
    for (int j = 0; j < pn; j++) {
        lf v = lf_add(lf_mul(ux, lf_bcast(&pr->x[j], &pr->x[j])),
                      lf_mul(uy, lf_bcast(&pr->y[j], &pr->y[j])));
        pa = j ? lf_max(v, pa) : v;
    }
    for (int k = 0; k < tv; k++) {
        lf v = lf_add(lf_mul(ux, lf_load(b0->x[k], b1->x[k])),
                      lf_mul(uy, lf_load(b0->y[k], b1->y[k])));
        pb = k ? lf_min(v, pb) : v;
    }
    lf sv = lf_sub(pb, pa);
    if (!probe_curved) /* sharp targets of a sharp probe take no vertex axis */
        sv = lf_add(sv, lf_load(st->local[b0i].vbias, st->local[b1i].vbias));
    return lf_max(sv, best);
}

void kernel_overlap_one(const sepax_shapes *st, uint32_t probe, uint32_t first, size_t count,
                        float margin, uint8_t *hit) {
    size_t end = first + count;
    size_t b = first / SEPAX_BLOCK_LANES, b_end = (end + SEPAX_BLOCK_LANES - 1) / SEPAX_BLOCK_LANES;
    int mpos = margin > 0.0f;
    lf pr = lf_bcast(&st->disc[probe].r, &st->disc[probe].r);
    for (; b < b_end; b += SEPAX_P) {
        uint32_t b1 = (uint32_t)(b + 1 < b_end ? b + SEPAX_P - 1 : b);
        lf sep = block_separation(st, probe, (uint32_t)b, b1, mpos);
        lf rs = lf_add(pr, lf_load(st->local[b].r, st->local[b1].r));
        float m[LANES];
        lf_store(lf_sub(sep, rs), m);
        /* write the lanes inside [first, end): all of them but at the ends */
        size_t lo = b * SEPAX_BLOCK_LANES, hi = lo + LANES;
        size_t from = lo > first ? lo : first, to = hi < end ? hi : end;
        for (size_t id = from; id < to; id++) hit[id - first] = (uint8_t)(m[id - lo] <= margin);
    }
}
#endif

/* Rays sorted at a time: 12 KiB of buffers. Each is read back in place (run_rays), not
 * copied as the pairs are (sort_chunks): a ray is 20 bytes. */
#define RAY_CHUNK 4096
/* by the shape's rows (1, 2, 4 or 8), sharp polygons apart (a slot each) */
enum { RAY_CLASSES = 5, RAY_SHARP = 4 };
_Static_assert(RAY_CHUNK + RAY_CLASSES * LANES <= 65536,
               "a chunk's positions fit uint16_t indices");

/* Rays sorted a chunk at a time into classes: rays at sharp polygons (a slot each,
 * run_ray_slots), and the rest by their shape's rows (1, 2, 4 or 8), each of those
 * classes' runs padded to whole steps with repeats of its last ray. A chunk's buffers are
 * in the call's work memory (kernel.h), or on the stack, where a short list (a broadphase
 * query's piece, raycast_range's stale path) takes short ones. */
#define RAY_SHORT 256
typedef struct ray_work {
    uint16_t idx[RAY_CHUNK + RAY_CLASSES * LANES];
    uint8_t of[RAY_CHUNK];
} ray_work;
_Static_assert(sizeof(ray_work) <= SEPAX_WORK_BYTES, "a ray chunk's buffers fit the work memory");

static void rays_with(const sepax_shapes *st, const sepax_ray *rays, const uint32_t *ids, size_t n,
                      sepax_ray_hit *out, uint16_t *idx, uint8_t *of, size_t chunk);

/* with buffers on the stack: calls of their own, so that kernel_raycast's frame, which a
 * call with work memory takes, holds none */
static NOINLINE void rays_on_stack(const sepax_shapes *st, const sepax_ray *rays,
                                   const uint32_t *ids, size_t n, sepax_ray_hit *out) {
    ray_work own;
    rays_with(st, rays, ids, n, out, own.idx, own.of, RAY_CHUNK);
}

static NOINLINE void rays_on_stack_short(const sepax_shapes *st, const sepax_ray *rays,
                                         const uint32_t *ids, size_t n, sepax_ray_hit *out) {
    uint16_t idx[RAY_SHORT + RAY_CLASSES * LANES];
    uint8_t of[RAY_SHORT];
    rays_with(st, rays, ids, n, out, idx, of, RAY_SHORT);
}

void kernel_raycast(const sepax_shapes *st, const sepax_ray *rays, const uint32_t *ids, size_t n,
                    sepax_ray_hit *out, void *work) {
    if (work) {
        ray_work *w = work;
        rays_with(st, rays, ids, n, out, w->idx, w->of, RAY_CHUNK);
    } else if (n <= RAY_SHORT) {
        rays_on_stack_short(st, rays, ids, n, out);
    } else {
        rays_on_stack(st, rays, ids, n, out);
    }
}

/* the rays a chunk of `chunk` at a time, sorted in idx (chunk + RAY_CLASSES * LANES
 * entries) by the classes `of` (chunk entries) records */
static void rays_with(const sepax_shapes *st, const sepax_ray *rays, const uint32_t *ids, size_t n,
                      sepax_ray_hit *out, uint16_t *idx, uint8_t *of, size_t chunk) {
    uint8_t class_of[SEPAX_CODES];
    for (unsigned c = 0; c < SEPAX_CODES; c++)
        class_of[c] =
            (uint8_t)(c == SEPAX_CODE_SHARP4 || c == SEPAX_CODE_SHARP8 ? RAY_SHARP
                                                                       : sepax_rows_index(c));
    for (size_t base = 0; base < n; base += chunk) {
        size_t len = n - base < chunk ? n - base : chunk;
        size_t cnt[RAY_CLASSES] = {0}, at[RAY_CLASSES], start[RAY_CLASSES], next = 0;
        for (size_t t = 0; t < len; t++) {
            of[t] = class_of[st->code[ids[base + t] & SEPAX_ID_INDEX_MASK]];
            cnt[of[t]]++;
        }
        for (int c = 0; c < RAY_CLASSES; c++) {
            start[c] = at[c] = next;
            next += (cnt[c] + LANES - 1) / LANES * LANES;
        }
        for (size_t t = 0; t < len; t++) idx[at[of[t]]++] = (uint16_t)t;
        for (int c = 0; c < RAY_CLASSES; c++) {
            if (!cnt[c]) continue;
            if (c == RAY_SHARP) {
                run_ray_slots(st, rays, ids, base, idx + start[c], cnt[c], out);
                continue;
            }
            for (size_t e = at[c]; (e - start[c]) % LANES; e++) idx[e] = idx[at[c] - 1];
            run_rays(st, rays, ids, base, idx + start[c], cnt[c], 1 << c, out);
        }
    }
}

/* One ray against a range: a lane per target shape of blocks b0 and b1,
 * rows straight from the transposed blocks, as many as the blocks' largest
 * shape has (a circle's planes, offsets +Inf, never separate, so blocks
 * with circles among polygons need no special case). */
#ifndef SEPAX_KERNEL_WIDE /* the 256-bit copy takes the 512-bit one's */
void kernel_raycast_range(const sepax_shapes *st, const sepax_ray *ray, uint32_t first,
                          size_t count, sepax_ray_hit *out) {
    size_t end = first + count;
    size_t b = first / SEPAX_BLOCK_LANES, b_end = (end + SEPAX_BLOCK_LANES - 1) / SEPAX_BLOCK_LANES;
    lf ox = lf_bcast(&ray->origin.x, &ray->origin.x), oy = lf_bcast(&ray->origin.y, &ray->origin.y);
    lf dx = lf_bcast(&ray->direction.x, &ray->direction.x);
    lf dy = lf_bcast(&ray->direction.y, &ray->direction.y);
    lf tmax = lf_bcast(&ray->max_fraction, &ray->max_fraction);
    lane_rows p;
    ray_point_rows(ox, oy, &p);
    for (; b < b_end; b += SEPAX_P) {
        uint32_t b1 = (uint32_t)(b + 1 < b_end ? b + SEPAX_P - 1 : b);
        const sepax_poly_block *w0 = &st->block[b], *w1 = &st->block[b1];
        int rows = sepax_step_rows(st, b, b1); /* what the update wrote (store.h) */
        lane_rows a;
        for (int k = 0; k < rows; k++) {
            a.x[k] = lf_load(w0->x[k], w1->x[k]);
            a.y[k] = lf_load(w0->y[k], w1->y[k]);
            a.nx[k] = lf_load(w0->nx[k], w1->nx[k]);
            a.ny[k] = lf_load(w0->ny[k], w1->ny[k]);
            a.c[k] = lf_load(w0->c[k], w1->c[k]);
        }
        a.r = lf_load(st->local[b].r, st->local[b1].r);
        lf t, nx, ny;
        lf ok = sweep_lanes(&a, rows, &p, 1, dx, dy, tmax, &t, &nx, &ny);
        /* the lanes inside [first, end): all of them but at the ends */
        size_t lo = b * SEPAX_BLOCK_LANES, hi = lo + LANES;
        size_t from = lo > first ? lo : first, to = hi < end ? hi : end;
        size_t pos[LANES]; /* out[] positions; only those of lanes from .. to - 1 are used */
        for (int k = 0; k < LANES; k++) pos[k] = lo + (size_t)k - first;
        store_rays(ok, t, nx, ny, ox, oy, dx, dy, pos, (int)(from - lo), (int)(to - lo), out);
    }
}
#endif

#ifndef SEPAX_KERNEL_NAME
#error "the build names each copy with -DSEPAX_KERNEL_NAME=sepax_kernel_<isa>"
#endif
#ifndef SEPAX_KERNEL_BACKEND
#error "the build sets -DSEPAX_KERNEL_BACKEND=SEPAX_BACKEND_<ISA>"
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

/* The copy whose other files (update_kernel.c, the grid's and the poses') this kernel
 * takes: its own, but for the AVX-512 copy at 256 bits, which compiles only this file and
 * manifold_kernel.c and takes the rest from the 512-bit copy. */
#ifdef SEPAX_KERNEL_WIDE
#define SEPAX_KERNEL_FILES SEPAX_KERNEL_WIDE
#else
#define SEPAX_KERNEL_FILES SEPAX_KERNEL_NAME
#endif

void CAT(SEPAX_KERNEL_FILES, _update)(sepax_shapes *st, uint32_t first_block, uint32_t blocks,
                                      int rows); /* update_kernel.c */
size_t CAT(SEPAX_KERNEL_FILES, _box_run)(const sepax_box_soa *soa, const uint32_t *runs,
                                         uint32_t nruns, const sepax_box_probe *probe,
                                         uint32_t *out); /* grid_kernel.c */
size_t CAT(SEPAX_KERNEL_FILES, _box_cell)(const sepax_box_soa *soa, uint32_t first, uint32_t owners,
                                          const uint32_t runs[4], int filter, uint32_t *out,
                                          uint32_t *owner_of); /* grid_kernel.c */
void CAT(SEPAX_KERNEL_FILES, _grid_boxes)(const sepax_aabb_block *aabb, const sepax_filter *filter,
                                          uint32_t first_block, uint32_t blocks, float grow,
                                          float limit, const float below[2], bp_box *ubox,
                                          uint32_t *key, bp_tally *tally, const bp_recent *recent,
                                          bp_lanes *lanes, int stream); /* grid_build_kernel.c */
void CAT(SEPAX_KERNEL_FILES, _grid_cells)(const bp_box *ubox, uint32_t i0, uint32_t i1,
                                          const bp_geometry *g, uint32_t *key);
void CAT(SEPAX_KERNEL_FILES, _grid_columns)(const bp_box *ubox, const uint32_t *sid, uint32_t p0,
                                            uint32_t p1, const bp_columns *out);
int CAT(SEPAX_KERNEL_FILES, _poses_valid)(const sepax_pose *poses,
                                          size_t count); /* pose_kernel.c */
void CAT(SEPAX_KERNEL_FILES, _poses_store)(sepax_pose_block *dst, const sepax_pose *poses,
                                           size_t blocks); /* pose_kernel.c */
void CAT(SEPAX_KERNEL_NAME, _contacts)(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                                       const sepax_hit *hits, const uint8_t *axes, float margin,
                                       sepax_manifold *out, void *work,
                                       int stream); /* manifold_kernel.c */
void CAT(SEPAX_KERNEL_FILES, _rot)(const float *angles, size_t n,
                                   sepax_rotation *out); /* rot_kernel.c */

/* The table of this copy; for the copy at 256 bits, also a table for a Zen 5 (dispatch.c),
 * where collide, manifold, all-sharp sweep and raycast are the faster at 256 bits (polygons:
 * 9.1-9.2 against 10.9-11.6 ns a pair, 18.2-18.5 against 19.2-20.2, 12.2-12.3 against
 * 16.3-17.2, 10.9-11.2 against 11.8-12.2) but an overlap of sharp shapes or of circles alone
 * at 512 (7.4-7.6 against 8.5-9.1, 1.21-1.29 against 1.38-1.42), and so are rays against
 * circles alone (docs/performance.md, "A Zen 5 again"). */
#define KERNEL_TABLE(name, overlap, raycast)                                                       \
    const sepax_kernel name = {                                                                    \
        STR(name),                                                                                 \
        SEPAX_KERNEL_BACKEND,                                                                      \
        overlap,                                                                                   \
        kernel_collide,                                                                            \
        WIDE_OR_OWN(_overlap_one),                                                                 \
        CAT(SEPAX_KERNEL_FILES, _update),                                                          \
        kernel_sweep,                                                                              \
        raycast,                                                                                   \
        WIDE_OR_OWN(_raycast_range),                                                               \
        CAT(SEPAX_KERNEL_NAME, _contacts),                                                         \
        CAT(SEPAX_KERNEL_FILES, _box_run),                                                         \
        CAT(SEPAX_KERNEL_FILES, _box_cell),                                                        \
        CAT(SEPAX_KERNEL_FILES, _grid_boxes),                                                      \
        CAT(SEPAX_KERNEL_FILES, _grid_cells),                                                      \
        CAT(SEPAX_KERNEL_FILES, _grid_columns),                                                    \
        CAT(SEPAX_KERNEL_FILES, _poses_valid),                                                     \
        CAT(SEPAX_KERNEL_FILES, _poses_store),                                                     \
        CAT(SEPAX_KERNEL_FILES, _rot),                                                             \
    }

KERNEL_TABLE(SEPAX_KERNEL_NAME, kernel_overlap, kernel_raycast);
#ifdef SEPAX_KERNEL_WIDE
/* A store of one class (all sharp, or all circles) at 512 bits; a mixed one here, where it
 * is the faster at 256 (8.2-8.4 against 8.5-8.8 ns a pair) */
static void overlap_by_class(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                             float margin, uint8_t *hit, void *work) {
    if (st->n_class[SEPAX_CLASS_SHARP] == st->count || st->n_class[SEPAX_CLASS_CIRCLE] == st->count)
        WIDE_OR_OWN(_overlap)(st, pairs, n, margin, hit, work);
    else
        kernel_overlap(st, pairs, n, margin, hit, work);
}
/* Rays against a store of circles alone at 512 bits (9.7-9.8 against 10.2 ns a ray), the
 * rest here (10.9-11.2 against 11.8-12.2 for polygons) */
static void raycast_by_class(const sepax_shapes *st, const sepax_ray *rays, const uint32_t *ids,
                             size_t n, sepax_ray_hit *out, void *work) {
    if (st->n_class[SEPAX_CLASS_CIRCLE] == st->count)
        WIDE_OR_OWN(_raycast)(st, rays, ids, n, out, work);
    else
        kernel_raycast(st, rays, ids, n, out, work);
}
KERNEL_TABLE(CAT(SEPAX_KERNEL_NAME, _zen5), overlap_by_class, raycast_by_class);
#endif
