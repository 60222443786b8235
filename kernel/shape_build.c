/* Validation and local layout of circles, capsules, boxes and (rounded)
 * polygons. Every check runs before anything is written; the first failing
 * one wins: a polygon's radius, then its points; a circle's or capsule's
 * points, then its radius; a box's width, then its height (README.md,
 * "Bad input", lists the order per call). */
#include "shape_build.h"

#include <math.h>

#include "polygon.h"

/* SEPAX_ERR_NONFINITE / RANGE / BAD_SIZE for a radius; `positive` when a
 * zero radius would leave no area (a circle, a capsule). */
static sepax_status check_radius(float r, int positive) {
    if (!isfinite(r)) return SEPAX_ERR_NONFINITE;
    if (r > SEPAX_COORD_LIMIT) return SEPAX_ERR_RANGE;
    if (r < 0.0f || (positive && r == 0.0f)) return SEPAX_ERR_BAD_SIZE;
    return SEPAX_OK;
}

sepax_status sepax_build_polygon(const sepax_vec2 *points, int count, float radius,
                                 sepax_shape_src *out) {
    sepax_poly_rec rec;
    uint8_t n;
    sepax_status st = points ? check_radius(radius, 0) : SEPAX_ERR_NULL;
    if (st == SEPAX_OK) st = sepax_polygon_build(points, count, &rec, &n);
    if (st != SEPAX_OK) return st;
    out->kind = SEPAX_KIND_POLYGON;
    out->nverts = out->nplanes = n;
    out->radius = radius + 0.0f; /* -0 becomes +0 */
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        out->x[k] = rec.x[k];
        out->y[k] = rec.y[k];
        out->nx[k] = rec.nx[k];
        out->ny[k] = rec.ny[k];
    }
    return SEPAX_OK;
}

sepax_status sepax_build_circle(sepax_vec2 center, float radius, sepax_shape_src *out) {
    sepax_status st = sepax_points_check(&center, 1);
    if (st == SEPAX_OK) st = check_radius(radius, 1);
    if (st != SEPAX_OK) return st;
    out->kind = SEPAX_KIND_CIRCLE;
    out->nverts = 1;
    out->nplanes = 0;
    out->radius = radius;
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        out->x[k] = center.x;
        out->y[k] = center.y;
        out->nx[k] = 0.0f; /* no planes: the store makes their offsets +Inf */
        out->ny[k] = 0.0f;
    }
    return SEPAX_OK;
}

sepax_status sepax_build_capsule(sepax_vec2 p0, sepax_vec2 p1, float radius, sepax_shape_src *out) {
    sepax_vec2 p[2] = {p0, p1};
    sepax_status st = sepax_points_check(p, 2);
    if (st == SEPAX_OK) st = check_radius(radius, 1);
    if (st != SEPAX_OK) return st;
    /* A segment shorter than 2^-20 of the capsule's size, the larger side of its bounding
     * box (radius included), has no reliable direction: the rule that welds polygon points,
     * and like it the same wherever the capsule sits in its local frame. */
    double dx = (double)p1.x - p0.x, dy = (double)p1.y - p0.y;
    double size = fmax(fabs(dx), fabs(dy)) + 2.0 * radius;
    if (fmax(fabs(dx), fabs(dy)) <= SEPAX_REL_TOL * size) return SEPAX_ERR_TOO_FEW_POINTS;
    /* the polygon recipe for an edge normal, then its opposite for the far side */
    float nx, ny, c;
    sepax_edge_plane(p0.x, p0.y, p1.x, p1.y, &nx, &ny, &c);
    out->kind = SEPAX_KIND_CAPSULE;
    out->nverts = out->nplanes = 2;
    out->radius = radius;
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        out->x[k] = k == 0 ? p0.x : p1.x;
        out->y[k] = k == 0 ? p0.y : p1.y;
        out->nx[k] = k == 0 ? nx : 0.0f - nx; /* plane 1 runs back along the segment */
        out->ny[k] = k == 0 ? ny : 0.0f - ny;
    }
    return SEPAX_OK;
}

sepax_status sepax_build_box(float half_width, float half_height, sepax_shape_src *out) {
    float h[2] = {half_width, half_height};
    for (int i = 0; i < 2; i++) {
        if (!isfinite(h[i])) return SEPAX_ERR_NONFINITE;
        if (h[i] > SEPAX_COORD_LIMIT) return SEPAX_ERR_RANGE;
        if (!(h[i] > 0.0f)) return SEPAX_ERR_BAD_SIZE;
    }
    sepax_vec2 q[4] = {{0.0f - half_width, 0.0f - half_height},
                       {half_width, 0.0f - half_height},
                       {half_width, half_height},
                       {0.0f - half_width, half_height}};
    return sepax_build_polygon(q, 4, 0.0f, out);
}
