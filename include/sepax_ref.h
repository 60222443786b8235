/* sepax scalar reference: the textbook SAT, one pair at a time, every edge
 * normal of both shapes. Slow and obviously correct; the SIMD backends must
 * give the same bits. Same contracts as the functions in sepax.h. */
#ifndef SEPAX_REF_H
#define SEPAX_REF_H

#include "sepax.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reference version of sepax_overlap.
SEPAX_API sepax_status sepax_ref_overlap(const sepax_shapes *store, const sepax_pair *pairs,
                                         size_t n, uint8_t *hit);

/// Reference version of sepax_collide.
SEPAX_API sepax_status sepax_ref_collide(const sepax_shapes *store, const sepax_pair *pairs,
                                         size_t n, sepax_hit *out);

/// Reference version of sepax_overlap_one.
SEPAX_API sepax_status sepax_ref_overlap_one(const sepax_shapes *store, uint32_t probe,
                                             uint32_t first, size_t count, uint8_t *hit);

/// Reference version of sepax_overlap_opt.
SEPAX_API sepax_status sepax_ref_overlap_opt(const sepax_shapes *store, const sepax_pair *pairs,
                                             size_t n, const sepax_query_options *options,
                                             uint8_t *hit);

/// Reference version of sepax_collide_opt.
SEPAX_API sepax_status sepax_ref_collide_opt(const sepax_shapes *store, const sepax_pair *pairs,
                                             size_t n, const sepax_query_options *options,
                                             sepax_hit *out);

/// Reference version of sepax_overlap_one_opt.
SEPAX_API sepax_status sepax_ref_overlap_one_opt(const sepax_shapes *store, uint32_t probe,
                                                 uint32_t first, size_t count,
                                                 const sepax_query_options *options, uint8_t *hit);

/// Reference version of sepax_collide_manifold_opt.
SEPAX_API sepax_status sepax_ref_collide_manifold_opt(const sepax_shapes *store,
                                                      const sepax_pair *pairs, size_t n,
                                                      const sepax_query_options *options,
                                                      sepax_manifold *out);

/// Reference version of sepax_collide_manifold.
SEPAX_API sepax_status sepax_ref_collide_manifold(const sepax_shapes *store,
                                                  const sepax_pair *pairs, size_t n,
                                                  sepax_manifold *out);

/// Reference version of sepax_sweep.
SEPAX_API sepax_status sepax_ref_sweep(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                                       const sepax_vec2 *velocity_a, const sepax_vec2 *velocity_b,
                                       sepax_sweep_hit *out);

/// Reference version of sepax_raycast.
SEPAX_API sepax_status sepax_ref_raycast(const sepax_shapes *store, const sepax_ray *rays,
                                         const uint32_t *shapes, size_t n, sepax_ray_hit *out);

/// Reference version of sepax_raycast_range.
SEPAX_API sepax_status sepax_ref_raycast_range(const sepax_shapes *store, const sepax_ray *ray,
                                               uint32_t first, size_t count, sepax_ray_hit *out);

/// A shape in world coordinates, as the reference computes it.
typedef struct sepax_world_shape {
    int kind;                  ///< a sepax_kind
    float radius;              ///< rounding radius
    int count;                 ///< core vertices
    float x[SEPAX_MAX_VERTS];  ///< vertex x (padded like sepax_shape_view)
    float y[SEPAX_MAX_VERTS];  ///< vertex y
    float nx[SEPAX_MAX_VERTS]; ///< edge normal x
    float ny[SEPAX_MAX_VERTS]; ///< edge normal y
    float c[SEPAX_MAX_VERTS];  ///< plane offset (+Inf for a circle)
    sepax_aabb aabb;           ///< bounding box
} sepax_world_shape;

/// Reference version of what sepax_shapes_update computes for shape `id`, from its local
/// shape and pose: compare with sepax_shapes_view and sepax_shapes_aabb after an update.
/// Errors as sepax_shapes_local's (NULL, then MISALIGNED out, then the id's); nothing written.
SEPAX_API sepax_status sepax_ref_world(const sepax_shapes *store, uint32_t id,
                                       sepax_world_shape *out);

#ifdef __cplusplus
}
#endif

#endif /* SEPAX_REF_H */
