/* Queries against the last grid built: a box, a shape, a ray (each box and ray
 * query with or without a filter), and the closest hit of each of a batch of
 * rays. They only read the grid and the store (many threads may query at once)
 * and keep their scratch on the stack. The list queries give grid order: rows of
 * cells, then the large shapes; on SEPAX_ERR_CAPACITY the output holds the first
 * `capacity` results and *count the total. */
#include <math.h>
#include <string.h>

#include "aliasing.h"
#include "broadphase.h"
#include "misaligned.h"

/* A query's results so far. */
typedef struct sink {
    uint32_t *ids;
    sepax_ray_hit *hits;
    size_t cap, n;
} sink;

typedef struct cand_batch {
    uint32_t pos[BP_PIECE + BP_PAD];
    uint32_t idx[BP_PIECE]; /* shape index of each passing position */
    size_t m;
} cand_batch;

static uint32_t id_of(const sepax_shapes *s, uint32_t i) {
    return i | (uint32_t)s->gen[i] << SEPAX_ID_INDEX_BITS;
}

static int finite_box(sepax_aabb b) {
    return isfinite(b.lower.x) && isfinite(b.lower.y) && isfinite(b.upper.x) && isfinite(b.upper.y);
}

static int box_in_range(sepax_aabb b) {
    const float l = SEPAX_COORD_LIMIT;
    return fabsf(b.lower.x) <= l && fabsf(b.lower.y) <= l && fabsf(b.upper.x) <= l &&
           fabsf(b.upper.y) <= l;
}

static sepax_status check_out(const sepax_broadphase *bp, const sepax_shapes *store,
                              const void *ids, size_t capacity, const size_t *count) {
    if (!bp || !store || !count) return SEPAX_ERR_NULL;
    if (capacity && !ids) return SEPAX_ERR_NULL;
    if (MISALIGNED(ids, uint32_t) || MISALIGNED(count, size_t)) return SEPAX_ERR_MISALIGNED;
    return SEPAX_OK;
}

/* A query's outputs (ids, hits: NULL for none, each of capacity entries, and *count, written
 * last) apart from each other and from what it reads while it writes them (its filter and
 * ray: NULL for none). */
static sepax_status outputs_apart(const uint32_t *ids, const sepax_ray_hit *hits, size_t capacity,
                                  const size_t *count, const sepax_filter *filter,
                                  const sepax_ray *ray) {
    sepax_span outs[3] = {sepax_span_of(ids, capacity, sizeof *ids),
                          sepax_span_of(hits, capacity, sizeof *hits),
                          sepax_span_of(count, 1, sizeof *count)};
    sepax_span ins[2] = {sepax_span_of(filter, 1, sizeof *filter),
                         sepax_span_of(ray, 1, sizeof *ray)};
    return sepax_spans_apart(outs, 3, ins, 2);
}

/* The passing positions of run begin .. end-1, piece by piece, to `take`. Grid positions
 * whose shape index is past the store (a store that shrank since the build) are skipped. */
typedef void take_fn(const sepax_shapes *s, const uint32_t *idx, size_t m, void *ctx);

static void scan(const sepax_broadphase *bp, const sepax_shapes *s, const sepax_kernel *k,
                 const sepax_box_probe *probe, uint32_t begin, uint32_t end, take_fn *take,
                 void *ctx) {
    sepax_box_soa soa = sepax_grid_soa(bp);
    cand_batch b;
    while (begin < end) {
        uint32_t run[2] = {begin, sepax_bp_piece_end(begin, end)};
        size_t got = k->box_run(&soa, run, 1, probe, b.pos);
        size_t m = 0;
        for (size_t i = 0; i < got; i++) {
            uint32_t idx = sepax_id_index(bp->sid[b.pos[i]]);
            b.idx[m] = idx;
            m += idx < s->count;
        }
        if (m) take(s, b.idx, m, ctx);
        begin = run[1];
    }
}

/* Whether filter group g may hold a shape whose filter meets f (NULL: every group; a grid
 * of one group of every filter holds any). */
static int group_may_meet(const sepax_broadphase *bp, const sepax_filter *f, uint32_t g) {
    return !f || !bp->grouped || sepax_filters_meet(*f, bp->group_filter[g]);
}

/* A probe that passes only the boxes whose filters meet f (NULL: every box). */
static sepax_box_probe filtered(sepax_box_probe p, const sepax_filter *f) {
    if (f) {
        p.cat = f->category;
        p.mask = f->mask;
        p.filter = 1;
    }
    return p;
}

/* Every small shape keyed in columns x0..x1 of rows y0..y1 in the groups that may meet f,
 * then every large shape (the probe's own filter, if any, decides box by box). */
static void scan_cells(const sepax_broadphase *bp, const sepax_shapes *s, const sepax_kernel *k,
                       const sepax_box_probe *probe, const sepax_filter *f, take_fn *take,
                       void *ctx) {
    if (bp->nsmall) {
        bp_span sp = sepax_grid_span(bp, probe->lox, probe->loy, probe->hix, probe->hiy);
        for (uint32_t g = 0; g < bp->ngroups; g++) {
            if (!group_may_meet(bp, f, g)) continue;
            const uint32_t *start = bp->start + (size_t)g * bp->ncells;
            for (uint32_t y = sp.y0; y <= sp.y1; y++)
                scan(bp, s, k, probe, start[y * bp->nx + sp.x0], start[y * bp->nx + sp.x1 + 1],
                     take, ctx);
        }
    }
    scan(bp, s, k, probe, bp->nsmall, bp->n, take, ctx);
}

/* ---- boxes -------------------------------------------------------------------- */

typedef struct box_ctx {
    sepax_aabb box;
    sink *out;
} box_ctx;

/* The grid's boxes are grown by a slack; the answer is the store's exact box test. */
static void take_box(const sepax_shapes *s, const uint32_t *idx, size_t m, void *ctx) {
    box_ctx *c = ctx;
    for (size_t i = 0; i < m; i++) {
        const sepax_aabb_block *b = &s->aabb[idx[i] / SEPAX_BLOCK_LANES];
        unsigned l = idx[i] % SEPAX_BLOCK_LANES;
        int in = b->minx[l] <= c->box.upper.x && c->box.lower.x <= b->maxx[l] &&
                 b->miny[l] <= c->box.upper.y && c->box.lower.y <= b->maxy[l];
        if (in && c->out->n < c->out->cap) c->out->ids[c->out->n] = id_of(s, idx[i]);
        c->out->n += (size_t)in;
    }
}

static sepax_status finish(sink *out, size_t *count) {
    *count = out->n;
    return out->n > out->cap ? SEPAX_ERR_CAPACITY : SEPAX_OK;
}

sepax_status sepax_broadphase_query_aabb_filtered(const sepax_broadphase *bp,
                                                  const sepax_shapes *store, sepax_aabb box,
                                                  const sepax_filter *filter, uint32_t *ids,
                                                  size_t capacity, size_t *count) {
    sepax_status st = check_out(bp, store, ids, capacity, count);
    if (st != SEPAX_OK) return st;
    if (MISALIGNED(filter, sepax_filter)) return SEPAX_ERR_MISALIGNED;
    if ((st = outputs_apart(ids, NULL, capacity, count, filter, NULL)) != SEPAX_OK) return st;
    if (!finite_box(box)) return SEPAX_ERR_NONFINITE;
    if (!box_in_range(box)) return SEPAX_ERR_RANGE;
    const sepax_kernel *k;
    if ((st = sepax_kernel_for_query(&k)) != SEPAX_OK) return st;
    if (!bp->built) return SEPAX_ERR_NO_GRID;
    sink out = {ids, NULL, capacity, 0};
    if (box.lower.x <= box.upper.x && box.lower.y <= box.upper.y) {
        box_ctx c = {box, &out};
        sepax_box_probe probe = {box.lower.x, box.lower.y, box.upper.x, box.upper.y, 0, 0, 0, 0};
        probe = filtered(probe, filter);
        scan_cells(bp, store, k, &probe, filter, take_box, &c);
    }
    return finish(&out, count);
}

sepax_status sepax_broadphase_query_aabb(const sepax_broadphase *bp, const sepax_shapes *store,
                                         sepax_aabb box, uint32_t *ids, size_t capacity,
                                         size_t *count) {
    return sepax_broadphase_query_aabb_filtered(bp, store, box, NULL, ids, capacity, count);
}

/* ---- shapes ------------------------------------------------------------------- */

typedef struct shape_ctx {
    const sepax_kernel *k;
    uint32_t probe; /* id */
    float margin;
    sink *out;
} shape_ctx;

/* Pairs tested a quarter piece at a time, so that the pair kernel sorts them in its smallest
 * buffers (TINY_CHUNK, sat_kernel.c): the query within SEPAX_SCRATCH_STACK_BYTES. */
#define PAIR_PIECE (BP_PIECE / 4)

static void take_shape(const sepax_shapes *s, const uint32_t *idx, size_t m, void *ctx) {
    shape_ctx *c = ctx;
    sepax_pair pairs[PAIR_PIECE];
    uint8_t hit[PAIR_PIECE];
    uint32_t self = sepax_id_index(c->probe);
    for (size_t at = 0; at < m; at += PAIR_PIECE) {
        size_t got = m - at < PAIR_PIECE ? m - at : PAIR_PIECE, np = 0;
        for (size_t i = 0; i < got; i++) {
            pairs[np] = (sepax_pair){c->probe, id_of(s, idx[at + i])};
            np += idx[at + i] != self;
        }
        if (np) c->k->overlap(s, pairs, np, c->margin, hit, NULL);
        for (size_t i = 0; i < np; i++) {
            if (hit[i] && c->out->n < c->out->cap) c->out->ids[c->out->n] = pairs[i].b;
            c->out->n += hit[i];
        }
    }
}

sepax_status sepax_broadphase_query_shape(const sepax_broadphase *bp, const sepax_shapes *store,
                                          uint32_t probe, float margin, uint32_t *ids,
                                          size_t capacity, size_t *count) {
    sepax_status st = check_out(bp, store, ids, capacity, count);
    if (st == SEPAX_OK) st = outputs_apart(ids, NULL, capacity, count, NULL, NULL);
    if (st != SEPAX_OK) return st;
    if ((st = sepax_check_id(store, probe)) != SEPAX_OK) return st;
    sepax_query_options q = {.margin = margin};
    if ((st = sepax_margin_of(&q, &margin)) != SEPAX_OK) return st;
    if (store->recs_stale) return SEPAX_ERR_STALE_WORLD;
    const sepax_kernel *k;
    if ((st = sepax_kernel_for_query(&k)) != SEPAX_OK) return st;
    if (!bp->built) return SEPAX_ERR_NO_GRID;
    sink out = {ids, NULL, capacity, 0};
    {
        uint32_t i = sepax_id_index(probe);
        const sepax_aabb_block *b = &store->aabb[i / SEPAX_BLOCK_LANES];
        unsigned l = i % SEPAX_BLOCK_LANES;
        /* the probe's box grown by a positive margin and by the grid's slack for both
         * boxes: a superset, the narrowphase decides */
        float grow = margin > 0.0f ? margin : 0.0f;
        float lx = b->minx[l], ly = b->miny[l], hx = b->maxx[l], hy = b->maxy[l];
        float slack = 2.0f * sepax_grid_slack(lx, ly, hx, hy);
        sepax_box_probe pr = {lx - grow - slack,
                              ly - grow - slack,
                              hx + grow + slack,
                              hy + grow + slack,
                              store->filter[i].category,
                              store->filter[i].mask,
                              1,
                              0};
        shape_ctx c = {k, probe, margin, &out};
        sepax_filter own = store->filter[i];
        scan_cells(bp, store, k, &pr, &own, take_shape, &c);
    }
    return finish(&out, count);
}

/* ---- rays --------------------------------------------------------------------- */

typedef struct ray_ctx {
    const sepax_kernel *k;
    const sepax_ray *ray;
    sink *out;
} ray_ctx;

/* Rays cast an eighth of a piece at a time: a ray and its hit take 48 bytes, and whole pieces'
 * worth (12 KiB) kept the query over SEPAX_SCRATCH_STACK_BYTES (README, "Stack"). */
#define RAY_PIECE (BP_PIECE / 8)

/* The ray against the shapes idx[0 .. got-1] (got <= RAY_PIECE), their ids to ids. */
static void cast(const sepax_kernel *k, const sepax_shapes *s, const sepax_ray *ray,
                 const uint32_t *idx, size_t got, uint32_t *ids, sepax_ray_hit *hits) {
    sepax_ray rays[RAY_PIECE];
    for (size_t i = 0; i < got; i++) {
        rays[i] = *ray;
        ids[i] = id_of(s, idx[i]);
    }
    k->raycast(s, rays, ids, got, hits, NULL);
}

static void take_ray(const sepax_shapes *s, const uint32_t *idx, size_t m, void *ctx) {
    ray_ctx *c = ctx;
    uint32_t ids[RAY_PIECE];
    sepax_ray_hit hits[RAY_PIECE];
    for (size_t at = 0; at < m; at += RAY_PIECE) {
        size_t got = m - at < RAY_PIECE ? m - at : RAY_PIECE;
        cast(c->k, s, c->ray, idx + at, got, ids, hits);
        for (size_t i = 0; i < got; i++) {
            if (hits[i].hit && c->out->n < c->out->cap) {
                c->out->ids[c->out->n] = ids[i];
                c->out->hits[c->out->n] = hits[i];
            }
            c->out->n += hits[i].hit != 0;
        }
    }
}

/* Clip t in [*t0, *t1] to lo <= o + t d <= hi; 0 when nothing is left. */
static int clip(double o, double d, double lo, double hi, double *t0, double *t1) {
    if (d == 0.0) return o >= lo && o <= hi;
    double a = (lo - o) / d, b = (hi - o) / d;
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    *t0 = a > *t0 ? a : *t0;
    *t1 = b < *t1 ? b : *t1;
    return *t0 <= *t1;
}

/* How far sepax_raycast's float arithmetic may err by the ray's own scale (its origin and
 * reach), which every pad of the walk adds: a ray from far away may hit a small shape the
 * exact ray passes by (test broadphase::far_rays_as_raycast). */
static double ray_slack(const sepax_ray *r) {
    return (fabs(r->origin.x) + fabs(r->origin.y) +
            (fabs(r->direction.x) + fabs(r->direction.y)) * r->max_fraction) *
           0x1p-20;
}

/* The box (grown by a cell's thousandth and the ray's slack against rounding) of the part
 * t0..t1 of the ray. */
static sepax_box_probe ray_box(const sepax_broadphase *bp, const sepax_ray *r, double slack,
                               double t0, double t1) {
    double ax = r->origin.x + t0 * r->direction.x, bx = r->origin.x + t1 * r->direction.x;
    double ay = r->origin.y + t0 * r->direction.y, by = r->origin.y + t1 * r->direction.y;
    double e = bp->cell * 1e-3 + (fabs(ax) + fabs(bx) + fabs(ay) + fabs(by)) * 0x1p-20 + slack;
    sepax_box_probe p = {(float)((ax < bx ? ax : bx) - e),
                         (float)((ay < by ? ay : by) - e),
                         (float)((ax > bx ? ax : bx) + e),
                         (float)((ay > by ? ay : by) + e),
                         0,
                         0,
                         0,
                         0};
    return p;
}

sepax_status sepax_broadphase_query_ray_filtered(const sepax_broadphase *bp,
                                                 const sepax_shapes *store, const sepax_ray *ray,
                                                 const sepax_filter *filter, uint32_t *ids,
                                                 sepax_ray_hit *hits, size_t capacity,
                                                 size_t *count) {
    /* the required pointers' NULL checks before any misalignment, as in the other queries */
    if (!ray || (capacity && !hits)) return SEPAX_ERR_NULL;
    sepax_status st = check_out(bp, store, ids, capacity, count);
    if (st != SEPAX_OK) return st;
    if (MISALIGNED(hits, sepax_ray_hit) || MISALIGNED(ray, sepax_ray) ||
        MISALIGNED(filter, sepax_filter))
        return SEPAX_ERR_MISALIGNED;
    if ((st = outputs_apart(ids, hits, capacity, count, filter, ray)) != SEPAX_OK) return st;
    if ((st = sepax_ray_check(ray)) != SEPAX_OK) return st;
    if (store->recs_stale) return SEPAX_ERR_STALE_WORLD;
    const sepax_kernel *k;
    if ((st = sepax_kernel_for_query(&k)) != SEPAX_OK) return st;
    if (!bp->built) return SEPAX_ERR_NO_GRID;
    sink out = {ids, hits, capacity, 0};
    ray_ctx c = {k, ray, &out};
    double cell = bp->cell, t0 = 0.0, t1 = ray->max_fraction;
    /* every small box lies within a cell past the last lower corner's cell */
    double gx0 = bp->ox, gy0 = bp->oy;
    double gx1 = gx0 + (bp->nx + 1.0) * cell, gy1 = gy0 + (bp->ny + 1.0) * cell;
    double ox = ray->origin.x, oy = ray->origin.y, dx = ray->direction.x, dy = ray->direction.y;
    double slack = ray_slack(ray), pad = cell + slack;
    if (bp->nsmall && clip(ox, dx, gx0 - pad, gx1 + pad, &t0, &t1) &&
        clip(oy, dy, gy0 - pad, gy1 + pad, &t0, &t1)) {
        /* the rows whose band (below) the ray's part in the grid meets: its y range padded
         * as the bands are, since a far ray's hits lie up to slack off its exact path */
        double ya = oy + t0 * dy, yb = oy + t1 * dy, band = cell * 1e-3 + slack;
        uint32_t r0 = sepax_grid_row(bp, (ya < yb ? ya : yb) - band),
                 r1 = sepax_grid_row(bp, (ya > yb ? ya : yb) + band);
        r0 -= r0 > 0;
        /* grid order, as the other queries: filter group by group, each row by row */
        for (uint32_t g = 0; g < bp->ngroups; g++) {
            if (!group_may_meet(bp, filter, g)) continue;
            const uint32_t *start = bp->start + (size_t)g * bp->ncells;
            for (uint32_t r = r0; r <= r1; r++) {
                /* the shapes keyed in row r span y from the row's lower edge to a cell above
                 * its upper edge: the part of the ray there, its columns, one run */
                double s0 = t0, s1 = t1;
                double lo = gy0 + r * cell, hi = gy0 + (r + 2.0) * cell;
                if (!clip(oy, dy, lo - band, hi + band, &s0, &s1)) continue;
                sepax_box_probe pr = filtered(ray_box(bp, ray, slack, s0, s1), filter);
                bp_span sp = sepax_grid_span(bp, pr.lox, pr.loy, pr.hix, pr.hiy); /* columns */
                scan(bp, store, k, &pr, start[r * bp->nx + sp.x0], start[r * bp->nx + sp.x1 + 1],
                     take_ray, &c);
            }
        }
    }
    double u0 = 0.0, u1 = ray->max_fraction;
    sepax_box_probe whole = filtered(ray_box(bp, ray, slack, u0, u1), filter);
    scan(bp, store, k, &whole, bp->nsmall, bp->n, take_ray, &c);
    return finish(&out, count);
}

sepax_status sepax_broadphase_query_ray(const sepax_broadphase *bp, const sepax_shapes *store,
                                        const sepax_ray *ray, uint32_t *ids, sepax_ray_hit *hits,
                                        size_t capacity, size_t *count) {
    return sepax_broadphase_query_ray_filtered(bp, store, ray, NULL, ids, hits, capacity, count);
}

/* ---- the closest hit ------------------------------------------------------------ */

/* Candidates gathered before they are cast: a kernel call costs more than a few shapes' tests,
 * so a step of the walk whose boxes pass one or two shapes only adds them to the list, and the
 * list is cast when it holds a call's worth. Until then the walk stops on an older closest hit,
 * later than it could: never too early. */
#define CLOSEST_CAST RAY_PIECE

typedef struct closest_ctx {
    const sepax_kernel *k;
    const sepax_shapes *s;
    const sepax_ray *ray;
    uint32_t best;     /* index of the closest hit so far; UINT32_MAX: none yet */
    sepax_ray_hit hit; /* its hit */
    size_t npending;
    uint32_t pending[BP_PIECE + BP_PAD + CLOSEST_CAST]; /* shape indices not cast yet */
} closest_ctx;

/* Cast the pending shapes, keeping the least fraction, then the lowest index: an order the
 * walk's cannot change. */
static void cast_pending(closest_ctx *c) {
    uint32_t ids[RAY_PIECE];
    sepax_ray_hit hits[RAY_PIECE];
    for (size_t at = 0; at < c->npending; at += RAY_PIECE) {
        size_t got = c->npending - at < RAY_PIECE ? c->npending - at : RAY_PIECE;
        cast(c->k, c->s, c->ray, c->pending + at, got, ids, hits);
        for (size_t i = 0; i < got; i++) {
            uint32_t x = c->pending[at + i];
            int better =
                hits[i].hit && (c->best == UINT32_MAX || hits[i].fraction < c->hit.fraction ||
                                (hits[i].fraction == c->hit.fraction && x < c->best));
            if (better) {
                c->best = x;
                c->hit = hits[i];
            }
        }
    }
    c->npending = 0;
}

/* Shapes at grid positions pos[0 .. got-1] to the pending list (those whose index is past
 * the store, one that shrank since the build, skipped), cast when it holds a call's worth. */
static void take_positions(const sepax_broadphase *bp, closest_ctx *c, const uint32_t *pos,
                           size_t got) {
    for (size_t i = 0; i < got; i++) {
        uint32_t idx = sepax_id_index(bp->sid[pos[i]]);
        c->pending[c->npending] = idx;
        c->npending += idx < c->s->count;
    }
    if (c->npending >= CLOSEST_CAST) cast_pending(c);
}

/* The positions of runs runs[2r] .. runs[2r + 1] - 1 whose boxes meet the probe, to the
 * pending list: in one range test when they fit a piece (a step of the walk is a few cells
 * of each filter group), else run by run, piece by piece. */
static void test_runs(const sepax_broadphase *bp, closest_ctx *c, const sepax_box_probe *probe,
                      const uint32_t *runs, uint32_t nruns) {
    sepax_box_soa soa = sepax_grid_soa(bp);
    uint32_t pos[BP_PIECE + BP_PAD];
    uint64_t total = 0;
    for (uint32_t r = 0; r < nruns; r++) total += runs[2 * r + 1] - runs[2 * r];
    if (total <= BP_PIECE) {
        if (total) take_positions(bp, c, pos, c->k->box_run(&soa, runs, nruns, probe, pos));
        return;
    }
    for (uint32_t r = 0; r < nruns; r++) {
        for (uint32_t begin = runs[2 * r], end = runs[2 * r + 1]; begin < end;) {
            uint32_t piece[2] = {begin, sepax_bp_piece_end(begin, end)};
            take_positions(bp, c, pos, c->k->box_run(&soa, piece, 1, probe, pos));
            begin = piece[1];
        }
    }
}

/* How far along the walk still has to look: to the closest hit so far (a hit at that very
 * fraction may still be a lower index), else to the ray's end. */
static double reach(const closest_ctx *c) {
    return c->best != UINT32_MAX ? (double)c->hit.fraction : (double)c->ray->max_fraction;
}

/* The least t at which the ray is within lo .. hi on an axis it travels along (o + t d); on
 * an axis it does not travel, it is there at every t or at none, and the clip decides. */
static double entry(double o, double d, double lo, double hi) {
    if (d > 0.0) return (lo - o) / d;
    if (d < 0.0) return (hi - o) / d;
    return -INFINITY;
}

/* Columns a step of the walk along a row takes: two, so that a row the ray runs along
 * stops soon after its closest hit, and not one, so that each range test has a run of
 * shapes to fill its lanes (4 and 8 were slower at 100k: docs/performance.md, "The closest
 * hit of a ray, and the caller's data"). */
#define WALK_COLS 2u

/* The small shapes of the groups groups[0 .. ng-1], row by row in the order the ray crosses
 * them (the rows' bands as sepax_broadphase_query_ray's), each row WALK_COLS columns at a time in
 * the order the ray crosses those, every group's cells of a step in one range test. A row or
 * a step the ray enters only past reach() holds no closer hit, nor do those after it. */
static void closest_small(const sepax_broadphase *bp, const sepax_filter *f, const uint32_t *groups,
                          uint32_t ng, closest_ctx *c) {
    const sepax_ray *ray = c->ray;
    double cell = bp->cell, t0 = 0.0, t1 = ray->max_fraction;
    double gx0 = bp->ox, gy0 = bp->oy;
    double gx1 = gx0 + (bp->nx + 1.0) * cell, gy1 = gy0 + (bp->ny + 1.0) * cell;
    double ox = ray->origin.x, oy = ray->origin.y, dx = ray->direction.x, dy = ray->direction.y;
    double slack = ray_slack(ray), pad = cell + slack;
    if (!clip(ox, dx, gx0 - pad, gx1 + pad, &t0, &t1) ||
        !clip(oy, dy, gy0 - pad, gy1 + pad, &t0, &t1))
        return;
    double ya = oy + t0 * dy, yb = oy + t1 * dy, band = cell * 1e-3 + slack;
    uint32_t r0 = sepax_grid_row(bp, (ya < yb ? ya : yb) - band),
             r1 = sepax_grid_row(bp, (ya > yb ? ya : yb) + band);
    r0 -= r0 > 0;
    for (uint32_t q = 0; q <= r1 - r0; q++) {
        uint32_t r = dy < 0.0 ? r1 - q : r0 + q;
        double lo = gy0 + r * cell - band, hi = gy0 + (r + 2.0) * cell + band;
        if (entry(oy, dy, lo, hi) > reach(c)) break;
        double s0 = t0, s1 = t1 < reach(c) ? t1 : reach(c);
        if (!clip(oy, dy, lo, hi, &s0, &s1)) continue;
        sepax_box_probe row = ray_box(bp, ray, slack, s0, s1);
        bp_span sp = sepax_grid_span(bp, row.lox, row.loy, row.hix, row.hiy);
        uint32_t steps = (sp.x1 - sp.x0) / WALK_COLS + 1;
        for (uint32_t w = 0; w < steps; w++) {
            uint32_t c0 = sp.x0 + (dx < 0.0 ? steps - 1 - w : w) * WALK_COLS;
            uint32_t c1 = c0 + WALK_COLS - 1 < sp.x1 ? c0 + WALK_COLS - 1 : sp.x1;
            double xlo = gx0 + c0 * cell - band, xhi = gx0 + (c1 + 2.0) * cell + band;
            if (entry(ox, dx, xlo, xhi) > reach(c)) break;
            double u0 = s0, u1 = s1 < reach(c) ? s1 : reach(c);
            if (!clip(ox, dx, xlo, xhi, &u0, &u1)) continue;
            sepax_box_probe pr = filtered(ray_box(bp, ray, slack, u0, u1), f);
            uint32_t runs[2 * BP_GROUPS];
            for (uint32_t i = 0; i < ng; i++) {
                const uint32_t *start = bp->start + (size_t)groups[i] * bp->ncells + r * bp->nx;
                runs[2 * i] = start[c0];
                runs[2 * i + 1] = start[c1 + 1];
            }
            test_runs(bp, c, &pr, runs, ng);
        }
    }
}

/* One ray: the large shapes first (any of them may be near), then the groups of small shapes
 * the filter meets. */
static void closest_one(const sepax_broadphase *bp, const sepax_shapes *s, const sepax_kernel *k,
                        const sepax_ray *ray, const sepax_filter *f, uint32_t *id,
                        sepax_ray_hit *hit) {
    closest_ctx c;
    c.k = k;
    c.s = s;
    c.ray = ray;
    c.best = UINT32_MAX;
    memset(&c.hit, 0, sizeof c.hit);
    c.npending = 0;
    sepax_box_probe whole = filtered(ray_box(bp, ray, ray_slack(ray), 0.0, ray->max_fraction), f);
    uint32_t large[2] = {bp->nsmall, bp->n};
    test_runs(bp, &c, &whole, large, 1);
    cast_pending(&c);
    uint32_t groups[BP_GROUPS], ng = 0;
    for (uint32_t g = 0; bp->nsmall && g < bp->ngroups; g++) {
        groups[ng] = g;
        ng += group_may_meet(bp, f, g);
    }
    if (ng) closest_small(bp, f, groups, ng, &c);
    cast_pending(&c);
    *id = c.best != UINT32_MAX ? id_of(s, c.best) : SEPAX_NO_ID;
    *hit = c.hit;
}

sepax_status sepax_broadphase_raycast_closest(const sepax_broadphase *bp, const sepax_shapes *store,
                                              const sepax_ray *rays, const sepax_filter *filters,
                                              size_t n, uint32_t *ids, sepax_ray_hit *hits) {
    if (!bp || !store) return SEPAX_ERR_NULL;
    if (n && (!rays || !ids || !hits)) return SEPAX_ERR_NULL;
    if (MISALIGNED(rays, sepax_ray) || MISALIGNED(filters, sepax_filter) ||
        MISALIGNED(ids, uint32_t) || MISALIGNED(hits, sepax_ray_hit))
        return SEPAX_ERR_MISALIGNED;
    if (n > SIZE_MAX / sizeof(sepax_ray_hit)) return SEPAX_ERR_COUNT;
    sepax_span outs[2] = {sepax_span_of(ids, n, sizeof *ids), sepax_span_of(hits, n, sizeof *hits)};
    sepax_span ins[2] = {sepax_span_of(rays, n, sizeof *rays),
                         sepax_span_of(filters, n, sizeof *filters)};
    sepax_status st = sepax_spans_apart(outs, 2, ins, 2);
    if (st != SEPAX_OK) return st;
    st = sepax_rays_check(rays, n);
    if (st != SEPAX_OK) return st;
    if (store->recs_stale) return SEPAX_ERR_STALE_WORLD;
    const sepax_kernel *k;
    if ((st = sepax_kernel_for_query(&k)) != SEPAX_OK) return st;
    if (!bp->built) return SEPAX_ERR_NO_GRID;
    for (size_t i = 0; i < n; i++)
        closest_one(bp, store, k, &rays[i], filters ? &filters[i] : NULL, &ids[i], &hits[i]);
    return SEPAX_OK;
}

sepax_status sepax_broadphase_order(const sepax_broadphase *bp, const sepax_shapes *store,
                                    uint32_t *order, uint32_t count) {
    if (!bp || !store || (!order && count > 0)) return SEPAX_ERR_NULL;
    if (MISALIGNED(order, uint32_t)) return SEPAX_ERR_MISALIGNED;
    if (!bp->built) return SEPAX_ERR_NO_GRID;
    if (count != store->count || count != bp->n) return SEPAX_ERR_COUNT;
    /* every id current: the grid holds each index below count exactly once */
    for (uint32_t p = 0; p < count; p++) {
        sepax_status st = sepax_check_id(store, bp->sid[p]);
        if (st != SEPAX_OK) return st;
    }
    for (uint32_t p = 0; p < count; p++) order[p] = sepax_id_index(bp->sid[p]);
    return SEPAX_OK;
}
