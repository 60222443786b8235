#ifndef SEPAX_POLYGON_H
#define SEPAX_POLYGON_H

#include "store.h"

/* Validate user points and build the kernel record: counter-clockwise,
 * welded, without straight-through vertices, padded, with edge planes.
 * Writes *rec and *nverts only on SEPAX_OK. */
sepax_status sepax_polygon_build(const sepax_vec2 *points, int count, sepax_poly_rec *rec,
                                 uint8_t *nverts);

#endif
