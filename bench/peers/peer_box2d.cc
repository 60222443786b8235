/* Box2D 2.4 for sepax-bench-peers: b2CollidePolygons, b2TimeOfImpact and
 * b2PolygonShape::RayCast on sharp b2PolygonShapes. */
#include <box2d/b2_distance.h>
#include <box2d/b2_time_of_impact.h>
#include <box2d/box2d.h>

#include <cmath>
#include <new>
#include <vector>

#include "peers.h"

struct peer_box2d {
    std::vector<b2PolygonShape> poly; // by shape index
    std::vector<b2Transform> xf;
    std::vector<b2Manifold> out; // by pair
    std::vector<b2WorldManifold> world;
    std::vector<b2DistanceProxy> proxy; // by shape index, for b2TimeOfImpact
    std::vector<float> angle;           // the pose's rotation as b2Sweep wants it
    std::vector<b2TOIOutput> toi;       // by pair
    std::vector<b2RayCastOutput> ray;   // by ray
    std::vector<unsigned char> ray_hit;
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
        p->proxy.resize(count);
        p->angle.resize(count);
        p->toi.resize(pairs);
        p->ray.resize(pairs);
        p->ray_hit.resize(pairs);
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
        p->angle[i] = std::atan2(pose.rotation.s, pose.rotation.c);
    }
    for (uint32_t i = 0; i < count; i++) p->proxy[i].Set(&p->poly[i], 0); // poly no longer moves
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

extern "C" void peer_box2d_sweep(peer_box2d *p, const sepax_pair *pairs, size_t n,
                                 const sepax_vec2 *vel_b) {
    b2TOIInput in;
    in.tMax = 1.0f;
    for (size_t i = 0; i < n; i++) {
        uint32_t a = pairs[i].a & SEPAX_ID_INDEX_MASK, b = pairs[i].b & SEPAX_ID_INDEX_MASK;
        in.proxyA = p->proxy[a];
        in.proxyB = p->proxy[b];
        in.sweepA.localCenter.SetZero();
        in.sweepA.c0 = in.sweepA.c = p->xf[a].p;
        in.sweepA.a0 = in.sweepA.a = p->angle[a];
        in.sweepA.alpha0 = 0.0f;
        in.sweepB.localCenter.SetZero();
        in.sweepB.c0 = p->xf[b].p;
        in.sweepB.c = p->xf[b].p + b2Vec2(vel_b[i].x, vel_b[i].y);
        in.sweepB.a0 = in.sweepB.a = p->angle[b];
        in.sweepB.alpha0 = 0.0f;
        b2TimeOfImpact(&p->toi[i], &in);
    }
}

extern "C" void peer_box2d_sweep_count(const peer_box2d *p, size_t n, size_t *hits,
                                       size_t *failed) {
    *hits = *failed = 0;
    for (size_t i = 0; i < n; i++) {
        b2TOIOutput::State st = p->toi[i].state;
        *hits += st == b2TOIOutput::e_touching || st == b2TOIOutput::e_overlapped;
        *failed += st == b2TOIOutput::e_failed;
    }
}

extern "C" void peer_box2d_raycast(peer_box2d *p, const sepax_ray *rays, const uint32_t *ids,
                                   size_t n) {
    b2RayCastInput in;
    for (size_t i = 0; i < n; i++) {
        uint32_t s = ids[i] & SEPAX_ID_INDEX_MASK;
        in.p1.Set(rays[i].origin.x, rays[i].origin.y);
        in.p2.Set(rays[i].origin.x + rays[i].direction.x, rays[i].origin.y + rays[i].direction.y);
        in.maxFraction = rays[i].max_fraction;
        p->ray_hit[i] = p->poly[s].RayCast(&p->ray[i], in, p->xf[s], 0);
    }
}

extern "C" size_t peer_box2d_raycast_count(const peer_box2d *p, size_t n) {
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) hits += p->ray_hit[i];
    return hits;
}
