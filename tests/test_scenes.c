/* The benchmark's scenes (bench/scenes.c) as a test:
 *   1. their poses are the same bits on every machine: a hash of every pose of a few frames
 *      against committed constants (the cross build runs this under qemu-aarch64 too);
 *   2. sepax_find_contacts on their frames finds exactly the pairs a brute force finds (every
 *      pair of shapes whose filters pass, through sepax_overlap_opt), at margin 0 and 0.5,
 *      with 1, 2 and 3 threads, the same pairs in the same order each time; SEPAX_TEST_AABB's
 *      candidates contain them, each with boxes that meet (within 2^-16 of the coordinates)
 *      and filters that pass; a buffer one too small gives
 *      SEPAX_ERR_CAPACITY with the count needed.
 *   sepax-test-scenes [--verbose] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenes.h"

static int failures;
static int verbose;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static uint64_t pose_hash(const scene *s, const uint32_t *frames, int nf) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int f = 0; f < nf; f++)
        for (uint32_t i = 0; i < scene_count(s); i++) {
            sepax_pose p = scene_pose(s, i, frames[f]);
            uint32_t w[4];
            memcpy(w, &p, sizeof w);
            for (int k = 0; k < 4; k++) h = (h ^ w[k]) * 0x100000001b3ull;
        }
    return h;
}

static int pair_cmp(const void *x, const void *y) {
    const sepax_pair *a = x, *b = y;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

/* every pair i < j whose filters pass and that sepax_overlap_opt calls a hit, sorted */
static size_t brute(const scene *s, sepax_shapes *store, float margin, sepax_pair **out) {
    uint32_t n = scene_count(s);
    size_t cap = 1024, k = 0;
    sepax_pair *res = xmalloc(cap * sizeof *res);
    sepax_pair *row = xmalloc(n * sizeof *row);
    uint8_t *hit = xmalloc(n);
    sepax_query_options o = {.margin = margin};
    for (uint32_t i = 0; i < n; i++) {
        size_t m = 0;
        sepax_filter fi = scene_filter(s, i);
        for (uint32_t j = i + 1; j < n; j++)
            if (scene_filters_pass(fi, scene_filter(s, j))) row[m++] = (sepax_pair){i, j};
        if (m == 0) continue;
        sepax_status st = sepax_overlap_opt(store, row, m, &o, hit);
        CHECK(st == SEPAX_OK, "sepax_overlap_opt: %s", sepax_status_str(st));
        for (size_t q = 0; q < m; q++) {
            if (!hit[q]) continue;
            if (k == cap) {
                cap *= 2;
                sepax_pair *g = realloc(res, cap * sizeof *res);
                if (!g) exit(1);
                res = g;
            }
            res[k++] = row[q];
        }
    }
    free(row);
    free(hit);
    *out = res;
    return k;
}

static int boxes_meet(sepax_shapes *store, sepax_pair p, float margin) {
    sepax_aabb a, b;
    if (sepax_shapes_aabb(store, p.a, &a) != SEPAX_OK ||
        sepax_shapes_aabb(store, p.b, &b) != SEPAX_OK)
        return 0;
    /* the grid grows boxes by a sliver (2^-20 of their coordinates' size) so that pairs
     * touching within rounding are never missed: allow 2^-16 of the coordinates here */
    float big = 1.0f;
    float c[8] = {a.lower.x, a.lower.y, a.upper.x, a.upper.y,
                  b.lower.x, b.lower.y, b.upper.x, b.upper.y};
    for (int k = 0; k < 8; k++) {
        float v = c[k] < 0 ? -c[k] : c[k];
        if (v > big) big = v;
    }
    float m = (margin > 0 ? margin : 0) + big * 0x1p-16f;
    return a.lower.x <= b.upper.x + m && b.lower.x <= a.upper.x + m && a.lower.y <= b.upper.y + m &&
           b.lower.y <= a.upper.y + m;
}

static void check_frames(const char *name, uint32_t n) {
    scene *s = scene_create(name, n, 0);
    CHECK(s != NULL, "scene_create(%s)", name);
    if (!s) return;
    uint32_t count = scene_count(s);
    sepax_shapes *store = sepax_shapes_create(count);
    CHECK(store && scene_add_to(s, store) == SEPAX_OK, "%s: store", name);
    sepax_broadphase *bp[3];
    for (int t = 0; t < 3; t++) {
        sepax_broadphase_config c = {(uint32_t)t + 1, NULL, NULL, 1};
        bp[t] = sepax_broadphase_create(&c);
        CHECK(bp[t] != NULL, "sepax_broadphase_create(%d threads)", t + 1);
        if (!bp[t]) exit(1);
    }
    size_t cap = 4 * (size_t)count + 1024;
    sepax_pair *got = xmalloc(cap * sizeof *got), *first = xmalloc(cap * sizeof *first);
    sepax_pose *poses = xmalloc(count * sizeof *poses);
    const uint32_t frames[] = {0, 1, 250};
    const float margins[] = {0.0f, 0.5f};
    for (int fi = 0; fi < 3; fi++) {
        scene_poses(s, frames[fi], poses);
        /* the batch (sepax_rot_many) against the one-shape path (sepax_rot), bit for bit */
        for (uint32_t i = 0; i < count; i++) {
            sepax_pose one = scene_pose(s, i, frames[fi]);
            if (memcmp(&one, &poses[i], sizeof one) != 0) {
                CHECK(0, "%s frame %u shape %u: scene_poses differs from scene_pose", scene_name(s),
                      frames[fi], i);
                break;
            }
        }
        CHECK(sepax_shapes_set_poses(store, 0, count, poses) == SEPAX_OK, "set_poses");
        CHECK(sepax_shapes_update(store) == SEPAX_OK, "update");
        for (int mi = 0; mi < 2; mi++) {
            sepax_pair *want;
            size_t nw = brute(s, store, margins[mi], &want);
            size_t n0 = 0;
            for (int t = 0; t < 3; t++) {
                sepax_frame_options o = {SEPAX_TEST_OVERLAP, margins[mi], 0.0f,
                                         t == 2 ? SEPAX_UPDATE_FRAME : SEPAX_UPDATE_NONE};
                sepax_contacts out = {got, NULL, NULL, cap};
                size_t k = 0;
                sepax_status st = sepax_find_contacts(bp[t], store, &o, &out, &k);
                CHECK(st == SEPAX_OK, "%s frame %u margin %g threads %d: %s", name, frames[fi],
                      (double)margins[mi], t + 1, sepax_status_str(st));
                if (st != SEPAX_OK) continue;
                if (t == 0) {
                    memcpy(first, got, k * sizeof *got);
                    n0 = k;
                } else {
                    CHECK(k == n0 && memcmp(first, got, k * sizeof *got) == 0,
                          "%s frame %u margin %g: %d threads give other results than 1", name,
                          frames[fi], (double)margins[mi], t + 1);
                }
                for (size_t q = 0; q < k; q++) {
                    uint32_t a = got[q].a & SEPAX_ID_INDEX_MASK, b = got[q].b & SEPAX_ID_INDEX_MASK;
                    CHECK(a < b, "pair %zu not ordered (%u, %u)", q, a, b);
                    got[q] = (sepax_pair){a, b};
                }
                qsort(got, k, sizeof *got, pair_cmp);
                size_t missing = 0, extra = 0, i = 0, j = 0;
                while (i < nw || j < k) {
                    int c = i == nw ? 1 : j == k ? -1 : pair_cmp(&want[i], &got[j]);
                    if (c < 0) {
                        if (missing++ < 5)
                            fprintf(stderr, "  missing (%u, %u)\n", want[i].a, want[i].b);
                        i++;
                    } else if (c > 0) {
                        if (extra++ < 5) fprintf(stderr, "  extra (%u, %u)\n", got[j].a, got[j].b);
                        j++;
                    } else {
                        i++, j++;
                    }
                }
                CHECK(missing == 0 && extra == 0,
                      "%s frame %u margin %g threads %d: %zu pairs missing, %zu extra (of %zu)",
                      name, frames[fi], (double)margins[mi], t + 1, missing, extra, nw);
            }
            /* candidates: contain the contacts, every one's boxes meet */
            sepax_frame_options o = {SEPAX_TEST_AABB, margins[mi], 0.0f, 0};
            sepax_contacts out = {got, NULL, NULL, cap};
            size_t k = 0;
            sepax_status st = sepax_find_contacts(bp[0], store, &o, &out, &k);
            CHECK(st == SEPAX_OK, "%s AABB: %s", name, sepax_status_str(st));
            if (st == SEPAX_OK) {
                size_t bad = 0, found = 0;
                for (size_t q = 0; q < k; q++) {
                    got[q] = (sepax_pair){got[q].a & SEPAX_ID_INDEX_MASK,
                                          got[q].b & SEPAX_ID_INDEX_MASK};
                    bad +=
                        !boxes_meet(store, got[q], margins[mi]) ||
                        !scene_filters_pass(scene_filter(s, got[q].a), scene_filter(s, got[q].b));
                }
                qsort(got, k, sizeof *got, pair_cmp);
                for (size_t q = 0; q < nw; q++)
                    found += bsearch(&want[q], got, k, sizeof *got, pair_cmp) != NULL;
                CHECK(bad == 0 && found == nw,
                      "%s frame %u AABB: %zu candidates whose boxes or filters do not meet, %zu of "
                      "%zu contacts not among them",
                      name, frames[fi], bad, nw - found, nw);
                if (verbose)
                    printf("%s n %u frame %u margin %g: %zu contacts, %zu candidates\n", name, n,
                           frames[fi], (double)margins[mi], nw, k);
            }
            /* a buffer one too small */
            if (nw > 0) {
                sepax_frame_options ov = {SEPAX_TEST_OVERLAP, margins[mi], 0.0f, 0};
                sepax_contacts small = {got, NULL, NULL, nw - 1};
                size_t k2 = 0;
                st = sepax_find_contacts(bp[1], store, &ov, &small, &k2);
                CHECK(st == SEPAX_ERR_CAPACITY && k2 == nw,
                      "%s: capacity %zu for %zu results gave %s, count %zu", name, nw - 1, nw,
                      sepax_status_str(st), k2);
            }
            free(want);
        }
    }
    for (int t = 0; t < 3; t++) sepax_broadphase_destroy(bp[t]);
    free(got);
    free(first);
    free(poses);
    sepax_shapes_destroy(store);
    scene_destroy(s);
}

int main(int argc, char **argv) {
    verbose = argc > 1 && strcmp(argv[1], "--verbose") == 0;
    /* 1. the same bits everywhere */
    const uint32_t frames[] = {0, 1, 777, 100000};
    scene *bh = scene_create("bullet-hell", 2000, 0), *pa = scene_create("particles", 2000, 0);
    CHECK(bh && pa, "scene_create");
    if (!bh || !pa) return 1;
    uint64_t hb = pose_hash(bh, frames, 4), hp = pose_hash(pa, frames, 4);
    if (verbose)
        printf("pose hashes: bullet-hell %016llx, particles %016llx\n", (unsigned long long)hb,
               (unsigned long long)hp);
    CHECK(hb == 0x909fa0136def4fbdull, "bullet-hell poses hash %016llx", (unsigned long long)hb);
    CHECK(hp == 0x2ef7c05b2c0c983bull, "particles poses hash %016llx", (unsigned long long)hp);
    CHECK(scene_count(bh) == 2000 + 1 + SCENE_ENEMIES && scene_count(pa) == 2000, "counts");
    scene_destroy(bh);
    scene_destroy(pa);
    CHECK(scene_create("nothing", 10, 0) == NULL && scene_create("particles", 0, 0) == NULL,
          "bad scenes refused");

    /* 2. sepax_find_contacts against a brute force */
    check_frames("particles", 1500);
    check_frames("bullet-hell", 1500);
    if (failures) {
        fprintf(stderr, "test_scenes: %d failures\n", failures);
        return 1;
    }
    printf("test_scenes: ok\n");
    return 0;
}
