/* Box2D 2.4 for sepax-bench-frame-peers: b2DynamicTree + b2TestOverlap, see frame_peers.h,
 * at the scale of pixels to metres the caller picks (below). */
#include <box2d/box2d.h>

#include <cmath>
#include <cstdint>
#include <new>
#include <vector>

#include "frame_peers.h"

struct frame_box2d {
    std::vector<b2CircleShape> circle;   // the circles, in index order
    std::vector<b2PolygonShape> polygon; // the polygons, in index order
    std::vector<const b2Shape *> shape;  // by index
    std::vector<sepax_filter> filter;
    std::vector<b2Transform> xf;
    std::vector<b2AABB> aabb; // tight, this frame
    std::vector<int32> proxy;
    std::vector<sepax_pair> candidate, contact;
    b2DynamicTree tree;
    float metres_per_px;  // what Box2D is given for a pixel of the scene
    float half_w, half_h; // a move longer than this (Box2D's units) is a wrap: displacement 0
    uint32_t count;
    uint32_t query; // the shape being queried
    size_t candidates;

    // b2DynamicTree::Query's callback: a pair once (query < other), filters, tight boxes
    bool QueryCallback(int32 proxy_id) {
        uint32_t j = (uint32_t)(uintptr_t)tree.GetUserData(proxy_id);
        uint32_t i = query;
        if (j <= i) return true;
        const sepax_filter &fa = filter[i], &fb = filter[j];
        if ((fa.category & fb.mask) == 0 || (fb.category & fa.mask) == 0) return true;
        if (!b2TestOverlap(aabb[i], aabb[j])) return true;
        candidate.push_back(sepax_pair{i, j});
        return true;
    }
};

/* Box2D is tuned for metres (b2_lengthUnitsPerMeter 1: a proxy's box is fattened by 0.1 and
 * by 4 times its step, and moved only when the shape leaves it), while the scenes are in
 * pixels. `metres_per_px` scales what Box2D is given (1: pixels as they are; 1/32: 32 px a
 * metre, the 1920 x 1080 px field 60 x 33.75 m); a power of two keeps every coordinate,
 * radius and displacement the scene's exactly, every distance Box2D computes the same float
 * times the scale. */
static b2Vec2 metres(const frame_box2d *p, float x, float y) {
    return b2Vec2(x * p->metres_per_px, y * p->metres_per_px);
}

/* the polygons' skin in the scenes' pixels */
extern "C" float frame_box2d_skin(float px_per_metre) { return b2_polygonRadius * px_per_metre; }

extern "C" frame_box2d *frame_box2d_create(const scene *s, int skin, float px_per_metre) {
    frame_box2d *p = new (std::nothrow) frame_box2d;
    if (!p) return nullptr;
    p->metres_per_px = 1.0f / px_per_metre;
    try {
        uint32_t n = scene_count(s);
        p->count = n;
        uint32_t circles = 0;
        for (uint32_t i = 0; i < n; i++) circles += scene_shape_at(s, i)->kind == SEPAX_KIND_CIRCLE;
        p->circle.resize(circles);
        p->polygon.resize(n - circles);
        p->shape.resize(n);
        p->filter.resize(n);
        p->xf.resize(n);
        p->aabb.resize(n);
        p->proxy.resize(n);
        float w, h;
        scene_field(s, &w, &h);
        p->half_w = w / 2 * p->metres_per_px;
        p->half_h = h / 2 * p->metres_per_px;
        uint32_t c = 0, q = 0;
        for (uint32_t i = 0; i < n; i++) {
            const scene_shape *sh = scene_shape_at(s, i);
            if (sh->kind == SEPAX_KIND_CIRCLE) {
                b2CircleShape &b = p->circle[c++];
                b.m_p = metres(p, sh->vertex[0].x, sh->vertex[0].y);
                b.m_radius = sh->radius * p->metres_per_px;
                p->shape[i] = &b;
            } else {
                b2PolygonShape &b = p->polygon[q++];
                b2Vec2 pts[SEPAX_MAX_VERTS];
                for (int k = 0; k < sh->count; k++)
                    pts[k] = metres(p, sh->vertex[k].x, sh->vertex[k].y);
                b.Set(pts, sh->count);
                if (!skin) b.m_radius = 0.0f;
                p->shape[i] = &b;
            }
            p->filter[i] = scene_filter(s, i);
            sepax_pose pose = scene_pose(s, i, 0);
            p->xf[i].p = metres(p, pose.position.x, pose.position.y);
            p->xf[i].q.c = pose.rotation.c;
            p->xf[i].q.s = pose.rotation.s;
            p->shape[i]->ComputeAABB(&p->aabb[i], p->xf[i], 0);
            p->proxy[i] = p->tree.CreateProxy(p->aabb[i], (void *)(uintptr_t)i);
        }
    } catch (const std::bad_alloc &) {
        delete p;
        return nullptr;
    }
    return p;
}

extern "C" void frame_box2d_destroy(frame_box2d *p) { delete p; }

extern "C" void frame_box2d_step(frame_box2d *p, const sepax_pose *poses, frame_peer_result *out) {
    uint32_t n = p->count;
    double t0 = frame_now_ns();
    for (uint32_t i = 0; i < n; i++) {
        b2Transform &xf = p->xf[i];
        b2Vec2 at = metres(p, poses[i].position.x, poses[i].position.y);
        b2Vec2 d = at - xf.p;
        if (std::fabs(d.x) > p->half_w || std::fabs(d.y) > p->half_h) d.SetZero(); // wrapped
        xf.p = at;
        xf.q.c = poses[i].rotation.c;
        xf.q.s = poses[i].rotation.s;
        p->shape[i]->ComputeAABB(&p->aabb[i], xf, 0);
        p->tree.MoveProxy(p->proxy[i], p->aabb[i], d);
    }
    double t1 = frame_now_ns();
    p->candidate.clear();
    for (uint32_t i = 0; i < n; i++) {
        p->query = i;
        p->tree.Query(p, p->aabb[i]);
    }
    double t2 = frame_now_ns();
    p->contact.clear();
    for (const sepax_pair &c : p->candidate)
        if (b2TestOverlap(p->shape[c.a], 0, p->shape[c.b], 0, p->xf[c.a], p->xf[c.b]))
            p->contact.push_back(c);
    double t3 = frame_now_ns();
    out->update_ns = t1 - t0;
    out->broad_ns = t2 - t1;
    out->narrow_ns = t3 - t2;
    out->candidates = p->candidate.size();
    out->contacts = p->contact.size();
    out->pairs = p->contact.data();
    out->candidate = p->candidate.data();
}
