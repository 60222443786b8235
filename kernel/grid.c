/* The uniform grid: every small shape is keyed by the cell of its box's
 * lower corner, counting-sorted by cell (stable, so ties stay in index order)
 * into columns of floats the range kernel reads. A cell is at least as wide
 * as every small box, so two small boxes that overlap have lower corners in
 * the same or adjacent cells; shapes larger than that are kept in a list of
 * their own and visit the cells their box covers. */
#include <math.h>
#include <string.h>

#include "broadphase.h"

/* Cells the grid may have per small shape (plus a floor), and per axis: a
 * store spread far with tiny shapes gets wider cells rather than a huge
 * table. */
#define CELLS_PER_SHAPE 4.0
#define CELLS_FLOOR 4096.0
#define AXIS_CELLS 65536.0

/* Boxes grow by this fraction of their coordinates' size so a pair the
 * narrowphase calls touching, within its rounding, is always a candidate. */
#define SLACK 0x1p-20f

int sepax_bp_reserve(sepax_broadphase *bp, void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 1;
    size_t want = need + need / 2 + 64;
    if (want > SIZE_MAX / elem) return 0;
    void *fresh = bp->mem.alloc(want * elem, 64, bp->mem.ctx);
    if (!fresh) return 0;
    if (*p) bp->mem.free(*p, bp->mem.ctx);
    *p = fresh;
    *cap = want;
    return 1;
}

/* floor(q) clamped to 0 .. n-1 (truncation is floor for q > 0) */
static inline uint32_t clamp_cell(double q, uint32_t n) {
    if (!(q > 0.0)) return 0; /* NaN too */
    if (q >= (double)(n - 1)) return n - 1;
    return (uint32_t)q;
}

uint32_t sepax_grid_col(const sepax_broadphase *bp, double x) {
    return clamp_cell((x - bp->ox) * bp->inv, bp->nx);
}

uint32_t sepax_grid_row(const sepax_broadphase *bp, double y) {
    return clamp_cell((y - bp->oy) * bp->inv, bp->ny);
}

/* Every per-shape and per-sorted-position array for n shapes; on failure the
 * grid is left unbuilt. */
static int reserve_shapes(sepax_broadphase *bp, size_t n) {
    if (n + BP_PAD <= bp->cap_shapes) return 1;
    size_t want = n + n / 2 + 64 + BP_PAD;
    void **arrays[] = {(void **)&bp->sid,  (void **)&bp->lox, (void **)&bp->loy,
                       (void **)&bp->hix,  (void **)&bp->hiy, (void **)&bp->cat,
                       (void **)&bp->mask, (void **)&bp->key, (void **)&bp->ext};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        size_t cap = 0; /* every array is 4 bytes an entry */
        if (*arrays[i]) bp->mem.free(*arrays[i], bp->mem.ctx);
        *arrays[i] = NULL;
        if (!sepax_bp_reserve(bp, arrays[i], &cap, want, 4)) {
            bp->cap_shapes = 0;
            return 0;
        }
        memset(*arrays[i], 0, cap * 4); /* the padding is read (and its bits dropped) */
    }
    bp->cap_shapes = want;
    return 1;
}

/* The cell edge: the largest box among those up to 4 to 8 times the median
 * size (found from a histogram of the sizes' binary exponents), so a few
 * bosses or walls do not make every cell huge. */
static float choose_cell(const float *ext, uint32_t n, float *small_limit) {
    uint32_t hist[256] = {0};
    for (uint32_t i = 0; i < n; i++) { /* the biased exponent: size in [2^(e-127), 2^(e-126)) */
        uint32_t bits;
        memcpy(&bits, &ext[i], sizeof bits);
        hist[(bits >> 23) & 0xffu]++;
    }
    uint32_t seen = 0, median = 0;
    for (uint32_t b = 0; b < 256; b++) {
        seen += hist[b];
        if (seen * 2 >= n) {
            median = b;
            break;
        }
    }
    /* up to 4x the top of the median's power-of-two bucket */
    float limit = ldexpf(1.0f, (int)median - 127 + 3);
    float cell = 0.0f;
    for (uint32_t i = 0; i < n; i++)
        if (ext[i] <= limit && ext[i] > cell) cell = ext[i];
    *small_limit = cell;
    return cell;
}

/* key[i] = the filter group of each small shape (UINT32_MAX for large ones): its filter's
 * place among the distinct filters in index order, or 0 for all when there are more than
 * BP_GROUPS of them. Returns the number of groups. */
static uint32_t assign_groups(sepax_broadphase *bp, const sepax_shapes *s, float limit) {
    uint32_t ng = 0, last = 0;
    bp->grouped = 1;
    for (uint32_t i = 0; i < s->count; i++) {
        if (bp->ext[i] > limit) {
            bp->key[i] = UINT32_MAX;
            continue;
        }
        sepax_filter f = s->filter[i];
        if (ng && f.category == bp->group_filter[last].category &&
            f.mask == bp->group_filter[last].mask) { /* runs of one filter are common */
            bp->key[i] = last;
            continue;
        }
        uint32_t g = 0;
        while (g < ng &&
               (f.category != bp->group_filter[g].category || f.mask != bp->group_filter[g].mask))
            g++;
        if (g == ng) {
            if (ng == BP_GROUPS) {
                bp->grouped = 0;
                break;
            }
            bp->group_filter[ng++] = f;
        }
        bp->key[i] = last = g;
    }
    if (!bp->grouped || ng == 0) {
        bp->grouped = 0;
        for (uint32_t i = 0; i < s->count; i++) bp->key[i] = bp->ext[i] > limit ? UINT32_MAX : 0u;
        ng = 1;
        bp->meets[0][0] = 1; /* the range tests apply the filters */
    } else {
        for (uint32_t g = 0; g < ng; g++)
            for (uint32_t h = 0; h < ng; h++)
                bp->meets[g][h] =
                    (uint8_t)sepax_filters_meet(bp->group_filter[g], bp->group_filter[h]);
    }
    bp->ngroups = ng;
    return ng;
}

sepax_status sepax_grid_build(sepax_broadphase *bp, const sepax_shapes *s, float margin,
                              float cell_size) {
    uint32_t n = s->count;
    bp->built = 0;
    if (!reserve_shapes(bp, n)) return SEPAX_ERR_NOMEM;
    float grow = margin > 0.0f ? margin : 0.0f;
    /* boxes, grown, in index order (the sorted columns hold them for now) */
    for (uint32_t i = 0; i < n; i++) {
        const sepax_aabb_block *b = &s->aabb[i / SEPAX_BLOCK_LANES];
        unsigned l = i % SEPAX_BLOCK_LANES;
        float lx = b->minx[l], ly = b->miny[l], hx = b->maxx[l], hy = b->maxy[l];
        float slack = (fabsf(lx) + fabsf(hx) + fabsf(ly) + fabsf(hy)) * SLACK;
        lx = lx - grow - slack;
        ly = ly - grow - slack;
        hx = hx + slack;
        hy = hy + slack;
        bp->lox[i] = lx;
        bp->loy[i] = ly;
        bp->hix[i] = hx;
        bp->hiy[i] = hy;
        float w = hx - lx, h = hy - ly;
        bp->ext[i] = w > h ? w : h;
    }
    float limit;
    float cell = cell_size > 0.0f ? cell_size : choose_cell(bp->ext, n, &limit);
    if (cell_size > 0.0f) limit = cell_size / (1.0f + 1.0f / 64.0f);
    /* wider than every small box by 1/64: a lower corner's cell, computed in
     * double, then never lands two cells from that of a box it overlaps */
    if (cell_size <= 0.0f) cell = cell + cell / 64.0f;
    if (!(cell > 0.0f) || !isfinite(cell)) cell = 1.0f; /* no shapes, or none small */

    double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
    uint32_t nsmall = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (bp->ext[i] > limit) continue;
        nsmall++;
        minx = bp->lox[i] < minx ? bp->lox[i] : minx;
        miny = bp->loy[i] < miny ? bp->loy[i] : miny;
        maxx = bp->lox[i] > maxx ? bp->lox[i] : maxx;
        maxy = bp->loy[i] > maxy ? bp->loy[i] : maxy;
    }
    if (nsmall == 0) minx = miny = maxx = maxy = 0.0;
    uint32_t ngroups = assign_groups(bp, s, limit);
    /* the cell budget is for all the sub-grids together */
    double budget = (CELLS_PER_SHAPE * nsmall + CELLS_FLOOR) / ngroups, cols, rows;
    for (;;) {
        cols = floor((maxx - minx) / cell) + 1.0;
        rows = floor((maxy - miny) / cell) + 1.0;
        if (cols * rows <= budget && cols <= AXIS_CELLS && rows <= AXIS_CELLS) break;
        cell *= 2.0f; /* a wider cell keeps every guarantee */
    }
    bp->nx = (uint32_t)cols;
    bp->ny = (uint32_t)rows;
    bp->cell = cell;
    bp->ox = minx;
    bp->oy = miny;
    bp->inv = 1.0 / (double)cell;
    bp->margin = grow;
    bp->ncells = bp->nx * bp->ny;
    size_t ncells = (size_t)bp->ncells * ngroups; /* every sub-grid's cells, group by group */
    size_t cap_cells = bp->cap_cells;
    if (!sepax_bp_reserve(bp, (void **)&bp->start, &cap_cells, ncells + 2, sizeof(uint32_t)))
        return SEPAX_ERR_NOMEM;
    bp->cap_cells = cap_cells;

    /* counting sort by group and cell; large shapes after the small ones (key holds
     * each small shape's group, from assign_groups) */
    uint32_t *start = bp->start;
    memset(start, 0, (ncells + 2) * sizeof *start);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = bp->key[i];
        if (k != UINT32_MAX)
            k = k * bp->ncells + sepax_grid_row(bp, bp->loy[i]) * bp->nx +
                sepax_grid_col(bp, bp->lox[i]);
        bp->key[i] = k;
        if (k != UINT32_MAX) start[k + 2]++;
    }
    for (size_t c = 2; c < ncells + 2; c++) start[c] += start[c - 1];
    /* start[k + 1] is now the first position of cell k: the scatter moves it on,
     * and leaves start[k] the first position of cell k */
    uint32_t large = nsmall;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = bp->key[i];
        uint32_t p = k == UINT32_MAX ? large++ : start[k + 1]++;
        bp->sid[p] = i;
    }
    bp->nsmall = nsmall;
    bp->n = n;
    /* gather the columns in sorted order, through ext (a scratch column) */
    float *cols4[4] = {bp->lox, bp->loy, bp->hix, bp->hiy};
    for (int c = 0; c < 4; c++) {
        float *col = cols4[c];
        for (uint32_t p = 0; p < n; p++) bp->ext[p] = col[bp->sid[p]];
        memcpy(col, bp->ext, (size_t)n * sizeof *col);
        memset(col + n, 0, BP_PAD * sizeof *col);
    }
    for (uint32_t p = 0; p < n; p++) {
        sepax_filter f = s->filter[bp->sid[p]];
        bp->cat[p] = f.category;
        bp->mask[p] = f.mask;
    }
    memset(bp->cat + n, 0, BP_PAD * sizeof *bp->cat);
    memset(bp->mask + n, 0, BP_PAD * sizeof *bp->mask);
    start[ncells] = nsmall;
    bp->built = 1;
    return SEPAX_OK;
}
