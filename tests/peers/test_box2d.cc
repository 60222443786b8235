/* sepax_collide_manifold side by side with Box2D 2.4 (b2CollidePolygons, then
 * b2WorldManifold::Initialize), on random pairs of sharp convex polygons.
 *
 *   sepax-test-box2d [--pairs N] [--seed S] [--selftest]
 *                    [--show tie|clip|touch|unexplained] [--verbose N]
 *
 * Both get the same polygons: each is added to a sepax store in its own frame, read back
 * with sepax_shapes_local (CCW, welded) and given to b2PolygonShape::Set with m_radius 0;
 * a polygon whose Box2D hull is not exactly sepax's vertices (Box2D welds points closer than
 * 0.5 * b2_linearSlop) is drawn again. Poses come from sepax_rot, and Box2D's b2Transform is
 * built from the same position, cosine and sine.
 *
 * Every pair is put in one class:
 *   agree      both miss, or both hit with the same point count, normals within 1e-5, every
 *              point of one within 1e-4 of a point of the other with separations within 1e-4,
 *              and sepax's depth within 1e-4 of minus Box2D's largest separation;
 *   (1) tie    the reference face is a near-tie: Box2D keeps A's face unless B's separation
 *              is larger by more than k_tol = 0.1 * b2_linearSlop, sepax takes the larger; or
 *              two faces of one polygon within rounding (1e-5). Both normals must be those of
 *              faces inside that window;
 *   (2) clip   Box2D's clip left fewer than 2 points (or none within the margin), so it has 0,
 *              and sepax has its 1 point: the deepest incident vertex, separation = -depth;
 *   (3) touch  within rounding of touching: one hits and the other not with |depth| < 1e-5,
 *              or a clipped point at |separation| < 1e-5 kept by one and not the other;
 *   unexplained: anything else.
 * Fails (exit 1) on any unexplained pair, on fewer than 95% agreeing, when the library's
 * manifolds are not bit-identical to sepax_ref_collide_manifold's, or when a manifold's
 * normal and depth are not sepax_collide's.
 *
 * --selftest checks the checker: it corrupts copies of agreeing pairs (normal flipped, a point
 * moved by 0.01, a separation changed by 0.01, a point dropped or the depth changed) and
 * passes only if every corrupted pair comes out unexplained.
 *
 * SEPAX_TEST_PAIRS in the environment lowers the pair count (the valgrind stage). */
#include <box2d/box2d.h>

#include <algorithm>
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

const double k_tol = 0.1 * (double)b2_linearSlop; // Box2D's preference for A's face
const double tol_normal = 1e-5;                   // unit-size shapes
const double tol_point = 1e-4;
const double tol_sep = 1e-4;
const double tol_touch = 1e-5; // "touching" within rounding
const double tol_tie = 1e-5;   // two faces of one polygon equally good within rounding

enum Class { AGREE_MISS, AGREE_HIT, TIE, CLIP, TOUCH, UNEXPLAINED, CLASS_COUNT };
const char *const class_names[CLASS_COUNT] = {
    "agree: both miss",
    "agree: both hit, same manifold",
    "(1) reference face near-tie (Box2D k_tol, or rounding)",
    "(2) Box2D clip left < 2 points (0 points), sepax 1",
    "(3) touching within rounding",
    "unexplained",
};

struct Options {
    size_t pairs = 100000;
    uint64_t seed = 0xb0c2d5eedull;
    int verbose = 5; // pairs of class `show` described in full
    int show = UNEXPLAINED;
    bool selftest = false;
};

// Box2D's answer for one pair, plus what its b2FindMaxSeparation finds (replicated below).
struct Box2DResult {
    int count; // manifold points
    double normal[2];
    double point[2][2];
    double separation[2];
    float sep_a, sep_b; // b2FindMaxSeparation of A's faces against B, and B's against A
    bool hit;           // Box2D went past its early outs (both separations <= 0)
};

// The same shapes in both: sepax world data (double) for the geometric checks.
struct World {
    int n;
    double x[SEPAX_MAX_VERTS], y[SEPAX_MAX_VERTS], nx[SEPAX_MAX_VERTS], ny[SEPAX_MAX_VERTS];
};

struct Stats {
    size_t count[CLASS_COUNT] = {};
    double worst_normal = 0, worst_point = 0, worst_sep = 0, worst_depth = 0;
};

void usage(const char *argv0) {
    std::fprintf(stderr,
                 "usage: %s [--pairs N] [--seed S] [--selftest]\n"
                 "          [--show tie|clip|touch|unexplained] [--verbose N]\n",
                 argv0);
    std::exit(2);
}

Options parse(int argc, char **argv) {
    Options o;
    const char *env = std::getenv("SEPAX_TEST_PAIRS");
    size_t env_pairs = env ? (size_t)std::strtoul(env, nullptr, 10) : 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (std::strcmp(a, "--selftest") == 0) {
            o.selftest = true;
            continue;
        }
        if (!v) usage(argv[0]);
        i++;
        if (std::strcmp(a, "--pairs") == 0)
            o.pairs = (size_t)std::strtoul(v, nullptr, 10);
        else if (std::strcmp(a, "--seed") == 0)
            o.seed = std::strtoull(v, nullptr, 0);
        else if (std::strcmp(a, "--verbose") == 0)
            o.verbose = std::atoi(v);
        else if (std::strcmp(a, "--show") == 0) {
            static const char *const names[] = {"tie", "clip", "touch", "unexplained"};
            o.show = -1;
            for (int c = 0; c < 4; c++)
                if (std::strcmp(v, names[c]) == 0) o.show = TIE + c;
            if (o.show < 0) usage(argv[0]);
        } else
            usage(argv[0]);
    }
    if (env_pairs > 0 && env_pairs < o.pairs) o.pairs = env_pairs;
    if (o.pairs < 1) usage(argv[0]);
    return o;
}

// A sharp convex n-gon around its local origin, about 0.5 to 2 across: one vertex per equal
// sector of the circle, jittered inside its sector, then stretched and turned.
void random_polygon(wl_rng *r, int n, sepax_vec2 *out) {
    const float two_pi = 6.28318530718f;
    float radius = 0.25f + 0.6f * wl_unit(r), stretch = 0.7f + 0.6f * wl_unit(r);
    sepax_rotation t = sepax_rot(two_pi * wl_unit(r));
    for (int k = 0; k < n; k++) {
        float a = two_pi * ((float)k + 0.1f + 0.8f * wl_unit(r)) / (float)n;
        sepax_rotation ra = sepax_rot(a);
        float x = radius * ra.c * stretch, y = radius * ra.s / stretch;
        out[k].x = t.c * x - t.s * y;
        out[k].y = t.s * x + t.c * y;
    }
}

// Box2D's polygon of a sepax shape: its local vertices, radius 0. False when Box2D's hull is
// not exactly those vertices.
bool box2d_polygon(const sepax_local_shape &local, b2PolygonShape *poly) {
    b2Vec2 pts[SEPAX_MAX_VERTS];
    for (int k = 0; k < local.count; k++) pts[k].Set(local.vertex[k].x, local.vertex[k].y);
    poly->Set(pts, local.count);
    poly->m_radius = 0.0f; // sharp: b2PolygonShape::Set gives b2_polygonRadius
    if (poly->m_count != local.count) return false;
    for (int i = 0; i < local.count; i++) {
        bool found = false;
        for (int k = 0; k < local.count && !found; k++)
            found = poly->m_vertices[i].x == local.vertex[k].x &&
                    poly->m_vertices[i].y == local.vertex[k].y;
        if (!found) return false;
    }
    return true;
}

b2Transform box2d_transform(const sepax_pose &pose) {
    b2Transform xf;
    xf.p.Set(pose.position.x, pose.position.y);
    xf.q.s = pose.rotation.s;
    xf.q.c = pose.rotation.c;
    return xf;
}

// b2FindMaxSeparation of b2_collide_polygon.cpp (static there), the same arithmetic: the
// largest separation over poly1's faces, computed in poly2's frame.
float box2d_max_separation(int *edge, const b2PolygonShape &p1, const b2Transform &xf1,
                           const b2PolygonShape &p2, const b2Transform &xf2) {
    b2Transform xf = b2MulT(xf2, xf1);
    int best = 0;
    float max_sep = -b2_maxFloat;
    for (int i = 0; i < p1.m_count; i++) {
        b2Vec2 n = b2Mul(xf.q, p1.m_normals[i]);
        b2Vec2 v1 = b2Mul(xf, p1.m_vertices[i]);
        float si = b2_maxFloat;
        for (int j = 0; j < p2.m_count; j++) {
            float sij = b2Dot(n, p2.m_vertices[j] - v1);
            if (sij < si) si = sij;
        }
        if (si > max_sep) {
            max_sep = si;
            best = i;
        }
    }
    *edge = best;
    return max_sep;
}

Box2DResult box2d_collide(const b2PolygonShape &pa, const b2Transform &xa, const b2PolygonShape &pb,
                          const b2Transform &xb) {
    Box2DResult r;
    std::memset(&r, 0, sizeof r);
    int edge_a = 0, edge_b = 0;
    r.sep_a = box2d_max_separation(&edge_a, pa, xa, pb, xb);
    r.sep_b = box2d_max_separation(&edge_b, pb, xb, pa, xa);
    r.hit = r.sep_a <= 0.0f && r.sep_b <= 0.0f; // b2CollidePolygons' early outs, radius 0
    b2Manifold m;
    b2CollidePolygons(&m, &pa, xa, &pb, xb);
    r.count = m.pointCount;
    if (m.pointCount > 0) {
        b2WorldManifold wm;
        wm.Initialize(&m, xa, pa.m_radius, xb, pb.m_radius);
        r.normal[0] = wm.normal.x;
        r.normal[1] = wm.normal.y;
        for (int k = 0; k < m.pointCount; k++) {
            r.point[k][0] = wm.points[k].x;
            r.point[k][1] = wm.points[k].y;
            r.separation[k] = wm.separations[k];
        }
    } else if (r.hit) { // no points: the normal of the face it picked, as b2CollidePolygons does
        b2Vec2 n = r.sep_b > r.sep_a + 0.1f * b2_linearSlop ? -b2Mul(xb.q, pb.m_normals[edge_b])
                                                            : b2Mul(xa.q, pa.m_normals[edge_a]);
        r.normal[0] = n.x;
        r.normal[1] = n.y;
    }
    return r;
}

World world_of(const sepax_shapes *store, uint32_t id) {
    sepax_shape_view v;
    World w;
    std::memset(&w, 0, sizeof w);
    if (sepax_shapes_view(store, id, &v) != SEPAX_OK) return w;
    w.n = v.count;
    for (int k = 0; k < v.count; k++) {
        w.x[k] = v.x[k];
        w.y[k] = v.y[k];
        w.nx[k] = v.nx[k];
        w.ny[k] = v.ny[k];
    }
    return w;
}

// Separation of face i of p (its plane) against q's vertices, in double.
double face_separation(const World &p, int i, const World &q) {
    double s = HUGE_VAL;
    for (int j = 0; j < q.n; j++)
        s = std::min(s, p.nx[i] * (q.x[j] - p.x[i]) + p.ny[i] * (q.y[j] - p.y[i]));
    return s;
}

double dist(double ax, double ay, double bx, double by) { return std::hypot(ax - bx, ay - by); }

// Does normal n (from A to B) belong to a face the reference choice may pick: A's faces (n =
// their normal) and B's (n = minus theirs) whose separation is within rounding of the best,
// and A's best face when B's best beats it by no more than k_tol (Box2D keeps A's then)?
// *window_faces counts the faces inside that window: a tie needs two.
bool in_tie_window(const World &a, const World &b, double nx, double ny, int *window_faces) {
    double sa[SEPAX_MAX_VERTS], sb[SEPAX_MAX_VERTS], best_a = -HUGE_VAL, best_b = -HUGE_VAL;
    for (int i = 0; i < a.n; i++) best_a = std::max(best_a, sa[i] = face_separation(a, i, b));
    for (int j = 0; j < b.n; j++) best_b = std::max(best_b, sb[j] = face_separation(b, j, a));
    double best = std::max(best_a, best_b);
    // Box2D keeps A's best face while B's best is at most k_tol larger
    double floor_a = best_b > best_a && best_b - best_a <= k_tol + tol_tie ? best_a : best;
    bool match = false;
    *window_faces = 0;
    for (int i = 0; i < a.n; i++)
        if (sa[i] >= std::min(best, floor_a) - tol_tie) {
            ++*window_faces;
            match = match || dist(nx, ny, a.nx[i], a.ny[i]) <= tol_normal;
        }
    for (int j = 0; j < b.n; j++)
        if (sb[j] >= best - tol_tie) {
            ++*window_faces;
            match = match || dist(nx, ny, -b.nx[j], -b.ny[j]) <= tol_normal;
        }
    return match;
}

// Every point of `p` (count np) within tolerance of one of `q`, separations too; the largest
// distances go to *worst_point and *worst_sep.
bool points_within(const double (*p)[2], const double *ps, int np, const double (*q)[2],
                   const double *qs, int nq, double *worst_point, double *worst_sep) {
    for (int i = 0; i < np; i++) {
        int best = -1;
        double d = HUGE_VAL;
        for (int k = 0; k < nq; k++) {
            double dk = dist(p[i][0], p[i][1], q[k][0], q[k][1]);
            if (dk < d) d = dk, best = k;
        }
        if (best < 0 || d > tol_point || std::fabs(ps[i] - qs[best]) > tol_sep) return false;
        *worst_point = std::max(*worst_point, d);
        *worst_sep = std::max(*worst_sep, std::fabs(ps[i] - qs[best]));
    }
    return true;
}

// The class of one pair; agreeing pairs update the worst differences in *st.
Class classify(const sepax_manifold &m, const Box2DResult &b, const World &wa, const World &wb,
               Stats *st) {
    if (m.count == 0 && !b.hit) {
        sepax_manifold zero;
        std::memset(&zero, 0, sizeof zero);
        return std::memcmp(&m, &zero, sizeof m) == 0 && b.count == 0 ? AGREE_MISS : UNEXPLAINED;
    }
    if ((m.count > 0) != b.hit) { // one hits, the other not: only right at touching
        double sep = m.count > 0 ? -(double)m.depth : std::max(b.sep_a, b.sep_b);
        return std::fabs(sep) < tol_touch ? TOUCH : UNEXPLAINED;
    }
    // both hit; the points past count must be zero
    if (m.count > SEPAX_MANIFOLD_POINTS) return UNEXPLAINED;
    sepax_contact zero_point;
    std::memset(&zero_point, 0, sizeof zero_point);
    for (uint32_t k = m.count; k < SEPAX_MANIFOLD_POINTS; k++)
        if (std::memcmp(&m.points[k], &zero_point, sizeof zero_point) != 0) return UNEXPLAINED;
    double sp[2][2], ss[2];
    for (uint32_t k = 0; k < m.count; k++) {
        sp[k][0] = m.points[k].point.x;
        sp[k][1] = m.points[k].point.y;
        ss[k] = m.points[k].separation;
    }
    int sn = (int)m.count;
    double depth_diff = std::fabs((double)m.depth + std::max(b.sep_a, b.sep_b));
    double normal_diff = dist(m.normal.x, m.normal.y, b.normal[0], b.normal[1]);
    bool normal_ok = normal_diff <= tol_normal;
    if (depth_diff > tol_sep) return UNEXPLAINED; // SAT's depth does not depend on the face
    double wp = 0, ws = 0;
    if (normal_ok && sn == b.count &&
        points_within(sp, ss, sn, b.point, b.separation, b.count, &wp, &ws) &&
        points_within(b.point, b.separation, b.count, sp, ss, sn, &wp, &ws)) {
        st->worst_normal = std::max(st->worst_normal, normal_diff);
        st->worst_point = std::max(st->worst_point, wp);
        st->worst_sep = std::max(st->worst_sep, ws);
        st->worst_depth = std::max(st->worst_depth, depth_diff);
        return AGREE_HIT;
    }
    // (2) Box2D's clip failed; sepax's one point is the deepest vertex of the incident
    // polygon, halfway to the reference face: separation -depth, and moving it half its
    // separation along the normal (towards B for A's face, towards A for B's) lands on a vertex
    if (normal_ok && b.count == 0 && sn == 1 && std::fabs(ss[0] + m.depth) <= tol_sep) {
        double hx = 0.5 * ss[0] * m.normal.x, hy = 0.5 * ss[0] * m.normal.y, d = HUGE_VAL;
        for (int j = 0; j < wb.n; j++)
            d = std::min(d, dist(sp[0][0] + hx, sp[0][1] + hy, wb.x[j], wb.y[j]));
        for (int i = 0; i < wa.n; i++)
            d = std::min(d, dist(sp[0][0] - hx, sp[0][1] - hy, wa.x[i], wa.y[i]));
        if (d <= tol_point) return CLIP;
    }
    // (3) a clipped point right at the surface (|separation| < tol_touch) kept by one only;
    // the rest agree
    if (normal_ok && std::abs(sn - b.count) == 1) {
        bool sepax_more = sn > b.count;
        const double(*more)[2] = sepax_more ? sp : b.point;
        const double *more_s = sepax_more ? ss : b.separation;
        const double(*fewer)[2] = sepax_more ? b.point : sp;
        const double *fewer_s = sepax_more ? b.separation : ss;
        int nf = sepax_more ? b.count : sn;
        bool extra_at_surface = false;
        for (int k = 0; k < nf + 1; k++) {
            double d = HUGE_VAL;
            for (int i = 0; i < nf; i++)
                d = std::min(d, dist(more[k][0], more[k][1], fewer[i][0], fewer[i][1]));
            if (d > tol_point && std::fabs(more_s[k]) < tol_touch) extra_at_surface = true;
        }
        if (extra_at_surface && points_within(fewer, fewer_s, nf, more, more_s, nf + 1, &wp, &ws))
            return TOUCH;
    }
    // (1) a different reference face, both inside the tie window
    int faces = 0;
    if (in_tie_window(wa, wb, m.normal.x, m.normal.y, &faces) &&
        in_tie_window(wa, wb, b.normal[0], b.normal[1], &faces) && faces >= 2)
        return TIE;
    return UNEXPLAINED;
}

void describe(size_t i, const sepax_pair &p, const sepax_manifold &m, const Box2DResult &b,
              const World &wa, const World &wb) {
    std::printf("pair %zu (shapes %u, %u):\n  sepax: count %u normal (%.9g, %.9g) depth %.9g\n", i,
                p.a, p.b, m.count, (double)m.normal.x, (double)m.normal.y, (double)m.depth);
    for (uint32_t k = 0; k < m.count && k < SEPAX_MANIFOLD_POINTS; k++)
        std::printf("    point (%.9g, %.9g) separation %.9g id 0x%08x\n",
                    (double)m.points[k].point.x, (double)m.points[k].point.y,
                    (double)m.points[k].separation, m.points[k].id);
    std::printf("  box2d: count %d normal (%.9g, %.9g), max separations A %.9g B %.9g%s\n", b.count,
                b.normal[0], b.normal[1], (double)b.sep_a, (double)b.sep_b,
                b.hit ? "" : " (no hit)");
    for (int k = 0; k < b.count; k++)
        std::printf("    point (%.9g, %.9g) separation %.9g\n", b.point[k][0], b.point[k][1],
                    b.separation[k]);
    const World *w[2] = {&wa, &wb};
    for (int s = 0; s < 2; s++) {
        std::printf("  %c:", "AB"[s]);
        for (int k = 0; k < w[s]->n; k++) std::printf(" (%.9g, %.9g)", w[s]->x[k], w[s]->y[k]);
        std::printf("\n");
    }
}

// Corrupt an agreeing manifold in one of four ways, each far beyond the tolerances.
void corrupt(sepax_manifold *m, int how) {
    switch (how % 4) {
    case 0:
        m->normal.x = -m->normal.x;
        m->normal.y = -m->normal.y;
        break;
    case 1:
        m->points[0].point.x += 0.01f;
        m->points[0].point.y -= 0.01f;
        break;
    case 2: m->points[0].separation += 0.01f; break;
    default:
        if (m->count == 2) {
            m->count = 1;
            std::memset(&m->points[1], 0, sizeof m->points[1]);
        } else {
            m->depth += 0.01f;
        }
        break;
    }
}

} // namespace

int main(int argc, char **argv) {
    Options o = parse(argc, argv);
    size_t n = o.pairs, shapes = 2 * n;
    sepax_shapes *store = sepax_shapes_create(shapes);
    std::vector<b2PolygonShape> polys(shapes);
    std::vector<b2Transform> xfs(shapes);
    std::vector<sepax_pose> poses(shapes);
    std::vector<sepax_pair> pairs(n);
    std::vector<uint32_t> ids(shapes);
    std::vector<float> reach(shapes); // farthest vertex from the local origin
    if (!store) {
        std::fprintf(stderr, "out of memory\n");
        return 1;
    }

    // shapes: added in local coordinates; Box2D gets what sepax stored
    wl_rng r = {o.seed};
    size_t redrawn = 0;
    for (size_t s = 0; s < shapes; s++) {
        for (;;) {
            sepax_vec2 pts[SEPAX_MAX_VERTS];
            int nv = wl_range(&r, 3, SEPAX_MAX_VERTS);
            random_polygon(&r, nv, pts);
            uint32_t id;
            if (sepax_shapes_add_polygon(store, pts, nv, &id) != SEPAX_OK) {
                redrawn++;
                continue;
            }
            sepax_local_shape local;
            if (sepax_shapes_local(store, id, &local) != SEPAX_OK) {
                std::fprintf(stderr, "sepax_shapes_local failed\n");
                return 1;
            }
            if (!box2d_polygon(local, &polys[s])) { // the last shape: removing it moves none
                sepax_move moved;
                if (sepax_shapes_remove(store, id, &moved) != SEPAX_OK ||
                    moved.from != SEPAX_NO_ID) {
                    std::fprintf(stderr, "sepax_shapes_remove failed\n");
                    return 1;
                }
                redrawn++;
                continue;
            }
            ids[s] = id;
            float far = 0;
            for (int k = 0; k < local.count; k++)
                far = std::max(far, std::hypot(local.vertex[k].x, local.vertex[k].y));
            reach[s] = far;
            break;
        }
    }
    // poses: A anywhere in a 32 x 32 square, B in a random direction at up to 1.5 times the sum
    // of their reaches (about half the pairs overlap); both turned at random
    const float two_pi = 6.28318530718f;
    for (size_t i = 0; i < n; i++) {
        size_t a = 2 * i, b = a + 1;
        sepax_rotation dir = sepax_rot(two_pi * wl_unit(&r));
        float d = 1.5f * (reach[a] + reach[b]) * wl_unit(&r);
        poses[a].position.x = 32.0f * wl_unit(&r) - 16.0f;
        poses[a].position.y = 32.0f * wl_unit(&r) - 16.0f;
        poses[b].position.x = poses[a].position.x + d * dir.c;
        poses[b].position.y = poses[a].position.y + d * dir.s;
        poses[a].rotation = sepax_rot(two_pi * wl_unit(&r) - 0.5f * two_pi);
        poses[b].rotation = sepax_rot(two_pi * wl_unit(&r) - 0.5f * two_pi);
        xfs[a] = box2d_transform(poses[a]);
        xfs[b] = box2d_transform(poses[b]);
        pairs[i].a = ids[a];
        pairs[i].b = ids[b];
    }
    if (sepax_shapes_set_poses(store, 0, shapes, poses.data()) != SEPAX_OK ||
        sepax_shapes_update(store) != SEPAX_OK) {
        std::fprintf(stderr, "could not set the poses\n");
        return 1;
    }

    // sepax: the library (automatic backend), the reference, and sepax_collide
    std::vector<sepax_manifold> got(n), want(n);
    std::vector<sepax_hit> hits(n);
    sepax_status st = sepax_collide_manifold(store, pairs.data(), n, got.data());
    if (st == SEPAX_OK) st = sepax_ref_collide_manifold(store, pairs.data(), n, want.data());
    if (st == SEPAX_OK) st = sepax_collide(store, pairs.data(), n, hits.data());
    if (st != SEPAX_OK) {
        std::fprintf(stderr, "sepax: %s\n", sepax_status_str(st));
        return 1;
    }
    size_t ref_diff = 0, collide_diff = 0;
    for (size_t i = 0; i < n; i++) {
        ref_diff += std::memcmp(&got[i], &want[i], sizeof got[i]) != 0;
        const sepax_manifold &m = got[i];
        collide_diff += (m.count > 0) != (hits[i].hit != 0) ||
                        std::memcmp(&m.normal, &hits[i].normal, sizeof m.normal) != 0 ||
                        std::memcmp(&m.depth, &hits[i].depth, sizeof m.depth) != 0;
    }

    // Box2D, pair by pair, and the classes
    Stats stats;
    std::vector<Box2DResult> box(n);
    std::vector<unsigned char> cls(n);
    size_t sepax_hits = 0, box2d_hits = 0, shown = 0;
    for (size_t i = 0; i < n; i++) {
        size_t a = 2 * i, b = a + 1;
        box[i] = box2d_collide(polys[a], xfs[a], polys[b], xfs[b]);
        World wa = world_of(store, pairs[i].a), wb = world_of(store, pairs[i].b);
        Class c = classify(got[i], box[i], wa, wb, &stats);
        cls[i] = (unsigned char)c;
        stats.count[c]++;
        sepax_hits += got[i].count > 0;
        box2d_hits += box[i].hit;
        if ((int)c == o.show && (int)shown < o.verbose && !o.selftest) {
            describe(i, pairs[i], got[i], box[i], wa, wb);
            shown++;
        }
    }

    if (o.selftest) { // every corrupted copy of an agreeing, clear-cut pair must be caught
        size_t tried = 0, caught = 0;
        for (size_t i = 0; i < n && tried < 400; i++) {
            if (cls[i] != AGREE_HIT || got[i].depth < 1e-3f) continue;
            World wa = world_of(store, pairs[i].a), wb = world_of(store, pairs[i].b);
            int faces = 0;
            in_tie_window(wa, wb, got[i].normal.x, got[i].normal.y, &faces);
            bool clear = faces == 1;
            for (uint32_t k = 0; k < got[i].count; k++)
                clear = clear && std::fabs(got[i].points[k].separation) > 1e-3f;
            if (!clear) continue;
            sepax_manifold m = got[i];
            corrupt(&m, (int)tried);
            Stats scratch;
            Class c = classify(m, box[i], wa, wb, &scratch);
            tried++;
            if (c == UNEXPLAINED)
                caught++;
            else
                std::printf("corruption %zu (kind %zu) of pair %zu passed as: %s\n", tried,
                            (tried - 1) % 4, i, class_names[c]);
        }
        std::printf("selftest: %zu of %zu corrupted manifolds caught\n", caught, tried);
        sepax_shapes_destroy(store);
        return tried >= 100 && caught == tried ? 0 : 1;
    }

    std::printf("sepax_collide_manifold (%s) vs Box2D 2.4 b2CollidePolygons, %zu pairs of sharp "
                "3-8-gons (%zu redrawn for Box2D's hull), margin 0\n",
                sepax_backend_name(sepax_get_backend()), n, redrawn);
    std::printf("hits: sepax %zu (%.1f%%), Box2D %zu\n\n", sepax_hits,
                100.0 * (double)sepax_hits / (double)n, box2d_hits);
    std::printf("| class | pairs | share |\n|---|---:|---:|\n");
    for (int c = 0; c < CLASS_COUNT; c++)
        std::printf("| %s | %zu | %.3f%% |\n", class_names[c], stats.count[c],
                    100.0 * (double)stats.count[c] / (double)n);
    std::printf("\nworst among agreeing hits: normal %.3g, point %.3g, separation %.3g, depth "
                "%.3g (tolerances %.0e, %.0e, %.0e, %.0e)\n",
                stats.worst_normal, stats.worst_point, stats.worst_sep, stats.worst_depth,
                tol_normal, tol_point, tol_sep, tol_sep);
    std::printf("library vs sepax_ref_collide_manifold: %zu pairs differ (bits)\n", ref_diff);
    std::printf("normal/depth/hit vs sepax_collide: %zu pairs differ (bits)\n", collide_diff);

    size_t agree = stats.count[AGREE_MISS] + stats.count[AGREE_HIT];
    bool ok = stats.count[UNEXPLAINED] == 0 && ref_diff == 0 && collide_diff == 0 &&
              (double)agree >= 0.95 * (double)n;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    sepax_shapes_destroy(store);
    return ok ? 0 : 1;
}
