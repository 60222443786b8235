/* The bad-input contract: every way a call can be refused, with its exact
 * status, and on every refusal the store unchanged (count, ids, local shapes,
 * poses, world views, bounding boxes), output buffers pre-filled with a marker
 * byte untouched and *out_id untouched. One test per row of the table in
 * README.md ("Bad input: the contract") (the test name is its last column). */
#define _DEFAULT_SOURCE /* mmap / MAP_ANONYMOUS for the guard pages */
#include <criterion/criterion.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sepax.h"
#include "sepax_ref.h"
#include "workload.h"

#define MARK 0xA5
#define ID_MARK 0xA5A5A5A5u
#define MAXS 24 /* most shapes a snapshot holds */
#define NFIX 6  /* shapes of the fixture store */
#define NPAIRS (NFIX * (NFIX - 1) / 2)

static const float nonfinite[3] = {NAN, INFINITY, -INFINITY};

/* ---- the fixture: one store of every kind, posed and updated ----------- */

static sepax_shapes *store;
static sepax_pair good[NPAIRS + 1]; /* every pair of the fixture, +1 slot for a bad one */
static uint8_t hit[64];
static sepax_hit hits[64];
static uint32_t out_id;

static const sepax_vec2 square[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};

static void add_fixture_shapes(sepax_shapes *s, int n) {
    static const sepax_vec2 tri[3] = {{0, 0}, {1, 0}, {0, 1}};
    static const sepax_vec2 pent[5] = {{0, 0}, {2, 0}, {2.5f, 1}, {1, 2}, {-0.5f, 1}};
    uint32_t id;
    for (int i = 0; i < n; i++) {
        sepax_status st = SEPAX_OK;
        switch (i % NFIX) {
        case 0: st = sepax_shapes_add_box(s, 1, 0.5f, &id); break;
        case 1: st = sepax_shapes_add_circle(s, (sepax_vec2){3, 0}, 1, &id); break;
        case 2:
            st = sepax_shapes_add_capsule(s, (sepax_vec2){0, 3}, (sepax_vec2){2, 3}, 0.5f, &id);
            break;
        case 3: st = sepax_shapes_add_rounded(s, tri, 3, 0.25f, &id); break;
        case 4: st = sepax_shapes_add_polygon(s, pent, 5, &id); break;
        default: st = sepax_shapes_add_circle(s, (sepax_vec2){0.5f, 0.2f}, 0.3f, &id); break;
        }
        cr_assert(st == SEPAX_OK, "fixture shape %d: %s", i, sepax_status_str(st));
        cr_assert(id == (uint32_t)i);
    }
    sepax_pose poses[MAXS];
    for (int i = 0; i < n; i++)
        poses[i] = (sepax_pose){{0.5f * (float)i, 0}, sepax_rot(0.3f * (float)i)};
    cr_assert(sepax_shapes_set_poses(s, 0, (size_t)n, poses) == SEPAX_OK);
    cr_assert(sepax_shapes_update(s) == SEPAX_OK);
}

static void setup(void) {
    store = sepax_shapes_create(0);
    cr_assert(store);
    add_fixture_shapes(store, NFIX);
    size_t k = 0;
    for (uint32_t a = 0; a < NFIX; a++)
        for (uint32_t b = a + 1; b < NFIX; b++) good[k++] = (sepax_pair){a, b};
}

static void teardown(void) { sepax_shapes_destroy(store); }

TestSuite(contract, .init = setup, .fini = teardown);

/* ---- snapshots: everything a caller can read back from a store ---------- */

typedef wl_view_copy view_copy;

typedef struct snapshot {
    uint32_t count;
    uint32_t id[MAXS];
    sepax_local_shape local[MAXS];
    sepax_pose pose[MAXS];
    sepax_aabb aabb[MAXS];
    view_copy view[MAXS];
} snapshot;

static void take_of(const sepax_shapes *s, snapshot *out) {
    memset(out, 0, sizeof *out);
    out->count = sepax_shapes_count(s);
    cr_assert(out->count <= MAXS);
    for (uint32_t i = 0; i < out->count; i++) {
        uint32_t id = sepax_shapes_id(s, i);
        out->id[i] = id;
        cr_assert(wl_copy_view(s, id, &out->view[i]) == SEPAX_OK);
        cr_assert(sepax_shapes_local(s, id, &out->local[i]) == SEPAX_OK);
        cr_assert(sepax_shapes_get_pose(s, id, &out->pose[i]) == SEPAX_OK);
        cr_assert(sepax_shapes_aabb(s, id, &out->aabb[i]) == SEPAX_OK);
    }
}

static void take(snapshot *out) { take_of(store, out); }

static void expect_same_of(const sepax_shapes *s, const snapshot *before, const char *what) {
    snapshot now;
    take_of(s, &now);
    cr_expect(now.count == before->count, "%s: count %u -> %u", what, before->count, now.count);
    cr_expect(memcmp(&now, before, sizeof now) == 0, "%s: the store changed", what);
}

static void expect_same(const snapshot *before, const char *what) {
    expect_same_of(store, before, what);
}

static int all_marked(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != MARK) return 0;
    return 1;
}

static void mark_outputs(void) {
    memset(hit, MARK, sizeof hit);
    memset(hits, MARK, sizeof hits);
}

/* ---- assertions --------------------------------------------------------- */

#define ST(want, call)                                                                             \
    do {                                                                                           \
        sepax_status got_ = (call);                                                                \
        cr_expect(got_ == (want), "%s\n  got  %s\n  want %s", #call, sepax_status_str(got_),       \
                  sepax_status_str(want));                                                         \
    } while (0)

/* A call that must fail without touching the store. */
#define FAILS(want, call)                                                                          \
    do {                                                                                           \
        snapshot before_;                                                                          \
        take(&before_);                                                                            \
        ST(want, call);                                                                            \
        expect_same(&before_, #call);                                                              \
    } while (0)

/* An add that must fail: nothing added, store unchanged, *out_id untouched. */
#define ADD_FAILS(want, call)                                                                      \
    do {                                                                                           \
        out_id = ID_MARK;                                                                          \
        FAILS(want, call);                                                                         \
        cr_expect(out_id == ID_MARK, "%s: *out_id written on error", #call);                       \
    } while (0)

/* A query that must fail: store unchanged, hit[] and hits[] untouched. */
#define QUERY_FAILS(want, call)                                                                    \
    do {                                                                                           \
        mark_outputs();                                                                            \
        FAILS(want, call);                                                                         \
        cr_expect(all_marked(hit, sizeof hit), "%s: hit[] written on error", #call);               \
        cr_expect(all_marked(hits, sizeof hits), "%s: hits[] written on error", #call);            \
    } while (0)

/* A call with one output object that must fail and leave *obj untouched. */
#define OUT_FAILS(want, call, obj)                                                                 \
    do {                                                                                           \
        memset((obj), MARK, sizeof *(obj));                                                        \
        FAILS(want, call);                                                                         \
        cr_expect(all_marked((obj), sizeof *(obj)), "%s: output written on error", #call);         \
    } while (0)

/* sepax_hull that must fail with out[] and *out_count untouched. */
#define HULL_FAILS(want, pts, n)                                                                   \
    do {                                                                                           \
        sepax_vec2 hout_[SEPAX_MAX_VERTS];                                                         \
        int hn_;                                                                                   \
        memset(hout_, MARK, sizeof hout_);                                                         \
        memset(&hn_, MARK, sizeof hn_);                                                            \
        ST(want, sepax_hull((pts), (n), hout_, &hn_));                                             \
        cr_expect(all_marked(hout_, sizeof hout_), "hull out[] written on error");                 \
        cr_expect(all_marked(&hn_, sizeof hn_), "hull *out_count written on error");               \
    } while (0)

/* Every query entry point refusing the same pair list (options: margin 0). */
static const sepax_query_options zero_margin = {.margin = 0.0f};
#define ALL_PAIR_QUERIES_FAIL(want, pairs, n)                                                      \
    do {                                                                                           \
        QUERY_FAILS(want, sepax_overlap(store, (pairs), (n), hit));                                \
        QUERY_FAILS(want, sepax_collide(store, (pairs), (n), hits));                               \
        QUERY_FAILS(want, sepax_overlap_opt(store, (pairs), (n), &zero_margin, hit));              \
        QUERY_FAILS(want, sepax_collide_opt(store, (pairs), (n), &zero_margin, hits));             \
    } while (0)

/* A buffer of `bytes` whose end touches an inaccessible page: a call that
 * reads one byte past it crashes the test instead of passing by luck. */
static void *guarded(size_t bytes) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t span = (bytes + page - 1) / page * page;
    char *base =
        mmap(NULL, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(base != MAP_FAILED);
    cr_assert(mprotect(base + span, page, PROT_NONE) == 0);
    return base + span - bytes;
}

/* ---- non-finite input: SEPAX_ERR_NONFINITE ------------------------------ */

Test(contract, nonfinite_poly) {
    for (int v = 0; v < 3; v++)
        for (int k = 0; k < 4; k++)
            for (int axis = 0; axis < 2; axis++) {
                sepax_vec2 p[4];
                memcpy(p, square, sizeof p);
                if (axis)
                    p[k].y = nonfinite[v];
                else
                    p[k].x = nonfinite[v];
                ADD_FAILS(SEPAX_ERR_NONFINITE, sepax_shapes_add_polygon(store, p, 4, &out_id));
                ADD_FAILS(SEPAX_ERR_NONFINITE,
                          sepax_shapes_add_rounded(store, p, 4, 0.5f, &out_id));
                HULL_FAILS(SEPAX_ERR_NONFINITE, p, 4);
            }
}

Test(contract, nonfinite_circle) {
    for (int v = 0; v < 3; v++) {
        float f = nonfinite[v];
        ADD_FAILS(SEPAX_ERR_NONFINITE,
                  sepax_shapes_add_circle(store, (sepax_vec2){f, 0}, 1, &out_id));
        ADD_FAILS(SEPAX_ERR_NONFINITE,
                  sepax_shapes_add_circle(store, (sepax_vec2){0, f}, 1, &out_id));
    }
}

Test(contract, nonfinite_capsule) {
    for (int v = 0; v < 3; v++)
        for (int k = 0; k < 4; k++) {
            float e[4] = {0, 0, 2, 0};
            e[k] = nonfinite[v];
            ADD_FAILS(SEPAX_ERR_NONFINITE,
                      sepax_shapes_add_capsule(store, (sepax_vec2){e[0], e[1]},
                                               (sepax_vec2){e[2], e[3]}, 0.5f, &out_id));
        }
}

Test(contract, nonfinite_radius) {
    for (int v = 0; v < 3; v++) {
        float r = nonfinite[v];
        ADD_FAILS(SEPAX_ERR_NONFINITE,
                  sepax_shapes_add_circle(store, (sepax_vec2){0, 0}, r, &out_id));
        ADD_FAILS(SEPAX_ERR_NONFINITE, sepax_shapes_add_capsule(store, (sepax_vec2){0, 0},
                                                                (sepax_vec2){1, 0}, r, &out_id));
        ADD_FAILS(SEPAX_ERR_NONFINITE, sepax_shapes_add_rounded(store, square, 4, r, &out_id));
    }
}

Test(contract, nonfinite_box) {
    for (int v = 0; v < 3; v++) {
        float f = nonfinite[v];
        ADD_FAILS(SEPAX_ERR_NONFINITE, sepax_shapes_add_box(store, f, 1, &out_id));
        ADD_FAILS(SEPAX_ERR_NONFINITE, sepax_shapes_add_box(store, 1, f, &out_id));
        ADD_FAILS(SEPAX_ERR_NONFINITE, sepax_shapes_add_box(store, f, f, &out_id));
    }
}

/* Poses are all or nothing: a bad pose anywhere in the batch stores none,
 * and the next update leaves world data as it was. */
Test(contract, nonfinite_pose) {
    for (int v = 0; v < 3; v++)
        for (int field = 0; field < 4; field++) {
            sepax_pose p[3];
            for (int i = 0; i < 3; i++) p[i] = (sepax_pose){{7, 8}, sepax_rot(1.0f)};
            float *f[4] = {&p[1].position.x, &p[1].position.y, &p[1].rotation.c, &p[1].rotation.s};
            *f[field] = nonfinite[v];
            snapshot before;
            take(&before);
            ST(SEPAX_ERR_NONFINITE, sepax_shapes_set_poses(store, 1, 3, p));
            expect_same(&before, "set_poses");
            cr_assert(sepax_shapes_update(store) == SEPAX_OK);
            expect_same(&before, "update after a refused set_poses");
        }
}

Test(contract, nonfinite_margin) {
    for (int v = 0; v < 3; v++) {
        sepax_query_options o = {.margin = nonfinite[v]};
        QUERY_FAILS(SEPAX_ERR_NONFINITE, sepax_overlap_opt(store, good, NPAIRS, &o, hit));
        QUERY_FAILS(SEPAX_ERR_NONFINITE, sepax_collide_opt(store, good, NPAIRS, &o, hits));
        QUERY_FAILS(SEPAX_ERR_NONFINITE, sepax_overlap_one_opt(store, 0, 0, NFIX, &o, hit));
    }
}

/* ---- sizes: SEPAX_ERR_BAD_SIZE ------------------------------------------ */

Test(contract, bad_radius) {
    const float bad[] = {-1.0f, -FLT_MIN, -1e-30f, -2e18f};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        float r = bad[i];
        ADD_FAILS(SEPAX_ERR_BAD_SIZE,
                  sepax_shapes_add_circle(store, (sepax_vec2){0, 0}, r, &out_id));
        ADD_FAILS(SEPAX_ERR_BAD_SIZE, sepax_shapes_add_capsule(store, (sepax_vec2){0, 0},
                                                               (sepax_vec2){1, 0}, r, &out_id));
        ADD_FAILS(SEPAX_ERR_BAD_SIZE, sepax_shapes_add_rounded(store, square, 4, r, &out_id));
    }
    /* zero (either sign) leaves a circle or capsule no area */
    const float zeros[2] = {0.0f, -0.0f};
    for (int i = 0; i < 2; i++) {
        ADD_FAILS(SEPAX_ERR_BAD_SIZE,
                  sepax_shapes_add_circle(store, (sepax_vec2){0, 0}, zeros[i], &out_id));
        ADD_FAILS(SEPAX_ERR_BAD_SIZE,
                  sepax_shapes_add_capsule(store, (sepax_vec2){0, 0}, (sepax_vec2){1, 0}, zeros[i],
                                           &out_id));
    }
    /* ... but a rounded polygon of radius 0 (or -0) is a sharp polygon, stored with +0 */
    for (int i = 0; i < 2; i++) {
        uint32_t id = ID_MARK, n = sepax_shapes_count(store);
        ST(SEPAX_OK, sepax_shapes_add_rounded(store, square, 4, zeros[i], &id));
        cr_expect(id == n && sepax_shapes_count(store) == n + 1);
        sepax_local_shape l;
        cr_assert(sepax_shapes_local(store, id, &l) == SEPAX_OK);
        cr_expect(l.radius == 0.0f && !signbit(l.radius) && l.kind == SEPAX_KIND_POLYGON);
    }
}

Test(contract, bad_box) {
    const float bad[] = {0.0f, -0.0f, -1.0f, -FLT_MIN, -2e18f};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ADD_FAILS(SEPAX_ERR_BAD_SIZE, sepax_shapes_add_box(store, bad[i], 1, &out_id));
        ADD_FAILS(SEPAX_ERR_BAD_SIZE, sepax_shapes_add_box(store, 1, bad[i], &out_id));
        ADD_FAILS(SEPAX_ERR_BAD_SIZE, sepax_shapes_add_box(store, bad[i], bad[i], &out_id));
    }
}

/* ---- degenerate polygons ------------------------------------------------ */

Test(contract, few_points) {
    for (int n = 0; n < 3; n++) {
        ADD_FAILS(SEPAX_ERR_TOO_FEW_POINTS, sepax_shapes_add_polygon(store, square, n, &out_id));
        ADD_FAILS(SEPAX_ERR_TOO_FEW_POINTS,
                  sepax_shapes_add_rounded(store, square, n, 0.5f, &out_id));
        HULL_FAILS(SEPAX_ERR_TOO_FEW_POINTS, square, n);
    }
}

/* 3+ copies of one point, or points that merge (closer than 2^-20 of the
 * polygon's size) down to fewer than 3: SEPAX_ERR_TOO_FEW_POINTS. */
Test(contract, same_points) {
    sepax_vec2 same[8];
    for (int i = 0; i < 8; i++) same[i] = (sepax_vec2){1, 2};
    for (int n = 3; n <= 8; n++) {
        ADD_FAILS(SEPAX_ERR_TOO_FEW_POINTS, sepax_shapes_add_polygon(store, same, n, &out_id));
        HULL_FAILS(SEPAX_ERR_TOO_FEW_POINTS, same, n);
    }
    const sepax_vec2 merged[3] = {{0, 0}, {1, 0}, {1, 5e-7f}}; /* 5e-7 < 2^-20 */
    ADD_FAILS(SEPAX_ERR_TOO_FEW_POINTS, sepax_shapes_add_polygon(store, merged, 3, &out_id));
    const sepax_vec2 there_and_back[4] = {{0, 0}, {1, 0}, {1, 0}, {0, 0}};
    ADD_FAILS(SEPAX_ERR_TOO_FEW_POINTS,
              sepax_shapes_add_polygon(store, there_and_back, 4, &out_id));
}

Test(contract, collinear) {
    const sepax_vec2 diag[3] = {{0, 0}, {1, 1}, {2, 2}};
    ADD_FAILS(SEPAX_ERR_COLLINEAR, sepax_shapes_add_polygon(store, diag, 3, &out_id));
    ADD_FAILS(SEPAX_ERR_COLLINEAR, sepax_shapes_add_rounded(store, diag, 3, 1.0f, &out_id));
    HULL_FAILS(SEPAX_ERR_COLLINEAR, diag, 3);
    const sepax_vec2 unordered[4] = {{0, 0}, {3, 0}, {1, 0}, {2, 0}};
    ADD_FAILS(SEPAX_ERR_COLLINEAR, sepax_shapes_add_polygon(store, unordered, 4, &out_id));
    HULL_FAILS(SEPAX_ERR_COLLINEAR, unordered, 4);
}

/* Zero area: an outline that doubles back along a line is COLLINEAR; one
 * that crosses itself so its lobes cancel (a bow tie) is NONCONVEX. */
Test(contract, zero_area) {
    const sepax_vec2 back3[3] = {{0, 0}, {2, 0}, {1, 0}};
    const sepax_vec2 zigzag[4] = {{0, 0}, {1, 0}, {2, 0}, {1, 0}};
    const sepax_vec2 bow[4] = {{0, 0}, {1, 1}, {1, 0}, {0, 1}};
    ADD_FAILS(SEPAX_ERR_COLLINEAR, sepax_shapes_add_polygon(store, back3, 3, &out_id));
    ADD_FAILS(SEPAX_ERR_COLLINEAR, sepax_shapes_add_polygon(store, zigzag, 4, &out_id));
    ADD_FAILS(SEPAX_ERR_NONCONVEX, sepax_shapes_add_polygon(store, bow, 4, &out_id));
}

/* Thinner than 2^-20 of the size, relative: a thin triangle is COLLINEAR, a
 * thin quad whose corners merge pairwise is TOO_FEW_POINTS, and so is a box
 * with a half extent below 2^-20 of the other. Just above: accepted. */
Test(contract, sliver) {
    const sepax_vec2 thin[3] = {{0, 0}, {1, 0}, {0.5f, 1e-7f}};
    const sepax_vec2 thin_big[3] = {{0, 0}, {1e6f, 0}, {5e5f, 0.1f}};
    const sepax_vec2 thin_quad[4] = {{0, 0}, {1, 0}, {1, 1e-7f}, {0, 1e-7f}};
    ADD_FAILS(SEPAX_ERR_COLLINEAR, sepax_shapes_add_polygon(store, thin, 3, &out_id));
    ADD_FAILS(SEPAX_ERR_COLLINEAR, sepax_shapes_add_polygon(store, thin_big, 3, &out_id));
    ADD_FAILS(SEPAX_ERR_TOO_FEW_POINTS, sepax_shapes_add_polygon(store, thin_quad, 4, &out_id));
    ADD_FAILS(SEPAX_ERR_TOO_FEW_POINTS, sepax_shapes_add_box(store, 1e-7f, 1, &out_id));
    ADD_FAILS(SEPAX_ERR_TOO_FEW_POINTS, sepax_shapes_add_box(store, 1, 1e-30f, &out_id));
    const sepax_vec2 ok_tri[3] = {{0, 0}, {1, 0}, {0.5f, 1e-5f}};
    uint32_t id;
    ST(SEPAX_OK, sepax_shapes_add_polygon(store, ok_tri, 3, &id));
    ST(SEPAX_OK, sepax_shapes_add_box(store, 1e-5f, 1, &id));
    /* at the threshold: a half extent of exactly 2^-20 of the other merges (at most), one
     * float step above does not, and is a box */
    const float t = 0x1p-20f;
    ADD_FAILS(SEPAX_ERR_TOO_FEW_POINTS, sepax_shapes_add_box(store, 1, t, &out_id));
    ST(SEPAX_OK, sepax_shapes_add_box(store, 1, nextafterf(t, 1.0f), &id));
    ST(SEPAX_OK, sepax_shapes_add_box(store, nextafterf(t, 1.0f) * 3.0f, 3, &id));
}

/* Triangles near the 2^-20 threshold, in several shapes and orientations: the least height
 * (onto the longest edge) decides, once no two corners merge. Clearly above it (1.01 times)
 * a triangle is accepted, by add_polygon and by hull; at or below it, COLLINEAR; never
 * NONCONVEX (every triangle is convex). A sharp corner of a thin triangle was once taken
 * for a spike. */
/* A vertex exactly 2^-20 of the size from another edge's line is too thin (COLLINEAR), as
 * README's table says ("2^-20 of the size thin or thinner"): found by a mutation (< for <= in
 * the convexity test's tolerance) that no other case told apart. Coordinates on a grid of
 * 2^-20 with size 1, so every distance is exact: the edge (598887, 2)-(768998, 2) (in units
 * of 2^-20) has a tolerance of 170111 units of length times size, and vertex (517624, 1)
 * lies exactly that far from its line. */
Test(contract, vertex_exactly_at_the_tolerance) {
    static const double g[8][2] = {{221803, 1},       {510981, 0},      {517624, 1},
                                   {598887, 2},       {768998, 2},      {1048575, 1039020},
                                   {813986, 1048575}, {497543, 1048576}};
    sepax_vec2 p[8];
    for (int i = 0; i < 8; i++)
        p[i] = (sepax_vec2){(float)(g[i][0] * 0x1p-20), (float)(g[i][1] * 0x1p-20)};
    ADD_FAILS(SEPAX_ERR_COLLINEAR, sepax_shapes_add_polygon(store, p, 8, &out_id));
}

Test(contract, sliver_threshold) {
    /* apex positions along the base, and rotations of the whole triangle */
    const double apex[] = {0.5, 0.0, 0.1, 0.9, 1.0, -0.2, 1.3};
    const double turn[] = {0.0, 0.25, 0.5, 0.785398, 1.2, 2.0};
    int accepted = 0, refused = 0;
    for (size_t a = 0; a < sizeof apex / sizeof apex[0]; a++) {
        for (size_t r = 0; r < sizeof turn / sizeof turn[0]; r++) {
            for (double f = 0.5; f <= 2.0; f += 0.0625) {
                /* base (0,0)-(1,0), apex at height f * 2^-20 (of the unrotated size) */
                double c = cos(turn[r]), s = sin(turn[r]);
                double px[3] = {0, 1, apex[a]}, py[3] = {0, 0, f * 0x1p-20};
                sepax_vec2 v[3];
                double q[3][2];
                for (int i = 0; i < 3; i++) {
                    /* through volatile floats, so q below holds exactly the floats the
                     * library gets: built at -O3, gcc 12 was seen to hand this loop's later
                     * reads the unrounded doubles (not with -fno-tree-slp-vectorize) */
                    volatile float x = (float)(c * px[i] - s * py[i]);
                    volatile float y = (float)(s * px[i] + c * py[i]);
                    v[i] = (sepax_vec2){x, y};
                    q[i][0] = v[i].x;
                    q[i][1] = v[i].y;
                }
                /* the floats' own geometry: size, longest edge, least height */
                double minx = q[0][0], maxx = minx, miny = q[0][1], maxy = miny, longest = 0;
                for (int i = 0; i < 3; i++) {
                    minx = fmin(minx, q[i][0]), maxx = fmax(maxx, q[i][0]);
                    miny = fmin(miny, q[i][1]), maxy = fmax(maxy, q[i][1]);
                    double dx = q[(i + 1) % 3][0] - q[i][0], dy = q[(i + 1) % 3][1] - q[i][1];
                    longest = fmax(longest, sqrt(dx * dx + dy * dy));
                }
                double size = fmax(maxx - minx, maxy - miny);
                double area2 = fabs((q[1][0] - q[0][0]) * (q[2][1] - q[0][1]) -
                                    (q[1][1] - q[0][1]) * (q[2][0] - q[0][0]));
                double height = area2 / longest, limit = 0x1p-20 * size, close = INFINITY;
                for (int i = 0; i < 3; i++) /* two corners that merge (max-norm) decide first */
                    close = fmin(close, fmax(fabs(q[(i + 1) % 3][0] - q[i][0]),
                                             fabs(q[(i + 1) % 3][1] - q[i][1])));
                uint32_t id = SEPAX_NO_ID;
                sepax_status st = sepax_shapes_add_polygon(store, v, 3, &id);
                sepax_vec2 hull[SEPAX_MAX_VERTS];
                int hn = 0;
                sepax_status hs = sepax_hull(v, 3, hull, &hn);
                cr_expect(st != SEPAX_ERR_NONCONVEX && hs != SEPAX_ERR_NONCONVEX,
                          "apex %g, turn %g, height %g of the limit: NONCONVEX", apex[a], turn[r],
                          height / limit);
                if (close <= 1.01 * limit) {
                    /* TOO_FEW_POINTS once merged, else as below */
                } else if (height > 1.01 * limit) {
                    cr_expect(st == SEPAX_OK && hs == SEPAX_OK && hn == 3,
                              "apex %g, turn %g, height %g of the limit: %s, hull %s", apex[a],
                              turn[r], height / limit, sepax_status_str(st), sepax_status_str(hs));
                } else if (height <= limit) {
                    cr_expect(st == SEPAX_ERR_COLLINEAR && hs == SEPAX_ERR_COLLINEAR,
                              "apex %g, turn %g, height %g of the limit: %s, hull %s", apex[a],
                              turn[r], height / limit, sepax_status_str(st), sepax_status_str(hs));
                }
                if (st == SEPAX_OK) {
                    accepted++;
                    cr_assert(sepax_shapes_remove(store, id, NULL) == SEPAX_OK);
                } else {
                    refused++;
                }
            }
        }
    }
    /* both sides of the threshold were met */
    cr_expect(accepted > 100 && refused > 100, "accepted %d, refused %d", accepted, refused);
}

/* Thin polygons of 3 to 8 vertices (points on a flat ellipse 2^-20 to 21 * 2^-20 of the size
 * thick; a third with a point beside a vertex, a third with a point close enough to merge
 * with it or not): the same verdict from every starting vertex in either winding, and never
 * NONCONVEX when strictly convex, from add_polygon and from hull. A corner of such a polygon
 * was once taken for a spike when a straight vertex beside it had not been dropped yet (the
 * quad below, started at its first vertex), and which point of a cluster the merge kept
 * once depended on where the caller started. */
static int strictly_convex(const sepax_vec2 *v, int n) {
    for (int i = 0; i < n; i++) {
        sepax_vec2 a = v[i], b = v[(i + 1) % n], c = v[(i + 2) % n];
        double turn =
            ((double)b.x - a.x) * ((double)c.y - b.y) - ((double)b.y - a.y) * ((double)c.x - b.x);
        if (!(turn > 0.0)) return 0;
    }
    return 1;
}

/* the index of the lowest vertex (least y, then least x): where a stored outline, which
 * is counter-clockwise from the caller's first kept vertex, is compared from */
static int lowest(const sepax_vec2 *v, int n) {
    int at = 0;
    for (int i = 1; i < n; i++)
        if (v[i].y < v[at].y || (v[i].y == v[at].y && v[i].x < v[at].x)) at = i;
    return at;
}

Test(contract, thin_convex_any_start) {
    const float t = 0x1p-20f;
    const sepax_vec2 quad[4] = {{0, 0}, {1, 0}, {0.5f, 3 * t}, {0.01f, 0.8f * t}};
    wl_rng r = {77};
    int tried = 0, ok = 0;
    for (int it = 0; it < 3000; it++) {
        sepax_vec2 v[SEPAX_MAX_VERTS];
        int n = 0;
        if (it == 0) {
            memcpy(v, quad, sizeof quad);
            n = 4;
        } else {
            int m = (int)wl_range(&r, 3, 6);
            double ang[SEPAX_MAX_VERTS], rx = 0.5 + wl_unit(&r), ry = (1 + 20 * wl_unit(&r)) * t;
            for (int i = 0; i < m; i++) ang[i] = 6.283185307179586 * wl_unit(&r);
            for (int i = 0; i < m; i++) /* ascending angles: counter-clockwise */
                for (int k = i + 1; k < m; k++)
                    if (ang[k] < ang[i]) {
                        double x = ang[i];
                        ang[i] = ang[k];
                        ang[k] = x;
                    }
            int cut = (int)wl_range(&r, 0, m - 1);
            for (int i = 0; i < m && n < SEPAX_MAX_VERTS; i++) {
                sepax_vec2 p = {(float)(rx * cos(ang[i])), (float)(ry * sin(ang[i]))};
                v[n++] = p;
                if (i == cut && n < SEPAX_MAX_VERTS && it % 3 == 1) /* a point beside it */
                    v[n++] = (sepax_vec2){(float)(rx * cos(ang[i] + 1e-5)),
                                          (float)(ry * sin(ang[i] + 1e-5))};
                if (i == cut && n < SEPAX_MAX_VERTS && it % 3 == 2) { /* one it may merge with */
                    double d = (0.5 + 1.5 * wl_unit(&r)) * t * 2 * rx, a = 6.2832 * wl_unit(&r);
                    v[n++] = (sepax_vec2){(float)(p.x + d * cos(a)), (float)(p.y + d * sin(a))};
                }
            }
        }
        if (it % 3 != 2 && !strictly_convex(v, n)) continue; /* merging ones need not be */
        tried++;
        sepax_status first = SEPAX_OK;
        sepax_vec2 kept0[SEPAX_MAX_VERTS]; /* start 0's vertices, from their lowest */
        int nkept0 = 0;
        for (int start = 0; start < 2 * n; start++) { /* every start, either winding */
            sepax_vec2 w[SEPAX_MAX_VERTS], hull[SEPAX_MAX_VERTS];
            for (int i = 0; i < n; i++) w[i] = v[start < n ? (start + i) % n : (start + n - i) % n];
            uint32_t id = SEPAX_NO_ID;
            sepax_status st = sepax_shapes_add_polygon(store, w, n, &id);
            int hn = 0;
            sepax_status hs = sepax_hull(w, n, hull, &hn);
            if (start == 0) first = st;
            cr_assert(it % 3 == 2 || (st != SEPAX_ERR_NONCONVEX && hs != SEPAX_ERR_NONCONVEX),
                      "polygon %d (%d vertices) from vertex %d: %s, hull %s", it, n, start,
                      sepax_status_str(st), sepax_status_str(hs));
            cr_assert_eq(st, first, "polygon %d: %s from vertex %d, %s from vertex 0", it,
                         sepax_status_str(st), start, sepax_status_str(first));
            if (st == SEPAX_OK) { /* the same vertices kept, whatever the start and winding */
                sepax_local_shape loc;
                cr_assert_eq(sepax_shapes_local(store, id, &loc), SEPAX_OK);
                sepax_vec2 kept[SEPAX_MAX_VERTS];
                int low = lowest(loc.vertex, loc.count);
                for (int i = 0; i < loc.count; i++) kept[i] = loc.vertex[(low + i) % loc.count];
                if (start == 0) {
                    memcpy(kept0, kept, sizeof kept);
                    nkept0 = loc.count;
                }
                cr_assert(loc.count == nkept0 &&
                              memcmp(kept, kept0, (size_t)nkept0 * sizeof *kept) == 0,
                          "polygon %d: from vertex %d, %d vertices kept, not start 0's %d", it,
                          start, loc.count, nkept0);
                cr_assert(sepax_shapes_remove(store, id, NULL) == SEPAX_OK);
            }
        }
        ok += first == SEPAX_OK;
    }
    cr_expect(tried > 1000 && ok > 500, "%d polygons, %d accepted", tried, ok);
}

/* Two outlines a review found after the merge was made start-free:
 * - its first point merges into the second, which turns the winding: the stored outline must
 *   still start at the first kept point in the caller's order (D, caller 1);
 * - no area at all before merging (a doubled-back chain): either winding, the same verdict and
 *   the same vertices. */
Test(contract, merge_keeps_the_start_and_the_winding_free) {
    const float u = 0x1p-20f;
    const sepax_vec2 turned[4] = {{0, 0},
                                  {-15.f / 16 * u, 15.f / 16 * u},
                                  {1, 1},
                                  {0.875f - 0.875f * u, 0.875f + 0.875f * u}};
    uint32_t id;
    ST(SEPAX_OK, sepax_shapes_add_polygon(store, turned, 4, &id));
    sepax_local_shape l;
    ST(SEPAX_OK, sepax_shapes_local(store, id, &l));
    cr_assert_eq(l.count, 3);
    cr_expect(l.vertex[0].x == turned[1].x && l.vertex[0].y == turned[1].y &&
                  l.vertex[1].x == turned[2].x && l.vertex[2].x == turned[3].x,
              "stored from (%a, %a), want the caller's second point", l.vertex[0].x, l.vertex[0].y);
    const sepax_vec2 flat[6] = {{0x0p+0f, 0x0p+0f},
                                {0x1p+0f, 0x1p+0f},
                                {0x1.000008p+0f, 0x1.000004p+0f},
                                {0x1.00001p+0f, 0x1p+0f},
                                {0x1.00001p+0f, 0x1.ffffe8p-1f},
                                {0x1.a49248p-2f, 0x1.a4928ap-2f}};
    sepax_vec2 back[6];
    back[0] = flat[0];
    for (int i = 1; i < 6; i++) back[i] = flat[6 - i];
    uint32_t a = SEPAX_NO_ID, b = SEPAX_NO_ID;
    sepax_status sa = sepax_shapes_add_polygon(store, flat, 6, &a);
    sepax_status sb = sepax_shapes_add_polygon(store, back, 6, &b);
    cr_assert_eq(sa, sb, "%s one way, %s the other", sepax_status_str(sa), sepax_status_str(sb));
    if (sa == SEPAX_OK) {
        sepax_local_shape la, lb;
        ST(SEPAX_OK, sepax_shapes_local(store, a, &la));
        ST(SEPAX_OK, sepax_shapes_local(store, b, &lb));
        cr_assert_eq(la.count, lb.count);
        for (int i = 0; i < la.count; i++) { /* the same points, maybe from another start */
            int found = 0;
            for (int k = 0; k < lb.count; k++)
                found |= la.vertex[i].x == lb.vertex[k].x && la.vertex[i].y == lb.vertex[k].y;
            cr_expect(found, "vertex %d kept one way only", i);
        }
    }
}

/* Ends closer than 2^-20 of the capsule's size (radius included). */
Test(contract, capsule_ends) {
    ADD_FAILS(SEPAX_ERR_TOO_FEW_POINTS,
              sepax_shapes_add_capsule(store, (sepax_vec2){1, 1}, (sepax_vec2){1, 1}, 1, &out_id));
    ADD_FAILS(
        SEPAX_ERR_TOO_FEW_POINTS,
        sepax_shapes_add_capsule(store, (sepax_vec2){1, 0}, (sepax_vec2){1, 5e-7f}, 0.5f, &out_id));
    ADD_FAILS(
        SEPAX_ERR_TOO_FEW_POINTS,
        sepax_shapes_add_capsule(store, (sepax_vec2){0, 0}, (sepax_vec2){1e-3f, 0}, 1e4f, &out_id));
    /* the size is the capsule's own, not its distance from the local origin: the same short
     * capsules are taken at the origin and far from it (they were refused there) */
    static const float at[3] = {0, 200, 1e6f};
    for (int i = 0; i < 3; i++) {
        uint32_t id;
        cr_expect_eq(sepax_shapes_add_capsule(store, (sepax_vec2){at[i], 0},
                                              (sepax_vec2){at[i], 1e-4f}, 1e-3f, &id),
                     SEPAX_OK, "a capsule 1e-4 long, radius 1e-3, at x = %g", (double)at[i]);
        cr_expect_eq(sepax_shapes_add_capsule(store, (sepax_vec2){at[i], 0},
                                              (sepax_vec2){at[i] + 0.5f, 0}, 0.1f, &id),
                     SEPAX_OK, "a capsule 0.5 long at x = %g", (double)at[i]);
        /* and one 2^-21 of its size long is refused anywhere */
        float len = 0x1p-21f * 2.0f, big = at[i] + 1.0f;
        ADD_FAILS(SEPAX_ERR_TOO_FEW_POINTS,
                  sepax_shapes_add_capsule(store, (sepax_vec2){big, 0},
                                           (sepax_vec2){big, len * 0.5f}, 1.0f, &out_id));
    }
}

Test(contract, reflex) {
    const sepax_vec2 arrow[4] = {{0, 0}, {2, 1}, {4, 0}, {2, 3}};
    const sepax_vec2 spike[4] = {{0, 0}, {2, 0}, {1, 0}, {1, 1}};
    const sepax_vec2 notch[5] = {{0, 0}, {4, 0}, {4, 4}, {2, 1}, {0, 4}};
    ADD_FAILS(SEPAX_ERR_NONCONVEX, sepax_shapes_add_polygon(store, arrow, 4, &out_id));
    ADD_FAILS(SEPAX_ERR_NONCONVEX, sepax_shapes_add_rounded(store, arrow, 4, 0.5f, &out_id));
    ADD_FAILS(SEPAX_ERR_NONCONVEX, sepax_shapes_add_polygon(store, spike, 4, &out_id));
    ADD_FAILS(SEPAX_ERR_NONCONVEX, sepax_shapes_add_polygon(store, notch, 5, &out_id));
    /* a vertex pushed in far past an edge, and another within the tolerance of an edge's
     * line, which the scan meets first: NONCONVEX all the same (it was COLLINEAR before
     * 2026-11-28), since making it thicker would not make it convex */
    const sepax_vec2 both[7] = {
        {-0x1.d48464p-2f, -0x1.c7440ap-1f}, {0x1.ee870ep-3f, -0x1.f0d968p-1f},
        {0x1.dfa798p-1f, -0x1.66312ep-2f},  {0x1.18a46cp-2f, 0x1.f3c9ccp-4f},
        {0x1.1bd4bcp-2f, 0x1.ebf064p-1f},   {-0x1.463b6ap-1f, 0x1.8a9c06p-1f},
        {-0x1.3e00eep-1f, 0x1.3e936cp-1f}};
    ADD_FAILS(SEPAX_ERR_NONCONVEX, sepax_shapes_add_polygon(store, both, 7, &out_id));
}

Test(contract, self_cross) {
    const sepax_vec2 bow[4] = {{0, 0}, {1, 1}, {1, 0}, {0, 1}};
    const sepax_vec2 bow_asym[4] = {{0, 0}, {2, 2}, {2, 0}, {0, 1}};
    sepax_vec2 star[5]; /* a pentagram: every turn left, the outline winds twice */
    for (int k = 0; k < 5; k++) {
        double a = 1.5707963267948966 + k * 2.5132741228718345; /* 90 + 144k degrees */
        star[k] = (sepax_vec2){(float)cos(a), (float)sin(a)};
    }
    ADD_FAILS(SEPAX_ERR_NONCONVEX, sepax_shapes_add_polygon(store, bow, 4, &out_id));
    ADD_FAILS(SEPAX_ERR_NONCONVEX, sepax_shapes_add_polygon(store, bow_asym, 4, &out_id));
    ADD_FAILS(SEPAX_ERR_NONCONVEX, sepax_shapes_add_polygon(store, star, 5, &out_id));
    ADD_FAILS(SEPAX_ERR_NONCONVEX, sepax_shapes_add_rounded(store, star, 5, 0.1f, &out_id));
}

/* Not an error: clockwise input is stored counter-clockwise, first vertex kept. */
Test(contract, clockwise) {
    const sepax_vec2 cw[4] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
    uint32_t id = ID_MARK;
    ST(SEPAX_OK, sepax_shapes_add_polygon(store, cw, 4, &id));
    cr_expect(id == NFIX);
    sepax_local_shape l;
    cr_assert(sepax_shapes_local(store, id, &l) == SEPAX_OK);
    cr_expect(l.count == 4);
    const float ex[4] = {0, 1, 1, 0}, ey[4] = {0, 0, 1, 1};
    double area2 = 0;
    for (int i = 0; i < 4; i++) {
        cr_expect(l.vertex[i].x == ex[i] && l.vertex[i].y == ey[i], "vertex %d", i);
        const sepax_vec2 a = l.vertex[i], b = l.vertex[(i + 1) % 4];
        area2 += (double)a.x * b.y - (double)b.x * a.y;
        /* outward normal: the other vertices are behind edge i */
        const sepax_vec2 o = l.vertex[(i + 2) % 4];
        cr_expect((o.x - a.x) * l.normal[i].x + (o.y - a.y) * l.normal[i].y < 0, "normal %d", i);
    }
    cr_expect(area2 > 0, "stored counter-clockwise");
}

/* ---- counts ------------------------------------------------------------- */

Test(contract, too_many_verts) {
    sepax_vec2 ring[9];
    for (int k = 0; k < 9; k++)
        ring[k] = (sepax_vec2){(float)cos(k * 0.6981317), (float)sin(k * 0.6981317)};
    ADD_FAILS(SEPAX_ERR_TOO_MANY_VERTS, sepax_shapes_add_polygon(store, ring, 9, &out_id));
    ADD_FAILS(SEPAX_ERR_TOO_MANY_VERTS, sepax_shapes_add_rounded(store, ring, 9, 1, &out_id));
    /* the raw count decides, before any merging: 9 points of which two coincide */
    sepax_vec2 dup[9];
    memcpy(dup, ring, 8 * sizeof ring[0]);
    dup[8] = dup[7];
    ADD_FAILS(SEPAX_ERR_TOO_MANY_VERTS, sepax_shapes_add_polygon(store, dup, 9, &out_id));
    /* refused before reading: 8 real points, count INT_MAX */
    sepax_vec2 *g = guarded(8 * sizeof *g);
    memcpy(g, ring, 8 * sizeof *g);
    ADD_FAILS(SEPAX_ERR_TOO_MANY_VERTS, sepax_shapes_add_polygon(store, g, INT_MAX, &out_id));
}

Test(contract, negative_count) {
    const int bad[] = {-1, -3, INT_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ADD_FAILS(SEPAX_ERR_COUNT, sepax_shapes_add_polygon(store, square, bad[i], &out_id));
        ADD_FAILS(SEPAX_ERR_COUNT, sepax_shapes_add_rounded(store, square, bad[i], 1, &out_id));
        HULL_FAILS(SEPAX_ERR_COUNT, square, bad[i]);
    }
}

/* More than SEPAX_HULL_MAX_POINTS: SEPAX_ERR_COUNT, refused before reading. */
Test(contract, hull_points) {
    sepax_vec2 *g = guarded(4 * sizeof *g);
    memcpy(g, square, 4 * sizeof *g);
    HULL_FAILS(SEPAX_ERR_COUNT, g, SEPAX_HULL_MAX_POINTS + 1);
    HULL_FAILS(SEPAX_ERR_COUNT, g, INT_MAX);
    /* exactly the limit is fine */
    sepax_vec2 *p = guarded(SEPAX_HULL_MAX_POINTS * sizeof *p);
    for (int i = 0; i < SEPAX_HULL_MAX_POINTS; i++)
        p[i] = (sepax_vec2){(float)(i % 23) / 22.0f, (float)(i % 29) / 28.0f};
    p[0] = (sepax_vec2){-1, -1};
    p[1] = (sepax_vec2){2, -1};
    p[2] = (sepax_vec2){2, 2};
    p[3] = (sepax_vec2){-1, 2};
    sepax_vec2 out[SEPAX_MAX_VERTS];
    int n = -1;
    ST(SEPAX_OK, sepax_hull(p, SEPAX_HULL_MAX_POINTS, out, &n));
    cr_expect(n == 4);
}

/* A hull that needs more than SEPAX_MAX_VERTS vertices is refused, never truncated. */
Test(contract, hull_verts) {
    sepax_vec2 ring[16];
    for (int k = 0; k < 16; k++)
        ring[k] = (sepax_vec2){(float)cos(k * 0.39269908), (float)sin(k * 0.39269908)};
    HULL_FAILS(SEPAX_ERR_TOO_MANY_VERTS, ring, 16);
    HULL_FAILS(SEPAX_ERR_TOO_MANY_VERTS, ring, 9); /* half a 16-gon and its chord */
    sepax_vec2 nine[9];
    for (int k = 0; k < 9; k++)
        nine[k] = (sepax_vec2){(float)cos(k * 0.6981317), (float)sin(k * 0.6981317)};
    HULL_FAILS(SEPAX_ERR_TOO_MANY_VERTS, nine, 9);
}

/* ---- range: SEPAX_ERR_RANGE -------------------------------------------- */

/* Each range test tries the first floats past SEPAX_COORD_LIMIT as well as far beyond it, so
 * that a limit which drifted up (say to 1.9e18) would fail them. */
#define PAST_LIMIT nextafterf(SEPAX_COORD_LIMIT, INFINITY)

Test(contract, range_coords) {
    const float big[] = {PAST_LIMIT, -PAST_LIMIT, 2e18f, -2e18f, FLT_MAX, -FLT_MAX};
    for (size_t v = 0; v < sizeof big / sizeof big[0]; v++) {
        float f = big[v];
        sepax_vec2 p[4];
        memcpy(p, square, sizeof p);
        p[2].x = f;
        ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_polygon(store, p, 4, &out_id));
        ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_rounded(store, p, 4, 1, &out_id));
        HULL_FAILS(SEPAX_ERR_RANGE, p, 4);
        memcpy(p, square, sizeof p);
        p[3].y = f;
        ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_polygon(store, p, 4, &out_id));
        ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_circle(store, (sepax_vec2){f, 0}, 1, &out_id));
        ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_circle(store, (sepax_vec2){0, f}, 1, &out_id));
        ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_capsule(store, (sepax_vec2){f, 0},
                                                            (sepax_vec2){0, 0}, 1, &out_id));
        ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_capsule(store, (sepax_vec2){0, 0},
                                                            (sepax_vec2){0, f}, 1, &out_id));
    }
    /* the limit itself is in range */
    const float L = SEPAX_COORD_LIMIT;
    const sepax_vec2 edge[3] = {{-L, -L}, {L, -L}, {0, L}};
    uint32_t id;
    ST(SEPAX_OK, sepax_shapes_add_polygon(store, edge, 3, &id));
    ST(SEPAX_OK, sepax_shapes_add_circle(store, (sepax_vec2){L, -L}, L, &id));
}

Test(contract, range_size) {
    const float big[] = {PAST_LIMIT, 2e18f, FLT_MAX};
    for (size_t v = 0; v < sizeof big / sizeof big[0]; v++) {
        float r = big[v];
        ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_circle(store, (sepax_vec2){0, 0}, r, &out_id));
        ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_capsule(store, (sepax_vec2){0, 0},
                                                            (sepax_vec2){1, 0}, r, &out_id));
        ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_rounded(store, square, 4, r, &out_id));
        ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_box(store, r, 1, &out_id));
        ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_box(store, 1, r, &out_id));
    }
    /* the limit itself is in range (shapes not too thin for their size) */
    const float L = SEPAX_COORD_LIMIT;
    uint32_t id;
    ST(SEPAX_OK, sepax_shapes_add_circle(store, (sepax_vec2){0, 0}, L, &id));
    ST(SEPAX_OK, sepax_shapes_add_capsule(store, (sepax_vec2){0, 0}, (sepax_vec2){L, 0}, L, &id));
    ST(SEPAX_OK, sepax_shapes_add_box(store, L, L, &id));
}

Test(contract, range_pose) {
    const float big[] = {PAST_LIMIT, -PAST_LIMIT, 2e18f, -2e18f, FLT_MAX};
    for (size_t v = 0; v < sizeof big / sizeof big[0]; v++)
        for (int axis = 0; axis < 2; axis++) {
            sepax_pose p[2] = {{{1, 1}, {1, 0}}, {{1, 1}, {1, 0}}};
            if (axis)
                p[1].position.y = big[v];
            else
                p[1].position.x = big[v];
            FAILS(SEPAX_ERR_RANGE, sepax_shapes_set_poses(store, 0, 2, p));
        }
    const sepax_pose at_limit = {{SEPAX_COORD_LIMIT, -SEPAX_COORD_LIMIT}, {1, 0}};
    ST(SEPAX_OK, sepax_shapes_set_poses(store, 0, 1, &at_limit));
}

Test(contract, range_margin) {
    const float big[] = {PAST_LIMIT, -PAST_LIMIT, 2e18f, -2e18f, FLT_MAX, -FLT_MAX};
    for (size_t v = 0; v < sizeof big / sizeof big[0]; v++) {
        sepax_query_options o = {.margin = big[v]};
        QUERY_FAILS(SEPAX_ERR_RANGE, sepax_overlap_opt(store, good, NPAIRS, &o, hit));
        QUERY_FAILS(SEPAX_ERR_RANGE, sepax_collide_opt(store, good, NPAIRS, &o, hits));
        QUERY_FAILS(SEPAX_ERR_RANGE, sepax_overlap_one_opt(store, 0, 0, NFIX, &o, hit));
    }
    const sepax_query_options limit = {.margin = -SEPAX_COORD_LIMIT},
                              upper = {.margin = SEPAX_COORD_LIMIT};
    ST(SEPAX_OK, sepax_collide_opt(store, good, NPAIRS, &limit, hits));
    ST(SEPAX_OK, sepax_overlap_opt(store, good, NPAIRS, &upper, hit));
}

/* ---- poses: SEPAX_ERR_BAD_POSE ------------------------------------------ */

Test(contract, bad_pose) {
    /* squared length off 1 by more than 2^-16 */
    const sepax_rotation bad[] = {{0, 0}, {2, 0}, {0.5f, 0.5f}, {1, 0.01f}, {0.99f, 0}, {-1, 1}};
    for (size_t v = 0; v < sizeof bad / sizeof bad[0]; v++) {
        sepax_pose p[3];
        for (int i = 0; i < 3; i++) p[i] = (sepax_pose){{1, 2}, sepax_rot(0.5f)};
        p[2].rotation = bad[v];
        FAILS(SEPAX_ERR_BAD_POSE, sepax_shapes_set_poses(store, 0, 3, p));
    }
    /* within 2^-16: accepted */
    const sepax_pose near = {{0, 0}, {1.0f + 1.0f / 262144.0f, 0}};
    ST(SEPAX_OK, sepax_shapes_set_poses(store, 0, 1, &near));
    /* the tolerance itself, pinned from both sides: squared lengths 1 + k 2^-16 for k just
     * past +-1 are refused and just within accepted, at an axis and at 0.5 rad (the squared
     * length checked in double, as the rule takes it, so the float rounding of c and s cannot
     * move a case across) */
    const double ks[] = {1.1, -1.1, 0.9, -0.9};
    for (size_t v = 0; v < sizeof ks / sizeof ks[0]; v++)
        for (int turned = 0; turned < 2; turned++) {
            double scale = sqrt(1.0 + ks[v] / 65536.0);
            sepax_rotation r = {(float)(scale * (turned ? cos(0.5) : 1.0)),
                                (float)(scale * (turned ? sin(0.5) : 0.0))};
            double off = fabs((double)r.c * r.c + (double)r.s * r.s - 1.0) * 65536.0;
            int refused = fabs(ks[v]) > 1.0;
            cr_assert(refused ? off > 1.05 : off < 0.95, "case %zu: %.4f of 2^-16 off", v, off);
            sepax_pose p[2] = {{{1, 2}, sepax_rot(0.5f)}, {{1, 2}, r}};
            if (refused)
                FAILS(SEPAX_ERR_BAD_POSE, sepax_shapes_set_poses(store, 0, 2, p));
            else
                ST(SEPAX_OK, sepax_shapes_set_poses(store, 0, 2, p));
        }
    const sepax_pose half_turn = {{0, 0}, {-1, 0}};
    ST(SEPAX_OK, sepax_shapes_set_poses(store, 1, 1, &half_turn));
}

/* ---- ids ---------------------------------------------------------------- */

/* Every id-taking call refusing `id` with `want`. The bad pair is the last
 * of the list, so a query that wrote the good ones first would be caught. */
static void refuse_id(uint32_t id, sepax_status want) {
    sepax_pair pairs[NPAIRS + 1];
    uint32_t n = sepax_shapes_count(store), np = 0;
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = a + 1; b < n; b++)
            pairs[np++] = (sepax_pair){sepax_shapes_id(store, a), sepax_shapes_id(store, b)};
    pairs[np] = (sepax_pair){id, sepax_shapes_id(store, 0)};
    ALL_PAIR_QUERIES_FAIL(want, pairs, np + 1);
    pairs[np] = (sepax_pair){sepax_shapes_id(store, 0), id};
    ALL_PAIR_QUERIES_FAIL(want, pairs, np + 1);
    QUERY_FAILS(want, sepax_overlap_one(store, id, 0, sepax_shapes_count(store), hit));
    QUERY_FAILS(want, sepax_overlap_one(store, id, 0, 0, hit));
    sepax_shape_view v;
    sepax_local_shape l;
    sepax_pose p;
    sepax_aabb b;
    sepax_move m;
    OUT_FAILS(want, sepax_shapes_view(store, id, &v), &v);
    OUT_FAILS(want, sepax_shapes_local(store, id, &l), &l);
    OUT_FAILS(want, sepax_shapes_get_pose(store, id, &p), &p);
    OUT_FAILS(want, sepax_shapes_aabb(store, id, &b), &b);
    OUT_FAILS(want, sepax_shapes_remove(store, id, &m), &m);
    FAILS(want, sepax_shapes_remove(store, id, NULL));
}

Test(contract, bad_id) {
    const uint32_t bad[] = {NFIX, NFIX + 1, 15, 16, 1000, SEPAX_ID_INDEX_MASK, SEPAX_NO_ID};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) refuse_id(bad[i], SEPAX_ERR_BAD_ID);
    /* never issued, with a generation: past the shapes, below the store's capacity or not,
     * is BAD_ID too (it once depended on the capacity, which the caller cannot see) */
    const uint32_t gen = 1u << SEPAX_ID_INDEX_BITS;
    const uint32_t unissued[] = {gen | NFIX, gen | 15, gen | 16, 0x80u << SEPAX_ID_INDEX_BITS | 9,
                                 gen | 1000};
    for (size_t i = 0; i < sizeof unissued / sizeof unissued[0]; i++)
        refuse_id(unissued[i], SEPAX_ERR_BAD_ID);
}

/* Removed ids, and the old id of the shape a removal moved, are refused. */
Test(contract, stale_id) {
    sepax_move m;
    cr_assert(sepax_shapes_remove(store, 1, &m) == SEPAX_OK);
    const uint32_t last = NFIX - 1;
    cr_expect(m.from == last && (m.to & SEPAX_ID_INDEX_MASK) == 1 && m.to != 1);
    refuse_id(1, SEPAX_ERR_STALE_ID);    /* the removed shape */
    refuse_id(last, SEPAX_ERR_STALE_ID); /* the moved shape's old id */
    /* removing the last shape: its id is stale too */
    uint32_t tail = sepax_shapes_id(store, sepax_shapes_count(store) - 1);
    cr_assert(sepax_shapes_remove(store, tail, &m) == SEPAX_OK);
    cr_expect(m.from == SEPAX_NO_ID);
    refuse_id(tail, SEPAX_ERR_STALE_ID);
    /* the moved shape answers under its new id */
    sepax_pair ok = {0, sepax_shapes_id(store, 1)};
    ST(SEPAX_OK, sepax_collide(store, &ok, 1, hits));
}

/* A range [first, first+count) past the store: SEPAX_ERR_BAD_ID. */
Test(contract, one_range) {
    const uint32_t n = NFIX;
    QUERY_FAILS(SEPAX_ERR_BAD_ID, sepax_overlap_one(store, 0, n, 1, hit));
    QUERY_FAILS(SEPAX_ERR_BAD_ID, sepax_overlap_one(store, 0, 2, n - 1, hit));
    QUERY_FAILS(SEPAX_ERR_BAD_ID, sepax_overlap_one(store, 0, n + 1, 0, hit));
    QUERY_FAILS(SEPAX_ERR_BAD_ID, sepax_overlap_one(store, 0, UINT32_MAX, 1, hit));
    QUERY_FAILS(SEPAX_ERR_BAD_ID, sepax_overlap_one(store, 0, 1, SIZE_MAX, hit));
    QUERY_FAILS(SEPAX_ERR_BAD_ID, sepax_overlap_one_opt(store, 0, n, 1, &zero_margin, hit));
}

Test(contract, pose_range) {
    const uint32_t n = NFIX;
    sepax_pose p[NFIX + 1];
    for (uint32_t i = 0; i <= n; i++) p[i] = (sepax_pose){{3, 4}, {0, 1}};
    FAILS(SEPAX_ERR_BAD_ID, sepax_shapes_set_poses(store, n - 1, 2, p));
    FAILS(SEPAX_ERR_BAD_ID, sepax_shapes_set_poses(store, 0, n + 1, p));
    FAILS(SEPAX_ERR_BAD_ID, sepax_shapes_set_poses(store, n, 1, p));
    FAILS(SEPAX_ERR_BAD_ID, sepax_shapes_set_poses(store, n + 1, 0, p));
    FAILS(SEPAX_ERR_BAD_ID, sepax_shapes_set_poses(store, UINT32_MAX, 1, p));
    FAILS(SEPAX_ERR_BAD_ID, sepax_shapes_set_poses(store, 1, SIZE_MAX, p));
}

/* ---- NULL --------------------------------------------------------------- */

Test(contract, null_store) {
    sepax_vec2 c = {0, 0};
    sepax_pose pose = {{0, 0}, {1, 0}};
    uint32_t id = ID_MARK;
    ST(SEPAX_ERR_NULL, sepax_shapes_add_polygon(NULL, square, 4, &id));
    ST(SEPAX_ERR_NULL, sepax_shapes_add_rounded(NULL, square, 4, 1, &id));
    ST(SEPAX_ERR_NULL, sepax_shapes_add_circle(NULL, c, 1, &id));
    ST(SEPAX_ERR_NULL, sepax_shapes_add_capsule(NULL, c, (sepax_vec2){1, 0}, 1, &id));
    ST(SEPAX_ERR_NULL, sepax_shapes_add_box(NULL, 1, 1, &id));
    cr_expect(id == ID_MARK);
    sepax_move m;
    memset(&m, MARK, sizeof m);
    ST(SEPAX_ERR_NULL, sepax_shapes_remove(NULL, 0, &m));
    cr_expect(all_marked(&m, sizeof m));
    ST(SEPAX_ERR_NULL, sepax_shapes_set_poses(NULL, 0, 1, &pose));
    ST(SEPAX_ERR_NULL, sepax_shapes_set_poses(NULL, 0, 0, NULL));
    ST(SEPAX_ERR_NULL, sepax_shapes_update(NULL));
    sepax_shape_view v;
    sepax_local_shape l;
    sepax_pose p;
    sepax_aabb b;
    memset(&v, MARK, sizeof v);
    memset(&l, MARK, sizeof l);
    memset(&p, MARK, sizeof p);
    memset(&b, MARK, sizeof b);
    ST(SEPAX_ERR_NULL, sepax_shapes_view(NULL, 0, &v));
    ST(SEPAX_ERR_NULL, sepax_shapes_local(NULL, 0, &l));
    ST(SEPAX_ERR_NULL, sepax_shapes_get_pose(NULL, 0, &p));
    ST(SEPAX_ERR_NULL, sepax_shapes_aabb(NULL, 0, &b));
    cr_expect(all_marked(&v, sizeof v) && all_marked(&l, sizeof l));
    cr_expect(all_marked(&p, sizeof p) && all_marked(&b, sizeof b));
    mark_outputs();
    /* a NULL store is refused even when there is nothing to do */
    for (size_t n = 0; n < 2; n++) {
        ST(SEPAX_ERR_NULL, sepax_overlap(NULL, good, n, hit));
        ST(SEPAX_ERR_NULL, sepax_collide(NULL, good, n, hits));
        ST(SEPAX_ERR_NULL, sepax_overlap_opt(NULL, good, n, &zero_margin, hit));
        ST(SEPAX_ERR_NULL, sepax_collide_opt(NULL, good, n, &zero_margin, hits));
        ST(SEPAX_ERR_NULL, sepax_overlap_one(NULL, 0, 0, n, hit));
        ST(SEPAX_ERR_NULL, sepax_overlap_one_opt(NULL, 0, 0, n, &zero_margin, hit));
    }
    cr_expect(all_marked(hit, sizeof hit) && all_marked(hits, sizeof hits));
    sepax_filter f;
    memset(&f, MARK, sizeof f);
    ST(SEPAX_ERR_NULL, sepax_shapes_get_filter(NULL, 0, &f));
    ST(SEPAX_ERR_NULL, sepax_shapes_set_filters(NULL, 0, 0, NULL));
    cr_expect(all_marked(&f, sizeof f));
    /* the broadphase's calls, over a grid with answers to write: a NULL store (or broadphase)
     * is refused before anything is read or written */
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    cr_assert(sepax_broadphase_build(bp, store, 0.0f) == SEPAX_OK);
    uint32_t ids[MAXS], order[NFIX];
    sepax_ray_hit rh[MAXS];
    size_t count;
    sepax_broadphase_stats stats;
    memset(ids, MARK, sizeof ids);
    memset(order, MARK, sizeof order);
    memset(rh, MARK, sizeof rh);
    memset(&count, MARK, sizeof count);
    memset(&stats, MARK, sizeof stats);
    const sepax_aabb everywhere = {{-100, -100}, {100, 100}};
    const sepax_ray across = {{-100, 0.2f}, {200, 0}, 1};
    for (int no_bp = 0; no_bp < 2; no_bp++) {
        sepax_broadphase *b = no_bp ? NULL : bp;
        ST(SEPAX_ERR_NULL, sepax_broadphase_query_aabb(b, NULL, everywhere, ids, MAXS, &count));
        ST(SEPAX_ERR_NULL, sepax_broadphase_query_shape(b, NULL, 0, 0, ids, MAXS, &count));
        ST(SEPAX_ERR_NULL, sepax_broadphase_query_ray(b, NULL, &across, ids, rh, MAXS, &count));
        ST(SEPAX_ERR_NULL, sepax_broadphase_order(b, NULL, order, NFIX));
        ST(SEPAX_ERR_NULL, sepax_broadphase_order(b, NULL, NULL, 0));
    }
    ST(SEPAX_ERR_NULL, sepax_broadphase_query_aabb(NULL, store, everywhere, ids, MAXS, &count));
    ST(SEPAX_ERR_NULL, sepax_broadphase_query_shape(NULL, store, 0, 0, ids, MAXS, &count));
    ST(SEPAX_ERR_NULL, sepax_broadphase_query_ray(NULL, store, &across, ids, rh, MAXS, &count));
    ST(SEPAX_ERR_NULL, sepax_broadphase_order(NULL, store, order, NFIX));
    ST(SEPAX_ERR_NULL, sepax_broadphase_stats_get(NULL, &stats));
    ST(SEPAX_ERR_NULL, sepax_broadphase_trim(NULL));
    cr_expect(all_marked(ids, sizeof ids) && all_marked(order, sizeof order) &&
                  all_marked(rh, sizeof rh) && all_marked(&count, sizeof count),
              "a broadphase call refused for NULL wrote");
    cr_expect(all_marked(&stats, sizeof stats), "stats written for a NULL broadphase");
    /* the same calls with the store and broadphase given have answers to write */
    ST(SEPAX_OK, sepax_broadphase_query_aabb(bp, store, everywhere, ids, MAXS, &count));
    cr_expect(count == NFIX, "%zu shapes in the box", count);
    ST(SEPAX_OK, sepax_broadphase_order(bp, store, order, NFIX));
    ST(SEPAX_OK, sepax_broadphase_stats_get(bp, &stats));
    sepax_broadphase_destroy(bp);
    /* the calls without a status */
    cr_expect(sepax_shapes_count(NULL) == 0);
    cr_expect(sepax_shapes_id(NULL, 0) == SEPAX_NO_ID);
    sepax_shapes_destroy(NULL);
}

Test(contract, null_args) {
    ADD_FAILS(SEPAX_ERR_NULL, sepax_shapes_add_polygon(store, NULL, 4, &out_id));
    ADD_FAILS(SEPAX_ERR_NULL, sepax_shapes_add_polygon(store, NULL, 0, &out_id));
    ADD_FAILS(SEPAX_ERR_NULL, sepax_shapes_add_rounded(store, NULL, 4, 1, &out_id));
    FAILS(SEPAX_ERR_NULL, sepax_shapes_add_polygon(store, square, 4, NULL));
    FAILS(SEPAX_ERR_NULL, sepax_shapes_add_rounded(store, square, 4, 1, NULL));
    FAILS(SEPAX_ERR_NULL, sepax_shapes_add_circle(store, (sepax_vec2){0, 0}, 1, NULL));
    FAILS(SEPAX_ERR_NULL,
          sepax_shapes_add_capsule(store, (sepax_vec2){0, 0}, (sepax_vec2){1, 0}, 1, NULL));
    FAILS(SEPAX_ERR_NULL, sepax_shapes_add_box(store, 1, 1, NULL));
    /* queries with n > 0 */
    QUERY_FAILS(SEPAX_ERR_NULL, sepax_overlap(store, NULL, NPAIRS, hit));
    QUERY_FAILS(SEPAX_ERR_NULL, sepax_overlap(store, good, NPAIRS, NULL));
    QUERY_FAILS(SEPAX_ERR_NULL, sepax_collide(store, NULL, NPAIRS, hits));
    QUERY_FAILS(SEPAX_ERR_NULL, sepax_collide(store, good, NPAIRS, NULL));
    QUERY_FAILS(SEPAX_ERR_NULL, sepax_overlap_opt(store, NULL, 1, NULL, hit));
    QUERY_FAILS(SEPAX_ERR_NULL, sepax_collide_opt(store, good, 1, NULL, NULL));
    QUERY_FAILS(SEPAX_ERR_NULL, sepax_overlap_one(store, 0, 0, NFIX, NULL));
    QUERY_FAILS(SEPAX_ERR_NULL, sepax_overlap_one_opt(store, 0, 0, 1, NULL, NULL));
    FAILS(SEPAX_ERR_NULL, sepax_shapes_set_poses(store, 0, 1, NULL));
    FAILS(SEPAX_ERR_NULL, sepax_shapes_view(store, 0, NULL));
    FAILS(SEPAX_ERR_NULL, sepax_shapes_local(store, 0, NULL));
    FAILS(SEPAX_ERR_NULL, sepax_shapes_get_pose(store, 0, NULL));
    FAILS(SEPAX_ERR_NULL, sepax_shapes_aabb(store, 0, NULL));
    sepax_vec2 out[SEPAX_MAX_VERTS];
    int n = -7;
    memset(out, MARK, sizeof out);
    ST(SEPAX_ERR_NULL, sepax_hull(NULL, 4, out, &n));
    ST(SEPAX_ERR_NULL, sepax_hull(square, 4, NULL, &n));
    ST(SEPAX_ERR_NULL, sepax_hull(square, 4, out, NULL));
    cr_expect(n == -7 && all_marked(out, sizeof out));
    sepax_backend be = (sepax_backend)77;
    ST(SEPAX_ERR_NULL, sepax_backend_from_name(NULL, &be));
    ST(SEPAX_ERR_NULL, sepax_backend_from_name("scalar", NULL));
    cr_expect(be == (sepax_backend)77);
    /* removing with moved == NULL is allowed */
    ST(SEPAX_OK, sepax_shapes_remove(store, 0, NULL));
}

/* NULL buffers with nothing to do (n == 0) are fine and touch nothing. */
Test(contract, null_empty) {
    snapshot before;
    take(&before);
    ST(SEPAX_OK, sepax_overlap(store, NULL, 0, NULL));
    ST(SEPAX_OK, sepax_collide(store, NULL, 0, NULL));
    ST(SEPAX_OK, sepax_overlap_opt(store, NULL, 0, NULL, NULL));
    ST(SEPAX_OK, sepax_collide_opt(store, NULL, 0, &zero_margin, NULL));
    ST(SEPAX_OK, sepax_overlap_one(store, 0, 0, 0, NULL));
    ST(SEPAX_OK, sepax_overlap_one_opt(store, 0, NFIX, 0, NULL, NULL));
    ST(SEPAX_OK, sepax_shapes_set_poses(store, 0, 0, NULL));
    ST(SEPAX_OK, sepax_shapes_set_poses(store, NFIX, 0, NULL));
    expect_same(&before, "n == 0 with NULL buffers");
}

/* Zero counts with real buffers: OK, nothing written, nothing changed. */
Test(contract, zero_counts) {
    snapshot before;
    take(&before);
    mark_outputs();
    sepax_pose p = {{9, 9}, {0, 1}};
    ST(SEPAX_OK, sepax_overlap(store, good, 0, hit));
    ST(SEPAX_OK, sepax_collide(store, good, 0, hits));
    ST(SEPAX_OK, sepax_overlap_opt(store, good, 0, &zero_margin, hit));
    ST(SEPAX_OK, sepax_collide_opt(store, good, 0, &zero_margin, hits));
    ST(SEPAX_OK, sepax_overlap_one(store, 0, 0, 0, hit));
    ST(SEPAX_OK, sepax_overlap_one(store, 0, NFIX, 0, hit));
    ST(SEPAX_OK, sepax_shapes_set_poses(store, 0, 0, &p));
    ST(SEPAX_OK, sepax_shapes_set_poses(store, NFIX, 0, &p));
    cr_expect(all_marked(hit, sizeof hit) && all_marked(hits, sizeof hits));
    expect_same(&before, "zero counts");
    /* an empty store: updates and empty queries are fine */
    sepax_shapes *empty = sepax_shapes_create(0);
    cr_assert(empty);
    ST(SEPAX_OK, sepax_shapes_update(empty));
    ST(SEPAX_OK, sepax_overlap(empty, NULL, 0, NULL));
    ST(SEPAX_OK, sepax_shapes_set_poses(empty, 0, 0, NULL));
    cr_expect(sepax_shapes_count(empty) == 0);
    sepax_shapes_destroy(empty);
}

/* ---- size overflow ------------------------------------------------------ */

/* n whose byte size overflows: SEPAX_ERR_COUNT, decided before reading the
 * buffers (one real element each, ending at an inaccessible page). Ranges
 * (set_poses, overlap_one) past the store are SEPAX_ERR_BAD_ID instead. */
Test(contract, count_overflow) {
    sepax_pair *pairs = guarded(sizeof *pairs);
    uint8_t *h = guarded(8);
    sepax_hit *out = guarded(sizeof *out);
    sepax_pose *poses = guarded(sizeof *poses);
    *pairs = good[0];
    *poses = (sepax_pose){{0, 0}, {1, 0}};
    const size_t huge[] = {SIZE_MAX / 2, SIZE_MAX, SIZE_MAX / sizeof(sepax_pair) + 1};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        size_t n = huge[i];
        memset(h, MARK, 8);
        memset(out, MARK, sizeof *out);
        FAILS(SEPAX_ERR_COUNT, sepax_overlap(store, pairs, n, h));
        FAILS(SEPAX_ERR_COUNT, sepax_collide(store, pairs, n, out));
        FAILS(SEPAX_ERR_COUNT, sepax_overlap_opt(store, pairs, n, &zero_margin, h));
        FAILS(SEPAX_ERR_COUNT, sepax_collide_opt(store, pairs, n, &zero_margin, out));
        FAILS(SEPAX_ERR_BAD_ID, sepax_overlap_one(store, 0, 0, n, h));
        FAILS(SEPAX_ERR_BAD_ID, sepax_shapes_set_poses(store, 0, n, poses));
        cr_expect(all_marked(h, 8) && all_marked(out, sizeof *out));
    }
}

Test(contract, create_huge) {
    cr_expect(sepax_shapes_create(SEPAX_MAX_SHAPES + (size_t)1) == NULL);
    cr_expect(sepax_shapes_create(SIZE_MAX / 2) == NULL);
    cr_expect(sepax_shapes_create(SIZE_MAX) == NULL);
}

/* ---- out of memory ------------------------------------------------------ */

typedef struct counting {
    size_t allocs, frees, refused;
    size_t budget; /* allocations still allowed */
} counting;

static void *count_alloc(size_t size, size_t align, void *ctx) {
    counting *c = ctx;
    cr_assert(align && (align & (align - 1)) == 0 && align <= 64);
    if (c->budget == 0) {
        c->refused++;
        return NULL;
    }
    c->budget--;
    void *p = aligned_alloc(align, (size + align - 1) / align * align);
    if (p) c->allocs++;
    return p;
}

static void count_free(void *ptr, void *ctx) {
    counting *c = ctx;
    cr_assert(ptr != NULL);
    c->frees++;
    free(ptr);
}

Test(contract, oom_create) {
    counting c = {0, 0, 0, 0};
    sepax_allocator a = {count_alloc, count_free, &c};
    size_t fail_at;
    sepax_shapes *s = NULL;
    for (fail_at = 0; fail_at < 100; fail_at++) {
        c = (counting){0, 0, 0, fail_at};
        s = sepax_shapes_create_with(0, &a);
        if (s) break;
        cr_expect(c.refused == 1, "one refused allocation ends the attempt");
        cr_expect(c.allocs == c.frees, "fail at %zu: %zu allocs, %zu frees", fail_at, c.allocs,
                  c.frees);
    }
    cr_assert(s, "never created");
    cr_expect(fail_at > 1, "creation made %zu allocations", fail_at);
    cr_expect(sepax_shapes_count(s) == 0);
    sepax_shapes_destroy(s);
    cr_expect(c.allocs == c.frees, "%zu allocs, %zu frees after destroy", c.allocs, c.frees);
    /* a too-large capacity is refused before allocating; an allocator without functions too */
    c = (counting){0, 0, 0, SIZE_MAX};
    cr_expect(sepax_shapes_create_with(SEPAX_MAX_SHAPES + (size_t)1, &a) == NULL);
    cr_expect(sepax_shapes_create_with(SIZE_MAX, &a) == NULL);
    cr_expect(c.allocs == 0 && c.refused == 0);
    sepax_allocator half = {count_alloc, NULL, &c}, other_half = {NULL, count_free, &c};
    cr_expect(sepax_shapes_create_with(0, &half) == NULL);
    cr_expect(sepax_shapes_create_with(0, &other_half) == NULL);
    cr_expect(c.allocs == 0);
}

/* Growing past capacity 16 when the allocator refuses: SEPAX_ERR_NOMEM with
 * the store unchanged, no memory lost, queries answering as before; the add
 * succeeds once memory is there again. */
Test(contract, oom_grow) {
    counting c = {0, 0, 0, SIZE_MAX};
    sepax_allocator a = {count_alloc, count_free, &c};
    sepax_shapes *s = sepax_shapes_create_with(0, &a);
    cr_assert(s);
    add_fixture_shapes(s, 16); /* exactly the initial capacity */
    sepax_pair pairs[16 * 15 / 2];
    size_t np = 0;
    for (uint32_t i = 0; i < 16; i++)
        for (uint32_t j = i + 1; j < 16; j++) pairs[np++] = (sepax_pair){i, j};
    static sepax_hit want[16 * 15 / 2], got[16 * 15 / 2];
    uint8_t want1[16], got1[16];
    cr_assert(sepax_collide(s, pairs, np, want) == SEPAX_OK);
    cr_assert(sepax_overlap_one(s, 3, 0, 16, want1) == SEPAX_OK);
    snapshot before;
    take_of(s, &before);
    size_t refusals = 0;
    for (size_t budget = 0; budget < 100; budget++) {
        size_t live = c.allocs - c.frees;
        c.budget = budget;
        uint32_t id = ID_MARK;
        sepax_status st = sepax_shapes_add_circle(s, (sepax_vec2){1, 1}, 1, &id);
        if (st == SEPAX_OK) {
            cr_expect(id == 16);
            break;
        }
        refusals++;
        cr_expect(st == SEPAX_ERR_NOMEM, "budget %zu: %s", budget, sepax_status_str(st));
        cr_expect(id == ID_MARK, "*out_id written on NOMEM");
        cr_expect(c.allocs - c.frees == live, "budget %zu: memory lost", budget);
        expect_same_of(s, &before, "add refused for memory");
        memset(got, MARK, sizeof got);
        cr_expect(sepax_collide(s, pairs, np, got) == SEPAX_OK);
        cr_expect(memcmp(got, want, sizeof got) == 0, "answers changed after NOMEM");
        cr_expect(sepax_overlap_one(s, 3, 0, 16, got1) == SEPAX_OK);
        cr_expect(memcmp(got1, want1, sizeof got1) == 0);
        cr_expect(sepax_shapes_update(s) == SEPAX_OK);
        expect_same_of(s, &before, "update after NOMEM");
    }
    cr_expect(refusals > 0, "growth allocated nothing?");
    cr_expect(sepax_shapes_count(s) == 17);
    /* the first 16 shapes survived the move to bigger arrays */
    snapshot after;
    take_of(s, &after);
    after.count = 16;
    after.id[16] = 0;
    memset(&after.local[16], 0, sizeof after.local[16]);
    memset(&after.pose[16], 0, sizeof after.pose[16]);
    memset(&after.aabb[16], 0, sizeof after.aabb[16]);
    memset(&after.view[16], 0, sizeof after.view[16]);
    cr_expect(memcmp(&after, &before, sizeof after) == 0, "old shapes changed by growth");
    cr_expect(sepax_collide(s, pairs, np, got) == SEPAX_OK);
    cr_expect(memcmp(got, want, sizeof got) == 0);
    sepax_shapes_destroy(s);
    cr_expect(c.allocs == c.frees, "%zu allocs, %zu frees after destroy", c.allocs, c.frees);
}

/* ---- alignment ---------------------------------------------------------- */

/* Copies `n` elements of `size` bytes to `off` bytes past an aligned buffer. */
static void *shifted(void *raw, size_t off, const void *src, size_t bytes) {
    memcpy((char *)raw + off, src, bytes);
    return (char *)raw + off;
}

Test(contract, misaligned_pairs) {
    _Alignas(16) unsigned char raw[sizeof good + 16];
    for (size_t off = 1; off < _Alignof(sepax_pair); off++) {
        const sepax_pair *p = shifted(raw, off, good, sizeof good);
        ALL_PAIR_QUERIES_FAIL(SEPAX_ERR_MISALIGNED, p, NPAIRS);
        ALL_PAIR_QUERIES_FAIL(SEPAX_ERR_MISALIGNED, p, 1);
    }
}

Test(contract, misaligned_out) {
    _Alignas(16) unsigned char raw[sizeof hits + 16];
    for (size_t off = 1; off < _Alignof(sepax_hit); off++) {
        memset(raw, MARK, sizeof raw);
        sepax_hit *out = (sepax_hit *)(void *)(raw + off);
        FAILS(SEPAX_ERR_MISALIGNED, sepax_collide(store, good, NPAIRS, out));
        FAILS(SEPAX_ERR_MISALIGNED, sepax_collide_opt(store, good, 1, &zero_margin, out));
        cr_expect(all_marked(raw, sizeof raw), "offset %zu: written", off);
    }
}

Test(contract, misaligned_poses) {
    sepax_pose p[3];
    for (int i = 0; i < 3; i++) p[i] = (sepax_pose){{5, 6}, {0, 1}};
    _Alignas(16) unsigned char raw[sizeof p + 16];
    for (size_t off = 1; off < _Alignof(sepax_pose); off++) {
        const sepax_pose *q = shifted(raw, off, p, sizeof p);
        FAILS(SEPAX_ERR_MISALIGNED, sepax_shapes_set_poses(store, 0, 3, q));
        FAILS(SEPAX_ERR_MISALIGNED, sepax_shapes_set_poses(store, 2, 1, q));
    }
}

/* Points for polygons and hulls, and the hull's outputs, must be aligned
 * for their types. */
Test(contract, misaligned_points) {
    sepax_vec2 sq[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    _Alignas(16) unsigned char raw[sizeof sq + 16];
    for (size_t off = 1; off < _Alignof(sepax_vec2); off++) {
        const sepax_vec2 *q = shifted(raw, off, sq, sizeof sq);
        ADD_FAILS(SEPAX_ERR_MISALIGNED, sepax_shapes_add_polygon(store, q, 4, &out_id));
        ADD_FAILS(SEPAX_ERR_MISALIGNED, sepax_shapes_add_rounded(store, q, 4, 0.5f, &out_id));
        sepax_vec2 hull[SEPAX_MAX_VERTS];
        int n = -7;
        cr_expect(sepax_hull(q, 4, hull, &n) == SEPAX_ERR_MISALIGNED && n == -7);
        _Alignas(16) unsigned char hraw[sizeof hull + 16];
        memset(hraw, MARK, sizeof hraw);
        cr_expect(sepax_hull(sq, 4, (sepax_vec2 *)(void *)(hraw + off), &n) ==
                  SEPAX_ERR_MISALIGNED);
        for (size_t i = 0; i < sizeof hraw; i++) cr_expect(hraw[i] == MARK, "hull wrote");
    }
}

/* `call`, with `p` a T at each misaligned offset into a marked buffer, must fail with
 * SEPAX_ERR_MISALIGNED, leave the store as it was and write no byte of the buffer. */
#define MISALIGNED_OUT_FAILS(T, p, call)                                                           \
    do {                                                                                           \
        _Alignas(64) unsigned char raw_[sizeof(T) + 64];                                           \
        for (size_t off_ = 1; off_ < _Alignof(T); off_++) {                                        \
            memset(raw_, MARK, sizeof raw_);                                                       \
            T *p = (T *)(void *)(raw_ + off_);                                                     \
            FAILS(SEPAX_ERR_MISALIGNED, call);                                                     \
            cr_expect(all_marked(raw_, sizeof raw_), "%s, offset %zu: written", #call, off_);      \
        }                                                                                          \
    } while (0)

/* The outputs of one object (an add's *out_id, a removal's *moved, the getters' *out, a
 * broadphase query's *count) are caller buffers like the arrays: misaligned for their types,
 * refused before anything is stored or written. */
/* A broadphase with a grid over the fixture's shapes. */
static sepax_broadphase *fixture_grid(void) {
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    cr_assert(sepax_broadphase_build(bp, store, 0.0f) == SEPAX_OK);
    return bp;
}

Test(contract, misaligned_one_outputs) {
    const sepax_vec2 c = {5, 5}, d = {6, 5};
    MISALIGNED_OUT_FAILS(uint32_t, id, sepax_shapes_add_polygon(store, square, 4, id));
    MISALIGNED_OUT_FAILS(uint32_t, id, sepax_shapes_add_rounded(store, square, 4, 0.5f, id));
    MISALIGNED_OUT_FAILS(uint32_t, id, sepax_shapes_add_circle(store, c, 1, id));
    MISALIGNED_OUT_FAILS(uint32_t, id, sepax_shapes_add_capsule(store, c, d, 1, id));
    MISALIGNED_OUT_FAILS(uint32_t, id, sepax_shapes_add_box(store, 1, 2, id));
    cr_expect(sepax_shapes_count(store) == NFIX, "a refused add added a shape");
    MISALIGNED_OUT_FAILS(sepax_move, m, sepax_shapes_remove(store, 1, m));
    MISALIGNED_OUT_FAILS(sepax_move, m, sepax_shapes_remove(store, NFIX - 1, m));
    cr_expect(sepax_shapes_count(store) == NFIX, "a refused removal removed a shape");
    MISALIGNED_OUT_FAILS(sepax_pose, p, sepax_shapes_get_pose(store, 2, p));
    MISALIGNED_OUT_FAILS(sepax_shape_view, v, sepax_shapes_view(store, 2, v));
    MISALIGNED_OUT_FAILS(sepax_local_shape, l, sepax_shapes_local(store, 2, l));
    MISALIGNED_OUT_FAILS(sepax_aabb, b, sepax_shapes_aabb(store, 2, b));
    MISALIGNED_OUT_FAILS(sepax_filter, f, sepax_shapes_get_filter(store, 2, f));
    MISALIGNED_OUT_FAILS(sepax_backend, be, sepax_backend_from_name("scalar", be));
    MISALIGNED_OUT_FAILS(sepax_world_shape, w, sepax_ref_world(store, 2, w));
    /* the broadphase's queries, over a grid that has answers to write */
    sepax_broadphase *bp = fixture_grid();
    uint32_t ids[MAXS];
    sepax_ray_hit rh[MAXS];
    memset(ids, MARK, sizeof ids);
    memset(rh, MARK, sizeof rh);
    const sepax_aabb everywhere = {{-100, -100}, {100, 100}};
    const sepax_ray across = {{-100, 0.2f}, {200, 0}, 1};
    MISALIGNED_OUT_FAILS(size_t, n,
                         sepax_broadphase_query_aabb(bp, store, everywhere, ids, MAXS, n));
    MISALIGNED_OUT_FAILS(size_t, n, sepax_broadphase_query_shape(bp, store, 0, 0, ids, MAXS, n));
    MISALIGNED_OUT_FAILS(size_t, n,
                         sepax_broadphase_query_ray(bp, store, &across, ids, rh, MAXS, n));
    cr_expect(all_marked(ids, sizeof ids) && all_marked(rh, sizeof rh), "a refused query wrote");
    /* a frame's *count (before its options are read: a bad test too) and the stats */
    sepax_pair fp[MAXS * MAXS];
    memset(fp, MARK, sizeof fp);
    sepax_contacts fout = {fp, NULL, NULL, MAXS * MAXS};
    sepax_frame_options fo = {SEPAX_TEST_OVERLAP, 0.0f, 0.0f, SEPAX_UPDATE_NONE};
    sepax_frame_options bad = {99, 0.0f, 0.0f, SEPAX_UPDATE_NONE};
    MISALIGNED_OUT_FAILS(size_t, n, sepax_find_contacts(bp, store, &fo, &fout, n));
    MISALIGNED_OUT_FAILS(size_t, n, sepax_find_contacts(bp, store, &bad, &fout, n));
    cr_expect(all_marked(fp, sizeof fp), "a refused frame wrote");
    MISALIGNED_OUT_FAILS(sepax_broadphase_stats, st, sepax_broadphase_stats_get(bp, st));
    /* the same calls with aligned outputs succeed, so the refusals were the alignment's */
    size_t n = 0;
    cr_expect(sepax_broadphase_query_aabb(bp, store, everywhere, ids, MAXS, &n) == SEPAX_OK);
    cr_expect(n == NFIX, "%zu shapes in the box", n);
    cr_expect(sepax_broadphase_query_ray(bp, store, &across, ids, rh, MAXS, &n) == SEPAX_OK);
    cr_expect(n > 0, "the ray hit nothing");
    sepax_broadphase_destroy(bp);
    sepax_move m;
    cr_expect(sepax_shapes_remove(store, 1, &m) == SEPAX_OK);
}

/* A copy of *obj at an address one byte past its type's alignment, in buf (which must hold
 * sizeof *obj + 2 * alignment bytes): what a packed or byte-buffer struct hands over. */
#define SKEWED(type, obj, buf)                                                                     \
    ((const type *)(const void *)memcpy(                                                           \
        (buf) + (_Alignof(type) - ((uintptr_t)(buf) % _Alignof(type))) % _Alignof(type) + 1,       \
        (obj), sizeof *(obj)))

/* An allocator that works and counts its calls, so that a creator which read a misaligned
 * one would succeed and be seen to. */
static int counted_allocs;
static void *counted_alloc(size_t bytes, size_t align, void *ctx) {
    (void)ctx;
    counted_allocs++;
    return aligned_alloc(align, (bytes + align - 1) / align * align);
}
static void counted_free(void *p, void *ctx) {
    (void)ctx;
    free(p);
}

/* A caller's scheduler that runs every task on the calling thread. */
static void inline_parallel_for(sepax_task_fn *fn, uint32_t count, void *task_context, void *user) {
    (void)user;
    if (count) fn(0, count, 0, task_context);
}

/* One-object inputs read through their pointers (options, a frame's output description, a
 * single ray, an allocator, a broadphase's config and scheduler): misaligned, MISALIGNED
 * (checked right after NULL, so even with n == 0 for the query options), or NULL from the
 * creators, with nothing read, written or allocated. Each copy holds valid values, so the
 * alignment alone is refused. */
Test(contract, misaligned_one_inputs) {
    _Alignas(64) unsigned char buf[8][256];
    const sepax_query_options qo = {.margin = 0.25f};
    const sepax_query_options *q = SKEWED(sepax_query_options, &qo, buf[0]);
    cr_assert((uintptr_t)q % _Alignof(sepax_query_options) != 0);
    QUERY_FAILS(SEPAX_ERR_MISALIGNED, sepax_overlap_opt(store, good, NPAIRS, q, hit));
    QUERY_FAILS(SEPAX_ERR_MISALIGNED, sepax_collide_opt(store, good, NPAIRS, q, hits));
    QUERY_FAILS(SEPAX_ERR_MISALIGNED, sepax_overlap_one_opt(store, 0, 0, NFIX, q, hit));
    QUERY_FAILS(SEPAX_ERR_MISALIGNED, sepax_overlap_opt(store, NULL, 0, q, NULL));
    sepax_manifold man[NPAIRS];
    sepax_sweep_hit sw[NPAIRS];
    sepax_ray_hit rh[NFIX];
    memset(man, MARK, sizeof man);
    memset(sw, MARK, sizeof sw);
    memset(rh, MARK, sizeof rh);
    const sepax_query_options zero = {0};
    const sepax_query_options *qz = SKEWED(sepax_query_options, &zero, buf[1]);
    FAILS(SEPAX_ERR_MISALIGNED, sepax_collide_manifold_opt(store, good, NPAIRS, q, man));
    FAILS(SEPAX_ERR_MISALIGNED, sepax_sweep_opt(store, good, NPAIRS, NULL, NULL, qz, sw));
    const sepax_ray across = {{-100, 0.2f}, {200, 0}, 1};
    sepax_ray rays[NFIX];
    uint32_t ids[NFIX];
    for (uint32_t i = 0; i < NFIX; i++) rays[i] = across, ids[i] = sepax_shapes_id(store, i);
    FAILS(SEPAX_ERR_MISALIGNED, sepax_raycast_opt(store, rays, ids, NFIX, qz, rh));
    const sepax_ray *ray = SKEWED(sepax_ray, &across, buf[2]);
    FAILS(SEPAX_ERR_MISALIGNED, sepax_raycast_range(store, ray, 0, NFIX, rh));
    cr_expect(all_marked(man, sizeof man) && all_marked(sw, sizeof sw) && all_marked(rh, sizeof rh),
              "a refused query wrote");
    /* the aligned copies are taken */
    ST(SEPAX_OK, sepax_overlap_opt(store, good, NPAIRS, &qo, hit));
    ST(SEPAX_OK, sepax_raycast_range(store, &across, 0, NFIX, rh));

    /* the broadphase: a ray query, a frame's options and output description */
    sepax_broadphase *bp = fixture_grid();
    uint32_t qids[MAXS];
    sepax_ray_hit qrh[MAXS];
    memset(qids, MARK, sizeof qids);
    memset(qrh, MARK, sizeof qrh);
    size_t n = 12345;
    FAILS(SEPAX_ERR_MISALIGNED, sepax_broadphase_query_ray(bp, store, ray, qids, qrh, MAXS, &n));
    /* the filtered queries' filter, the ray and box themselves good */
    const sepax_filter every = {0xffffffffu, 0xffffffffu};
    const sepax_filter *filter_skew = SKEWED(sepax_filter, &every, buf[6]);
    const sepax_aabb all_box = {{-100, -100}, {100, 100}};
    FAILS(SEPAX_ERR_MISALIGNED,
          sepax_broadphase_query_aabb_filtered(bp, store, all_box, filter_skew, qids, MAXS, &n));
    FAILS(SEPAX_ERR_MISALIGNED, sepax_broadphase_query_ray_filtered(bp, store, &across, filter_skew,
                                                                    qids, qrh, MAXS, &n));
    sepax_pair fp[MAXS * MAXS];
    memset(fp, MARK, sizeof fp);
    const sepax_contacts fout = {fp, NULL, NULL, MAXS * MAXS};
    const sepax_frame_options fo = {SEPAX_TEST_OVERLAP, 0.0f, 0.0f, SEPAX_UPDATE_NONE};
    const sepax_frame_options *fo_skew = SKEWED(sepax_frame_options, &fo, buf[3]);
    const sepax_contacts *fout_skew = SKEWED(sepax_contacts, &fout, buf[4]);
    FAILS(SEPAX_ERR_MISALIGNED, sepax_find_contacts(bp, store, fo_skew, &fout, &n));
    FAILS(SEPAX_ERR_MISALIGNED, sepax_find_contacts(bp, store, &fo, fout_skew, &n));
    sepax_pose poses[NFIX];
    for (uint32_t i = 0; i < NFIX; i++) cr_assert(sepax_shapes_get_pose(store, i, &poses[i]) == 0);
    FAILS(SEPAX_ERR_MISALIGNED, sepax_find_contacts_posed(bp, store, 0, sepax_shapes_count(store),
                                                          poses, fo_skew, &fout, &n));
    cr_expect(n == 12345, "a refused call wrote *count");
    cr_expect(all_marked(qids, sizeof qids) && all_marked(qrh, sizeof qrh) &&
                  all_marked(fp, sizeof fp),
              "a refused broadphase call wrote");
    ST(SEPAX_OK, sepax_find_contacts(bp, store, &fo, &fout, &n));
    /* the aligned filter is taken */
    ST(SEPAX_OK, sepax_broadphase_query_aabb_filtered(bp, store, all_box, &every, qids, MAXS, &n));
    ST(SEPAX_OK,
       sepax_broadphase_query_ray_filtered(bp, store, &across, &every, qids, qrh, MAXS, &n));
    sepax_broadphase_destroy(bp);

    /* the creators: NULL, with nothing allocated (by a working allocator, with which a
     * creator that read the misaligned struct would have succeeded) */
    const sepax_allocator counting = {counted_alloc, counted_free, NULL};
    counted_allocs = 0;
    cr_expect(sepax_shapes_create_with(4, SKEWED(sepax_allocator, &counting, buf[5])) == NULL);
    const sepax_broadphase_config cfg = {1, NULL, &counting, 0};
    sepax_broadphase *made = sepax_broadphase_create(SKEWED(sepax_broadphase_config, &cfg, buf[6]));
    cr_expect(made == NULL, "a misaligned config was read");
    sepax_broadphase_destroy(made);
    sepax_broadphase_config with = cfg;
    with.allocator = SKEWED(sepax_allocator, &counting, buf[7]);
    made = sepax_broadphase_create(&with);
    cr_expect(made == NULL, "a misaligned allocator was read");
    sepax_broadphase_destroy(made);
    const sepax_scheduler inline_sched = {inline_parallel_for, 1, NULL};
    _Alignas(64) unsigned char sbuf[256];
    with = cfg;
    with.scheduler = SKEWED(sepax_scheduler, &inline_sched, sbuf);
    made = sepax_broadphase_create(&with);
    cr_expect(made == NULL, "a misaligned scheduler was read");
    sepax_broadphase_destroy(made);
    cr_expect(counted_allocs == 0, "%d allocations by refused creators", counted_allocs);
    /* aligned, the same structs work */
    sepax_shapes *fine = sepax_shapes_create_with(4, &counting);
    cr_expect(fine != NULL && counted_allocs > 0);
    sepax_shapes_destroy(fine);
    made = sepax_broadphase_create(&cfg);
    cr_expect(made != NULL);
    sepax_broadphase_destroy(made);
    with.scheduler = &inline_sched;
    made = sepax_broadphase_create(&with);
    cr_expect(made != NULL);
    sepax_broadphase_destroy(made);
}

/* uint8_t hit buffers have no alignment requirement: any address works and
 * gives the same answers. */
Test(contract, byte_unaligned) {
    uint8_t want[NPAIRS], want1[NFIX];
    cr_assert(sepax_overlap(store, good, NPAIRS, want) == SEPAX_OK);
    cr_assert(sepax_overlap_one(store, 2, 0, NFIX, want1) == SEPAX_OK);
    unsigned char raw[NPAIRS + 16];
    for (size_t off = 1; off < 8; off++) {
        memset(raw, MARK, sizeof raw);
        ST(SEPAX_OK, sepax_overlap(store, good, NPAIRS, raw + off));
        cr_expect(memcmp(raw + off, want, NPAIRS) == 0, "offset %zu", off);
        cr_expect(raw[off - 1] == MARK && raw[off + NPAIRS] == MARK, "wrote outside");
        ST(SEPAX_OK, sepax_overlap_one(store, 2, 0, NFIX, raw + off));
        cr_expect(memcmp(raw + off, want1, NFIX) == 0, "offset %zu", off);
    }
}

/* ---- backends ----------------------------------------------------------- */

Test(contract, bad_backend) {
    const char *bad[] = {"", "bogus", "AVX2", "Scalar", " avx2", "avx2 ", "sse4.1", "avx"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sepax_backend b = (sepax_backend)77;
        ST(SEPAX_ERR_BAD_BACKEND, sepax_backend_from_name(bad[i], &b));
        cr_expect(b == (sepax_backend)77, "\"%s\": *out written", bad[i]);
    }
    for (int i = 0; i < SEPAX_BACKEND_COUNT; i++) {
        sepax_backend b = (sepax_backend)77;
        ST(SEPAX_OK, sepax_backend_from_name(sepax_backend_name((sepax_backend)i), &b));
        cr_expect(b == (sepax_backend)i);
    }
    /* an invalid value: refused, and the active backend is kept */
    sepax_backend active = sepax_get_backend();
    ST(SEPAX_ERR_BAD_BACKEND, sepax_set_backend((sepax_backend)SEPAX_BACKEND_COUNT));
    ST(SEPAX_ERR_BAD_BACKEND, sepax_set_backend((sepax_backend)-2));
    ST(SEPAX_ERR_BAD_BACKEND, sepax_set_backend((sepax_backend)99));
    cr_expect(sepax_get_backend() == active);
    cr_expect(sepax_backend_name((sepax_backend)99) == NULL);
    cr_expect(sepax_backend_available((sepax_backend)99) == 0);
}

/* ---- which check wins --------------------------------------------------- */

/* With several things wrong, the first failing check decides, in the order
 * README.md ("Bad input: the contract") gives. (The SEPAX_OK lines: nothing to do, so
 * nothing is checked further and nothing is written.) */
Test(contract, order) {
    sepax_query_options nan_margin = {.margin = NAN};
    _Alignas(16) unsigned char raw[64];
    sepax_pair *odd_pairs = (sepax_pair *)(void *)(raw + 1);
    sepax_hit *odd_out = (sepax_hit *)(void *)(raw + 1);
    sepax_pose *odd_poses = (sepax_pose *)(void *)(raw + 1);
    /* a call given the odd buffers above must not write them either */
#define RAW_UNTOUCHED(call)                                                                        \
    do {                                                                                           \
        memset(raw, MARK, sizeof raw);                                                             \
        call;                                                                                      \
        cr_expect(all_marked(raw, sizeof raw), "%s: its odd buffer written", #call);               \
    } while (0)
    /* queries: store, margin (even when n == 0), n == 0, NULL, alignment, count, ids */
    QUERY_FAILS(SEPAX_ERR_NULL, sepax_overlap_opt(NULL, NULL, SIZE_MAX, &nan_margin, NULL));
    QUERY_FAILS(SEPAX_ERR_NONFINITE, sepax_overlap_opt(store, NULL, 5, &nan_margin, NULL));
    QUERY_FAILS(SEPAX_ERR_NONFINITE, sepax_collide_opt(store, NULL, 0, &nan_margin, NULL));
    RAW_UNTOUCHED(QUERY_FAILS(SEPAX_OK, sepax_collide(store, odd_pairs, 0, odd_out)));
    RAW_UNTOUCHED(QUERY_FAILS(SEPAX_ERR_NULL, sepax_collide(store, NULL, SIZE_MAX, odd_out)));
    RAW_UNTOUCHED(
        QUERY_FAILS(SEPAX_ERR_MISALIGNED, sepax_collide(store, odd_pairs, SIZE_MAX, hits)));
    RAW_UNTOUCHED(QUERY_FAILS(SEPAX_ERR_MISALIGNED, sepax_collide(store, good, SIZE_MAX, odd_out)));
    /* overlap_one: store, margin, probe, range, n == 0, NULL hit */
    QUERY_FAILS(SEPAX_ERR_NONFINITE, sepax_overlap_one_opt(store, 99, 99, 9, &nan_margin, NULL));
    QUERY_FAILS(SEPAX_ERR_BAD_ID, sepax_overlap_one(store, 99, 0, 1, NULL));
    QUERY_FAILS(SEPAX_ERR_BAD_ID, sepax_overlap_one(store, 0, 99, 1, NULL));
    /* set_poses: store, range, n == 0, NULL, alignment, then pose by pose */
    FAILS(SEPAX_ERR_BAD_ID, sepax_shapes_set_poses(store, NFIX, 1, NULL));
    FAILS(SEPAX_ERR_NULL, sepax_shapes_set_poses(store, 0, 1, NULL));
    RAW_UNTOUCHED(FAILS(SEPAX_OK, sepax_shapes_set_poses(store, 0, 0, odd_poses)));
    sepax_pose two[2] = {{{2e18f, 0}, {1, 0}}, {{NAN, 0}, {1, 0}}};
    FAILS(SEPAX_ERR_RANGE, sepax_shapes_set_poses(store, 0, 2, two));
    two[0] = (sepax_pose){{0, 0}, {2, 0}};
    FAILS(SEPAX_ERR_BAD_POSE, sepax_shapes_set_poses(store, 0, 2, two));
    /* polygons: NULL, radius, count, all points non-finite, all points range, geometry */
    const sepax_vec2 nan_pt[3] = {{0, 0}, {1, 0}, {NAN, 1}};
    const sepax_vec2 mixed[3] = {{2e18f, 0}, {1, 0}, {NAN, 1}};
    const sepax_vec2 nan_line[3] = {{0, 0}, {1, 0}, {INFINITY, 0}};
    ADD_FAILS(SEPAX_ERR_NULL, sepax_shapes_add_rounded(store, NULL, -1, NAN, &out_id));
    ADD_FAILS(SEPAX_ERR_NONFINITE, sepax_shapes_add_rounded(store, square, -1, NAN, &out_id));
    ADD_FAILS(SEPAX_ERR_BAD_SIZE, sepax_shapes_add_rounded(store, nan_pt, 3, -1, &out_id));
    ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_rounded(store, nan_pt, 3, 2e18f, &out_id));
    ADD_FAILS(SEPAX_ERR_COUNT, sepax_shapes_add_rounded(store, nan_pt, -1, 1, &out_id));
    ADD_FAILS(SEPAX_ERR_TOO_FEW_POINTS, sepax_shapes_add_polygon(store, nan_pt, 2, &out_id));
    ADD_FAILS(SEPAX_ERR_NONFINITE, sepax_shapes_add_polygon(store, mixed, 3, &out_id));
    ADD_FAILS(SEPAX_ERR_NONFINITE, sepax_shapes_add_polygon(store, nan_line, 3, &out_id));
    /* circles and capsules: points (non-finite, range) before the radius */
    ADD_FAILS(SEPAX_ERR_RANGE,
              sepax_shapes_add_circle(store, (sepax_vec2){2e18f, 0}, NAN, &out_id));
    ADD_FAILS(SEPAX_ERR_NONFINITE,
              sepax_shapes_add_circle(store, (sepax_vec2){NAN, 0}, -1, &out_id));
    ADD_FAILS(SEPAX_ERR_RANGE, sepax_shapes_add_capsule(store, (sepax_vec2){0, 0},
                                                        (sepax_vec2){0, 2e18f}, NAN, &out_id));
    ADD_FAILS(SEPAX_ERR_BAD_SIZE,
              sepax_shapes_add_capsule(store, (sepax_vec2){0, 0}, (sepax_vec2){0, 0}, 0, &out_id));
    /* boxes: width fully checked before height */
    ADD_FAILS(SEPAX_ERR_BAD_SIZE, sepax_shapes_add_box(store, -1, NAN, &out_id));
    ADD_FAILS(SEPAX_ERR_NONFINITE, sepax_shapes_add_box(store, 1, NAN, &out_id));
    /* one-object outputs: NULL, then alignment, before the id and the shape */
    uint32_t *odd_id = (uint32_t *)(void *)(raw + 1);
    FAILS(SEPAX_ERR_NULL, sepax_shapes_add_rounded(store, NULL, 3, NAN, odd_id));
    FAILS(SEPAX_ERR_MISALIGNED, sepax_shapes_add_rounded(store, nan_pt, -1, NAN, odd_id));
    FAILS(SEPAX_ERR_MISALIGNED, sepax_shapes_add_circle(store, (sepax_vec2){NAN, 0}, -1, odd_id));
    FAILS(SEPAX_ERR_MISALIGNED, sepax_shapes_add_box(store, -1, NAN, odd_id));
    FAILS(SEPAX_ERR_NULL, sepax_shapes_remove(NULL, 99, (sepax_move *)(void *)(raw + 1)));
    FAILS(SEPAX_ERR_MISALIGNED, sepax_shapes_remove(store, 99, (sepax_move *)(void *)(raw + 1)));
    FAILS(SEPAX_ERR_MISALIGNED,
          sepax_shapes_view(store, 99, (sepax_shape_view *)(void *)(raw + 1)));
    FAILS(SEPAX_ERR_MISALIGNED, sepax_shapes_get_pose(store, 99, (sepax_pose *)(void *)(raw + 2)));
    /* broadphase queries: NULL, alignment (ids, then *count), then the box and the grid */
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    size_t *odd_count = (size_t *)(void *)(raw + 8 + 1);
    const sepax_aabb nan_box = {{NAN, 0}, {1, 1}};
    uint32_t ids[4];
    FAILS(SEPAX_ERR_NULL, sepax_broadphase_query_aabb(bp, store, nan_box, NULL, 4, odd_count));
    FAILS(SEPAX_ERR_MISALIGNED, sepax_broadphase_query_aabb(bp, store, nan_box, ids, 4, odd_count));
    FAILS(SEPAX_ERR_MISALIGNED, sepax_broadphase_query_shape(bp, store, 99, 0, ids, 4, odd_count));
    /* the ray query's NULL ray or hits come before a misaligned *count too */
    const sepax_ray ray = {{0, 0}, {1, 0}, 1};
    sepax_ray_hit rh[4];
    FAILS(SEPAX_ERR_NULL, sepax_broadphase_query_ray(bp, store, NULL, ids, rh, 4, odd_count));
    FAILS(SEPAX_ERR_NULL, sepax_broadphase_query_ray(bp, store, &ray, ids, NULL, 4, odd_count));
    FAILS(SEPAX_ERR_MISALIGNED, sepax_broadphase_query_ray(bp, store, &ray, ids, rh, 4, odd_count));
    /* a frame's: NULL, then a misaligned *count, then its options */
    sepax_frame_options bad = {99, NAN, -1, 99};
    sepax_contacts none = {NULL, NULL, NULL, 0};
    FAILS(SEPAX_ERR_NULL, sepax_find_contacts(bp, store, NULL, &none, odd_count));
    FAILS(SEPAX_ERR_MISALIGNED, sepax_find_contacts(bp, store, &bad, &none, odd_count));
    sepax_broadphase_destroy(bp);
    /* hull: NULL, count, too few, non-finite, range, geometry */
    HULL_FAILS(SEPAX_ERR_NULL, NULL, -1);
    HULL_FAILS(SEPAX_ERR_COUNT, mixed, -1);
    HULL_FAILS(SEPAX_ERR_TOO_FEW_POINTS, mixed, 2);
    HULL_FAILS(SEPAX_ERR_NONFINITE, mixed, 3);
#undef RAW_UNTOUCHED
}

/* Every status has its own message, naming it; a value outside the enum says so. */
Test(contract, status_strings) {
    for (int a = SEPAX_ERR_ALIASED; a <= SEPAX_OK; a++) {
        const char *sa = sepax_status_str((sepax_status)a);
        cr_assert(strncmp(sa, "SEPAX_", 6) == 0, "status %d: %s", a, sa);
        for (int b = a + 1; b <= SEPAX_OK; b++)
            cr_assert(strcmp(sa, sepax_status_str((sepax_status)b)) != 0, "%d and %d", a, b);
    }
    cr_assert_str_eq(sepax_status_str((sepax_status)(SEPAX_ERR_ALIASED - 1)),
                     "unknown sepax_status");
    cr_assert_str_eq(sepax_status_str((sepax_status)1), "unknown sepax_status");
}

/* Straight vertices go nearest-first and never add up (kernel/polygon.c): strictly convex
 * polygons whose lower side bulges a fraction of a tolerance to a few below the line from
 * (0,0) to (1,0), 20,000 of them: every input point within 2^-20 of the size of the stored
 * polygon (the same loop against fbdcb1c's library, which took arcs' apexes off: a point out
 * in 2,774 of them, up to 2.8 tolerances), and none refused (taking the apex first, the code
 * between refused a review's hexagon, below, as too thin: COLLINEAR). */
Test(contract, straight_drops_keep_every_point_near) {
    const double tol = 0x1p-20;
    wl_rng r = {99};
    int accepted = 0;
    for (int t = 0; t < 20000; t++) {
        int m = (int)wl_range(&r, 1, 5); /* lower side points between the two ends */
        double xs[8];
        for (int i = 0; i < m; i++) xs[i] = 0.05 + 0.9 * wl_unit(&r);
        for (int i = 0; i < m; i++)
            for (int k = i + 1; k < m; k++)
                if (xs[k] < xs[i]) {
                    double x = xs[i];
                    xs[i] = xs[k];
                    xs[k] = x;
                }
        double depth = tol * (0.2 + 4.0 * wl_unit(&r));
        sepax_vec2 v[SEPAX_MAX_VERTS];
        int n = 0;
        v[n++] = (sepax_vec2){0, 0};
        for (int i = 0; i < m; i++)
            v[n++] = (sepax_vec2){(float)xs[i], (float)(-depth * 4.0 * xs[i] * (1.0 - xs[i]))};
        v[n++] = (sepax_vec2){1, 0};
        v[n++] = (sepax_vec2){0.5f, 0.3f};
        uint32_t id;
        sepax_status st = sepax_shapes_add_polygon(store, v, n, &id);
        cr_assert(st == SEPAX_OK || st == SEPAX_ERR_TOO_FEW_POINTS, "polygon %d (%d points): %s", t,
                  n, sepax_status_str(st));
        if (st != SEPAX_OK) continue; /* points merged */
        accepted++;
        sepax_local_shape l;
        cr_assert_eq(sepax_shapes_local(store, id, &l), SEPAX_OK);
        for (int k = 0; k < n; k++) {
            double out = wl_outside(l.vertex, l.count, v[k]);
            cr_assert(out <= tol * (1.0 + 1e-6), "polygon %d: input %d is %.3f tolerances out", t,
                      k, out / tol);
        }
        cr_assert_eq(sepax_shapes_remove(store, id, NULL), SEPAX_OK);
    }
    cr_expect(accepted > 10000, "%d accepted", accepted);
    const sepax_vec2 hexagon[6] = {
        {0x1.2a15d4p-2f, -0x1.097902p-20f}, {0x1.205636p-1f, -0x1.d5458p-21f},
        {0x1.96590ep-1f, -0x1.188c58p-21f}, {1.0f, 0.0f},
        {0x1.153df8p-1f, 0x1.2a341ap-2f},   {0.0f, 0.0f}};
    uint32_t id;
    cr_assert_eq(sepax_shapes_add_polygon(store, hexagon, 6, &id), SEPAX_OK);
    cr_assert_eq(sepax_shapes_remove(store, id, NULL), SEPAX_OK);
}
