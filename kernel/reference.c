/* The scalar reference: textbook SAT, one pair at a time, each pair of kinds
 * in its own plain way. It reads the store only through the public API and
 * shares no code with the SIMD kernels, so a bug has to be made twice to go
 * unseen. Its arithmetic is the kernels' on purpose (the one-sided form: for
 * each plane of one shape, the least projection of the other shape's
 * vertices minus the plane offset), because a different but equally correct
 * formula rounds differently and could not be compared bit for bit.
 *
 * Curved shapes (circles, capsules, rounded polygons) are a core grown by a
 * radius: their separation is the cores' minus both radii. Edge normals are
 * enough for two sharp polygons; as soon as one shape is curved, the axis
 * from the closest pair of core vertices joins them (for a circle and a
 * polygon: from the centre to the nearest vertex), which makes the test
 * exact. A positive margin asks how far apart shapes are, which for two
 * sharp polygons needs that axis too. */
#include <math.h>
#include <stdint.h>

#include "aliasing.h"
#include "kernel.h"
#include "misaligned.h"
#include "reference.h"

typedef sepax_ref_answer answer;

/* How far `b` lies outside plane i of `a`: negative when b crosses it. The
 * projection minimum uses `d < m ? d : m`, the operand order of the SIMD min
 * instructions. */
static float plane_separation(const sepax_shape_view *a, const sepax_shape_view *b, int i) {
    float m = a->nx[i] * b->x[0] + a->ny[i] * b->y[0];
    for (int j = 1; j < b->count; j++) {
        float d = a->nx[i] * b->x[j] + a->ny[i] * b->y[j];
        m = d < m ? d : m;
    }
    return m - a->c[i];
}

sepax_vec2 sepax_ref_unit(float x, float y) {
    float d2 = x * x + y * y;
    if (d2 < 0x1p-126f) {
        x *= 0x1p64f;
        y *= 0x1p64f;
        d2 = x * x + y * y;
    }
    sepax_vec2 u = {1.0f, 0.0f};
    if (d2 >= 0x1p-126f) {
        float d = sqrtf(d2);
        u.x = x / d;
        u.y = y / d;
    }
    return u;
}

/* The unit axis from a's to b's closest core vertices (the first such pair,
 * a's vertex index first), (1, 0) when they coincide (sepax_ref_unit). */
static sepax_vec2 closest_vertices_axis(const sepax_shape_view *a, const sepax_shape_view *b) {
    float best = 0.0f, bdx = 0.0f, bdy = 0.0f;
    for (int i = 0; i < a->count; i++) {
        for (int j = 0; j < b->count; j++) {
            float dx = b->x[j] - a->x[i], dy = b->y[j] - a->y[i];
            float d2 = dx * dx + dy * dy;
            if ((i == 0 && j == 0) || d2 < best) {
                best = d2;
                bdx = dx;
                bdy = dy;
            }
        }
    }
    return sepax_ref_unit(bdx, bdy);
}

/* b's least projection on u minus a's greatest. */
static float axis_separation(const sepax_shape_view *a, const sepax_shape_view *b, sepax_vec2 u) {
    float hi = u.x * a->x[0] + u.y * a->y[0];
    for (int i = 1; i < a->count; i++) {
        float p = u.x * a->x[i] + u.y * a->y[i];
        hi = p > hi ? p : hi;
    }
    float lo = u.x * b->x[0] + u.y * b->y[0];
    for (int j = 1; j < b->count; j++) {
        float p = u.x * b->x[j] + u.y * b->y[j];
        lo = p < lo ? p : lo;
    }
    return lo - hi;
}

/* Two circles: the axis through the centres, the circles' extents on it. */
static answer circles(const sepax_shape_view *a, const sepax_shape_view *b) {
    answer r;
    r.axis = SEPAX_REF_VERTEX_AXIS;
    r.normal = closest_vertices_axis(a, b);
    float pa = r.normal.x * a->x[0] + r.normal.y * a->y[0];
    float pb = r.normal.x * b->x[0] + r.normal.y * b->y[0];
    r.sep = (pb - pa) - (a->radius + b->radius);
    return r;
}

/* Everything else: the largest separation over a's planes, b's planes and,
 * when asked, the closest-vertices axis; ties keep the first in that order. */
static answer planes_and_vertices(const sepax_shape_view *a, const sepax_shape_view *b,
                                  int vertex_axis) {
    float best = -INFINITY;
    int axis = 0;
    for (int i = 0; i < a->planes; i++) {
        float s = plane_separation(a, b, i);
        if (s > best) {
            best = s;
            axis = i;
        }
    }
    for (int k = 0; k < b->planes; k++) {
        float s = plane_separation(b, a, k);
        if (s > best) {
            best = s;
            axis = SEPAX_MAX_VERTS + k;
        }
    }
    sepax_vec2 u = {0.0f, 0.0f};
    if (vertex_axis) {
        u = closest_vertices_axis(a, b);
        float s = axis_separation(a, b, u);
        if (s > best) {
            best = s;
            axis = SEPAX_REF_VERTEX_AXIS;
        }
    }
    answer r;
    r.axis = axis;
    if (axis < SEPAX_MAX_VERTS) {
        r.normal = (sepax_vec2){a->nx[axis], a->ny[axis]};
    } else if (axis <
               SEPAX_REF_VERTEX_AXIS) { /* b's outward normal points from b to a: reverse it */
        r.normal = (sepax_vec2){0.0f - b->nx[axis - SEPAX_MAX_VERTS],
                                0.0f - b->ny[axis - SEPAX_MAX_VERTS]};
    } else {
        r.normal = u;
    }
    /* two sharp polygons have no radii to subtract */
    r.sep = vertex_axis ? best - (a->radius + b->radius) : best;
    return r;
}

sepax_ref_answer sepax_ref_pair_answer(const sepax_shape_view *a, const sepax_shape_view *b,
                                       float margin) {
    int sharp = a->kind == SEPAX_KIND_POLYGON && a->radius == 0.0f &&
                b->kind == SEPAX_KIND_POLYGON && b->radius == 0.0f;
    answer r = a->kind == SEPAX_KIND_CIRCLE && b->kind == SEPAX_KIND_CIRCLE
                   ? circles(a, b)
                   : planes_and_vertices(a, b, !sharp || margin > 0.0f);
    /* + 0: a zero component comes out +0, as README promises (a plane turned by an exact
     * quarter turn holds -0: 0 * 1 - 1 * 0) */
    r.normal.x = r.normal.x + 0.0f;
    r.normal.y = r.normal.y + 0.0f;
    return r;
}

/* The overlap flag alone, the textbook way: stop at the first axis that
 * separates by more than the margin. Subtracting the radii is monotonic, so
 * this is exactly `sepax_ref_pair_answer(a, b, margin).sep <= margin`. */
static int pair_hits(const sepax_shape_view *a, const sepax_shape_view *b, float margin) {
    if (a->kind == SEPAX_KIND_CIRCLE && b->kind == SEPAX_KIND_CIRCLE)
        return circles(a, b).sep <= margin;
    int sharp = a->kind == SEPAX_KIND_POLYGON && a->radius == 0.0f &&
                b->kind == SEPAX_KIND_POLYGON && b->radius == 0.0f;
    int vertex_axis = !sharp || margin > 0.0f;
    float radii = vertex_axis ? a->radius + b->radius : 0.0f;
    for (int i = 0; i < a->planes; i++)
        if (plane_separation(a, b, i) - radii > margin) return 0;
    for (int k = 0; k < b->planes; k++)
        if (plane_separation(b, a, k) - radii > margin) return 0;
    if (vertex_axis && axis_separation(a, b, closest_vertices_axis(a, b)) - radii > margin)
        return 0;
    return 1;
}

sepax_status sepax_ref_world_current(const sepax_shapes *store) {
    sepax_shape_view v;
    if (sepax_shapes_count(store) == 0) return SEPAX_OK;
    sepax_status st = sepax_shapes_view(store, sepax_shapes_id(store, 0), &v);
    return st == SEPAX_ERR_STALE_WORLD ? st : SEPAX_OK;
}

/* Every argument checked before anything is written, as the library does. */
sepax_status sepax_ref_check_pairs(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                                   const void *out, size_t out_size, size_t out_align,
                                   const sepax_query_options *opt, float *margin,
                                   const sepax_vec2 *velocity_a, const sepax_vec2 *velocity_b) {
    if (!store) return SEPAX_ERR_NULL;
    void *work; /* the options' checks are the library's (kernel.h): the same contract */
    sepax_status st = sepax_options_of(opt, 0, margin, &work);
    if (st != SEPAX_OK || n == 0) return st;
    if (!pairs || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(pairs, sepax_pair) || (uintptr_t)out % out_align) return SEPAX_ERR_MISALIGNED;
    if (n > SIZE_MAX / sizeof(sepax_pair) || n > SIZE_MAX / out_size) return SEPAX_ERR_COUNT;
    sepax_span o = sepax_span_of(out, n, out_size);
    sepax_span in[3] = {sepax_span_of(pairs, n, sizeof *pairs),
                        sepax_span_of(velocity_a, n, sizeof *velocity_a),
                        sepax_span_of(velocity_b, n, sizeof *velocity_b)};
    size_t more_inputs = velocity_a || velocity_b ? 3 : 1;
    if ((st = sepax_spans_apart(&o, 1, in, more_inputs)) != SEPAX_OK) return st;
    if ((st = sepax_scratch_apart(work, pairs, n * sizeof *pairs)) != SEPAX_OK ||
        (st = sepax_scratch_apart(work, out, n * out_size)) != SEPAX_OK)
        return st;
    uint32_t count = sepax_shapes_count(store);
    for (size_t i = 0; i < n; i++) { /* an id is live when it is the id at its index */
        uint32_t a = pairs[i].a, b = pairs[i].b;
        uint32_t ia = a & SEPAX_ID_INDEX_MASK, ib = b & SEPAX_ID_INDEX_MASK;
        if (ia < count && ib < count && sepax_shapes_id(store, ia) == a &&
            sepax_shapes_id(store, ib) == b)
            continue;
        sepax_aabb box; /* which error: the call that reads one shape says */
        st = sepax_shapes_aabb(store, a, &box);
        return st != SEPAX_OK ? st : sepax_shapes_aabb(store, b, &box);
    }
    return SEPAX_OK;
}

sepax_status sepax_ref_overlap_opt(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                                   const sepax_query_options *options, uint8_t *hit) {
    float margin;
    sepax_status st =
        sepax_ref_check_pairs(store, pairs, n, hit, sizeof *hit, 1, options, &margin, NULL, NULL);
    if (st == SEPAX_OK && n) st = sepax_ref_world_current(store);
    for (size_t i = 0; st == SEPAX_OK && i < n; i++) {
        sepax_shape_view a, b;
        sepax_shapes_view(store, pairs[i].a, &a);
        sepax_shapes_view(store, pairs[i].b, &b);
        hit[i] = (uint8_t)pair_hits(&a, &b, margin);
    }
    return st;
}

sepax_status sepax_ref_collide_opt(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                                   const sepax_query_options *options, sepax_hit *out) {
    float margin;
    sepax_status st = sepax_ref_check_pairs(store, pairs, n, out, sizeof *out, _Alignof(sepax_hit),
                                            options, &margin, NULL, NULL);
    if (st == SEPAX_OK && n) st = sepax_ref_world_current(store);
    for (size_t i = 0; st == SEPAX_OK && i < n; i++) {
        sepax_shape_view a, b;
        sepax_shapes_view(store, pairs[i].a, &a);
        sepax_shapes_view(store, pairs[i].b, &b);
        answer r = sepax_ref_pair_answer(&a, &b, margin);
        sepax_hit h = {0, {0.0f, 0.0f}, 0.0f};
        if (r.sep <= margin) {
            h.hit = 1;
            h.normal = r.normal;
            h.depth = 0.0f - r.sep; /* 0 - x, not -x: a touching pair reports +0 */
        }
        out[i] = h;
    }
    return st;
}

sepax_status sepax_ref_overlap_one_opt(const sepax_shapes *store, uint32_t probe, uint32_t first,
                                       size_t count, const sepax_query_options *options,
                                       uint8_t *hit) {
    if (!store) return SEPAX_ERR_NULL;
    float margin;
    void *work;
    sepax_shape_view a, b;
    sepax_aabb box; /* the probe's id status, without reading its record */
    sepax_status st = sepax_options_of(options, 0, &margin, &work);
    if (st == SEPAX_OK) st = sepax_shapes_aabb(store, probe, &box);
    if (st != SEPAX_OK) return st;
    uint32_t total = sepax_shapes_count(store);
    if (first > total || count > (size_t)(total - first)) return SEPAX_ERR_BAD_ID;
    if (count == 0) return SEPAX_OK;
    if (!hit) return SEPAX_ERR_NULL;
    if ((st = sepax_scratch_apart(work, hit, count)) != SEPAX_OK) return st;
    if ((st = sepax_shapes_view(store, probe, &a)) != SEPAX_OK) return st;
    for (size_t k = 0; k < count; k++) {
        sepax_shapes_view(store, sepax_shapes_id(store, first + (uint32_t)k), &b);
        hit[k] = (uint8_t)pair_hits(&a, &b, margin);
    }
    return SEPAX_OK;
}

sepax_status sepax_ref_overlap(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                               uint8_t *hit) {
    return sepax_ref_overlap_opt(store, pairs, n, NULL, hit);
}

sepax_status sepax_ref_collide(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                               sepax_hit *out) {
    return sepax_ref_collide_opt(store, pairs, n, NULL, out);
}

sepax_status sepax_ref_overlap_one(const sepax_shapes *store, uint32_t probe, uint32_t first,
                                   size_t count, uint8_t *hit) {
    return sepax_ref_overlap_one_opt(store, probe, first, count, NULL, hit);
}

/* Local to world, written out plainly: rotate then translate each vertex,
 * rotate each normal, put each plane through its edge (a circle has no
 * plane: its offsets are +Inf, so no plane of it ever separates anything),
 * bound the vertices and grow the box by the radius. */
sepax_status sepax_ref_world(const sepax_shapes *store, uint32_t id, sepax_world_shape *out) {
    if (!store || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(out, sepax_world_shape)) return SEPAX_ERR_MISALIGNED;
    sepax_local_shape local;
    sepax_pose pose;
    sepax_status st = sepax_shapes_local(store, id, &local);
    if (st != SEPAX_OK) return st;
    sepax_shapes_get_pose(store, id, &pose);
    float c = pose.rotation.c, s = pose.rotation.s;
    float no_plane = local.kind == SEPAX_KIND_CIRCLE ? INFINITY : -0.0f; /* x + -0 == x */
    out->kind = local.kind;
    out->count = local.count;
    out->radius = local.radius;
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        sepax_vec2 v = local.vertex[k], n = local.normal[k];
        out->x[k] = (c * v.x - s * v.y) + pose.position.x;
        out->y[k] = (s * v.x + c * v.y) + pose.position.y;
        out->nx[k] = c * n.x - s * n.y;
        out->ny[k] = s * n.x + c * n.y;
    }
    /* each plane's offset: the larger projection of its edge's two ends (the last vertex's
     * edge, and a padding row's, end at vertex 0), so that both ends lie on or inside it
     * although the rotated normal is not exactly square to the edge */
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        int e = k + 1 < local.count ? k + 1 : 0;
        float at_k = out->nx[k] * out->x[k] + out->ny[k] * out->y[k];
        float at_e = out->nx[k] * out->x[e] + out->ny[k] * out->y[e];
        out->c[k] = (at_k > at_e ? at_k : at_e) + no_plane;
    }
    sepax_aabb box = {{out->x[0], out->y[0]}, {out->x[0], out->y[0]}};
    for (int k = 1; k < SEPAX_MAX_VERTS; k++) {
        box.lower.x = out->x[k] < box.lower.x ? out->x[k] : box.lower.x;
        box.lower.y = out->y[k] < box.lower.y ? out->y[k] : box.lower.y;
        box.upper.x = out->x[k] > box.upper.x ? out->x[k] : box.upper.x;
        box.upper.y = out->y[k] > box.upper.y ? out->y[k] : box.upper.y;
    }
    box.lower.x = box.lower.x - local.radius;
    box.lower.y = box.lower.y - local.radius;
    box.upper.x = box.upper.x + local.radius;
    box.upper.y = box.upper.y + local.radius;
    out->aabb = box;
    return SEPAX_OK;
}
