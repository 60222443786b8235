/* The SAT kernel, written once against lanes.h and compiled by meson once per
 * ISA (SEPAX_ISA_* picks the lanes, SEPAX_KERNEL_NAME names the export).
 *
 * Every shape is a convex core (1..8 vertices, padded to 8 by repeating the
 * last) grown by a radius. A pair's separation is the largest of:
 *   - A's planes against B's vertices, B's planes against A's vertices (the
 *     one-sided form: least projection minus the plane's offset);
 *   - for curved pairs, the axis through the closest pair of core vertices
 *     (least projection of B minus greatest projection of A on it);
 * minus the two radii. Pairs are sorted into three classes (kernel.h):
 * sharp polygon pairs own an 8-lane slot (a lane per plane of A), circle
 * pairs get a lane each, a circle or capsule against anything a slot over
 * the other shape, other curved pairs a slot like sharp ones plus the
 * closest-vertices axis. In pair lists all 8 rows are visited whatever the
 * real count, so the loops have no data-dependent branch; the one branch on
 * data skips the closest-vertices axis for pairs an edge plane already
 * separates beyond the margin. sepax_overlap_one loops over real counts
 * (the same for a whole call or block). */
#include <math.h>
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

#if defined(__clang__) || defined(__GNUC__)
#define UNROLL8 _Pragma("GCC unroll 8")
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define UNROLL8
#define ALWAYS_INLINE inline
#endif

typedef const sepax_poly_rec *rec_ptr;

/* aligned: lf_load is an aligned load */
static _Alignas(64) const float k_zero[8] = {0, 0, 0, 0, 0, 0, 0, 0};
static _Alignas(64) const float k_one[8] = {1, 1, 1, 1, 1, 1, 1, 1};
static _Alignas(64) const float k_ninf[8] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY,
                                             -INFINITY, -INFINITY, -INFINITY, -INFINITY};

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

/* A hit, or all +0 for a miss, without a branch on which (a coin toss in a
 * typical batch, so a branch would mispredict half the time). */
static inline sepax_hit make_hit(float sep, float margin, float nx, float ny) {
    uint32_t keep = 0u - (uint32_t)(sep <= margin);
    sepax_hit h;
    h.hit = keep & 1u;
    h.normal.x = bits_float(float_bits(nx) & keep);
    h.normal.y = bits_float(float_bits(ny) & keep);
    h.depth = bits_float(float_bits(0.0f - sep) & keep);
    return h;
}

/* The unit axis along (dx, dy), or (1, 0) when both are zero (coincident
 * vertices: any axis is as good, this one is fixed). */
static inline void unit_axis(float dx, float dy, float *ux, float *uy) {
    float d2 = dx * dx + dy * dy, d = __builtin_sqrtf(d2);
    *ux = pick(d2 > 0.0f, dx / d, 1.0f);
    *uy = pick(d2 > 0.0f, dy / d, 0.0f);
}

/* ---- slots: a pair per 8 lanes ---- */

/* sep_a: per plane of A, the least projection of B minus A's offset (how far
 * B lies outside that edge); sep_b: the same for B's planes against A. */
static inline void pair_separations(const rec_ptr *a, const rec_ptr *b, lf *sep_a, lf *sep_b) {
    lf anx = lf_load(a[0]->nx, SLOT1(a)->nx), any = lf_load(a[0]->ny, SLOT1(a)->ny);
    lf bnx = lf_load(b[0]->nx, SLOT1(b)->nx), bny = lf_load(b[0]->ny, SLOT1(b)->ny);
    lf min_a = lf_add(lf_mul(anx, lf_bcast(&b[0]->x[0], &SLOT1(b)->x[0])),
                      lf_mul(any, lf_bcast(&b[0]->y[0], &SLOT1(b)->y[0])));
    lf min_b = lf_add(lf_mul(bnx, lf_bcast(&a[0]->x[0], &SLOT1(a)->x[0])),
                      lf_mul(bny, lf_bcast(&a[0]->y[0], &SLOT1(a)->y[0])));
    UNROLL8
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

/* The closest-vertices axis of each slot's pair: the closest pair of core
 * vertices (lowest vertex of A first, then of B, on ties), the unit axis
 * from A's to B's, and B's least minus A's greatest projection on it. */
static inline lf vertex_axis_separation(const rec_ptr *a, const rec_ptr *b, float *ux, float *uy) {
    lf ax = lf_load(a[0]->x, SLOT1(a)->x), ay = lf_load(a[0]->y, SLOT1(a)->y);
    lf dx = lf_sub(lf_bcast(&b[0]->x[0], &SLOT1(b)->x[0]), ax);
    lf dy = lf_sub(lf_bcast(&b[0]->y[0], &SLOT1(b)->y[0]), ay);
    lf best = lf_add(lf_mul(dx, dx), lf_mul(dy, dy)), bdx = dx, bdy = dy;
    UNROLL8
    for (int j = 1; j < SEPAX_MAX_VERTS; j++) {
        dx = lf_sub(lf_bcast(&b[0]->x[j], &SLOT1(b)->x[j]), ax);
        dy = lf_sub(lf_bcast(&b[0]->y[j], &SLOT1(b)->y[j]), ay);
        lf d2 = lf_add(lf_mul(dx, dx), lf_mul(dy, dy));
        bdx = lf_sel_lt(d2, best, dx, bdx);
        bdy = lf_sel_lt(d2, best, dy, bdy);
        best = lf_min(d2, best);
    }
    unsigned eq = lf_eq_bits(best, lf_slot_min(best));
    float fdx[LANES], fdy[LANES];
    lf_store(bdx, fdx);
    lf_store(bdy, fdy);
    for (int p = 0; p < SEPAX_P; p++) {
        unsigned lane = (unsigned)__builtin_ctz(((eq >> (8 * p)) & 0xffu) | 0x100u) & 7u;
        unit_axis(fdx[8 * p + (int)lane], fdy[8 * p + (int)lane], &ux[p], &uy[p]);
    }
    lf vux = lf_bcast(&ux[0], &ux[SEPAX_P - 1]), vuy = lf_bcast(&uy[0], &uy[SEPAX_P - 1]);
    lf pa = lf_add(lf_mul(vux, ax), lf_mul(vuy, ay));
    lf pb = lf_add(lf_mul(vux, lf_load(b[0]->x, SLOT1(b)->x)),
                   lf_mul(vuy, lf_load(b[0]->y, SLOT1(b)->y)));
    return lf_sub(lf_slot_min(pb), lf_slot_max(pa));
}

/* The early-out of the curved kernels: when every slot's edge-plane
 * maximum `face` minus its radii is beyond the margin, the pairs are misses
 * whatever the closest-vertices axis adds (it can only raise the maximum),
 * so write the misses (all +0) and return 1. About half of a typical batch
 * skips that axis this way. */
static ALWAYS_INLINE int write_if_apart(lf face, const float *rsum, int collide, float margin,
                                        uint8_t *hit, sepax_hit *out) {
    float f[LANES];
    lf_store(face, f);
    int apart = 1;
    for (int p = 0; p < SEPAX_P; p++) apart &= f[8 * p] - rsum[p] > margin;
    if (!apart) return 0;
    for (int p = 0; p < SEPAX_P; p++) {
        if (collide)
            out[p] = make_hit(1.0f, 0.0f, 0.0f, 0.0f);
        else
            hit[p] = 0;
    }
    return 1;
}

/* Results of one step of SEPAX_P pairs. With `curved`, the closest-vertices
 * axis joins (as axis 16, after A's planes 0-7 and B's 8-15) and the radii
 * are subtracted. */
static ALWAYS_INLINE void slot_step(const rec_ptr *a, const rec_ptr *b, const float *rsum,
                                    int curved, int collide, float margin, uint8_t *hit,
                                    sepax_hit *out) {
    lf sa, sb, sv;
    float ux[SEPAX_P], uy[SEPAX_P];
    pair_separations(a, b, &sa, &sb);
    lf mx = lf_max(sa, sb);
    float m[LANES];
    if (curved) {
        lf face = lf_slot_max(mx);
        if (write_if_apart(face, rsum, collide, margin, hit, out)) return;
        /* sv's lanes are all equal: no second reduction */
        sv = vertex_axis_separation(a, b, ux, uy);
        mx = lf_max(face, sv);
    } else {
        mx = lf_slot_max(mx);
    }
    lf_store(mx, m);
    if (!collide) {
        for (int p = 0; p < SEPAX_P; p++)
            hit[p] = (uint8_t)((curved ? m[8 * p] - rsum[p] : m[8 * p]) <= margin);
        return;
    }
    unsigned eq_a = lf_eq_bits(sa, mx), eq_b = lf_eq_bits(sb, mx);
    unsigned eq_v = curved ? lf_eq_bits(sv, mx) : 0u;
    for (int p = 0; p < SEPAX_P; p++) {
        /* lowest equal axis wins; bit 17 and the clamp keep the index in
         * range even for NaN input */
        unsigned bits = ((eq_a >> (8 * p)) & 0xffu) | ((eq_b >> (8 * p)) & 0xffu) << 8 |
                        ((eq_v >> (8 * p)) & 1u) << 16;
        unsigned axis = (unsigned)__builtin_ctz(bits | 0x20000u);
        const sepax_poly_rec *owner = axis < 8u ? a[p] : b[p];
        /* B's outward normal points from B to A: reverse it, as 0 - n so a
         * zero component stays +0 */
        float nx = owner->nx[axis & 7u], ny = owner->ny[axis & 7u];
        nx = pick(axis >= 8u, 0.0f - nx, nx);
        ny = pick(axis >= 8u, 0.0f - ny, ny);
        if (curved) {
            nx = pick(axis >= 16u, ux[p], nx);
            ny = pick(axis >= 16u, uy[p], ny);
        }
        out[p] = make_hit(curved ? m[8 * p] - rsum[p] : m[8 * p], margin, nx, ny);
    }
}

/* ---- a circle or capsule against anything: a pair per slot ---- */

/* A circle or capsule S has at most 2 core vertices and 2 planes; taken as
 * exactly 2 (a circle's second vertex repeats its first, its planes have +Inf
 * offsets), the loops over S are fixed and short, and the lanes run over the
 * other shape L. s_is_a says whether S is the pair's A: the result is that of
 * the pair in its own order, as the reference computes it, so the axes are
 * numbered and broken in A-then-B order (A's planes 0-7, B's 8-15, the
 * closest-vertices axis 16) and d = B - A. */
static ALWAYS_INLINE void small_step(const rec_ptr *sp, const rec_ptr *lp, const float *rsum,
                                     int s_is_a, int circle, int collide, float margin,
                                     uint8_t *hit, sepax_hit *out) {
#define SB(field, k) lf_bcast(&sp[0]->field[k], &SLOT1(sp)->field[k])
    lf lx = lf_load(lp[0]->x, SLOT1(lp)->x), ly = lf_load(lp[0]->y, SLOT1(lp)->y);
    lf lnx = lf_load(lp[0]->nx, SLOT1(lp)->nx), lny = lf_load(lp[0]->ny, SLOT1(lp)->ny);
    /* with `circle`, S is a circle: its second vertex is its first, and its
     * planes never separate, so both are left out (the same bits) */
    lf sx0 = SB(x, 0), sy0 = SB(y, 0);
    lf sx1 = circle ? sx0 : SB(x, 1), sy1 = circle ? sy0 : SB(y, 1);
    /* L's planes against S's two vertices (the reference's running min) */
    lf d0 = lf_add(lf_mul(lnx, sx0), lf_mul(lny, sy0));
    lf d1 = circle ? d0 : lf_add(lf_mul(lnx, sx1), lf_mul(lny, sy1));
    lf sep_l = lf_sub(lf_min(d1, d0), lf_load(lp[0]->c, SLOT1(lp)->c));
    /* S's two planes against L's vertices, one slot minimum each */
    lf sep_s0 = lf_load(k_ninf, k_ninf), sep_s1 = sep_s0;
    if (!circle) {
        lf e0 = lf_add(lf_mul(SB(nx, 0), lx), lf_mul(SB(ny, 0), ly));
        lf e1 = lf_add(lf_mul(SB(nx, 1), lx), lf_mul(SB(ny, 1), ly));
        sep_s0 = lf_sub(lf_slot_min(e0), SB(c, 0));
        sep_s1 = lf_sub(lf_slot_min(e1), SB(c, 1));
    }
    /* the largest edge-plane separation (S's planes are lane-equal already) */
    lf face = lf_slot_max(sep_l);
    if (!circle) face = lf_max(face, lf_max(sep_s0, sep_s1));
    if (write_if_apart(face, rsum, collide, margin, hit, out)) return;
    /* the closest vertex pair: squared distances from S's vertices to L's */
    lf ax0 = s_is_a ? sx0 : lx, ay0 = s_is_a ? sy0 : ly;
    lf bx0 = s_is_a ? lx : sx0, by0 = s_is_a ? ly : sy0;
    lf ax1 = s_is_a ? sx1 : lx, ay1 = s_is_a ? sy1 : ly;
    lf bx1 = s_is_a ? lx : sx1, by1 = s_is_a ? ly : sy1;
    lf dx0 = lf_sub(bx0, ax0), dy0 = lf_sub(by0, ay0);
    lf dx1 = lf_sub(bx1, ax1), dy1 = lf_sub(by1, ay1);
    lf q0 = lf_add(lf_mul(dx0, dx0), lf_mul(dy0, dy0));
    lf q1 = circle ? q0 : lf_add(lf_mul(dx1, dx1), lf_mul(dy1, dy1));
    float ux[SEPAX_P], uy[SEPAX_P];
    {
        /* one reduction: the least squared distance g over both of S's
         * vertices; then which vertex and lane reach it first */
        float f0[LANES], f1[LANES];
        lf m01 = circle ? q0 : lf_min(q1, q0); /* per lane, S's vertex 1 only when closer */
        lf g = lf_slot_min(m01);
        unsigned eq0 = lf_eq_bits(q0, g), eq1 = circle ? 0u : lf_eq_bits(q1, g);
        unsigned eqm = circle ? eq0 : lf_eq_bits(m01, g);
        lf_store(q0, f0);
        lf_store(q1, f1);
        for (int p = 0; p < SEPAX_P; p++) {
            const sepax_poly_rec *S = sp[p], *Lr = lp[p];
            int j, k; /* S's vertex, L's vertex (lane) */
            if (circle) {
                j = 0;
                k = __builtin_ctz(((eq0 >> (8 * p)) & 0xffu) | 0x100u) & 7;
            } else if (s_is_a) { /* S's vertex is the outer loop: vertex 0 if it reaches g */
                unsigned e0 = (eq0 >> (8 * p)) & 0xffu, e1 = (eq1 >> (8 * p)) & 0xffu;
                j = e0 == 0u;
                k = __builtin_ctz((j ? e1 : e0) | 0x100u) & 7;
            } else { /* L's vertex is the outer loop */
                k = __builtin_ctz(((eqm >> (8 * p)) & 0xffu) | 0x100u) & 7;
                j = f1[8 * p + k] < f0[8 * p + k];
            }
            float dx = s_is_a ? Lr->x[k] - S->x[j] : S->x[j] - Lr->x[k];
            float dy = s_is_a ? Lr->y[k] - S->y[j] : S->y[j] - Lr->y[k];
            unit_axis(dx, dy, &ux[p], &uy[p]);
        }
    }
    /* S's and L's extents on that axis */
    lf vux = lf_bcast(&ux[0], &ux[SEPAX_P - 1]), vuy = lf_bcast(&uy[0], &uy[SEPAX_P - 1]);
    lf pl = lf_add(lf_mul(vux, lx), lf_mul(vuy, ly));
    lf ps0 = lf_add(lf_mul(vux, sx0), lf_mul(vuy, sy0));
    lf ps1 = circle ? ps0 : lf_add(lf_mul(vux, sx1), lf_mul(vuy, sy1));
    lf sv = s_is_a ? lf_sub(lf_slot_min(pl), lf_max(ps1, ps0))
                   : lf_sub(lf_min(ps1, ps0), lf_slot_max(pl));
    lf mx = lf_max(face, sv); /* sv's lanes are all equal */
    float m[LANES];
    lf_store(mx, m);
    if (!collide) {
        for (int p = 0; p < SEPAX_P; p++) hit[p] = (uint8_t)(m[8 * p] - rsum[p] <= margin);
        return;
    }
    unsigned eq_l = lf_eq_bits(sep_l, mx), eq_v = lf_eq_bits(sv, mx);
    unsigned eq_s0 = circle ? 0u : lf_eq_bits(sep_s0, mx);
    unsigned eq_s1 = circle ? 0u : lf_eq_bits(sep_s1, mx);
    for (int p = 0; p < SEPAX_P; p++) {
        unsigned l8 = (eq_l >> (8 * p)) & 0xffu;
        unsigned s2 = ((eq_s0 >> (8 * p)) & 1u) | ((eq_s1 >> (8 * p)) & 1u) << 1;
        unsigned bits = (s_is_a ? s2 | l8 << 8 : l8 | s2 << 8) | ((eq_v >> (8 * p)) & 1u) << 16;
        unsigned axis = (unsigned)__builtin_ctz(bits | 0x20000u);
        const sepax_poly_rec *owner = (axis < 8u) == (s_is_a != 0) ? sp[p] : lp[p];
        float nx = owner->nx[axis & 7u], ny = owner->ny[axis & 7u];
        nx = pick(axis >= 8u, 0.0f - nx, nx);
        ny = pick(axis >= 8u, 0.0f - ny, ny);
        nx = pick(axis >= 16u, ux[p], nx);
        ny = pick(axis >= 16u, uy[p], ny);
        out[p] = make_hit(m[8 * p] - rsum[p], margin, nx, ny);
    }
#undef SB
}

/* ---- circles: a pair per lane ---- */

/* LANES circle pairs: lane k's discs have ids ia[k * stride], ib[k * stride].
 * Returns the lanes' separations, and the unit axes through ux/uy. */
static ALWAYS_INLINE lf circle_lanes(const float *disc, const uint32_t *ia, const uint32_t *ib,
                                     size_t stride, lf *ux, lf *uy) {
    lf vax, vay, ra, vbx, vby, rb;
    lf_discs(disc, ia, stride, &vax, &vay, &ra);
    lf_discs(disc, ib, stride, &vbx, &vby, &rb);
    lf rs = lf_add(ra, rb);
    lf dx = lf_sub(vbx, vax), dy = lf_sub(vby, vay);
    lf d2 = lf_add(lf_mul(dx, dx), lf_mul(dy, dy)), d = lf_sqrt(d2);
    lf zero = lf_load(k_zero, k_zero);
    *ux = lf_sel_gt(d2, zero, lf_div(dx, d), lf_load(k_one, k_one));
    *uy = lf_sel_gt(d2, zero, lf_div(dy, d), zero);
    lf pa = lf_add(lf_mul(*ux, vax), lf_mul(*uy, vay));
    lf pb = lf_add(lf_mul(*ux, vbx), lf_mul(*uy, vby));
    return lf_sub(lf_sub(pb, pa), rs);
}

/* Circle pairs pairs[base + idx[t]] (idx NULL: pairs[base + t]), a pair per
 * lane. With no index list the flags of 8 lanes go out in one store. */
static ALWAYS_INLINE void run_circles(const sepax_shapes *st, const sepax_pair *pairs, size_t base,
                                      const uint16_t *idx, size_t n, int collide, float margin,
                                      uint8_t *hit, sepax_hit *out) {
    const float *disc = (const float *)(const void *)st->disc;
    float mg = margin;
    lf vm = lf_bcast(&mg, &mg);
    for (size_t i = 0; i < n; i += LANES) {
        int live = n - i < LANES ? (int)(n - i) : LANES;
        size_t pos[LANES];
        int whole = !idx && live == LANES; /* the common case: no positions to keep */
        lf ux, uy, sep;
        if (whole) { /* the ids straight from the pair list: a, b, a, b, ... */
            const uint32_t *ids = (const uint32_t *)(const void *)(pairs + base + i);
            sep = circle_lanes(disc, ids, ids + 1, 2, &ux, &uy);
        } else {
            uint32_t ia[LANES], ib[LANES];
            for (int t = 0; t < LANES; t++) {
                size_t k = i + (size_t)(t < live ? t : live - 1);
                pos[t] = base + (idx ? idx[k] : k);
                ia[t] = pairs[pos[t]].a;
                ib[t] = pairs[pos[t]].b;
            }
            sep = circle_lanes(disc, ia, ib, 1, &ux, &uy);
        }
        if (!collide) {
            unsigned bits = lf_le_bits(sep, vm);
            if (whole) {
                for (int p = 0; p < SEPAX_P; p++) {
                    uint64_t f = byte_flags[(bits >> (8 * p)) & 0xffu];
                    memcpy(hit + base + i + 8 * (size_t)p, &f, 8);
                }
            } else {
                for (int t = 0; t < live; t++) hit[pos[t]] = (uint8_t)((bits >> t) & 1u);
            }
            continue;
        }
        float fs[LANES], fx[LANES], fy[LANES];
        lf_store(sep, fs);
        lf_store(ux, fx);
        lf_store(uy, fy);
        if (whole) {
            sepax_hit *o = out + base + i;
            for (int t = 0; t < LANES; t++) o[t] = make_hit(fs[t], margin, fx[t], fy[t]);
        } else {
            for (int t = 0; t < live; t++) out[pos[t]] = make_hit(fs[t], margin, fx[t], fy[t]);
        }
    }
}

/* ---- walking a pair list ---- */

/* Pairs pairs[base + idx[t]] for t < n (idx NULL: pairs[base + t]), one
 * class, results to the same positions. Inlined with constants, so each
 * class and query gets its own loop. A short tail repeats its last pair in
 * the spare slots and keeps only the live results. */
static ALWAYS_INLINE void run_class(const sepax_shapes *st, const sepax_pair *pairs, size_t base,
                                    const uint16_t *idx, size_t n, unsigned cls, int collide,
                                    float margin, uint8_t *hit, sepax_hit *out) {
    if (cls == SEPAX_PAIR_CIRCLES) {
        run_circles(st, pairs, base, idx, n, collide, margin, hit, out);
        return;
    }
    const sepax_poly_rec *rec = st->rec;
    const sepax_disc *disc = st->disc;
    for (size_t i = 0; i < n; i += SEPAX_P) {
        int live = n - i < SEPAX_P ? (int)(n - i) : SEPAX_P;
        size_t pos[SEPAX_P];
        rec_ptr a[SEPAX_P], b[SEPAX_P];
        float rsum[SEPAX_P];
        for (int p = 0; p < SEPAX_P; p++) {
            size_t k = i + (size_t)(p < live ? p : live - 1);
            pos[p] = base + (idx ? idx[k] : k);
            uint32_t ia = pairs[pos[p]].a & SEPAX_ID_INDEX_MASK;
            uint32_t ib = pairs[pos[p]].b & SEPAX_ID_INDEX_MASK;
            a[p] = rec + ia;
            b[p] = rec + ib;
            rsum[p] = disc[ia].r + disc[ib].r;
        }
        uint8_t h[SEPAX_P];
        sepax_hit o[SEPAX_P];
        if (cls == SEPAX_PAIR_CIRCLE_A)
            small_step(a, b, rsum, 1, 1, collide, margin, h, o);
        else if (cls == SEPAX_PAIR_CIRCLE_B)
            small_step(b, a, rsum, 0, 1, collide, margin, h, o);
        else if (cls == SEPAX_PAIR_SMALL_A)
            small_step(a, b, rsum, 1, 0, collide, margin, h, o);
        else if (cls == SEPAX_PAIR_SMALL_B)
            small_step(b, a, rsum, 0, 0, collide, margin, h, o);
        else
            slot_step(a, b, rsum, cls == SEPAX_PAIR_GENERAL, collide, margin, h, o);
        for (int p = 0; p < live; p++) {
            if (collide)
                out[pos[p]] = o[p];
            else
                hit[pos[p]] = h[p];
        }
    }
}

#define CHUNK 512

static ALWAYS_INLINE void run_pairs(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                                    float margin, int collide, uint8_t *hit, sepax_hit *out) {
    int mpos = margin > 0.0f;
    if (st->n_class[SEPAX_CLASS_CIRCLE] == st->count) { /* a store of circles only */
        run_class(st, pairs, 0, NULL, n, SEPAX_PAIR_CIRCLES, collide, margin, hit, out);
        return;
    }
    if (st->n_class[SEPAX_CLASS_SHARP] == st->count) { /* of sharp polygons only */
        if (mpos)
            run_class(st, pairs, 0, NULL, n, SEPAX_PAIR_GENERAL, collide, margin, hit, out);
        else
            run_class(st, pairs, 0, NULL, n, SEPAX_PAIR_SHARP, collide, margin, hit, out);
        return;
    }
    /* mixed: sort each chunk's pairs by class, then run each class. The
     * class comes from a table (kind * 3 + class of each shape), not from
     * comparisons: in a mixed list those would mispredict every few pairs. */
    uint8_t table[81];
    for (unsigned x = 0; x < 81; x++)
        table[x] = (uint8_t)sepax_pair_class(x / 27, x / 9 % 3, x / 3 % 3, x % 3, mpos);
    for (size_t base = 0; base < n; base += CHUNK) {
        size_t len = n - base < CHUNK ? n - base : CHUNK;
        uint16_t idx[SEPAX_PAIR_CLASSES][CHUNK];
        size_t cnt[SEPAX_PAIR_CLASSES] = {0};
        for (size_t t = 0; t < len; t++) {
            const sepax_pair *pr = &pairs[base + t];
            uint32_t a = pr->a & SEPAX_ID_INDEX_MASK, b = pr->b & SEPAX_ID_INDEX_MASK;
            unsigned c =
                table[(st->kind[a] * 3u + st->cls[a]) * 9u + st->kind[b] * 3u + st->cls[b]];
            idx[c][cnt[c]++] = (uint16_t)t;
        }
        run_class(st, pairs, base, idx[SEPAX_PAIR_SHARP], cnt[SEPAX_PAIR_SHARP], SEPAX_PAIR_SHARP,
                  collide, margin, hit, out);
        run_class(st, pairs, base, idx[SEPAX_PAIR_CIRCLES], cnt[SEPAX_PAIR_CIRCLES],
                  SEPAX_PAIR_CIRCLES, collide, margin, hit, out);
        run_class(st, pairs, base, idx[SEPAX_PAIR_CIRCLE_A], cnt[SEPAX_PAIR_CIRCLE_A],
                  SEPAX_PAIR_CIRCLE_A, collide, margin, hit, out);
        run_class(st, pairs, base, idx[SEPAX_PAIR_CIRCLE_B], cnt[SEPAX_PAIR_CIRCLE_B],
                  SEPAX_PAIR_CIRCLE_B, collide, margin, hit, out);
        run_class(st, pairs, base, idx[SEPAX_PAIR_SMALL_A], cnt[SEPAX_PAIR_SMALL_A],
                  SEPAX_PAIR_SMALL_A, collide, margin, hit, out);
        run_class(st, pairs, base, idx[SEPAX_PAIR_SMALL_B], cnt[SEPAX_PAIR_SMALL_B],
                  SEPAX_PAIR_SMALL_B, collide, margin, hit, out);
        run_class(st, pairs, base, idx[SEPAX_PAIR_GENERAL], cnt[SEPAX_PAIR_GENERAL],
                  SEPAX_PAIR_GENERAL, collide, margin, hit, out);
    }
}

static void kernel_overlap(const sepax_shapes *st, const sepax_pair *pairs, size_t n, float margin,
                           uint8_t *hit) {
    run_pairs(st, pairs, n, margin, 0, hit, NULL);
}

static void kernel_collide(const sepax_shapes *st, const sepax_pair *pairs, size_t n, float margin,
                           sepax_hit *out) {
    run_pairs(st, pairs, n, margin, 1, NULL, out);
}

/* ---- one shape against a range: a lane per target ---- */

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
            lf d2 = lf_add(lf_mul(dx, dx), lf_mul(dy, dy));
            if (i == 0 && k == 0) {
                bdx = dx;
                bdy = dy;
                bd2 = d2;
            } else {
                bdx = lf_sel_lt(d2, bd2, dx, bdx);
                bdy = lf_sel_lt(d2, bd2, dy, bdy);
                bd2 = lf_min(d2, bd2);
            }
        }
    }
    lf d = lf_sqrt(bd2), zero = lf_load(k_zero, k_zero);
    lf ux = lf_sel_gt(bd2, zero, lf_div(bdx, d), lf_load(k_one, k_one));
    lf uy = lf_sel_gt(bd2, zero, lf_div(bdy, d), zero);
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

static void kernel_overlap_one(const sepax_shapes *st, uint32_t probe, uint32_t first, size_t count,
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
