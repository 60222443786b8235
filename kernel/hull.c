/* Convex hull of a point set (Andrew's monotone chain), in double precision
 * with the same relative tolerances as polygon construction, and checked by
 * polygon construction itself, so a hull is always a polygon the store takes. */
#include <math.h>

#include "polygon.h"

static int by_x_then_y(const void *pa, const void *pb) {
    const pt *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    return 0;
}

/* p[at] sifted down the max-heap over p[0 .. end). */
static void sift_down(pt *p, int at, int end) {
    for (;;) {
        int big = at, l = 2 * at + 1, r = l + 1;
        if (l < end && by_x_then_y(&p[l], &p[big]) > 0) big = l;
        if (r < end && by_x_then_y(&p[r], &p[big]) > 0) big = r;
        if (big == at) return;
        pt t = p[at];
        p[at] = p[big];
        p[big] = t;
        at = big;
    }
}

/* p[0 .. n) by x, then y, in place: a heap sort, since the C library's qsort may allocate
 * (glibc 2.36 mallocs a copy of 64 points or more) and a hull must not, nor take more stack
 * for a buffer. Points that compare equal differ at most in a zero's sign, and this sort puts
 * them in the same order on every platform, where each C library's qsort has its own. */
static void sort_points(pt *p, int n) {
    for (int i = n / 2 - 1; i >= 0; i--) sift_down(p, i, n);
    for (int end = n - 1; end > 0; end--) {
        pt t = p[0];
        p[0] = p[end];
        p[end] = t;
        sift_down(p, 0, end);
    }
}

/* c is no strict left turn from a through b: b leaves the chain. An exact
 * test, not a tolerant one: with a tolerance, points that are collinear but
 * out of order along x (a near-vertical run) can pop the extreme one. The
 * tolerances are applied to the finished outline instead. */
static int not_left(pt a, pt b, pt c) {
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) <= 0.0;
}

static int close_to(pt a, pt b, double tol) {
    return fabs(a.x - b.x) <= tol && fabs(a.y - b.y) <= tol;
}

sepax_status sepax_hull(const sepax_vec2 *points, int count, sepax_vec2 *out, int *out_count) {
    if (!points || !out || !out_count) return SEPAX_ERR_NULL;
    if ((uintptr_t)points % _Alignof(sepax_vec2) || (uintptr_t)out % _Alignof(sepax_vec2) ||
        (uintptr_t)out_count % _Alignof(int))
        return SEPAX_ERR_MISALIGNED;
    if (count < 0 || count > SEPAX_HULL_MAX_POINTS) return SEPAX_ERR_COUNT;
    if (count < 3) return SEPAX_ERR_TOO_FEW_POINTS;
    sepax_status st = sepax_points_check(points, count);
    if (st != SEPAX_OK) return st;

    pt p[SEPAX_HULL_MAX_POINTS]; /* with v below, 26 KB of stack at most */
    short h[2 * SEPAX_HULL_MAX_POINTS];
    for (int i = 0; i < count; i++) p[i] = (pt){points[i].x, points[i].y};
    double size = sepax_points_extent(p, count);
    if (size == 0.0) return SEPAX_ERR_TOO_FEW_POINTS;
    double tol = SEPAX_REL_TOL * size;
    sort_points(p, count);

    int k = 0;
    for (int i = 0; i < count; i++) { /* lower chain */
        while (k >= 2 && not_left(p[h[k - 2]], p[h[k - 1]], p[i])) k--;
        h[k++] = (short)i;
    }
    for (int i = count - 2, lower = k + 1; i >= 0; i--) { /* upper chain */
        while (k >= lower && not_left(p[h[k - 2]], p[h[k - 1]], p[i])) k--;
        h[k++] = (short)i;
    }
    k--; /* the upper chain ends on the first point */

    /* As many as h: exactly, a hull has at most count + 1 chain entries, but the turn test
     * rounds for widely spread floats and may keep a point in both chains. */
    pt v[2 * SEPAX_HULL_MAX_POINTS];
    for (int i = 0; i < k; i++) v[i] = p[h[i]];
    k = sepax_points_weld(v, NULL, k, tol);
    if (k >= 3) {
        st = sepax_points_drop_straight(v, NULL, &k, size);
        /* a hull folded onto a line is too thin (COLLINEAR); NONCONVEX would be a guard */
        if (st != SEPAX_OK && k >= 3) return st;
    }
    if (k < 3) {
        int distinct = 0, third = 0; /* one cluster of points, two, or a line? */
        for (int i = 1; i < count && !distinct; i++) distinct = !close_to(p[i], p[0], tol);
        for (int i = 1; i < count && !third; i++)
            third = !close_to(p[i], p[0], tol) && !close_to(p[i], p[count - 1], tol);
        return distinct && third ? SEPAX_ERR_COLLINEAR : SEPAX_ERR_TOO_FEW_POINTS;
    }
    if (k > SEPAX_MAX_VERTS) return SEPAX_ERR_TOO_MANY_VERTS;

    /* hull vertices are input points: the floats convert back exactly. The chain starts at
     * the lowest-x (then lowest-y) point, but the straight-vertex pass may have dropped it:
     * the outline starts at the lowest kept one, as the header says. */
    int low = 0;
    for (int i = 1; i < k; i++)
        if (by_x_then_y(&v[i], &v[low]) < 0) low = i;
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
