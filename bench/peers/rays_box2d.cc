/* Box2D 2.4 for sepax-bench-rays: b2DynamicTree::RayCast with a closest-hit callback, see
 * rays_peers.h. */
#include <box2d/box2d.h>

#include <cstdint>
#include <new>
#include <vector>

#include "rays_peers.h"

struct rays_box2d {
    std::vector<b2CircleShape> circle;
    std::vector<b2PolygonShape> polygon;
    std::vector<const b2Shape *> shape; // by index
    std::vector<b2Transform> xf;
    b2DynamicTree tree;
    // the ray being cast: its closest hit so far
    uint32_t best;
    float fraction;

    // b2DynamicTree::RayCast's callback: the exact test; returning the hit's fraction clips
    // the ray there (the tree visits no box beyond it), else the ray goes on as it was
    float RayCastCallback(const b2RayCastInput &in, int32 proxy_id) {
        uint32_t i = (uint32_t)(uintptr_t)tree.GetUserData(proxy_id);
        b2RayCastOutput out;
        if (!shape[i]->RayCast(&out, in, xf[i], 0)) return in.maxFraction;
        best = i;
        fraction = out.fraction;
        return out.fraction;
    }
};

extern "C" rays_box2d *rays_box2d_create(const scene *s) {
    rays_box2d *p = new (std::nothrow) rays_box2d;
    if (!p) return nullptr;
    try {
        uint32_t n = scene_count(s), circles = 0;
        for (uint32_t i = 0; i < n; i++) circles += scene_shape_at(s, i)->kind == SEPAX_KIND_CIRCLE;
        p->circle.resize(circles);
        p->polygon.resize(n - circles);
        p->shape.resize(n);
        p->xf.resize(n);
        uint32_t c = 0, q = 0;
        for (uint32_t i = 0; i < n; i++) {
            const scene_shape *sh = scene_shape_at(s, i);
            if (sh->kind == SEPAX_KIND_CIRCLE) {
                b2CircleShape &b = p->circle[c++];
                b.m_p.Set(sh->vertex[0].x, sh->vertex[0].y);
                b.m_radius = sh->radius;
                p->shape[i] = &b;
            } else {
                b2PolygonShape &b = p->polygon[q++];
                b2Vec2 pts[SEPAX_MAX_VERTS];
                for (int k = 0; k < sh->count; k++) pts[k].Set(sh->vertex[k].x, sh->vertex[k].y);
                b.Set(pts, sh->count);
                b.m_radius = 0.0f;
                p->shape[i] = &b;
            }
            sepax_pose pose = scene_pose(s, i, 0);
            p->xf[i].p.Set(pose.position.x, pose.position.y);
            p->xf[i].q.c = pose.rotation.c;
            p->xf[i].q.s = pose.rotation.s;
            b2AABB box;
            p->shape[i]->ComputeAABB(&box, p->xf[i], 0);
            p->tree.CreateProxy(box, (void *)(uintptr_t)i);
        }
    } catch (const std::bad_alloc &) {
        delete p;
        return nullptr;
    }
    return p;
}

extern "C" void rays_box2d_destroy(rays_box2d *p) { delete p; }

extern "C" void rays_box2d_cast(rays_box2d *p, const sepax_ray *rays, uint32_t n, uint32_t *index,
                                float *fraction) {
    for (uint32_t k = 0; k < n; k++) {
        const sepax_ray &r = rays[k];
        b2RayCastInput in;
        in.p1.Set(r.origin.x, r.origin.y);
        in.p2.Set(r.origin.x + r.direction.x, r.origin.y + r.direction.y);
        in.maxFraction = r.max_fraction;
        p->best = UINT32_MAX;
        p->fraction = 0.0f;
        p->tree.RayCast(p, in);
        index[k] = p->best;
        fraction[k] = p->fraction;
    }
}
