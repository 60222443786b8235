/* libFuzzer target: shape construction (every kind) and hulls from arbitrary
 * bytes.
 *
 * Input: byte 0 holds three fields:
 *   0x80        raw: every float is 4 bytes of raw bits (NaN, Inf, denormals,
 *               huge); else one byte, a small integer / 4 (to reach the
 *               accepting paths often)
 *   bits 4..6   the constructor: 0 polygon, 1 and 5 rounded, 2 and 6 circle,
 *               3 and 7 capsule, 4 box
 *   byte % 12   minus 1: the point count (-1..10) of a polygon or rounded one
 * then the constructor's floats, in order:
 *   polygon     up to 10 points (x, y), then the margin
 *   rounded     radius, up to 10 points, then the margin
 *   circle      centre x, y, radius, margin
 *   capsule     p0 x, y, p1 x, y, radius, margin
 *   box         half width, half height, margin
 * A missing argument is 1, a missing margin 1. (Inputs from before the other
 * kinds, with bits 4..6 clear, still decode as the same polygon.)
 *
 * The store is rebuilt per input: eight fixed shapes of every kind (circles,
 * capsules, a box, sharp and rounded polygons, posed), then the hull of the
 * points when there is one, then the fuzzed shape.
 *
 * Checks: the status is one the constructor documents for these arguments
 * (an argument error only when that argument is bad, success whenever all are
 * valid except for the geometric refusals); a refusal adds nothing and leaves
 * out_id alone; an accepted shape's local data has the right kind, count and
 * radius, finite vertices and normals, padding that repeats the last entry,
 * and the kind's geometry (polygons: input vertices, counter-clockwise, unit
 * outward normals; circles, capsules, boxes: exactly their arguments); its
 * world data, after the add and after sepax_shapes_update on every backend,
 * is sepax_ref_world's bit for bit; every backend answers like the reference
 * for it against every stored shape, as a pair list and one-vs-many, at
 * margin 0 and at the fuzzed margin (a bad one must be refused alike by both,
 * writing nothing; a finite stand-in is used instead). The points' hull,
 * when there is one, holds every point (within 4 times 2^-20 of the size), is
 * made of input points, and the store takes it (dropping at most vertices its
 * own straightness test finds, keeping the hull's others).
 *
 * (Boxes thinner than 2^-20, width to height, are refused as degenerate
 * polygons: SEPAX_ERR_TOO_FEW_POINTS or COLLINEAR, which sepax.h does not
 * list for boxes; tolerated here below a 2^-18 ratio.) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "sepax_ref.h"

#define MAXSHAPES 16

enum { C_POLYGON, C_ROUNDED, C_CIRCLE, C_CAPSULE, C_BOX };
static const int ctor_of[8] = {C_POLYGON, C_ROUNDED, C_CIRCLE, C_CAPSULE,
                               C_BOX,     C_ROUNDED, C_CIRCLE, C_CAPSULE};

static sepax_shapes *store;

static uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static int valid_coord(float f) { return isfinite(f) && fabsf(f) <= SEPAX_COORD_LIMIT; }

/* Input floats, raw bits or small integers / 4. */
typedef struct reader {
    const uint8_t *p;
    size_t n;
    int raw;
} reader;

static size_t float_size(const reader *r) { return r->raw ? 4 : 1; }

static float next_float(reader *r, float missing) {
    float f;
    if (r->n < float_size(r)) return missing;
    if (r->raw)
        memcpy(&f, r->p, 4);
    else
        f = (float)(int8_t)r->p[0] / 4;
    r->p += float_size(r);
    r->n -= float_size(r);
    return f;
}

/* ---- the fixed shapes ---- */

static void add_fixed(void) {
    uint32_t id;
    int ok = 1;
    sepax_vec2 tri[3] = {{-1.0f, -1.0f}, {2.0f, -0.5f}, {0.0f, 1.5f}};
    sepax_vec2 sq[4] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {-0.5f, 0.5f}};
    sepax_vec2 hex[6] = {{3.0f, 0.0f},  {1.5f, 2.6f},   {-1.5f, 2.6f},
                         {-3.0f, 0.0f}, {-1.5f, -2.6f}, {1.5f, -2.6f}};
    ok &= sepax_shapes_add_circle(store, (sepax_vec2){0.25f, -0.5f}, 1.0f, &id) == SEPAX_OK;
    ok &= sepax_shapes_add_capsule(store, (sepax_vec2){-1.0f, -0.5f}, (sepax_vec2){1.5f, 0.5f},
                                   0.5f, &id) == SEPAX_OK;
    ok &= sepax_shapes_add_box(store, 1.0f, 0.5f, &id) == SEPAX_OK;
    ok &= sepax_shapes_add_polygon(store, tri, 3, &id) == SEPAX_OK;
    ok &= sepax_shapes_add_rounded(store, sq, 4, 0.3f, &id) == SEPAX_OK;
    ok &= sepax_shapes_add_circle(store, (sepax_vec2){0.0f, 0.0f}, 4.0f, &id) == SEPAX_OK;
    ok &= sepax_shapes_add_capsule(store, (sepax_vec2){0.0f, -2.0f}, (sepax_vec2){0.0f, 2.0f},
                                   1e-3f, &id) == SEPAX_OK;
    ok &= sepax_shapes_add_rounded(store, hex, 6, 1.5f, &id) == SEPAX_OK;
    sepax_pose poses[8] = {
        {{0.0f, 0.0f}, {1.0f, 0.0f}},     {{0.5f, -0.25f}, sepax_rot(0.7f)},
        {{0.5f, 0.5f}, sepax_rot(0.3f)},  {{-0.5f, 0.0f}, sepax_rot(-2.0f)},
        {{-1.0f, 1.0f}, sepax_rot(1.0f)}, {{1.0f, 1.0f}, {1.0f, 0.0f}},
        {{2.0f, -1.0f}, sepax_rot(0.1f)}, {{-6.0f, 5.0f}, sepax_rot(3.0f)},
    };
    ok &= sepax_shapes_set_poses(store, 0, 8, poses) == SEPAX_OK;
    ok &= sepax_shapes_update(store) == SEPAX_OK;
    if (!ok) fuzz_fail("fixed shapes");
}

/* ---- the status oracle ---- */

#define E(st) (1u << (unsigned)-(st))

/* Errors that these arguments certainly deserve (any one of them may be
 * returned), and the geometric refusals that valid arguments may still get. */
typedef struct verdict {
    unsigned hard, maybe;
    int must_accept;
} verdict;

static unsigned radius_errors(float r, int positive) {
    if (!isfinite(r)) return E(SEPAX_ERR_NONFINITE);
    if (r > SEPAX_COORD_LIMIT) return E(SEPAX_ERR_RANGE);
    if (r < 0.0f || (positive && r == 0.0f)) return E(SEPAX_ERR_BAD_SIZE);
    return 0;
}

static unsigned point_errors(const sepax_vec2 *p, int n) {
    unsigned e = 0;
    for (int i = 0; i < n; i++) {
        float v[2] = {p[i].x, p[i].y};
        for (int k = 0; k < 2; k++) {
            if (!isfinite(v[k]))
                e |= E(SEPAX_ERR_NONFINITE);
            else if (fabsf(v[k]) > SEPAX_COORD_LIMIT)
                e |= E(SEPAX_ERR_RANGE);
        }
    }
    return e;
}

static verdict polygon_verdict(const sepax_vec2 *pts, int count, int rounded, float radius) {
    verdict v = {0, 0, 0};
    if (rounded) v.hard |= radius_errors(radius, 0);
    if (count < 0)
        v.hard |= E(SEPAX_ERR_COUNT);
    else if (count < 3)
        v.hard |= E(SEPAX_ERR_TOO_FEW_POINTS);
    else if (count > SEPAX_MAX_VERTS)
        v.hard |= E(SEPAX_ERR_TOO_MANY_VERTS);
    if (count > 0) v.hard |= point_errors(pts, count);
    v.maybe = E(SEPAX_ERR_TOO_FEW_POINTS) | E(SEPAX_ERR_COLLINEAR) | E(SEPAX_ERR_NONCONVEX);
    return v;
}

static verdict circle_verdict(sepax_vec2 c, float r) {
    verdict v = {point_errors(&c, 1) | radius_errors(r, 1), 0, 0};
    v.must_accept = v.hard == 0;
    return v;
}

static verdict capsule_verdict(sepax_vec2 p0, sepax_vec2 p1, float r) {
    sepax_vec2 p[2] = {p0, p1};
    verdict v = {point_errors(p, 2) | radius_errors(r, 1), 0, 0};
    if (v.hard) return v;
    /* ends closer than 2^-20 of the size (the larger side of the capsule's bounding box,
     * radius included, wherever it sits) are one point: refused well inside that,
     * accepted well outside it, either near it */
    double d = fmax(fabs((double)p1.x - p0.x), fabs((double)p1.y - p0.y));
    double size = d + 2.0 * (double)r;
    if (d <= 0.5 / 1048576.0 * size)
        v.hard = E(SEPAX_ERR_TOO_FEW_POINTS);
    else if (d > 2.0 / 1048576.0 * size)
        v.must_accept = 1;
    else
        v.maybe = E(SEPAX_ERR_TOO_FEW_POINTS);
    return v;
}

static verdict box_verdict(float hw, float hh) {
    verdict v = {0, 0, 0};
    float h[2] = {hw, hh};
    for (int i = 0; i < 2; i++) {
        if (!isfinite(h[i]))
            v.hard |= E(SEPAX_ERR_NONFINITE);
        else if (h[i] > SEPAX_COORD_LIMIT)
            v.hard |= E(SEPAX_ERR_RANGE);
        else if (!(h[i] > 0.0f))
            v.hard |= E(SEPAX_ERR_BAD_SIZE);
    }
    if (v.hard) return v;
    /* A box thinner than the polygon welding tolerance (2^-20 of its size)
     * is refused like the degenerate polygon it is: not in the box's own
     * contract, so only tolerated well beyond that ratio. */
    double ratio = fmin((double)hw, (double)hh) / fmax((double)hw, (double)hh);
    if (ratio > 4.0 / 1048576.0)
        v.must_accept = 1;
    else
        v.maybe = E(SEPAX_ERR_TOO_FEW_POINTS) | E(SEPAX_ERR_COLLINEAR);
    return v;
}

static void check_status(sepax_status st, verdict v) {
    if (st > 0 || st < SEPAX_ERR_MISALIGNED) fuzz_fail("status out of the enum");
    if (!sepax_status_str(st)) fuzz_fail("status name");
    if (v.hard) {
        if (st == SEPAX_OK || !(E(st) & v.hard)) fuzz_fail("wrong error for bad arguments");
    } else if (st != SEPAX_OK) {
        if (v.must_accept || !(E(st) & v.maybe)) fuzz_fail("valid arguments refused");
    }
}

/* ---- local data of an accepted shape ---- */

typedef struct args {
    int ctor, count;
    const sepax_vec2 *pts;
    float radius, hw, hh;
    sepax_vec2 p0, p1;
} args;

static void check_normals(const sepax_local_shape *l, int edges) {
    for (int i = 0; i < edges; i++) {
        sepax_vec2 a = l->vertex[i], b = l->vertex[(i + 1) % l->count], n = l->normal[i];
        double ex = (double)b.x - a.x, ey = (double)b.y - a.y, el = hypot(ex, ey);
        double len = hypot(n.x, n.y);
        if (!(fabs(len - 1.0) < 1e-6)) fuzz_fail("normal not unit");
        /* outward (right-hand side of the edge) and perpendicular to it */
        if (!(n.x * ey - n.y * ex > 0.999 * el)) fuzz_fail("normal not outward");
        if (!(fabs(n.x * ex + n.y * ey) <= 1e-5 * el)) fuzz_fail("normal not perpendicular");
    }
}

static void check_local(uint32_t id, const args *a) {
    sepax_local_shape l;
    memset(&l, 0x5a, sizeof l);
    if (sepax_shapes_local(store, id, &l) != SEPAX_OK) fuzz_fail("local");
    int kind = a->ctor == C_CIRCLE    ? SEPAX_KIND_CIRCLE
               : a->ctor == C_CAPSULE ? SEPAX_KIND_CAPSULE
                                      : SEPAX_KIND_POLYGON;
    if (l.kind != kind) fuzz_fail("kind");
    float radius = a->ctor == C_ROUNDED                          ? a->radius + 0.0f
                   : a->ctor == C_CIRCLE || a->ctor == C_CAPSULE ? a->radius
                                                                 : 0.0f;
    if (bits(l.radius) != bits(radius)) fuzz_fail("radius");
    int lo = kind == SEPAX_KIND_CIRCLE ? 1 : kind == SEPAX_KIND_CAPSULE ? 2 : 3;
    int hi = kind == SEPAX_KIND_POLYGON ? SEPAX_MAX_VERTS : lo;
    if (a->ctor == C_BOX) lo = hi = 4;
    if (a->ctor == C_POLYGON || a->ctor == C_ROUNDED) hi = a->count < hi ? a->count : hi;
    if (l.count < lo || l.count > hi) fuzz_fail("count");
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        if (!isfinite(l.vertex[k].x) || !isfinite(l.vertex[k].y) || !isfinite(l.normal[k].x) ||
            !isfinite(l.normal[k].y))
            fuzz_fail("local data not finite");
        if (k >= l.count && memcmp(&l.vertex[k], &l.vertex[l.count - 1], sizeof l.vertex[k]))
            fuzz_fail("vertex padding");
        if (k >= l.count && memcmp(&l.normal[k], &l.normal[l.count - 1], sizeof l.normal[k]))
            fuzz_fail("normal padding");
    }
    if (a->ctor == C_CIRCLE) {
        if (bits(l.vertex[0].x) != bits(a->p0.x) || bits(l.vertex[0].y) != bits(a->p0.y))
            fuzz_fail("circle centre");
        if (bits(l.normal[0].x) != 0 || bits(l.normal[0].y) != 0) fuzz_fail("circle normal");
        return;
    }
    if (a->ctor == C_CAPSULE) {
        if (memcmp(&l.vertex[0], &a->p0, sizeof a->p0) ||
            memcmp(&l.vertex[1], &a->p1, sizeof a->p1))
            fuzz_fail("capsule ends");
        check_normals(&l, 1);
        if (l.normal[1].x != -l.normal[0].x || l.normal[1].y != -l.normal[0].y)
            fuzz_fail("capsule far plane");
        return;
    }
    /* polygons: counter-clockwise, convex, unit outward normals */
    double area = 0;
    for (int i = 0; i < l.count; i++) {
        int j = (i + 1) % l.count;
        area += (double)l.vertex[i].x * l.vertex[j].y - (double)l.vertex[j].x * l.vertex[i].y;
        int found = 0;
        if (a->ctor == C_BOX) {
            float x = l.vertex[i].x, y = l.vertex[i].y;
            found = (x == a->hw || x == -a->hw) && (y == a->hh || y == -a->hh);
            for (int k = 0; k < i; k++)
                if (l.vertex[k].x == x && l.vertex[k].y == y) found = 0;
        } else {
            for (int k = 0; k < a->count; k++)
                found |= a->pts[k].x == l.vertex[i].x && a->pts[k].y == l.vertex[i].y;
        }
        if (!found) fuzz_fail("vertex not from the input");
    }
    if (!(area > 0)) fuzz_fail("not counter-clockwise");
    check_normals(&l, l.count);
}

/* ---- queries against every stored shape ---- */

/* A bad margin: refused alike by the library and the reference, nothing
 * written. */
static void check_bad_margin(uint32_t id, float margin) {
    sepax_status want = isfinite(margin) ? SEPAX_ERR_RANGE : SEPAX_ERR_NONFINITE;
    sepax_query_options opt = {.margin = margin};
    sepax_pair pair = {id, 0};
    uint8_t hit[4];
    sepax_hit out[2];
    memset(hit, FUZZ_MARK, sizeof hit);
    memset(out, FUZZ_MARK, sizeof out);
    if (sepax_ref_overlap_opt(store, &pair, 1, &opt, hit) != want) fuzz_fail("ref margin overlap");
    if (sepax_ref_collide_opt(store, &pair, 1, &opt, out) != want) fuzz_fail("ref margin collide");
    if (sepax_ref_overlap_one_opt(store, id, 0, 1, &opt, hit) != want) fuzz_fail("ref margin one");
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        if (!sepax_backend_available((sepax_backend)b)) continue;
        sepax_set_backend((sepax_backend)b);
        if (sepax_overlap_opt(store, &pair, 1, &opt, hit) != want) fuzz_fail("margin overlap");
        if (sepax_collide_opt(store, &pair, 1, &opt, out) != want) fuzz_fail("margin collide");
        if (sepax_overlap_one_opt(store, id, 0, 1, &opt, hit) != want) fuzz_fail("margin one");
    }
    if (!fuzz_untouched(hit, 0, sizeof hit) || !fuzz_untouched(out, 0, sizeof out))
        fuzz_fail("bad margin wrote");
}

typedef struct answers {
    uint8_t hit[2 * MAXSHAPES], one[MAXSHAPES];
    sepax_hit c[2 * MAXSHAPES];
    sepax_manifold m[2 * MAXSHAPES];
} answers;

static void check_queries(uint32_t id, float margin) {
    uint32_t n = sepax_shapes_count(store);
    sepax_pair pairs[2 * MAXSHAPES];
    for (uint32_t k = 0; k < n; k++) {
        uint32_t other = sepax_shapes_id(store, k);
        pairs[2 * k] = (sepax_pair){id, other};
        pairs[2 * k + 1] = (sepax_pair){other, id};
    }
    size_t np = 2 * (size_t)n;
    const float margins[2] = {0.0f, margin};
    answers want[2], got;
    for (int m = 0; m < 2; m++) {
        sepax_query_options opt = {.margin = margins[m]};
        if (sepax_ref_overlap_opt(store, pairs, np, &opt, want[m].hit) != SEPAX_OK)
            fuzz_fail("ref overlap");
        if (sepax_ref_collide_opt(store, pairs, np, &opt, want[m].c) != SEPAX_OK)
            fuzz_fail("ref collide");
        if (sepax_ref_collide_manifold_opt(store, pairs, np, &opt, want[m].m) != SEPAX_OK)
            fuzz_fail("ref manifold");
        if (sepax_ref_overlap_one_opt(store, id, 0, n, &opt, want[m].one) != SEPAX_OK)
            fuzz_fail("ref one");
        for (size_t i = 0; i < np; i++) {
            if (want[m].hit[i] != want[m].c[i].hit)
                fuzz_fail("reference overlap and collide disagree");
            if ((want[m].m[i].count > 0) != want[m].hit[i] || want[m].m[i].count > 2)
                fuzz_fail("reference manifold count and overlap disagree");
            if (want[m].hit[i] &&
                (memcmp(&want[m].m[i].normal, &want[m].c[i].normal, sizeof want[m].c[i].normal) !=
                     0 ||
                 memcmp(&want[m].m[i].depth, &want[m].c[i].depth, sizeof want[m].c[i].depth) != 0))
                fuzz_fail("reference manifold and collide disagree on normal or depth");
        }
        for (uint32_t k = 0; k < n; k++)
            if (want[m].one[k] != want[m].hit[2 * k]) fuzz_fail("reference one and pairs disagree");
    }
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        if (!sepax_backend_available((sepax_backend)b)) continue;
        sepax_set_backend((sepax_backend)b);
        /* a fresh update on this backend gives the same world data */
        if (sepax_shapes_update(store) != SEPAX_OK) fuzz_fail("update");
        for (uint32_t k = 0; k < n; k++) fuzz_same_world(store, sepax_shapes_id(store, k));
        for (int m = 0; m < 2; m++) {
            sepax_query_options opt = {.margin = margins[m]};
            if (sepax_overlap_opt(store, pairs, np, &opt, got.hit) != SEPAX_OK)
                fuzz_fail("overlap");
            if (memcmp(got.hit, want[m].hit, np) != 0)
                fuzz_fail("overlap differs from the reference");
            if (sepax_collide_opt(store, pairs, np, &opt, got.c) != SEPAX_OK) fuzz_fail("collide");
            if (memcmp(got.c, want[m].c, np * sizeof *got.c) != 0) fuzz_fail("collide differs");
            if (sepax_collide_manifold_opt(store, pairs, np, &opt, got.m) != SEPAX_OK)
                fuzz_fail("manifold");
            if (memcmp(got.m, want[m].m, np * sizeof *got.m) != 0) fuzz_fail("manifold differs");
            if (sepax_overlap_one_opt(store, id, 0, n, &opt, got.one) != SEPAX_OK) fuzz_fail("one");
            if (memcmp(got.one, want[m].one, n) != 0) fuzz_fail("overlap_one differs");
        }
    }
}

/* ---- hulls ---- */

static void check_hull(const sepax_vec2 *pts, int have) {
    sepax_vec2 out[SEPAX_MAX_VERTS + 1];
    memset(out, 0x5c, sizeof out);
    int n = -7;
    sepax_status st = sepax_hull(pts, have, out, &n);
    const uint8_t *tail = (const uint8_t *)&out[SEPAX_MAX_VERTS];
    for (size_t i = 0; i < sizeof out[0]; i++)
        if (tail[i] != 0x5c) fuzz_fail("hull wrote past SEPAX_MAX_VERTS");
    if (st != SEPAX_OK) {
        if (n != -7) fuzz_fail("hull wrote the count on error");
        return;
    }
    if (n < 3 || n > SEPAX_MAX_VERTS) fuzz_fail("hull count");
    double size = 0;
    for (int k = 0; k < have; k++)
        for (int m = 0; m < have; m++)
            size = fmax(size,
                        fmax(fabs((double)pts[k].x - pts[m].x), fabs((double)pts[k].y - pts[m].y)));
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int k = 0; k < have; k++) found |= pts[k].x == out[i].x && pts[k].y == out[i].y;
        if (!found) fuzz_fail("hull vertex not from the input");
        sepax_vec2 a = out[i], b = out[(i + 1) % n];
        double len = hypot((double)b.x - a.x, (double)b.y - a.y);
        for (int k = 0; k < have; k++) {
            double cross = ((double)b.x - a.x) * ((double)pts[k].y - a.y) -
                           ((double)b.y - a.y) * ((double)pts[k].x - a.x);
            /* within 2^-20 of the size merged (in x and in y), dropped within it of an edge:
             * at most (1 + sqrt 2) of it outside; 4 of it leaves room for the rounding */
            if (cross < -4.0 * 0x1p-20 * size * len) fuzz_fail("input point outside its hull");
        }
    }
    /* the store takes it, dropping at most a vertex its own test finds straight (sepax.h) */
    uint32_t id;
    if (sepax_shapes_add_polygon(store, out, n, &id) != SEPAX_OK) fuzz_fail("store refused a hull");
    sepax_shape_view v;
    sepax_shapes_view(store, id, &v);
    if (v.count > n || v.count < 3) fuzz_fail("store changed a hull");
    for (int i = 0; i < v.count; i++) {
        int found = 0;
        for (int k = 0; k < n; k++) found |= out[k].x == v.x[i] && out[k].y == v.y[i];
        if (!found) fuzz_fail("store took a vertex not from the hull");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    sepax_shapes_destroy(store);
    store = sepax_shapes_create(MAXSHAPES);
    if (!store) fuzz_fail("create");
    add_fixed();

    args a;
    memset(&a, 0, sizeof a);
    a.ctor = ctor_of[(data[0] >> 4) & 7];
    a.count = (int)(data[0] % 12) - 1;
    reader r = {data + 1, size - 1, data[0] & 0x80};
    sepax_vec2 pts[10];
    int have = 0;
    if (a.ctor == C_ROUNDED) a.radius = next_float(&r, 1.0f);
    switch (a.ctor) {
    case C_ROUNDED:
    case C_POLYGON:
        while (have < 10 && r.n >= 2 * float_size(&r)) {
            pts[have].x = next_float(&r, 0.0f);
            pts[have].y = next_float(&r, 0.0f);
            have++;
        }
        if (a.count > have) a.count = have;
        a.pts = pts;
        break;
    case C_CIRCLE:
        a.p0.x = next_float(&r, 1.0f);
        a.p0.y = next_float(&r, 1.0f);
        a.radius = next_float(&r, 1.0f);
        break;
    case C_CAPSULE:
        a.p0.x = next_float(&r, 1.0f);
        a.p0.y = next_float(&r, 1.0f);
        a.p1.x = next_float(&r, 1.0f);
        a.p1.y = next_float(&r, 1.0f);
        a.radius = next_float(&r, 1.0f);
        break;
    default:
        a.hw = next_float(&r, 1.0f);
        a.hh = next_float(&r, 1.0f);
        break;
    }
    float margin = next_float(&r, 1.0f);

    if (a.ctor == C_POLYGON || a.ctor == C_ROUNDED) check_hull(pts, have);
    uint32_t before = sepax_shapes_count(store), id = 0xdeadbeef;
    sepax_status st;
    verdict v;
    switch (a.ctor) {
    case C_POLYGON:
        st = sepax_shapes_add_polygon(store, pts, a.count, &id);
        v = polygon_verdict(pts, a.count, 0, 0.0f);
        break;
    case C_ROUNDED:
        st = sepax_shapes_add_rounded(store, pts, a.count, a.radius, &id);
        v = polygon_verdict(pts, a.count, 1, a.radius);
        break;
    case C_CIRCLE:
        st = sepax_shapes_add_circle(store, a.p0, a.radius, &id);
        v = circle_verdict(a.p0, a.radius);
        break;
    case C_CAPSULE:
        st = sepax_shapes_add_capsule(store, a.p0, a.p1, a.radius, &id);
        v = capsule_verdict(a.p0, a.p1, a.radius);
        break;
    default:
        st = sepax_shapes_add_box(store, a.hw, a.hh, &id);
        v = box_verdict(a.hw, a.hh);
        break;
    }
    check_status(st, v);
    if (st != SEPAX_OK) {
        if (id != 0xdeadbeef || sepax_shapes_count(store) != before)
            fuzz_fail("refusal changed state");
        return 0;
    }
    if (sepax_shapes_count(store) != before + 1 || id != sepax_shapes_id(store, before) ||
        (id & SEPAX_ID_INDEX_MASK) != before)
        fuzz_fail("id");
    check_local(id, &a);
    fuzz_same_world(store, id); /* world data as the add left it (identity pose) */
    if (!valid_coord(margin)) {
        check_bad_margin(id, margin);
        margin = (float)(int8_t)(bits(margin) & 0xff) / 8; /* a finite stand-in */
    }
    check_queries(id, margin);
    return 0;
}
