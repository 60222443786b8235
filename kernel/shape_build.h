/* Turning what a caller passes for each kind into one local description the
 * store keeps: a core of 1..8 vertices with planes, and a radius. */
#ifndef SEPAX_SHAPE_BUILD_H
#define SEPAX_SHAPE_BUILD_H

#include "store.h"

typedef struct sepax_shape_src {
    uint8_t kind, nverts, nplanes;
    float radius;
    /* padded like sepax_poly_rec: past the real count, the last one repeated */
    float x[SEPAX_MAX_VERTS], y[SEPAX_MAX_VERTS];
    float nx[SEPAX_MAX_VERTS], ny[SEPAX_MAX_VERTS];
} sepax_shape_src;

/* Each writes *out only on SEPAX_OK. */
sepax_status sepax_build_polygon(const sepax_vec2 *points, int count, float radius,
                                 sepax_shape_src *out);
sepax_status sepax_build_circle(sepax_vec2 center, float radius, sepax_shape_src *out);
sepax_status sepax_build_capsule(sepax_vec2 p0, sepax_vec2 p1, float radius, sepax_shape_src *out);
sepax_status sepax_build_box(float half_width, float half_height, sepax_shape_src *out);

#endif
