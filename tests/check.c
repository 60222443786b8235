#include "check.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "manifold.h"
#include "pose_rules.h"
#include "sepax_ref.h"

#define MARK 0xA5
#define GUARD 64

size_t test_pairs(size_t dflt) {
    const char *e = getenv("SEPAX_TEST_PAIRS");
    size_t n = e ? (size_t)strtoul(e, NULL, 10) : 0;
    return n > 0 && n < dflt ? n : dflt;
}

int test_kernel_left_out(const char *name) {
    const char *list = getenv("SEPAX_TEST_SKIP_KERNELS");
    size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, len) == 0) return 1;
        p = end ? end + 1 : p + n;
    }
    return 0;
}

const test_kernel *find_test_kernel(const char *name) {
    for (int i = 0; i < test_kernel_count(); i++)
        if (strcmp(test_kernel_at(i)->name, name) == 0) return test_kernel_at(i);
    return NULL;
}

static size_t compare_hits(const uint8_t *got, const uint8_t *want, size_t n, const char *what,
                           check_msg *msg) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (got[i] == want[i]) continue;
        if (!bad++)
            snprintf(msg->text, sizeof msg->text, "%s[%zu]: hit %u, reference %u", what, i, got[i],
                     want[i]);
    }
    return bad;
}

static size_t compare_collide(const sepax_hit *got, const sepax_hit *want, size_t n,
                              const sepax_pair *pairs, check_msg *msg) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (memcmp(&got[i], &want[i], sizeof got[i]) == 0) continue;
        if (!bad++)
            snprintf(msg->text, sizeof msg->text,
                     "collide[%zu] (%u,%u): hit %u n (%a,%a) depth %a; reference hit %u n (%a,%a) "
                     "depth %a",
                     i, pairs[i].a, pairs[i].b, got[i].hit, (double)got[i].normal.x,
                     (double)got[i].normal.y, (double)got[i].depth, want[i].hit,
                     (double)want[i].normal.x, (double)want[i].normal.y, (double)want[i].depth);
    }
    return bad;
}

static size_t compare_manifold(const sepax_manifold *got, const sepax_manifold *want, size_t n,
                               const sepax_pair *pairs, check_msg *msg) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (memcmp(&got[i], &want[i], sizeof got[i]) == 0) continue;
        if (!bad++) {
            const sepax_manifold *g = &got[i], *w = &want[i];
            snprintf(
                msg->text, sizeof msg->text,
                "manifold[%zu] (%u,%u): count %u n (%a,%a) p0 (%a,%a) s0 %a id0 %08x p1 (%a,%a) "
                "s1 %a; reference count %u n (%a,%a) p0 (%a,%a) s0 %a id0 %08x p1 (%a,%a) s1 %a",
                i, pairs[i].a, pairs[i].b, g->count, (double)g->normal.x, (double)g->normal.y,
                (double)g->points[0].point.x, (double)g->points[0].point.y,
                (double)g->points[0].separation, g->points[0].id, (double)g->points[1].point.x,
                (double)g->points[1].point.y, (double)g->points[1].separation, w->count,
                (double)w->normal.x, (double)w->normal.y, (double)w->points[0].point.x,
                (double)w->points[0].point.y, (double)w->points[0].separation, w->points[0].id,
                (double)w->points[1].point.x, (double)w->points[1].point.y,
                (double)w->points[1].separation);
        }
    }
    return bad;
}

/* A kernel copy's manifolds: its collide with the winning axes, then its
 * contact step, as sepax_collide_manifold runs them; by turns with the stores around the
 * caches (where out is aligned for them) and without. */
void kernel_manifold(const sepax_kernel *k, const sepax_shapes *s, const sepax_pair *pairs,
                     size_t n, float margin, sepax_hit *hits, uint8_t *axes, sepax_manifold *out,
                     void *work) {
    static unsigned turn;
    int stream = ((uintptr_t)out & 15u) == 0 && (++turn & 1u);
    k->collide(s, pairs, n, margin, hits, axes, work);
    k->contacts(s, pairs, n, hits, axes, margin, out, work, stream);
}

void *test_work(void) {
    static _Alignas(64) unsigned char work[SEPAX_WORK_BYTES];
    static unsigned turn;
    turn++;
    for (size_t i = 0; i < sizeof work; i++) /* NaN bits, zeros and ones by turns */
        work[i] = (unsigned char)(turn % 3 == 0 ? 0xff : turn % 3 == 1 ? 0x00 : 0x7f + i * 13);
    return work;
}

/* The margins every store is checked at: touching, speculative (a positive
 * margin, which also sends sharp pairs through the closest-vertices axis)
 * and penetration-only. */
static const float margins[] = {0.0f, 0.25f, -0.125f};
#define NMARGINS (sizeof margins / sizeof margins[0])

static size_t check_store_margin(const sepax_kernel *k, const sepax_shapes *s,
                                 const sepax_pair *pairs, size_t n, int probes, float margin,
                                 size_t *compared, check_msg *msg);

/* Velocities for sweeps, from the pair's position: still, slow, and bullets
 * crossing the whole store in a step. */
static sepax_vec2 test_velocity(size_t i, int side) {
    uint64_t h = (uint64_t)(i * 2 + (size_t)side + 1) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
    float x = (float)(int)(h & 0xffff) - 32768.0f, y = (float)(int)((h >> 16) & 0xffff) - 32768.0f;
    switch ((h >> 40) % 4) {
    case 0: return (sepax_vec2){0.0f, 0.0f};
    case 1: return (sepax_vec2){x / 8192.0f, y / 8192.0f};           /* up to 4 per step */
    case 2: return (sepax_vec2){x / 32.0f, y / 32.0f};               /* up to 1000 per step */
    default: return (sepax_vec2){x / 65536.0f, 0.0f - y / 65536.0f}; /* slow */
    }
}

size_t check_sweep(const sepax_kernel *k, const sepax_shapes *s, const sepax_pair *pairs, size_t n,
                   size_t *compared, check_msg *msg) {
    sepax_vec2 *va = malloc((n ? n : 1) * sizeof *va), *vb = malloc((n ? n : 1) * sizeof *vb);
    sepax_sweep_hit *want = malloc((n ? n : 1) * sizeof *want),
                    *got = malloc((n ? n : 1) * sizeof *got);
    size_t bad = 0;
    if (!va || !vb || !want || !got) {
        snprintf(msg->text, sizeof msg->text, "out of memory");
        bad = 1;
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        va[i] = test_velocity(i, 0);
        vb[i] = test_velocity(i, 1);
    }
    /* both moving, then only B (A NULL) */
    for (int pass = 0; pass < 2; pass++) {
        const sepax_vec2 *pa = pass ? NULL : va;
        if (n && sepax_ref_sweep(s, pairs, n, pa, vb, want) != SEPAX_OK) {
            snprintf(msg->text, sizeof msg->text, "reference sweep refused the workload");
            bad++;
            break;
        }
        memset(got, 0xff, n * sizeof *got);
        if (n) k->sweep(s, pairs, n, pa, vb, got, pass ? test_work() : NULL);
        for (size_t i = 0; i < n; i++) {
            if (memcmp(&got[i], &want[i], sizeof got[i]) == 0) continue;
            if (!bad++)
                snprintf(msg->text, sizeof msg->text,
                         "sweep[%zu] (%u,%u) v (%a,%a)-(%a,%a): hit %u t %a n (%a,%a); reference "
                         "hit %u t %a n (%a,%a)",
                         i, pairs[i].a, pairs[i].b, (double)vb[i].x, (double)vb[i].y,
                         pa ? (double)pa[i].x : 0.0, pa ? (double)pa[i].y : 0.0, got[i].hit,
                         (double)got[i].t, (double)got[i].normal.x, (double)got[i].normal.y,
                         want[i].hit, (double)want[i].t, (double)want[i].normal.x,
                         (double)want[i].normal.y);
        }
        *compared += n;
    }
out:
    free(va);
    free(vb);
    free(want);
    free(got);
    return bad;
}

exact_shape exact_of_view(const sepax_shape_view *v) {
    exact_shape e = {v->count, {0}, {0}, v->radius};
    for (int k = 0; k < v->count; k++) {
        e.x[k] = v->x[k];
        e.y[k] = v->y[k];
    }
    return e;
}

/* A ray for pair i: from a vertex of A (or, one in eight, from B's first
 * vertex, on or inside B) aimed at a vertex of B, past it, or along a test
 * velocity; lengths from zero to long, max fractions 0, 1/4, 1 and 1000. */
sepax_ray test_ray(const sepax_shapes *s, sepax_pair p, size_t i) {
    sepax_shape_view a, b;
    sepax_shapes_view(s, p.a, &a);
    sepax_shapes_view(s, p.b, &b);
    uint64_t h = (uint64_t)(i + 7) * 0xd1b54a32d192ed03ull;
    h ^= h >> 31;
    int from_b = (h & 7) == 0, va = (int)((h >> 3) % (uint64_t)a.count);
    int vb = (int)((h >> 8) % (uint64_t)b.count);
    sepax_ray r;
    r.origin = from_b ? (sepax_vec2){b.x[0], b.y[0]} : (sepax_vec2){a.x[va], a.y[va]};
    sepax_vec2 aim = {b.x[vb] - r.origin.x, b.y[vb] - r.origin.y};
    switch ((h >> 13) % 4) {
    case 0: r.direction = aim; break;
    case 1: r.direction = (sepax_vec2){aim.x * 3.0f, aim.y * 3.0f}; break;
    case 2: r.direction = test_velocity(i, 1); break;
    default: r.direction = (sepax_vec2){0.0f, 0.0f}; break;
    }
    /* stores with far-apart shapes (the adversarial one) aim past the sweep limit */
    if (!(fabsf(r.direction.x) <= SEPAX_SWEEP_LIMIT && fabsf(r.direction.y) <= SEPAX_SWEEP_LIMIT))
        r.direction = test_velocity(i, 1);
    static const float fractions[] = {1.0f, 1.0f, 0.25f, 0.0f, 1000.0f, 1.0f, 1.0f, 0.5f};
    r.max_fraction = fractions[(h >> 17) % 8];
    return r;
}

static void describe_ray(check_msg *msg, const char *what, size_t i, const sepax_ray *r,
                         const sepax_ray_hit *got, const sepax_ray_hit *want) {
    snprintf(msg->text, sizeof msg->text,
             "%s[%zu] o (%a,%a) d (%a,%a) max %a: hit %u f %a n (%a,%a); reference hit %u f %a "
             "n (%a,%a)",
             what, i, (double)r->origin.x, (double)r->origin.y, (double)r->direction.x,
             (double)r->direction.y, (double)r->max_fraction, got->hit, (double)got->fraction,
             (double)got->normal.x, (double)got->normal.y, want->hit, (double)want->fraction,
             (double)want->normal.x, (double)want->normal.y);
}

size_t check_rays(const sepax_kernel *k, const sepax_shapes *s, const sepax_pair *pairs, size_t n,
                  int probes, size_t *compared, check_msg *msg) {
    uint32_t count = sepax_shapes_count(s);
    size_t cap = n > count ? n : count;
    sepax_ray *rays = malloc((cap ? cap : 1) * sizeof *rays);
    uint32_t *ids = malloc((cap ? cap : 1) * sizeof *ids);
    sepax_ray_hit *want = malloc((cap ? cap : 1) * sizeof *want),
                  *got = malloc((cap ? cap : 1) * sizeof *got);
    size_t bad = 0;
    if (!rays || !ids || !want || !got) {
        snprintf(msg->text, sizeof msg->text, "out of memory");
        bad = 1;
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        rays[i] = test_ray(s, pairs[i], i);
        ids[i] = pairs[i].b;
    }
    if (n && sepax_ref_raycast(s, rays, ids, n, want) != SEPAX_OK) {
        snprintf(msg->text, sizeof msg->text, "reference raycast refused the workload");
        bad = 1;
        goto out;
    }
    memset(got, 0xff, n * sizeof *got);
    if (n) k->raycast(s, rays, ids, n, got, test_work());
    for (size_t i = 0; i < n; i++) {
        if (memcmp(&got[i], &want[i], sizeof got[i]) == 0) continue;
        if (!bad++) describe_ray(msg, "raycast", i, &rays[i], &got[i], &want[i]);
    }
    *compared += n;
    /* one ray against the whole store: a few of the rays above */
    for (int q = 0; q < probes && n; q++) {
        const sepax_ray *r = &rays[(size_t)q * 7919u % n];
        if (sepax_ref_raycast_range(s, r, 0, count, want) != SEPAX_OK) {
            snprintf(msg->text, sizeof msg->text, "reference raycast_range refused a ray");
            bad++;
            break;
        }
        memset(got, 0xff, count * sizeof *got);
        k->raycast_range(s, r, 0, count, got);
        for (size_t i = 0; i < count; i++) {
            if (memcmp(&got[i], &want[i], sizeof got[i]) == 0) continue;
            if (!bad++) describe_ray(msg, "raycast_range", i, r, &got[i], &want[i]);
        }
        *compared += count;
    }
out:
    free(rays);
    free(ids);
    free(want);
    free(got);
    return bad;
}

size_t check_store(const sepax_kernel *k, const sepax_shapes *s, const sepax_pair *pairs, size_t n,
                   int probes, size_t *compared, check_msg *msg) {
    size_t bad = 0;
    for (size_t m = 0; m < NMARGINS; m++)
        bad += check_store_margin(k, s, pairs, n, m ? (probes + 3) / 4 : probes, margins[m],
                                  compared, msg);
    bad += check_sweep(k, s, pairs, n, compared, msg);
    bad += check_rays(k, s, pairs, n, (probes + 3) / 4, compared, msg);
    return bad;
}

static size_t check_store_margin(const sepax_kernel *k, const sepax_shapes *s,
                                 const sepax_pair *pairs, size_t n, int probes, float margin,
                                 size_t *compared, check_msg *msg) {
    sepax_query_options opt = {.margin = margin};
    uint32_t count = sepax_shapes_count(s);
    size_t cap = n > count ? n : count;
    uint8_t *want = malloc(cap), *got = malloc(cap);
    sepax_hit *want_c = malloc(n * sizeof *want_c), *got_c = malloc(n * sizeof *got_c);
    sepax_manifold *want_m = malloc(n * sizeof *want_m), *got_m = malloc(n * sizeof *got_m);
    size_t bad = 0;
    if (!want || !got || !want_c || !got_c || !want_m || !got_m) {
        snprintf(msg->text, sizeof msg->text, "out of memory");
        bad = 1;
        goto out;
    }
    size_t before = bad;
    if (n) {
        sepax_ref_overlap_opt(s, pairs, n, &opt, want);
        memset(got, MARK, n); /* a pair the kernel skips keeps a mark, never a right answer */
        /* with work memory at margins 0 and -, on the stack at + (both ways on every copy) */
        k->overlap(s, pairs, n, margin, got, margin > 0.0f ? NULL : test_work());
        bad += compare_hits(got, want, n, "overlap", msg);
        sepax_ref_collide_opt(s, pairs, n, &opt, want_c);
        memset(got_c, 0xff, n * sizeof *got_c);
        k->collide(s, pairs, n, margin, got_c, NULL, margin > 0.0f ? NULL : test_work());
        bad += compare_collide(got_c, want_c, n, pairs, msg);
        sepax_ref_collide_manifold_opt(s, pairs, n, &opt, want_m);
        memset(got_m, 0xff, n * sizeof *got_m);
        kernel_manifold(k, s, pairs, n, margin, got_c, got, got_m,
                        margin > 0.0f ? NULL : test_work());
        bad += compare_manifold(got_m, want_m, n, pairs, msg);
        *compared += 3 * n;
    }
    for (int p = 0; p < probes; p++) {
        uint32_t probe = (uint32_t)((uint64_t)p * count / (uint64_t)probes);
        sepax_ref_overlap_one_opt(s, sepax_shapes_id(s, probe), 0, count, &opt, want);
        memset(got, MARK, count);
        k->overlap_one(s, probe, 0, count, margin, got);
        bad += compare_hits(got, want, count, "overlap_one", msg);
        *compared += count;
    }
    if (bad > before) { /* say at which margin */
        size_t len = strlen(msg->text);
        snprintf(msg->text + len, sizeof msg->text - len, " [margin %g]", (double)margin);
    }
out:
    free(want);
    free(got);
    free(want_c);
    free(got_c);
    free(want_m);
    free(got_m);
    return bad;
}

/* A store filled by cfg and cfg->pairs pairs over it in pairs, or NULL (nothing left to free)
 * when either could not be built. */
static sepax_shapes *workload_store(const wl_config *cfg, sepax_pair *pairs) {
    sepax_shapes *s = sepax_shapes_create(cfg->shapes);
    if (s && wl_fill_store(s, cfg) == SEPAX_OK && wl_make_pairs(s, cfg, pairs) == SEPAX_OK)
        return s;
    sepax_shapes_destroy(s);
    return NULL;
}

size_t check_random_rounds(const sepax_kernel *k, wl_config cfg, int rounds, size_t *compared,
                           check_msg *msg) {
    size_t bad = 0;
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    if (!pairs) return 1;
    for (int r = 0; r < rounds; r++, cfg.seed += 0x1000193) {
        sepax_shapes *s = workload_store(&cfg, pairs);
        if (!s) {
            snprintf(msg->text, sizeof msg->text, "could not build round %d", r);
            bad++;
            break;
        }
        bad += check_store(k, s, pairs, cfg.pairs, 8, compared, msg);
        sepax_shapes_destroy(s);
    }
    free(pairs);
    return bad;
}

size_t check_lengths(const sepax_kernel *k, size_t *compared, check_msg *msg) {
    /* around the kernel's sort: lists of up to 1024 pairs sort in one short chunk, longer
     * ones in chunks of 4096 (kernel/sat_kernel.c); 4097 and 8193 end on a one-pair chunk;
     * and lists too short to sort, below */
    static const size_t lengths[] = {1023, 1024, 1025, 4095, 4096, 4097, 8193};
    enum { LENGTHS = sizeof lengths / sizeof lengths[0] };
    size_t most = 0;
    for (size_t i = 0; i < LENGTHS; i++) most = lengths[i] > most ? lengths[i] : most;
    sepax_pair *pairs = malloc(most * sizeof *pairs);
    size_t bad = 0;
    if (!pairs) return 1;
    for (int kinds = WL_POLYGONS; kinds <= WL_MIXED; kinds++) {
        wl_config cfg = wl_default();
        cfg.kinds = kinds;
        cfg.shapes = 512;
        cfg.pairs = most;
        cfg.seed += 77;
        sepax_shapes *s = workload_store(&cfg, pairs);
        if (!s) {
            snprintf(msg->text, sizeof msg->text, "could not build the lengths workload");
            bad++;
            break;
        }
        for (size_t i = 0; i < LENGTHS; i++) {
            size_t before = bad;
            bad += check_store(k, s, pairs, lengths[i], 0, compared, msg);
            if (bad > before) { /* say at which length */
                size_t len = strlen(msg->text);
                snprintf(msg->text + len, sizeof msg->text - len, " [%zu pairs]", lengths[i]);
            }
        }
        /* lists of 1 to 6 pairs, from many places in the list, so of every class: up to 4 the
         * kernel runs each pair alone (FEW_PAIRS, kernel/sat_kernel.c), past it sorts them */
        for (size_t n = 1; n <= 6; n++) {
            for (size_t at = 0; at + n <= 1000 && !bad; at += 23) {
                bad += check_store(k, s, pairs + at, n, 0, compared, msg);
                if (bad) {
                    size_t len = strlen(msg->text);
                    snprintf(msg->text + len, sizeof msg->text - len, " [%zu pairs from %zu]", n,
                             at);
                }
            }
        }
        sepax_shapes_destroy(s);
    }
    free(pairs);
    return bad;
}

size_t check_far_store(const sepax_kernel *k, size_t *compared, check_msg *msg) {
    _Static_assert(SEPAX_FAR_SWEEP >= SEPAX_FAR_PAIRS, "past one past both");
    wl_config cfg = wl_default();
    cfg.shapes = SEPAX_FAR_SWEEP + 1000u;
    cfg.pairs = 12011; /* several of the kernel's chunks, the last one short */
    cfg.seed += 91;
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    size_t bad = 0;
    if (!pairs) return 1;
    for (int kinds = WL_POLYGONS; kinds <= WL_MIXED; kinds++) {
        cfg.kinds = kinds;
        sepax_shapes *s = workload_store(&cfg, pairs);
        if (!s) {
            snprintf(msg->text, sizeof msg->text, "could not build the far store");
            bad++;
            break;
        }
        bad += check_store(k, s, pairs, cfg.pairs, 0, compared, msg);
        sepax_shapes_destroy(s);
    }
    free(pairs);
    return bad;
}

size_t check_adversarial(const sepax_kernel *k, size_t *compared, check_msg *msg) {
    sepax_shapes *s = wl_adversarial_store();
    size_t n = 0;
    sepax_pair *pairs = s ? wl_all_pairs(sepax_shapes_count(s), &n) : NULL;
    size_t bad = 1;
    snprintf(msg->text, sizeof msg->text, "could not build the adversarial store");
    if (pairs) bad = check_store(k, s, pairs, n, (int)sepax_shapes_count(s), compared, msg);
    free(pairs);
    sepax_shapes_destroy(s);
    return bad;
}

static int guards_intact(const uint8_t *buf, size_t before, size_t after_start, size_t total) {
    for (size_t i = 0; i < before; i++)
        if (buf[i] != MARK) return 0;
    for (size_t i = after_start; i < total; i++)
        if (buf[i] != MARK) return 0;
    return 1;
}

static size_t check_tails_of(const sepax_kernel *k, size_t max_n, int kinds, check_msg *msg);

size_t check_tails(const sepax_kernel *k, size_t max_n, check_msg *msg) {
    size_t bad = 0;
    for (int kinds = WL_POLYGONS; kinds <= WL_CIRCLES; kinds++)
        bad += check_tails_of(k, max_n, kinds, msg);
    return bad;
}

static size_t check_tails_of(const sepax_kernel *k, size_t max_n, int kinds, check_msg *msg) {
    wl_config cfg = wl_default();
    cfg.kinds = kinds;
    cfg.shapes = 256;
    cfg.pairs = max_n + 8;
    sepax_shapes *s = sepax_shapes_create(cfg.shapes);
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    size_t total = GUARD * 2 + (max_n + 8) * sizeof(sepax_ray_hit);
    uint8_t *buf = malloc(total), *want = malloc(cfg.pairs);
    sepax_hit *want_c = malloc(cfg.pairs * sizeof *want_c);
    size_t bad = 0;
    if (!s || !pairs || !buf || !want || !want_c || wl_fill_store(s, &cfg) != SEPAX_OK ||
        wl_make_pairs(s, &cfg, pairs) != SEPAX_OK) {
        snprintf(msg->text, sizeof msg->text, "could not build the tail workload");
        bad = 1;
        goto out;
    }
    for (size_t n = 0; n <= max_n; n++) {
        for (size_t off = 0; off < 4; off++) {
            uint8_t *hit = buf + GUARD + off;
            sepax_hit *hits = (sepax_hit *)(void *)(buf + GUARD) + off;
            const sepax_pair *p = pairs + off;

            memset(buf, MARK, total);
            sepax_ref_overlap(s, p, n, want);
            k->overlap(s, p, n, 0.0f, hit, NULL);
            if (!guards_intact(buf, GUARD + off, GUARD + off + n, total) ||
                memcmp(hit, want, n) != 0) {
                if (!bad++)
                    snprintf(msg->text, sizeof msg->text,
                             "overlap n=%zu offset %zu: wrong or out of bounds", n, off);
            }
            memset(buf, MARK, total);
            sepax_ref_overlap_one(s, p->a, (uint32_t)off, n, want);
            k->overlap_one(s, p->a, (uint32_t)off, n, 0.0f, hit);
            if (!guards_intact(buf, GUARD + off, GUARD + off + n, total) ||
                memcmp(hit, want, n) != 0) {
                if (!bad++)
                    snprintf(msg->text, sizeof msg->text,
                             "overlap_one n=%zu offset %zu: wrong or out of bounds", n, off);
            }
            memset(buf, MARK, total);
            sepax_ref_collide(s, p, n, want_c);
            k->collide(s, p, n, 0.0f, hits, NULL, NULL);
            size_t start = GUARD + off * sizeof(sepax_hit);
            if (!guards_intact(buf, start, start + n * sizeof(sepax_hit), total) ||
                memcmp(hits, want_c, n * sizeof *hits) != 0) {
                if (!bad++)
                    snprintf(msg->text, sizeof msg->text,
                             "collide n=%zu offset %zu: wrong or out of bounds", n, off);
            }
            /* rays: a batch, and one ray against shapes off .. off + n - 1 */
            sepax_ray rays[64];
            uint32_t ids[64];
            sepax_ray_hit want_r[64];
            sepax_ray_hit *rh = (sepax_ray_hit *)(void *)(buf + GUARD) + off;
            size_t nr = n < 64 ? n : 64;
            /* at least one ray: raycast_range reads rays[0] even for n = 0 */
            for (size_t i = 0; i < (nr ? nr : 1); i++) {
                rays[i] = test_ray(s, p[i], i);
                ids[i] = p[i].b;
            }
            for (int range = 0; range < 2; range++) {
                memset(buf, MARK, total);
                if (range) {
                    sepax_ref_raycast_range(s, &rays[0], (uint32_t)off, nr, want_r);
                    k->raycast_range(s, &rays[0], (uint32_t)off, nr, rh);
                } else {
                    sepax_ref_raycast(s, rays, ids, nr, want_r);
                    if (nr) k->raycast(s, rays, ids, nr, rh, NULL);
                }
                start = GUARD + off * sizeof(sepax_ray_hit);
                if (!guards_intact(buf, start, start + nr * sizeof(sepax_ray_hit), total) ||
                    memcmp(rh, want_r, nr * sizeof *rh) != 0) {
                    if (!bad++)
                        snprintf(msg->text, sizeof msg->text,
                                 "%s n=%zu offset %zu: wrong or out of bounds",
                                 range ? "raycast_range" : "raycast", nr, off);
                }
            }
        }
    }
out:
    sepax_shapes_destroy(s);
    free(pairs);
    free(buf);
    free(want);
    free(want_c);
    return bad;
}

/* Poses spread over a field twice the store's size, at every angle. */
static void random_poses(sepax_shapes *s, uint64_t seed) {
    wl_rng r = {seed};
    uint32_t n = sepax_shapes_count(s);
    sepax_pose *poses = malloc((size_t)n * sizeof *poses);
    if (!poses) return;
    for (uint32_t i = 0; i < n; i++) {
        poses[i].position = (sepax_vec2){(wl_unit(&r) - 0.5f) * 8.0f, (wl_unit(&r) - 0.5f) * 8.0f};
        poses[i].rotation = sepax_rot((wl_unit(&r) - 0.5f) * 12.0f);
    }
    sepax_shapes_set_poses(s, 0, n, poses);
    free(poses);
}

/* The rows one kernel's update wrote, read by every kernel's range queries: a game may
 * switch backends between an update and a query, and AVX-512 steps over two blocks from
 * wherever a range starts (store.h), so ranges start on an even and an odd block. Blocks of
 * octagons (8 rows) sit among blocks of circles and triangles (4), whose rows 4..7 the update
 * may skip: they still hold the values of the shapes' first pose. */
static size_t check_rows_for_every_kernel(const sepax_kernel *k, size_t *compared, check_msg *msg) {
    enum { COUNT = 400 };
    sepax_shapes *s = sepax_shapes_create(COUNT);
    uint8_t *want = malloc(COUNT), *got = malloc(COUNT);
    sepax_ray_hit *rwant = malloc(COUNT * sizeof *rwant), *rgot = malloc(COUNT * sizeof *rgot);
    size_t bad = 0;
    if (!s || !want || !got || !rwant || !rgot) {
        snprintf(msg->text, sizeof msg->text, "out of memory");
        bad = 1;
        goto out;
    }
    for (uint32_t i = 0; i < COUNT; i++) {
        sepax_vec2 pts[8];
        int nv = (i / 8) % 3 == 1 ? 8 : 3;
        for (int v = 0; v < nv; v++) {
            sepax_rotation q = sepax_rot(6.2831853f * (float)v / (float)nv);
            pts[v] = (sepax_vec2){0.4f * q.c, 0.4f * q.s};
        }
        uint32_t id;
        sepax_status st = nv == 3 && i % 2 ? sepax_shapes_add_circle(s, pts[0], 0.3f, &id)
                                           : sepax_shapes_add_polygon(s, pts, nv, &id);
        if (st != SEPAX_OK) {
            snprintf(msg->text, sizeof msg->text, "could not build the rows store");
            bad = 1;
            goto out;
        }
    }
    random_poses(s, 5);
    k->update(s, 0, COUNT / 8, 1);
    for (int i = 0; i < test_kernel_count(); i++) {
        const test_kernel *q = test_kernel_at(i);
        if (!q->runnable) continue;
        for (uint32_t first = 0; first <= 8; first += 8) {
            uint32_t n = COUNT - first;
            for (uint32_t probe = 3; probe < COUNT; probe += 37) {
                sepax_ref_overlap_one(s, probe, first, n, want);
                q->k->overlap_one(s, probe, first, n, 0.0f, got);
                for (uint32_t j = 0; j < n; j++)
                    if (got[j] != want[j] && !bad++)
                        snprintf(msg->text, sizeof msg->text,
                                 "update on %s, overlap_one on %s: probe %u, shape %u differs",
                                 k->name, q->name, probe, first + j);
                *compared += n;
            }
            for (int ray = 0; ray < 8; ray++) {
                sepax_ray r = {{-6.0f, -4.0f + (float)ray}, {12.0f, 1.0f}, 1.0f};
                sepax_ref_raycast_range(s, &r, first, n, rwant);
                memset(rgot, 0xff, n * sizeof *rgot);
                q->k->raycast_range(s, &r, first, n, rgot);
                for (uint32_t j = 0; j < n; j++)
                    if (memcmp(&rgot[j], &rwant[j], sizeof *rgot) != 0 && !bad++)
                        snprintf(msg->text, sizeof msg->text,
                                 "update on %s, raycast_range on %s: ray %d, shape %u differs",
                                 k->name, q->name, ray, first + j);
                *compared += n;
            }
        }
    }
out:
    sepax_shapes_destroy(s);
    free(want);
    free(got);
    free(rwant);
    free(rgot);
    return bad;
}

/* Every shape's world data (views and box) against the reference's, bit for bit. */
static size_t compare_world(const sepax_shapes *s, size_t *compared, check_msg *msg) {
    size_t bad = 0;
    for (uint32_t i = 0; i < sepax_shapes_count(s); i++) {
        uint32_t id = sepax_shapes_id(s, i); /* the index itself until a removal */
        sepax_world_shape want;
        sepax_shape_view got;
        sepax_aabb box;
        sepax_ref_world(s, id, &want);
        sepax_shapes_view(s, id, &got);
        sepax_shapes_aabb(s, id, &box);
        const float *g[5] = {got.x, got.y, got.nx, got.ny, got.c};
        const float *w[5] = {want.x, want.y, want.nx, want.ny, want.c};
        int same = memcmp(&box, &want.aabb, sizeof box) == 0 && got.kind == want.kind &&
                   got.count == want.count && memcmp(&got.radius, &want.radius, 4) == 0;
        for (int r = 0; r < 5; r++)
            same &= memcmp(g[r], w[r], SEPAX_MAX_VERTS * sizeof(float)) == 0;
        /* the disc the curved-pair kernels read: vertex 0 and the radius */
        sepax_disc disc = {want.x[0], want.y[0], want.radius, 0.0f};
        same &= memcmp(&s->disc[i], &disc, sizeof disc) == 0;
        *compared += 1;
        if (!same && !bad++)
            snprintf(msg->text, sizeof msg->text, "update: shape %u world data differs", i);
    }
    return bad;
}

/* The bounds alone (what a lazy frame's first pass writes) against the reference's. */
static size_t compare_bounds(const sepax_shapes *s, size_t *compared, check_msg *msg) {
    size_t bad = 0;
    for (uint32_t id = 0; id < sepax_shapes_count(s); id++) {
        sepax_world_shape want;
        sepax_aabb box;
        sepax_ref_world(s, id, &want);
        sepax_shapes_aabb(s, id, &box);
        *compared += 1;
        if (memcmp(&box, &want.aabb, sizeof box) != 0 && !bad++)
            snprintf(msg->text, sizeof msg->text, "bounds update: shape %u's box differs", id);
    }
    return bad;
}

/* A store large enough that the update writes around the caches (update_kernel.c). */
static size_t check_update_streamed(const sepax_kernel *k, size_t *compared, check_msg *msg) {
    wl_config cfg = wl_default();
    cfg.shapes = 20005; /* past STREAM_SHAPES, with a partial last block (its discs stored) */
    cfg.kinds = WL_MIXED;
    sepax_shapes *s = sepax_shapes_create(cfg.shapes);
    size_t bad = 0;
    if (!s || wl_fill_store(s, &cfg) != SEPAX_OK) {
        snprintf(msg->text, sizeof msg->text, "could not build the streamed update workload");
        bad = 1;
    } else {
        random_poses(s, 7);
        k->update(s, 0, (cfg.shapes + 7) / 8, SEPAX_WRITE_ROWS);
        bad = compare_world(s, compared, msg);
        random_poses(s, 8); /* and a frame's update, without the rows */
        k->update(s, 0, (cfg.shapes + 7) / 8, SEPAX_WRITE_RECORDS);
        bad += compare_world(s, compared, msg);
        random_poses(s, 9); /* and a lazy frame's first pass, the bounds alone */
        k->update(s, 0, (cfg.shapes + 7) / 8, SEPAX_WRITE_BOUNDS);
        bad += compare_bounds(s, compared, msg);
    }
    sepax_shapes_destroy(s);
    return bad;
}

/* A shape of `rows` local rows (its most vertices or planes) when `exact`, else of 1 .. rows,
 * chosen by `pick`: a circle (1 row), a capsule (2), a regular polygon, sharp or rounded. */
static sepax_status add_shape_of_rows(sepax_shapes *s, int rows, int exact, uint32_t pick) {
    sepax_vec2 c = {0.1f * (float)(pick % 7), -0.05f * (float)(pick % 5)}, pts[8];
    uint32_t id;
    int nv = exact ? rows : 1 + (int)(pick % (uint32_t)rows);
    if (nv == 1) return sepax_shapes_add_circle(s, c, 0.3f, &id);
    if (nv == 2)
        return sepax_shapes_add_capsule(s, c, (sepax_vec2){c.x + 0.5f, c.y + 0.2f}, 0.1f, &id);
    for (int v = 0; v < nv; v++) {
        sepax_rotation q = sepax_rot(6.2831853f * (float)v / (float)nv);
        pts[v] = (sepax_vec2){c.x + 0.4f * q.c, c.y + 0.4f * q.s};
    }
    return pick & 8u ? sepax_shapes_add_rounded(s, pts, nv, 0.05f, &id)
                     : sepax_shapes_add_polygon(s, pts, nv, &id);
}

/* The update computes a block's rows only up to the most rows of its shapes and copies the
 * last into the rest (update_kernel.c, local_rows): blocks whose largest shape has 1 to 8
 * rows (block b: (5 * b) % 8 + 1, in its last lane), then removals that move a shape in from
 * the end and so shrink or grow blocks' counts; every update mode against the reference,
 * below and past the size from which the update writes around the caches, and below it with
 * SEPAX_WRITE_STREAM asking for that. */
static size_t check_update_few_rows(const sepax_kernel *k, size_t *compared, check_msg *msg) {
    /* the second stays past the streamed size through the rounds' removals */
    static const uint32_t sizes[2] = {1003, 16509};
    size_t bad = 0;
    for (int z = 0; z < 2 && !bad; z++) {
        uint32_t n = sizes[z];
        sepax_shapes *s = sepax_shapes_create(n);
        sepax_status st = s ? SEPAX_OK : SEPAX_ERR_NOMEM;
        for (uint32_t i = 0; i < n && st == SEPAX_OK; i++)
            st = add_shape_of_rows(s, (int)(5 * (i / 8) % 8) + 1, i % 8 == 7, i * 2654435761u);
        if (st != SEPAX_OK) {
            snprintf(msg->text, sizeof msg->text, "could not build the few-rows store");
            sepax_shapes_destroy(s);
            return bad + 1;
        }
        for (int round = 0; round < 3 && !bad; round++) {
            uint32_t blocks = (sepax_shapes_count(s) + 7) / 8;
            random_poses(s, 40 + (uint64_t)round);
            k->update(s, 0, 5, SEPAX_WRITE_ROWS); /* uneven ranges, as a frame's threads */
            k->update(s, 5, blocks, SEPAX_WRITE_ROWS);
            bad += compare_world(s, compared, msg);
            random_poses(s, 50 + (uint64_t)round);
            k->update(s, 0, blocks, SEPAX_WRITE_RECORDS);
            bad += compare_world(s, compared, msg);
            /* around the caches when asked, at any size (a sparse frame's records) */
            random_poses(s, 60 + (uint64_t)round);
            k->update(s, 0, blocks, SEPAX_WRITE_RECORDS | SEPAX_WRITE_STREAM);
            bad += compare_world(s, compared, msg);
            random_poses(s, 70 + (uint64_t)round);
            k->update(s, 0, 3, SEPAX_WRITE_ROWS | SEPAX_WRITE_STREAM);
            k->update(s, 3, blocks, SEPAX_WRITE_ROWS | SEPAX_WRITE_STREAM);
            bad += compare_world(s, compared, msg);
            /* the last shape, of whatever rows, moves into each hole */
            for (uint32_t j = 0; j < 40; j++) {
                uint32_t at = (uint32_t)(round * 40 + j) * 97u % (sepax_shapes_count(s) - 1);
                if (sepax_shapes_remove(s, sepax_shapes_id(s, at), NULL) != SEPAX_OK && !bad++)
                    snprintf(msg->text, sizeof msg->text, "few rows: a removal failed");
            }
        }
        if (bad && strncmp(msg->text, "update:", 7) == 0) {
            size_t used = strlen(msg->text);
            snprintf(msg->text + used, sizeof msg->text - used, " (few rows, %u shapes)", n);
        }
        sepax_shapes_destroy(s);
    }
    return bad;
}

/* Pairs of a posed store, cfg->overlap of them touching, as wl_make_pairs makes them for a
 * laid-out one (of any kinds: cfg->pair_a and pair_b are not looked at). Poses scatter the shapes,
 * so neighbouring ids are no longer neighbours and almost no random pair touches (about 1 in 1500
 * here): wl_make_pairs would draw millions of pairs to fill its quota of hits. So B is drawn from
 * the 3 x 3 cells around A's centre, in a grid of cells as wide as the widest box. */
static int make_posed_pairs(const sepax_shapes *s, const wl_config *cfg, sepax_pair *pairs) {
    uint32_t count = sepax_shapes_count(s);
    float *cx = malloc(count * sizeof *cx), *cy = malloc(count * sizeof *cy);
    float lo_x = FLT_MAX, lo_y = FLT_MAX, hi_x = -FLT_MAX, hi_y = -FLT_MAX, cell = 0.0f;
    for (uint32_t i = 0; cx && cy && i < count; i++) {
        sepax_aabb b;
        sepax_shapes_aabb(s, i, &b);
        cx[i] = 0.5f * (b.lower.x + b.upper.x);
        cy[i] = 0.5f * (b.lower.y + b.upper.y);
        cell = fmaxf(cell, fmaxf(b.upper.x - b.lower.x, b.upper.y - b.lower.y));
        lo_x = fminf(lo_x, cx[i]);
        lo_y = fminf(lo_y, cy[i]);
        hi_x = fmaxf(hi_x, cx[i]);
        hi_y = fmaxf(hi_y, cy[i]);
    }
    /* the grid's size in cells, checked as floats before any conversion */
    float span_x = cell > 0.0f ? (hi_x - lo_x) / cell : -1.0f;
    float span_y = cell > 0.0f ? (hi_y - lo_y) / cell : -1.0f;
    int sized = cx && cy && count >= 2 && span_x >= 0.0f && span_x < 4096.0f && span_y >= 0.0f &&
                span_y < 4096.0f;
    uint32_t gx = sized ? (uint32_t)span_x + 1u : 1u, gy = sized ? (uint32_t)span_y + 1u : 1u;
    uint32_t *start = sized ? calloc((size_t)gx * gy + 1, 4) : NULL;
    uint32_t *ids = malloc(count * sizeof *ids), *cell_of = malloc(count * sizeof *cell_of);
    int ok = start && ids && cell_of;
    if (ok) {
        /* a counting sort of the ids by cell */
        for (uint32_t i = 0; i < count; i++) {
            uint32_t x = (uint32_t)((cx[i] - lo_x) / cell), y = (uint32_t)((cy[i] - lo_y) / cell);
            cell_of[i] = (y < gy ? y : gy - 1) * gx + (x < gx ? x : gx - 1);
            start[cell_of[i] + 1]++;
        }
        for (size_t c = 0; c < (size_t)gx * gy; c++) start[c + 1] += start[c];
        uint32_t *fill = malloc((size_t)gx * gy * sizeof *fill);
        ok = fill != NULL;
        if (ok) {
            memcpy(fill, start, (size_t)gx * gy * sizeof *fill);
            for (uint32_t i = 0; i < count; i++) ids[fill[cell_of[i]]++] = i;
            free(fill);
        }
    }
    wl_quota q = wl_quota_of(cfg);
    wl_rng r = {cfg->seed ^ 0x9e3779b97f4a7c15ull};
    for (size_t tries = 0; ok && q.n < cfg->pairs; tries++) {
        uint32_t a = (uint32_t)(wl_next(&r) % count), b;
        if (tries > 64 * cfg->pairs + 1000) {
            ok = 0; /* the store has too few touching neighbours: say so, do not spin */
            break;
        }
        int x = (int)(cell_of[a] % gx) + wl_range(&r, -1, 1);
        int y = (int)(cell_of[a] / gx) + wl_range(&r, -1, 1);
        if (q.hits == 0) {
            b = (uint32_t)(wl_next(&r) % count); /* misses: any shape will mostly do */
        } else {
            if (x < 0 || y < 0 || x >= (int)gx || y >= (int)gy) continue;
            uint32_t c = (uint32_t)y * gx + (uint32_t)x, members = start[c + 1] - start[c];
            if (members == 0) continue;
            b = ids[start[c] + (uint32_t)(wl_next(&r) % members)];
        }
        if (b == a) continue;
        wl_quota_offer(s, (sepax_pair){a, b}, &q, pairs);
    }
    free(cx);
    free(cy);
    free(start);
    free(ids);
    free(cell_of);
    return ok;
}

size_t check_update(const sepax_kernel *k, size_t *compared, check_msg *msg) {
    wl_config cfg = wl_default();
    cfg.shapes = 1000; /* not a multiple of 16: a partial last block */
    cfg.kinds = WL_MIXED;
    cfg.pairs = test_pairs(100000);
    sepax_shapes *s = sepax_shapes_create(cfg.shapes);
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    size_t bad = 0;
    if (!s || !pairs || wl_fill_store(s, &cfg) != SEPAX_OK) {
        snprintf(msg->text, sizeof msg->text, "could not build the update workload");
        bad = 1;
        goto out;
    }
    random_poses(s, 99);
    /* in three uneven ranges, the last one past the end, as a frame splits it over
     * threads: every range must write what one whole pass writes */
    k->update(s, 0, 3, 1);
    k->update(s, 3, 60, 1);
    k->update(s, 63, 1000, 1);
    bad += compare_world(s, compared, msg);
    bad += check_rows_for_every_kernel(k, compared, msg);
    /* the moved shapes, through every query */
    if (!make_posed_pairs(s, &cfg, pairs)) {
        snprintf(msg->text, sizeof msg->text, "could not pair the moved shapes");
        bad++;
        goto out;
    }
    bad += check_store(k, s, pairs, cfg.pairs, 16, compared, msg);
    /* without the rows (a frame's update): the records, discs and bounds all the same */
    random_poses(s, 98);
    k->update(s, 0, 1000, 0);
    bad += compare_world(s, compared, msg);
    bad += check_update_streamed(k, compared, msg);
    bad += check_update_few_rows(k, compared, msg);
out:
    sepax_shapes_destroy(s);
    free(pairs);
    return bad;
}

/* A pose field's value: mostly ordinary, often at the rules' edges (the coordinate limit and
 * the next float past it, infinities, NaN, denormals), so batches both pass and fail. */
static float edge_coord(wl_rng *r) {
    static const float edges[] = {0.0f,
                                  -0.0f,
                                  SEPAX_COORD_LIMIT,
                                  -SEPAX_COORD_LIMIT,
                                  0x1.bc16d8p+59f, /* the float after the limit */
                                  -0x1.bc16d8p+59f,
                                  INFINITY,
                                  -INFINITY,
                                  NAN,
                                  1e-40f,
                                  FLT_MAX};
    if (wl_range(r, 0, 9) < 8) return (wl_unit(r) - 0.5f) * 2000.0f;
    return edges[wl_range(r, 0, (int)(sizeof edges / sizeof edges[0]) - 1)];
}

/* A rotation: a unit one scaled by 1 + e with e across the tolerance's edge (c^2 + s^2 - 1
 * near +-2^-16), or now and then not finite or zero. */
static sepax_rotation edge_rotation(wl_rng *r) {
    sepax_rotation q = sepax_rot((wl_unit(r) - 0.5f) * 12.0f);
    int pick = wl_range(r, 0, 19);
    if (pick == 0) return (sepax_rotation){NAN, q.s};
    if (pick == 1) return (sepax_rotation){q.c, INFINITY};
    if (pick == 2) return (sepax_rotation){0.0f, 0.0f};
    if (pick < 10) { /* c^2 + s^2 - 1 is about 2e: up to twice the tolerance either way */
        float e = (wl_unit(r) - 0.5f) * (2.0f * SEPAX_ROT_TOL);
        return (sepax_rotation){q.c * (1.0f + e), q.s * (1.0f + e)};
    }
    return q;
}

size_t check_pose_kernel(const sepax_kernel *k, size_t *compared, check_msg *msg) {
    enum { MAX = 40 };
    wl_rng r = {0x9053};
    size_t bad = 0, passed = 0, failed = 0;
    sepax_pose batch[MAX];
    for (int round = 0; round < 20000; round++) {
        int n = wl_range(&r, 0, MAX);
        /* mostly good poses with a few edge ones, so both answers come up */
        for (int i = 0; i < n; i++) {
            sepax_rotation q = sepax_rot((wl_unit(&r) - 0.5f) * 12.0f);
            batch[i] = (sepax_pose){{(wl_unit(&r) - 0.5f) * 100.0f, wl_unit(&r) * 50.0f}, q};
        }
        for (int e = wl_range(&r, 0, 2); e > 0 && n > 0; e--) {
            sepax_pose *p = &batch[wl_range(&r, 0, n - 1)];
            p->position = (sepax_vec2){edge_coord(&r), edge_coord(&r)};
            p->rotation = edge_rotation(&r);
        }
        int want = 1;
        for (int i = 0; i < n; i++) want &= sepax_pose_ok(&batch[i]);
        int got = k->poses_valid(batch, (size_t)n) != 0;
        (*compared)++;
        want ? passed++ : failed++;
        if (got != want && !bad++)
            snprintf(msg->text, sizeof msg->text,
                     "poses_valid, round %d (%d poses): %d, the rules one by one %d", round, n, got,
                     want);
    }
    if (passed < 1000 || failed < 1000) {
        snprintf(msg->text, sizeof msg->text,
                 "pose batches: %zu passed, %zu failed: too few of one", passed, failed);
        bad++;
    }
    /* whole blocks, transposed: every field of every lane where the plain loop puts it */
    enum { BLOCKS = 5 };
    sepax_pose poses[BLOCKS * SEPAX_BLOCK_LANES];
    sepax_pose_block got[BLOCKS + 1], want[BLOCKS + 1];
    for (int i = 0; i < BLOCKS * SEPAX_BLOCK_LANES; i++)
        poses[i] = (sepax_pose){{edge_coord(&r), edge_coord(&r)}, edge_rotation(&r)};
    memset(got, 0xA5, sizeof got);
    memcpy(want, got, sizeof want); /* the block past the last stays untouched */
    for (int b = 0; b < BLOCKS; b++)
        for (int l = 0; l < SEPAX_BLOCK_LANES; l++) {
            const sepax_pose *q = &poses[b * SEPAX_BLOCK_LANES + l];
            want[b].px[l] = q->position.x;
            want[b].py[l] = q->position.y;
            want[b].c[l] = q->rotation.c;
            want[b].s[l] = q->rotation.s;
        }
    k->poses_store(got, poses, BLOCKS);
    (*compared)++;
    if (memcmp(got, want, sizeof got) != 0 && !bad++)
        snprintf(msg->text, sizeof msg->text,
                 "poses_store: blocks differ from the plain transpose");
    return bad;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n) {
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* The reference's manifolds (margins 0 and 0.25), sweeps and raycasts of the pairs, hashed
 * into *h; 0 when memory runs out. */
static int motion_hash(const sepax_shapes *s, const sepax_pair *pairs, size_t n, uint64_t *h) {
    sepax_manifold *man = malloc(n * sizeof *man);
    sepax_vec2 *vel = malloc(n * sizeof *vel);
    sepax_ray *rays = malloc(n * sizeof *rays);
    uint32_t *ray_ids = malloc(n * sizeof *ray_ids);
    sepax_sweep_hit *sw = malloc(n * sizeof *sw);
    sepax_ray_hit *rh = malloc(n * sizeof *rh);
    int ok = man && vel && rays && ray_ids && sw && rh;
    if (ok) {
        sepax_query_options opt = {.margin = 0.25f};
        sepax_ref_collide_manifold(s, pairs, n, man);
        *h = fnv1a(*h, man, n * sizeof *man);
        sepax_ref_collide_manifold_opt(s, pairs, n, &opt, man);
        *h = fnv1a(*h, man, n * sizeof *man);
        wl_bench_motion(s, pairs, n, 7, vel, rays, ray_ids);
        sepax_ref_sweep(s, pairs, n, NULL, vel, sw);
        *h = fnv1a(*h, sw, n * sizeof *sw);
        sepax_ref_raycast(s, rays, ray_ids, n, rh);
        *h = fnv1a(*h, rh, n * sizeof *rh);
    }
    free(man);
    free(vel);
    free(rays);
    free(ray_ids);
    free(sw);
    free(rh);
    return ok;
}

uint64_t determinism_hash(void) {
    wl_config cfg = wl_default();
    cfg.pairs = 100000;
    cfg.kinds = WL_MIXED;
    uint64_t h = 0xcbf29ce484222325ull;
    sepax_shapes *s = sepax_shapes_create(cfg.shapes);
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    uint8_t *hit = malloc(cfg.pairs);
    sepax_hit *out = malloc(cfg.pairs * sizeof *out);
    if (!s || !pairs || !hit || !out || wl_fill_store(s, &cfg) != SEPAX_OK ||
        wl_make_pairs(s, &cfg, pairs) != SEPAX_OK) {
        h = 0;
        goto done;
    }
    for (uint32_t id = 0; id < cfg.shapes; id++) {
        sepax_shape_view v;
        sepax_shapes_view(s, id, &v);
        h = fnv1a(h, &v.count, sizeof v.count);
        h = fnv1a(h, &v.kind, sizeof v.kind);
        h = fnv1a(h, &v.radius, sizeof v.radius);
        const float *rows[5] = {v.x, v.y, v.nx, v.ny, v.c};
        for (int r = 0; r < 5; r++) h = fnv1a(h, rows[r], SEPAX_MAX_VERTS * sizeof(float));
    }
    h = fnv1a(h, pairs, cfg.pairs * sizeof *pairs);
    sepax_ref_overlap(s, pairs, cfg.pairs, hit);
    sepax_ref_collide(s, pairs, cfg.pairs, out);
    h = fnv1a(h, hit, cfg.pairs);
    h = fnv1a(h, out, cfg.pairs * sizeof *out);
    sepax_query_options opt = {.margin = 0.25f};
    sepax_ref_collide_opt(s, pairs, cfg.pairs, &opt, out);
    h = fnv1a(h, out, cfg.pairs * sizeof *out);
    /* manifolds, sweeps and raycasts too (since 2026-11-30): the kernels equal the reference on
     * each machine, and this pins the reference's bits across machines */
    if (!motion_hash(s, pairs, cfg.pairs, &h)) {
        h = 0;
        goto done;
    }
    for (int i = 0; i < 10000; i++) {
        sepax_rotation q = sepax_rot((float)(i - 5000) * 0.3711f);
        h = fnv1a(h, &q, sizeof q);
    }
done:
    sepax_shapes_destroy(s);
    free(pairs);
    free(hit);
    free(out);
    return h;
}

/* Angles that try every path of sepax_rot's batch: random bits over the whole float range
 * (NaNs, infinities and denormals among them), the domain's edges, signed zeros, and angles
 * at and around each quadrant's boundary (k * pi/4, where the reduction picks the next
 * quadrant). */
static size_t rot_angles(float *a, size_t cap) {
    size_t n = 0;
    const float edge[] = {0.0f,
                          -0.0f,
                          NAN,
                          -NAN,
                          INFINITY,
                          -INFINITY,
                          SEPAX_ROT_LIMIT,
                          -SEPAX_ROT_LIMIT,
                          nextafterf(SEPAX_ROT_LIMIT, INFINITY),
                          nextafterf(-SEPAX_ROT_LIMIT, -INFINITY),
                          1e-45f,
                          -1e-45f,
                          1e-38f,
                          3.14159265f,
                          -3.14159265f,
                          1.57079633f,
                          0.785398163f,
                          1e6f,
                          -999999.9f};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) a[n++] = edge[i];
    for (int k = -4000; k <= 4000 && n + 3 <= cap; k++) {
        float b = (float)((double)k * 0.78539816339744830962);
        a[n++] = b;
        a[n++] = nextafterf(b, INFINITY);
        a[n++] = nextafterf(b, -INFINITY);
    }
    uint32_t x = 12345u;
    while (n < cap) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        uint32_t bits = x;
        if (n % 3 == 0) /* |a| from about 1e-8 to 1e7 */
            bits = (bits & 0x807fffffu) | (uint32_t)(100 + x % 50) << 23;
        memcpy(&a[n++], &bits, sizeof bits);
    }
    return n;
}

size_t check_rot_kernel(const sepax_kernel *k, size_t *compared, check_msg *msg) {
    enum { N = 200003 }; /* not a multiple of 4: the tail too */
    static float a[N];
    static sepax_rotation want[N], got[N];
    size_t n = rot_angles(a, N), bad = 0;
    for (size_t i = 0; i < n; i++) want[i] = sepax_rot(a[i]);
    /* every start mod 4 (runs 0..3, to the end), so each angle is met in every lane, and every
     * length mod 4 (runs 0, 4..6: from the start, the end trimmed by 0..3), so the tail is
     * every size a 4-lane copy leaves */
    for (size_t run = 0; run < 7; run++) {
        size_t start = run < 4 ? run : 0, end = n - (run < 4 ? 0 : run - 3);
        memset(got, 0xa5, sizeof got);
        k->rot(a + start, end - start, got + start);
        for (size_t i = start; i < end; i++, (*compared)++)
            if (memcmp(&got[i], &want[i], sizeof got[i]) != 0 && bad++ == 0)
                snprintf(msg->text, sizeof msg->text,
                         "angle %a (index %zu, from %zu): (%a, %a), sepax_rot (%a, %a)",
                         (double)a[i], i, start, (double)got[i].c, (double)got[i].s,
                         (double)want[i].c, (double)want[i].s);
        for (size_t i = 0; i < start; i++) {
            uint32_t c;
            memcpy(&c, &got[i].c, sizeof c);
            if (c != 0xa5a5a5a5u && bad++ == 0)
                snprintf(msg->text, sizeof msg->text, "wrote before its out (index %zu)", i);
        }
        for (size_t i = end; i < (size_t)N; i++) {
            uint32_t c;
            memcpy(&c, &got[i].c, sizeof c);
            if (c != 0xa5a5a5a5u && bad++ == 0)
                snprintf(msg->text, sizeof msg->text, "wrote past its n (index %zu)", i);
        }
    }
    return bad;
}
