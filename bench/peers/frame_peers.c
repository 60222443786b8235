/* sepax-bench-frame-peers: a scene's frames through sepax (sepax_find_contacts, one thread)
 * and, side by side, through Box2D 2.4 (b2DynamicTree + b2TestOverlap) and Chipmunk 7
 * (cpSpaceHash + cpShapesCollide), and the contact pair sets compared frame by frame.
 *
 *   sepax-bench-frame-peers [--scene bullet-hell|particles] [--n N] [--frames F]
 *       [--warmup W] [--seed S] [--peers LIST] [--cp-cell E] [--cp-cells K]
 *       [--export FILE] [--js-pairs FILE] [--update frame|lazy] [--evict MB]
 *
 * Frames W .. W+F-1 are measured (0 .. W-1 warm up); each figure is the median over the
 * measured frames. Each engine's timed frame (sepax's two runs, each C or C++ peer's) starts
 * after MB MiB (default 64, twice this host's L3) were written and read, so none finds its
 * data in the caches because it ran just before, or because another run read the same store
 * (detect-collisions runs its frames in node, one after another, without this). Every engine
 * gets the same poses (scene_poses) and the scene's filter rule (sepax's: a.category & b.mask
 * and b.category & a.mask). A peer's contacts are compared with
 * sepax_find_contacts(SEPAX_TEST_OVERLAP, margin 0): pairs only in sepax, only in the peer,
 * and each difference classified by sepax's own separation of that pair (sepax_collide_opt
 * with margin 1, separation = -depth):
 *   skin      only in Box2D, 0 < separation <= its polygons' b2_polygonRadius each (0.01 of
 *             Box2D's units: 0.01 px as given by default, P / 100 px with
 *             --box2d-px-per-metre P, a power of two, frame_box2d.cc)
 *   near-tie  |separation| <= TIE (1e-3 px): float rounding of world data or a peer's
 *             GJK / EPA tolerance decides the pair either way
 *   other     anything else: unexplained (printed, with the frame, for a reproducer)
 * Box2D runs twice: as engines run it (polygons with their skin) and with m_radius = 0.
 * For Box2D with skin, a second sepax run with margin 2 * b2_polygonRadius + TIE must contain
 * every Box2D pair ("outside margin run").
 * sepax runs each frame twice more, timed apart: sepax_find_contacts(SEPAX_TEST_MANIFOLD), the
 * like-for-like work of Chipmunk's cpShapesCollide (contact points) and detect-collisions'
 * response, whose "x sepax" is against that row; Box2D's b2TestOverlap is a yes/no test, so its
 * "x sepax" is against the overlap row. The manifold run must find the overlap run's pairs.
 * Also checked: sepax_overlap over each peer's candidate pairs (which contain every pair whose
 * tight boxes overlap) must give exactly sepax_find_contacts' pairs: a check of sepax's grid.
 *
 * --export FILE writes frames 0 .. W+F-1 of the scene for bench/peers/js/frame.mjs (format in
 * scenes.h; W in the header's last word) and runs nothing else. --js-pairs FILE reads what
 * frame.mjs wrote (its timings and pairs) and compares it like the other peers. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_peers.h"

#define TIE 1e-3f

typedef struct opts {
    const char *scene, *peers, *export_path, *js_path;
    uint32_t n, frames, warmup;
    uint64_t seed;
    double cp_cell;
    int cp_cells;
    int update;        /* sepax's frame: SEPAX_UPDATE_FRAME or SEPAX_UPDATE_LAZY */
    uint32_t evict;    /* MiB read and written before each engine's timed frame */
    float box2d_scale; /* the scene's pixels a Box2D metre */
} opts;

static void usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s [--scene bullet-hell|particles] [--n N] [--frames F] [--warmup W]\n"
            "  [--seed S] [--peers box2d,box2d-sharp,chipmunk] [--cp-cell E] [--cp-cells K]\n"
            "  [--export FILE] [--js-pairs FILE] [--update frame|lazy] [--evict MB]\n"
            "  [--box2d-px-per-metre P]\n",
            argv0);
    exit(2);
}

/* 1 when the comma-separated list has `name` */
static int has_token(const char *list, const char *name) {
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, len) == 0) return 1;
        p += n + (end != NULL);
    }
    return 0;
}

/* ---- pair sets ---- */

static int pair_cmp(const void *x, const void *y) {
    const sepax_pair *a = x, *b = y;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

static sepax_pair *sorted_copy(const sepax_pair *p, size_t n) {
    sepax_pair *s = frame_xmalloc(n * sizeof *s);
    memcpy(s, p, n * sizeof *s);
    qsort(s, n, sizeof *s, pair_cmp);
    return s;
}

/* a's pairs not in b (both sorted) into out; returns how many */
static size_t minus(const sepax_pair *a, size_t na, const sepax_pair *b, size_t nb,
                    sepax_pair *out) {
    size_t i = 0, j = 0, k = 0;
    while (i < na) {
        int c = j < nb ? pair_cmp(&a[i], &b[j]) : -1;
        if (c < 0)
            out[k++] = a[i++];
        else if (c > 0)
            j++;
        else
            i++, j++;
    }
    return k;
}

/* ---- per engine, per frame ---- */

enum { E_SEPAX, E_SEPAX_MANIFOLD, E_BOX2D, E_BOX2D_SHARP, E_CHIPMUNK, E_JS, E_COUNT };
static const char *const engine_names[E_COUNT] = {"sepax (1 thread, overlap)",
                                                  "sepax (1 thread, manifolds)",
                                                  "box2d 2.4 (skin)",
                                                  "box2d 2.4 (m_radius 0)",
                                                  "chipmunk 7",
                                                  "detect-collisions"};
/* the sepax row each engine's "x sepax" is taken against: the same kind of answer */
static const int like_for_like[E_COUNT] = {E_SEPAX, E_SEPAX,          E_SEPAX,
                                           E_SEPAX, E_SEPAX_MANIFOLD, E_SEPAX_MANIFOLD};

typedef struct stats {
    int on;
    double *update, *broad, *narrow, *total; /* ms per measured frame */
    size_t *candidates, *contacts;
    size_t only_sepax, only_peer, skin, tie_sepax, tie_peer, other, outside_margin;
    size_t grid_diff; /* sepax_overlap over this peer's candidates vs sepax_find_contacts */
    float worst_tie;
    uint32_t frames;
} stats;

static void stats_init(stats *s, uint32_t frames) {
    memset(s, 0, sizeof *s);
    s->on = 1;
    s->update = frame_xmalloc(frames * sizeof(double));
    s->broad = frame_xmalloc(frames * sizeof(double));
    s->narrow = frame_xmalloc(frames * sizeof(double));
    s->total = frame_xmalloc(frames * sizeof(double));
    s->candidates = frame_xmalloc(frames * sizeof(size_t));
    s->contacts = frame_xmalloc(frames * sizeof(size_t));
}

static void stats_free(stats *s) {
    free(s->update);
    free(s->broad);
    free(s->narrow);
    free(s->total);
    free(s->candidates);
    free(s->contacts);
}

/* sepax's separation of each pair (margin 1: beyond it, 1 + 1) */
static void separations(sepax_shapes *store, const sepax_pair *p, size_t n, float *sep) {
    if (n == 0) return;
    sepax_hit *h = frame_xmalloc(n * sizeof *h);
    sepax_query_options o = {.margin = 1.0f};
    sepax_status st = sepax_collide_opt(store, p, n, &o, h);
    if (st != SEPAX_OK) frame_die("sepax_collide_opt", st);
    for (size_t i = 0; i < n; i++) sep[i] = h[i].hit ? -h[i].depth : 2.0f;
    free(h);
}

static float polygon_skin(const scene *sc, uint32_t i, float skin) {
    return scene_shape_at(sc, i)->kind == SEPAX_KIND_POLYGON ? skin : 0.0f;
}

static void report_other(const char *engine, uint32_t frame, const char *side, sepax_pair p,
                         float sep, size_t *printed) {
    if ((*printed)++ < 10)
        fprintf(stderr, "unexplained: %s frame %u pair (%u, %u) only in %s, sepax separation %g\n",
                engine, frame, p.a, p.b, side, (double)sep);
}

/* compare a peer's contacts (any order) with sepax's (sorted), classify the differences */
static void compare(stats *st, const char *engine, uint32_t frame, const scene *sc,
                    sepax_shapes *store, const sepax_pair *sepax_sorted, size_t ns,
                    const sepax_pair *peer, size_t np, float skin, size_t *printed) {
    sepax_pair *ps = sorted_copy(peer, np);
    sepax_pair *only_s = frame_xmalloc(ns * sizeof *only_s),
               *only_p = frame_xmalloc(np * sizeof *only_p);
    size_t a = minus(sepax_sorted, ns, ps, np, only_s), b = minus(ps, np, sepax_sorted, ns, only_p);
    st->only_sepax += a;
    st->only_peer += b;
    float *sa = frame_xmalloc((a + 1) * sizeof *sa), *sb = frame_xmalloc((b + 1) * sizeof *sb);
    separations(store, only_s, a, sa);
    separations(store, only_p, b, sb);
    for (size_t k = 0; k < a; k++) {
        if (sa[k] >= -TIE && sa[k] <= 0) {
            st->tie_sepax++;
            if (-sa[k] > st->worst_tie) st->worst_tie = -sa[k];
        } else {
            st->other++;
            report_other(engine, frame, "sepax", only_s[k], sa[k], printed);
        }
    }
    for (size_t k = 0; k < b; k++) {
        float allow = polygon_skin(sc, only_p[k].a, skin) + polygon_skin(sc, only_p[k].b, skin);
        if (sb[k] > 0 && sb[k] <= allow + TIE && allow > 0) {
            st->skin++;
        } else if (sb[k] >= -TIE && sb[k] <= TIE) {
            st->tie_peer++;
            float m = sb[k] < 0 ? -sb[k] : sb[k];
            if (m > st->worst_tie) st->worst_tie = m;
        } else {
            st->other++;
            report_other(engine, frame, engine, only_p[k], sb[k], printed);
        }
    }
    free(sa);
    free(sb);
    free(ps);
    free(only_s);
    free(only_p);
}

/* sepax_overlap over a peer's candidates: must be sepax_find_contacts' pairs exactly */
static size_t grid_check(sepax_shapes *store, const sepax_pair *cand, size_t nc,
                         const sepax_pair *sepax_sorted, size_t ns) {
    uint8_t *hit = frame_xmalloc(nc);
    if (nc) {
        sepax_status st = sepax_overlap(store, cand, nc, hit);
        if (st != SEPAX_OK) frame_die("sepax_overlap", st);
    }
    sepax_pair *h = frame_xmalloc(nc * sizeof *h);
    size_t k = 0;
    for (size_t i = 0; i < nc; i++)
        if (hit[i]) h[k++] = cand[i];
    qsort(h, k, sizeof *h, pair_cmp);
    sepax_pair *d = frame_xmalloc((k + ns) * sizeof *d);
    size_t diff = minus(h, k, sepax_sorted, ns, d) + minus(sepax_sorted, ns, h, k, d);
    free(hit);
    free(h);
    free(d);
    return diff;
}

/* ---- sepax ---- */

typedef struct sepax_run {
    sepax_broadphase *bp;
    sepax_pair *pairs;
    sepax_manifold *mans; /* SEPAX_TEST_MANIFOLD's */
    size_t cap;
} sepax_run;

static size_t sepax_frame(sepax_run *r, sepax_shapes *store, int update, float margin, int test) {
    sepax_frame_options o = {test, margin, 0.0f, update};
    for (;;) {
        sepax_contacts out = {r->pairs, NULL, test == SEPAX_TEST_MANIFOLD ? r->mans : NULL, r->cap};
        size_t count = 0;
        sepax_status st = sepax_find_contacts(r->bp, store, &o, &out, &count);
        if (st == SEPAX_OK) return count;
        if (st != SEPAX_ERR_CAPACITY) frame_die("sepax_find_contacts", st);
        free(r->pairs);
        free(r->mans);
        r->cap = count + count / 4 + 1024;
        r->pairs = frame_xmalloc(r->cap * sizeof *r->pairs);
        r->mans = test == SEPAX_TEST_MANIFOLD ? frame_xmalloc(r->cap * sizeof *r->mans) : NULL;
    }
}

/* One timed sepax frame from the poses on: set_poses, then sepax_find_contacts; poses_ms is
 * the set_poses part, count the frame's result count. */
typedef struct timed {
    double total_ms, poses_ms;
    size_t count;
} timed;

static timed sepax_timed(sepax_run *r, sepax_shapes *store, const sepax_pose *poses, uint32_t count,
                         int update, int test, uint32_t evict) {
    frame_evict(evict);
    double t0 = frame_now_ns();
    sepax_status st = sepax_shapes_set_poses(store, 0, count, poses);
    if (st != SEPAX_OK) frame_die("sepax_shapes_set_poses", st);
    double t1 = frame_now_ns();
    size_t n = sepax_frame(r, store, update, 0.0f, test);
    double t2 = frame_now_ns();
    timed t = {(t2 - t0) / 1e6, (t1 - t0) / 1e6, n};
    return t;
}

/* A measured sepax frame's figures: the call's own phases (poses + update, grid, pairing
 * with the test + copy) from its broadphase stats. */
static void record_sepax(stats *t, uint32_t m, const timed *run, const sepax_broadphase_stats *b) {
    t->total[m] = run->total_ms;
    t->update[m] = run->poses_ms + b->update_ns / 1e6;
    t->broad[m] = b->grid_ns / 1e6;
    t->narrow[m] = (b->pairs_ns + b->copy_ns) / 1e6;
    t->candidates[m] = b->candidates;
    t->contacts[m] = run->count;
}

/* ---- detect-collisions' pairs file (frame.mjs) ----
 * "SPXP", u32 version 1, u32 frames, u32 first frame; per frame: f32 update ms, f32 broad
 * ms, f32 narrow ms, u32 candidates, u32 contacts, contacts x (u32 a, u32 b). */
typedef struct js_file {
    FILE *f;
    uint32_t frames, first;
} js_file;

static uint32_t get_u32(FILE *f) {
    unsigned char b[4] = {0};
    if (fread(b, 1, 4, f) != 4) {
        fprintf(stderr, "sepax-bench-frame-peers: the pairs file is short\n");
        exit(1);
    }
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static float get_f32(FILE *f) {
    uint32_t v = get_u32(f);
    float x;
    memcpy(&x, &v, 4);
    return x;
}

int main(int argc, char **argv) {
    frame_set_name("sepax-bench-frame-peers");
    opts o = {"bullet-hell", NULL, NULL, NULL, 10000, 10, 3, 0, 0, 0, SEPAX_UPDATE_FRAME, 64, 1.0f};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage(argv[0]);
        i++;
        if (strcmp(a, "--scene") == 0)
            o.scene = v;
        else if (strcmp(a, "--n") == 0)
            o.n = (uint32_t)strtoul(v, 0, 10);
        else if (strcmp(a, "--frames") == 0)
            o.frames = (uint32_t)strtoul(v, 0, 10);
        else if (strcmp(a, "--warmup") == 0)
            o.warmup = (uint32_t)strtoul(v, 0, 10);
        else if (strcmp(a, "--seed") == 0)
            o.seed = strtoull(v, 0, 0);
        else if (strcmp(a, "--peers") == 0)
            o.peers = v;
        else if (strcmp(a, "--cp-cell") == 0)
            o.cp_cell = atof(v);
        else if (strcmp(a, "--cp-cells") == 0)
            o.cp_cells = atoi(v);
        else if (strcmp(a, "--export") == 0)
            o.export_path = v;
        else if (strcmp(a, "--js-pairs") == 0)
            o.js_path = v;
        else if (strcmp(a, "--update") == 0 && strcmp(v, "frame") == 0)
            o.update = SEPAX_UPDATE_FRAME;
        else if (strcmp(a, "--update") == 0 && strcmp(v, "lazy") == 0)
            o.update = SEPAX_UPDATE_LAZY;
        else if (strcmp(a, "--evict") == 0)
            o.evict = frame_arg_u32(v);
        else if (strcmp(a, "--box2d-px-per-metre") == 0)
            o.box2d_scale = (float)atof(v);
        else
            usage(argv[0]);
    }
    int scale_exp;
    /* a power of two: Box2D's coordinates are then the scene's exactly (frame_box2d.cc) */
    if (o.frames < 1 || !(o.box2d_scale > 0.0f && o.box2d_scale < 1e30f) ||
        frexpf(o.box2d_scale, &scale_exp) != 0.5f)
        usage(argv[0]);
    scene *sc = scene_create(o.scene, o.n, o.seed);
    if (!sc) {
        fprintf(stderr, "sepax-bench-frame-peers: cannot make scene %s with n = %u\n", o.scene,
                o.n);
        return 2;
    }
    uint32_t count = scene_count(sc), total = o.warmup + o.frames;

    if (o.export_path) {
        FILE *f = fopen(o.export_path, "wb");
        if (!f || scene_export(sc, 0, total, f) != 0) {
            fprintf(stderr, "sepax-bench-frame-peers: cannot write %s\n", o.export_path);
            return 1;
        }
        /* the header's last word: the warm-up frames */
        unsigned char w[4] = {(unsigned char)o.warmup, (unsigned char)(o.warmup >> 8),
                              (unsigned char)(o.warmup >> 16), (unsigned char)(o.warmup >> 24)};
        if (fseek(f, 28, SEEK_SET) != 0 || fwrite(w, 1, 4, f) != 4 || fclose(f) != 0) {
            fprintf(stderr, "sepax-bench-frame-peers: cannot write %s\n", o.export_path);
            return 1;
        }
        printf("exported %s: %u shapes, frames 0..%u (%u warm-up)\n", o.export_path, count,
               total - 1, o.warmup);
        scene_destroy(sc);
        return 0;
    }

    int want[E_COUNT] = {1, 1, 0, 0, 0, 0};
    const char *peers = o.peers ? o.peers : "box2d,box2d-sharp,chipmunk";
#ifdef SEPAX_PEER_BOX2D
    want[E_BOX2D] = has_token(peers, "box2d");
    want[E_BOX2D_SHARP] = has_token(peers, "box2d-sharp");
#endif
#ifdef SEPAX_PEER_CHIPMUNK
    want[E_CHIPMUNK] = has_token(peers, "chipmunk");
#endif
    js_file js = {NULL, 0, 0};
    if (o.js_path) {
        js.f = fopen(o.js_path, "rb");
        char magic[4];
        if (!js.f || fread(magic, 1, 4, js.f) != 4 || memcmp(magic, "SPXP", 4) != 0 ||
            get_u32(js.f) != 1) {
            fprintf(stderr, "sepax-bench-frame-peers: cannot read %s\n", o.js_path);
            return 1;
        }
        js.frames = get_u32(js.f);
        js.first = get_u32(js.f);
        if (js.first != 0 || js.frames != total) {
            fprintf(stderr, "sepax-bench-frame-peers: %s has frames %u..%u, not 0..%u\n", o.js_path,
                    js.first, js.first + js.frames - 1, total - 1);
            return 1;
        }
        want[E_JS] = 1;
    }

    sepax_shapes *store = sepax_shapes_create(count);
    if (!store) frame_die("sepax_shapes_create", SEPAX_ERR_NOMEM);
    sepax_status st = scene_add_to(sc, store);
    if (st != SEPAX_OK) frame_die("scene_add_to", st);
    st = sepax_shapes_update(store);
    if (st != SEPAX_OK) frame_die("sepax_shapes_update", st);
    sepax_run run = {sepax_broadphase_create(NULL), NULL, NULL, 0};
    sepax_run man_run = {sepax_broadphase_create(NULL), NULL, NULL, 0};
    sepax_run margin_run = {sepax_broadphase_create(NULL), NULL, NULL, 0};
    if (!run.bp || !man_run.bp || !margin_run.bp)
        frame_die("sepax_broadphase_create", SEPAX_ERR_NOMEM);

    /* Chipmunk's hash: cells about twice the median box, 2 buckets a shape unless told */
    double cell = o.cp_cell;
    if (cell <= 0) {
        double *ext = frame_xmalloc(count * sizeof *ext);
        for (uint32_t i = 0; i < count; i++) {
            sepax_aabb b;
            sepax_shapes_aabb(store, i, &b);
            double w = b.upper.x - b.lower.x, h = b.upper.y - b.lower.y;
            ext[i] = w > h ? w : h;
        }
        cell = 2 * frame_median(ext, count);
        free(ext);
    }
    int cells = o.cp_cells > 0 ? o.cp_cells : (int)(2 * (size_t)count);

    double t0 = frame_now_ns();
    frame_box2d *b2 = NULL, *b2s = NULL;
    frame_chipmunk *cp = NULL;
#ifdef SEPAX_PEER_BOX2D
    if (want[E_BOX2D] && !(b2 = frame_box2d_create(sc, 1, o.box2d_scale)))
        frame_die("frame_box2d_create", SEPAX_ERR_NOMEM);
    if (want[E_BOX2D_SHARP] && !(b2s = frame_box2d_create(sc, 0, o.box2d_scale)))
        frame_die("frame_box2d_create", SEPAX_ERR_NOMEM);
#endif
#ifdef SEPAX_PEER_CHIPMUNK
    if (want[E_CHIPMUNK] && !(cp = frame_chipmunk_create(sc, cell, cells)))
        frame_die("frame_chipmunk_create", SEPAX_ERR_NOMEM);
#endif
    double setup_ms = (frame_now_ns() - t0) / 1e6;

    stats s[E_COUNT];
    for (int e = 0; e < E_COUNT; e++) {
        if (want[e])
            stats_init(&s[e], o.frames);
        else
            memset(&s[e], 0, sizeof s[e]);
    }
    float skin = 0;
#ifdef SEPAX_PEER_BOX2D
    skin = frame_box2d_skin(o.box2d_scale);
#endif
    size_t printed = 0;
    sepax_pose *poses = frame_xmalloc(count * sizeof *poses);
    uint64_t checksum = 0;
    for (uint32_t f = 0; f < total; f++) {
        scene_poses(sc, f, poses);
        int measured = f >= o.warmup;
        uint32_t m = f - o.warmup;
        /* sepax: poses, then the whole frame in one call; for overlap and again for manifolds
         * (its own broadphase), the two in turn first so that neither always finds the other's
         * records in the caches */
        timed to, tm;
        if (f & 1) {
            tm = sepax_timed(&man_run, store, poses, count, o.update, SEPAX_TEST_MANIFOLD, o.evict);
            to = sepax_timed(&run, store, poses, count, o.update, SEPAX_TEST_OVERLAP, o.evict);
        } else {
            to = sepax_timed(&run, store, poses, count, o.update, SEPAX_TEST_OVERLAP, o.evict);
            tm = sepax_timed(&man_run, store, poses, count, o.update, SEPAX_TEST_MANIFOLD, o.evict);
        }
        size_t ns = to.count, nman = tm.count;
        if (nman != ns) {
            fprintf(stderr, "frame %u: %zu pairs with manifolds, %zu overlapping\n", f, nman, ns);
            return 1;
        }
        sepax_broadphase_stats bs, bm;
        sepax_broadphase_stats_get(run.bp, &bs);
        sepax_broadphase_stats_get(man_run.bp, &bm);
        /* the checks below read every record: a lazy frame's are brought up to date, untimed */
        if (o.update == SEPAX_UPDATE_LAZY) {
            st = sepax_shapes_update(store);
            if (st != SEPAX_OK) frame_die("sepax_shapes_update", st);
        }
        for (size_t k = 0; k < ns; k++)
            checksum = checksum * 31 + run.pairs[k].a * 7 + run.pairs[k].b;
        /* ids are indices (a fresh store): sort them for the comparisons */
        sepax_pair *ss = sorted_copy(run.pairs, ns), *sman = sorted_copy(man_run.pairs, nman);
        if (memcmp(ss, sman, ns * sizeof *ss) != 0) {
            fprintf(stderr, "frame %u: the manifold run's pairs are not the overlap run's\n", f);
            return 1;
        }
        free(sman);
        if (measured) {
            record_sepax(&s[E_SEPAX], m, &to, &bs);
            record_sepax(&s[E_SEPAX_MANIFOLD], m, &tm, &bm);
        }
        size_t nm = 0;
        sepax_pair *sm = NULL;
        if (want[E_BOX2D]) {
            nm = sepax_frame(&margin_run, store, SEPAX_UPDATE_NONE, 2 * skin + TIE,
                             SEPAX_TEST_OVERLAP);
            sm = sorted_copy(margin_run.pairs, nm);
        }
        for (int e = E_BOX2D; e <= E_JS; e++) {
            if (!want[e]) continue;
            frame_peer_result r;
            sepax_pair *jsp = NULL;
            if (e != E_JS) frame_evict(o.evict);
#ifdef SEPAX_PEER_BOX2D
            if (e == E_BOX2D) frame_box2d_step(b2, poses, &r);
            if (e == E_BOX2D_SHARP) frame_box2d_step(b2s, poses, &r);
#endif
#ifdef SEPAX_PEER_CHIPMUNK
            if (e == E_CHIPMUNK) frame_chipmunk_step(cp, poses, &r);
#endif
            if (e == E_JS) {
                r.update_ns = get_f32(js.f) * 1e6;
                r.broad_ns = get_f32(js.f) * 1e6;
                r.narrow_ns = get_f32(js.f) * 1e6;
                r.candidates = get_u32(js.f);
                r.contacts = get_u32(js.f);
                jsp = frame_xmalloc(r.contacts * sizeof *jsp);
                for (size_t k = 0; k < r.contacts; k++) {
                    uint32_t x = get_u32(js.f), y = get_u32(js.f);
                    jsp[k] = (sepax_pair){x < y ? x : y, x < y ? y : x};
                }
                r.pairs = jsp;
                r.candidate = NULL;
            }
            if (!measured) {
                free(jsp);
                continue;
            }
            stats *t = &s[e];
            t->update[m] = r.update_ns / 1e6;
            t->broad[m] = r.broad_ns / 1e6;
            t->narrow[m] = r.narrow_ns / 1e6;
            t->total[m] = (r.update_ns + r.broad_ns + r.narrow_ns) / 1e6;
            t->candidates[m] = r.candidates;
            t->contacts[m] = r.contacts;
            compare(t, engine_names[e], f, sc, store, ss, ns, r.pairs, r.contacts,
                    e == E_BOX2D ? skin : 0.0f, &printed);
            if (e == E_BOX2D) {
                sepax_pair *ps = sorted_copy(r.pairs, r.contacts);
                sepax_pair *d = frame_xmalloc((r.contacts + 1) * sizeof *d);
                t->outside_margin += minus(ps, r.contacts, sm, nm, d);
                free(d);
                free(ps);
            }
            if (r.candidate) t->grid_diff += grid_check(store, r.candidate, r.candidates, ss, ns);
            free(jsp);
        }
        free(sm);
        free(ss);
    }

    sepax_broadphase_stats bs;
    sepax_broadphase_stats_get(run.bp, &bs);
    printf("# sepax-bench-frame-peers --scene %s --n %u --frames %u --warmup %u --seed %llu",
           o.scene, o.n, o.frames, o.warmup, (unsigned long long)o.seed);
    if (o.peers) printf(" --peers %s", o.peers);
    printf(" --evict %u --box2d-px-per-metre %g", o.evict, (double)o.box2d_scale);
    if (o.js_path) printf(" --js-pairs %s", o.js_path);
    printf(" --update %s", o.update == SEPAX_UPDATE_LAZY ? "lazy" : "frame");
    printf("\n# %s, %u shapes; backend %s; chipmunk hash cell %.1f, %d buckets; peers' setup "
           "%.0f ms; sepax contacts checksum %016llx\n",
           scene_name(sc), count, sepax_backend_name(sepax_get_backend()), cell, cells, setup_ms,
           (unsigned long long)checksum);
    printf("# median over %u frames, ms per frame; sepax: set_poses + sepax_find_contacts"
           "(OVERLAP or MANIFOLD, SEPAX_UPDATE_%s) in one call; x sepax: against sepax's overlap "
           "row for Box2D (b2TestOverlap, yes or no), its manifold row for Chipmunk "
           "(cpShapesCollide's contact points) and detect-collisions (its response)\n\n",
           o.frames, o.update == SEPAX_UPDATE_LAZY ? "LAZY" : "FRAME");
    printf("| engine | update | broadphase | narrowphase | total ms | x sepax | candidates | "
           "contacts | only sepax | only peer | skin | near-tie | unexplained | grid check |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int e = 0; e < E_COUNT; e++) {
        if (!want[e]) continue;
        stats *t = &s[e];
        double tot = frame_median(t->total, o.frames);
        double sepax_ms = frame_median(s[like_for_like[e]].total, o.frames);
        if (e <= E_SEPAX_MANIFOLD)
            printf("| %s | %.3f | %.3f | %.3f | %.3f | %s | %.0f | %.0f | | | | | | |\n",
                   engine_names[e], frame_median(t->update, o.frames),
                   frame_median(t->broad, o.frames), frame_median(t->narrow, o.frames), tot,
                   e == E_SEPAX ? "1.0" : "", frame_median_sz(t->candidates, o.frames),
                   frame_median_sz(t->contacts, o.frames));
        else
            printf("| %s | %.3f | %.3f | %.3f | %.3f | %.1f | %.0f | %.0f | %zu | %zu | %zu | %zu "
                   "| %zu | %s |\n",
                   engine_names[e], frame_median(t->update, o.frames),
                   frame_median(t->broad, o.frames), frame_median(t->narrow, o.frames), tot,
                   tot / sepax_ms, frame_median_sz(t->candidates, o.frames),
                   frame_median_sz(t->contacts, o.frames), t->only_sepax, t->only_peer, t->skin,
                   t->tie_sepax + t->tie_peer, t->other,
                   e == E_JS ? "-" : (t->grid_diff ? "DIFFERS" : "ok"));
    }
    float worst_tie = 0;
    for (int e = 0; e < E_COUNT; e++)
        if (s[e].worst_tie > worst_tie) worst_tie = s[e].worst_tie;
    printf("\n# sepax's columns are its call's phases (sepax_broadphase_stats): update = "
           "set_poses + update_ns, broadphase = grid_ns, narrowphase = pairs_ns + copy_ns "
           "(the pairing and the test run together); each column is its own median\n");
    printf("# pair counts (only sepax, only peer, ...) are summed over the %u frames; near-tie: "
           "|separation| <= %g px (worst %g); skin: Box2D pairs apart by at most its polygons' "
           "b2_polygonRadius (%g each)\n",
           o.frames, (double)TIE, (double)worst_tie, (double)skin);
    if (want[E_BOX2D])
        printf("# box2d (skin) pairs outside sepax's margin run (margin %g): %zu\n",
               (double)(2 * skin + TIE), s[E_BOX2D].outside_margin);
    printf("# grid check: sepax_overlap over each peer's candidates gives sepax_find_contacts' "
           "pairs exactly (ok) or not (DIFFERS: %zu, %zu, %zu pairs)\n",
           s[E_BOX2D].grid_diff, s[E_BOX2D_SHARP].grid_diff, s[E_CHIPMUNK].grid_diff);
    size_t unexplained = 0;
    for (int e = E_BOX2D; e < E_COUNT; e++) unexplained += s[e].other + s[e].grid_diff;

    for (int e = 0; e < E_COUNT; e++) stats_free(&s[e]);
    free(poses);
    free(run.pairs);
    free(run.mans);
    free(man_run.pairs);
    free(man_run.mans);
    free(margin_run.pairs);
    free(margin_run.mans);
    sepax_broadphase_destroy(run.bp);
    sepax_broadphase_destroy(man_run.bp);
    sepax_broadphase_destroy(margin_run.bp);
#ifdef SEPAX_PEER_BOX2D
    frame_box2d_destroy(b2);
    frame_box2d_destroy(b2s);
#endif
#ifdef SEPAX_PEER_CHIPMUNK
    frame_chipmunk_destroy(cp);
#endif
    if (js.f) fclose(js.f);
    sepax_shapes_destroy(store);
    scene_destroy(sc);
    return unexplained ? 3 : 0;
}
