/* What the reference's manifold (reference_manifold.c) shares with its
 * collide (reference.c); nothing here is shared with the SIMD kernels. */
#ifndef SEPAX_REFERENCE_H
#define SEPAX_REFERENCE_H

#include "sepax_ref.h"

/* Axis numbers of an answer: plane i of a is i, plane k of b is
 * SEPAX_MAX_VERTS + k, the closest-vertices axis this. */
#define SEPAX_REF_VERTEX_AXIS (2 * SEPAX_MAX_VERTS)

typedef struct sepax_ref_answer {
    float sep;         /* signed separation, radii included */
    sepax_vec2 normal; /* from a to b */
    int axis;          /* the axis that gave the normal */
} sepax_ref_answer;

/* A pair's SAT answer, the reference's way. */
sepax_ref_answer sepax_ref_pair_answer(const sepax_shape_view *a, const sepax_shape_view *b,
                                       float margin);

/* (x, y) / |(x, y)|, or (1, 0) for the zero vector: a vector whose squared length is below the
 * least normal float (shorter than about 1e-19) is scaled by 2^64 first, exactly, since a
 * subnormal's square root is too coarse to divide by; (1, 0) if it is still not normal. The
 * closest-vertices axis of collide and of sweeps. */
sepax_vec2 sepax_ref_unit(float x, float y);

/* SEPAX_ERR_STALE_WORLD while a lazy frame's records lag (sepax_shapes_view refuses), else
 * SEPAX_OK: what a reference call returns, after its other checks, before reading a shape. */
sepax_status sepax_ref_world_current(const sepax_shapes *store);

/* The argument checks of the reference's pair queries (the library's order); velocity_a and
 * velocity_b are a sweep's (NULL for the other queries and for no motion), which the output
 * must not share memory with, as the pairs. */
sepax_status sepax_ref_check_pairs(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                                   const void *out, size_t out_size, size_t out_align,
                                   const sepax_query_options *opt, float *margin,
                                   const sepax_vec2 *velocity_a, const sepax_vec2 *velocity_b);

#endif
