/* sepax_raycast side by side with Box2D 2.4 (b2PolygonShape::RayCast), on rays against
 * posed sharp convex polygons of the test workload.
 *
 *   sepax-test-box2d-ray [--rays N] [--seed S] [--selftest] [--verbose N]
 *
 * Box2D gets each polygon's world vertices (sepax_shapes_view) with the identity transform,
 * and each ray as p1 = origin, p2 = origin + direction, maxFraction; a polygon whose Box2D hull
 * is not sepax's vertices (Box2D welds close points) is left out and counted. Rays run from
 * A's box centre towards B's box centre, 0.5 to 1.5 times as far, or one in four any way,
 * and are cast against B. Every ray is put in one class:
 *   agree      both miss, or both hit with fractions within 1e-5 of the scale (along the
 *              ray) and normals within 1e-4;
 *   (1) inside the origin is inside or on the polygon (within 1e-5 in double precision):
 *              sepax hits at fraction 0 (its contract), Box2D 2.4 reports no hit;
 *   (2) corner both hit at the same fraction on a vertex (within 1e-5): the two normals are
 *              those of the vertex's two edges, each engine picking one;
 *   (3) graze  one hits and the other not, where the ray only grazes the polygon or ends on
 *              it (the double-precision slab interval, or its distance to the end of the ray,
 *              under 1e-5 of the scale);
 *   unexplained: anything else.
 * Fails on any unexplained ray, on fewer than 95% agreeing, or when the library's answers
 * are not bit-identical to sepax_ref_raycast's. --selftest corrupts copies of agreeing hits
 * clear of the explained windows (slab, vertex and end distances over 10 tolerances): fraction
 * moved by 1e-3 of the scale, normal turned by 1e-3, hit dropped; it passes only if every one
 * comes out unexplained. SEPAX_TEST_PAIRS in the environment lowers the count. */
#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "sepax_ref.h"
extern "C" {
#include "workload.h"
}

namespace {

enum Class { AGREE_MISS, AGREE_HIT, INSIDE, CORNER, GRAZE, UNEXPLAINED, CLASS_COUNT };
const char *const class_names[CLASS_COUNT] = {
    "agree: both miss",
    "agree: both hit, same fraction and normal",
    "(1) origin inside or on the polygon: sepax fraction 0, Box2D no hit",
    "(2) hit on a vertex: each engine takes one edge's normal",
    "(3) grazing or ending on the polygon within rounding",
    "unexplained",
};

const double tol_rel = 1e-5; // of the scale: distances along the ray, positions
const double tol_normal = 1e-4;

struct Box2DHit {
    bool hit;
    double fraction, nx, ny;
};

// What double precision says of ray r against polygon v (sepax's world vertices).
struct Exact {
    double t0, t1; // the slab interval of the infinite line, in fractions
    double inside; // largest plane distance of the origin (<= 0: inside or on)
    double vertex; // distance from the sepax hit point to the nearest vertex
    double len;    // |direction|
};

Exact exact_of(const sepax_shape_view &v, const sepax_ray &r, double fraction) {
    Exact e = {-INFINITY, INFINITY, -INFINITY, INFINITY, std::hypot(r.direction.x, r.direction.y)};
    double ox = r.origin.x, oy = r.origin.y, dx = r.direction.x, dy = r.direction.y;
    for (int k = 0; k < v.count; k++) {
        int k2 = k + 1 < v.count ? k + 1 : 0;
        double ex = (double)v.x[k2] - v.x[k], ey = (double)v.y[k2] - v.y[k];
        double l = std::hypot(ex, ey), nx = ey / l, ny = -ex / l;
        double s0 = nx * (ox - v.x[k]) + ny * (oy - v.y[k]), rate = nx * dx + ny * dy;
        e.inside = std::fmax(e.inside, s0);
        if (rate < 0)
            e.t0 = std::fmax(e.t0, -s0 / rate);
        else if (rate > 0)
            e.t1 = std::fmin(e.t1, -s0 / rate);
        else if (s0 > 0)
            e.t1 = -INFINITY; // parallel and outside
        double px = ox + fraction * dx, py = oy + fraction * dy;
        e.vertex = std::fmin(e.vertex, std::hypot(px - v.x[k], py - v.y[k]));
    }
    return e;
}

double scale_of(const sepax_shape_view &v) {
    double scale = 1.0;
    for (int k = 0; k < v.count; k++)
        scale = std::fmax(scale, std::fmax(std::fabs(v.x[k]), std::fabs(v.y[k])));
    return scale;
}

Class classify(const sepax_shape_view &v, const sepax_ray &r, const sepax_ray_hit &s,
               const Box2DHit &b) {
    double tol = tol_rel * scale_of(v);
    Exact e = exact_of(v, r, s.fraction);
    if (!s.hit && !b.hit) return AGREE_MISS;
    if (s.hit && b.hit) {
        double dt = std::fabs(s.fraction - b.fraction) * e.len;
        double dn = std::hypot(s.normal.x - b.nx, s.normal.y - b.ny);
        if (dt <= tol && dn <= tol_normal) return AGREE_HIT;
        if (dt <= tol && e.vertex <= tol) return CORNER;
        return UNEXPLAINED;
    }
    if (s.hit && s.fraction == 0.0f && e.inside <= tol) return INSIDE;
    bool graze = (e.t1 - e.t0) * e.len <= tol || std::fabs(e.t0 - r.max_fraction) * e.len <= tol ||
                 std::fabs(e.t1) * e.len <= tol;
    return graze ? GRAZE : UNEXPLAINED;
}

bool box2d_polygon(const sepax_shape_view &v, b2PolygonShape *out) {
    b2Vec2 pts[SEPAX_MAX_VERTS];
    for (int k = 0; k < v.count; k++) pts[k].Set(v.x[k], v.y[k]);
    out->Set(pts, v.count);
    out->m_radius = 0.0f;
    if (out->m_count != v.count) return false;
    for (int k = 0; k < v.count; k++) { // the same vertices, maybe from another start
        bool found = false;
        for (int j = 0; j < v.count && !found; j++)
            found = out->m_vertices[j].x == v.x[k] && out->m_vertices[j].y == v.y[k];
        if (!found) return false;
    }
    return true;
}

} // namespace

int main(int argc, char **argv) {
    size_t n = 100000;
    uint64_t seed = 0x7a5eedull;
    bool selftest = false;
    int verbose = 5;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (std::strcmp(a, "--selftest") == 0) {
            selftest = true;
        } else if (v && std::strcmp(a, "--rays") == 0) {
            n = (size_t)std::strtoul(v, nullptr, 10);
            i++;
        } else if (v && std::strcmp(a, "--seed") == 0) {
            seed = std::strtoull(v, nullptr, 0);
            i++;
        } else if (v && std::strcmp(a, "--verbose") == 0) {
            verbose = std::atoi(v);
            i++;
        } else {
            std::fprintf(stderr, "usage: %s [--rays N] [--seed S] [--selftest] [--verbose N]\n",
                         argv[0]);
            return 2;
        }
    }
    const char *env = std::getenv("SEPAX_TEST_PAIRS");
    if (env && std::strtoul(env, nullptr, 10) > 0 && std::strtoul(env, nullptr, 10) < n)
        n = std::strtoul(env, nullptr, 10);

    wl_config cfg = wl_default();
    cfg.kinds = WL_POLYGONS;
    cfg.pairs = n;
    cfg.seed = seed;
    sepax_shapes *store = sepax_shapes_create(cfg.shapes);
    std::vector<sepax_pair> pairs(n);
    std::vector<sepax_ray> rays(n);
    std::vector<uint32_t> ids(n);
    std::vector<sepax_ray_hit> got(n), want(n);
    if (!store || wl_fill_store(store, &cfg) != SEPAX_OK ||
        wl_pose_randomly(store, seed) != SEPAX_OK ||
        wl_make_pairs(store, &cfg, pairs.data()) != SEPAX_OK) {
        std::fprintf(stderr, "could not build the workload\n");
        return 1;
    }
    uint32_t shapes = sepax_shapes_count(store);
    std::vector<b2PolygonShape> polys(shapes);
    std::vector<char> usable(shapes);
    size_t differing = 0;
    for (uint32_t i = 0; i < shapes; i++) {
        sepax_shape_view v;
        sepax_shapes_view(store, sepax_shapes_id(store, i), &v);
        usable[i] = box2d_polygon(v, &polys[i]);
        differing += !usable[i];
    }
    // the benchmarks' rays (towards B), and one in four turned any way
    std::vector<sepax_vec2> vel(n);
    wl_bench_motion(store, pairs.data(), n, seed, vel.data(), rays.data(), ids.data());
    wl_rng r = {seed ^ 0x7a7au};
    for (size_t i = 3; i < n; i += 4)
        rays[i].direction = {8.0f * (wl_unit(&r) - 0.5f), 8.0f * (wl_unit(&r) - 0.5f)};
    if (sepax_raycast(store, rays.data(), ids.data(), n, got.data()) != SEPAX_OK ||
        sepax_ref_raycast(store, rays.data(), ids.data(), n, want.data()) != SEPAX_OK) {
        std::fprintf(stderr, "raycast refused the workload\n");
        return 1;
    }
    if (std::memcmp(got.data(), want.data(), n * sizeof got[0]) != 0) {
        std::fprintf(stderr, "FAIL: sepax_raycast differs from sepax_ref_raycast\n");
        return 1;
    }

    size_t count[CLASS_COUNT] = {}, skipped = 0, corrupted = 0, caught = 0;
    double worst_t = 0, worst_n = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t s = ids[i] & SEPAX_ID_INDEX_MASK;
        if (!usable[s]) {
            skipped++;
            continue;
        }
        sepax_shape_view v;
        sepax_shapes_view(store, ids[i], &v);
        b2RayCastInput in;
        in.p1.Set(rays[i].origin.x, rays[i].origin.y);
        in.p2.Set(rays[i].origin.x + rays[i].direction.x, rays[i].origin.y + rays[i].direction.y);
        in.maxFraction = rays[i].max_fraction;
        b2RayCastOutput out;
        b2Transform xf;
        xf.SetIdentity();
        Box2DHit b = {polys[s].RayCast(&out, in, xf, 0), 0, 0, 0};
        if (b.hit) b = {true, out.fraction, out.normal.x, out.normal.y};
        Class c = classify(v, rays[i], got[i], b);
        count[c]++;
        if (c == AGREE_HIT) {
            double len = std::hypot(rays[i].direction.x, rays[i].direction.y);
            worst_t =
                std::fmax(worst_t, std::fabs(got[i].fraction - b.fraction) * len / scale_of(v));
            worst_n =
                std::fmax(worst_n, std::hypot(got[i].normal.x - b.nx, got[i].normal.y - b.ny));
            Exact e = exact_of(v, rays[i], got[i].fraction);
            double tol = tol_rel * scale_of(v);
            bool clear = (e.t1 - e.t0) * e.len > 10 * tol && e.vertex > 10 * tol &&
                         std::fabs(e.t0 - rays[i].max_fraction) * e.len > 10 * tol;
            if (selftest && clear) { // three corruptions of a hit clear of every tie
                double scale = scale_of(v);
                sepax_ray_hit bad[3] = {got[i], got[i], got[i]};
                bad[0].fraction += (float)(1e-3 * scale / len);
                float c1 = std::cos(1e-3f), s1 = std::sin(1e-3f);
                bad[1].normal = {c1 * got[i].normal.x - s1 * got[i].normal.y,
                                 s1 * got[i].normal.x + c1 * got[i].normal.y};
                bad[2] = sepax_ray_hit{0, 0.0f, {0, 0}, {0, 0}};
                for (const sepax_ray_hit &h : bad) {
                    corrupted++;
                    caught += classify(v, rays[i], h, b) == UNEXPLAINED;
                }
            }
        }
        if (c == UNEXPLAINED && verbose > 0) {
            verbose--;
            std::printf("unexplained ray %zu: o (%.9g, %.9g) d (%.9g, %.9g): sepax hit %u f %.9g "
                        "n (%.7g, %.7g); Box2D hit %d f %.9g n (%.7g, %.7g)\n",
                        i, (double)rays[i].origin.x, (double)rays[i].origin.y,
                        (double)rays[i].direction.x, (double)rays[i].direction.y, got[i].hit,
                        (double)got[i].fraction, (double)got[i].normal.x, (double)got[i].normal.y,
                        (int)b.hit, b.fraction, b.nx, b.ny);
        }
    }
    size_t judged = n - skipped, agree = count[AGREE_MISS] + count[AGREE_HIT];
    std::printf("sepax_raycast vs Box2D 2.4 b2PolygonShape::RayCast: %zu rays against posed "
                "polygons (%zu left out: Box2D's hull differs for %zu of %u shapes)\n",
                judged, skipped, differing, shapes);
    for (int c = 0; c < CLASS_COUNT; c++) std::printf("  %-70s %7zu\n", class_names[c], count[c]);
    std::printf("worst among agreeing hits: hit points %.3g apart along the ray (of the "
                "polygon's coordinates), normals %.3g\n",
                worst_t, worst_n);
    int fail = count[UNEXPLAINED] > 0 || agree * 100 < judged * 95;
    if (selftest) {
        std::printf("selftest: %zu of %zu corrupted hits caught\n", caught, corrupted);
        fail = corrupted < 1000 || caught != corrupted;
    }
    std::printf("%s\n", fail ? "FAIL" : "ok");
    sepax_shapes_destroy(store);
    return fail;
}
