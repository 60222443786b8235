/* The whole-frame peers of sepax-bench-frame-peers, behind a C interface (Box2D is C++).
 * Each keeps its own copy of a scene's shapes and runs a frame the way that engine does:
 * update (transforms and bounding boxes from the poses), broadphase (its own structure,
 * then the scene's filter rule and a bounding-box test: the candidate pairs), narrowphase
 * (its overlap test on every candidate). Contacts come out as pairs of shape indices with
 * a < b, in the peer's own order. */
#ifndef SEPAX_BENCH_FRAME_PEERS_H
#define SEPAX_BENCH_FRAME_PEERS_H

#include <stddef.h>

#include "frame_util.h"
#include "scenes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One frame's results: ns spent in each phase, the candidate pairs, and the contacts
 * (owned by the peer, valid until its next frame). */
typedef struct frame_peer_result {
    double update_ns, broad_ns, narrow_ns;
    size_t candidates;
    size_t contacts;
    const sepax_pair *pairs;     /* contacts[k]: shape indices, a < b */
    const sepax_pair *candidate; /* the candidates (same form) */
} frame_peer_result;

/* Box2D 2.4, given the scene at px_per_metre pixels a metre (a power of two): a b2DynamicTree of
 * the shapes' AABBs (proxies moved each frame with MoveProxy, displacement 0 for a bullet that
 * wrapped), each shape's tight AABB queried against it, b2TestOverlap per candidate. skin 1:
 * polygons keep b2PolygonShape's own radius (b2_polygonRadius), as in an engine; 0: m_radius = 0,
 * the shapes sepax has. */
typedef struct frame_box2d frame_box2d;
frame_box2d *frame_box2d_create(const scene *s, int skin, float px_per_metre);
void frame_box2d_destroy(frame_box2d *p);
void frame_box2d_step(frame_box2d *p, const sepax_pose *poses, frame_peer_result *out);
float frame_box2d_skin(float px_per_metre); /* b2_polygonRadius, in the scene's pixels */

/* Chipmunk 7: cpCircleShape / cpPolyShape (radius 0) per shape on one static body, world
 * data from cpShapeUpdate with the pose, a cpSpaceHash (cell edge `cell`, `cells` buckets)
 * re-indexed and queried with cpSpatialIndexReindexQuery each frame, cpShapesCollide per
 * candidate (a contact when it returns points). */
typedef struct frame_chipmunk frame_chipmunk;
frame_chipmunk *frame_chipmunk_create(const scene *s, double cell, int cells);
void frame_chipmunk_destroy(frame_chipmunk *p);
void frame_chipmunk_step(frame_chipmunk *p, const sepax_pose *poses, frame_peer_result *out);

#ifdef __cplusplus
}
#endif

#endif
