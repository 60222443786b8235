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
/* Lower corners sampled to find the bulk of the small shapes (far_shapes), and how many
 * small shapes far from it may join the large ones: 1024 and one in 64 more (more are a
 * spread the cell budget must cover; paired by their boxes' x as the large are, 1,800 strays
 * add 0.0 to 0.4 ms to a frame on the AMD host, sepax-bench-stray). */
#define FAR_SAMPLES 512u
#define FAR_MOST(nsmall) (1024u + (nsmall) / 64u)

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

uint32_t sepax_grid_col(const sepax_broadphase *bp, double x) {
    return sepax_clamp_cell((x - bp->ox) * bp->inv, (double)(bp->nx - 1));
}

uint32_t sepax_grid_row(const sepax_broadphase *bp, double y) {
    return sepax_clamp_cell((y - bp->oy) * bp->inv, (double)(bp->ny - 1));
}

bp_span sepax_grid_span(const sepax_broadphase *bp, float lx, float ly, float hx, float hy) {
    bp_span sp = {sepax_grid_col(bp, lx), sepax_grid_col(bp, hx), sepax_grid_row(bp, ly),
                  sepax_grid_row(bp, hy)};
    sp.x0 -= sp.x0 > 0;
    sp.y0 -= sp.y0 > 0;
    return sp;
}

/* Every per-shape and per-sorted-position array for n shapes; on failure the
 * grid is left unbuilt. */
static int reserve_shapes(sepax_broadphase *bp, size_t n) {
    if (n + BP_PAD <= bp->cap_shapes) return 1;
    size_t want = n + n / 2 + 64 + BP_PAD;
#define BP_ARRAY_PTR(field) (void **)&bp->field,
#define BP_ARRAY_ELEM(field) sizeof *bp->field,
    void **arrays[] = {BP_SHAPE_ARRAYS(BP_ARRAY_PTR)};
    const size_t elems[] = {BP_SHAPE_ARRAYS(BP_ARRAY_ELEM)};
#undef BP_ARRAY_PTR
#undef BP_ARRAY_ELEM
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        size_t elem = elems[i];
        if (*arrays[i]) bp->mem.free(*arrays[i], bp->mem.ctx);
        *arrays[i] = want <= SIZE_MAX / elem ? bp->mem.alloc(want * elem, 64, bp->mem.ctx) : NULL;
        if (!*arrays[i]) {
            bp->cap_shapes = 0;
            return 0;
        }
        memset(*arrays[i], 0, want * elem); /* the padding is read (and its bits dropped) */
    }
    bp->cap_shapes = want;
    return 1;
}

/* What one build task found in its range of shapes, merged in range order
 * (so the result does not depend on which thread ran which range). */
typedef struct build_part {
    uint32_t hist[256]; /* box extents by binary exponent (hist_step) */
    uint32_t below[2];  /* extents below build_ctx.below[0] and [1] */
    float cell;         /* the largest small extent */
    uint32_t nsmall;
    float minx, miny, maxx, maxy; /* lower corners of the small shapes */
    uint32_t nfilters;            /* distinct filters, in index order; BP_GROUPS + 1: too many */
    sepax_filter filter[BP_GROUPS];
    /* what keys_step adds to a shape's cell for its slot (SLOT_*): group * ncells */
    uint32_t group_at[BP_GROUPS + 2];
} build_part;

size_t sepax_bp_part_bytes(void) { return sizeof(build_part); }

/* A shape's filter among its part's (build_part.filter): 0 .. BP_GROUPS - 1, or past them
 * (too many: one group), or a large shape. Kept per shape from the classifying pass to
 * keys_step in the mask column, which columns_step fills only after the sort. */
enum { SLOT_TOO_MANY = BP_GROUPS, SLOT_LARGE = BP_GROUPS + 1 };
static inline uint8_t *slots_of(const sepax_broadphase *bp) { return (uint8_t *)bp->mask; }

/* What the build's parallel steps share. */
typedef struct build_ctx build_ctx;
/* One step of the build over shapes (or sorted positions) i0 .. i1-1, range `item`. */
typedef void build_step(const build_ctx *b, uint32_t item, uint32_t i0, uint32_t i1);
struct build_ctx {
    sepax_broadphase *bp;
    const sepax_shapes *s;
    const sepax_kernel *k;
    float grow, limit;
    float below[2]; /* the bounds of the guessed limit's median bucket (boxes_classify_step) */
    build_part *parts;
    build_step *step;
    uint32_t items;
    /* The boxes stored around the caches. The columns' gather reads them in cell order; in a
     * store whose shapes are in no spatial order (bullet-hell's) half of those reads, on two
     * threads, are of lines the other core wrote, and the next build's stores to those lines
     * wait on the other core's copy: on a Zen 5, bullet-hell 100k, this pass took 0.37 ms on
     * two threads against 0.27 on one, and 0.14 when run twice in a row. Around the caches
     * there is no copy to wait on (the grid on two threads 0.79-0.81 -> 0.64-0.67 ms); the
     * gather reads memory instead, which costs more where the lines stay on one core: on one
     * thread, and in a store in grid order (particles 100k, two threads: 0.48 -> 0.57 ms).
     * So only where the last build's sort found its ranges mingled (sort_keys). */
    int stream;
};

static void step_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    (void)worker;
    const build_ctx *b = ctx;
    uint32_t n = b->s->count;
    for (uint32_t item = begin; item < end; item++) {
        uint32_t i0 = item * BP_BUILD_SHAPES;
        b->step(b, item, i0, n - i0 < BP_BUILD_SHAPES ? n : i0 + BP_BUILD_SHAPES);
    }
}

/* A step over every range of BP_BUILD_SHAPES, on the broadphase's scheduler. */
static void run_step(build_ctx *b, build_step *step) {
    b->step = step;
    sepax_bp_for_shapes(b->bp, b->s->count, step_task, b->items, b);
}

/* Shape i's box grown by the margin and the slack, and its extent. */
static inline bp_box grown_box(const build_ctx *b, uint32_t i) {
    const sepax_aabb_block *a = &b->s->aabb[i / SEPAX_BLOCK_LANES];
    unsigned l = i % SEPAX_BLOCK_LANES;
    float lx = a->minx[l], ly = a->miny[l], hx = a->maxx[l], hy = a->maxy[l];
    float slack = sepax_grid_slack(lx, ly, hx, hy);
    lx = lx - b->grow - slack;
    ly = ly - b->grow - slack;
    hx = hx + slack;
    hy = hy + slack;
    float w = hx - lx, h = hy - ly, e = w > h ? w : h;
    return (bp_box){lx, ly, hx, hy, b->s->filter[i], e, 0};
}

/* A filter as one value, to compare for equality in one instruction. */
static inline uint64_t filter_bits(sepax_filter f) {
    uint64_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* What classify_one gathers over a range, in locals while it runs. */
typedef struct classify_acc {
    float cell, minx, miny, maxx, maxy;
    uint32_t nsmall, nf;
    uint64_t recent0, recent1; /* noted filters once nf > 0 */
    uint32_t slot0, slot1;     /* and their slots */
} classify_acc;

static inline classify_acc classify_begin(void) {
    classify_acc c = {0.0f, INFINITY, INFINITY, -INFINITY, -INFINITY, 0, 0, 0, 0, 0, 0};
    return c;
}

/* A small shape's filter noted among its part's distinct filters, and its slot returned.
 * Shapes mingle a few filters (a player's shots among enemies' shots), so the two filters
 * met last are checked first, without a branch on which: a check against the last one alone
 * mispredicted at every change (bullet-hell's shots: one shape in five). */
static inline uint8_t classify_filter(classify_acc *c, build_part *part, sepax_filter f) {
    uint64_t fb = filter_bits(f);
    if ((c->nf != 0) & ((fb == c->recent0) | (fb == c->recent1)))
        return (uint8_t)(fb == c->recent0 ? c->slot0 : c->slot1);
    uint32_t g = 0, nf = c->nf;
    while (g < nf && g < BP_GROUPS &&
           (f.category != part->filter[g].category || f.mask != part->filter[g].mask))
        g++;
    if (g == nf && nf <= BP_GROUPS) {
        if (nf < BP_GROUPS) part->filter[nf] = f;
        c->nf = nf + 1;
    }
    uint32_t slot = g < BP_GROUPS ? g : SLOT_TOO_MANY;
    c->recent1 = nf ? c->recent0 : fb;
    c->slot1 = nf ? c->slot0 : slot;
    c->recent0 = fb;
    c->slot0 = slot;
    return (uint8_t)slot;
}

/* A block's slots, as classify_filter gives them one shape at a time (SLOT_LARGE for a large
 * shape): where the kernel found a shape's filter to be one of the two met last (its lanes'
 * bits, when `known`), the slot that filter has, without a call; the rest through
 * classify_filter, in order. Shapes mingle a few filters, so most blocks need no call:
 * bullet-hell 100k, boxes_classify_step 23.3 -> 11.2 instructions a shape and the kernel's
 * grid_boxes 12.4 -> 15.3 (AVX2, callgrind; docs/performance.md, "A Zen 4 again"). */
static inline void slots_of_block(classify_acc *c, build_part *part, const bp_lanes *m,
                                  unsigned known, uint8_t slot0, uint8_t slot1,
                                  const sepax_filter *filter, uint8_t *slot) {
    unsigned eq0 = m->eq0 & known, eq1 = m->eq1 & known, large = m->large;
    if ((eq0 | eq1 | large) == 0xffu) {
        for (unsigned l = 0; l < SEPAX_BLOCK_LANES; l++)
            slot[l] = (uint8_t)(large >> l & 1u ? SLOT_LARGE : eq0 >> l & 1u ? slot0 : slot1);
        return;
    }
    for (unsigned l = 0; l < SEPAX_BLOCK_LANES; l++)
        slot[l] = large >> l & 1u ? (uint8_t)SLOT_LARGE
                  : eq0 >> l & 1u ? slot0
                  : eq1 >> l & 1u ? slot1
                                  : classify_filter(c, part, filter[l]);
}

/* Small or large (the key UINT32_MAX); for the small: the cell, their count, the span of
 * their lower corners, their filters (classify_filter). */
static inline void classify_one(classify_acc *c, build_part *part, uint32_t *key, uint8_t *slot,
                                const bp_box *box, float limit) {
    float e = box->ext;
    if (e > limit) {
        *key = UINT32_MAX;
        *slot = SLOT_LARGE;
        return;
    }
    *key = 0;
    c->nsmall++;
    c->cell = e > c->cell ? e : c->cell;
    float lx = box->lx, ly = box->ly;
    c->minx = lx < c->minx ? lx : c->minx;
    c->miny = ly < c->miny ? ly : c->miny;
    c->maxx = lx > c->maxx ? lx : c->maxx;
    c->maxy = ly > c->maxy ? ly : c->maxy;
    *slot = classify_filter(c, part, box->f);
}

/* The kernel's tally of some small shapes joined to the running one. */
static inline void classify_join(classify_acc *c, const bp_tally *t) {
    c->nsmall += t->nsmall;
    c->cell = t->cell > c->cell ? t->cell : c->cell;
    c->minx = t->minx < c->minx ? t->minx : c->minx;
    c->miny = t->miny < c->miny ? t->miny : c->miny;
    c->maxx = t->maxx > c->maxx ? t->maxx : c->maxx;
    c->maxy = t->maxy > c->maxy ? t->maxy : c->maxy;
}

static inline void classify_end(const classify_acc *c, build_part *part) {
    part->cell = c->cell;
    part->nsmall = c->nsmall;
    part->minx = c->minx;
    part->miny = c->miny;
    part->maxx = c->maxx;
    part->maxy = c->maxy;
    part->nfilters = c->nf;
}

/* Boxes grown by the margin and the slack, the small/large split with the limit guessed
 * (b->limit), and the extents below the guess's bounds (b->below): the grid checks the guess
 * after, and classifies again when it was wrong (always on a broadphase's first build, whose
 * guess is 0). Sizes change slowly, so the last automatic build's limit is almost always
 * this one's; the pass that read every box again was a fifth of a bullet-hell 10k grid. */
static void boxes_classify_step(const build_ctx *b, uint32_t item, uint32_t i0, uint32_t i1) {
    sepax_broadphase *bp = b->bp;
    build_part *part = &b->parts[item];
    uint32_t below0 = 0, below1 = 0;
    classify_acc c = classify_begin();
    const float limit = b->limit;
    /* Whole blocks (i0 starts one) through the kernel's boxes, a piece at a time, then their
     * extents and filters while the piece is in L1; the rest one at a time. */
    enum { PIECE_BLOCKS = 32 };
    const sepax_filter *filter = b->s->filter;
    bp_box *ubox = bp->ubox;
    uint32_t *key = bp->key;
    uint8_t *slot = slots_of(bp);
    uint32_t i = i0;
    while (i1 - i >= SEPAX_BLOCK_LANES) {
        uint32_t blocks = (i1 - i) / SEPAX_BLOCK_LANES;
        blocks = blocks < PIECE_BLOCKS ? blocks : PIECE_BLOCKS;
        bp_tally t;
        bp_lanes lanes[PIECE_BLOCKS];
        /* the two filters met last, while there are any (before, a filter of all zeros would
         * pass for them), and their slots: a filter's slot never changes, so the kernel's
         * comparisons hold for the whole piece while classify_filter moves on */
        const bp_recent recent = {{c.recent0, c.recent1}};
        const unsigned known = c.nf != 0 ? 0xffu : 0u;
        const uint8_t slot0 = (uint8_t)c.slot0, slot1 = (uint8_t)c.slot1;
        b->k->grid_boxes(b->s->aabb, filter, i / SEPAX_BLOCK_LANES, blocks, b->grow, limit,
                         b->below, ubox, key, &t, &recent, lanes, b->stream);
        classify_join(&c, &t);
        below0 += t.below[0];
        below1 += t.below[1];
        for (uint32_t j = 0; j < blocks; j++, i += SEPAX_BLOCK_LANES)
            slots_of_block(&c, part, &lanes[j], known, slot0, slot1, filter + i, slot + i);
    }
    for (; i < i1; i++) {
        bp_box box = grown_box(b, i);
        ubox[i] = box;
        below0 += box.ext < b->below[0];
        below1 += box.ext < b->below[1];
        classify_one(&c, part, &key[i], &slot[i], &box, limit);
    }
    classify_end(&c, part);
    part->below[0] = below0;
    part->below[1] = below1;
}

/* The extents' histogram by binary exponent, over the boxes boxes_classify_step wrote: the
 * limit when the guess was wrong. */
static void hist_step(const build_ctx *b, uint32_t item, uint32_t i0, uint32_t i1) {
    uint32_t *hist = b->parts[item].hist;
    memset(hist, 0, sizeof b->parts[item].hist);
    const bp_box *ubox = b->bp->ubox;
    for (uint32_t i = i0; i < i1; i++) {
        uint32_t bits;
        memcpy(&bits, &ubox[i].ext, sizeof bits);
        hist[(bits >> 23) & 0xffu]++; /* the biased exponent: e in [2^(x-127), 2^(x-126)) */
    }
}

/* The limit of median bucket m is 2^(m - 124): the bucket whose limit `guess` is, when it is
 * one in 1 .. 251, else -1. Extents are >= 0, for which "below 2^(x - 127)" is "in a bucket
 * before x" (NaN, bucket 255, is below no bound), so the guess is the limit when fewer than
 * half of them are below 2^(m - 127) and at least half below 2^(m - 126). */
static int guess_bucket(float guess) {
    uint32_t bits = sepax_float_bits(guess);
    int m = (int)(bits >> 23) - 3;
    return (bits & 0x807fffffu) == 0 && m >= 1 && m <= 251 ? m : -1;
}

/* The small/large split again, over the boxes boxes_classify_step wrote, with the limit
 * known. */
static void classify_step(const build_ctx *b, uint32_t item, uint32_t i0, uint32_t i1) {
    sepax_broadphase *bp = b->bp;
    build_part *part = &b->parts[item];
    classify_acc c = classify_begin();
    const float limit = b->limit;
    uint8_t *slot = slots_of(bp);
    for (uint32_t i = i0; i < i1; i++)
        classify_one(&c, part, &bp->key[i], &slot[i], &bp->ubox[i], limit);
    classify_end(&c, part);
}

/* The filter groups from the parts' distinct filters, in index order of first appearance:
 * at most BP_GROUPS, else one group and the filters tested in the range kernel. */
static void merge_groups(sepax_broadphase *bp, const build_part *parts, uint32_t items) {
    uint32_t ng = 0;
    bp->grouped = 1;
    for (uint32_t it = 0; it < items && bp->grouped; it++) {
        if (parts[it].nfilters > BP_GROUPS) bp->grouped = 0;
        for (uint32_t k = 0; k < parts[it].nfilters && bp->grouped; k++) {
            sepax_filter f = parts[it].filter[k];
            uint32_t g = 0;
            while (g < ng && (f.category != bp->group_filter[g].category ||
                              f.mask != bp->group_filter[g].mask))
                g++;
            if (g < ng) continue;
            if (ng == BP_GROUPS)
                bp->grouped = 0;
            else
                bp->group_filter[ng++] = f;
        }
    }
    if (!bp->grouped || ng == 0) {
        bp->grouped = 0;
        ng = 1;
        bp->meets[0][0] = 1; /* the range tests apply the filters */
    } else {
        for (uint32_t g = 0; g < ng; g++)
            for (uint32_t h = 0; h < ng; h++)
                bp->meets[g][h] =
                    (uint8_t)sepax_filters_meet(bp->group_filter[g], bp->group_filter[h]);
    }
    bp->ngroups = ng;
}

/* The group of a small shape's filter. */
static uint32_t group_of(const sepax_broadphase *bp, sepax_filter f) {
    uint32_t g = 0;
    while (g + 1 < bp->ngroups &&
           (f.category != bp->group_filter[g].category || f.mask != bp->group_filter[g].mask))
        g++;
    return g;
}

/* Each small shape's key: the cell of its lower corner (the kernel's grid_cells, the
 * cells of sepax_grid_col and sepax_grid_row), plus its group's first cell, from the slot
 * the classifying pass gave it and its part's table (group_at). A large shape's: the key
 * after every group's cells, where the sort puts the large. */
static void keys_step(const build_ctx *b, uint32_t item, uint32_t i0, uint32_t i1) {
    const sepax_broadphase *bp = b->bp;
    uint32_t *key = bp->key;
    const bp_geometry geo = {bp->ox,
                             bp->oy,
                             bp->inv,
                             (double)(bp->nx - 1),
                             (double)(bp->ny - 1),
                             bp->nx,
                             bp->ncells * bp->ngroups};
    b->k->grid_cells(bp->ubox, i0, i1, &geo, key);
    if (!bp->grouped) return; /* one group, 0 */
    /* the group's cells before the shape's: 0 for a large one, whose key is past them all */
    const uint32_t *group_at = b->parts[item].group_at;
    const uint8_t *slot = slots_of(bp);
    for (uint32_t i = i0; i < i1; i++) key[i] += group_at[slot[i]];
}

/* The columns the range kernel reads, in sorted order. */
static void columns_step(const build_ctx *b, uint32_t item, uint32_t p0, uint32_t p1) {
    (void)item;
    const sepax_broadphase *bp = b->bp;
    const bp_columns out = {bp->lox, bp->loy, bp->hix, bp->hiy, bp->cat, bp->mask};
    b->k->grid_columns(bp->ubox, bp->sid, p0, p1, &out);
}

/* The counting sort by key, split into `ranges` ranges of shapes (one per worker; the result
 * is the one stable order whatever the split): each range counts its keys; each range then
 * scatters its shapes, by key, into its own stretch of a scratch array; and pieces of the
 * keys join the ranges' runs of each key into sid, range after range. Scattered straight into
 * sid, the ranges' pieces of a cell lie side by side, and two threads writing one cache line
 * made the scatter slower on two threads than on one (bullet-hell 100k: 0.29 ms, 0.36).
 * That happens when the ranges' keys mingle, a store in no spatial order; a store kept in
 * grid order gives each range its own cells, and there the join would only add a pass
 * (particles 100k on two threads: 0.15 ms against 0.32). So the scatter writes sid itself
 * when there is one range, or when at most an eighth of the keys hold shapes of more than
 * one range. */
typedef struct sort_ctx {
    sepax_broadphase *bp;
    const sepax_shapes *s;
    uint32_t ranges, nkeys; /* keys: the cells of every group; entry nkeys counts the large */
    uint32_t *to;           /* where the scatter writes: sid, or the scratch */
    uint32_t split[BP_SORT_RANGES + 1]; /* the join's pieces of keys */
} sort_ctx;

static uint32_t range_begin(const sort_ctx *c, uint32_t r) {
    return (uint32_t)((uint64_t)c->s->count * r / c->ranges);
}

static void count_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    (void)worker;
    const sort_ctx *c = ctx;
    const uint32_t *key = c->bp->key;
    for (uint32_t r = begin; r < end; r++) {
        uint32_t *count = c->bp->sort_at + (size_t)r * (c->nkeys + 1);
        memset(count, 0, (c->nkeys + 1) * sizeof *count);
        for (uint32_t i = range_begin(c, r), i1 = range_begin(c, r + 1); i < i1; i++) {
            count[key[i]]++;
        }
    }
}

/* Range r's shapes to its stretch (range_begin(r) on), key by key: at[k] is its next place
 * for key k, and after the scatter the end of its run of key k. */
static void scatter_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    (void)worker;
    const sort_ctx *c = ctx;
    const uint32_t *key = c->bp->key;
    uint32_t *to = c->to;
    const uint8_t *gen = c->s->gen;
    for (uint32_t r = begin; r < end; r++) {
        uint32_t *at = c->bp->sort_at + (size_t)r * (c->nkeys + 1);
        for (uint32_t i = range_begin(c, r), i1 = range_begin(c, r + 1); i < i1; i++) {
            uint32_t p = at[key[i]]++;
            to[p] = i | (uint32_t)gen[i] << SEPAX_ID_INDEX_BITS;
        }
    }
}

/* Keys split[q] .. split[q + 1] - 1: each key's runs, range by range, to sid from its start.
 * A cell holds a few shapes, so a run is copied four at a time, the last four running past
 * its end (the next run writes over them) except near the end of the piece, which another
 * thread may be writing: a loop of one to four per run would miss its branch every time. */
static void join_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    (void)worker;
    const sort_ctx *c = ctx;
    const uint32_t *start = c->bp->start, *from = c->to;
    uint32_t *sid = c->bp->sid;
    for (uint32_t q = begin; q < end; q++) {
        uint32_t k1 = c->split[q + 1];
        uint32_t last = k1 <= c->nkeys ? start[k1] : c->s->count; /* the piece's end */
        for (uint32_t k = c->split[q]; k < k1; k++) {
            uint32_t p = start[k];
            for (uint32_t r = 0; r < c->ranges; r++) {
                const uint32_t *at = c->bp->sort_at + (size_t)r * (c->nkeys + 1);
                uint32_t j0 = k ? at[k - 1] : range_begin(c, r), j1 = at[k];
                if (p + (j1 - j0) + 4 <= last) {
                    for (uint32_t j = j0; j < j1; j += 4, p += 4)
                        memcpy(sid + p, from + j, 4 * sizeof *sid);
                    p -= (j1 - j0 + 3) / 4 * 4 - (j1 - j0);
                } else {
                    for (uint32_t j = j0; j < j1; j++) sid[p++] = from[j];
                }
            }
        }
    }
}

/* start[k]: the first position of key k (start[nkeys] = nsmall), and sid, over `ranges`
 * ranges; 0 on running out of memory (nothing sorted). */
static int sort_keys(sepax_broadphase *bp, const sepax_shapes *s, uint32_t nkeys, uint32_t ranges) {
    size_t cap = bp->cap_sort_at;
    if (!sepax_bp_reserve(bp, (void **)&bp->sort_at, &cap, (size_t)ranges * (nkeys + 1),
                          sizeof *bp->sort_at))
        return 0;
    bp->cap_sort_at = cap;
    sort_ctx c = {bp, s, ranges, nkeys, bp->sid, {0}};
    sepax_bp_for_shapes(bp, s->count, count_task, ranges, &c);
    uint32_t shared = 0; /* keys with shapes of more than one range */
    for (uint32_t k = 0; ranges > 1 && k < nkeys; k++) {
        uint32_t holding = 0;
        for (uint32_t r = 0; r < ranges; r++)
            holding += bp->sort_at[(size_t)r * (nkeys + 1) + k] != 0;
        shared += holding > 1;
    }
    int join = shared > nkeys / 8;
    bp->mingled = join;
    /* the scratch: the filter column, which columns_step fills only after the sort */
    if (join) c.to = bp->cat;
    uint32_t run = 0, local[BP_SORT_RANGES]; /* with the join: each range's next place */
    for (uint32_t r = 0; r < ranges; r++) local[r] = join ? range_begin(&c, r) : 0;
    if (ranges == 1) { /* the same sums without the loop over ranges (a grid has cells a shape) */
        uint32_t *at = bp->sort_at, *start = bp->start;
        for (uint32_t k = 0; k <= nkeys; k++) {
            uint32_t n = at[k];
            start[k] = at[k] = run;
            run += n;
        }
    } else {
        for (uint32_t k = 0; k <= nkeys; k++) { /* the large shapes (k == nkeys) last */
            bp->start[k] = run;
            for (uint32_t r = 0; r < ranges; r++) {
                uint32_t *at = &bp->sort_at[(size_t)r * (nkeys + 1) + k];
                uint32_t n = *at;
                if (join) { /* the range's own place */
                    *at = local[r];
                    local[r] += n;
                } else { /* the shapes' place */
                    *at = run;
                }
                run += n;
            }
        }
    }
    sepax_bp_for_shapes(bp, s->count, scatter_task, ranges, &c);
    if (join) { /* pieces of about as many shapes each */
        c.split[ranges] = nkeys + 1;
        for (uint32_t q = 1, k = 0; q < ranges; q++) {
            while (k < nkeys && bp->start[k] < range_begin(&c, q)) k++;
            c.split[q] = k;
        }
        sepax_bp_for_shapes(bp, s->count, join_task, ranges, &c);
    }
    return 1;
}

/* A float as an unsigned key in the float's order: the sign bit flipped on positives, every
 * bit flipped on negatives (-0 sorts just before +0; NaN never occurs, the store holds finite
 * boxes). */
static inline uint32_t float_order_key(float x) {
    uint32_t u = sepax_float_bits(x);
    return u ^ ((0u - (u >> 31)) | 0x80000000u);
}

/* The large shapes (sorted positions lo .. hi-1) in the order of their grown boxes' lower x,
 * the one the range test compares (ties in index order, as sort_keys left them): a stable LSD
 * radix sort of the floats' order keys, a byte a pass, a pass skipped where every key has the
 * same byte. A large owner then pairs only with the large shapes after it whose boxes start
 * at or before its own box's upper x (frame.c's pair_large): the rest fail the range test's x
 * comparison. Until 2026-11-30 the list was in grid-column order and an owner read on to the
 * last shape keyed in its upper x's column; but the columns span only the small shapes' lower
 * corners, so large shapes past them (a level's tiles beside an arena of bullets), or all of
 * them when none is small (a given cell smaller than every shape), shared one clamped column
 * and were paired box by box, the square of their number. The build fills `cat`, `mask` and
 * the columns only after this, and is done with `key`: the keys go in `cat` and `key`, the
 * positions in `sid` and `mask`, turn about. */
static double sort_large(sepax_broadphase *bp, uint32_t lo, uint32_t hi) {
    uint32_t m = hi - lo;
    if (m < 2) return 0.0;
    uint32_t *keys[2] = {bp->cat, bp->key}, *ids[2] = {bp->sid + lo, bp->mask};
    uint32_t count[4][256];
    memset(count, 0, sizeof count);
    double width = 0.0, right = -INFINITY;
    for (uint32_t j = 0; j < m; j++) {
        const bp_box *b = &bp->ubox[sepax_id_index(ids[0][j])];
        uint32_t k = float_order_key(b->lx);
        width += (double)b->hx - (double)b->lx;
        right = b->hx > right ? b->hx : right;
        keys[0][j] = k;
        for (unsigned d = 0; d < 4; d++) count[d][(k >> (8 * d)) & 0xffu]++;
    }
    unsigned at = 0; /* the buffers that hold the list */
    for (unsigned d = 0; d < 4; d++) {
        unsigned shift = 8 * d;
        if (count[d][(keys[at][0] >> shift) & 0xffu] == m) continue; /* one byte: in order */
        uint32_t next[256], run = 0;
        for (unsigned b = 0; b < 256; b++) {
            next[b] = run;
            run += count[d][b];
        }
        const uint32_t *kf = keys[at], *idf = ids[at];
        uint32_t *kt = keys[at ^ 1u], *idt = ids[at ^ 1u];
        for (uint32_t j = 0; j < m; j++) {
            uint32_t p = next[(kf[j] >> shift) & 0xffu]++;
            kt[p] = kf[j];
            idt[p] = idf[j];
        }
        at ^= 1u;
    }
    if (at) memcpy(ids[0], ids[1], m * sizeof *ids[0]);
    /* how many of the list an owner reads by x alone, about: m * (mean width) / (span of x) */
    double left = bp->ubox[sepax_id_index(ids[0][0])].lx;
    return width / (right - left);
}

/* The large list (sorted positions lo .. hi-1, by lower x) cut into bands of lower y. By x
 * alone, thousands of large shapes crowded in x (a level's tiles, rocks among particles)
 * still paired box by box within the crowd. Now the large shapes whose grown extent is below
 * t (the top of the power-of-two bucket that takes the count past 7/8 of them: "medium") go
 * to bands at least 2t high, each by lower x, stable, and the rest ("huge": walls, a boss)
 * after them, by lower x. Two medium boxes that overlap then have lower corners in the same
 * band or adjacent ones, and one in the band above starts no more than t before the other in
 * x (frame.c's pair_large, where the proof is). Below BP_BAND_MIN large shapes, or a crowd in x
 * below BP_BAND_CROWD, it is one band and no huge ones: the list by lower x, as before. The bands
 * go in `key` (scratch since sort_keys), the positions through `mask` (filled only later, by
 * columns_step). */
static void band_large(sepax_broadphase *bp, uint32_t lo, uint32_t hi, double crowd) {
    uint32_t m = hi - lo;
    bp->nbands = 1;
    bp->band_t = INFINITY;
    bp->band_y0 = 0.0;
    bp->band_inv = 0.0;
    bp->band_start[0] = lo;
    bp->band_start[1] = hi;
    bp->band_start[2] = hi;
    /* By x alone an owner reads about `crowd` positions of the list, a few instructions each
     * in the range test; the bands cost a few binary searches an owner whatever the crowd.
     * Below BP_BAND_CROWD the list stays by x alone: 20,000 circles all large in a 300 x 300
     * field (a crowd of 67) took 11% more instructions a frame in bands (docs/performance.md,
     * "Large shapes in bands"). */
    if (m < BP_BAND_MIN || !(crowd > bp->band_crowd)) return;
    const bp_box *ubox = bp->ubox;
    uint32_t *sid = bp->sid + lo;
    uint32_t hist[256] = {0};
    for (uint32_t j = 0; j < m; j++)
        hist[(sepax_float_bits(ubox[sepax_id_index(sid[j])].ext) >> 23) & 0xffu]++;
    uint32_t run = 0, e = 0;
    while (e < 255 && (run += hist[e]) < m - m / 8) e++;
    if (e >= 253) return;                      /* extents past 2^126 or NaN: no finite band */
    float t = sepax_bits_float((e + 1) << 23); /* the top of bucket e: 2^(e - 126) */
    double y0 = INFINITY, y1 = -INFINITY;
    for (uint32_t j = 0; j < m; j++) {
        const bp_box *b = &ubox[sepax_id_index(sid[j])];
        if (!(b->ext < t)) continue;
        y0 = b->ly < y0 ? b->ly : y0;
        y1 = b->ly > y1 ? b->ly : y1;
    }
    double height = 2.0 * (double)t, rows = floor((y1 - y0) / height) + 1.0;
    /* one band: by x alone, as below BP_BAND_MIN (frame.c's pair_large then reads the whole
     * list by lower x, which a split into medium and huge would break) */
    if (rows < 2.0) return;
    if (!(rows <= BP_BANDS)) { /* taller bands: fewer of them keep every guarantee */
        height = (y1 - y0) / (BP_BANDS - 1);
        rows = BP_BANDS;
    }
    bp->nbands = (uint32_t)rows;
    bp->band_t = t;
    bp->band_y0 = y0;
    bp->band_inv = 1.0 / height;
    uint32_t nb = bp->nbands, *band = bp->key, *to = bp->mask, *count = bp->band_start;
    memset(count, 0, (nb + 2) * sizeof *count);
    for (uint32_t j = 0; j < m; j++) {
        const bp_box *b = &ubox[sepax_id_index(sid[j])];
        band[j] = b->ext < t ? sepax_band_of(bp, b->ly) : nb;
        count[band[j] + 1]++;
    }
    count[0] = lo;
    for (uint32_t k = 1; k <= nb + 1; k++) count[k] += count[k - 1];
    /* count[k] is now where band k starts; each entry taken moves it on, so that after the
     * scatter count[k] is where band k + 1 starts: shift back by one */
    for (uint32_t j = 0; j < m; j++) to[count[band[j]]++ - lo] = sid[j];
    memmove(count + 1, count, (nb + 1) * sizeof *count);
    count[0] = lo;
    memcpy(sid, to, m * sizeof *sid);
}

/* Whether lower corners over minx .. maxy need more cells of this size than the budget. */
static int over_budget(double minx, double miny, double maxx, double maxy, float cell,
                       double budget) {
    double cols = floor((maxx - minx) / cell) + 1.0, rows = floor((maxy - miny) / cell) + 1.0;
    return !(cols * rows <= budget && cols <= AXIS_CELLS && rows <= AXIS_CELLS);
}

/* v[at] sifted down the max-heap over v[0 .. end). */
static void sift_down(double *v, uint32_t at, uint32_t end) {
    for (;;) {
        uint32_t kid = 2 * at + 1;
        if (kid >= end) return;
        if (kid + 1 < end && v[kid + 1] > v[kid]) kid++;
        if (!(v[kid] > v[at])) return;
        double t = v[at];
        v[at] = v[kid];
        v[kid] = t;
        at = kid;
    }
}

/* v[0 .. m) in ascending order, in place: a heap sort (the C library's qsort may call
 * malloc, and a steady frame allocates nothing). */
static void sort_values(double *v, uint32_t m) {
    for (uint32_t top = m / 2; top-- > 0;) sift_down(v, top, m);
    for (uint32_t end = m; end-- > 1;) {
        double t = v[0];
        v[0] = v[end];
        v[end] = t;
        sift_down(v, 0, end);
    }
}

/* The middle 7/8 of m sampled values, widened on both sides by its own width, and by at
 * least `least` (a field one cell wide, or a column of one x, is a bulk too). */
static void bulk_range(double *v, uint32_t m, double least, double *lo, double *hi) {
    sort_values(v, m);
    double a = v[m / 16], b = v[m - 1 - m / 16], w = b - a;
    w = w > least ? w : least;
    *lo = a - w;
    *hi = b + w;
}

static int outside(const bp_box *b, const double r[4]) {
    return b->lx < r[0] || b->lx > r[1] || b->ly < r[2] || b->ly > r[3];
}

/* A few small shapes far from the rest (a bullet parked off the field, a stray) would
 * stretch the grid over the empty space between, and the cell budget would then widen
 * every cell: one circle at (1e5, 1e5) beside 50k in a 250 x 250 field made each frame
 * about 180 times slower. Such shapes join the large ones instead (each is paired through
 * the grid and with the other large shapes, as a boss is), when there are at most
 * FAR_MOST of them outside the bulk of a fixed sample's lower corners; the extent
 * (ext: minx, miny, maxx, maxy) shrinks to the rest, and *widest to their largest extent.
 * The sample, the test and the order are the same whatever the thread count. Returns how
 * many joined the large. */
static uint32_t far_shapes(sepax_broadphase *bp, uint32_t n, uint32_t nsmall, float cell,
                           double ext[4], float *widest) {
    double xs[FAR_SAMPLES], ys[FAR_SAMPLES], bulk[4];
    uint32_t samples = n < FAR_SAMPLES ? n : FAR_SAMPLES, m = 0;
    for (uint32_t k = 0; k < samples; k++) {
        uint32_t i = (uint32_t)((uint64_t)n * k / samples);
        if (bp->key[i] == UINT32_MAX) continue; /* large already */
        xs[m] = bp->ubox[i].lx;
        ys[m] = bp->ubox[i].ly;
        m++;
    }
    if (m < 64) return 0; /* too few to tell a bulk */
    bulk_range(xs, m, 16.0 * cell, &bulk[0], &bulk[1]);
    bulk_range(ys, m, 16.0 * cell, &bulk[2], &bulk[3]);
    if (ext[0] >= bulk[0] && ext[2] <= bulk[1] && ext[1] >= bulk[2] && ext[3] <= bulk[3])
        return 0; /* nothing outside */
    uint32_t far = 0, most = FAR_MOST(nsmall);
    double in[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    float wide = 0.0f;
    for (uint32_t i = 0; i < n; i++) {
        const bp_box *b = &bp->ubox[i];
        if (bp->key[i] == UINT32_MAX) continue;
        if (outside(b, bulk)) {
            if (++far > most) return 0; /* not a few: a spread the budget must cover */
            continue;
        }
        in[0] = b->lx < in[0] ? b->lx : in[0];
        in[1] = b->ly < in[1] ? b->ly : in[1];
        in[2] = b->lx > in[2] ? b->lx : in[2];
        in[3] = b->ly > in[3] ? b->ly : in[3];
        wide = b->ext > wide ? b->ext : wide;
    }
    uint8_t *slot = slots_of(bp);
    for (uint32_t i = 0; i < n && far; i++) {
        if (bp->key[i] != UINT32_MAX && outside(&bp->ubox[i], bulk)) {
            bp->key[i] = UINT32_MAX;
            slot[i] = SLOT_LARGE;
        }
    }
    if (far) {
        memcpy(ext, in, sizeof in);
        *widest = wide;
    }
    return far;
}

sepax_status sepax_grid_build(sepax_broadphase *bp, const sepax_shapes *s, float margin,
                              float cell_size) {
    uint32_t n = s->count;
    bp->built = 0;
    if (!reserve_shapes(bp, n)) return SEPAX_ERR_NOMEM;
    float grow = margin > 0.0f ? margin : 0.0f;
    uint32_t items = (uint32_t)(((size_t)n + BP_BUILD_SHAPES - 1) / BP_BUILD_SHAPES);
    size_t cap_parts = bp->cap_parts;
    if (!sepax_bp_reserve(bp, (void **)&bp->parts, &cap_parts, items + 1, sizeof(build_part)))
        return SEPAX_ERR_NOMEM;
    bp->cap_parts = cap_parts;
    /* small shapes: up to 4x the top of the median size's power-of-two bucket (a few
     * bosses or walls must not make every cell huge), or up to a given cell */
    float guess = cell_size > 0.0f ? cell_size / (1.0f + 1.0f / 64.0f) : bp->limit;
    /* the build's arithmetic passes run on the queries' kernel (the scalar one when
     * SEPAX_BACKEND names none that runs: the keys are the same on every kernel) */
    const sepax_kernel *k;
    if (sepax_kernel_for_query(&k) != SEPAX_OK) k = &sepax_kernel_scalar;
    int m = cell_size > 0.0f ? -1 : guess_bucket(guess);
    build_ctx ctx = {
        bp,        s,
        k,         grow,
        guess,     {m >= 0 ? ldexpf(1.0f, m - 127) : 0.0f, m >= 0 ? ldexpf(1.0f, m - 126) : 0.0f},
        bp->parts, NULL,
        items,     bp->mingled && n >= bp->min_parallel};
    run_step(&ctx, boxes_classify_step);
    float limit = guess;
    if (!(cell_size > 0.0f)) {
        uint64_t below0 = 0, below1 = 0;
        for (uint32_t it = 0; it < items; it++) {
            below0 += ctx.parts[it].below[0];
            below1 += ctx.parts[it].below[1];
        }
        if (!(m >= 0 && below0 * 2 < n && below1 * 2 >= n)) { /* the median bucket, counted */
            run_step(&ctx, hist_step);
            uint64_t seen = 0;
            uint32_t median = 0;
            for (uint32_t e = 0; e < 256; e++) {
                for (uint32_t it = 0; it < items; it++) seen += ctx.parts[it].hist[e];
                if (seen * 2 >= n) {
                    median = e;
                    break;
                }
            }
            limit = ldexpf(1.0f, (int)median - 127 + 3);
        }
    }
    if (limit != guess) { /* limit > 0: a given cell's is guess itself */
        ctx.limit = limit;
        run_step(&ctx, classify_step);
    }
    if (!(cell_size > 0.0f) && n > 0) bp->limit = limit; /* the next automatic build's guess */
    float cell = 0.0f;
    double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
    uint32_t nsmall = 0;
    for (uint32_t it = 0; it < items; it++) {
        const build_part *p = &ctx.parts[it];
        cell = p->cell > cell ? p->cell : cell;
        nsmall += p->nsmall;
        minx = p->minx < minx ? p->minx : minx;
        miny = p->miny < miny ? p->miny : miny;
        maxx = p->maxx > maxx ? p->maxx : maxx;
        maxy = p->maxy > maxy ? p->maxy : maxy;
    }
    /* wider than every small box by 1/64: a lower corner's cell, computed in
     * double, then never lands two cells from that of a box it overlaps */
    cell = cell_size > 0.0f ? cell_size : cell + cell / 64.0f;
    if (!(cell > 0.0f) || !isfinite(cell)) cell = 1.0f; /* no shapes, or none small */
    if (nsmall == 0) minx = miny = maxx = maxy = 0.0;
    merge_groups(bp, ctx.parts, items);
    uint32_t ngroups = bp->ngroups;
    /* the cell budget is for all the sub-grids together */
    double budget = (CELLS_PER_SHAPE * nsmall + CELLS_FLOOR) / ngroups, cols, rows;
    if (nsmall && over_budget(minx, miny, maxx, maxy, cell, budget)) {
        double ext[4] = {minx, miny, maxx, maxy};
        float widest = 0.0f;
        uint32_t far = far_shapes(bp, n, nsmall, cell, ext, &widest);
        if (far) {
            nsmall -= far;
            minx = ext[0], miny = ext[1], maxx = ext[2], maxy = ext[3];
            budget = (CELLS_PER_SHAPE * nsmall + CELLS_FLOOR) / ngroups;
            /* a far shape's box is grown by its coordinates' slack: the cell was its own */
            if (!(cell_size > 0.0f)) cell = widest + widest / 64.0f;
            if (!(cell > 0.0f) || !isfinite(cell)) cell = 1.0f;
        }
    }
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
    for (uint32_t it = 0; it < items; it++) {     /* each part's slots' groups, for keys_step */
        build_part *p = &ctx.parts[it];
        for (uint32_t k = 0; k < BP_GROUPS && k < p->nfilters; k++)
            p->group_at[k] = bp->grouped ? group_of(bp, p->filter[k]) * bp->ncells : 0;
        p->group_at[SLOT_TOO_MANY] = p->group_at[SLOT_LARGE] = 0;
    }
    size_t cap_cells = bp->cap_cells;
    if (!sepax_bp_reserve(bp, (void **)&bp->start, &cap_cells, ncells + 2, sizeof(uint32_t)))
        return SEPAX_ERR_NOMEM;
    bp->cap_cells = cap_cells;

    /* counting sort by group and cell; large shapes after the small ones */
    run_step(&ctx, keys_step);
    uint32_t ranges = n >= bp->min_parallel ? bp->sched.workers : 1u;
    ranges = ranges < BP_SORT_RANGES ? ranges : BP_SORT_RANGES;
    if (!sort_keys(bp, s, (uint32_t)ncells, ranges)) return SEPAX_ERR_NOMEM;
    bp->nsmall = nsmall;
    bp->n = n;
    band_large(bp, nsmall, n, sort_large(bp, nsmall, n));
    run_step(&ctx, columns_step);
    float *cols4[4] = {bp->lox, bp->loy, bp->hix, bp->hiy};
    for (int c = 0; c < 4; c++) memset(cols4[c] + n, 0, BP_PAD * sizeof(float));
    memset(bp->cat + n, 0, BP_PAD * sizeof *bp->cat);
    memset(bp->mask + n, 0, BP_PAD * sizeof *bp->mask);
    memset(bp->sid + n, 0, BP_PAD * sizeof *bp->sid); /* the cell test's last vector reads it */
    bp->start[ncells + 1] = nsmall;                   /* start[ncells] = nsmall from the sort */
    bp->built = 1;
    return SEPAX_OK;
}
