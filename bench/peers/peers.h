/* The peers sepax-bench-peers times, behind a C interface (Box2D is C++). Each builds its own
 * copy of a sepax store's shapes (local vertices and poses, sharp) and runs its narrowphase
 * on a pair list, writing one result per pair into its own output array. */
#ifndef SEPAX_BENCH_PEERS_H
#define SEPAX_BENCH_PEERS_H

#include "sepax.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Box2D 2.4: b2PolygonShape (m_radius 0) and b2Transform per shape. */
typedef struct peer_box2d peer_box2d;
/* NULL when out of memory, or when a shape is not a sharp polygon. *hull_differs counts the
 * shapes whose Box2D hull (b2PolygonShape::Set welds and reorders) is not sepax's vertices. */
peer_box2d *peer_box2d_create(const sepax_shapes *store, size_t pairs, size_t *hull_differs);
void peer_box2d_destroy(peer_box2d *p);
/* b2CollidePolygons on every pair into a b2Manifold each (world = 1: then
 * b2WorldManifold::Initialize as well, for the world points and separations sepax gives). */
void peer_box2d_run(peer_box2d *p, const sepax_pair *pairs, size_t n, int world);
/* Of the last run's n results: pairs with at least one point, and points in all. */
void peer_box2d_count(const peer_box2d *p, size_t n, size_t *touching, size_t *points);
/* b2TimeOfImpact per pair, A still and B moving by vel_b[i] (no rotation), tMax 1. */
void peer_box2d_sweep(peer_box2d *p, const sepax_pair *pairs, size_t n, const sepax_vec2 *vel_b);
/* Of the last sweep's n: touching or overlapped (hits), and e_failed. */
void peer_box2d_sweep_count(const peer_box2d *p, size_t n, size_t *hits, size_t *failed);
/* b2PolygonShape::RayCast of ray i (p1 = origin, p2 = origin + direction) against ids[i]. */
void peer_box2d_raycast(peer_box2d *p, const sepax_ray *rays, const uint32_t *ids, size_t n);
size_t peer_box2d_raycast_count(const peer_box2d *p, size_t n);

/* Chipmunk 7: cpPolyShape (radius 0) per shape, world data cached once from the pose. */
typedef struct peer_chipmunk peer_chipmunk;
peer_chipmunk *peer_chipmunk_create(const sepax_shapes *store, size_t pairs);
void peer_chipmunk_destroy(peer_chipmunk *p);
/* cpShapesCollide on every pair into a cpContactPointSet each. */
void peer_chipmunk_run(peer_chipmunk *p, const sepax_pair *pairs, size_t n);
void peer_chipmunk_count(const peer_chipmunk *p, size_t n, size_t *touching, size_t *points);

#ifdef __cplusplus
}
#endif

#endif
