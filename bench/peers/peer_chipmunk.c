/* Chipmunk 7 for sepax-bench-peers: cpShapesCollide on sharp cpPolyShapes. */
#include <chipmunk/chipmunk.h>
#include <stdlib.h>

#include "peers.h"

struct peer_chipmunk {
    cpBody *body;           /* one static body; each shape's world data comes from its pose */
    cpShape **shape;        /* by shape index */
    uint32_t count;         /* shapes */
    cpContactPointSet *out; /* by pair */
};

void peer_chipmunk_destroy(peer_chipmunk *p) {
    if (!p) return;
    for (uint32_t i = 0; i < p->count; i++)
        if (p->shape[i]) cpShapeFree(p->shape[i]);
    if (p->body) cpBodyFree(p->body);
    free(p->shape);
    free(p->out);
    free(p);
}

peer_chipmunk *peer_chipmunk_create(const sepax_shapes *store, size_t pairs) {
    peer_chipmunk *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    uint32_t count = sepax_shapes_count(store);
    p->shape = calloc(count ? count : 1, sizeof *p->shape);
    p->out = malloc((pairs ? pairs : 1) * sizeof *p->out);
    p->body = cpBodyNewStatic();
    if (!p->shape || !p->out || !p->body) {
        peer_chipmunk_destroy(p);
        return NULL;
    }
    for (uint32_t i = 0; i < count; i++) {
        sepax_local_shape local;
        sepax_pose pose;
        uint32_t id = sepax_shapes_id(store, i);
        if (sepax_shapes_local(store, id, &local) != SEPAX_OK ||
            sepax_shapes_get_pose(store, id, &pose) != SEPAX_OK ||
            local.kind != SEPAX_KIND_POLYGON || local.radius != 0.0f) {
            peer_chipmunk_destroy(p);
            return NULL;
        }
        cpVect v[SEPAX_MAX_VERTS];
        for (int k = 0; k < local.count; k++) v[k] = cpv(local.vertex[k].x, local.vertex[k].y);
        /* Raw: the vertices as they are (sepax's are convex and CCW already), radius 0 */
        p->shape[i] = cpPolyShapeNewRaw(p->body, local.count, v, 0.0);
        if (!p->shape[i]) {
            peer_chipmunk_destroy(p);
            return NULL;
        }
        p->count = i + 1;
        /* world = rotation * local + position, the pose's own cosine and sine */
        cpFloat c = pose.rotation.c, s = pose.rotation.s;
        cpShapeUpdate(p->shape[i], cpTransformNew(c, s, -s, c, pose.position.x, pose.position.y));
    }
    return p;
}

void peer_chipmunk_run(peer_chipmunk *p, const sepax_pair *pairs, size_t n) {
    cpShape *const *shape = p->shape;
    cpContactPointSet *out = p->out;
    for (size_t i = 0; i < n; i++)
        out[i] = cpShapesCollide(shape[pairs[i].a & SEPAX_ID_INDEX_MASK],
                                 shape[pairs[i].b & SEPAX_ID_INDEX_MASK]);
}

void peer_chipmunk_count(const peer_chipmunk *p, size_t n, size_t *touching, size_t *points) {
    *touching = *points = 0;
    for (size_t i = 0; i < n; i++) {
        *touching += p->out[i].count > 0;
        *points += (size_t)p->out[i].count;
    }
}
