/* Convex hull of a point set (Andrew's monotone chain), in double precision
 * with the same relative tolerances as polygon construction, and checked by
 * polygon construction itself, so a hull is always a polygon the store takes. */
#include <math.h>

#include "aliasing.h"
#include "misaligned.h"
#include "polygon.h"

static int by_x_then_y(sepax_vec2 a, sepax_vec2 b) {
    if (a.x != b.x) return a.x < b.x ? -1 : 1;
    if (a.y != b.y) return a.y < b.y ? -1 : 1;
    return 0;
}

/* idx[at] sifted down the max-heap over idx[0 .. end), points compared through it. */
static void sift_down(const sepax_vec2 *pts, short *idx, int at, int end) {
    for (;;) {
        int big = at, l = 2 * at + 1, r = l + 1;
        if (l < end && by_x_then_y(pts[idx[l]], pts[idx[big]]) > 0) big = l;
        if (r < end && by_x_then_y(pts[idx[r]], pts[idx[big]]) > 0) big = r;
        if (big == at) return;
        short t = idx[at];
        idx[at] = idx[big];
        idx[big] = t;
        at = big;
    }
}

/* idx[0 .. n) ordered by their points' x, then y: a heap sort of indices, since the C
 * library's qsort may allocate (glibc 2.36 mallocs a copy of 64 points or more) and a hull
 * must not, and 2-byte indices take an eighth of the stack of the points in double. Points that
 * compare equal differ at most in a zero's sign, and this sort puts them in the same order on every
 * platform, where each C library's qsort has its own. */
static void sort_points(const sepax_vec2 *pts, short *idx, int n) {
    for (int i = n / 2 - 1; i >= 0; i--) sift_down(pts, idx, i, n);
    for (int end = n - 1; end > 0; end--) {
        short t = idx[0];
        idx[0] = idx[end];
        idx[end] = t;
        sift_down(pts, idx, 0, end);
    }
}

/* a + b = *s + *e exactly (Knuth's two-sum, round to nearest, no overflow) */
static void two_sum(double a, double b, double *s, double *e) {
    double sum = a + b, bv = sum - a, av = sum - bv;
    *s = sum;
    *e = (a - av) + (b - bv);
}

/* The sign of the turn a -> b -> c, (b - a) x (c - a), exactly. Its six products of two
 * floats are exact in double (48 bits of 53; at most 1e36 by SEPAX_COORD_LIMIT and at least
 * 2^-298 when not zero), and their sum is kept exactly as an expansion (Shewchuk's
 * grow-expansion: components that do not overlap, growing in magnitude), whose sign is its
 * largest nonzero component's. A rounded test would call a nearly straight turn left or
 * right by rounding, and could keep a point in both chains: an outline folded onto a line,
 * and a chain longer than the points. */
int sepax_turn_sign(sepax_vec2 a, sepax_vec2 b, sepax_vec2 c) {
    /* First in double, as most turns are clear: Shewchuk's bound on that formula's error
     * (orient2d's ccwerrboundA, (3 + 16 eps) eps of |l| + |r|, eps = 2^-53) holds here, the
     * floats being exact in double and no difference or product able to underflow or
     * overflow; beyond it the rounded sign is the exact one. This cuts the hull's cost by
     * 44% (callgrind, 512 points: 327,579 instructions, 589,127 without it). */
    double l = ((double)b.x - a.x) * ((double)c.y - a.y);
    double r = ((double)b.y - a.y) * ((double)c.x - a.x);
    double det = l - r, bound = (3.0 + 16.0 * 0x1p-53) * 0x1p-53 * (fabs(l) + fabs(r));
    if (det > bound) return 1;
    if (-det > bound) return -1;
    const double t[6] = {(double)a.x * b.y,    -((double)a.y * b.x), (double)b.x * c.y,
                         -((double)b.y * c.x), (double)c.x * a.y,    -((double)c.y * a.x)};
    double e[6];
    int m = 0;
    for (int i = 0; i < 6; i++) {
        double q = t[i];
        for (int j = 0; j < m; j++) two_sum(q, e[j], &q, &e[j]);
        e[m++] = q;
    }
    for (int j = m - 1; j >= 0; j--)
        if (e[j] != 0.0) return e[j] > 0.0 ? 1 : -1;
    return 0;
}

/* c is no strict left turn from a through b: b leaves the chain. Exact, and not tolerant:
 * with a tolerance, points that are collinear but out of order along x (a near-vertical
 * run) can pop the extreme one. The tolerances are applied to the finished outline. */
static int not_left(sepax_vec2 a, sepax_vec2 b, sepax_vec2 c) {
    return sepax_turn_sign(a, b, c) <= 0;
}

static int close_to(sepax_vec2 a, sepax_vec2 b, double tol) {
    return fabs((double)a.x - b.x) <= tol && fabs((double)a.y - b.y) <= tol;
}

sepax_status sepax_hull(const sepax_vec2 *points, int count, sepax_vec2 *out, int *out_count) {
    if (!points || !out || !out_count) return SEPAX_ERR_NULL;
    if (MISALIGNED(points, sepax_vec2) || MISALIGNED(out, sepax_vec2) || MISALIGNED(out_count, int))
        return SEPAX_ERR_MISALIGNED;
    /* out may be points (every point is read before out is written), but *out_count, written
     * after out, must not land on a vertex */
    sepax_span o[2] = {sepax_span_of(out, SEPAX_MAX_VERTS, sizeof *out),
                       sepax_span_of(out_count, 1, sizeof *out_count)};
    if (sepax_spans_apart(o, 2, NULL, 0) != SEPAX_OK) return SEPAX_ERR_ALIASED;
    if (count < 0 || count > SEPAX_HULL_MAX_POINTS) return SEPAX_ERR_COUNT;
    if (count < 3) return SEPAX_ERR_TOO_FEW_POINTS;
    sepax_status st = sepax_points_check(points, count);
    if (st != SEPAX_OK) return st;

    /* the points by index (p(i) is the i-th in sorted order), the chains as positions in
     * that order, then the outline in double: about 11 KiB of stack with the most points */
    short idx[SEPAX_HULL_MAX_POINTS], h[2 * SEPAX_HULL_MAX_POINTS];
    for (int i = 0; i < count; i++) idx[i] = (short)i;
    sort_points(points, idx, count);
#define P(i) points[idx[(i)]]

    int k = 0;
    for (int i = 0; i < count; i++) { /* lower chain */
        while (k >= 2 && not_left(P(h[k - 2]), P(h[k - 1]), P(i))) k--;
        h[k++] = (short)i;
    }
    for (int i = count - 2, lower = k + 1; i >= 0; i--) { /* upper chain */
        while (k >= lower && not_left(P(h[k - 2]), P(h[k - 1]), P(i))) k--;
        h[k++] = (short)i;
    }
    k--; /* the upper chain ends on the first point */

    /* At most count entries, so v holds them: with the exact test each chain turns strictly
     * left at every inner vertex, so the lower chain's inner points lie strictly right of the
     * line from the first point to the last and the upper chain's strictly left, and no
     * position is in both. (A rounded test could keep a nearly straight run in both.) */
    pt v[SEPAX_HULL_MAX_POINTS];
    for (int i = 0; i < k; i++) v[i] = (pt){P(h[i]).x, P(h[i]).y};
    /* Every extreme x and y is at a hull vertex: the outline's extent is the points'. */
    double size = sepax_points_extent(v, k); /* k >= 2: the first point and the last */
    if (size == 0.0) return SEPAX_ERR_TOO_FEW_POINTS;
    double tol = SEPAX_REL_TOL * size;
    k = sepax_points_weld(v, NULL, k, tol);
    if (k >= 3) {
        st = sepax_points_drop_straight(v, NULL, &k, size);
        /* a hull folded onto a line is too thin (COLLINEAR); NONCONVEX would be a guard */
        if (st != SEPAX_OK && k >= 3) return st;
    }
    if (k < 3) {
        /* one cluster of points, two, or a line? The first point, the first far from it,
         * and any far from both (the last point in sorted order may share the first's
         * cluster: two points 1e-7 apart either side of a third's x) */
        int second = -1, third = 0;
        for (int i = 1; i < count && !third; i++) {
            if (close_to(P(i), P(0), tol)) continue;
            if (second < 0)
                second = i;
            else
                third = !close_to(P(i), P(second), tol);
        }
        return third ? SEPAX_ERR_COLLINEAR : SEPAX_ERR_TOO_FEW_POINTS;
    }
#undef P
    if (k > SEPAX_MAX_VERTS) return SEPAX_ERR_TOO_MANY_VERTS;

    /* hull vertices are input points: the floats convert back exactly. The chain starts at
     * the lowest-x (then lowest-y) point, but the straight-vertex pass may have dropped it:
     * the outline starts at the lowest kept one, as the header says. */
    int low = 0;
    for (int i = 1; i < k; i++)
        if (v[i].x < v[low].x || (v[i].x == v[low].x && v[i].y < v[low].y)) low = i;
    sepax_vec2 f[SEPAX_MAX_VERTS];
    for (int i = 0; i < k; i++) {
        pt q = v[(low + i) % k];
        f[i] = (sepax_vec2){(float)q.x, (float)q.y};
    }
    /* The store must take it (the header's promise); the hull is these vertices, though the
     * store may drop one more that its own test finds straight: that test sees only the
     * neighbours, not the points this pass dropped beside them, which the hull must keep
     * within the tolerance. */
    sepax_poly_rec rec;
    uint8_t n;
    st = sepax_polygon_build(f, k, &rec, &n);
    if (st != SEPAX_OK) return st;
    for (int i = 0; i < k; i++) out[i] = f[i];
    *out_count = k;
    return SEPAX_OK;
}
