/* Contact manifolds with a pair per lane, written once against lanes.h and
 * compiled per ISA like sat_kernel.c. The per-pair clip of manifold.c
 * branches on data three or four times a pair (hit or miss, the incident
 * edge search, two clips, the margin filter) and mispredicts most of them;
 * here the hits whose axis is a face are listed first (branch-free), then
 * run 8 * SEPAX_P at a time through the same arithmetic as manifold.c,
 * operation for operation, with every outcome of every clip computed and
 * the right one selected, so the bits are the same:
 *   - the incident edge: of the two edges at the deepest incident vertex
 *     (the least projection over all 8 vertex rows, the first of equals;
 *     padding rows repeat the last vertex, never less), the one whose plane
 *     has the lesser dot product, the edge out of the vertex on a tie;
 *   - clip by the side plane through the face's start, then through its
 *     end; a clip keeping two points keeps [in0, in1], [in0, crossing] or
 *     [in1, crossing], which two selects per point say;
 *   - the two clipped contacts, filtered by the margin, or else the deepest
 *     incident vertex (always so when the incident shape is a circle: its
 *     one row is its centre).
 * Lanes carry which incident vertex each contact stems from (j or j2: a
 * crossing of a side plane takes the vertex it replaced) and make its
 * feature id as two 16-bit halves, exact in floats, joined as an integer's bits. Misses are
 * written as zeros. Closest-vertices hits (curved pairs: every hit of two circles) are listed too
 * and run a pair per lane through manifold.c's vertex search (vertex_step). The scalar copy runs
 * manifold.c a pair at a time. */
#include "kernel.h"
#include "lanes.h"
#include "manifold.h"

#include <stddef.h>
#include <string.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define LANES (8 * SEPAX_P)

void CAT(SEPAX_KERNEL_NAME, _contacts)(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                                       const sepax_hit *hits, const uint8_t *axes, float margin,
                                       sepax_manifold *out, void *work, int stream);

#if defined(SEPAX_ISA_SCALAR)
/* The portable copy keeps manifold.c's pair at a time: with no vectors, the
 * lanes' every-outcome arithmetic costs more than the mispredictions it
 * saves (measured: 174 -> 225 ns a pair, bench/sepax-bench --backend scalar). */
void CAT(SEPAX_KERNEL_NAME, _contacts)(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                                       const sepax_hit *hits, const uint8_t *axes, float margin,
                                       sepax_manifold *out, void *work, int stream) {
    (void)work, (void)stream; /* nothing of its own to keep; plain stores */
    for (size_t i = 0; i < n; i++)
        sepax_manifold_from_hit(st, pairs[i], &hits[i], axes[i], margin, &out[i]);
}
#else

#include <simde/x86/sse2.h> /* write_span's 16-byte moves (NEON: SIMDe's translation) */

/* The hits gathered and run through the lanes at a time (the lane buffers, about 46 KB with
 * the span's lists below, in the call's work memory or, without any, on the stack). Pieces of
 * 256 pairs instead of 128, each listed and run on its own, took polygon manifolds from
 * 41.6-42.3 to 37.4-37.5 ns a pair (SSE4.1) and 23.2-23.8 to 22.7-23.1 (AVX-512); then
 * listing a whole span's hits first, so that only its last batch is padded to whole steps,
 * took mixed kinds from 26.6 to 25.3-25.6 (AVX-512) and 43.9-44.1 to 41.4-42.5 (SSE4.1)
 * (docs/performance.md, "Longer face lists for the contact step"). */
#define FACE_LIST 256
/* The pairs whose hits are listed at once: a call's pairs come in chunks of this many
 * (queries.c's MANIFOLD_CHUNK), a frame's in batches of fewer. */
#define HIT_SPAN 1024
_Static_assert(HIT_SPAN % FACE_LIST == 0 && FACE_LIST % 16 == 0, "whole batches, whole steps");
/* A streamed call's span (contacts_with's `stream`): its results wait in rows until every
 * manifold of the span is written, in order, each once (write_span), so the span is what
 * the work memory holds beside the rest. Its rows: the face hits' from row 0 (padded to whole
 * steps), then the closest-vertices hits' (padded too), then a row of zeros that every miss
 * copies. A plain call's rows are its batch's lanes. */
#define STREAM_SPAN 512
#define ZERO_ROW (STREAM_SPAN + LANES)
#define ROWS (ZERO_ROW + 1)
_Static_assert(STREAM_SPAN % FACE_LIST == 0 && STREAM_SPAN <= HIT_SPAN && ROWS >= FACE_LIST + LANES,
               "whole batches; a plain batch's rows fit too");
/* a streamed span's pair's code: its face hit's row, VERTEX_CODE plus its vertex hit's
 * place, or ZERO_ROW */
#define VERTEX_CODE 0x8000u
_Static_assert(ZERO_ROW < VERTEX_CODE && VERTEX_CODE + STREAM_SPAN <= 0xffffu, "codes fit 16 bits");

/* Which incident vertex a contact stems from, or none (see the file comment). */
enum { PT_J = 0, PT_J2 = 1, PT_NONE = 2 };

/* The faces listed at a time, a lane each (spare lanes at the end of the
 * last step repeat its last pair): what the clip reads of the two shapes,
 * gathered one pair at a time, and what it writes. Gathered all before the
 * first step, so no step loads a vector its lanes' stores are still writing. */
#define BATCH (FACE_LIST + LANES)
typedef struct face_batch {
    _Alignas(64) float nx[BATCH];
    _Alignas(64) float ny[BATCH];
    _Alignas(64) float c[BATCH];
    _Alignas(64) float rx0[BATCH]; /* the face's start vertex k */
    _Alignas(64) float ry0[BATCH];
    _Alignas(64) float rx1[BATCH]; /* its end vertex k2 */
    _Alignas(64) float ry1[BATCH];
    _Alignas(64) float r_ref[BATCH];
    _Alignas(64) float r_inc[BATCH];
    /* the incident shape's plane count: 0 for a circle, else its vertex count */
    _Alignas(64) float inc_planes[BATCH];
    const float *inc[BATCH]; /* the incident shape's record; for a vertex step, B's */
    const float *va[BATCH];  /* a vertex step's A record */
    /* the face's index and 1 when B owns it, for the ids */
    _Alignas(64) float k[BATCH];
    _Alignas(64) float ref_is_b[BATCH];
    /* results: a row per lane of a batch, or per hit of a streamed span, laid out as
     * sepax_manifold's points (x, y, separation and id of each, the id as an integer's
     * bits), and the count as an integer's bits */
    _Alignas(64) float pts[ROWS][8];
    _Alignas(64) float count[ROWS];
    /* the span's face hits and closest-vertices hits, by their place in the span */
    uint32_t list[HIT_SPAN + LANES], vlist[HIT_SPAN + LANES];
    uint16_t code[STREAM_SPAN]; /* a streamed span's pairs' rows, as list_hits codes them */
} face_batch;

static _Alignas(64) const float k_zero[LANES] = {0};
static _Alignas(64) const float k_one[LANES] = {1, 1, 1, 1, 1,
                                                1, 1, 1,
#if SEPAX_P == 2
                                                1, 1, 1, 1, 1,
                                                1, 1, 1
#endif
};
static _Alignas(64) const float k_half[LANES] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f,
                                                 0.5f, 0.5f, 0.5f,
#if SEPAX_P == 2
                                                 0.5f, 0.5f, 0.5f, 0.5f, 0.5f,
                                                 0.5f, 0.5f, 0.5f
#endif
};
/* row q's index, and the threshold q - 0.5 a float index passes to reach it */
static const float k_index[8] = {0, 1, 2, 3, 4, 5, 6, 7};
static const float k_reach[8] = {-0.5f, 0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f};
static const float k_pt[3] = {PT_J, PT_J2, PT_NONE};
static const float k_256 = 256.0f, k_feature_face = (float)SEPAX_FEATURE_FACE;

/* where a record's rows start, in floats */
#define REC_X (offsetof(sepax_poly_rec, x) / sizeof(float))
#define REC_Y (offsetof(sepax_poly_rec, y) / sizeof(float))
#define REC_NX (offsetof(sepax_poly_rec, nx) / sizeof(float))
#define REC_NY (offsetof(sepax_poly_rec, ny) / sizeof(float))

#define LOAD(arr) lf_load((arr), (arr) + 8 * (SEPAX_P - 1))
#define BCAST(p) lf_bcast((p), (p))

/* Conditions are lanes of 1 (true) or 0 (false): and is min, or is max.
 * Every value compared is finite (a valid store's records, a finite margin)
 * wherever its comparison decides a result, so x <= y is !(x > y). */
typedef struct masks {
    lf zero, one, half;
} masks;

static inline __attribute__((always_inline)) lf is_le(const masks *m, lf a, lf b) {
    return lf_sel_gt(a, b, m->zero, m->one);
}
static inline __attribute__((always_inline)) lf is_lt(const masks *m, lf a, lf b) {
    return lf_sel_lt(a, b, m->one, m->zero);
}
static inline __attribute__((always_inline)) lf pick(const masks *m, lf cond, lf x, lf y) {
    return lf_sel_gt(cond, m->half, x, y);
}

/* A point of the incident edge, and which of the four it is. */
typedef struct lpoint {
    lf x, y, pt;
} lpoint;

static inline __attribute__((always_inline)) lpoint pick_point(const masks *m, lf cond, lpoint a,
                                                               lpoint b) {
    lpoint r = {pick(m, cond, a.x, b.x), pick(m, cond, a.y, b.y), pick(m, cond, a.pt, b.pt)};
    return r;
}

/* clip() of manifold.c on lanes: distances d0, d1 of in0, in1 (<= 0
 * inside); whether two points are kept, and which. A crossing stems from the point it
 * replaces, the one outside. */
typedef struct lclip {
    lpoint p0, p1;
    lf two;
} lclip;

static inline __attribute__((always_inline)) lclip clip(const masks *m, lpoint in0, lpoint in1,
                                                        lf d0, lf d1) {
    lf k0 = is_le(m, d0, m->zero), k1 = is_le(m, d1, m->zero);
    lf cross = lf_max(lf_min(is_lt(m, d0, m->zero), is_lt(m, m->zero, d1)),
                      lf_min(is_lt(m, m->zero, d0), is_lt(m, d1, m->zero)));
    lf f = lf_div(d0, lf_sub(d0, d1));
    lpoint c = {lf_add(in0.x, lf_mul(f, lf_sub(in1.x, in0.x))),
                lf_add(in0.y, lf_mul(f, lf_sub(in1.y, in0.y))),
                lf_sel_lt(m->zero, d0, in0.pt, in1.pt)};
    lf both = lf_min(k0, k1);
    /* kept in order: in0 if k0, in1 if k1, the crossing; never all three */
    lclip r = {pick_point(m, k0, in0, in1), pick_point(m, both, in1, c), lf_max(both, cross)};
    return r;
}

/* contact_at() of manifold.c on lanes */
typedef struct lcontact {
    lf x, y, s;
} lcontact;

static inline __attribute__((always_inline)) lcontact contact_at(lf px, lf py, lf nx, lf ny, lf c,
                                                                 lf r_ref, lf r_inc, lf radii) {
    lf s = lf_sub(lf_add(lf_mul(nx, px), lf_mul(ny, py)), c);
    lf h = lf_mul(BCAST(&k_half[0]), lf_sub(lf_sub(r_ref, s), r_inc));
    lcontact k = {lf_add(px, lf_mul(h, nx)), lf_add(py, lf_mul(h, ny)), lf_sub(s, radii)};
    return k;
}

/* SEPAX_FEATURE_ID of the face k (SEPAX_FEATURE_FACE) with incident vertex inc
 * (SEPAX_FEATURE_VERTEX, 0), ref_is_b 1 where the face is B's: two 16-bit halves (an index or
 * type plus 256 times another: exact in a float) joined as an integer's bits. */
static inline __attribute__((always_inline)) lf face_id(const masks *m, lf k, lf inc, lf ref_is_b) {
    lf x256 = BCAST(&k_256), face = BCAST(&k_feature_face);
    lf lo_a = lf_add(k, lf_mul(inc, x256)), lo_b = lf_add(inc, lf_mul(k, x256));
    lf hi_a = face, hi_b = lf_mul(face, x256);
    return lf_join16(pick(m, ref_is_b, lo_b, lo_a), pick(m, ref_is_b, hi_b, hi_a));
}

/* The id of the point a code pt names: id_j (PT_J), id_j2 (PT_J2) or 0 (PT_NONE), both made
 * before the clip, off the chain that ends in pt (lf_sel_lt moves an id's bits as they are,
 * whatever float they read as). */
static inline __attribute__((always_inline)) lf point_id(const masks *m, lf pt, lf id_j, lf id_j2) {
    return lf_sel_lt(pt, BCAST(&k_reach[PT_NONE]),
                     lf_sel_lt(pt, BCAST(&k_reach[PT_J2]), id_j, id_j2), m->zero);
}

/* The compares of the deepest-vertex tree (face_step): the projections d0, the lesser of
 * each pair d1, of each pair of those d2. */
typedef struct vtree {
    lf d0[8], d1[4], d2[2];
} vtree;

/* val[v], v the first row of least projection, picked as the tree picked it */
static inline __attribute__((always_inline)) lf at_v(const vtree *t, const lf val[8]) {
    lf v1[4], v2[2];
    for (int k = 0; k < 4; k++)
        v1[k] = lf_sel_lt(t->d0[2 * k + 1], t->d0[2 * k], val[2 * k + 1], val[2 * k]);
    for (int k = 0; k < 2; k++)
        v2[k] = lf_sel_lt(t->d1[2 * k + 1], t->d1[2 * k], v1[2 * k + 1], v1[2 * k]);
    return lf_sel_lt(t->d2[1], t->d2[0], v2[1], v2[0]);
}

/* face_points() of manifold.c for one step of lanes, gathered at o, into the rows from row */
static void face_step(face_batch *b, size_t o, size_t row, float margin) {
    masks m = {LOAD(k_zero), LOAD(k_one), LOAD(k_half)};
    lf nx = LOAD(b->nx + o), ny = LOAD(b->ny + o), c = LOAD(b->c + o);
    /* A's radius plus B's, in either order: IEEE addition commutes */
    lf r_ref = LOAD(b->r_ref + o), r_inc = LOAD(b->r_inc + o), radii = lf_add(r_ref, r_inc);
    const float *const *inc = b->inc + o; /* the incident records, for lf_rows4 */

    lf inc_planes = LOAD(b->inc_planes + o), circle = is_lt(&m, inc_planes, m.half);
    /* the deepest incident vertex v, the first of least projection (padding rows repeat the
     * last vertex, never less), and the incident edge: the edge into v or out of it, whose
     * plane's dot product with n is less (out of it on a tie; padding rows repeat the last
     * plane) */
    lf ix[8], iy[8], inx[8], iny[8];
    lf_rows4(inc, REC_X, ix);
    lf_rows4(inc, REC_X + 4, ix + 4);
    lf_rows4(inc, REC_Y, iy);
    lf_rows4(inc, REC_Y + 4, iy + 4);
#if defined(SEPAX_ISA_SSE2) || defined(SEPAX_ISA_SSE41)
    /* by scans: a select is three instructions a half here, and the tree below selects more
     * than the scans' chain costs (SSE4.1 manifold 499 -> 519 instructions a pair, 29.95 ->
     * 30.99 ns in cache) */
    lf least = lf_add(lf_mul(nx, ix[0]), lf_mul(ny, iy[0]));
    lf v = m.zero;
    for (int q = 1; q < 8; q++) {
        lf d = lf_add(lf_mul(nx, ix[q]), lf_mul(ny, iy[q]));
        v = lf_sel_lt(d, least, BCAST(&k_index[q]), v);
        least = lf_sel_lt(d, least, d, least);
    }
    lf into = lf_sel_lt(v, m.half, lf_sub(inc_planes, m.one), lf_sub(v, m.one));
    lf_rows4(inc, REC_NX, inx);
    lf_rows4(inc, REC_NX + 4, inx + 4);
    lf_rows4(inc, REC_NY, iny);
    lf_rows4(inc, REC_NY + 4, iny + 4);
    lf d_into = lf_add(lf_mul(nx, inx[0]), lf_mul(ny, iny[0])), d_out = d_into;
    for (int q = 1; q < 8; q++) {
        lf d = lf_add(lf_mul(nx, inx[q]), lf_mul(ny, iny[q]));
        lf reach = BCAST(&k_reach[q]);
        d_into = lf_sel_gt(into, reach, d, d_into);
        d_out = lf_sel_gt(v, reach, d, d_out);
    }
#else
    /* v by a tree of three levels, each node taking its upper half's least only when strictly
     * less, so the first of equals as the scan of manifold.c: 3 compares deep where the scan
     * is 7, on the chain from a step's loads to its stores that held each step up (AVX-512
     * manifold in cache 18.2-18.3 -> 17.7-17.9 ns a pair); what is wanted at v (its index and
     * vertex, its neighbours, the planes into and out of it) is picked by the same compares */
    lf_rows4(inc, REC_NX, inx);
    lf_rows4(inc, REC_NX + 4, inx + 4);
    lf_rows4(inc, REC_NY, iny);
    lf_rows4(inc, REC_NY + 4, iny + 4);
    vtree t;
    lf dn[8], idx[8], prev_x[8], prev_y[8], next_x[8], next_y[8], prev_dn[8];
    for (int q = 0; q < 8; q++) {
        t.d0[q] = lf_add(lf_mul(nx, ix[q]), lf_mul(ny, iy[q]));
        dn[q] = lf_add(lf_mul(nx, inx[q]), lf_mul(ny, iny[q]));
    }
    for (int k = 0; k < 4; k++)
        t.d1[k] = lf_sel_lt(t.d0[2 * k + 1], t.d0[2 * k], t.d0[2 * k + 1], t.d0[2 * k]);
    for (int k = 0; k < 2; k++)
        t.d2[k] = lf_sel_lt(t.d1[2 * k + 1], t.d1[2 * k], t.d1[2 * k + 1], t.d1[2 * k]);
    for (int q = 0; q < 8; q++) {
        int pq = (q + 7) & 7, nq = (q + 1) & 7; /* row 7 before row 0: the last vertex, plane */
        idx[q] = BCAST(&k_index[q]);
        prev_x[q] = ix[pq];
        prev_y[q] = iy[pq];
        prev_dn[q] = dn[pq];
        next_x[q] = ix[nq]; /* row 0 after row 7; after a last vertex below 7, fixed below */
        next_y[q] = iy[nq];
    }
    lf v = at_v(&t, idx), d_into = at_v(&t, prev_dn), d_out = at_v(&t, dn);
    lf into = lf_sel_lt(v, m.half, lf_sub(inc_planes, m.one), lf_sub(v, m.one));
#endif
    lf j = lf_sel_lt(d_into, d_out, into, v);
    j = pick(&m, circle, m.zero, j);
    lf j1 = lf_add(j, m.one);
    lf j2 = lf_sel_lt(j1, inc_planes, j1, m.zero);
    j2 = pick(&m, circle, m.zero, j2);
    /* the ids of both, made here, off the chain that ends in which point is kept */
    lf kf = LOAD(b->k + o), ref_is_b = LOAD(b->ref_is_b + o);
    lf id_j = face_id(&m, kf, j, ref_is_b), id_j2 = face_id(&m, kf, j2, ref_is_b);

    /* its vertices j and j2 */
#if defined(SEPAX_ISA_SSE2) || defined(SEPAX_ISA_SSE41)
    lpoint in0 = {ix[0], iy[0], BCAST(&k_pt[PT_J])}, in1 = {ix[0], iy[0], BCAST(&k_pt[PT_J2])};
    for (int q = 1; q < 8; q++) {
        lf reach = BCAST(&k_reach[q]);
        in0.x = lf_sel_gt(j, reach, ix[q], in0.x);
        in0.y = lf_sel_gt(j, reach, iy[q], in0.y);
        in1.x = lf_sel_gt(j2, reach, ix[q], in1.x);
        in1.y = lf_sel_gt(j2, reach, iy[q], in1.y);
    }
#else
    /* v - 1 and v, or v and the vertex after v (vertex 0 after the last); a circle's rows all
     * hold its centre, so any pick is its vertex 0 */
    lf vx = at_v(&t, ix), vy = at_v(&t, iy);
    lf px = at_v(&t, prev_x), py = at_v(&t, prev_y);
    lf last = lf_sub(lf_sub(inc_planes, m.one), v); /* 0 at the last vertex, else >= 1 */
    lf nvx = lf_sel_lt(last, m.half, ix[0], at_v(&t, next_x));
    lf nvy = lf_sel_lt(last, m.half, iy[0], at_v(&t, next_y));
    lpoint in0 = {lf_sel_lt(d_into, d_out, px, vx), lf_sel_lt(d_into, d_out, py, vy),
                  BCAST(&k_pt[PT_J])};
    lpoint in1 = {lf_sel_lt(d_into, d_out, vx, nvx), lf_sel_lt(d_into, d_out, vy, nvy),
                  BCAST(&k_pt[PT_J2])};
#endif

    /* the face's tangent and side planes */
    lf tx = lf_sub(m.zero, ny), ty = nx;
    lf lo = lf_add(lf_mul(tx, LOAD(b->rx0 + o)), lf_mul(ty, LOAD(b->ry0 + o)));
    lf hi = lf_add(lf_mul(tx, LOAD(b->rx1 + o)), lf_mul(ty, LOAD(b->ry1 + o)));
    /* the incident vertices along the face */
    lf u0 = lf_add(lf_mul(tx, in0.x), lf_mul(ty, in0.y));
    lf u1 = lf_add(lf_mul(tx, in1.x), lf_mul(ty, in1.y));
    lclip a = clip(&m, in0, in1, lf_sub(lo, u0), lf_sub(lo, u1));
    lclip bc = clip(&m, a.p0, a.p1, lf_sub(lf_add(lf_mul(tx, a.p0.x), lf_mul(ty, a.p0.y)), hi),
                    lf_sub(lf_add(lf_mul(tx, a.p1.x), lf_mul(ty, a.p1.y)), hi));
    lcontact c0 = contact_at(bc.p0.x, bc.p0.y, nx, ny, c, r_ref, r_inc, radii);
    lcontact c1 = contact_at(bc.p1.x, bc.p1.y, nx, ny, c, r_ref, r_inc, radii);
    lf mg = BCAST(&margin);
    lf clipped = lf_min(lf_min(a.two, bc.two), lf_sub(m.one, circle));
    lf keep0 = lf_min(clipped, is_le(&m, c0.s, mg)), keep1 = lf_min(clipped, is_le(&m, c1.s, mg));

    /* else the deepest incident vertex; of two equally deep, the one nearer the face's span */
    lf s0 = lf_add(lf_mul(nx, in0.x), lf_mul(ny, in0.y));
    lf s1 = lf_add(lf_mul(nx, in1.x), lf_mul(ny, in1.y));
    lf out0 = lf_max(lf_sub(lo, u0), lf_sub(u0, hi)), out1 = lf_max(lf_sub(lo, u1), lf_sub(u1, hi));
    lf tie = lf_min(is_le(&m, s1, s0), is_le(&m, s0, s1));
    lf deeper = lf_max(is_lt(&m, s1, s0), lf_min(tie, is_lt(&m, out1, out0)));
    lpoint deep = pick_point(&m, deeper, in1, in0);
    lcontact cd = contact_at(deep.x, deep.y, nx, ny, c, r_ref, r_inc, radii);

    /* first point: c0 if kept, else c1 if kept, else the deepest vertex; the second: c1
     * when both were kept, else zeros */
    lf both = lf_min(keep0, keep1);
    lf pt0 = pick(&m, keep0, bc.p0.pt, pick(&m, keep1, bc.p1.pt, deep.pt));
    lf pt1 = pick(&m, both, bc.p1.pt, BCAST(&k_pt[PT_NONE]));
    lf field[8] = {pick(&m, keep0, c0.x, pick(&m, keep1, c1.x, cd.x)),
                   pick(&m, keep0, c0.y, pick(&m, keep1, c1.y, cd.y)),
                   pick(&m, keep0, c0.s, pick(&m, keep1, c1.s, cd.s)),
                   point_id(&m, pt0, id_j, id_j2),
                   pick(&m, both, c1.x, m.zero),
                   pick(&m, both, c1.y, m.zero),
                   pick(&m, both, c1.s, m.zero),
                   point_id(&m, pt1, id_j, id_j2)};
    lf_put_rows(field, &b->pts[row]);
    lf_store(lf_join16(lf_add(m.one, both), m.zero), b->count + row);
}

/* The vertex after k of a face of n vertices, k_next[n][k] (rows past 8: a valid store has
 * none, and they stay in range), and small counts as floats. */
static const uint8_t k_next[16][8] = {{0},
                                      {0},
                                      {1, 0},
                                      {1, 2, 0},
                                      {1, 2, 3, 0},
                                      {1, 2, 3, 4, 0},
                                      {1, 2, 3, 4, 5, 0},
                                      {1, 2, 3, 4, 5, 6, 0},
                                      {1, 2, 3, 4, 5, 6, 7, 0}};
static const float k_count[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* Lane l's inputs, from one pair whose winning axis is a face; with `curved` false (a store
 * of sharp shapes only) the radii, all +0, are not read: the batch holds zeros for them
 * (contacts_with). Which shape owns the face, and the face's end, come from index and table
 * loads: as branches they were a coin toss a face (ref_is_b) and a miss at every last edge,
 * and loads take fewer instructions than the masks and conversions that replaced those. */
static inline __attribute__((always_inline)) void gather(face_batch *f, size_t l,
                                                         const sepax_shapes *st, sepax_pair pair,
                                                         unsigned axis, int curved) {
    uint32_t id[2] = {pair.a & SEPAX_ID_INDEX_MASK, pair.b & SEPAX_ID_INDEX_MASK};
    uint32_t ref_is_b = axis >= SEPAX_AXIS_B;
    uint32_t r = id[ref_is_b], i = id[ref_is_b ^ 1u];
    uint32_t k = axis & 7u, k2 = k_next[st->nverts[r] & 15u][k];
    const sepax_poly_rec *ref = &st->rec[r];
    f->nx[l] = ref->nx[k];
    f->ny[l] = ref->ny[k];
    f->c[l] = ref->c[k];
    f->rx0[l] = ref->x[k];
    f->ry0[l] = ref->y[k];
    f->rx1[l] = ref->x[k2];
    f->ry1[l] = ref->y[k2];
    if (curved) {
        f->r_ref[l] = st->disc[r].r;
        f->r_inc[l] = st->disc[i].r;
    }
    f->inc_planes[l] = k_count[st->nplanes[i] & 15u];
    f->inc[l] = (const float *)&st->rec[i];
    f->k[l] = k_count[k];
    f->ref_is_b[l] = k_count[ref_is_b];
}

/* Lane l's manifold, for a pair with collide answer h (a plain call). */
static inline void scatter(const face_batch *f, size_t l, const sepax_hit *h, sepax_manifold *out) {
    out->normal = h->normal;
    out->depth = h->depth;
    memcpy(&out->count, &f->count[l], sizeof out->count);
    memcpy(out->points, f->pts[l], sizeof out->points);
}

/* A streamed span's len manifolds, in order, each written once: a pair's normal and depth as
 * collide gave them (zeros for a miss: sepax_hit), and its row's count and points (a miss's
 * code names the zero row), stored around the caches, so that the output's lines are not read
 * before they are written, as a store to part of a line must. (The bits only move: the hit
 * word read as a float is replaced, never computed with.) */
static inline __attribute__((always_inline)) void write_span(const face_batch *f,
                                                             const sepax_hit *h, size_t len,
                                                             uint32_t vbase, sepax_manifold *o,
                                                             int vertices) {
    _Static_assert(offsetof(sepax_hit, normal) == 4 && offsetof(sepax_hit, depth) == 12 &&
                       sizeof(sepax_hit) == 16 && offsetof(sepax_manifold, depth) == 8 &&
                       offsetof(sepax_manifold, count) == 12 &&
                       offsetof(sepax_manifold, points) == 16 && sizeof(sepax_manifold) == 48,
                   "a manifold is its hit's last 12 bytes, the count and a row");
    for (size_t i = 0; i < len; i++) {
        uint32_t code = f->code[i];
        uint32_t row = vertices && code >= VERTEX_CODE ? code - VERTEX_CODE + vbase : code;
        /* hit, normal, depth -> count, normal, depth -> normal, depth, count */
        simde__m128 q0 = simde_mm_move_ss(simde_mm_loadu_ps((const float *)(const void *)&h[i]),
                                          simde_mm_load_ss(&f->count[row]));
        q0 = simde_mm_shuffle_ps(q0, q0, SIMDE_MM_SHUFFLE(0, 3, 2, 1));
        simde__m128 q1 = simde_mm_load_ps(f->pts[row]), q2 = simde_mm_load_ps(f->pts[row] + 4);
        float *d = (float *)(void *)&o[i]; /* 16-byte aligned: the caller checks */
        simde_mm_stream_ps(d, q0);
        simde_mm_stream_ps(d + 4, q1);
        simde_mm_stream_ps(d + 8, q2);
    }
}

/* Lane l's inputs for a closest-vertices hit h: the two records, their radii (in r_ref
 * and r_inc), the normal and the depth (in c). */
static inline void gather_vertex(face_batch *f, size_t l, const sepax_shapes *st, sepax_pair pair,
                                 const sepax_hit *h) {
    uint32_t a = pair.a & SEPAX_ID_INDEX_MASK, b = pair.b & SEPAX_ID_INDEX_MASK;
    f->va[l] = (const float *)&st->rec[a];
    f->inc[l] = (const float *)&st->rec[b];
    f->r_ref[l] = st->disc[a].r;
    f->r_inc[l] = st->disc[b].r;
    f->nx[l] = h->normal.x;
    f->ny[l] = h->normal.y;
    f->c[l] = h->depth;
}

/* manifold.c's vertex_contact for one step of lanes gathered by gather_vertex at o, into the
 * rows from row, over
 * rows 0 .. na - 1 of A and 0 .. nb - 1 of B, na and nb the most vertices of the step's A
 * and B shapes: a shape's rows past its own count repeat its last vertex, and each such pair
 * of rows repeats one the search met before it, which the strict < keeps. */
static void vertex_step(face_batch *b, size_t o, size_t row, int na, int nb) {
    masks m = {LOAD(k_zero), LOAD(k_one), LOAD(k_half)};
    const float *const *pa = b->va + o, *const *pb = b->inc + o;
    lf ax[8], ay[8], bx[8], by[8];
    lf_rows4(pa, REC_X, ax);
    lf_rows4(pa, REC_Y, ay);
    lf_rows4(pb, REC_X, bx);
    lf_rows4(pb, REC_Y, by);
    if (na > 4) {
        lf_rows4(pa, REC_X + 4, ax + 4);
        lf_rows4(pa, REC_Y + 4, ay + 4);
    }
    if (nb > 4) {
        lf_rows4(pb, REC_X + 4, bx + 4);
        lf_rows4(pb, REC_Y + 4, by + 4);
    }
    lf dx0 = lf_sub(bx[0], ax[0]), dy0 = lf_sub(by[0], ay[0]);
    lf best = lf_add(lf_mul(dx0, dx0), lf_mul(dy0, dy0));
    lf bi = m.zero, bj = m.zero, sax = ax[0], say = ay[0], sbx = bx[0], sby = by[0];
    for (int i = 0; i < na; i++) {
        for (int j = 0; j < nb; j++) {
            lf dx = lf_sub(bx[j], ax[i]), dy = lf_sub(by[j], ay[i]);
            lf d2 = lf_add(lf_mul(dx, dx), lf_mul(dy, dy));
            bi = lf_sel_lt(d2, best, BCAST(&k_index[i]), bi);
            bj = lf_sel_lt(d2, best, BCAST(&k_index[j]), bj);
            sax = lf_sel_lt(d2, best, ax[i], sax);
            say = lf_sel_lt(d2, best, ay[i], say);
            sbx = lf_sel_lt(d2, best, bx[j], sbx);
            sby = lf_sel_lt(d2, best, by[j], sby);
            best = lf_sel_lt(d2, best, d2, best);
        }
    }
    lf nx = LOAD(b->nx + o), ny = LOAD(b->ny + o);
    lf ra = LOAD(b->r_ref + o), rb = LOAD(b->r_inc + o), half = BCAST(&k_half[0]);
    lf field[8] = {lf_mul(half, lf_add(lf_add(sax, lf_mul(ra, nx)), lf_sub(sbx, lf_mul(rb, nx)))),
                   lf_mul(half, lf_add(lf_add(say, lf_mul(ra, ny)), lf_sub(sby, lf_mul(rb, ny)))),
                   lf_sub(m.zero, LOAD(b->c + o)),
                   /* SEPAX_FEATURE_ID(bi, bj, VERTEX, VERTEX): both types are 0 */
                   lf_join16(lf_add(bi, lf_mul(bj, BCAST(&k_256))), m.zero), m.zero, m.zero, m.zero,
                   m.zero};
    lf_put_rows(field, &b->pts[row]);
    lf_store(lf_join16(m.one, m.zero), b->count + row);
}

_Static_assert(sizeof(face_batch) <= SEPAX_WORK_BYTES, "a face batch fits the work memory");
_Static_assert(sizeof(((sepax_manifold *)0)->points) == 8 * sizeof(float) &&
                   sizeof(sepax_contact) == 4 * sizeof(float) &&
                   offsetof(sepax_contact, separation) == 2 * sizeof(float) &&
                   offsetof(sepax_contact, id) == 3 * sizeof(float),
               "a lane's row is a manifold's two points as they lie");

static void contacts_with(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                          const sepax_hit *hits, const uint8_t *axes, float margin,
                          sepax_manifold *out, face_batch *fb, int stream);

/* with the lane buffers on the stack: a call of its own, so that the frame of a call with
 * work memory holds none */
static __attribute__((noinline)) void
contacts_on_stack(const sepax_shapes *st, const sepax_pair *pairs, size_t n, const sepax_hit *hits,
                  const uint8_t *axes, float margin, sepax_manifold *out, int stream) {
    face_batch own;
    contacts_with(st, pairs, n, hits, axes, margin, out, &own, stream);
}

void CAT(SEPAX_KERNEL_NAME, _contacts)(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                                       const sepax_hit *hits, const uint8_t *axes, float margin,
                                       sepax_manifold *out, void *work, int stream) {
    if (work)
        contacts_with(st, pairs, n, hits, axes, margin, out, work, stream);
    else
        contacts_on_stack(st, pairs, n, hits, axes, margin, out, stream);
}

/* The lists of a span's hits whose axis is a face (list) and, when `vertices`, the
 * closest-vertices one (vlist); with `stream`, each pair's code (write_span: its place in the
 * face list, VERTEX_CODE plus its place in the other, or ZERO_ROW for a miss), else zeros
 * for every pair of the span, which a hit's scatter writes again. Branch-free: hit or miss is
 * a coin toss a pair, and so is face or vertex in a list of curved shapes. Returns how many
 * face hits; *nv: how many vertex hits. */
static inline __attribute__((always_inline)) size_t
list_hits(const sepax_hit *h, const uint8_t *ax, size_t len, sepax_manifold *o, uint16_t *code,
          uint32_t *list, uint32_t *vlist, size_t *nv, int vertices, int stream) {
    uint32_t nf = 0, nvert = 0;
    for (size_t i = 0; i < len; i++) {
        /* 0 or 1 (the collide kernels write no other value); the mask keeps the lists in
         * bounds whatever the word holds */
        uint32_t hit = h[i].hit & 1u;
        list[nf] = (uint32_t)i;
        if (vertices) {
            uint32_t face = ax[i] < SEPAX_AXIS_VERTICES;
            uint32_t fh = hit & face, vh = hit & !face; /* at most one is 1 */
            vlist[nvert] = (uint32_t)i;
            if (stream)
                code[i] = (uint16_t)(ZERO_ROW + fh * (nf - ZERO_ROW) +
                                     vh * (VERTEX_CODE + nvert - ZERO_ROW));
            nf += fh;
            nvert += vh;
        } else {
            /* no closest-vertices axis can win here: every hit's axis is a face */
            if (stream) code[i] = (uint16_t)(ZERO_ROW + hit * (nf - ZERO_ROW));
            nf += hit;
        }
        if (!stream)
            o[i] =
                (sepax_manifold){{0.0f, 0.0f},
                                 0.0f,
                                 0u,
                                 {{{0.0f, 0.0f}, 0.0f, 0u},
                                  {{0.0f, 0.0f}, 0.0f, 0u}}}; /* a miss, or a hit written again */
    }
    *nv = nvert;
    return nf;
}

/* A list of n hits padded to whole steps by repeating its last (only a span's last batch is
 * padded); returns its length so padded. */
static inline size_t pad_steps(uint32_t *list, size_t n) {
    size_t steps = (n + LANES - 1) / LANES * LANES;
    for (size_t l = n; l < steps; l++) list[l] = list[n - 1];
    return steps;
}

/* the length of the batch at `at` of a list of `end` */
static inline size_t batch_len(size_t at, size_t end) {
    return end - at < FACE_LIST ? end - at : FACE_LIST;
}

/* list_hits with its flags as constants */
static size_t list_span(const sepax_hit *h, const uint8_t *ax, size_t len, sepax_manifold *o,
                        face_batch *fb, size_t *nv, int vertices, int stream) {
    if (stream)
        return vertices ? list_hits(h, ax, len, o, fb->code, fb->list, fb->vlist, nv, 1, 1)
                        : list_hits(h, ax, len, o, fb->code, fb->list, fb->vlist, nv, 0, 1);
    return vertices ? list_hits(h, ax, len, o, fb->code, fb->list, fb->vlist, nv, 1, 0)
                    : list_hits(h, ax, len, o, fb->code, fb->list, fb->vlist, nv, 0, 0);
}

/* With `stream` (out 16-byte aligned: the caller's choice for outputs larger than the caches)
 * each span's manifolds wait in rows and are written once, in order, around the caches;
 * else each pair's zeros go out while its span is listed, and each batch's hits over them:
 * measured in docs/performance.md, "The manifolds written once". */
static void contacts_with(const sepax_shapes *st, const sepax_pair *pairs, size_t n,
                          const sepax_hit *hits, const uint8_t *axes, float margin,
                          sepax_manifold *out, face_batch *fb, int stream) {
    /* the closest-vertices axis wins only for curved shapes or under a positive margin
     * (kernel.h): a sharp store at margin <= 0 lists no such hits, and pays nothing for them */
    int curved = st->n_class[SEPAX_CLASS_CIRCLE] + st->n_class[SEPAX_CLASS_CURVED] != 0;
    int vertex_hits = curved || margin > 0.0f;
    if (!curved) { /* every radius is +0: the face gather leaves them as they are here */
        memset(fb->r_ref, 0, sizeof fb->r_ref);
        memset(fb->r_inc, 0, sizeof fb->r_inc);
    }
    if (stream) { /* the row every miss copies (write_span); a plain call never reads it */
        memset(fb->pts[ZERO_ROW], 0, sizeof fb->pts[ZERO_ROW]);
        fb->count[ZERO_ROW] = 0.0f; /* the bits of 0u */
    }
    size_t span = stream ? STREAM_SPAN : HIT_SPAN;
    for (size_t base = 0; base < n; base += span) {
        size_t len = n - base < span ? n - base : span;
        const sepax_pair *p = pairs + base;
        const sepax_hit *h = hits + base;
        const uint8_t *ax = axes + base;
        sepax_manifold *o = out + base;
        uint32_t *list = fb->list, *vlist = fb->vlist;
        size_t nv = 0, nf = list_span(h, ax, len, o, fb, &nv, vertex_hits, stream);
        size_t steps = pad_steps(list, nf);
        for (size_t f0 = 0; f0 < nf; f0 += FACE_LIST) {
            const uint32_t *fl = list + f0;
            size_t cnt = batch_len(f0, nf), cs = batch_len(f0, steps);
            size_t row = stream ? f0 : 0; /* where the batch's rows start */
            if (curved)
                for (size_t l = 0; l < cs; l++) gather(fb, l, st, p[fl[l]], ax[fl[l]], 1);
            else
                for (size_t l = 0; l < cs; l++) gather(fb, l, st, p[fl[l]], ax[fl[l]], 0);
            for (size_t l = 0; l < cs; l += LANES) face_step(fb, l, row + l, margin);
            if (!stream)
                for (size_t l = 0; l < cnt; l++) scatter(fb, l, &h[fl[l]], &o[fl[l]]);
        }
        size_t vbase = steps, vsteps = pad_steps(vlist, nv); /* streamed: after the face rows */
        for (size_t v0 = 0; v0 < nv; v0 += FACE_LIST) {
            const uint32_t *vl = vlist + v0;
            size_t cnt = batch_len(v0, nv), cs = batch_len(v0, vsteps);
            size_t row = stream ? vbase + v0 : 0;
            for (size_t l = 0; l < cs; l += LANES) {
                int na = 1, nb = 1; /* the most vertices of the step's shapes */
                for (size_t k = l; k < l + LANES; k++) {
                    size_t i = vl[k];
                    int va = st->nverts[p[i].a & SEPAX_ID_INDEX_MASK];
                    int vb = st->nverts[p[i].b & SEPAX_ID_INDEX_MASK];
                    na = va > na ? va : na;
                    nb = vb > nb ? vb : nb;
                    gather_vertex(fb, k, st, p[i], &h[i]);
                }
                vertex_step(fb, l, row + l, na, nb);
            }
            if (!stream)
                for (size_t l = 0; l < cnt; l++) scatter(fb, l, &h[vl[l]], &o[vl[l]]);
        }
        if (stream && vertex_hits)
            write_span(fb, h, len, (uint32_t)vbase, o, 1);
        else if (stream)
            write_span(fb, h, len, (uint32_t)vbase, o, 0);
    }
    if (stream) lf_stream_fence(); /* the streamed stores before any later one */
}
#endif
