/* The world update, written once against lanes.h and compiled per ISA like
 * sat_kernel.c, the formula of transform.c operation for operation, so every
 * backend writes the bits the scalar path and the reference compute. Two
 * passes over the same arithmetic: the transposed blocks and bounds with a
 * lane per shape, then the per-shape records with a lane per vertex (the
 * same values again; computing them is cheaper than transposing). */
#include "kernel.h"
#include "lanes.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

void CAT(SEPAX_KERNEL_NAME, _update)(sepax_shapes *st, uint32_t first_block, uint32_t blocks);

typedef struct world_lanes {
    lf x, y, nx, ny, c;
} world_lanes;

/* transform.c's formula on lanes: rotate and move vertices, rotate normals,
 * put each plane through its vertex */
/* always inlined: with the scalar backend's 32-byte lanes, a call would copy
 * every argument (measured: 3x slower) */
static inline __attribute__((always_inline)) world_lanes to_world(lf c, lf s, lf px, lf py, lf x,
                                                                  lf y, lf nx, lf ny, lf cbias) {
    world_lanes w;
    w.x = lf_add(lf_sub(lf_mul(c, x), lf_mul(s, y)), px);
    w.y = lf_add(lf_add(lf_mul(s, x), lf_mul(c, y)), py);
    w.nx = lf_sub(lf_mul(c, nx), lf_mul(s, ny));
    w.ny = lf_add(lf_mul(s, nx), lf_mul(c, ny));
    w.c = lf_add(lf_add(lf_mul(w.nx, w.x), lf_mul(w.ny, w.y)), cbias);
    return w;
}

/* a pose field of shape id, for lf_bcast */
#define POSE(st, field, id) (&(st)->pose[(id) / SEPAX_BLOCK_LANES].field[(id) % SEPAX_BLOCK_LANES])
#define LOCAL(st, field, id)                                                                       \
    (&(st)->local[(id) / SEPAX_BLOCK_LANES].field[(id) % SEPAX_BLOCK_LANES])

/* Stores past this many shapes write their world records and blocks around the caches: a
 * frame reads them back only for the few shapes in candidate pairs (and the blocks only for
 * sepax_overlap_one and raycast_range), and a store past the L2 cache would otherwise read
 * every line before writing it. Below it, they stay in cache for the queries that follow. */
#define STREAM_SHAPES 16384u

/* write a row, around the caches or not (the same bits either way) */
#define PUT(stream, v, p0, p1)                                                                     \
    do {                                                                                           \
        if (stream)                                                                                \
            lf_stream2(v, p0, p1);                                                                 \
        else                                                                                       \
            lf_store2(v, p0, p1);                                                                  \
    } while (0)

static void update_records(sepax_shapes *st, uint32_t begin, uint32_t end) {
    int stream = st->count >= STREAM_SHAPES;
    for (uint32_t i = begin; i < end; i += SEPAX_P) {
        uint32_t i1 = i + SEPAX_P - 1 < end ? i + SEPAX_P - 1 : i;
        const sepax_local_rec *l0 = &st->lrec[i], *l1 = &st->lrec[i1];
        sepax_poly_rec *r0 = &st->rec[i], *r1 = &st->rec[i1];
        lf c = lf_bcast(POSE(st, c, i), POSE(st, c, i1));
        lf s = lf_bcast(POSE(st, s, i), POSE(st, s, i1));
        lf px = lf_bcast(POSE(st, px, i), POSE(st, px, i1));
        lf py = lf_bcast(POSE(st, py, i), POSE(st, py, i1));
        lf cbias = lf_bcast(LOCAL(st, cbias, i), LOCAL(st, cbias, i1));
        world_lanes w = to_world(c, s, px, py, lf_load(l0->x, l1->x), lf_load(l0->y, l1->y),
                                 lf_load(l0->nx, l1->nx), lf_load(l0->ny, l1->ny), cbias);
        PUT(stream, w.x, r0->x, r1->x);
        PUT(stream, w.y, r0->y, r1->y);
        PUT(stream, w.nx, r0->nx, r1->nx);
        PUT(stream, w.ny, r0->ny, r1->ny);
        PUT(stream, w.c, r0->c, r1->c);
    }
    if (stream) lf_stream_fence();
}

/* The rows of blocks b0 and b1 any query reads (at least one: an empty lane's zeros). */
static inline int block_rows(sepax_block_info i0, sepax_block_info i1) {
    int rows = i0.maxv > i1.maxv ? i0.maxv : i1.maxv;
    rows = i0.maxp > rows ? i0.maxp : rows;
    rows = i1.maxp > rows ? i1.maxp : rows;
    return rows > 0 ? rows : 1;
}

/* blocks first_block .. first_block + blocks - 1 (clipped to the shapes), and
 * the records of their shapes: disjoint ranges can run on different threads */
void CAT(SEPAX_KERNEL_NAME, _update)(sepax_shapes *st, uint32_t first_block, uint32_t blocks) {
    size_t nblocks = ((size_t)st->count + SEPAX_BLOCK_LANES - 1) / SEPAX_BLOCK_LANES;
    if (first_block >= nblocks) return;
    if (blocks > nblocks - first_block) blocks = (uint32_t)(nblocks - first_block);
    nblocks = (size_t)first_block + blocks;
    int stream = st->count >= STREAM_SHAPES;
    for (size_t b = first_block; b < nblocks; b += SEPAX_P) {
        /* with two slots and an odd last block, slot 1 repeats slot 0: it
         * writes the same bits to the same place */
        size_t b1 = b + SEPAX_P - 1 < nblocks ? b + SEPAX_P - 1 : b;
        const sepax_local_block *l0 = &st->local[b], *l1 = &st->local[b1];
        const sepax_pose_block *p0 = &st->pose[b], *p1 = &st->pose[b1];
        sepax_poly_block *w0 = &st->block[b], *w1 = &st->block[b1];
        sepax_aabb_block *a0 = &st->aabb[b], *a1 = &st->aabb[b1];
        lf c = lf_load(p0->c, p1->c), s = lf_load(p0->s, p1->s);
        lf px = lf_load(p0->px, p1->px), py = lf_load(p0->py, p1->py);
        lf cbias = lf_load(l0->cbias, l1->cbias);
        lf minx = px, miny = px, maxx = px, maxy = px; /* set at k == 0 */
        float x0[8 * SEPAX_P], y0[8 * SEPAX_P];        /* vertex 0 of each shape, for its disc */
        /* Only the rows the blocks' queries read (sepax_overlap_one and raycast_range stop
         * at the most vertices and planes a block has): the rows past them repeat the
         * last, so the bounds over these rows are the bounds over all. A block of bullets
         * (circles, triangles, boxes) then writes half its rows. */
        int rows = block_rows(st->info[b], st->info[b1]);
        for (int k = 0; k < rows; k++) {
            world_lanes w =
                to_world(c, s, px, py, lf_load(l0->x[k], l1->x[k]), lf_load(l0->y[k], l1->y[k]),
                         lf_load(l0->nx[k], l1->nx[k]), lf_load(l0->ny[k], l1->ny[k]), cbias);
            PUT(stream, w.x, w0->x[k], w1->x[k]);
            PUT(stream, w.y, w0->y[k], w1->y[k]);
            PUT(stream, w.nx, w0->nx[k], w1->nx[k]);
            PUT(stream, w.ny, w0->ny[k], w1->ny[k]);
            PUT(stream, w.c, w0->c[k], w1->c[k]);
            if (k == 0) {
                lf_store(w.x, x0);
                lf_store(w.y, y0);
            }
            minx = k ? lf_min(w.x, minx) : w.x;
            miny = k ? lf_min(w.y, miny) : w.y;
            maxx = k ? lf_max(w.x, maxx) : w.x;
            maxy = k ? lf_max(w.y, maxy) : w.y;
        }
        lf r = lf_load(l0->r, l1->r);
        for (size_t t = 0; t < 8 * SEPAX_P; t++) { /* discs: transposed back, one per shape */
            size_t id = (t < 8 ? b : b1) * SEPAX_BLOCK_LANES + t % 8;
            if (id < st->count)
                st->disc[id] = (sepax_disc){x0[t], y0[t], (t < 8 ? l0 : l1)->r[t % 8], 0.0f};
        }
        lf_store2(lf_sub(minx, r), a0->minx, a1->minx);
        lf_store2(lf_sub(miny, r), a0->miny, a1->miny);
        lf_store2(lf_add(maxx, r), a0->maxx, a1->maxx);
        lf_store2(lf_add(maxy, r), a0->maxy, a1->maxy);
    }
    uint32_t end = (uint32_t)(nblocks * SEPAX_BLOCK_LANES);
    update_records(st, first_block * SEPAX_BLOCK_LANES, end < st->count ? end : st->count);
}
