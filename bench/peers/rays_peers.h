/* The closest-hit ray peers of sepax-bench-rays, behind a C interface (Box2D is C++). */
#ifndef SEPAX_BENCH_RAYS_PEERS_H
#define SEPAX_BENCH_RAYS_PEERS_H

#include <stdint.h>

#include "scenes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Box2D 2.4: a b2DynamicTree of the scene's shapes at frame 0 (their tight boxes, inserted
 * in index order, as a game adds them; RebuildBottomUp, quadratic or worse in the shapes,
 * took minutes at 10k), the scene's units as they are (the tree is built once, so its
 * fattening of moving boxes never comes in). Polygons have m_radius 0, the shapes sepax has. */
typedef struct rays_box2d rays_box2d;
rays_box2d *rays_box2d_create(const scene *s);
void rays_box2d_destroy(rays_box2d *p);
/* The closest shape each ray hits (b2DynamicTree::RayCast, its callback clipping the ray to
 * each b2Shape::RayCast hit): index[i] (UINT32_MAX for none), fraction[i]. Box2D reports no
 * hit for a ray that starts inside a shape. */
void rays_box2d_cast(rays_box2d *p, const sepax_ray *rays, uint32_t n, uint32_t *index,
                     float *fraction);

#ifdef __cplusplus
}
#endif

#endif
