#include "workload.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sepax_ref.h"

uint64_t wl_next(wl_rng *r) { /* splitmix64 */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

float wl_unit(wl_rng *r) { return (float)(wl_next(r) >> 40) * (1.0f / 16777216.0f); }

int wl_range(wl_rng *r, int lo, int hi) { return lo + (int)(wl_next(r) % (uint64_t)(hi - lo + 1)); }

wl_config wl_default(void) {
    wl_config c = {4096, 1000000, 3, 8, 0.5, 0x5e9a7u, WL_POLYGONS, WL_ANY, WL_ANY};
    return c;
}

/* A convex n-gon: one vertex per equal sector of the circle, jittered inside
 * its sector, then stretched and rotated (affine maps keep it convex). */
static void random_polygon(wl_rng *r, int n, float cx, float cy, float radius, sepax_vec2 *out) {
    const float two_pi = 6.28318530718f;
    float stretch = 0.6f + 0.8f * wl_unit(r), turn = two_pi * wl_unit(r);
    /* sepax_rot, not libm: the same shapes on every platform, so the
     * determinism hash of the tests can be compared across them */
    sepax_rotation rt = sepax_rot(turn);
    float ct = rt.c, st = rt.s;
    for (int k = 0; k < n; k++) {
        float a = two_pi * ((float)k + 0.1f + 0.8f * wl_unit(r)) / (float)n;
        sepax_rotation ra = sepax_rot(a);
        float x = radius * ra.c * stretch, y = radius * ra.s / stretch;
        out[k].x = cx + ct * x - st * y;
        out[k].y = cy + st * x + ct * y;
    }
}

sepax_status wl_pose_randomly(sepax_shapes *s, uint64_t seed) {
    wl_rng r = {seed};
    uint32_t count = sepax_shapes_count(s);
    sepax_pose *poses = malloc((count ? count : 1) * sizeof *poses);
    if (!poses) return SEPAX_ERR_NOMEM;
    sepax_status st = SEPAX_OK;
    for (uint32_t i = 0; i < count && st == SEPAX_OK; i++) {
        sepax_local_shape l;
        st = sepax_shapes_local(s, sepax_shapes_id(s, i), &l);
        float cx = 0, cy = 0;
        for (int k = 0; k < l.count; k++) {
            cx += l.vertex[k].x / (float)l.count;
            cy += l.vertex[k].y / (float)l.count;
        }
        sepax_rotation t = sepax_rot(6.2831853f * wl_unit(&r) - 3.1415927f);
        float jx = 0.5f * wl_unit(&r) - 0.25f, jy = 0.5f * wl_unit(&r) - 0.25f;
        poses[i] =
            (sepax_pose){{cx - (t.c * cx - t.s * cy) + jx, cy - (t.s * cx + t.c * cy) + jy}, t};
    }
    if (st == SEPAX_OK) st = sepax_shapes_set_poses(s, 0, count, poses);
    if (st == SEPAX_OK) st = sepax_shapes_update(s);
    free(poses);
    return st;
}

/* One shape around (cx, cy). WL_MIXED: 30% circles, 20% capsules, 10%
 * boxes, 25% polygons, 15% rounded polygons, all about the polygons' size. */
static sepax_status add_random_shape(sepax_shapes *store, wl_rng *r, const wl_config *cfg, float cx,
                                     float cy, uint32_t *id) {
    sepax_vec2 pts[SEPAX_MAX_VERTS];
    int pick = cfg->kinds == WL_CIRCLES ? 0 : cfg->kinds == WL_MIXED ? wl_range(r, 0, 19) : 19;
    if (pick < 6) /* circle */
        return sepax_shapes_add_circle(store, (sepax_vec2){cx, cy}, 0.5f + 0.8f * wl_unit(r), id);
    if (pick < 10) { /* capsule */
        sepax_rotation t = sepax_rot(6.2831853f * wl_unit(r));
        float h = 0.2f + 0.8f * wl_unit(r);
        sepax_vec2 p0 = {cx - h * t.c, cy - h * t.s}, p1 = {cx + h * t.c, cy + h * t.s};
        return sepax_shapes_add_capsule(store, p0, p1, 0.2f + 0.4f * wl_unit(r), id);
    }
    if (pick < 12) { /* box, centred and turned by its pose in a real game: here by its points */
        float hw = 0.4f + 0.8f * wl_unit(r), hh = 0.4f + 0.8f * wl_unit(r);
        sepax_rotation t = sepax_rot(6.2831853f * wl_unit(r));
        for (int k = 0; k < 4; k++) {
            float x = (k == 1 || k == 2) ? hw : -hw, y = k >= 2 ? hh : -hh;
            pts[k] = (sepax_vec2){cx + t.c * x - t.s * y, cy + t.s * x + t.c * y};
        }
        return sepax_shapes_add_polygon(store, pts, 4, id);
    }
    int n = wl_range(r, cfg->min_verts, cfg->max_verts);
    if (pick < 15) { /* rounded polygon */
        random_polygon(r, n, cx, cy, 0.5f + 0.6f * wl_unit(r), pts);
        return sepax_shapes_add_rounded(store, pts, n, 0.1f + 0.3f * wl_unit(r), id);
    }
    random_polygon(r, n, cx, cy, 0.9f + 0.9f * wl_unit(r), pts);
    return sepax_shapes_add_polygon(store, pts, n, id);
}

static int kind_of(const sepax_shapes *store, uint32_t id) {
    sepax_shape_view v;
    return sepax_shapes_view(store, id, &v) == SEPAX_OK ? v.kind : -2;
}

sepax_status wl_fill_store(sepax_shapes *store, const wl_config *cfg) {
    wl_rng r = {cfg->seed};
    uint32_t side = (uint32_t)ceil(sqrt((double)cfg->shapes));
    const float spacing = 2.0f;
    for (uint32_t i = 0; i < cfg->shapes; i++) {
        float cx = spacing * (float)(i % side) + wl_unit(&r) - 0.5f;
        float cy = spacing * (float)(i / side) + wl_unit(&r) - 0.5f;
        sepax_status st;
        uint32_t id;
        do { /* the generator makes valid shapes; retry rather than trust that */
            st = add_random_shape(store, &r, cfg, cx, cy, &id);
        } while (st != SEPAX_OK && st != SEPAX_ERR_NOMEM);
        if (st != SEPAX_OK) return st;
    }
    return SEPAX_OK;
}

wl_quota wl_quota_of(const wl_config *cfg) {
    size_t hits = (size_t)llround((double)cfg->pairs * cfg->overlap);
    wl_quota q = {hits, cfg->pairs - hits, 0};
    return q;
}

void wl_quota_offer(const sepax_shapes *store, sepax_pair p, wl_quota *q, sepax_pair *pairs) {
    uint8_t hit = 0;
    sepax_ref_overlap(store, &p, 1, &hit);
    if (hit && q->hits) {
        q->hits--;
        pairs[q->n++] = p;
    } else if (!hit && q->misses) {
        q->misses--;
        pairs[q->n++] = p;
    }
}

sepax_status wl_make_pairs(const sepax_shapes *store, const wl_config *cfg, sepax_pair *pairs) {
    wl_rng r = {cfg->seed ^ 0xabcdef12345ull};
    uint32_t count = sepax_shapes_count(store);
    if (count < 2) return SEPAX_ERR_COUNT;
    uint32_t side = (uint32_t)ceil(sqrt((double)count));
    wl_quota q = wl_quota_of(cfg);
    /* Draw neighbours within two grid cells and keep each by what the
     * reference says, until both quotas are met. Far shapes fill the miss
     * quota when near ones run short. */
    for (size_t tries = 0; q.n < cfg->pairs; tries++) {
        uint32_t a = (uint32_t)(wl_next(&r) % count);
        int64_t b = (int64_t)a + wl_range(&r, -2, 2) + (int64_t)wl_range(&r, -2, 2) * side;
        if (tries > 64 * cfg->pairs + 1000) b = (int64_t)(wl_next(&r) % count);
        if (b < 0 || b >= (int64_t)count || b == (int64_t)a) continue;
        sepax_pair p = {a, (uint32_t)b};
        if (cfg->pair_a != WL_ANY || cfg->pair_b != WL_ANY) {
            int ka = kind_of(store, p.a), kb = kind_of(store, p.b);
            int fit = (cfg->pair_a == WL_ANY || cfg->pair_a == ka) &&
                      (cfg->pair_b == WL_ANY || cfg->pair_b == kb);
            int swapped = (cfg->pair_a == WL_ANY || cfg->pair_a == kb) &&
                          (cfg->pair_b == WL_ANY || cfg->pair_b == ka);
            if (!fit && !swapped) continue;
            if (!fit) p = (sepax_pair){p.b, p.a};
        }
        wl_quota_offer(store, p, &q, pairs);
    }
    return SEPAX_OK;
}

static int adversarial_failures;

static void add(sepax_shapes *s, const sepax_vec2 *p, int n) {
    uint32_t id;
    if (sepax_shapes_add_polygon(s, p, n, &id) != SEPAX_OK) adversarial_failures++;
}

static void add_box(sepax_shapes *s, float x0, float y0, float x1, float y1) {
    sepax_vec2 p[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    add(s, p, 4);
}

/* Lattice shapes translated by (dx, dy) * scale: every coordinate and product
 * is exact, so touching is exact and equal depths tie exactly. */
static void add_lattice_set(sepax_shapes *s, float dx, float dy, float scale) {
    static const sepax_vec2 shapes[][8] = {
        {{0, 0}, {2, 0}, {2, 2}, {0, 2}},                                 /* square */
        {{0, 0}, {2, 0}, {0, 2}},                                         /* right triangle */
        {{1, 0}, {2, 1}, {1, 2}, {0, 1}},                                 /* diamond */
        {{0, 0}, {4, 0}, {4, 1}, {0, 1}},                                 /* flat bar */
        {{1, 0}, {3, 0}, {4, 1}, {4, 3}, {3, 4}, {1, 4}, {0, 3}, {0, 1}}, /* octagon */
        {{0, 1}, {1, 0}, {2, 0}, {3, 1}, {2, 2}, {1, 2}},                 /* hexagon */
    };
    static const int counts[] = {4, 3, 4, 4, 8, 6};
    for (int k = 0; k < 6; k++) {
        sepax_vec2 p[8];
        for (int i = 0; i < counts[k]; i++) {
            p[i].x = (shapes[k][i].x + dx) * scale;
            p[i].y = (shapes[k][i].y + dy) * scale;
        }
        add(s, p, counts[k]);
    }
}

static void check_add(sepax_status st) {
    if (st != SEPAX_OK) adversarial_failures++;
}

/* Curved shapes on the lattice, scaled: circles touching each other, a
 * square's edge and (3-4-5) its corner exactly; concentric circles;
 * capsules parallel, crossing, end to end and touching a square's side;
 * rounded squares touching squares and each other. */
static void add_curved_cases(sepax_shapes *s, float k) {
    uint32_t id;
    static const float circles[][3] = {{0, 0, 1}, {2, 0, 1},  {0, 0, 2}, {0, 0, 1},
                                       {7, 6, 5}, {-1, 1, 1}, {1, 3, 1}};
    for (int i = 0; i < 7; i++)
        check_add(sepax_shapes_add_circle(s, (sepax_vec2){circles[i][0] * k, circles[i][1] * k},
                                          circles[i][2] * k, &id));
    static const float capsules[][5] = {{-2, 3, 4, 3, 1},
                                        {-2, 5, 4, 5, 1},
                                        {1, -3, 1, 5, 1},
                                        {4, 3, 8, 3, 1},
                                        {-1, -2, 3, 2, 0.5f}};
    for (int i = 0; i < 5; i++)
        check_add(sepax_shapes_add_capsule(s, (sepax_vec2){capsules[i][0] * k, capsules[i][1] * k},
                                           (sepax_vec2){capsules[i][2] * k, capsules[i][3] * k},
                                           capsules[i][4] * k, &id));
    static const float rounded[][3] = {{0, 0, 1}, {4, 0, 1}, {0, 5, 0.5f}};
    for (int i = 0; i < 3; i++) {
        float x = rounded[i][0], y = rounded[i][1];
        sepax_vec2 p[4] = {
            {x * k, y * k}, {(x + 2) * k, y * k}, {(x + 2) * k, (y + 2) * k}, {x * k, (y + 2) * k}};
        check_add(sepax_shapes_add_rounded(s, p, 4, rounded[i][2] * k, &id));
    }
    check_add(sepax_shapes_add_box(s, 1 * k, 1 * k, &id));
}

sepax_shapes *wl_adversarial_store(void) {
    sepax_shapes *s = sepax_shapes_create(512);
    if (!s) return NULL;
    adversarial_failures = 0;
    /* lattice shapes at small integer offsets: shared edges, shared vertices,
     * parallel edges, containment and coincidence (equal-depth ties) */
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) add_lattice_set(s, (float)dx, (float)dy, 1.0f);
    /* the same at huge and tiny scales, and near the coordinate limit */
    add_lattice_set(s, 0, 0, 1e15f);
    add_lattice_set(s, 2, 0, 1e15f);
    add_lattice_set(s, 0, 0, 1e-15f);
    add_lattice_set(s, 1, 1, 1e-15f);
    add_lattice_set(s, 0, 0, 1e-30f);
    add_lattice_set(s, 0, 0, 1e-38f); /* denormal coordinates */
    add_lattice_set(s, 1, 0, 1e-38f);
    add_box(s, -SEPAX_COORD_LIMIT, -SEPAX_COORD_LIMIT, SEPAX_COORD_LIMIT, SEPAX_COORD_LIMIT);
    add_box(s, SEPAX_COORD_LIMIT * 0.5f, 0, SEPAX_COORD_LIMIT, SEPAX_COORD_LIMIT * 0.25f);
    /* slivers: 1000:1 and 100000:1, crossing and touching the lattice shapes */
    sepax_vec2 sliver1[3] = {{-3, 1}, {5, 1.008f}, {-3, 1.001f}};
    sepax_vec2 sliver2[4] = {{-4, 2}, {6, 2}, {6, 2.0001f}, {-4, 2.0001f}};
    sepax_vec2 sliver3[3] = {{1, -5}, {1.0001f, -5}, {1, 5}};
    add(s, sliver1, 3);
    add(s, sliver2, 4);
    add(s, sliver3, 3);
    /* non-lattice: rotated boxes touching at a vertex, a big shape far away */
    sepax_vec2 tilt[4] = {{0.5f, 0.25f}, {1.25f, 0.5f}, {1.0f, 1.25f}, {0.25f, 1.0f}};
    add(s, tilt, 4);
    add_box(s, 1.25f, 0.5f, 3.0f, 2.0f);
    add_box(s, 1e6f, 1e6f, 1e6f + 0.0625f, 1e6f + 0.0625f);
    add_box(s, 1e6f + 0.0625f, 1e6f, 1e6f + 0.125f, 1e6f + 0.0625f);
    add_curved_cases(s, 1.0f);
    add_curved_cases(s, 1e15f);
    add_curved_cases(s, 1e-15f);
    add_curved_cases(s, 1e-30f);
    if (adversarial_failures) { /* every case above is valid: a refusal is a bug */
        sepax_shapes_destroy(s);
        return NULL;
    }
    return s;
}

sepax_pair *wl_all_pairs(uint32_t shapes, size_t *n) {
    *n = (size_t)shapes * shapes;
    sepax_pair *p = malloc(*n * sizeof *p);
    if (!p) return NULL;
    size_t k = 0;
    for (uint32_t a = 0; a < shapes; a++)
        for (uint32_t b = 0; b < shapes; b++) p[k++] = (sepax_pair){a, b};
    return p;
}

void wl_bench_motion(const sepax_shapes *store, const sepax_pair *pairs, size_t n, uint64_t seed,
                     sepax_vec2 *vel, sepax_ray *rays, uint32_t *ray_ids) {
    wl_rng vr = {seed ^ 0x5a5au};
    for (size_t i = 0; i < n; i++) {
        float speed = i % 8 == 7 ? 2000.0f : 8.0f;
        vel[i] = (sepax_vec2){speed * (wl_unit(&vr) - 0.5f), speed * (wl_unit(&vr) - 0.5f)};
    }
    for (size_t i = 0; i < n; i++) {
        sepax_aabb ba, bb;
        sepax_shapes_aabb(store, pairs[i].a, &ba);
        sepax_shapes_aabb(store, pairs[i].b, &bb);
        float ox = 0.5f * (ba.lower.x + ba.upper.x), oy = 0.5f * (ba.lower.y + ba.upper.y);
        float k = 0.5f + wl_unit(&vr);
        rays[i] = (sepax_ray){{ox, oy},
                              {k * (0.5f * (bb.lower.x + bb.upper.x) - ox),
                               k * (0.5f * (bb.lower.y + bb.upper.y) - oy)},
                              1.0f};
        ray_ids[i] = pairs[i].b;
    }
}

sepax_status wl_copy_view(const sepax_shapes *store, uint32_t id, wl_view_copy *out) {
    sepax_shape_view v;
    memset(out, 0, sizeof *out);
    sepax_status st = sepax_shapes_view(store, id, &v);
    if (st != SEPAX_OK) return st;
    out->kind = v.kind;
    out->count = v.count;
    out->planes = v.planes;
    out->radius = v.radius;
    memcpy(out->x, v.x, sizeof out->x);
    memcpy(out->y, v.y, sizeof out->y);
    memcpy(out->nx, v.nx, sizeof out->nx);
    memcpy(out->ny, v.ny, sizeof out->ny);
    memcpy(out->c, v.c, sizeof out->c);
    return SEPAX_OK;
}

void wl_shuffle_pairs(sepax_pair *pairs, size_t n, uint64_t seed) {
    wl_rng r = {seed ^ 0x5eed5eedu};
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(wl_next(&r) % i);
        sepax_pair t = pairs[i - 1];
        pairs[i - 1] = pairs[j];
        pairs[j] = t;
    }
}

double wl_outside(const sepax_vec2 *v, int n, sepax_vec2 q) {
    double out = -INFINITY;
    for (int i = 0; i < n; i++) {
        sepax_vec2 a = v[i], b = v[(i + 1) % n];
        double d = (((double)b.y - a.y) * ((double)q.x - a.x) -
                    ((double)b.x - a.x) * ((double)q.y - a.y)) /
                   hypot((double)b.x - a.x, (double)b.y - a.y);
        out = d > out ? d : out;
    }
    return out;
}

void wl_scaled_scene(sepax_shapes *s, float f, uint32_t ids[WL_SCALED_SHAPES]) {
    sepax_vec2 sq[4] = {{0, 0}, {2 * f, 0}, {2 * f, 2 * f}, {0, 2 * f}};
    sepax_vec2 unit_sq[4] = {{0, 0}, {f, 0}, {f, f}, {0, f}};
    sepax_vec2 tri[3] = {{-1.5f * f, -1.2f * f}, {-1.1f * f, -1.4f * f}, {-1.2f * f, -1.0f * f}};
    sepax_status st[WL_SCALED_SHAPES] = {
        sepax_shapes_add_polygon(s, sq, 4, &ids[0]),
        sepax_shapes_add_circle(s, (sepax_vec2){-2 * f, -2 * f}, f, &ids[1]),
        sepax_shapes_add_circle(s, (sepax_vec2){0, 0}, 0.5f * f, &ids[2]),
        sepax_shapes_add_circle(s, (sepax_vec2){3 * f, 0.4f * f}, 0.25f * f, &ids[3]),
        sepax_shapes_add_capsule(s, (sepax_vec2){-f, 0}, (sepax_vec2){f, 0}, 0.3f * f, &ids[4]),
        sepax_shapes_add_circle(s, (sepax_vec2){2.5f * f, 1.2f * f}, 0.2f * f, &ids[5]),
        sepax_shapes_add_rounded(s, unit_sq, 4, 0.2f * f, &ids[6]),
        sepax_shapes_add_rounded(s, tri, 3, 0.1f * f, &ids[7]),
        sepax_shapes_add_capsule(s, (sepax_vec2){3 * f, -f}, (sepax_vec2){3.5f * f, f}, 0.15f * f,
                                 &ids[8]),
    };
    for (int i = 0; i < WL_SCALED_SHAPES; i++)
        if (st[i] != SEPAX_OK) {
            fprintf(stderr, "wl_scaled_scene: shape %d at scale %g: status %d\n", i, (double)f,
                    (int)st[i]);
            abort();
        }
}

int wl_flush_denormals(int on) {
#if defined(__x86_64__) || defined(__i386__)
    unsigned csr = _mm_getcsr() & ~0x8040u; /* FTZ (bit 15) and DAZ (bit 6) */
    _mm_setcsr(on ? csr | 0x8040u : csr);
    return 1;
#else
    (void)on;
    return 0;
#endif
}
