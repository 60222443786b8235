/* sepax_hull: the hull of a point set, never truncated, always a polygon
 * the store accepts. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "sepax.h"
#include "workload.h"

#define MARK 0x77

static int inside(const sepax_vec2 *hull, int n, sepax_vec2 q, double tol) {
    for (int i = 0; i < n; i++) {
        sepax_vec2 a = hull[i], b = hull[(i + 1) % n];
        double cross =
            ((double)b.x - a.x) * ((double)q.y - a.y) - ((double)b.y - a.y) * ((double)q.x - a.x);
        if (cross < -tol * hypot((double)b.x - a.x, (double)b.y - a.y)) return 0;
    }
    return 1;
}

Test(hull, square_with_inner_and_edge_points) {
    sepax_vec2 pts[] = {{1, 1}, {0, 0}, {2, 2}, {2, 0}, {0.5f, 0.5f},
                        {0, 2}, {1, 0}, {2, 1}, {0, 2}};
    sepax_vec2 out[8];
    int n = 0;
    cr_assert(sepax_hull(pts, 9, out, &n) == SEPAX_OK);
    cr_assert(n == 4, "n = %d", n);
    sepax_vec2 want[4] = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
    for (int i = 0; i < 4; i++)
        cr_expect(out[i].x == want[i].x && out[i].y == want[i].y, "vertex %d (%g,%g)", i, out[i].x,
                  out[i].y);
}

Test(hull, recovers_a_convex_polygon_from_points_inside_it) {
    wl_rng r = {42};
    for (int trial = 0; trial < 500; trial++) {
        int nv = wl_range(&r, 3, 8);
        sepax_vec2 pts[300];
        for (int k = 0; k < nv; k++) { /* a convex polygon: one vertex per sector */
            float a = 6.2831853f * ((float)k + 0.2f + 0.6f * wl_unit(&r)) / (float)nv;
            pts[k] = (sepax_vec2){10 * cosf(a), 10 * sinf(a)};
        }
        int total = nv;
        for (; total < 300; total++) { /* and points inside it: convex combinations */
            int i = wl_range(&r, 0, nv - 1), j = wl_range(&r, 0, nv - 1),
                k = wl_range(&r, 0, nv - 1);
            float u = wl_unit(&r), v = wl_unit(&r) * (1 - u);
            pts[total] = (sepax_vec2){u * pts[i].x + v * pts[j].x + (1 - u - v) * pts[k].x,
                                      u * pts[i].y + v * pts[j].y + (1 - u - v) * pts[k].y};
        }
        for (int s = total - 1; s > 0; s--) { /* shuffle */
            int t = wl_range(&r, 0, s);
            sepax_vec2 tmp = pts[s];
            pts[s] = pts[t];
            pts[t] = tmp;
        }
        sepax_vec2 out[8];
        int n = 0;
        cr_assert(sepax_hull(pts, total, out, &n) == SEPAX_OK, "trial %d", trial);
        cr_expect(n == nv, "trial %d: %d vertices, want %d", trial, n, nv);
        for (int i = 0; i < total; i++)
            cr_expect(inside(out, n, pts[i], 1e-4), "trial %d point %d outside", trial, i);
        sepax_shapes *s = sepax_shapes_create(1);
        uint32_t id;
        cr_expect(sepax_shapes_add_polygon(s, out, n, &id) == SEPAX_OK);
        sepax_shape_view view;
        sepax_shapes_view(s, 0, &view);
        cr_expect(view.count == n, "the store kept every hull vertex");
        sepax_shapes_destroy(s);
    }
}

Test(hull, more_than_eight_vertices_is_an_error_not_a_truncation) {
    sepax_vec2 pts[12], out[9];
    for (int i = 0; i < 12; i++) pts[i] = (sepax_vec2){cosf(0.5235988f * i), sinf(0.5235988f * i)};
    memset(out, MARK, sizeof out);
    int n = -5;
    cr_expect(sepax_hull(pts, 12, out, &n) == SEPAX_ERR_TOO_MANY_VERTS);
    cr_expect(n == -5);
    const uint8_t *bytes = (const uint8_t *)out;
    for (size_t i = 0; i < sizeof out; i++) cr_assert(bytes[i] == MARK, "out written on error");
}

Test(hull, bad_inputs) {
    sepax_vec2 line[5] = {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {1.5f, 1.5f}};
    sepax_vec2 same[4] = {{1, 1}, {1, 1}, {1, 1}, {1, 1}};
    sepax_vec2 two[4] = {{0, 0}, {5, 5}, {0, 0}, {5, 5}};
    sepax_vec2 nan_pt[3] = {{0, 0}, {1, NAN}, {0, 1}};
    sepax_vec2 far_pt[3] = {{0, 0}, {1, 0}, {0, 2e18f}};
    sepax_vec2 many[SEPAX_HULL_MAX_POINTS + 1] = {{0, 0}};
    sepax_vec2 out[8];
    int n = 0;
    cr_expect(sepax_hull(line, 5, out, &n) == SEPAX_ERR_COLLINEAR);
    cr_expect(sepax_hull(same, 4, out, &n) == SEPAX_ERR_TOO_FEW_POINTS);
    cr_expect(sepax_hull(two, 4, out, &n) == SEPAX_ERR_TOO_FEW_POINTS);
    cr_expect(sepax_hull(nan_pt, 3, out, &n) == SEPAX_ERR_NONFINITE);
    cr_expect(sepax_hull(far_pt, 3, out, &n) == SEPAX_ERR_RANGE);
    cr_expect(sepax_hull(many, SEPAX_HULL_MAX_POINTS + 1, out, &n) == SEPAX_ERR_COUNT);
    cr_expect(sepax_hull(line, -1, out, &n) == SEPAX_ERR_COUNT);
    cr_expect(sepax_hull(line, 2, out, &n) == SEPAX_ERR_TOO_FEW_POINTS);
    cr_expect(sepax_hull(NULL, 3, out, &n) == SEPAX_ERR_NULL);
    cr_expect(sepax_hull(line, 3, NULL, &n) == SEPAX_ERR_NULL);
    cr_expect(sepax_hull(line, 3, out, NULL) == SEPAX_ERR_NULL);
    cr_expect(n == 0, "no error wrote the count");
}

Test(hull, welds_points_closer_than_the_tolerance) {
    float e = 1e-7f; /* far below 2^-20 of the size 1 */
    sepax_vec2 pts[6] = {{0, 0}, {e, 0}, {1, 0}, {1, 1}, {1 - e, 1}, {0, 1}};
    sepax_vec2 out[8];
    int n = 0;
    cr_assert(sepax_hull(pts, 6, out, &n) == SEPAX_OK);
    cr_expect(n == 4, "n = %d", n);
}
