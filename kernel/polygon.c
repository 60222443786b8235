/* Turning user points into a kernel record. Acceptance tests run in double
 * precision (exact for the products of two floats' differences up to the
 * coordinate limit) so the verdicts do not hinge on float rounding; the
 * record itself is computed in float with one fixed recipe. */
#include "polygon.h"

#include <math.h>
#include <string.h>

#define REL_TOL SEPAX_REL_TOL

/* |b - a| with IEEE operations only (libm's hypot may differ in the last bit
 * between C libraries, and acceptance must not). Differences of floats up to
 * the coordinate limit square without overflow in double. */
static double dist(pt a, pt b) {
    double dx = b.x - a.x, dy = b.y - a.y;
    return sqrt(dx * dx + dy * dy);
}

static double cross3(pt o, pt a, pt b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

static double dot3(pt o, pt a, pt b) {
    return (a.x - o.x) * (b.x - a.x) + (a.y - o.y) * (b.y - a.y);
}

sepax_status sepax_points_check(const sepax_vec2 *points, int count) {
    for (int i = 0; i < count; i++) {
        float x = points[i].x, y = points[i].y;
        if (!isfinite(x) || !isfinite(y)) return SEPAX_ERR_NONFINITE;
    }
    for (int i = 0; i < count; i++) {
        if (fabsf(points[i].x) > SEPAX_COORD_LIMIT || fabsf(points[i].y) > SEPAX_COORD_LIMIT)
            return SEPAX_ERR_RANGE;
    }
    return SEPAX_OK;
}

/* Drop each point within `tol` (max-norm) of the previously kept one, and the
 * last ones that close onto the first, and at[] (NULL: none) with them. Returns
 * how many points remain. */
int sepax_points_weld(pt *p, int *at, int n, double tol) {
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && fabs(p[i].x - p[m - 1].x) <= tol && fabs(p[i].y - p[m - 1].y) <= tol) continue;
        if (at) at[m] = at[i];
        p[m++] = p[i];
    }
    while (m > 1 && fabs(p[m - 1].x - p[0].x) <= tol && fabs(p[m - 1].y - p[0].y) <= tol) m--;
    return m;
}

/* Zero area has two causes: points on one line, or an outline that crosses
 * itself so its lobes cancel (a bow tie). Tell them apart for the caller. The
 * line is the one through the two points farthest apart: through the first
 * point instead, an obtuse sliver's far corner could stand off it by more than
 * the tolerance while every point is within it of the longest side. */
static int on_one_line(const pt *p, int n, double size) {
    int from = 0, far = 0;
    double best = 0.0;
    for (int i = 0; i < n; i++) {
        for (int k = i + 1; k < n; k++) {
            double d = dist(p[i], p[k]);
            if (d > best) {
                best = d;
                from = i;
                far = k;
            }
        }
    }
    for (int i = 0; i < n; i++)
        if (fabs(cross3(p[from], p[far], p[i])) > REL_TOL * size * best) return 0;
    return 1;
}

/* The larger side of the bounding box: the polygon's size for tolerances.
 * (Written with plain comparisons: aarch64 gcc 12 crashes vectorizing an
 * fmin/fmax reduction here.) */
double sepax_points_extent(const pt *p, int n) {
    double minx = p[0].x, maxx = minx, miny = p[0].y, maxy = miny;
    for (int i = 1; i < n; i++) {
        if (p[i].x < minx) minx = p[i].x;
        if (p[i].x > maxx) maxx = p[i].x;
        if (p[i].y < miny) miny = p[i].y;
        if (p[i].y > maxy) maxy = p[i].y;
    }
    return maxx - minx > maxy - miny ? maxx - minx : maxy - miny;
}

static double twice_area(const pt *p, int n) {
    double a = 0.0;
    for (int i = 1; i + 1 < n; i++) a += cross3(p[0], p[i], p[i + 1]);
    return a;
}

/* Convex and simple: every vertex on the inner side of every edge. This also refuses
 * self-intersecting outlines whose turns are all left (a pentagram). A vertex within tolerance
 * of another edge's line means the polygon is too thin to tell its sides apart: that is
 * degenerate, not concave (COLLINEAR), unless some vertex lies clearly outside an edge
 * (NONCONVEX, whichever the scan meets first). */
static sepax_status check_convex(const pt *p, int n, double size) {
    sepax_status st = SEPAX_OK;
    for (int i = 0; i < n; i++) {
        pt a = p[i], b = p[(i + 1) % n];
        double tol = REL_TOL * size * dist(a, b);
        for (int k = 0; k < n; k++) {
            if (k == i || k == (i + 1) % n) continue;
            double side = cross3(a, b, p[k]);
            if (side < -tol) return SEPAX_ERR_NONCONVEX;
            if (side <= tol) st = SEPAX_ERR_COLLINEAR;
        }
    }
    return st;
}

/* The kept points before and after position i of the m, going round (i itself if none). */
static void kept_neighbours(const unsigned char *gone, int m, int i, int *ia, int *ic) {
    int a = (i + m - 1) % m, c = (i + 1) % m;
    while (gone[a] && a != i) a = (a + m - 1) % m;
    while (gone[c] && c != i) c = (c + 1) % m;
    *ia = a;
    *ic = c;
}

/* How far vertex i (kept) lies from the line through its kept neighbours, when it may be
 * dropped: the outline going on (not turning back), within the tolerance of that line, and
 * every point already dropped between those neighbours within it too. Else +Inf. */
static double drop_cost(const pt *p, const unsigned char *gone, int m, int i, double size) {
    int ia, ic;
    kept_neighbours(gone, m, i, &ia, &ic);
    if (ia == i || ic == i || ia == ic) return INFINITY;
    pt a = p[ia], b = p[i], c = p[ic];
    if (dot3(a, b, c) < 0.0) return INFINITY;
    double ac = dist(a, c), tol = REL_TOL * size * ac;
    double off = fabs(cross3(a, b, c));
    if (off > tol) return INFINITY;
    for (int k = (ia + 1) % m; k != ic; k = (k + 1) % m)
        if (gone[k] && fabs(cross3(a, c, p[k])) > tol) return INFINITY;
    return ac > 0.0 ? off / ac : 0.0;
}

/* Remove vertices where the outline goes straight on: a vertex within 2^-20 of the size of
 * the line through its neighbours, the turn keeping direction; all of them first, so a
 * corner is judged with its true neighbours. Then a turn back along the incoming edge (the
 * shorter edge's far end within that distance of the longer edge's line) folds the outline
 * onto a line: a spike, not convex, when some vertex lies clearly outside an edge; else
 * only too thin (a sharp corner of a sliver looks the same from where it stands). Both
 * tests measure a distance to a line, as check_convex (above) does. */
sepax_status sepax_points_drop_straight(pt *p, int *at, int *n, double size) {
    /* Straight vertices go one at a time, the one nearest its neighbours' line first, and
     * a dropped point stays on record (gone): a later drop must keep every point dropped
     * between the new neighbours within the tolerance of their line too, so that steps each
     * within it never add up to more (a densely sampled shallow arc lost its apex that way,
     * 20 and more tolerances off). Nearest first, so that an arc's apex, the farthest from
     * its neighbours' line, goes last if at all: taken in outline order, the apex could go
     * first and leave a flatter vertex that may no longer go, a sliver of a convex polygon. */
    unsigned char gone[SEPAX_HULL_MAX_POINTS];
    double cost[SEPAX_HULL_MAX_POINTS];
    int m = *n, left = m;
    if (m > (int)sizeof gone) return SEPAX_ERR_COUNT; /* callers pass at most that many */
    memset(gone, 0, (size_t)m);
    for (int i = 0; i < m; i++) cost[i] = drop_cost(p, gone, m, i, size);
    while (left >= 3) {
        int best = -1;
        for (int i = 0; i < m; i++) /* the first of equal costs: the same from any start */
            if (!gone[i] && cost[i] < INFINITY && (best < 0 || cost[i] < cost[best])) best = i;
        if (best < 0) break;
        gone[best] = 1;
        left--;
        if (left < 3) break;
        int ia, ic;
        kept_neighbours(gone, m, best, &ia, &ic);
        cost[ia] = drop_cost(p, gone, m, ia, size);
        cost[ic] = drop_cost(p, gone, m, ic, size);
    }
    int kept = 0;
    for (int i = 0; i < m; i++) {
        if (gone[i]) continue;
        p[kept] = p[i];
        if (at) at[kept] = at[i];
        kept++;
    }
    *n = kept;
    if (*n < 3) return SEPAX_ERR_COLLINEAR;
    for (int i = 0; i < *n; i++) {
        pt a = p[(i + *n - 1) % *n], b = p[i], c = p[(i + 1) % *n];
        if (dot3(a, b, c) >= 0.0) continue;
        double la = dist(a, b), lc = dist(b, c);
        if (fabs(cross3(a, b, c)) <= REL_TOL * size * (la > lc ? la : lc))
            return check_convex(p, *n, size) == SEPAX_ERR_NONCONVEX ? SEPAX_ERR_NONCONVEX
                                                                    : SEPAX_ERR_COLLINEAR;
    }
    return SEPAX_OK;
}

/* The float recipe for an edge plane. Scaling by the larger component first
 * keeps the squares from overflowing for huge edges and from underflowing to
 * a zero length for tiny ones. Every operation is IEEE-exact-rounded, so the
 * result is the same on every platform. */
void sepax_edge_plane(float x0, float y0, float x1, float y1, float *nx, float *ny, float *c) {
    float ex = x1 - x0, ey = y1 - y0;
    float ax = fabsf(ex), ay = fabsf(ey);
    float s = ax > ay ? ax : ay;
    float ux = ex / s, uy = ey / s;
    float len = sqrtf(ux * ux + uy * uy);
    *nx = uy / len;
    *ny = 0.0f - ux / len; /* not -(ux / len): a zero component is +0 */
    *c = *nx * x0 + *ny * y0;
}

/* Keep the first point, reverse the rest (and at[] with them): the other winding. */
static void reverse_rest(pt *p, int *at, int n) {
    for (int i = 1, k = n - 1; i < k; i++, k--) {
        pt t = p[i];
        p[i] = p[k];
        p[k] = t;
        int a = at[i];
        at[i] = at[k];
        at[k] = a;
    }
}

sepax_status sepax_polygon_build(const sepax_vec2 *points, int count, sepax_poly_rec *rec,
                                 uint8_t *nverts) {
    if (!points || !rec || !nverts) return SEPAX_ERR_NULL;
    if (count < 3) return count < 0 ? SEPAX_ERR_COUNT : SEPAX_ERR_TOO_FEW_POINTS;
    if (count > SEPAX_MAX_VERTS) return SEPAX_ERR_TOO_MANY_VERTS;
    sepax_status st = sepax_points_check(points, count);
    if (st != SEPAX_OK) return st;

    /* Every decision is made from the lowest point (least x, then y), so that where the
     * caller starts the outline decides nothing but where the stored one starts: near the
     * thinness threshold, which point of a cluster the weld keeps, or which vertex is judged
     * straight first, could decide the verdict. at[] follows each point's caller index. */
    int low = 0;
    for (int i = 1; i < count; i++)
        if (points[i].x < points[low].x ||
            (points[i].x == points[low].x && points[i].y < points[low].y))
            low = i;
    pt p[SEPAX_MAX_VERTS];
    int at[SEPAX_MAX_VERTS];
    for (int k = 0; k < count; k++) {
        at[k] = (low + k) % count;
        p[k].x = points[at[k]].x;
        p[k].y = points[at[k]].y;
    }
    double size = sepax_points_extent(p, count);
    if (size == 0.0) return SEPAX_ERR_TOO_FEW_POINTS;

    /* counter-clockwise before the weld too, so that the caller's winding does not decide
     * which point of a cluster is kept; an outline of no area (a line, a bow tie) is taken
     * the way round whose second point is the lower, the same for either winding */
    double raw2 = twice_area(p, count);
    int ccw = raw2 > 0.0;
    if (raw2 == 0.0) {
        ccw = 1;
        for (int i = 1, k = count - 1; i < k; i++, k--) {
            if (p[i].x != p[k].x || p[i].y != p[k].y) {
                ccw = p[i].x < p[k].x || (p[i].x == p[k].x && p[i].y < p[k].y);
                break;
            }
        }
    }
    if (!ccw) reverse_rest(p, at, count);
    int n = sepax_points_weld(p, at, count, REL_TOL * size);
    if (n < 3) return SEPAX_ERR_TOO_FEW_POINTS;
    double area2 = twice_area(p, n);
    if (fabs(area2) <= REL_TOL * size * size)
        return on_one_line(p, n, size) ? SEPAX_ERR_COLLINEAR : SEPAX_ERR_NONCONVEX;
    int fwd = ccw;     /* whether p runs the caller's way round */
    if (area2 < 0.0) { /* the weld turned it: judged counter-clockwise */
        reverse_rest(p, at, n);
        fwd = !fwd;
    }
    st = sepax_points_drop_straight(p, at, &n, size);
    if (st != SEPAX_OK) return st;
    st = check_convex(p, n, size);
    if (st != SEPAX_OK) return st;
    /* The stored outline starts at the caller's first point, or the first kept after it
     * along the stored (counter-clockwise) way round: where that runs against the caller's
     * order (clockwise input), the caller's last kept point. */
    int first = 0;
    for (int k = 1; k < n; k++) {
        int key = fwd ? at[k] : (count - at[k]) % count;
        int best = fwd ? at[first] : (count - at[first]) % count;
        first = key < best ? k : first;
    }
    pt q[SEPAX_MAX_VERTS];
    for (int k = 0; k < n; k++) q[k] = p[(first + k) % n];
    for (int k = 0; k < n; k++) p[k] = q[k];

    /* Vertices are the caller's floats, unchanged (doubles hold them exactly). */
    for (int i = 0; i < SEPAX_MAX_VERTS; i++) {
        int k = i < n ? i : n - 1;
        rec->x[i] = (float)p[k].x;
        rec->y[i] = (float)p[k].y;
    }
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        sepax_edge_plane(rec->x[i], rec->y[i], rec->x[j], rec->y[j], &rec->nx[i], &rec->ny[i],
                         &rec->c[i]);
    }
    for (int i = n; i < SEPAX_MAX_VERTS; i++) {
        rec->nx[i] = rec->nx[n - 1];
        rec->ny[i] = rec->ny[n - 1];
        rec->c[i] = rec->c[n - 1];
    }
    *nverts = (uint8_t)n;
    return SEPAX_OK;
}
