/* The scalar reference: textbook SAT, one pair at a time, over every edge
 * normal of both polygons. It reads the store only through the public view
 * and shares no code with the SIMD kernels, so a bug has to be made twice to
 * go unseen. Its arithmetic is the kernels' on purpose (the one-sided form:
 * for each plane of one shape, the least projection of the other shape's
 * vertices minus the plane offset), because a different but equally correct
 * formula rounds differently and could not be compared bit for bit. */
#include <stdint.h>

#include "sepax_ref.h"

/* How far `b` lies outside edge i of `a`: negative when b crosses the edge's
 * line. The projection minimum uses `d < m ? d : m`, the operand order of the
 * SIMD min instructions. */
static float edge_separation(const sepax_polygon_view *a, const sepax_polygon_view *b, int i) {
    float m = a->nx[i] * b->x[0] + a->ny[i] * b->y[0];
    for (int j = 1; j < b->count; j++) {
        float d = a->nx[i] * b->x[j] + a->ny[i] * b->y[j];
        m = d < m ? d : m;
    }
    return m - a->c[i];
}

static int polygons_overlap(const sepax_polygon_view *a, const sepax_polygon_view *b) {
    for (int i = 0; i < a->count; i++)
        if (edge_separation(a, b, i) > 0.0f) return 0;
    for (int k = 0; k < b->count; k++)
        if (edge_separation(b, a, k) > 0.0f) return 0;
    return 1; /* no separating axis; touching (separation 0) counts */
}

static sepax_hit polygons_collide(const sepax_polygon_view *a, const sepax_polygon_view *b) {
    float best = edge_separation(a, b, 0);
    int axis = 0;
    for (int i = 1; i < a->count; i++) {
        float s = edge_separation(a, b, i);
        if (s > best) { /* strict: the lowest index keeps a tie */
            best = s;
            axis = i;
        }
    }
    for (int k = 0; k < b->count; k++) {
        float s = edge_separation(b, a, k);
        if (s > best) {
            best = s;
            axis = SEPAX_MAX_VERTS + k;
        }
    }
    sepax_hit h = {0, {0.0f, 0.0f}, 0.0f};
    if (best <= 0.0f) {
        h.hit = 1;
        if (axis < SEPAX_MAX_VERTS) {
            h.normal.x = a->nx[axis];
            h.normal.y = a->ny[axis];
        } else { /* B's outward normal points from B to A: reverse it */
            h.normal.x = 0.0f - b->nx[axis - SEPAX_MAX_VERTS];
            h.normal.y = 0.0f - b->ny[axis - SEPAX_MAX_VERTS];
        }
        h.depth = 0.0f - best; /* 0 - x, not -x: a touching pair reports +0 */
    }
    return h;
}

/* All ids valid and sizes representable, checked before anything is written. */
static sepax_status check_pairs(const sepax_shapes *store, const void *pairs, size_t n,
                                const void *out, size_t out_size) {
    if (!store) return SEPAX_ERR_NULL;
    if (n == 0) return SEPAX_OK;
    if (!pairs || !out) return SEPAX_ERR_NULL;
    if (n > SIZE_MAX / sizeof(sepax_pair) || n > SIZE_MAX / out_size) return SEPAX_ERR_COUNT;
    uint32_t count = sepax_shapes_count(store);
    const sepax_pair *p = pairs;
    for (size_t i = 0; i < n; i++)
        if (p[i].a >= count || p[i].b >= count) return SEPAX_ERR_BAD_ID;
    return SEPAX_OK;
}

sepax_status sepax_ref_overlap(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                               uint8_t *hit) {
    sepax_status st = check_pairs(store, pairs, n, hit, sizeof *hit);
    if (st != SEPAX_OK) return st;
    for (size_t i = 0; i < n; i++) {
        sepax_polygon_view a, b;
        sepax_shapes_view(store, pairs[i].a, &a);
        sepax_shapes_view(store, pairs[i].b, &b);
        hit[i] = (uint8_t)polygons_overlap(&a, &b);
    }
    return SEPAX_OK;
}

sepax_status sepax_ref_collide(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                               sepax_hit *out) {
    sepax_status st = check_pairs(store, pairs, n, out, sizeof *out);
    if (st != SEPAX_OK) return st;
    for (size_t i = 0; i < n; i++) {
        sepax_polygon_view a, b;
        sepax_shapes_view(store, pairs[i].a, &a);
        sepax_shapes_view(store, pairs[i].b, &b);
        out[i] = polygons_collide(&a, &b);
    }
    return SEPAX_OK;
}

sepax_status sepax_ref_overlap_one(const sepax_shapes *store, uint32_t probe, uint32_t first,
                                   size_t count, uint8_t *hit) {
    if (!store) return SEPAX_ERR_NULL;
    uint32_t total = sepax_shapes_count(store);
    if (probe >= total || first > total || count > (size_t)(total - first)) return SEPAX_ERR_BAD_ID;
    if (count == 0) return SEPAX_OK;
    if (!hit) return SEPAX_ERR_NULL;
    sepax_polygon_view a, b;
    sepax_shapes_view(store, probe, &a);
    for (size_t k = 0; k < count; k++) {
        sepax_shapes_view(store, first + (uint32_t)k, &b);
        hit[k] = (uint8_t)polygons_overlap(&a, &b);
    }
    return SEPAX_OK;
}

/* Local to world, written out plainly: rotate then translate each vertex,
 * rotate each normal, put each plane through its vertex, bound the vertices. */
sepax_status sepax_ref_world(const sepax_shapes *store, uint32_t id, sepax_world_polygon *out) {
    if (!store || !out) return SEPAX_ERR_NULL;
    sepax_local_polygon local;
    sepax_pose pose;
    sepax_status st = sepax_shapes_local(store, id, &local);
    if (st != SEPAX_OK) return st;
    sepax_shapes_get_pose(store, id, &pose);
    float c = pose.rotation.c, s = pose.rotation.s;
    out->count = local.count;
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        sepax_vec2 v = local.vertex[k], n = local.normal[k];
        out->x[k] = (c * v.x - s * v.y) + pose.position.x;
        out->y[k] = (s * v.x + c * v.y) + pose.position.y;
        out->nx[k] = c * n.x - s * n.y;
        out->ny[k] = s * n.x + c * n.y;
        out->c[k] = out->nx[k] * out->x[k] + out->ny[k] * out->y[k];
    }
    sepax_aabb box = {{out->x[0], out->y[0]}, {out->x[0], out->y[0]}};
    for (int k = 1; k < SEPAX_MAX_VERTS; k++) {
        box.lower.x = out->x[k] < box.lower.x ? out->x[k] : box.lower.x;
        box.lower.y = out->y[k] < box.lower.y ? out->y[k] : box.lower.y;
        box.upper.x = out->x[k] > box.upper.x ? out->x[k] : box.upper.x;
        box.upper.y = out->y[k] > box.upper.y ? out->y[k] : box.upper.y;
    }
    out->aabb = box;
    return SEPAX_OK;
}
