/* Rays through a scene: the closest shape each of R rays hits, from random points of the
 * field in random directions, L units long, on frame 0 of an embedded scene (bench/scenes.h)
 * with its grid built. Side by side, on the same rays (median of --reps runs, ns a ray):
 *   closest     sepax_broadphase_raycast_closest, every ray in one call;
 *   every hit   sepax_broadphase_query_ray per ray, then the least fraction (lowest index);
 *   brute       sepax_raycast_range over every shape, then the least (the first 200 rays);
 *   Box2D 2.4   b2DynamicTree::RayCast with a closest-hit callback (when built with it).
 * The answers are compared: the three of sepax must name the same shape with the same bits
 * (the program fails otherwise); Box2D's differences are counted and sorted (a ray starting
 * inside a shape: sepax hits at fraction 0, Box2D skips that shape).
 *
 *   sepax-bench-rays [--scene NAME] [--n N] [--rays R] [--length L[,L...]] [--reps K]
 *                    [--from inside|edge]
 *   (defaults: bullet-hell 100000 10000 100,1000 5 inside)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_util.h"
#include "scenes.h"
#ifdef SEPAX_PEER_BOX2D
#include "rays_peers.h"
#endif

enum { MAX_LENGTHS = 8, BRUTE_RAYS = 200 };

typedef struct options {
    const char *scene;
    uint32_t n, rays, reps, nlengths;
    int from_edge;
    float length[MAX_LENGTHS];
} options;

static void usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s [--scene NAME] [--n N] [--rays R] [--length L[,L...]] [--reps K] "
            "[--from inside|edge]\n",
            argv0);
    exit(2);
}

static options parse(int argc, char **argv) {
    options o = {"bullet-hell", 100000, 10000, 5, 2, 0, {100.0f, 1000.0f}};
    if (argc % 2 == 0) usage(argv[0]);
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *v = argv[i + 1];
        if (!strcmp(argv[i], "--scene"))
            o.scene = v;
        else if (!strcmp(argv[i], "--n"))
            o.n = frame_arg_u32(v);
        else if (!strcmp(argv[i], "--rays"))
            o.rays = frame_arg_u32(v);
        else if (!strcmp(argv[i], "--reps"))
            o.reps = frame_arg_u32(v);
        else if (!strcmp(argv[i], "--from")) {
            if (strcmp(v, "inside") && strcmp(v, "edge")) usage(argv[0]);
            o.from_edge = !strcmp(v, "edge");
        } else if (!strcmp(argv[i], "--length")) {
            o.nlengths = 0;
            for (const char *at = v; *at && o.nlengths < MAX_LENGTHS;) {
                char *end;
                float l = strtof(at, &end);
                if (end == at || !(l > 0.0f) || l > 1e6f) usage(argv[0]);
                o.length[o.nlengths++] = l;
                at = *end == ',' ? end + 1 : end;
            }
        } else
            usage(argv[0]);
    }
    if (o.rays == 0 || o.reps == 0 || o.nlengths == 0) usage(argv[0]);
    return o;
}

/* The least fraction among hits[0 .. n-1] (of equals, the lowest index), as the index into
 * hits; n when none hit. */
static size_t least(const uint32_t *ids, const sepax_ray_hit *hits, size_t n) {
    size_t best = n;
    for (size_t k = 0; k < n; k++) {
        if (!hits[k].hit) continue;
        uint32_t i = ids[k] & SEPAX_ID_INDEX_MASK;
        if (best == n || hits[k].fraction < hits[best].fraction ||
            (hits[k].fraction == hits[best].fraction && i < (ids[best] & SEPAX_ID_INDEX_MASK)))
            best = k;
    }
    return best;
}

static int same(uint32_t ia, const sepax_ray_hit *a, uint32_t ib, const sepax_ray_hit *b) {
    return ia == ib && memcmp(a, b, sizeof *a) == 0;
}

int main(int argc, char **argv) {
    frame_set_name("sepax-bench-rays");
    options o = parse(argc, argv);
    scene *sc = scene_create(o.scene, o.n, 0);
    if (!sc) frame_die("unknown scene or n", SEPAX_ERR_BAD_OPTION);
    uint32_t count = scene_count(sc);
    sepax_shapes *store = sepax_shapes_create(count);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    if (!store || !bp) frame_die("create", SEPAX_ERR_NOMEM);
    sepax_status st = scene_add_to(sc, store);
    if (st == SEPAX_OK) st = sepax_shapes_update(store);
    if (st == SEPAX_OK) st = sepax_broadphase_build(bp, store, 0.0f);
    if (st != SEPAX_OK) frame_die("scene", st);
    sepax_broadphase_stats bs;
    sepax_broadphase_stats_get(bp, &bs);
    float w, h;
    scene_field(sc, &w, &h);
    uint32_t nr = o.rays;
    sepax_ray *rays = frame_xmalloc(nr * sizeof *rays);
    uint32_t *ids = frame_xmalloc(nr * sizeof *ids),
             *all_ids = frame_xmalloc((size_t)count * sizeof *all_ids),
             *shape_ids = frame_xmalloc((size_t)count * sizeof *shape_ids);
    for (uint32_t i = 0; i < count; i++) shape_ids[i] = sepax_shapes_id(store, i);
    sepax_ray_hit *hits = frame_xmalloc(nr * sizeof *hits);
    sepax_ray_hit *all = frame_xmalloc((size_t)count * sizeof *all);
    uint32_t *every_id = frame_xmalloc(nr * sizeof *every_id);
    sepax_ray_hit *every_hit = frame_xmalloc(nr * sizeof *every_hit);
    double *t = frame_xmalloc(o.reps * sizeof *t);
#ifdef SEPAX_PEER_BOX2D
    rays_box2d *b2 = rays_box2d_create(sc);
    if (!b2) frame_die("Box2D", SEPAX_ERR_NOMEM);
    uint32_t *b2_index = frame_xmalloc(nr * sizeof *b2_index);
    float *b2_fraction = frame_xmalloc(nr * sizeof *b2_fraction);
#endif
    printf("%s n=%u: %u shapes, grid %u x %u cells of %.2f, %u large; %u rays %s, none "
           "starting inside a shape; backend %s\n",
           o.scene, o.n, count, bs.cells_x, bs.cells_y, (double)bs.cell_size, bs.large, nr,
           o.from_edge ? "from the field's border inward" : "from random points, every way",
           sepax_backend_name(sepax_get_backend()));
    printf("%8s  %12s %12s %12s %12s  %s\n", "length", "closest", "every hit", "brute", "Box2D 2.4",
           "(ns a ray, median of runs; hits)");
    int failed = 0;
    for (uint32_t li = 0; li < o.nlengths; li++) {
        uint64_t g = 0x9e3779b97f4a7c15ull + li;
        uint64_t tries = 0;
        for (uint32_t k = 0; k < nr;) {
            float len = o.length[li];
            if (o.from_edge) { /* from a point of the field's border toward one inside it */
                float u = frame_unit(&g), side = frame_unit(&g);
                sepax_vec2 from = side < 0.25f   ? (sepax_vec2){u * w, 0.0f}
                                  : side < 0.5f  ? (sepax_vec2){u * w, h}
                                  : side < 0.75f ? (sepax_vec2){0.0f, u * h}
                                                 : (sepax_vec2){w, u * h};
                float tx = w * frame_unit(&g) - from.x, ty = h * frame_unit(&g) - from.y;
                float d = sqrtf(tx * tx + ty * ty);
                d = d > 0.0f ? d : 1.0f;
                rays[k] = (sepax_ray){from, {len * tx / d, len * ty / d}, 1.0f};
            } else {
                sepax_rotation r = sepax_rot(6.2831853f * frame_unit(&g));
                rays[k] = (sepax_ray){
                    {w * frame_unit(&g), h * frame_unit(&g)}, {len * r.c, len * r.s}, 1.0f};
            }
            /* a ray that starts inside a shape hits it at fraction 0 in sepax and is
             * not a hit in Box2D: such rays are drawn again, so that both look as far */
            uint32_t id;
            sepax_ray_hit first;
            st = sepax_broadphase_raycast_closest(bp, store, &rays[k], NULL, 1, &id, &first);
            if (st != SEPAX_OK) frame_die("raycast_closest", st);
            if (++tries > 1000ull * nr) frame_die("rays: every ray starts inside", SEPAX_ERR_COUNT);
            k += !(id != SEPAX_NO_ID && first.fraction == 0.0f);
        }
        for (uint32_t rep = 0; rep < o.reps; rep++) {
            double t0 = frame_now_ns();
            st = sepax_broadphase_raycast_closest(bp, store, rays, NULL, nr, ids, hits);
            t[rep] = (frame_now_ns() - t0) / nr;
            if (st != SEPAX_OK) frame_die("raycast_closest", st);
        }
        double closest_ns = frame_median(t, o.reps);
        for (uint32_t rep = 0; rep < o.reps; rep++) {
            double t0 = frame_now_ns();
            for (uint32_t k = 0; k < nr; k++) {
                size_t got;
                st = sepax_broadphase_query_ray(bp, store, &rays[k], all_ids, all, count, &got);
                if (st != SEPAX_OK) frame_die("query_ray", st);
                size_t b = least(all_ids, all, got);
                every_id[k] = b < got ? all_ids[b] : SEPAX_NO_ID;
                if (b < got)
                    every_hit[k] = all[b];
                else
                    memset(&every_hit[k], 0, sizeof every_hit[k]);
            }
            t[rep] = (frame_now_ns() - t0) / nr;
        }
        double every_ns = frame_median(t, o.reps);
        uint32_t nb = nr < BRUTE_RAYS ? nr : BRUTE_RAYS, brute_differ = 0;
        double t0 = frame_now_ns();
        for (uint32_t k = 0; k < nb; k++) {
            st = sepax_raycast_range(store, &rays[k], 0, count, all);
            if (st != SEPAX_OK) frame_die("raycast_range", st);
            size_t b = least(shape_ids, all, count);
            sepax_ray_hit none;
            memset(&none, 0, sizeof none);
            brute_differ += !same(ids[k], &hits[k], b < count ? shape_ids[b] : SEPAX_NO_ID,
                                  b < count ? &all[b] : &none);
        }
        double brute_ns = (frame_now_ns() - t0) / nb;
        uint32_t found = 0, every_differ = 0;
        for (uint32_t k = 0; k < nr; k++) {
            found += ids[k] != SEPAX_NO_ID;
            every_differ += !same(ids[k], &hits[k], every_id[k], &every_hit[k]);
        }
        char b2col[32] = "-";
#ifdef SEPAX_PEER_BOX2D
        for (uint32_t rep = 0; rep < o.reps; rep++) {
            double s0 = frame_now_ns();
            rays_box2d_cast(b2, rays, nr, b2_index, b2_fraction);
            t[rep] = (frame_now_ns() - s0) / nr;
        }
        snprintf(b2col, sizeof b2col, "%.1f", frame_median(t, o.reps));
#endif
        printf("%8.0f  %12.1f %12.1f %12.1f %12s  %u of %u rays hit\n", (double)o.length[li],
               closest_ns, every_ns, brute_ns, b2col, found, nr);
        printf("%8s  every hit: %u of %u differ; brute: %u of %u differ\n", "", every_differ, nr,
               brute_differ, nb);
        failed |= every_differ || brute_differ;
#ifdef SEPAX_PEER_BOX2D
        uint32_t b2_same = 0, inside = 0, other = 0;
        double worst = 0.0;
        for (uint32_t k = 0; k < nr; k++) {
            uint32_t mine = ids[k] == SEPAX_NO_ID ? UINT32_MAX : ids[k] & SEPAX_ID_INDEX_MASK;
            if (mine == b2_index[k]) {
                b2_same++;
                if (mine != UINT32_MAX) {
                    double d = fabs((double)b2_fraction[k] - hits[k].fraction);
                    worst = d > worst ? d : worst;
                }
            } else if (mine != UINT32_MAX && hits[k].fraction == 0.0f)
                inside++;
            else
                other++;
        }
        printf("%8s  Box2D: the same shape for %u of %u rays (fractions within %.2g); "
               "%u start inside a shape; %u other\n",
               "", b2_same, nr, worst, inside, other);
#endif
    }
#ifdef SEPAX_PEER_BOX2D
    rays_box2d_destroy(b2);
    free(b2_index);
    free(b2_fraction);
#endif
    free(rays);
    free(ids);
    free(all_ids);
    free(shape_ids);
    free(hits);
    free(all);
    free(every_id);
    free(every_hit);
    free(t);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(store);
    scene_destroy(sc);
    if (failed) fprintf(stderr, "sepax-bench-rays: the three of sepax differ\n");
    return failed;
}
