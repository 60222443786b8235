/* A dense field and small shapes far from it (bullets parked off the field, strays): what
 * they cost a frame. N circles of radius 0.4 in a 250 x 250 field, then K more at
 * (D + 50 k, D); each run prints the frame's median time over F frames, its contacts, and
 * the grid the broadphase chose (cell, cells, large shapes), first with no strays, then
 * with them; the strays touch nothing, so both runs must find the same pairs (exit 1 if
 * not).
 *
 *   sepax-bench-stray [--n N] [--strays K] [--far D] [--frames F]
 *   (defaults: 50000 1 100000 9)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_util.h"

typedef struct options {
    uint32_t n, strays, frames;
    float far;
} options;

static void usage(const char *argv0) {
    fprintf(stderr, "usage: %s [--n N] [--strays K] [--far D] [--frames F]\n", argv0);
    exit(2);
}

static options parse(int argc, char **argv) {
    options o = {50000, 1, 9, 100000.0f};
    if (argc % 2 == 0) usage(argv[0]); /* a flag without its value (--help among them) */
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--n"))
            o.n = frame_arg_u32(argv[i + 1]);
        else if (!strcmp(argv[i], "--strays"))
            o.strays = frame_arg_u32(argv[i + 1]);
        else if (!strcmp(argv[i], "--far"))
            o.far = strtof(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--frames"))
            o.frames = frame_arg_u32(argv[i + 1]);
        else
            usage(argv[0]);
    }
    if (o.frames == 0) o.frames = 1;
    return o;
}

static int by_pair(const void *a, const void *b) {
    const sepax_pair *p = a, *q = b;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

/* One field, with `strays` far shapes: times its frames and returns its contacts, sorted
 * (*n of them), for main to compare: the strays touch nothing, so with and without them the
 * frame must find the same pairs. */
static sepax_pair *run(const options *o, uint32_t strays, size_t *n) {
    sepax_shapes *s = sepax_shapes_create(o->n + strays);
    if (!s) frame_die("create", SEPAX_ERR_NOMEM);
    uint64_t x = 7;
    uint32_t id;
    sepax_status st;
    for (uint32_t i = 0; i < o->n; i++) {
        sepax_vec2 c = {250.0f * frame_unit(&x), 250.0f * frame_unit(&x)};
        if ((st = sepax_shapes_add_circle(s, c, 0.4f, &id)) != SEPAX_OK) frame_die("add", st);
    }
    for (uint32_t k = 0; k < strays; k++) {
        sepax_vec2 c = {o->far + 50.0f * (float)k, o->far};
        if ((st = sepax_shapes_add_circle(s, c, 0.4f, &id)) != SEPAX_OK) frame_die("add", st);
    }
    if ((st = sepax_shapes_update(s)) != SEPAX_OK) frame_die("update", st);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    if (!bp) frame_die("broadphase", SEPAX_ERR_NOMEM);
    size_t cap = (size_t)o->n * 4 + 64, count = 0;
    sepax_pair *pairs = frame_xmalloc(cap * sizeof *pairs);
    double *ms = frame_xmalloc(o->frames * sizeof *ms);
    sepax_frame_options fo = {SEPAX_TEST_OVERLAP, 0.0f, 0.0f, SEPAX_UPDATE_NONE};
    sepax_contacts out = {pairs, NULL, NULL, cap};
    if ((st = sepax_find_contacts(bp, s, &fo, &out, &count)) != SEPAX_OK) frame_die("frame", st);
    size_t first = count;
    for (uint32_t f = 0; f < o->frames; f++) {
        double t0 = frame_now_ns();
        if ((st = sepax_find_contacts(bp, s, &fo, &out, &count)) != SEPAX_OK)
            frame_die("frame", st);
        ms[f] = (frame_now_ns() - t0) * 1e-6;
        if (count != first) frame_die("a frame found another number of contacts", st);
    }
    sepax_broadphase_stats bs;
    sepax_broadphase_stats_get(bp, &bs);
    printf("| %u | %u | %.3f | %zu | %.4g | %u x %u | %u |\n", o->n, strays,
           frame_median(ms, o->frames), count, (double)bs.cell_size, bs.cells_x, bs.cells_y,
           bs.large);
    free(ms);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
    qsort(pairs, count, sizeof *pairs, by_pair);
    *n = count;
    return pairs;
}

int main(int argc, char **argv) {
    frame_set_name(argv[0]);
    options o = parse(argc, argv);
    printf("# %u circles in a 250 x 250 field, strays from (%g, %g); one thread, overlap, "
           "median of %u frames\n\n",
           o.n, (double)o.far, (double)o.far, o.frames);
    printf("| shapes | strays | ms a frame | contacts | cell | cells | large |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|\n");
    size_t n0, n1;
    sepax_pair *alone = run(&o, 0, &n0), *with = run(&o, o.strays, &n1);
    int same = n0 == n1 && memcmp(alone, with, n0 * sizeof *alone) == 0;
    if (o.far > 251.0f) /* strays 50 apart outside the field (radius 0.4) touch nothing */
        printf("\nthe same contact pairs with and without the strays: %s\n", same ? "yes" : "NO");
    else
        same = 1; /* strays in the field may touch it: nothing to compare */
    free(alone);
    free(with);
    return same ? 0 : 1;
}
