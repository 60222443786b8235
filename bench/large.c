/* Many large shapes among small ones: what a frame costs when thousands of shapes are too
 * big for the grid's cells (rocks among particles, platforms among bullets). N circles of
 * radius 0.5 and L squares of half extent H, at random in a W x W field, turned at random;
 * the frame (sepax_find_contacts, SEPAX_TEST_OVERLAP, one thread) on F frames, and the
 * median of its total and its pairing phase, with the grid it chose and the contacts found.
 * --shift X moves the squares' field X to the right (X >= W: past every circle, where the
 * grid has no columns, as a level's tiles beside an arena of bullets); --cell C gives the
 * frame a cell edge (0: chosen from the sizes; below every shape's size: all of them large);
 * --tall T makes the field T times as high as it is wide (a vertical scroller's level).
 *
 *   sepax-bench-large [--n N] [--large L] [--half H] [--field W] [--frames F] [--shift X]
 *                     [--cell C] [--tall T]
 *   (defaults: 30000 5000 5 1000 9 0 0 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_util.h"

typedef struct options {
    uint32_t n, large, frames;
    float half, field, shift, cell, tall;
} options;

static void usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s [--n N] [--large L] [--half H] [--field W] [--frames F] [--shift X] "
            "[--cell C] [--tall T]\n",
            argv0);
    exit(2);
}

static options parse(int argc, char **argv) {
    options o = {30000, 5000, 9, 5.0f, 1000.0f, 0.0f, 0.0f, 1.0f};
    if (argc % 2 == 0) usage(argv[0]);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--n"))
            o.n = frame_arg_u32(argv[i + 1]);
        else if (!strcmp(argv[i], "--large"))
            o.large = frame_arg_u32(argv[i + 1]);
        else if (!strcmp(argv[i], "--half"))
            o.half = strtof(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--field"))
            o.field = strtof(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--frames"))
            o.frames = frame_arg_u32(argv[i + 1]);
        else if (!strcmp(argv[i], "--shift"))
            o.shift = strtof(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--cell"))
            o.cell = strtof(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--tall"))
            o.tall = strtof(argv[i + 1], NULL);
        else
            usage(argv[0]);
    }
    if (o.frames == 0) o.frames = 1;
    if (!(o.half > 0.0f) || !(o.field > 0.0f) || !(o.shift >= 0.0f) || !(o.cell >= 0.0f) ||
        !(o.tall > 0.0f))
        usage(argv[0]);
    return o;
}

int main(int argc, char **argv) {
    frame_set_name(argv[0]);
    options o = parse(argc, argv);
    uint32_t count = o.n + o.large;
    sepax_shapes *s = sepax_shapes_create(count);
    if (!s) frame_die("sepax_shapes_create", SEPAX_ERR_NOMEM);
    uint64_t rng = 0x2545f4914f6cdd1dull;
    uint32_t id;
    sepax_status st;
    for (uint32_t i = 0; i < o.n; i++) {
        sepax_vec2 c = {o.field * frame_unit(&rng), o.tall * o.field * frame_unit(&rng)};
        st = sepax_shapes_add_circle(s, c, 0.5f, &id);
        if (st != SEPAX_OK) frame_die("add circle", st);
    }
    sepax_pose *poses = frame_xmalloc(count * sizeof *poses);
    for (uint32_t i = 0; i < count; i++) poses[i] = (sepax_pose){{0.0f, 0.0f}, {1.0f, 0.0f}};
    for (uint32_t i = 0; i < o.large; i++) {
        st = sepax_shapes_add_box(s, o.half, o.half, &id);
        if (st != SEPAX_OK) frame_die("add box", st);
        poses[o.n + i] = (sepax_pose){
            {o.shift + o.field * frame_unit(&rng), o.tall * o.field * frame_unit(&rng)},
            sepax_rot(6.2831853f * frame_unit(&rng))};
    }
    st = sepax_shapes_set_poses(s, 0, count, poses);
    if (st != SEPAX_OK) frame_die("sepax_shapes_set_poses", st);
    sepax_broadphase_config cfg = {1, NULL, NULL, 0};
    sepax_broadphase *bp = sepax_broadphase_create(&cfg);
    if (!bp) frame_die("sepax_broadphase_create", SEPAX_ERR_NOMEM);
    sepax_frame_options fo = {SEPAX_TEST_OVERLAP, 0.0f, o.cell, SEPAX_UPDATE_FRAME};
    size_t cap = 0, found = 0;
    sepax_pair *pairs = NULL;
    double *ms = frame_xmalloc(o.frames * sizeof *ms),
           *pair_ms = frame_xmalloc(o.frames * sizeof *ms);
    for (;;) { /* a first frame, untimed: the results' room and the buffers grown */
        sepax_contacts out = {pairs, NULL, NULL, cap};
        st = sepax_find_contacts(bp, s, &fo, &out, &found);
        if (st != SEPAX_ERR_CAPACITY) break;
        free(pairs);
        cap = found;
        pairs = frame_xmalloc(cap * sizeof *pairs);
    }
    if (st != SEPAX_OK) frame_die("sepax_find_contacts", st);
    for (uint32_t f = 0; f < o.frames; f++) {
        sepax_contacts out = {pairs, NULL, NULL, cap};
        double t0 = frame_now_ns();
        st = sepax_find_contacts(bp, s, &fo, &out, &found);
        double t1 = frame_now_ns();
        if (st != SEPAX_OK) frame_die("sepax_find_contacts", st);
        sepax_broadphase_stats bs;
        sepax_broadphase_stats_get(bp, &bs);
        ms[f] = (t1 - t0) * 1e-6;
        pair_ms[f] = (double)bs.pairs_ns * 1e-6;
    }
    sepax_broadphase_stats bs;
    sepax_broadphase_stats_get(bp, &bs);
    printf("# sepax-bench-large --n %u --large %u --half %g --field %g --frames %u --shift %g "
           "--cell %g --tall %g\n",
           o.n, o.large, (double)o.half, (double)o.field, o.frames, (double)o.shift, (double)o.cell,
           (double)o.tall);
    printf("# grid: %u x %u cells of %g, %u large shapes; %zu candidates, %zu contacts\n",
           bs.cells_x, bs.cells_y, (double)bs.cell_size, bs.large, (size_t)bs.candidates, found);
    printf("frame %.3f ms, pairing %.3f ms (medians of %u frames, one thread)\n",
           frame_median(ms, o.frames), frame_median(pair_ms, o.frames), o.frames);
    free(ms);
    free(pair_ms);
    free(pairs);
    free(poses);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
    return 0;
}
