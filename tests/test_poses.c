/* Poses: what sepax_shapes_set_poses refuses (all or nothing), when world
 * data changes, and what it changes to on hand-checked cases. The bitwise
 * agreement of every backend's update with the reference is in
 * test_equivalence.c (check_update). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sepax_ref.h"
#include "workload.h"

static sepax_shapes *store;

static void setup(void) {
    store = sepax_shapes_create(4);
    sepax_vec2 box[4] = {{-1, -0.5f}, {1, -0.5f}, {1, 0.5f}, {-1, 0.5f}};
    uint32_t id;
    for (int i = 0; i < 3; i++) cr_assert(sepax_shapes_add_polygon(store, box, 4, &id) == SEPAX_OK);
}
static void teardown(void) { sepax_shapes_destroy(store); }

TestSuite(poses, .init = setup, .fini = teardown);

static sepax_pose pose(float x, float y, float angle) {
    sepax_pose p = {{x, y}, sepax_rot(angle)};
    return p;
}

Test(poses, identity_until_set_and_updated) {
    sepax_pose p;
    cr_assert(sepax_shapes_get_pose(store, 1, &p) == SEPAX_OK);
    cr_expect(p.position.x == 0 && p.position.y == 0 && p.rotation.c == 1 && p.rotation.s == 0);
    sepax_shape_view v;
    sepax_shapes_view(store, 1, &v);
    cr_expect(v.x[1] == 1 && v.y[1] == -0.5f);
    sepax_pose moved = {{10, 20}, {0, 1}}; /* a quarter turn, exact */
    cr_assert(sepax_shapes_set_poses(store, 1, 1, &moved) == SEPAX_OK);
    sepax_shapes_view(store, 1, &v);
    cr_expect(v.x[1] == 1 && v.y[1] == -0.5f, "world data waits for the update");
    cr_assert(sepax_shapes_update(store) == SEPAX_OK);
    sepax_shapes_view(store, 1, &v);
    /* (1, -0.5) turned a quarter: (0.5, 1), then moved by (10, 20) */
    cr_expect(v.x[1] == 10.5f && v.y[1] == 21.0f, "(%g, %g)", v.x[1], v.y[1]);
    /* edge 0 ran along +x with normal (0,-1); turned, the normal is (1, 0) */
    cr_expect(v.nx[0] == 1 && v.ny[0] == 0);
    sepax_aabb box;
    cr_assert(sepax_shapes_aabb(store, 1, &box) == SEPAX_OK);
    cr_expect(box.lower.x == 9.5f && box.upper.x == 10.5f && box.lower.y == 19 &&
              box.upper.y == 21);
    sepax_local_shape local;
    cr_assert(sepax_shapes_local(store, 1, &local) == SEPAX_OK);
    cr_expect(local.count == 4 && local.vertex[1].x == 1 && local.vertex[1].y == -0.5f);
    /* the others did not move */
    sepax_shapes_view(store, 0, &v);
    cr_expect(v.x[1] == 1 && v.y[1] == -0.5f);
}

Test(poses, moved_shapes_collide_where_they_are) {
    sepax_pose poses[3] = {pose(0, 0, 0), pose(1.9f, 0, 0), pose(0, 5, 1.5707964f)};
    cr_assert(sepax_shapes_set_poses(store, 0, 3, poses) == SEPAX_OK);
    cr_assert(sepax_shapes_update(store) == SEPAX_OK);
    sepax_pair pairs[2] = {{0, 1}, {0, 2}};
    sepax_hit h[2];
    cr_assert(sepax_collide(store, pairs, 2, h) == SEPAX_OK);
    cr_expect(h[0].hit == 1 && fabsf(h[0].depth - 0.1f) < 1e-6f && h[0].normal.x == 1);
    cr_expect(h[1].hit == 0, "the upright box at y=5 reaches down to 4, clear of y=0.5");
}

Test(poses, refusals_change_nothing) {
    sepax_pose good = pose(3, 4, 0.5f);
    sepax_pose bad_nan = good, bad_far = good, bad_rot = good, bad_inf = good;
    bad_nan.rotation.s = NAN;
    bad_inf.position.x = INFINITY;
    bad_far.position.y = 2e18f;
    bad_rot.rotation = (sepax_rotation){1, 1};
    const struct {
        sepax_pose p;
        sepax_status want;
    } cases[] = {{bad_nan, SEPAX_ERR_NONFINITE},
                 {bad_inf, SEPAX_ERR_NONFINITE},
                 {bad_far, SEPAX_ERR_RANGE},
                 {bad_rot, SEPAX_ERR_BAD_POSE}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sepax_pose batch[3] = {good, good, cases[i].p}; /* the bad one last */
        cr_expect(sepax_shapes_set_poses(store, 0, 3, batch) == cases[i].want, "case %zu", i);
        sepax_pose p;
        sepax_shapes_get_pose(store, 0, &p);
        cr_expect(p.position.x == 0 && p.rotation.c == 1, "case %zu stored a pose", i);
    }
    cr_expect(sepax_shapes_set_poses(store, 2, 2, &good) == SEPAX_ERR_BAD_ID);
    cr_expect(sepax_shapes_set_poses(store, 4, 0, &good) == SEPAX_ERR_BAD_ID);
    cr_expect(sepax_shapes_set_poses(store, 3, 0, NULL) == SEPAX_OK);
    cr_expect(sepax_shapes_set_poses(store, 0, 1, NULL) == SEPAX_ERR_NULL);
    cr_expect(sepax_shapes_set_poses(NULL, 0, 1, &good) == SEPAX_ERR_NULL);
    cr_expect(sepax_shapes_update(NULL) == SEPAX_ERR_NULL);
    sepax_pose p;
    sepax_aabb box;
    sepax_local_shape local;
    cr_expect(sepax_shapes_get_pose(store, 3, &p) == SEPAX_ERR_BAD_ID);
    cr_expect(sepax_shapes_aabb(store, 3, &box) == SEPAX_ERR_BAD_ID);
    cr_expect(sepax_shapes_local(store, 3, &local) == SEPAX_ERR_BAD_ID);
    cr_expect(sepax_shapes_get_pose(store, 0, NULL) == SEPAX_ERR_NULL);
    sepax_world_shape w;
    cr_expect(sepax_ref_world(store, 3, &w) == SEPAX_ERR_BAD_ID);
}

/* The bounds hold every world vertex and touch the extremes. */
Test(poses, aabb_bounds_the_world_polygon) {
    for (int i = 0; i < 200; i++) {
        sepax_pose p = pose((float)i * 0.7f - 50, (float)i * -0.3f, (float)i * 0.173f);
        cr_assert(sepax_shapes_set_poses(store, 2, 1, &p) == SEPAX_OK);
        cr_assert(sepax_shapes_update(store) == SEPAX_OK);
        sepax_shape_view v;
        sepax_aabb b;
        sepax_shapes_view(store, 2, &v);
        sepax_shapes_aabb(store, 2, &b);
        int touch_lo_x = 0, touch_hi_y = 0;
        for (int k = 0; k < v.count; k++) {
            cr_expect(v.x[k] >= b.lower.x && v.x[k] <= b.upper.x && v.y[k] >= b.lower.y &&
                      v.y[k] <= b.upper.y);
            touch_lo_x |= v.x[k] == b.lower.x;
            touch_hi_y |= v.y[k] == b.upper.y;
        }
        cr_expect(touch_lo_x && touch_hi_y);
    }
}

/* A batch over many blocks, starting and ending mid-block: set_poses checks every pose in
 * one pass and writes whole blocks at a time, so every lane of every block, the partial
 * first and last blocks included, must hold its own pose; and one bad pose deep in such a
 * batch refuses all of it with the first bad pose's status. */
Test(poses, long_batches_land_lane_by_lane) {
    enum { N = 53, FIRST = 3, COUNT = 47 }; /* shapes 3 .. 49: blocks 0 and 6 in part */
    sepax_shapes *s = sepax_shapes_create(N);
    uint32_t id;
    for (int i = 0; i < N; i++)
        cr_assert(sepax_shapes_add_circle(s, (sepax_vec2){0, 0}, 1, &id) == SEPAX_OK);
    sepax_pose p[COUNT];
    for (int i = 0; i < COUNT; i++) p[i] = pose((float)i, (float)(2 * i), 0.1f * (float)i);
    cr_assert(sepax_shapes_set_poses(s, FIRST, COUNT, p) == SEPAX_OK);
    for (uint32_t i = 0; i < N; i++) {
        sepax_pose got;
        cr_assert(sepax_shapes_get_pose(s, i, &got) == SEPAX_OK);
        sepax_pose want = i >= FIRST && i < FIRST + COUNT ? p[i - FIRST] : pose(0, 0, 0);
        cr_expect(memcmp(&got, &want, sizeof got) == 0, "shape %u", i);
    }
    sepax_pose bad[COUNT];
    for (int i = 0; i < COUNT; i++) bad[i] = pose(-1, -1, 1);
    bad[37].position.x = 2e18f; /* the first bad pose: out of range */
    bad[40].rotation.c = NAN;   /* a later one, not finite */
    cr_expect(sepax_shapes_set_poses(s, FIRST, COUNT, bad) == SEPAX_ERR_RANGE);
    bad[37] = pose(-1, -1, 1);
    bad[12].rotation.s = 0.5f; /* now first: not a rotation */
    cr_expect(sepax_shapes_set_poses(s, FIRST, COUNT, bad) == SEPAX_ERR_BAD_POSE);
    for (uint32_t i = FIRST; i < FIRST + COUNT; i++) {
        sepax_pose got;
        sepax_shapes_get_pose(s, i, &got);
        cr_expect(memcmp(&got, &p[i - FIRST], sizeof got) == 0, "shape %u changed", i);
    }
    sepax_shapes_destroy(s);
}

static int negative_zero(float v) { return v == 0.0f && signbit(v); }

/* No -0 in the normals of hits[0 .. n-1] and mans[0 .. n-1], `who` giving them. */
static void expect_no_negative_zero(const sepax_hit *hits, const sepax_manifold *mans, size_t n,
                                    const char *who) {
    for (size_t i = 0; i < n; i++)
        cr_assert(!negative_zero(hits[i].normal.x) && !negative_zero(hits[i].normal.y) &&
                      !negative_zero(mans[i].normal.x) && !negative_zero(mans[i].normal.y),
                  "%s, pair %zu: normal (%g, %g)", who, i, (double)hits[i].normal.x,
                  (double)hits[i].normal.y);
}

/* A plane turned by an exact quarter turn can hold a -0 component (0 * 1 - 1 * 0 is -0 for
 * c = 0, s = 1, and 0 * -1 is -0), and collide passed A's planes' normals on as they were:
 * a review found normals (-0, -1), where README promises zero components +0. Boxes turned by
 * every quarter turn, each against a circle, a box, a capsule and a rounded box on each of its
 * four sides, on every backend, by collide, the manifold and the reference. */
Test(poses, turned_planes_give_no_negative_zero) {
    sepax_shapes *s = sepax_shapes_create(256);
    const sepax_rotation turns[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    const sepax_vec2 side[4] = {{0, -0.9f}, {0, 0.9f}, {0.9f, 0}, {-0.9f, 0}};
    const sepax_vec2 rounded[4] = {{-0.2f, -0.2f}, {0.2f, -0.2f}, {0.2f, 0.2f}, {-0.2f, 0.2f}};
    sepax_pair pairs[64];
    size_t n = 0;
    for (int q = 0; q < 4; q++) {
        uint32_t a;
        cr_assert_eq(sepax_shapes_add_box(s, 0.5f, 0.5f, &a), SEPAX_OK);
        sepax_pose pa = {{0.0f, 10.0f * (float)q}, turns[q]};
        cr_assert_eq(sepax_shapes_set_poses(s, a, 1, &pa), SEPAX_OK);
        for (int k = 0; k < 4; k++) {
            sepax_vec2 at = {side[k].x, side[k].y + 10.0f * (float)q};
            sepax_vec2 p0 = {at.x - 0.1f, at.y}, p1 = {at.x + 0.1f, at.y};
            uint32_t b[4];
            cr_assert_eq(sepax_shapes_add_circle(s, at, 0.5f, &b[0]), SEPAX_OK);
            cr_assert_eq(sepax_shapes_add_box(s, 0.5f, 0.5f, &b[1]), SEPAX_OK);
            sepax_pose pb = {{at.x + 0.2f * side[k].y, at.y + 0.2f * side[k].x}, turns[0]};
            cr_assert_eq(sepax_shapes_set_poses(s, b[1], 1, &pb), SEPAX_OK);
            cr_assert_eq(sepax_shapes_add_capsule(s, p0, p1, 0.4f, &b[2]), SEPAX_OK);
            cr_assert_eq(sepax_shapes_add_rounded(s, rounded, 4, 0.3f, &b[3]), SEPAX_OK);
            sepax_pose pr = {at, turns[0]};
            cr_assert_eq(sepax_shapes_set_poses(s, b[3], 1, &pr), SEPAX_OK);
            for (int j = 0; j < 4; j++) pairs[n++] = (sepax_pair){a, b[j]};
        }
    }
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    sepax_hit hits[64];
    sepax_manifold mans[64];
    cr_assert_eq(sepax_ref_collide(s, pairs, n, hits), SEPAX_OK);
    cr_assert_eq(sepax_ref_collide_manifold(s, pairs, n, mans), SEPAX_OK);
    size_t zeros = 0;
    for (size_t i = 0; i < n; i++) {
        cr_assert(hits[i].hit, "pair %zu misses", i);
        zeros += (hits[i].normal.x == 0.0f) + (hits[i].normal.y == 0.0f);
    }
    cr_assert_geq(zeros, n, "the cases hold a zero component each");
    expect_no_negative_zero(hits, mans, n, "reference");
    sepax_backend was = sepax_get_backend();
    for (int be = 0; be < SEPAX_BACKEND_COUNT; be++) {
        if (!sepax_backend_available((sepax_backend)be)) continue;
        cr_assert_eq(sepax_set_backend((sepax_backend)be), SEPAX_OK);
        cr_assert_eq(sepax_collide(s, pairs, n, hits), SEPAX_OK);
        cr_assert_eq(sepax_collide_manifold(s, pairs, n, mans), SEPAX_OK);
        expect_no_negative_zero(hits, mans, n, sepax_backend_name((sepax_backend)be));
    }
    cr_assert_eq(sepax_set_backend(was), SEPAX_OK);
    sepax_shapes_destroy(s);
}

/* Two stores alike, with new poses for a range of both: A updated by sepax_shapes_update_range,
 * B by sepax_shapes_update, must hold the same world (every view and box) and answer collide
 * and raycast_range (which reads the rows) alike, on every backend. Ranges: one shape, spans
 * that start and end inside blocks, the last partial block, every shape, none. A pose set just
 * outside the range's blocks without an update must stay unseen in A: the range writes its
 * blocks and nothing else. */
static sepax_shapes *range_store(uint32_t shapes) {
    sepax_shapes *s = sepax_shapes_create(0);
    cr_assert(s);
    wl_config cfg = wl_default();
    cfg.shapes = shapes;
    cfg.kinds = WL_MIXED;
    cfg.seed = 77;
    cr_assert_eq(wl_fill_store(s, &cfg), SEPAX_OK);
    cr_assert_eq(wl_pose_randomly(s, 78), SEPAX_OK);
    return s;
}

static void expect_same_answers(const sepax_shapes *a, const sepax_shapes *b, const char *what) {
    uint32_t n = sepax_shapes_count(a);
    for (uint32_t i = 0; i < n; i++) {
        wl_view_copy va, vb;
        sepax_aabb ba, bb;
        cr_assert_eq(wl_copy_view(a, sepax_shapes_id(a, i), &va), SEPAX_OK);
        cr_assert_eq(wl_copy_view(b, sepax_shapes_id(b, i), &vb), SEPAX_OK);
        cr_assert(memcmp(&va, &vb, sizeof va) == 0, "%s: shape %u's view", what, i);
        sepax_shapes_aabb(a, sepax_shapes_id(a, i), &ba);
        sepax_shapes_aabb(b, sepax_shapes_id(b, i), &bb);
        cr_assert(memcmp(&ba, &bb, sizeof ba) == 0, "%s: shape %u's box", what, i);
    }
    enum { PAIRS = 4000 };
    static sepax_pair pairs[PAIRS];
    static sepax_hit ha[PAIRS], hb[PAIRS];
    sepax_ray_hit *ra = malloc(n * sizeof *ra), *rb = malloc(n * sizeof *rb);
    cr_assert(ra && rb);
    wl_rng r = {5};
    for (int k = 0; k < PAIRS; k++) {
        uint32_t i = (uint32_t)wl_range(&r, 0, (int)n - 1);
        uint32_t j =
            (uint32_t)wl_range(&r, i > 3 ? (int)i - 3 : 0, i + 3 < n ? (int)i + 3 : (int)n - 1);
        pairs[k] = (sepax_pair){sepax_shapes_id(a, i), sepax_shapes_id(a, j)};
    }
    cr_assert_eq(sepax_collide(a, pairs, PAIRS, ha), SEPAX_OK);
    cr_assert_eq(sepax_collide(b, pairs, PAIRS, hb), SEPAX_OK);
    cr_assert(memcmp(ha, hb, sizeof ha) == 0, "%s: collide differs", what);
    size_t hits = 0;
    for (int k = 0; k < PAIRS; k++) hits += ha[k].hit;
    cr_assert_gt(hits, PAIRS / 20, "%s: only %zu of the pairs touch", what, hits);
    sepax_ray across = {{-10.0f, 3.0f}, {200.0f, 60.0f}, 1.0f};
    cr_assert_eq(sepax_raycast_range(a, &across, 0, n, ra), SEPAX_OK);
    cr_assert_eq(sepax_raycast_range(b, &across, 0, n, rb), SEPAX_OK);
    cr_assert(memcmp(ra, rb, n * sizeof *ra) == 0, "%s: raycast_range differs", what);
    free(ra);
    free(rb);
    /* a whole frame with no update of its own, on each store as it stands */
    size_t cap = (size_t)n * 8, na = 0, nb = 0;
    sepax_pair *pa = malloc(cap * sizeof *pa), *pb = malloc(cap * sizeof *pb);
    sepax_hit *fa = malloc(cap * sizeof *fa), *fb = malloc(cap * sizeof *fb);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(pa && pb && fa && fb && bp);
    sepax_frame_options o = {SEPAX_TEST_COLLIDE, 0.0f, 0.0f, SEPAX_UPDATE_NONE};
    sepax_contacts outa = {pa, fa, NULL, cap}, outb = {pb, fb, NULL, cap};
    cr_assert_eq(sepax_find_contacts(bp, (sepax_shapes *)a, &o, &outa, &na), SEPAX_OK);
    cr_assert_eq(sepax_find_contacts(bp, (sepax_shapes *)b, &o, &outb, &nb), SEPAX_OK);
    cr_assert(na == nb && memcmp(pa, pb, na * sizeof *pa) == 0 &&
                  memcmp(fa, fb, na * sizeof *fa) == 0,
              "%s: the frames' contacts differ (%zu against %zu)", what, na, nb);
    cr_assert_gt(na, n / 20, "%s: only %zu contacts", what, na);
    sepax_broadphase_destroy(bp);
    free(pa);
    free(pb);
    free(fa);
    free(fb);
}

/* ranges of a store of `shapes` (a last block of three), and the refusals */
static void expect_ranges_as_whole(uint32_t shapes, const uint32_t (*ranges)[2], size_t nranges) {
    sepax_backend was = sepax_get_backend();
    for (int be = 0; be < SEPAX_BACKEND_COUNT; be++) {
        if (!sepax_backend_available((sepax_backend)be)) continue;
        cr_assert_eq(sepax_set_backend((sepax_backend)be), SEPAX_OK);
        sepax_shapes *a = range_store(shapes), *b = range_store(shapes);
        uint32_t n = sepax_shapes_count(a);
        sepax_pose *p = malloc(n * sizeof *p);
        cr_assert(p);
        wl_rng r = {(uint64_t)be + 11};
        for (size_t q = 0; q < nranges; q++) {
            uint32_t first = ranges[q][0], count = ranges[q][1];
            char what[96];
            snprintf(what, sizeof what, "%s, shapes %u .. +%u",
                     sepax_backend_name((sepax_backend)be), first, count);
            for (uint32_t i = 0; i < count; i++) {
                sepax_pose now;
                sepax_shapes_get_pose(a, sepax_shapes_id(a, first + i), &now);
                p[i] = (sepax_pose){
                    {now.position.x + wl_unit(&r) - 0.5f, now.position.y + wl_unit(&r) - 0.5f},
                    sepax_rot(6.0f * wl_unit(&r))};
            }
            cr_assert_eq(sepax_shapes_set_poses(a, first, count, p), SEPAX_OK);
            cr_assert_eq(sepax_shapes_set_poses(b, first, count, p), SEPAX_OK);
            /* a shape outside the range's blocks moved in A without an update */
            uint32_t lo = first / SEPAX_BLOCK_SHAPES * SEPAX_BLOCK_SHAPES;
            uint32_t hi = count ? (first + count + SEPAX_BLOCK_SHAPES - 1) / SEPAX_BLOCK_SHAPES *
                                      SEPAX_BLOCK_SHAPES
                                : lo;
            uint32_t outside = hi < n ? hi : (lo > 0 ? lo - 1 : n);
            wl_view_copy before, after;
            if (outside < n && count < n) {
                sepax_pose away = {{500.0f, 500.0f}, sepax_rot(1.0f)};
                cr_assert_eq(wl_copy_view(a, sepax_shapes_id(a, outside), &before), SEPAX_OK);
                cr_assert_eq(sepax_shapes_set_poses(a, outside, 1, &away), SEPAX_OK);
            }
            cr_assert_eq(sepax_shapes_update_range(a, first, count), SEPAX_OK, "%s", what);
            if (outside < n && count < n) {
                cr_assert_eq(wl_copy_view(a, sepax_shapes_id(a, outside), &after), SEPAX_OK);
                cr_assert(memcmp(&before, &after, sizeof before) == 0,
                          "%s: shape %u past the range's blocks was written", what, outside);
                /* put it back, as B has it, and bring its world data back too */
                sepax_pose back;
                sepax_shapes_get_pose(b, sepax_shapes_id(b, outside), &back);
                cr_assert_eq(sepax_shapes_set_poses(a, outside, 1, &back), SEPAX_OK);
                cr_assert_eq(sepax_shapes_update_range(a, outside, 1), SEPAX_OK);
            }
            cr_assert_eq(sepax_shapes_update(b), SEPAX_OK);
            expect_same_answers(a, b, what);
        }
        /* refusals: nothing written (shape 0 moved, not updated, must not show it) */
        wl_view_copy v0, v1;
        sepax_pose away = {{-500.0f, 500.0f}, sepax_rot(2.0f)};
        cr_assert_eq(wl_copy_view(a, sepax_shapes_id(a, 0), &v0), SEPAX_OK);
        cr_assert_eq(sepax_shapes_set_poses(a, 0, 1, &away), SEPAX_OK);
        cr_assert_eq(sepax_shapes_update_range(a, 0, (size_t)n + 1), SEPAX_ERR_BAD_ID);
        cr_assert_eq(wl_copy_view(a, sepax_shapes_id(a, 0), &v1), SEPAX_OK);
        cr_assert(memcmp(&v0, &v1, sizeof v0) == 0, "a refused range update wrote");
        cr_assert_eq(sepax_shapes_update_range(NULL, 0, 1), SEPAX_ERR_NULL);
        cr_assert_eq(sepax_shapes_update_range(a, n, 1), SEPAX_ERR_BAD_ID);
        cr_assert_eq(sepax_shapes_update_range(a, 1, n), SEPAX_ERR_BAD_ID);
        cr_assert_eq(sepax_shapes_update_range(a, n + 1, 0), SEPAX_ERR_BAD_ID);
        cr_assert_eq(sepax_shapes_update_range(a, UINT32_MAX, SIZE_MAX), SEPAX_ERR_BAD_ID);
        free(p);
        sepax_shapes_destroy(a);
        sepax_shapes_destroy(b);
    }
    cr_assert_eq(sepax_set_backend(was), SEPAX_OK);
}

Test(poses, update_range_equals_the_whole_update) {
    static const uint32_t small[][2] = {{0, 0},   {5, 1},    {3, 13},   {8, 8},   {17, 300},
                                        {996, 7}, {1000, 3}, {0, 1003}, {1003, 0}};
    expect_ranges_as_whole(1003, small, sizeof small / sizeof small[0]);
    /* past STREAM_SHAPES (update_kernel.c), where the update streams its writes */
    static const uint32_t large[][2] = {{0, 0},     {5, 1},     {3, 4013}, {16000, 403},
                                        {16396, 7}, {0, 16403}, {16403, 0}};
    expect_ranges_as_whole(16403, large, sizeof large / sizeof large[0]);
}
