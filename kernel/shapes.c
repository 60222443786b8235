/* The shape store: local shapes, poses and the world data queries read, all
 * in arrays of `cap` shapes, dense: the shapes are at indices 0 .. count-1
 * and a removal moves the last one into the hole. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aliasing.h"
#include "kernel.h"
#include "misaligned.h"
#include "pose_rules.h"
#include "shape_build.h"
#include "store.h"

#define STORE_ALIGN 64
#define CAP_GRAIN 16 /* capacities stay multiples of this, so blocks are whole */
#define L SEPAX_BLOCK_LANES

/* Each array of the store: where its pointer lives, its bytes per shape, and how a shape
 * moving to another index moves in it (sepax_array_kind, store.h). */
static const struct {
    size_t field, per_shape;
    sepax_array_kind kind;
} arrays[] = {
    {offsetof(sepax_shapes, rec), sizeof(sepax_poly_rec), SEPAX_ARRAY_SHAPE},
    {offsetof(sepax_shapes, block), sizeof(sepax_poly_block) / L, SEPAX_ARRAY_WORLD_ROWS},
    {offsetof(sepax_shapes, aabb), sizeof(sepax_aabb_block) / L, SEPAX_ARRAY_LANES},
    {offsetof(sepax_shapes, local), sizeof(sepax_local_block) / L, SEPAX_ARRAY_LANES},
    {offsetof(sepax_shapes, pose), sizeof(sepax_pose_block) / L, SEPAX_ARRAY_LANES},
    {offsetof(sepax_shapes, disc), sizeof(sepax_disc), SEPAX_ARRAY_SHAPE},
    {offsetof(sepax_shapes, info), sizeof(sepax_block_info), SEPAX_ARRAY_BLOCK_INFO},
    {offsetof(sepax_shapes, nverts), 1, SEPAX_ARRAY_SHAPE},
    {offsetof(sepax_shapes, nplanes), 1, SEPAX_ARRAY_SHAPE},
    {offsetof(sepax_shapes, kind), 1, SEPAX_ARRAY_SHAPE},
    {offsetof(sepax_shapes, cls), 1, SEPAX_ARRAY_SHAPE},
    {offsetof(sepax_shapes, code), 1, SEPAX_ARRAY_SHAPE},
    {offsetof(sepax_shapes, gen), 1, SEPAX_ARRAY_INDEX},
    {offsetof(sepax_shapes, filter), sizeof(sepax_filter), SEPAX_ARRAY_SHAPE},
    {offsetof(sepax_shapes, user), sizeof(uint64_t), SEPAX_ARRAY_SHAPE},
};
#define NARRAYS (sizeof arrays / sizeof arrays[0])

static void *libc_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    return aligned_alloc(align, (size + align - 1) / align * align);
}

static void libc_free(void *ptr, void *ctx) {
    (void)ctx;
    free(ptr);
}

sepax_allocator sepax_libc_allocator(void) {
    sepax_allocator mem = {libc_alloc, libc_free, NULL};
    return mem;
}

static void **array_ptr(sepax_shapes *s, size_t i) {
    return (void **)(void *)((char *)s + arrays[i].field);
}

size_t sepax_store_arrays(sepax_shapes *s, sepax_store_array out[SEPAX_STORE_ARRAYS]) {
    _Static_assert(NARRAYS <= SEPAX_STORE_ARRAYS, "SEPAX_STORE_ARRAYS");
    for (size_t i = 0; i < NARRAYS; i++)
        out[i] = (sepax_store_array){*array_ptr(s, i), arrays[i].per_shape, arrays[i].kind};
    return NARRAYS;
}

static size_t round_cap(size_t cap) {
    if (cap < CAP_GRAIN) cap = CAP_GRAIN;
    return (cap + CAP_GRAIN - 1) / CAP_GRAIN * CAP_GRAIN;
}

static size_t array_bytes(size_t i, size_t cap) {
    size_t bytes = cap * arrays[i].per_shape;
    return (bytes + STORE_ALIGN - 1) / STORE_ALIGN * STORE_ALIGN;
}

/* Replace every array with one of `cap` shapes, old contents kept and new
 * lanes zeroed (kernels read whole blocks); on failure nothing changes. */
static int store_resize(sepax_shapes *s, size_t cap) {
    if (cap > SIZE_MAX / sizeof(sepax_poly_rec)) return 0; /* 32-bit size_t */
    void *fresh[NARRAYS] = {0};
    for (size_t i = 0; i < NARRAYS; i++) {
        fresh[i] = s->mem.alloc(array_bytes(i, cap), STORE_ALIGN, s->mem.ctx);
        if (!fresh[i]) {
            for (size_t k = 0; k < i; k++) s->mem.free(fresh[k], s->mem.ctx);
            return 0;
        }
        memset(fresh[i], 0, array_bytes(i, cap));
    }
    for (size_t i = 0; i < NARRAYS; i++) {
        void **p = array_ptr(s, i);
        if (*p) {
            memcpy(fresh[i], *p, array_bytes(i, s->cap));
            s->mem.free(*p, s->mem.ctx);
        }
        *p = fresh[i];
    }
    s->cap = (uint32_t)cap;
    return 1;
}

sepax_shapes *sepax_shapes_create_with(size_t capacity, const sepax_allocator *allocator) {
    if (capacity > SEPAX_STORE_MAX_SHAPES) return NULL;
    sepax_allocator mem = sepax_libc_allocator();
    if (MISALIGNED(allocator, sepax_allocator)) return NULL; /* read through */
    if (allocator) {
        if (!allocator->alloc || !allocator->free) return NULL;
        mem = *allocator;
    }
    sepax_shapes *s = mem.alloc(sizeof *s, STORE_ALIGN, mem.ctx);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->mem = mem;
    if (!store_resize(s, round_cap(capacity))) {
        mem.free(s, mem.ctx);
        return NULL;
    }
    return s;
}

sepax_shapes *sepax_shapes_create(size_t capacity) {
    return sepax_shapes_create_with(capacity, NULL);
}

void sepax_shapes_destroy(sepax_shapes *store) {
    if (!store) return;
    sepax_allocator mem = store->mem;
    for (size_t i = 0; i < NARRAYS; i++) mem.free(*array_ptr(store, i), mem.ctx);
    mem.free(store, mem.ctx);
}

uint32_t sepax_shapes_count(const sepax_shapes *store) { return store ? store->count : 0; }

uint32_t sepax_shapes_id(const sepax_shapes *store, uint32_t index) {
    if (!store || index >= store->count) return SEPAX_NO_ID;
    return index | (uint32_t)store->gen[index] << SEPAX_ID_INDEX_BITS;
}

/* Lane i of the transposed world rows from shape i's record, every row. */
static void lane_rows_from_record(sepax_shapes *s, uint32_t i) {
    sepax_poly_block *w = &s->block[i / L];
    const sepax_poly_rec *r = &s->rec[i];
    unsigned lane = i % L;
    for (int v = 0; v < SEPAX_MAX_VERTS; v++) {
        w->x[v][lane] = r->x[v];
        w->y[v][lane] = r->y[v];
        w->nx[v][lane] = r->nx[v];
        w->ny[v][lane] = r->ny[v];
        w->c[v][lane] = r->c[v];
    }
}

/* Block blk's transposed world rows from the per-shape records (which hold every row of
 * the last update). */
static void block_rows_from_records(sepax_shapes *s, uint32_t blk) {
    uint32_t lo = blk * L, hi = lo + L < s->count ? lo + L : s->count;
    for (uint32_t k = lo; k < hi; k++) lane_rows_from_record(s, k);
}

static sepax_block_info block_info_of(const sepax_shapes *s, uint32_t blk) {
    uint32_t lo = blk * L, hi = lo + L < s->count ? lo + L : s->count;
    sepax_block_info info = {0, 0, 0, 0};
    for (uint32_t k = lo; k < hi; k++) {
        if (s->nverts[k] > info.maxv) info.maxv = s->nverts[k];
        if (s->nplanes[k] > info.maxp) info.maxp = s->nplanes[k];
        if (s->cls[k] != SEPAX_CLASS_SHARP) info.curved = 1;
    }
    return info;
}

void sepax_blocks_refresh_all(sepax_shapes *s) {
    for (uint32_t blk = 0; blk * L < s->count; blk++) {
        s->info[blk] = block_info_of(s, blk);
        block_rows_from_records(s, blk);
    }
    s->rows_stale = 0;
}

void sepax_block_refresh(sepax_shapes *s, uint32_t i) {
    uint32_t blk = i / L;
    int rows_before = sepax_info_rows(s->info[blk]);
    s->info[blk] = block_info_of(s, blk);
    /* Rows already behind the records (a frame's SEPAX_UPDATE_FRAME, which a game runs
     * every frame, leaves them so) stay behind: nothing reads them until a whole update
     * rewrites them all, by the new counts. Rewriting them here was most of a removal's
     * cost (a review: 42% of it, 1-3 us a removal). */
    if (s->rows_stale) return;
    /* An update writes only the rows queries read (sepax_block_rows, store.h): with two
     * blocks a step, the neighbours' too. Rows it skipped are stale; when this block
     * gains rows, they and its neighbours' must show the last update. While it gains none,
     * every row a step reads was written, and the lanes that changed have been written by
     * the caller (an add's transform, a removal's lane from its record). */
    if (sepax_info_rows(s->info[blk]) <= rows_before) return;
    for (uint32_t b = blk ? blk - 1 : 0; b <= blk + 1 && b * L < s->count; b++)
        block_rows_from_records(s, b);
}

static uint8_t class_of(const sepax_shape_src *src) {
    if (src->kind == SEPAX_KIND_CIRCLE) return SEPAX_CLASS_CIRCLE;
    return src->radius > 0.0f ? SEPAX_CLASS_CURVED : SEPAX_CLASS_SHARP;
}

static uint8_t code_of(const sepax_shape_src *src, uint8_t cls) {
    if (src->kind == SEPAX_KIND_CIRCLE) return SEPAX_CODE_CIRCLE;
    if (src->kind == SEPAX_KIND_CAPSULE) return SEPAX_CODE_CAPSULE;
    unsigned base = cls == SEPAX_CLASS_SHARP ? SEPAX_CODE_SHARP4 : SEPAX_CODE_CURVED4;
    return (uint8_t)(base + (src->nverts > 4));
}

/* Store a validated shape at the next index, with the identity pose. */
static sepax_status insert(sepax_shapes *store, const sepax_shape_src *src, uint32_t *out_id) {
    if (store->count >= SEPAX_STORE_MAX_SHAPES) return SEPAX_ERR_COUNT;
    if (store->count == store->cap) {
        size_t cap = (size_t)store->cap * 2;
        if (cap > SEPAX_STORE_MAX_SHAPES) cap = SEPAX_STORE_MAX_SHAPES;
        if (!store_resize(store, round_cap(cap))) return SEPAX_ERR_NOMEM;
    }
    uint32_t i = store->count;
    sepax_local_block *l = &store->local[i / L];
    sepax_pose_block *p = &store->pose[i / L];
    unsigned lane = i % L;
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        l->x[k][lane] = src->x[k];
        l->y[k][lane] = src->y[k];
        l->nx[k][lane] = src->nx[k];
        l->ny[k][lane] = src->ny[k];
    }
    uint8_t cls = class_of(src);
    l->r[lane] = src->radius;
    l->cbias[lane] = src->nplanes ? -0.0f : (float)INFINITY;
    l->vbias[lane] = cls == SEPAX_CLASS_SHARP ? -(float)INFINITY : -0.0f;
    l->last[lane] = (float)(src->nverts - 1);
    p->px[lane] = 0.0f; /* the identity pose: world = local */
    p->py[lane] = 0.0f;
    p->c[lane] = 1.0f;
    p->s[lane] = 0.0f;
    store->nverts[i] = src->nverts;
    store->nplanes[i] = src->nplanes;
    store->kind[i] = src->kind;
    store->cls[i] = cls;
    store->code[i] = code_of(src, cls);
    store->filter[i] = (sepax_filter){SEPAX_FILTER_DEFAULT_CATEGORY, SEPAX_FILTER_DEFAULT_MASK};
    store->user[i] = 0;
    store->n_class[cls]++;
    store->count = i + 1;
    if (store->count > store->high) store->high = store->count;
    sepax_transform_shape(store, i);
    sepax_block_refresh(store, i);
    *out_id = i | (uint32_t)store->gen[i] << SEPAX_ID_INDEX_BITS;
    return SEPAX_OK;
}

sepax_status sepax_shapes_add_rounded(sepax_shapes *store, const sepax_vec2 *points, int count,
                                      float radius, uint32_t *out_id) {
    if (!store || !points || !out_id) return SEPAX_ERR_NULL;
    if (MISALIGNED(points, sepax_vec2) || MISALIGNED(out_id, uint32_t)) return SEPAX_ERR_MISALIGNED;
    sepax_shape_src src;
    sepax_status st = sepax_build_polygon(points, count, radius, &src);
    return st == SEPAX_OK ? insert(store, &src, out_id) : st;
}

sepax_status sepax_shapes_add_polygon(sepax_shapes *store, const sepax_vec2 *points, int count,
                                      uint32_t *out_id) {
    return sepax_shapes_add_rounded(store, points, count, 0.0f, out_id);
}

sepax_status sepax_shapes_add_circle(sepax_shapes *store, sepax_vec2 center, float radius,
                                     uint32_t *out_id) {
    if (!store || !out_id) return SEPAX_ERR_NULL;
    if (MISALIGNED(out_id, uint32_t)) return SEPAX_ERR_MISALIGNED;
    sepax_shape_src src;
    sepax_status st = sepax_build_circle(center, radius, &src);
    return st == SEPAX_OK ? insert(store, &src, out_id) : st;
}

sepax_status sepax_shapes_add_capsule(sepax_shapes *store, sepax_vec2 p0, sepax_vec2 p1,
                                      float radius, uint32_t *out_id) {
    if (!store || !out_id) return SEPAX_ERR_NULL;
    if (MISALIGNED(out_id, uint32_t)) return SEPAX_ERR_MISALIGNED;
    sepax_shape_src src;
    sepax_status st = sepax_build_capsule(p0, p1, radius, &src);
    return st == SEPAX_OK ? insert(store, &src, out_id) : st;
}

sepax_status sepax_shapes_add_box(sepax_shapes *store, float half_width, float half_height,
                                  uint32_t *out_id) {
    if (!store || !out_id) return SEPAX_ERR_NULL;
    if (MISALIGNED(out_id, uint32_t)) return SEPAX_ERR_MISALIGNED;
    sepax_shape_src src;
    sepax_status st = sepax_build_box(half_width, half_height, &src);
    return st == SEPAX_OK ? insert(store, &src, out_id) : st;
}

/* Copy lane `from` of every row of a transposed block array to lane `to`, and
 * zero lane `from` (lanes past count stay zero). */
static void move_lane(float *arr, size_t nrows, uint32_t to, uint32_t from) {
    float *rows_to = arr + (size_t)(to / L) * nrows * L,
          *rows_from = arr + (size_t)(from / L) * nrows * L;
    for (size_t r = 0; r < nrows; r++) {
        rows_to[r * L + to % L] = rows_from[r * L + from % L];
        rows_from[r * L + from % L] = 0.0f;
    }
}

/* Zero lane i of every row of a transposed block array. */
static void zero_lane(float *arr, size_t nrows, uint32_t i) {
    float *rows = arr + (size_t)(i / L) * nrows * L;
    for (size_t r = 0; r < nrows; r++) rows[r * L + i % L] = 0.0f;
}

/* Remove the shape at index i of a valid store: the last shape moves into i. */
static sepax_move remove_at(sepax_shapes *s, uint32_t i) {
    uint32_t last = s->count - 1;
    sepax_move mv = {SEPAX_NO_ID, SEPAX_NO_ID};
    s->n_class[s->cls[i]]--;
    if (i != last) mv.from = last | (uint32_t)s->gen[last] << SEPAX_ID_INDEX_BITS;
    /* the last shape into the hole, its old place zeroed (kernels read whole blocks) */
    for (size_t k = 0; k < NARRAYS; k++) {
        char *a = *array_ptr(s, k);
        size_t n = arrays[k].per_shape;
        switch (arrays[k].kind) {
        case SEPAX_ARRAY_SHAPE:
            if (i != last) memcpy(a + i * n, a + (size_t)last * n, n);
            memset(a + (size_t)last * n, 0, n);
            break;
        case SEPAX_ARRAY_LANES: move_lane((float *)(void *)a, n / sizeof(float), i, last); break;
        case SEPAX_ARRAY_WORLD_ROWS:
            /* the vacated lane zeroed; the hole's lane from the moved record (the rows of
             * the last index may lack rows its new block reads), unless the rows are stale,
             * when the next whole update writes them */
            zero_lane((float *)(void *)a, n / sizeof(float), last);
            break;
        case SEPAX_ARRAY_BLOCK_INFO: /* by the refresh below */
        case SEPAX_ARRAY_INDEX: /* below */ break;
        }
    }
    if (i != last && !s->rows_stale) lane_rows_from_record(s, i);
    /* new generations: index i holds another shape (or none), and index
     * `last` is vacated, so neither old id names anything any more */
    s->gen[i]++;
    if (i != last) {
        s->gen[last]++;
        mv.to = i | (uint32_t)s->gen[i] << SEPAX_ID_INDEX_BITS;
    }
    s->count = last;
    if (s->removals < UINT32_MAX) s->removals++; /* sticky: never back to 0 */
    sepax_block_refresh(s, i);
    if (last / L != i / L) sepax_block_refresh(s, last);
    return mv;
}

sepax_status sepax_shapes_remove(sepax_shapes *store, uint32_t id, sepax_move *moved) {
    if (!store) return SEPAX_ERR_NULL;
    if (MISALIGNED(moved, sepax_move)) return SEPAX_ERR_MISALIGNED; /* NULL passes */
    sepax_status st = sepax_check_id(store, id);
    if (st != SEPAX_OK) return st;
    sepax_move mv = remove_at(store, sepax_id_index(id));
    if (moved) *moved = mv;
    return SEPAX_OK;
}

/* A shape's mark while sepax_shapes_remove_many runs: the high bit of its kind byte (kinds
 * are 0..2), so the call needs no memory of its own. Every marked index is either overwritten
 * by a staying shape or zeroed as vacated before the call returns, and a refused call clears
 * the marks it set. */
#define REMOVE_MARK 0x80u

/* Fill hole h (marked, below the new count): the marked shapes on top are popped off (no
 * move) until the last is one that stays, which then moves into h; the move is the
 * (*nmoves)-th listed. */
static void fill_hole(sepax_shapes *s, uint32_t h, sepax_move *moved, uint32_t *nmoves) {
    while (s->kind[s->count - 1] & REMOVE_MARK) remove_at(s, s->count - 1);
    sepax_move mv = remove_at(s, h);
    if (moved) moved[*nmoves] = mv;
    ++*nmoves;
}

sepax_status sepax_shapes_remove_many(sepax_shapes *store, const uint32_t *ids, uint32_t n,
                                      sepax_move *moved, uint32_t *moves) {
    if (!store || (n > 0 && !ids)) return SEPAX_ERR_NULL; /* the NULL checks first, as documented */
    if (MISALIGNED(moved, sepax_move) || MISALIGNED(moves, uint32_t) || MISALIGNED(ids, uint32_t))
        return SEPAX_ERR_MISALIGNED; /* NULL passes */
    if (n == 0) {
        if (moves) *moves = 0;
        return SEPAX_OK;
    }
    /* the ids are read again while moved is written (a sparse set's holes go in their order) */
    sepax_span outs[2] = {sepax_span_of(moved, n, sizeof *moved),
                          sepax_span_of(moves, 1, sizeof *moves)},
               in = sepax_span_of(ids, n, sizeof *ids);
    if (sepax_spans_apart(outs, 2, &in, 1) != SEPAX_OK) return SEPAX_ERR_ALIASED;
    sepax_shapes *s = store;
    /* every id checked and marked before anything moves */
    for (uint32_t k = 0; k < n; k++) {
        sepax_status st = sepax_check_id(s, ids[k]);
        if (st == SEPAX_OK && (s->kind[sepax_id_index(ids[k])] & REMOVE_MARK))
            st = SEPAX_ERR_DUPLICATE;
        if (st != SEPAX_OK) {
            for (uint32_t j = 0; j < k; j++) s->kind[sepax_id_index(ids[j])] &= ~REMOVE_MARK;
            return st;
        }
        s->kind[sepax_id_index(ids[k])] |= REMOVE_MARK;
    }
    /* Each removed shape below the new count is a hole that one staying shape from at or past
     * it fills, the highest first, so each staying shape moves at most once; the whole is a
     * sequence of single removals, with their rules for rows and generations. Where the holes
     * are dense (one in 64 shapes or more), they go in the order of their indices, found by a
     * scan of the marks, so that each array is written front to back (10,000 of 100,000 took
     * about a fifth less time than in a random order: docs/performance.md, "Removing a set");
     * a sparse set's holes are far apart whatever the order, and go in the order of ids, with
     * no scan of the whole store. */
    uint32_t keep = s->count - n, nmoves = 0;
    if ((uint64_t)n * 64 >= s->count) {
        for (uint32_t base = 0; base < keep; base += 8) {
            uint32_t end = keep - base < 8 ? keep : base + 8;
            uint64_t word = 0; /* eight marks a test: most words hold none */
            memcpy(&word, s->kind + base, end - base);
            if (!(word & 0x8080808080808080ull)) continue;
            for (uint32_t h = base; h < end; h++) {
                if (s->kind[h] & REMOVE_MARK) fill_hole(s, h, moved, &nmoves);
            }
        }
    } else {
        for (uint32_t k = 0; k < n; k++) {
            uint32_t h = sepax_id_index(ids[k]);
            if (h < keep) fill_hole(s, h, moved, &nmoves);
        }
    }
    while (s->count > keep) remove_at(s, s->count - 1); /* the rest on top are all marked */
    if (moves) *moves = nmoves;
    return SEPAX_OK;
}

sepax_status sepax_shapes_view(const sepax_shapes *store, uint32_t id, sepax_shape_view *out) {
    if (!store || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(out, sepax_shape_view)) return SEPAX_ERR_MISALIGNED;
    sepax_status st = sepax_check_id(store, id);
    if (st != SEPAX_OK) return st;
    if (store->recs_stale) return SEPAX_ERR_STALE_WORLD;
    uint32_t i = sepax_id_index(id);
    const sepax_poly_rec *r = &store->rec[i];
    out->kind = store->kind[i];
    out->count = store->nverts[i];
    out->planes = store->nplanes[i];
    out->radius = store->local[i / L].r[i % L];
    out->x = r->x;
    out->y = r->y;
    out->nx = r->nx;
    out->ny = r->ny;
    out->c = r->c;
    return SEPAX_OK;
}

sepax_status sepax_shapes_local(const sepax_shapes *store, uint32_t id, sepax_local_shape *out) {
    if (!store || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(out, sepax_local_shape)) return SEPAX_ERR_MISALIGNED;
    sepax_status st = sepax_check_id(store, id);
    if (st != SEPAX_OK) return st;
    uint32_t i = sepax_id_index(id);
    const sepax_local_block *l = &store->local[i / L];
    unsigned lane = i % L;
    out->kind = store->kind[i];
    out->count = store->nverts[i];
    out->radius = l->r[lane];
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        out->vertex[k] = (sepax_vec2){l->x[k][lane], l->y[k][lane]};
        out->normal[k] = (sepax_vec2){l->nx[k][lane], l->ny[k][lane]};
    }
    return SEPAX_OK;
}

static sepax_status check_pose(const sepax_pose *p) {
    unsigned r = sepax_pose_rules(p);
    if (!(r & SEPAX_POSE_FINITE)) return SEPAX_ERR_NONFINITE;
    if (!(r & SEPAX_POSE_IN_RANGE)) return SEPAX_ERR_RANGE;
    if (!(r & SEPAX_POSE_UNIT)) return SEPAX_ERR_BAD_POSE;
    return SEPAX_OK;
}

static void set_pose_lane(sepax_shapes *store, uint32_t id, const sepax_pose *q) {
    sepax_pose_block *p = &store->pose[id / L];
    unsigned lane = id % L;
    p->px[lane] = q->position.x;
    p->py[lane] = q->position.y;
    p->c[lane] = q->rotation.c;
    p->s[lane] = q->rotation.s;
}

sepax_status sepax_poses_first_bad(const sepax_pose *poses, size_t count) {
    for (size_t i = 0; i < count; i++) {
        sepax_status st = check_pose(&poses[i]);
        if (st != SEPAX_OK) return st;
    }
    return SEPAX_OK;
}

void sepax_poses_put(sepax_shapes *store, const sepax_kernel *k, uint32_t first, size_t count,
                     const sepax_pose *poses) {
    size_t i = 0;
    for (; i < count && (first + i) % L; i++) set_pose_lane(store, first + (uint32_t)i, &poses[i]);
    size_t blocks = (count - i) / L; /* whole blocks: the kernel's transpose */
    k->poses_store(&store->pose[(first + i) / L], poses + i, blocks);
    i += blocks * L;
    for (; i < count; i++) set_pose_lane(store, first + (uint32_t)i, &poses[i]);
}

sepax_status sepax_shapes_set_poses(sepax_shapes *store, uint32_t first, size_t count,
                                    const sepax_pose *poses) {
    if (!store) return SEPAX_ERR_NULL;
    if (first > store->count || count > (size_t)(store->count - first)) return SEPAX_ERR_BAD_ID;
    if (count == 0) return SEPAX_OK;
    if (!poses) return SEPAX_ERR_NULL;
    if (MISALIGNED(poses, sepax_pose)) return SEPAX_ERR_MISALIGNED;
    /* the whole batch in one pass without a branch per pose (a game sets every pose every
     * frame); without a chosen kernel (a bad SEPAX_BACKEND), the scalar copy's */
    const sepax_kernel *k;
    if (sepax_kernel_for_query(&k) != SEPAX_OK) k = &sepax_kernel_scalar;
    if (!k->poses_valid(poses, count)) { /* all or nothing: the first bad pose's status */
        sepax_status st = sepax_poses_first_bad(poses, count);
        if (st != SEPAX_OK) return st;
    }
    sepax_poses_put(store, k, first, count, poses);
    return SEPAX_OK;
}

sepax_status sepax_shapes_set_filters(sepax_shapes *store, uint32_t first, size_t count,
                                      const sepax_filter *filters) {
    if (!store) return SEPAX_ERR_NULL;
    if (first > store->count || count > (size_t)(store->count - first)) return SEPAX_ERR_BAD_ID;
    if (count == 0) return SEPAX_OK;
    if (!filters) return SEPAX_ERR_NULL;
    if (MISALIGNED(filters, sepax_filter)) return SEPAX_ERR_MISALIGNED;
    memcpy(&store->filter[first], filters, count * sizeof *filters);
    return SEPAX_OK;
}

sepax_status sepax_shapes_get_filter(const sepax_shapes *store, uint32_t id, sepax_filter *out) {
    if (!store || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(out, sepax_filter)) return SEPAX_ERR_MISALIGNED;
    sepax_status st = sepax_check_id(store, id);
    if (st != SEPAX_OK) return st;
    *out = store->filter[sepax_id_index(id)];
    return SEPAX_OK;
}

sepax_status sepax_shapes_set_user(sepax_shapes *store, uint32_t first, size_t count,
                                   const uint64_t *user) {
    if (!store) return SEPAX_ERR_NULL;
    if (first > store->count || count > (size_t)(store->count - first)) return SEPAX_ERR_BAD_ID;
    if (count == 0) return SEPAX_OK;
    if (!user) return SEPAX_ERR_NULL;
    if (MISALIGNED(user, uint64_t)) return SEPAX_ERR_MISALIGNED;
    memcpy(&store->user[first], user, count * sizeof *user);
    return SEPAX_OK;
}

sepax_status sepax_shapes_get_user(const sepax_shapes *store, const uint32_t *ids, size_t n,
                                   uint64_t *out) {
    if (!store) return SEPAX_ERR_NULL;
    if (n == 0) return SEPAX_OK;
    if (!ids || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(ids, uint32_t) || MISALIGNED(out, uint64_t)) return SEPAX_ERR_MISALIGNED;
    if (n > SIZE_MAX / sizeof *out) return SEPAX_ERR_COUNT;
    sepax_span o = sepax_span_of(out, n, sizeof *out), in = sepax_span_of(ids, n, sizeof *ids);
    if (sepax_spans_apart(&o, 1, &in, 1) != SEPAX_OK) return SEPAX_ERR_ALIASED;
    /* every id before any write: a refused call leaves out as it was */
    for (size_t k = 0; k < n; k++) {
        sepax_status st = sepax_check_id(store, ids[k]);
        if (st != SEPAX_OK) return st;
    }
    for (size_t k = 0; k < n; k++) out[k] = store->user[sepax_id_index(ids[k])];
    return SEPAX_OK;
}

sepax_status sepax_shapes_get_pose(const sepax_shapes *store, uint32_t id, sepax_pose *out) {
    if (!store || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(out, sepax_pose)) return SEPAX_ERR_MISALIGNED;
    sepax_status st = sepax_check_id(store, id);
    if (st != SEPAX_OK) return st;
    uint32_t i = sepax_id_index(id);
    const sepax_pose_block *p = &store->pose[i / L];
    out->position = (sepax_vec2){p->px[i % L], p->py[i % L]};
    out->rotation = (sepax_rotation){p->c[i % L], p->s[i % L]};
    return SEPAX_OK;
}

sepax_status sepax_shapes_aabb(const sepax_shapes *store, uint32_t id, sepax_aabb *out) {
    if (!store || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(out, sepax_aabb)) return SEPAX_ERR_MISALIGNED;
    sepax_status st = sepax_check_id(store, id);
    if (st != SEPAX_OK) return st;
    uint32_t i = sepax_id_index(id);
    const sepax_aabb_block *b = &store->aabb[i / L];
    out->lower = (sepax_vec2){b->minx[i % L], b->miny[i % L]};
    out->upper = (sepax_vec2){b->maxx[i % L], b->maxy[i % L]};
    return SEPAX_OK;
}

sepax_status sepax_shapes_update(sepax_shapes *store) {
    if (!store) return SEPAX_ERR_NULL;
    const sepax_kernel *k;
    sepax_status st = sepax_kernel_for_query(&k);
    if (st != SEPAX_OK) return st;
    if (store->count) k->update(store, 0, (store->count + L - 1) / L, SEPAX_WRITE_ROWS);
    store->rows_stale = 0;
    store->recs_stale = 0;
    return SEPAX_OK;
}

_Static_assert(SEPAX_BLOCK_SHAPES == SEPAX_BLOCK_LANES, "sepax.h's block is the store's");

sepax_status sepax_shapes_update_range(sepax_shapes *store, uint32_t first, size_t count) {
    if (!store) return SEPAX_ERR_NULL;
    if (first > store->count || count > (size_t)(store->count - first)) return SEPAX_ERR_BAD_ID;
    const sepax_kernel *k;
    sepax_status st = sepax_kernel_for_query(&k);
    if (st != SEPAX_OK) return st;
    /* the rows or records a frame left behind are current again only when every shape is
     * updated (an empty store's range of none included, as sepax_shapes_update) */
    if (first == 0 && count == store->count) {
        store->rows_stale = 0;
        store->recs_stale = 0;
    }
    if (count == 0) return SEPAX_OK;
    /* whole blocks: a neighbour in a block is computed again from its own pose, and the
     * rows' two-block rule (store.h) stays the update's */
    uint32_t b0 = first / L, b1 = (uint32_t)((first + count - 1) / L);
    k->update(store, b0, b1 - b0 + 1, SEPAX_WRITE_ROWS);
    return SEPAX_OK;
}
