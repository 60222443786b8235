/* Box2D 2.4 for sepax-bench-peers: b2CollidePolygons on sharp b2PolygonShapes. */
#include <box2d/box2d.h>

#include <new>
#include <vector>

#include "peers.h"

struct peer_box2d {
    std::vector<b2PolygonShape> poly; // by shape index
    std::vector<b2Transform> xf;
    std::vector<b2Manifold> out; // by pair
    std::vector<b2WorldManifold> world;
};

extern "C" peer_box2d *peer_box2d_create(const sepax_shapes *store, size_t pairs,
                                         size_t *hull_differs) {
    peer_box2d *p = new (std::nothrow) peer_box2d;
    if (!p) return nullptr;
    uint32_t count = sepax_shapes_count(store);
    *hull_differs = 0;
    try {
        p->poly.resize(count);
        p->xf.resize(count);
        p->out.resize(pairs);
        p->world.resize(pairs);
    } catch (const std::bad_alloc &) {
        delete p;
        return nullptr;
    }
    for (uint32_t i = 0; i < count; i++) {
        sepax_local_shape local;
        sepax_pose pose;
        uint32_t id = sepax_shapes_id(store, i);
        if (sepax_shapes_local(store, id, &local) != SEPAX_OK ||
            sepax_shapes_get_pose(store, id, &pose) != SEPAX_OK ||
            local.kind != SEPAX_KIND_POLYGON || local.radius != 0.0f) {
            delete p;
            return nullptr;
        }
        b2Vec2 pts[SEPAX_MAX_VERTS];
        for (int k = 0; k < local.count; k++) pts[k].Set(local.vertex[k].x, local.vertex[k].y);
        p->poly[i].Set(pts, local.count);
        p->poly[i].m_radius = 0.0f; // sharp, as sepax's polygons
        *hull_differs += p->poly[i].m_count != local.count;
        p->xf[i].p.Set(pose.position.x, pose.position.y);
        p->xf[i].q.s = pose.rotation.s;
        p->xf[i].q.c = pose.rotation.c;
    }
    return p;
}

extern "C" void peer_box2d_destroy(peer_box2d *p) { delete p; }

extern "C" void peer_box2d_run(peer_box2d *p, const sepax_pair *pairs, size_t n, int world) {
    const b2PolygonShape *poly = p->poly.data();
    const b2Transform *xf = p->xf.data();
    b2Manifold *out = p->out.data();
    // shape index = id & SEPAX_ID_INDEX_MASK (the store is the bench's: ids are indices)
    if (world) {
        b2WorldManifold *wm = p->world.data();
        for (size_t i = 0; i < n; i++) {
            uint32_t a = pairs[i].a & SEPAX_ID_INDEX_MASK, b = pairs[i].b & SEPAX_ID_INDEX_MASK;
            b2CollidePolygons(&out[i], &poly[a], xf[a], &poly[b], xf[b]);
            wm[i].Initialize(&out[i], xf[a], poly[a].m_radius, xf[b], poly[b].m_radius);
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            uint32_t a = pairs[i].a & SEPAX_ID_INDEX_MASK, b = pairs[i].b & SEPAX_ID_INDEX_MASK;
            b2CollidePolygons(&out[i], &poly[a], xf[a], &poly[b], xf[b]);
        }
    }
}

extern "C" void peer_box2d_count(const peer_box2d *p, size_t n, size_t *touching, size_t *points) {
    *touching = *points = 0;
    for (size_t i = 0; i < n; i++) {
        *touching += p->out[i].pointCount > 0;
        *points += (size_t)p->out[i].pointCount;
    }
}
