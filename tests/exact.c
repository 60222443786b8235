#include "exact.h"

#include <math.h>

typedef struct pt {
    double x, y;
} pt;

static pt vertex(const exact_shape *s, int i) {
    pt p = {s->x[i % s->n], s->y[i % s->n]};
    return p;
}

/* A point is one degenerate segment and a segment one edge; only polygons
 * close the loop, so a capsule's core is not counted twice. */
static int edge_count(const exact_shape *s) { return s->n >= 3 ? s->n : 1; }

static void edge(const exact_shape *s, int i, pt *p, pt *q) {
    *p = vertex(s, i);
    *q = s->n == 1 ? *p : vertex(s, i + 1);
}

static double min(double a, double b) { return a < b ? a : b; }
static double max(double a, double b) { return a > b ? a : b; }

static double cross(pt o, pt a, pt b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/* Only meaningful once p is known to be collinear with a-b. */
static int within_box(pt a, pt b, pt p) {
    return min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y &&
           p.y <= max(a.y, b.y);
}

static int sign(double v) { return (v > 0) - (v < 0); }

/* Touching counts as crossing; the collinear cases also cover degenerate
 * (point) segments, where every orientation is zero. */
static int segments_cross(pt a, pt b, pt c, pt d) {
    double d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
    if (sign(d1) * sign(d2) < 0 && sign(d3) * sign(d4) < 0) return 1;
    return (d1 == 0 && within_box(c, d, a)) || (d2 == 0 && within_box(c, d, b)) ||
           (d3 == 0 && within_box(a, b, c)) || (d4 == 0 && within_box(a, b, d));
}

static double point_segment_distance(pt p, pt a, pt b) {
    double ex = b.x - a.x, ey = b.y - a.y, len2 = ex * ex + ey * ey;
    double t = len2 > 0 ? ((p.x - a.x) * ex + (p.y - a.y) * ey) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double dx = a.x + t * ex - p.x, dy = a.y + t * ey - p.y;
    return sqrt(dx * dx + dy * dy);
}

/* Disjoint segments are closest at an endpoint of one of them. */
static double segment_distance(pt a, pt b, pt c, pt d) {
    if (segments_cross(a, b, c, d)) return 0;
    double m = point_segment_distance(a, c, d);
    m = min(m, point_segment_distance(b, c, d));
    m = min(m, point_segment_distance(c, a, b));
    return min(m, point_segment_distance(d, a, b));
}

/* Catches containment, where no edges cross; counter-clockwise order puts
 * the interior on the left of (or on) every edge. */
static int polygon_contains(const exact_shape *s, pt p) {
    if (s->n < 3) return 0;
    for (int i = 0; i < s->n; i++)
        if (cross(vertex(s, i), vertex(s, i + 1), p) < 0) return 0;
    return 1;
}

static int contains_any_vertex(const exact_shape *s, const exact_shape *other) {
    for (int i = 0; i < other->n; i++)
        if (polygon_contains(s, vertex(other, i))) return 1;
    return 0;
}

double exact_core_distance(const exact_shape *a, const exact_shape *b) {
    if (contains_any_vertex(a, b) || contains_any_vertex(b, a)) return 0;
    double best = INFINITY;
    for (int i = 0; i < edge_count(a); i++) {
        for (int j = 0; j < edge_count(b); j++) {
            pt p, q, u, v;
            edge(a, i, &p, &q);
            edge(b, j, &u, &v);
            best = min(best, segment_distance(p, q, u, v));
        }
    }
    return best;
}

double exact_gap(const exact_shape *a, const exact_shape *b) {
    return exact_core_distance(a, b) - a->r - b->r;
}
