/* The world update, written once against lanes.h and compiled per ISA like
 * sat_kernel.c, the formula of transform.c operation for operation, so every
 * backend writes the bits the scalar path and the reference compute. One
 * pass with a lane per shape computes every row; the blocks and bounds take
 * them as they are, the per-shape records transposed (reading a second copy
 * of the local shapes, one record per shape, cost more memory traffic than
 * the shuffles). */
#include "kernel.h"

/* The update is bound by its stores, not its arithmetic, and two blocks a step only add
 * the inserts and extracts that join and split them: on an Intel Xeon the AVX-512 copy took
 * 21.2 ns a shape against AVX2's 18.0 (sepax-bench --only update, README), and on the AMD
 * Zen 5 of the README's first table it was the slower one too. So that copy runs AVX2's
 * lanes here (-mavx512f implies AVX2; with -mavx512vl, kernel/meson.build, in EVEX form
 * with 32 registers where the compiler likes), with the same bits, and the same rows, since every
 * backend's update writes them by the two-block rule of store.h. No copy now builds this file with
 * SEPAX_P == 2; its slot code stays general so that a backend whose wider step pays off can take it
 * back. */
#if defined(SEPAX_ISA_AVX512)
#undef SEPAX_ISA_AVX512
#define SEPAX_ISA_AVX2
#endif
#include "lanes.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

void CAT(SEPAX_KERNEL_NAME, _update)(sepax_shapes *st, uint32_t first_block, uint32_t blocks,
                                     int mode);

#if defined(SEPAX_ISA_SCALAR)
/* Without vector registers the lanes live in memory and the transposes cost more than they
 * save: a shape at a time, with the formula every backend follows (and all eight block rows,
 * the ones no query reads included, `rows` or not). */
void CAT(SEPAX_KERNEL_NAME, _update)(sepax_shapes *st, uint32_t first_block, uint32_t blocks,
                                     int mode) {
    size_t begin = (size_t)first_block * SEPAX_BLOCK_LANES;
    size_t end = begin + (size_t)blocks * SEPAX_BLOCK_LANES;
    if (end > st->count) end = st->count;
    for (size_t id = begin; id < end; id++) {
        if ((mode & ~SEPAX_WRITE_STREAM) == SEPAX_WRITE_BOUNDS) /* plain stores either way */
            sepax_transform_bounds(st, (uint32_t)id);
        else
            sepax_transform_shape(st, (uint32_t)id);
    }
}

#else

typedef struct world_lanes {
    lf x, y, nx, ny;
} world_lanes;

static inline __attribute__((always_inline)) lf world_x(lf c, lf s, lf px, lf x, lf y) {
    return lf_add(lf_sub(lf_mul(c, x), lf_mul(s, y)), px);
}

static inline __attribute__((always_inline)) lf world_y(lf c, lf s, lf py, lf x, lf y) {
    return lf_add(lf_add(lf_mul(s, x), lf_mul(c, y)), py);
}

/* transform.c's formula on lanes: rotate and move vertices, rotate normals (the
 * planes' offsets follow, from the rows: plane_offsets) */
static inline __attribute__((always_inline)) world_lanes to_world(lf c, lf s, lf px, lf py, lf x,
                                                                  lf y, lf nx, lf ny) {
    world_lanes w;
    w.x = world_x(c, s, px, x, y);
    w.y = world_y(c, s, py, x, y);
    w.nx = lf_sub(lf_mul(c, nx), lf_mul(s, ny));
    w.ny = lf_add(lf_mul(s, nx), lf_mul(c, ny));
    return w;
}

static const float k_row[SEPAX_MAX_VERTS] = {0, 1, 2, 3, 4, 5, 6, 7};

/* transform.c's plane_offset on lanes, for every row of the world rows (x, y, nx, ny in
 * wrow[0..3]) into wrow[4]: the larger of the projections of the edge's ends, row k and
 * row k + 1 while k < last, else row 0. From row nlocal on (local_rows) every lane's rows
 * repeat row nlocal - 1, which is at or past its last vertex, so its offset repeats too. */
static inline __attribute__((always_inline)) void
plane_offsets(float (*wrow)[SEPAX_MAX_VERTS][8 * SEPAX_P], lf last, lf cbias, int nlocal) {
#define ROW(f, k) lf_load(wrow[f][k], wrow[f][k] + 8 * (SEPAX_P - 1))
    lf x0 = ROW(0, 0), y0 = ROW(1, 0), off = x0;
#if defined(__clang__) || defined(__GNUC__)
#pragma GCC unroll 8
#endif
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        if (k < nlocal) {
            lf x = ROW(0, k), y = ROW(1, k), nx = ROW(2, k), ny = ROW(3, k), xe = x0, ye = y0;
            if (k + 1 < SEPAX_MAX_VERTS) {
                lf row = lf_bcast(&k_row[k], &k_row[k]);
                xe = lf_sel_lt(row, last, ROW(0, k + 1), x0);
                ye = lf_sel_lt(row, last, ROW(1, k + 1), y0);
            }
            lf at_k = lf_add(lf_mul(nx, x), lf_mul(ny, y)),
               at_e = lf_add(lf_mul(nx, xe), lf_mul(ny, ye));
            off = lf_add(lf_max(at_k, at_e), cbias);
        }
        lf_store(off, wrow[4][k]);
    }
#undef ROW
}

/* a pose field of shape id, for lf_bcast */
#define POSE(st, field, id) (&(st)->pose[(id) / SEPAX_BLOCK_LANES].field[(id) % SEPAX_BLOCK_LANES])
#define LOCAL(st, field, id)                                                                       \
    (&(st)->local[(id) / SEPAX_BLOCK_LANES].field[(id) % SEPAX_BLOCK_LANES])

/* store.h's SEPAX_STREAM_SHAPES, by its short name here */
#define STREAM_SHAPES SEPAX_STREAM_SHAPES

/* write a row, around the caches or not (the same bits either way) */
#define PUT(stream, v, p0, p1)                                                                     \
    do {                                                                                           \
        if (stream)                                                                                \
            lf_stream2(v, p0, p1);                                                                 \
        else                                                                                       \
            lf_store2(v, p0, p1);                                                                  \
    } while (0)

/* Shape 4 * half + c of each slot's block, for c < 4, from the world rows (lane per
 * shape): a 4 x 8 transpose per field, then the shape's five rows written together. */
static inline __attribute__((always_inline)) void
put_records(sepax_shapes *st, size_t b, size_t b1, int half,
            float (*wrow)[SEPAX_MAX_VERTS][8 * SEPAX_P], int stream) {
    lf out[5][4];
    for (int f = 0; f < 5; f++) {
        const float *p[8 * SEPAX_P];
        for (int k = 0; k < SEPAX_MAX_VERTS; k++)
            for (int slot = 0; slot < SEPAX_P; slot++)
                p[slot * 8 + k] = &wrow[f][k][slot * 8 + 4 * half];
        lf_rows4(p, 0, out[f]);
    }
    for (int c = 0; c < 4; c++) {
        size_t i0 = b * SEPAX_BLOCK_LANES + 4 * (size_t)half + (size_t)c;
        size_t i1 = b1 * SEPAX_BLOCK_LANES + 4 * (size_t)half + (size_t)c;
        /* lanes past the shapes are zero and compute to zeros; only a whole-block
         * slot past them (the last block's repeat) is skipped */
        if (i0 >= st->count) break;
        sepax_poly_rec *r0 = &st->rec[i0], *r1 = &st->rec[i1];
        PUT(stream, out[0][c], r0->x, r1->x);
        PUT(stream, out[1][c], r0->y, r1->y);
        PUT(stream, out[2][c], r0->nx, r1->nx);
        PUT(stream, out[3][c], r0->ny, r1->ny);
        PUT(stream, out[4][c], r0->c, r1->c);
    }
}

/* Blocks b and b1's bounds only: their vertices' x and y rows, no normals, offsets, discs or
 * records (a lazy frame's first pass, SEPAX_WRITE_BOUNDS). The same operations as the whole
 * update's, so the same bits. With `stream` (past STREAM_SHAPES) the bounds, all this pass
 * writes, go around the caches: bullet-hell 100k, lazy update phase 0.88-0.98 -> 0.80-0.95 ms
 * (docs/performance.md, "The bounds around the caches, in a lazy frame"). The whole update
 * keeps its bounds in place: streamed beside its records and discs, they were no faster over
 * two rounds of measurements (one a little faster, one slower). */
static inline __attribute__((always_inline)) void update_bounds(sepax_shapes *st, size_t b,
                                                                size_t b1, int stream) {
    const sepax_local_block *l0 = &st->local[b], *l1 = &st->local[b1];
    const sepax_pose_block *p0 = &st->pose[b], *p1 = &st->pose[b1];
    sepax_aabb_block *a0 = &st->aabb[b], *a1 = &st->aabb[b1];
    lf c = lf_load(p0->c, p1->c), s = lf_load(p0->s, p1->s);
    lf px = lf_load(p0->px, p1->px), py = lf_load(p0->py, p1->py);
    lf x = lf_load(l0->x[0], l1->x[0]), y = lf_load(l0->y[0], l1->y[0]);
    lf minx = world_x(c, s, px, x, y), miny = world_y(c, s, py, x, y);
    lf maxx = minx, maxy = miny;
    /* rows past a shape's vertices repeat its last, so they change no bound: only the most
     * vertices of the blocks' shapes are read (a block of bullets reads half its rows) */
    int nv = st->info[b].maxv > st->info[b1].maxv ? st->info[b].maxv : st->info[b1].maxv;
    for (int k = 1; k < nv; k++) {
        x = lf_load(l0->x[k], l1->x[k]);
        y = lf_load(l0->y[k], l1->y[k]);
        lf wx = world_x(c, s, px, x, y), wy = world_y(c, s, py, x, y);
        minx = lf_min(wx, minx);
        miny = lf_min(wy, miny);
        maxx = lf_max(wx, maxx);
        maxy = lf_max(wy, maxy);
    }
    lf r = lf_load(l0->r, l1->r);
    PUT(stream, lf_sub(minx, r), a0->minx, a1->minx);
    PUT(stream, lf_sub(miny, r), a0->miny, a1->miny);
    PUT(stream, lf_add(maxx, r), a0->maxx, a1->maxx);
    PUT(stream, lf_add(maxy, r), a0->maxy, a1->maxy);
}

/* The local rows blocks b and b1 hold apart from repeats: the most vertices or planes of
 * their shapes (sepax_info_rows), each shape's rows past its own counts repeating its last
 * vertex and plane (shape_build.c, polygon.c), and so, from this count on, the row before
 * it; vacated lanes are zeros in every row. At least 1, at most the rows there are. */
static inline int local_rows(const sepax_shapes *st, size_t b, size_t b1) {
    int r0 = sepax_info_rows(st->info[b]), r1 = sepax_info_rows(st->info[b1]);
    int r = r0 > r1 ? r0 : r1;
    return r < 1 ? 1 : r > SEPAX_MAX_VERTS ? SEPAX_MAX_VERTS : r;
}

/* Blocks this far ahead of the one being computed are asked for (PF_BOUNDS in the bounds
 * pass, PF_WHOLE in the whole update). Once a frame's other work, or another program, has
 * pushed the store out of the caches, both passes most likely waited on memory a line at a
 * time (the hardware's prefetchers keep up warm): the bounds pass reads a few lines here and
 * there in each block (vertex rows, radii, pose) and does little with them, the whole update
 * every line of a block's local shape that holds more than repeats (local_rows). Bullet-hell, 10k
 * shapes between the peers' frames: set_poses and the update 0.122-0.130 ms a frame, 0.104-0.110
 * asked ahead; the whole update at 100k 1.89-1.97 ms, 1.50-1.63. Warm, about 29 instructions a
 * block (10k lazy: 1-2 us). README, "Asking ahead". */
#define PF_BOUNDS 8
#define PF_WHOLE 4

/* blocks first_block .. first_block + blocks - 1 (clipped to the shapes), and
 * the records of their shapes: disjoint ranges can run on different threads */
void CAT(SEPAX_KERNEL_NAME, _update)(sepax_shapes *st, uint32_t first_block, uint32_t blocks,
                                     int mode) {
    size_t nblocks = ((size_t)st->count + SEPAX_BLOCK_LANES - 1) / SEPAX_BLOCK_LANES;
    const size_t nall = nblocks;
    /* around the caches: asked for, or a store past STREAM_SHAPES */
    int stream = (mode & SEPAX_WRITE_STREAM) || st->count >= STREAM_SHAPES;
    mode &= ~SEPAX_WRITE_STREAM;
    if (first_block >= nblocks) return;
    if (blocks > nblocks - first_block) blocks = (uint32_t)(nblocks - first_block);
    nblocks = (size_t)first_block + blocks;
    if (mode == SEPAX_WRITE_BOUNDS) {
        for (size_t b = first_block; b < nblocks; b += SEPAX_P) {
            for (size_t p = 0; p < SEPAX_P && b + p + PF_BOUNDS < nall; p++) {
                size_t q = b + p + PF_BOUNDS;
                const sepax_local_block *l = &st->local[q];
                int nv = st->info[b + p].maxv; /* this block's count, at hand: blocks near alike */
                for (int k = 0; k < nv; k += 2) { /* two rows a line */
                    __builtin_prefetch(l->x[k]);
                    __builtin_prefetch(l->y[k]);
                }
                __builtin_prefetch(l->r);
                __builtin_prefetch(&st->pose[q]);
                __builtin_prefetch((const char *)&st->pose[q] + 64);
            }
            update_bounds(st, b, b + SEPAX_P - 1 < nblocks ? b + SEPAX_P - 1 : b,
                          st->count >= STREAM_SHAPES);
        }
        if (st->count >= STREAM_SHAPES) lf_stream_fence();
        return;
    }
    int rows = mode == SEPAX_WRITE_ROWS;
    for (size_t b = first_block; b < nblocks; b += SEPAX_P) {
        /* with two slots and an odd last block, slot 1 repeats slot 0: it
         * writes the same bits to the same place */
        size_t b1 = b + SEPAX_P - 1 < nblocks ? b + SEPAX_P - 1 : b;
        for (size_t p = 0; p < SEPAX_P; p++) {
            size_t q = b + p + PF_WHOLE; /* in this call's range: a lazy frame's records come */
            if (q < nblocks) {           /* a marked block a call, and need no other block */
                const sepax_local_block *lq = &st->local[q];
                int nq = local_rows(st, q, q);
                for (int k = 0; k < nq; k += 2) { /* two rows a line */
                    __builtin_prefetch(lq->x[k]);
                    __builtin_prefetch(lq->y[k]);
                    __builtin_prefetch(lq->nx[k]);
                    __builtin_prefetch(lq->ny[k]);
                }
                __builtin_prefetch(lq->r); /* r, cbias, vbias and last: two lines */
                __builtin_prefetch(lq->vbias);
                __builtin_prefetch(&st->pose[q]);
                __builtin_prefetch((const char *)&st->pose[q] + 64);
            }
        }
        const sepax_local_block *l0 = &st->local[b], *l1 = &st->local[b1];
        const sepax_pose_block *p0 = &st->pose[b], *p1 = &st->pose[b1];
        sepax_poly_block *w0 = &st->block[b], *w1 = &st->block[b1];
        sepax_aabb_block *a0 = &st->aabb[b], *a1 = &st->aabb[b1];
        lf c = lf_load(p0->c, p1->c), s = lf_load(p0->s, p1->s);
        lf px = lf_load(p0->px, p1->px), py = lf_load(p0->py, p1->py);
        lf cbias = lf_load(l0->cbias, l1->cbias);
        lf minx = px, miny = px, maxx = px, maxy = px; /* set at k == 0 */
        /* every row, a lane per shape: the records take all eight (transposed below) */
        _Alignas(64) float wrow[5][SEPAX_MAX_VERTS][8 * SEPAX_P];
        /* The blocks get only the rows their queries read (the rule in store.h): a
         * block of bullets (circles, triangles, boxes) writes half its rows. Rows past
         * a shape's counts repeat its last, so the bounds over all rows are the bounds. */
        int nrows = 0;
        if (rows) {
            int r0 = sepax_block_rows(st, b, nall, SEPAX_STEP_BLOCKS_MAX),
                r1 = sepax_block_rows(st, b1, nall, SEPAX_STEP_BLOCKS_MAX);
            nrows = r1 > r0 ? r1 : r0;
        }
        /* Rows from the blocks' own count on repeat the row before it in every lane, so they
         * are computed once and copied: the same bits, and half the local lines unread for
         * a pair of blocks of bullets (local_rows). */
        int nlocal = local_rows(st, b, b1);
        world_lanes w = {px, px, px, px}; /* set at k == 0 */
#if defined(__clang__) || defined(__GNUC__)
#pragma GCC unroll 8
#endif
        for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
            if (k < nlocal) {
                w = to_world(c, s, px, py, lf_load(l0->x[k], l1->x[k]), lf_load(l0->y[k], l1->y[k]),
                             lf_load(l0->nx[k], l1->nx[k]), lf_load(l0->ny[k], l1->ny[k]));
                minx = k ? lf_min(w.x, minx) : w.x;
                miny = k ? lf_min(w.y, miny) : w.y;
                maxx = k ? lf_max(w.x, maxx) : w.x;
                maxy = k ? lf_max(w.y, maxy) : w.y;
            }
            lf_store(w.x, wrow[0][k]);
            lf_store(w.y, wrow[1][k]);
            lf_store(w.nx, wrow[2][k]);
            lf_store(w.ny, wrow[3][k]);
        }
        plane_offsets(wrow, lf_load(l0->last, l1->last), cbias, nlocal);
        /* From the rows just written, in address order: a line of each block is finished
         * before the next starts. Written inside the vertex loop, the two slots' five fields
         * kept ten lines half-written at once, more than the write-combining buffers hold,
         * and a store past STREAM_SHAPES took five times as long on AVX-512. */
        float(*const to0[5])[SEPAX_BLOCK_LANES] = {w0->x, w0->y, w0->nx, w0->ny, w0->c};
        float(*const to1[5])[SEPAX_BLOCK_LANES] = {w1->x, w1->y, w1->nx, w1->ny, w1->c};
        for (int f = 0; f < 5; f++)
            for (int k = 0; k < nrows; k++)
                PUT(stream, lf_load(wrow[f][k], wrow[f][k] + 8 * (SEPAX_P - 1)), to0[f][k],
                    to1[f][k]);
        const float *x0 = wrow[0][0], *y0 = wrow[1][0]; /* vertex 0: each shape's disc */
        lf r = lf_load(l0->r, l1->r);
        if (stream && (b1 + 1) * SEPAX_BLOCK_LANES <= st->count) {
            /* Whole blocks' discs are two lines each, put together here and written around
             * the caches like the records: stored in place, each line was first read from
             * memory (bullet-hell 100k, update phase 1.49-1.56 -> 1.29-1.38 ms a frame:
             * docs/performance.md, "The discs written around the caches"). */
#if defined(LF_HAS_STREAM_DISCS) && SEPAX_P == 1
            /* transposed in registers where the lanes can: the array below, filled a float at
             * a time and read back by vectors, cost some 50 instructions a block */
            lf_stream_discs(lf_load(x0, x0), lf_load(y0, y0), r,
                            &st->disc[b * SEPAX_BLOCK_LANES].x);
#else
            _Alignas(64) sepax_disc d[8 * SEPAX_P];
            for (size_t t = 0; t < 8 * SEPAX_P; t++)
                d[t] = (sepax_disc){x0[t], y0[t], (t < 8 ? l0 : l1)->r[t % 8], 0.0f};
            float *o0 = &st->disc[b * SEPAX_BLOCK_LANES].x,
                  *o1 = &st->disc[b1 * SEPAX_BLOCK_LANES].x;
            const float *df = &d[0].x;
            for (int j = 0; j < 4; j++)
                lf_stream2(lf_load(df + 8 * j, df + 8 * (4 * (SEPAX_P - 1) + j)), o0 + 8 * j,
                           o1 + 8 * j);
#endif
        } else {
            for (size_t t = 0; t < 8 * SEPAX_P; t++) { /* discs: transposed back, one a shape */
                size_t id = (t < 8 ? b : b1) * SEPAX_BLOCK_LANES + t % 8;
                if (id < st->count)
                    st->disc[id] = (sepax_disc){x0[t], y0[t], (t < 8 ? l0 : l1)->r[t % 8], 0.0f};
            }
        }
        lf_store2(lf_sub(minx, r), a0->minx, a1->minx);
        lf_store2(lf_sub(miny, r), a0->miny, a1->miny);
        lf_store2(lf_add(maxx, r), a0->maxx, a1->maxx);
        lf_store2(lf_add(maxy, r), a0->maxy, a1->maxy);
        put_records(st, b, b1, 0, wrow, stream);
        put_records(st, b, b1, 1, wrow, stream);
    }
    if (stream) lf_stream_fence();
}

#endif
