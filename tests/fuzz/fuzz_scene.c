/* libFuzzer target: whole frames and the broadphase's queries on scenes made from arbitrary
 * bytes. fuzz_queries runs frames on one fixed store; here the bytes make the geometry the
 * grid must cope with: up to 64 shapes of every kind at any scale from 2^-40 to 2^40, stacked
 * on one point, tiny beside huge, strays far off the field; the cell size as raw float bits
 * (NaN, Inf, negative, denormal, huge) or picked against the scale.
 *
 * Input:
 *   byte 0  bits 0-1 the test (AABB, OVERLAP, COLLIDE, MANIFOLD); 2-3 the update (FRAME, ALL,
 *           LAZY, NONE after a whole update); 4 filters; 5 a raw margin; 6 a raw cell size;
 *           7 removals, then a second frame on the changed store
 *   byte 1  the first call's capacity (then the count it asked for)
 *   byte 2  the scale s = 2^(byte % 81 - 40)
 *   byte 3  shapes (% 65)
 *   then per shape 5 bytes, 6 with filters:
 *     kind   % 5: circle, capsule, box, polygon, rounded polygon; / 5: its vertex count - 3
 *     x, y   signed, times s (times 2^20 more when spread's top bit is set: a stray)
 *     angle  signed, times 0.05 rad through sepax_rot
 *     spread the size: s * 2^(spread % 24 - 8) * (1 + kind / 32)
 *     filter category 1 << (f & 3); mask every bit when f & 0x80, else (f >> 2) & 15
 *   the margin: 4 raw bytes (bit 5), else one byte: {0, 0.5, -0.25, 2, 1e-6, -1e-6, 1e3, -1e3}
 *           [b % 8] times s; the cell size: 4 raw bytes (bit 6), else one byte: {0 (chosen
 *           from the shapes), 0.01, 0.5, 4, 1e3, 1e-7} [b % 6] times s
 *   then the queries' bytes; with bit 7, a second round: a byte k, then k % 8 bytes each
 *           removing the shape at index byte % count; a byte p and a byte i: with p's bit 0
 *           (and an update other than NONE) the moved poses go to the first frame through
 *           sepax_find_contacts_posed, and before it, with bit 1, the same poses with the one
 *           at index i % count broken ((p >> 2) % 4 picks how) must be refused whole; then the
 *           queries' bytes again
 *   the queries' bytes: a box (2 signed bytes times s, its width and height 2 bytes times
 *           s), a probe (an index byte), a ray (origin 2 signed bytes times s, direction 2
 *           signed bytes times min(4 s, 1e6), max fraction a byte / 64; then a byte: with its
 *           top bit, the ray cast from far away instead, see far_ray)
 * Missing bytes read as 0.
 *
 * Checks: a bad margin or cell size is refused with its status and nothing written; with
 * room for fewer results than there are, SEPAX_ERR_CAPACITY, nothing written, and a second
 * call with the count gets them all. The results equal brute force over every pair whose
 * filters meet, as sets, each once and in index order: for OVERLAP, COLLIDE and MANIFOLD the
 * pairs sepax_overlap_opt finds, with sepax_collide_opt's hit and
 * sepax_collide_manifold_opt's manifold bit for bit; for AABB every pair whose boxes (grown by
 * a positive margin) overlap, and none whose boxes are apart by more than the grid's slack.
 * The same frame on two threads, and on a backend the input picks, gives the same results
 * in the same order; with its outputs laid over each other (the byte of capacity picks how)
 * it refuses, SEPAX_ERR_ALIASED, writing nothing, unless the array laid over is one its test
 * leaves alone, when it gives the same results. Then the three queries against brute force over the
 * shapes: the box query as sepax_shapes_aabb overlaps, the shape query as sepax_overlap_opt with
 * the filters, the ray query as sepax_raycast with each hit bit for bit (after a lazy frame the
 * last two refuse with SEPAX_ERR_STALE_WORLD and write nothing). Adds refused at this scale add
 * nothing. A frame given a broken pose returns the status sepax_shapes_set_poses gives it, with no
 * pose stored and nothing written; given good ones, its results go through every check above. */
#include <math.h>
#include <string.h>

#include "fuzz_common.h"

#define MAXSHAPES 64
#define ROOM (MAXSHAPES * (MAXSHAPES - 1) / 2 + 8)

typedef struct reader {
    const uint8_t *data;
    size_t size, at;
} reader;

static uint8_t next(reader *r) { return r->at < r->size ? r->data[r->at++] : 0; }
static int8_t next_signed(reader *r) { return (int8_t)next(r); }
static float next_raw(reader *r) {
    uint8_t b[4] = {next(r), next(r), next(r), next(r)};
    float f;
    memcpy(&f, b, sizeof f);
    return f;
}

static sepax_broadphase *bp1, *bp2;
static sepax_backend avail[SEPAX_BACKEND_COUNT];
static int navail;

/* One shape from its bytes, posed; a refused add must add nothing. */
static void add_shape(sepax_shapes *s, reader *r, float scale, int filters) {
    uint8_t kind = next(r), spread = next(r);
    float x = (float)next_signed(r) * scale, y = (float)next_signed(r) * scale;
    float angle = (float)next_signed(r) * 0.05f;
    uint8_t f = filters ? next(r) : 0;
    if (spread & 0x80) {
        x *= 1048576.0f;
        y *= 1048576.0f;
    }
    float size = scale * ldexpf(1.0f + (float)(kind / 32), (int)(spread % 24) - 8);
    uint32_t before = sepax_shapes_count(s), id = 0;
    sepax_status st;
    switch (kind % 5) {
    case 0: st = sepax_shapes_add_circle(s, (sepax_vec2){0.0f, 0.0f}, size, &id); break;
    case 1:
        st = sepax_shapes_add_capsule(s, (sepax_vec2){-size, 0.0f}, (sepax_vec2){size, 0.5f * size},
                                      0.25f * size, &id);
        break;
    case 2: st = sepax_shapes_add_box(s, size, 0.5f * size, &id); break;
    default: {
        int n = 3 + (kind / 5) % 6;
        sepax_vec2 pts[8];
        for (int i = 0; i < n; i++) { /* a regular n-gon, through sepax_rot: no libm trig */
            sepax_rotation q = sepax_rot(6.2831853f * (float)i / (float)n);
            pts[i] = (sepax_vec2){size * q.c, size * q.s};
        }
        st = kind % 5 == 3 ? sepax_shapes_add_polygon(s, pts, n, &id)
                           : sepax_shapes_add_rounded(s, pts, n, 0.125f * size, &id);
    }
    }
    if (st != SEPAX_OK) {
        if (sepax_shapes_count(s) != before) fuzz_fail("a refused add added a shape");
        return;
    }
    sepax_pose p = {{x, y}, sepax_rot(angle)};
    sepax_shapes_set_poses(s, before, 1, &p); /* a position past the limit: refused, kept */
    if (filters) {
        sepax_filter fl = {1u << (f & 3), (f & 0x80) ? ~0u : (uint32_t)((f >> 2) & 15)};
        if (sepax_shapes_set_filters(s, before, 1, &fl) != SEPAX_OK) fuzz_fail("set_filters");
    }
}

/* sepax_filter's rule, written out again */
static int filters_meet(sepax_filter a, sepax_filter b) {
    return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

static int meet(const sepax_shapes *s, uint32_t i, uint32_t j) {
    sepax_filter a, b;
    sepax_shapes_get_filter(s, sepax_shapes_id(s, i), &a);
    sepax_shapes_get_filter(s, sepax_shapes_id(s, j), &b);
    return filters_meet(a, b);
}

typedef struct results {
    sepax_pair pairs[ROOM];
    sepax_hit hits[ROOM];
    sepax_manifold mans[ROOM];
    size_t n;
} results;

/* Whether every byte of r's arrays past the first `written` results (those the test fills)
 * still holds the marker. */
static int untouched_past(const results *r, int test, size_t written) {
    size_t hits = test == SEPAX_TEST_COLLIDE ? written : 0;
    size_t mans = test == SEPAX_TEST_MANIFOLD ? written : 0;
    return fuzz_untouched(r->pairs, written * sizeof r->pairs[0], sizeof r->pairs) &&
           fuzz_untouched(r->hits, hits * sizeof r->hits[0], sizeof r->hits) &&
           fuzz_untouched(r->mans, mans * sizeof r->mans[0], sizeof r->mans);
}

/* The frame with room for `cap` (given `poses`, unless NULL), then (on CAPACITY) for the
 * count it asked for, without them (they are stored by then). Returns the first call's
 * status. */
static sepax_status run_frame(sepax_broadphase *bp, sepax_shapes *s, const sepax_frame_options *o,
                              size_t cap, results *r, const sepax_pose *poses) {
    memset(r, FUZZ_MARK, sizeof *r);
    sepax_contacts out = {r->pairs, r->hits, r->mans, cap};
    size_t count = 12345;
    sepax_status st =
        poses ? sepax_find_contacts_posed(bp, s, 0, sepax_shapes_count(s), poses, o, &out, &count)
              : sepax_find_contacts(bp, s, o, &out, &count);
    if (st != SEPAX_OK && st != SEPAX_ERR_CAPACITY && count != 12345)
        fuzz_fail("frame: count written on error");
    if (!untouched_past(r, o->test, st == SEPAX_OK ? count : 0))
        fuzz_fail("frame: wrote on error or past its results");
    r->n = st == SEPAX_OK ? count : 0;
    if (st == SEPAX_ERR_CAPACITY) {
        if (count <= cap || count > ROOM - 8) fuzz_fail("frame: CAPACITY with room, or too many");
        out.capacity = count;
        size_t again = 0;
        if (sepax_find_contacts(bp, s, o, &out, &again) != SEPAX_OK || again != count)
            fuzz_fail("frame: the second call lost results");
        if (!untouched_past(r, o->test, count))
            fuzz_fail("frame: the second call wrote past its results");
        r->n = count;
    }
    return st;
}

/* A frame given poses of which the one at `at` breaks a rule (`how` % 4: NaN position, an
 * infinite rotation, a position past the limit, a rotation not of unit length): the status
 * sepax_shapes_set_poses gives, no pose stored, nothing written. */
static void refuse_bad_pose(sepax_broadphase *bp, sepax_shapes *s, const sepax_frame_options *o,
                            const sepax_pose *good, uint32_t at, unsigned how) {
    static sepax_pose bad[MAXSHAPES], kept[MAXSHAPES];
    static results r;
    uint32_t n = sepax_shapes_count(s);
    memcpy(bad, good, n * sizeof *bad);
    static const sepax_status want[4] = {SEPAX_ERR_NONFINITE, SEPAX_ERR_NONFINITE, SEPAX_ERR_RANGE,
                                         SEPAX_ERR_BAD_POSE};
    switch (how % 4) {
    case 0: bad[at].position.x = NAN; break;
    case 1: bad[at].rotation.s = -INFINITY; break;
    case 2: bad[at].position.y = 2e18f; break;
    default: bad[at].rotation = (sepax_rotation){0.5f, 0.5f}; break;
    }
    for (uint32_t i = 0; i < n; i++) sepax_shapes_get_pose(s, sepax_shapes_id(s, i), &kept[i]);
    memset(&r, FUZZ_MARK, sizeof r);
    sepax_contacts out = {r.pairs, r.hits, r.mans, ROOM - 8};
    size_t count = 12345;
    if (sepax_find_contacts_posed(bp, s, 0, sepax_shapes_count(s), bad, o, &out, &count) !=
        want[how % 4])
        fuzz_fail("posed frame: a bad pose not refused as sepax_shapes_set_poses refuses it");
    if (count != 12345 || !untouched_past(&r, o->test, 0)) fuzz_fail("posed frame: wrote on error");
    for (uint32_t i = 0; i < n; i++) {
        sepax_pose p;
        sepax_shapes_get_pose(s, sepax_shapes_id(s, i), &p);
        if (memcmp(&p, &kept[i], sizeof p)) fuzz_fail("posed frame: a pose stored on error");
    }
}

static int same_results(const results *a, const results *b, int test) {
    if (a->n != b->n || memcmp(a->pairs, b->pairs, a->n * sizeof a->pairs[0])) return 0;
    if (test == SEPAX_TEST_COLLIDE && memcmp(a->hits, b->hits, a->n * sizeof a->hits[0])) return 0;
    if (test == SEPAX_TEST_MANIFOLD && memcmp(a->mans, b->mans, a->n * sizeof a->mans[0])) return 0;
    return 1;
}

/* The frame once more with its outputs laid over each other (`pick` % 3: the hits over the
 * pairs, the manifolds over them, or *count inside them, pick / 3 % 8 pairs in). Where the test
 * fills the array laid over, or *count lies in the pairs, SEPAX_ERR_ALIASED with nothing
 * written; else (the hits or manifolds of a test that leaves them alone) the results of
 * separate buffers. */
static void frame_laid_over(sepax_broadphase *bp, sepax_shapes *s, const sepax_frame_options *o,
                            const results *want, unsigned pick) {
    static union {
        unsigned char bytes[ROOM * sizeof(sepax_manifold)];
        sepax_pair pairs[ROOM];
    } lay;
    static unsigned char before[sizeof lay];
    static results sep;
    memset(&lay, FUZZ_MARK, sizeof lay);
    memset(&sep, FUZZ_MARK, sizeof sep);
    memcpy(before, &lay, sizeof lay);
    unsigned char *over = lay.bytes + 8 * (pick / 3 % 8);
    sepax_contacts out = {lay.pairs, sep.hits, sep.mans, ROOM - 8};
    size_t count = 12345, *pc = &count;
    int laid = 1;
    switch (pick % 3) {
    case 0:
        out.hits = (sepax_hit *)(void *)over;
        laid = o->test == SEPAX_TEST_COLLIDE;
        break;
    case 1:
        out.manifolds = (sepax_manifold *)(void *)over;
        laid = o->test == SEPAX_TEST_MANIFOLD;
        break;
    default: pc = (size_t *)(void *)over; break;
    }
    sepax_status st = sepax_find_contacts(bp, s, o, &out, pc);
    if (laid) {
        if (st != SEPAX_ERR_ALIASED) fuzz_fail("frame, outputs laid over: not refused");
        if (memcmp(&lay, before, sizeof lay) != 0 || count != 12345 ||
            !untouched_past(&sep, o->test, 0))
            fuzz_fail("frame, outputs laid over: wrote on error");
        return;
    }
    if (st != SEPAX_OK) fuzz_fail("frame, an unused array laid over: refused");
    memcpy(sep.pairs, lay.pairs, count * sizeof *sep.pairs);
    sep.n = count;
    if (!same_results(want, &sep, o->test))
        fuzz_fail("frame, an unused array laid over: other results than separate buffers'");
}

static int boxes_meet(sepax_aabb a, sepax_aabb b, float grow) {
    return a.lower.x <= b.upper.x + grow && b.lower.x <= a.upper.x + grow &&
           a.lower.y <= b.upper.y + grow && b.lower.y <= a.upper.y + grow;
}

/* The frame's results against brute force over every pair whose filters meet. */
static void check_brute(const sepax_shapes *s, const results *r, int test, float margin) {
    uint32_t total = sepax_shapes_count(s);
    static uint8_t seen[MAXSHAPES][MAXSHAPES];
    memset(seen, 0, sizeof seen);
    for (size_t k = 0; k < r->n; k++) {
        uint32_t a = r->pairs[k].a & SEPAX_ID_INDEX_MASK, b = r->pairs[k].b & SEPAX_ID_INDEX_MASK;
        if (a >= b || b >= total || r->pairs[k].a != sepax_shapes_id(s, a) ||
            r->pairs[k].b != sepax_shapes_id(s, b))
            fuzz_fail("frame: a pair not in index order or not live");
        if (seen[a][b]++) fuzz_fail("frame: a pair twice");
        if (!meet(s, a, b)) fuzz_fail("frame: a pair its filters keep apart");
    }
    sepax_query_options opt = {.margin = margin};
    if (test == SEPAX_TEST_AABB) {
        /* every pair of overlapping boxes is a candidate; a candidate's boxes are apart by no
         * more than the grid's growth (2^-20 of the coordinates' size, README), here 2^-16 */
        static sepax_aabb box[MAXSHAPES];
        float big = 0.0f;
        for (uint32_t i = 0; i < total; i++) {
            sepax_shapes_aabb(s, sepax_shapes_id(s, i), &box[i]);
            float m = fmaxf(fmaxf(fabsf(box[i].lower.x), fabsf(box[i].lower.y)),
                            fmaxf(fabsf(box[i].upper.x), fabsf(box[i].upper.y)));
            big = fmaxf(big, m);
        }
        float grow = margin > 0.0f ? margin : 0.0f;
        float slack = grow + ldexpf(big, -16) + ldexpf(1.0f, -60);
        for (uint32_t i = 0; i < total; i++)
            for (uint32_t j = i + 1; j < total; j++) {
                int must = meet(s, i, j) && boxes_meet(box[i], box[j], grow);
                if (must && !seen[i][j]) fuzz_fail("frame: overlapping boxes not a candidate");
                if (seen[i][j] && !boxes_meet(box[i], box[j], slack))
                    fuzz_fail("frame: a candidate whose boxes are far apart");
            }
        return;
    }
    /* one pair list, one call */
    static sepax_pair all[ROOM];
    static uint8_t hit[ROOM];
    size_t n = 0, want = 0;
    for (uint32_t i = 0; i < total; i++)
        for (uint32_t j = i + 1; j < total; j++)
            if (meet(s, i, j))
                all[n++] = (sepax_pair){sepax_shapes_id(s, i), sepax_shapes_id(s, j)};
    if (sepax_overlap_opt(s, all, n, &opt, hit) != SEPAX_OK) fuzz_fail("brute force refused");
    for (size_t k = 0; k < n; k++) {
        uint32_t i = all[k].a & SEPAX_ID_INDEX_MASK, j = all[k].b & SEPAX_ID_INDEX_MASK;
        if (hit[k] != seen[i][j]) fuzz_fail("frame: not brute force's pairs");
        want += hit[k];
    }
    if (want != r->n) fuzz_fail("frame: not brute force's count");
    /* the frame's hits and manifolds: the pair queries' on its pairs, bit for bit */
    static sepax_hit hits[ROOM];
    static sepax_manifold mans[ROOM];
    if (test == SEPAX_TEST_COLLIDE &&
        (sepax_collide_opt(s, r->pairs, r->n, &opt, hits) != SEPAX_OK ||
         memcmp(hits, r->hits, r->n * sizeof hits[0])))
        fuzz_fail("frame: a hit not sepax_collide's");
    if (test == SEPAX_TEST_MANIFOLD &&
        (sepax_collide_manifold_opt(s, r->pairs, r->n, &opt, mans) != SEPAX_OK ||
         memcmp(mans, r->mans, r->n * sizeof mans[0])))
        fuzz_fail("frame: a manifold not sepax_collide_manifold's");
}

/* With the top bit of `far`, the ray is cast from far away into the field: its origin moved
 * out 2^(far % 32) times (up to where its direction stays within SEPAX_SWEEP_LIMIT), aimed at
 * the point its direction's bytes name (times the scale), twice as far. Such a ray's path is
 * known only to a padding that grows with its length, which the grid's walk must allow for
 * (a ray from 5.8e8 away once missed rows of the field). */
static void far_ray(sepax_ray *ray, uint8_t far, float scale, float reach) {
    double most = 1e9 / (512.0 * (double)scale); /* |direction| <= 2 * 256 * scale * f */
    if (!(far & 0x80) || most < 1.0) return;     /* at the largest scales, no room */
    float tx = ray->direction.x / reach * scale, ty = ray->direction.y / reach * scale;
    int k = far % 32;
    while (k > 0 && ldexp(1.0, k) > most) k--;
    float f = ldexpf(1.0f, k);
    ray->origin = (sepax_vec2){ray->origin.x * f, ray->origin.y * f};
    ray->direction = (sepax_vec2){2.0f * (tx - ray->origin.x), 2.0f * (ty - ray->origin.y)};
}

/* The queries on the last grid against brute force over the shapes. */
static void check_queries(const sepax_broadphase *bp, const sepax_shapes *s, reader *r, float scale,
                          float margin, int lazy) {
    uint32_t total = sepax_shapes_count(s);
    static uint32_t ids[MAXSHAPES + 8];
    static sepax_ray_hit hits[MAXSHAPES + 8];
    size_t got = 0;
    sepax_aabb box;
    box.lower = (sepax_vec2){(float)next_signed(r) * scale, (float)next_signed(r) * scale};
    box.upper =
        (sepax_vec2){box.lower.x + (float)next(r) * scale, box.lower.y + (float)next(r) * scale};
    if (sepax_broadphase_query_aabb(bp, s, box, ids, MAXSHAPES, &got) != SEPAX_OK)
        fuzz_fail("box query refused");
    static uint8_t in[MAXSHAPES];
    size_t inside = 0;
    for (uint32_t i = 0; i < total; i++) {
        sepax_aabb b;
        sepax_shapes_aabb(s, sepax_shapes_id(s, i), &b);
        in[i] = boxes_meet(b, box, 0.0f);
        inside += in[i];
    }
    if (got != inside) fuzz_fail("box query: not brute force's count");
    for (size_t k = 0; k < got; k++) {
        uint32_t i = ids[k] & SEPAX_ID_INDEX_MASK;
        if (i >= total || ids[k] != sepax_shapes_id(s, i) || in[i] != 1)
            fuzz_fail("box query: an id not brute force's, or twice");
        in[i] = 2;
    }

    uint8_t pb = next(r);
    float reach = fminf(4.0f * scale, 1e6f); /* directions within SEPAX_SWEEP_LIMIT */
    sepax_ray ray = {{(float)next_signed(r) * scale, (float)next_signed(r) * scale},
                     {(float)next_signed(r) * reach, (float)next_signed(r) * reach},
                     (float)next(r) / 64.0f};
    far_ray(&ray, next(r), scale, reach);
    if (total == 0) return;
    uint32_t probe = sepax_shapes_id(s, pb % total);
    memset(ids, FUZZ_MARK, sizeof ids);
    memset(hits, FUZZ_MARK, sizeof hits);
    size_t count = 12345;
    sepax_status st = sepax_broadphase_query_shape(bp, s, probe, margin, ids, MAXSHAPES, &count);
    got = 12345;
    sepax_status st_ray = sepax_broadphase_query_ray(bp, s, &ray, ids, hits, MAXSHAPES, &got);
    if (lazy) {
        if (st != SEPAX_ERR_STALE_WORLD || st_ray != SEPAX_ERR_STALE_WORLD || count != 12345 ||
            got != 12345 || !fuzz_untouched(ids, 0, sizeof ids) ||
            !fuzz_untouched(hits, 0, sizeof hits))
            fuzz_fail("a record query after a lazy frame not refused, or it wrote");
        return;
    }
    if (st_ray != SEPAX_OK) fuzz_fail("ray query refused");
    static sepax_ray rays[MAXSHAPES];
    static uint32_t every[MAXSHAPES];
    static sepax_ray_hit all[MAXSHAPES];
    for (uint32_t i = 0; i < total; i++) {
        rays[i] = ray;
        every[i] = sepax_shapes_id(s, i);
    }
    if (sepax_raycast(s, rays, every, total, all) != SEPAX_OK)
        fuzz_fail("brute force rays refused");
    size_t want = 0;
    for (uint32_t i = 0; i < total; i++) want += all[i].hit;
    if (got != want) fuzz_fail("ray query: not brute force's count");
    memset(in, 0, sizeof in);
    for (size_t k = 0; k < got; k++) {
        uint32_t i = ids[k] & SEPAX_ID_INDEX_MASK;
        if (i >= total || ids[k] != every[i] || in[i]++ ||
            memcmp(&hits[k], &all[i], sizeof hits[k]))
            fuzz_fail("ray query: an id or hit not sepax_raycast's, or twice");
    }
    /* the closest hit: brute force's least fraction, then lowest index, among the shapes
     * whose filters meet the ray's (the probe's filter, borrowed) */
    sepax_filter rf;
    if (sepax_shapes_get_filter(s, probe, &rf) != SEPAX_OK) fuzz_fail("probe's filter refused");
    for (int filtered = 0; filtered < 2; filtered++) {
        uint32_t best = SEPAX_NO_ID, cid = 12345;
        sepax_ray_hit ch, none;
        memset(&none, 0, sizeof none);
        for (uint32_t i = 0; i < total; i++) {
            sepax_filter g;
            sepax_shapes_get_filter(s, every[i], &g);
            if (!all[i].hit || (filtered && !filters_meet(rf, g))) continue;
            if (best == SEPAX_NO_ID || all[i].fraction < all[best].fraction) best = i;
        }
        if (sepax_broadphase_raycast_closest(bp, s, &ray, filtered ? &rf : NULL, 1, &cid, &ch) !=
            SEPAX_OK)
            fuzz_fail("closest ray refused");
        if (best == SEPAX_NO_ID ? cid != SEPAX_NO_ID || memcmp(&ch, &none, sizeof ch)
                                : cid != every[best] || memcmp(&ch, &all[best], sizeof ch))
            fuzz_fail("closest ray: not brute force's least fraction and index");
    }
    /* the box and ray queries with the probe's filter: brute force's answers less the shapes
     * whose filters do not meet it */
    size_t want_box = 0;
    memset(in, 0, sizeof in);
    for (uint32_t i = 0; i < total; i++) {
        sepax_aabb b;
        sepax_filter g;
        sepax_shapes_aabb(s, every[i], &b);
        sepax_shapes_get_filter(s, every[i], &g);
        in[i] = boxes_meet(b, box, 0.0f) && filters_meet(rf, g);
        want_box += in[i];
    }
    got = 12345;
    if (sepax_broadphase_query_aabb_filtered(bp, s, box, &rf, ids, MAXSHAPES, &got) != SEPAX_OK)
        fuzz_fail("filtered box query refused");
    if (got != want_box) fuzz_fail("filtered box query: not brute force's count");
    for (size_t k = 0; k < got; k++) {
        uint32_t i = ids[k] & SEPAX_ID_INDEX_MASK;
        if (i >= total || ids[k] != every[i] || in[i] != 1)
            fuzz_fail("filtered box query: an id not brute force's, or twice");
        in[i] = 2;
    }
    memset(in, 0, sizeof in);
    want = 0;
    for (uint32_t i = 0; i < total; i++) {
        sepax_filter g;
        sepax_shapes_get_filter(s, every[i], &g);
        in[i] = all[i].hit && filters_meet(rf, g);
        want += in[i];
    }
    got = 12345;
    if (sepax_broadphase_query_ray_filtered(bp, s, &ray, &rf, ids, hits, MAXSHAPES, &got) !=
        SEPAX_OK)
        fuzz_fail("filtered ray query refused");
    if (got != want) fuzz_fail("filtered ray query: not brute force's count");
    for (size_t k = 0; k < got; k++) {
        uint32_t i = ids[k] & SEPAX_ID_INDEX_MASK;
        if (i >= total || ids[k] != every[i] || in[i] != 1 ||
            memcmp(&hits[k], &all[i], sizeof hits[k]))
            fuzz_fail("filtered ray query: an id or hit not sepax_raycast's, or twice");
        in[i] = 2;
    }
    /* the shape query last: the ray queries above wrote over ids */
    if (sepax_broadphase_query_shape(bp, s, probe, margin, ids, MAXSHAPES, &count) != st)
        fuzz_fail("shape query: a second call differs");
    if (st != SEPAX_OK) fuzz_fail("shape query refused");
    sepax_query_options opt = {.margin = margin};
    uint32_t pi = probe & SEPAX_ID_INDEX_MASK;
    want = 0;
    memset(in, 0, sizeof in);
    for (uint32_t i = 0; i < total; i++) {
        if (i == pi || !meet(s, pi, i)) continue;
        sepax_pair p = {probe, every[i]};
        uint8_t h = 0;
        if (sepax_overlap_opt(s, &p, 1, &opt, &h) != SEPAX_OK)
            fuzz_fail("brute force shape refused");
        in[i] = h;
        want += h;
    }
    if (count != want) fuzz_fail("shape query: not brute force's count");
    for (size_t k = 0; k < count; k++) {
        uint32_t i = ids[k] & SEPAX_ID_INDEX_MASK;
        if (i >= total || ids[k] != every[i] || in[i] != 1)
            fuzz_fail("shape query: an id not brute force's, or twice");
        in[i] = 2;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!navail)
        for (int b = 0; b < SEPAX_BACKEND_COUNT; b++)
            if (sepax_backend_available((sepax_backend)b)) avail[navail++] = (sepax_backend)b;
    /* fresh broadphases for every input: a lazy frame's path and the grid's guesses depend on
     * the frames before, so a finding must not need the inputs run before it */
    sepax_broadphase_config pair_of_threads = {2, NULL, NULL, 1};
    bp1 = sepax_broadphase_create(NULL);
    bp2 = sepax_broadphase_create(&pair_of_threads);
    if (!bp1 || !bp2) fuzz_fail("broadphase create");
    reader r = {data, size, 0};
    uint8_t flags = next(&r), capb = next(&r), scb = next(&r), nshapes = next(&r) % 65;
    int test = flags & 3, update_pick = (flags >> 2) & 3, filters = flags & 16;
    float scale = ldexpf(1.0f, (int)(scb % 81) - 40);
    sepax_shapes *s = sepax_shapes_create(0);
    if (!s) fuzz_fail("store");
    for (uint32_t i = 0; i < nshapes; i++) add_shape(s, &r, scale, filters);
    if (sepax_shapes_update(s) != SEPAX_OK) fuzz_fail("update");

    static const float margins[8] = {0.0f, 0.5f, -0.25f, 2.0f, 1e-6f, -1e-6f, 1e3f, -1e3f};
    static const float cells[6] = {0.0f, 0.01f, 0.5f, 4.0f, 1e3f, 1e-7f};
    float margin = (flags & 32) ? next_raw(&r) : margins[next(&r) % 8] * scale;
    float cell = (flags & 64) ? next_raw(&r) : cells[next(&r) % 6] * scale;
    sepax_status want_err = SEPAX_OK;
    if (!isfinite(margin))
        want_err = SEPAX_ERR_NONFINITE;
    else if (fabsf(margin) > SEPAX_COORD_LIMIT)
        want_err = SEPAX_ERR_RANGE;
    else if (!isfinite(cell))
        want_err = SEPAX_ERR_NONFINITE;
    else if (cell < 0.0f || cell > SEPAX_COORD_LIMIT)
        want_err = SEPAX_ERR_RANGE;
    static const int updates[4] = {SEPAX_UPDATE_FRAME, SEPAX_UPDATE_ALL, SEPAX_UPDATE_LAZY,
                                   SEPAX_UPDATE_NONE};
    sepax_frame_options o = {test, margin, cell, updates[update_pick]};
    static results one, two, other;
    static sepax_pose moved[MAXSHAPES];
    int posed = 0; /* the second round's poses given to its first frame */

    for (int round = 0; round < ((flags & 128) ? 2 : 1); round++) {
        if (round == 1) { /* remove some shapes, move the rest, and run the frame again */
            int k = next(&r) % 8;
            for (int i = 0; i < k && sepax_shapes_count(s) > 0; i++) {
                uint32_t idx = next(&r) % sepax_shapes_count(s);
                sepax_move mv;
                if (sepax_shapes_remove(s, sepax_shapes_id(s, idx), &mv) != SEPAX_OK)
                    fuzz_fail("remove");
            }
            uint32_t n = sepax_shapes_count(s);
            uint8_t pb = next(&r), at = next(&r);
            posed = (pb & 1) && o.update != SEPAX_UPDATE_NONE && want_err == SEPAX_OK;
            for (uint32_t i = 0; i < n; i++) {
                sepax_shapes_get_pose(s, sepax_shapes_id(s, i), &moved[i]);
                moved[i].position.x += scale * (float)(i % 3);
                if (!posed) sepax_shapes_set_poses(s, i, 1, &moved[i]);
            }
            if (posed && (pb & 2) && n > 0) /* one bad pose: refused whole, nothing written */
                refuse_bad_pose(bp1, s, &o, moved, at % n, pb >> 2);
            if (o.update == SEPAX_UPDATE_NONE && sepax_shapes_update(s) != SEPAX_OK)
                fuzz_fail("update");
        }
        sepax_status st = run_frame(bp1, s, &o, capb, &one, posed ? moved : NULL);
        if (want_err != SEPAX_OK) {
            if (st != want_err) fuzz_fail("frame: a bad margin or cell size not refused as such");
            break;
        }
        if (st != SEPAX_OK && st != SEPAX_ERR_CAPACITY) fuzz_fail("frame: good arguments refused");
        /* brute force reads every record: after a lazy frame, a whole update writes the
         * same ones (the poses have not moved) and the rest */
        if (o.update == SEPAX_UPDATE_LAZY && sepax_shapes_update(s) != SEPAX_OK)
            fuzz_fail("update");
        check_brute(s, &one, test, margin);
        /* two threads, and another backend: the same results in the same order. A lazy frame
         * runs again lazily (the records it skipped stay stale), the others as they are. */
        run_frame(bp2, s, &o, ROOM - 8, &two, NULL);
        if (!same_results(&one, &two, test)) fuzz_fail("frame: two threads differ from one");
        sepax_backend was = sepax_get_backend(); /* one other backend an input: speed */
        if (sepax_set_backend(avail[(capb + round) % navail]) != SEPAX_OK) fuzz_fail("set_backend");
        run_frame(bp2, s, &o, ROOM - 8, &other, NULL);
        if (!same_results(&one, &other, test)) fuzz_fail("frame: a backend differs");
        sepax_set_backend(was);
        frame_laid_over(bp2, s, &o, &one, capb + 7u * (unsigned)round);
        run_frame(bp1, s, &o, ROOM - 8, &other, NULL); /* bp1's grid is this frame's again */
        check_queries(bp1, s, &r, scale, margin, o.update == SEPAX_UPDATE_LAZY);
        if (o.update == SEPAX_UPDATE_LAZY && sepax_shapes_update(s) != SEPAX_OK)
            fuzz_fail("update");
    }
    sepax_shapes_destroy(s);
    sepax_broadphase_destroy(bp1);
    sepax_broadphase_destroy(bp2);
    return 0;
}
