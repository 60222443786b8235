#ifndef SEPAX_POLYGON_H
#define SEPAX_POLYGON_H

#include "store.h"

/* Relative tolerance: points closer than this fraction of a polygon's size
 * are one point, and turns flatter than it are straight. 2^-20 is ~8 float
 * ulps of the size: well above rounding noise, far below anything drawn. */
#define SEPAX_REL_TOL (1.0 / 1048576.0)

typedef struct pt {
    double x, y;
} pt;

/* SEPAX_ERR_NONFINITE or SEPAX_ERR_RANGE for the first bad coordinate. */
sepax_status sepax_points_check(const sepax_vec2 *points, int count);

/* The larger side of the points' bounding box. */
double sepax_points_extent(const pt *p, int n);

/* Drop each point within `tol` (max-norm) of the previously kept one, and
 * the last ones that close onto the first, and at[] (NULL: none) with them;
 * returns how many remain. */
int sepax_points_weld(pt *p, int *at, int n, double tol);

/* Remove the vertices of an outline that go straight on (within the relative
 * tolerance of `size`), and at[] (NULL: none) with them; then a flat turn that
 * reverses is SEPAX_ERR_NONCONVEX (a spike) when a vertex lies clearly outside
 * an edge, else SEPAX_ERR_COLLINEAR (too thin), as are fewer than 3 left. */
sepax_status sepax_points_drop_straight(pt *p, int *at, int *n, double size);

/* The outward (right-hand) unit normal of the edge from (x0, y0) to
 * (x1, y1) and its plane offset, in float, robust to tiny and huge edges. */
void sepax_edge_plane(float x0, float y0, float x1, float y1, float *nx, float *ny, float *c);

/* The sign of the turn a -> b -> c, (b - a) x (c - a): 1 left, -1 right, 0 straight, exactly
 * (hull.c). */
int sepax_turn_sign(sepax_vec2 a, sepax_vec2 b, sepax_vec2 c);

/* Validate user points and build the kernel record: counter-clockwise,
 * welded, without straight-through vertices, padded, with edge planes.
 * Writes *rec and *nverts only on SEPAX_OK. */
sepax_status sepax_polygon_build(const sepax_vec2 *points, int count, sepax_poly_rec *rec,
                                 uint8_t *nverts);

#endif
