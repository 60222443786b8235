/* Chipmunk 7 for sepax-bench-frame-peers: cpSpaceHash + cpShapesCollide, see frame_peers.h. */
#include <chipmunk/chipmunk.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "frame_peers.h"

typedef struct pair_vec {
    sepax_pair *v;
    size_t n, cap;
} pair_vec;

struct frame_chipmunk {
    cpBody *body;
    cpShape **shape; /* by index */
    sepax_filter *filter;
    uint32_t count;
    cpSpatialIndex *hash;
    pair_vec candidate, contact;
};

static void push(pair_vec *v, uint32_t a, uint32_t b) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 4096;
        sepax_pair *p = realloc(v->v, cap * sizeof *p);
        if (!p) {
            fprintf(stderr, "sepax-bench-frame-peers: out of memory\n");
            exit(1);
        }
        v->v = p;
        v->cap = cap;
    }
    v->v[v->n++] = (sepax_pair){a, b};
}

static cpBB shape_bb(void *obj) { return cpShapeGetBB((cpShape *)obj); }

void frame_chipmunk_destroy(frame_chipmunk *p) {
    if (!p) return;
    if (p->hash) cpSpatialIndexFree(p->hash);
    for (uint32_t i = 0; i < p->count; i++)
        if (p->shape[i]) cpShapeFree(p->shape[i]);
    if (p->body) cpBodyFree(p->body);
    free(p->shape);
    free(p->filter);
    free(p->candidate.v);
    free(p->contact.v);
    free(p);
}

frame_chipmunk *frame_chipmunk_create(const scene *s, double cell, int cells) {
    frame_chipmunk *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    uint32_t n = scene_count(s);
    p->shape = calloc(n, sizeof *p->shape);
    p->filter = malloc(n * sizeof *p->filter);
    p->body = cpBodyNewStatic();
    p->hash = cpSpaceHashNew(cell, cells, shape_bb, NULL);
    if (!p->shape || !p->filter || !p->body || !p->hash) {
        frame_chipmunk_destroy(p);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        const scene_shape *sh = scene_shape_at(s, i);
        if (sh->kind == SEPAX_KIND_CIRCLE) {
            p->shape[i] =
                cpCircleShapeNew(p->body, sh->radius, cpv(sh->vertex[0].x, sh->vertex[0].y));
        } else {
            cpVect v[SEPAX_MAX_VERTS];
            for (int k = 0; k < sh->count; k++) v[k] = cpv(sh->vertex[k].x, sh->vertex[k].y);
            p->shape[i] = cpPolyShapeNewRaw(p->body, sh->count, v, 0.0);
        }
        if (!p->shape[i]) {
            frame_chipmunk_destroy(p);
            return NULL;
        }
        p->count = i + 1;
        p->filter[i] = scene_filter(s, i);
        cpShapeSetUserData(p->shape[i], (cpDataPointer)(uintptr_t)i);
        sepax_pose q = scene_pose(s, i, 0);
        cpFloat c = q.rotation.c, sn = q.rotation.s;
        cpShapeUpdate(p->shape[i], cpTransformNew(c, sn, -sn, c, q.position.x, q.position.y));
        cpSpatialIndexInsert(p->hash, p->shape[i], (cpHashValue)i + 1);
    }
    return p;
}

/* the hash's pairs: filters, then the boxes (cpSpace's own QueryReject does the same) */
static cpCollisionID pair_cb(void *obj1, void *obj2, cpCollisionID id, void *data) {
    frame_chipmunk *p = data;
    cpShape *a = obj1, *b = obj2;
    uint32_t i = (uint32_t)(uintptr_t)cpShapeGetUserData(a);
    uint32_t j = (uint32_t)(uintptr_t)cpShapeGetUserData(b);
    sepax_filter fa = p->filter[i], fb = p->filter[j];
    if ((fa.category & fb.mask) == 0 || (fb.category & fa.mask) == 0) return id;
    if (!cpBBIntersects(cpShapeGetBB(a), cpShapeGetBB(b))) return id;
    push(&p->candidate, i < j ? i : j, i < j ? j : i);
    return id;
}

void frame_chipmunk_step(frame_chipmunk *p, const sepax_pose *poses, frame_peer_result *out) {
    uint32_t n = p->count;
    double t0 = frame_now_ns();
    for (uint32_t i = 0; i < n; i++) {
        cpFloat c = poses[i].rotation.c, s = poses[i].rotation.s;
        cpShapeUpdate(p->shape[i],
                      cpTransformNew(c, s, -s, c, poses[i].position.x, poses[i].position.y));
    }
    double t1 = frame_now_ns();
    p->candidate.n = 0;
    cpSpatialIndexReindexQuery(p->hash, pair_cb, p);
    double t2 = frame_now_ns();
    p->contact.n = 0;
    for (size_t k = 0; k < p->candidate.n; k++) {
        sepax_pair c = p->candidate.v[k];
        cpContactPointSet set = cpShapesCollide(p->shape[c.a], p->shape[c.b]);
        if (set.count > 0) push(&p->contact, c.a, c.b);
    }
    double t3 = frame_now_ns();
    out->update_ns = t1 - t0;
    out->broad_ns = t2 - t1;
    out->narrow_ns = t3 - t2;
    out->candidates = p->candidate.n;
    out->contacts = p->contact.n;
    out->pairs = p->contact.v;
    out->candidate = p->candidate.v;
}
