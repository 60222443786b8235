/* The reference contact manifold: the textbook clipping of Box2D's
 * b2CollidePolygons, one pair at a time, read through the public API.
 *   1. The SAT axis (sepax_ref_pair_answer) names the reference face: an
 *      edge of A or of B. The closest-vertices axis names no face: the one
 *      contact lies between the two closest core vertices.
 *   2. The incident edge is the other shape's edge whose normal is most
 *      opposed to the reference normal (a circle has no edge: its centre),
 *      taken from the two edges at its deepest vertex (the least projection
 *      on the normal, the first of equals): in exact arithmetic that is the
 *      same edge, and where normals round to a tie (a shallow arch of
 *      edges) it stays at the contact instead of the lowest index.
 *   3. The incident edge is clipped by the two side planes through the
 *      reference face's ends; clipped points within the margin are kept.
 *      If clipping leaves fewer than two points, or none within the margin,
 *      the deepest incident vertex is the single point.
 *   4. Each point sits midway between the two surfaces along the normal.
 * Written apart from the library's manifold.c, in Box2D's shape (clip
 * vertices, a clip against a line with a normal and an offset), with the
 * same rounding: the tests compare the two bit for bit. */
#include "reference.h"

#include <math.h>

typedef struct clip_vertex {
    sepax_vec2 v;
    uint32_t id;
} clip_vertex;

static float dot(sepax_vec2 a, sepax_vec2 b) { return a.x * b.x + a.y * b.y; }

/* Box2D's b2ClipSegmentToLine: keep the points with dot(normal, v) - offset
 * <= 0, and the crossing point if the segment crosses the line. Where Box2D 2.4 names the
 * crossing by the clipping vertex and the incident edge, it keeps here the id of the point
 * it replaces (the one outside): a point keeps its name while its vertex moves across the
 * side plane, as Box2D v3's ids do. */
static int clip_segment_to_line(clip_vertex out[2], const clip_vertex in[2], sepax_vec2 normal,
                                float offset) {
    int count = 0;
    float distance0 = dot(normal, in[0].v) - offset;
    float distance1 = dot(normal, in[1].v) - offset;
    if (distance0 <= 0.0f) out[count++] = in[0];
    if (distance1 <= 0.0f) out[count++] = in[1];
    if ((distance0 < 0.0f && distance1 > 0.0f) || (distance0 > 0.0f && distance1 < 0.0f)) {
        float interp = distance0 / (distance0 - distance1);
        out[count].v.x = in[0].v.x + interp * (in[1].v.x - in[0].v.x);
        out[count].v.y = in[0].v.y + interp * (in[1].v.y - in[0].v.y);
        out[count].id = distance0 > 0.0f ? in[0].id : in[1].id;
        count++;
    }
    return count;
}

/* A feature id with the reference shape's feature first, put in A, B order. */
static uint32_t feature_id(int flip, int ref_index, int inc_index, unsigned ref_type,
                           unsigned inc_type) {
    if (flip) return SEPAX_FEATURE_ID(inc_index, ref_index, inc_type, ref_type);
    return SEPAX_FEATURE_ID(ref_index, inc_index, ref_type, inc_type);
}

/* The contact of incident core point v against reference plane (normal,
 * offset): the reference surface lies at offset + ref_radius along the normal,
 * the incident one ref_radius... rather, at v minus inc_radius along it. */
static sepax_contact make_contact(sepax_vec2 v, sepax_vec2 normal, float offset, float ref_radius,
                                  float inc_radius, float radii, uint32_t id) {
    float core_separation = dot(normal, v) - offset;
    float half_gap = 0.5f * ((ref_radius - core_separation) - inc_radius);
    sepax_contact c;
    c.point.x = v.x + half_gap * normal.x;
    c.point.y = v.y + half_gap * normal.y;
    c.separation = core_separation - radii;
    c.id = id;
    return c;
}

static uint32_t face_contacts(const sepax_shape_view *ref, int edge, const sepax_shape_view *inc,
                              int flip, float radii, float margin, sepax_contact *out) {
    sepax_vec2 normal = {ref->nx[edge], ref->ny[edge]};
    float front_offset = ref->c[edge];
    if (inc->planes == 0) {
        sepax_vec2 centre = {inc->x[0], inc->y[0]};
        out[0] = make_contact(centre, normal, front_offset, ref->radius, inc->radius, radii,
                              feature_id(flip, edge, 0, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX));
        return 1;
    }
    int deepest_vertex = 0;
    float least = dot(normal, (sepax_vec2){inc->x[0], inc->y[0]});
    for (int i = 1; i < inc->count; i++) {
        float d = dot(normal, (sepax_vec2){inc->x[i], inc->y[i]});
        if (d < least) {
            least = d;
            deepest_vertex = i;
        }
    }
    /* the edge into the deepest vertex, or the edge out of it: the more opposed normal,
     * the edge out of it when they tie */
    int into = deepest_vertex > 0 ? deepest_vertex - 1 : inc->count - 1;
    int incident =
        dot(normal, (sepax_vec2){inc->nx[into], inc->ny[into]}) <
                dot(normal, (sepax_vec2){inc->nx[deepest_vertex], inc->ny[deepest_vertex]})
            ? into
            : deepest_vertex;
    int i1 = incident, i2 = incident + 1 < inc->count ? incident + 1 : 0;
    clip_vertex incident_edge[2] = {
        {{inc->x[i1], inc->y[i1]},
         feature_id(flip, edge, i1, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX)},
        {{inc->x[i2], inc->y[i2]},
         feature_id(flip, edge, i2, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX)},
    };
    int iv1 = edge, iv2 = edge + 1 < ref->count ? edge + 1 : 0;
    sepax_vec2 v11 = {ref->x[iv1], ref->y[iv1]}, v12 = {ref->x[iv2], ref->y[iv2]};
    sepax_vec2 tangent = {0.0f - normal.y, normal.x}; /* along the face, from v11 to v12 */
    sepax_vec2 minus_tangent = {0.0f - tangent.x, 0.0f - tangent.y};
    float side_offset1 = 0.0f - dot(tangent, v11), side_offset2 = dot(tangent, v12);
    clip_vertex clip1[2], clip2[2];
    uint32_t count = 0;
    if (clip_segment_to_line(clip1, incident_edge, minus_tangent, side_offset1) == 2 &&
        clip_segment_to_line(clip2, clip1, tangent, side_offset2) == 2) {
        for (int i = 0; i < 2; i++) {
            sepax_contact c = make_contact(clip2[i].v, normal, front_offset, ref->radius,
                                           inc->radius, radii, clip2[i].id);
            if (c.separation <= margin) out[count++] = c;
        }
    }
    if (count == 0) {
        /* the deepest incident vertex; of two equally deep, the one farther inside (or less
         * outside) the side planes */
        float s0 = dot(normal, incident_edge[0].v), s1 = dot(normal, incident_edge[1].v);
        float outside[2];
        for (int i = 0; i < 2; i++)
            outside[i] = fmaxf(dot(minus_tangent, incident_edge[i].v) - side_offset1,
                               dot(tangent, incident_edge[i].v) - side_offset2);
        int deepest = s1 < s0 || (s1 == s0 && outside[1] < outside[0]);
        out[0] = make_contact(incident_edge[deepest].v, normal, front_offset, ref->radius,
                              inc->radius, radii, incident_edge[deepest].id);
        count = 1;
    }
    return count;
}

static sepax_manifold pair_manifold(const sepax_shape_view *a, const sepax_shape_view *b,
                                    float margin) {
    sepax_manifold m = {{0.0f, 0.0f}, 0.0f, 0, {{{0.0f, 0.0f}, 0.0f, 0}, {{0.0f, 0.0f}, 0.0f, 0}}};
    sepax_ref_answer r = sepax_ref_pair_answer(a, b, margin);
    if (!(r.sep <= margin)) return m;
    m.normal = r.normal;
    m.depth = 0.0f - r.sep;
    float radii = a->radius + b->radius;
    if (r.axis < SEPAX_MAX_VERTS) {
        m.count = face_contacts(a, r.axis, b, 0, radii, margin, m.points);
    } else if (r.axis < SEPAX_REF_VERTEX_AXIS) {
        m.count = face_contacts(b, r.axis - SEPAX_MAX_VERTS, a, 1, radii, margin, m.points);
    } else { /* between the closest core vertices, each moved out to its surface */
        int bi = 0, bj = 0;
        float best = 0.0f;
        for (int i = 0; i < a->count; i++) {
            for (int j = 0; j < b->count; j++) {
                float dx = b->x[j] - a->x[i], dy = b->y[j] - a->y[i];
                float d2 = dx * dx + dy * dy;
                if ((i == 0 && j == 0) || d2 < best) {
                    best = d2;
                    bi = i;
                    bj = j;
                }
            }
        }
        sepax_vec2 on_a = {a->x[bi] + a->radius * r.normal.x, a->y[bi] + a->radius * r.normal.y};
        sepax_vec2 on_b = {b->x[bj] - b->radius * r.normal.x, b->y[bj] - b->radius * r.normal.y};
        m.points[0].point.x = 0.5f * (on_a.x + on_b.x);
        m.points[0].point.y = 0.5f * (on_a.y + on_b.y);
        m.points[0].separation = 0.0f - m.depth;
        m.points[0].id = SEPAX_FEATURE_ID(bi, bj, SEPAX_FEATURE_VERTEX, SEPAX_FEATURE_VERTEX);
        m.count = 1;
    }
    return m;
}

sepax_status sepax_ref_collide_manifold_opt(const sepax_shapes *store, const sepax_pair *pairs,
                                            size_t n, const sepax_query_options *options,
                                            sepax_manifold *out) {
    float margin;
    sepax_status st = sepax_ref_check_pairs(store, pairs, n, out, sizeof *out,
                                            _Alignof(sepax_manifold), options, &margin, NULL, NULL);
    if (st == SEPAX_OK && n) st = sepax_ref_world_current(store);
    for (size_t i = 0; st == SEPAX_OK && i < n; i++) {
        sepax_shape_view a, b;
        sepax_shapes_view(store, pairs[i].a, &a);
        sepax_shapes_view(store, pairs[i].b, &b);
        out[i] = pair_manifold(&a, &b, margin);
    }
    return st;
}

sepax_status sepax_ref_collide_manifold(const sepax_shapes *store, const sepax_pair *pairs,
                                        size_t n, sepax_manifold *out) {
    return sepax_ref_collide_manifold_opt(store, pairs, n, NULL, out);
}
