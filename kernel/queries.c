/* The public queries: check every argument before writing anything, then
 * hand the whole batch to the active kernel. */
#include <math.h>

#include "aliasing.h"
#include "kernel.h"
#include "misaligned.h"

/* Whether every id of the list names a live shape: branch-free, so the scan
 * stays cheap next to the queries it guards. */
static int all_live(const sepax_shapes *s, const sepax_pair *pairs, size_t n) {
    uint32_t bad = 0, count = s->count;
    if (s->removals == 0) {
        /* Every generation is 0: a live id is an index below count. An id at or above
         * count sets the top bit of count - 1 - id (up to 2^31 above it) or of the id
         * itself: ORs, with no unsigned compare (SSE2 has none) and no chain longer than
         * one instruction a vector, where a running maximum took four. */
        _Static_assert(SEPAX_MAX_SHAPES < 0x80000000u, "count - 1 - id stays below 2^31");
        uint32_t bits = 0, last = count - 1u; /* count 0: last is 2^32 - 1 and no id passes */
        for (size_t i = 0; i < n; i++)
            bits |= pairs[i].a | (last - pairs[i].a) | pairs[i].b | (last - pairs[i].b);
        return (bits >> 31) == 0;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t ia = pairs[i].a & SEPAX_ID_INDEX_MASK, ib = pairs[i].b & SEPAX_ID_INDEX_MASK;
        uint32_t oa = ia < count, ob = ib < count;
        /* index 0 stands in for an index out of range: never read past count */
        bad |= (oa ^ 1u) | (ob ^ 1u);
        bad |= (uint32_t)s->gen[ia * oa] ^ (pairs[i].a >> SEPAX_ID_INDEX_BITS);
        bad |= (uint32_t)s->gen[ib * ob] ^ (pairs[i].b >> SEPAX_ID_INDEX_BITS);
    }
    return bad == 0;
}

/* The error of the first bad id, found again slowly once the fast scan failed. */
static sepax_status first_bad_id(const sepax_shapes *s, const sepax_pair *pairs, size_t n) {
    for (size_t i = 0; i < n; i++) {
        sepax_status st = sepax_check_id(s, pairs[i].a);
        if (st == SEPAX_OK) st = sepax_check_id(s, pairs[i].b);
        if (st != SEPAX_OK) return st;
    }
    return SEPAX_OK;
}

sepax_status sepax_margin_of(const sepax_query_options *opt, float *margin) {
    *margin = 0.0f;
    if (!opt) return SEPAX_OK;
    /* read through, so aligned like any input (a misaligned read is undefined behaviour) */
    if (MISALIGNED(opt, sepax_query_options)) return SEPAX_ERR_MISALIGNED;
    if (!isfinite(opt->margin)) return SEPAX_ERR_NONFINITE;
    if (fabsf(opt->margin) > SEPAX_COORD_LIMIT) return SEPAX_ERR_RANGE;
    *margin = opt->margin + 0.0f; /* -0 is 0 */
    return SEPAX_OK;
}

/* A query's options: the margin (sepax_margin_of), 0 where the query takes none (`no_margin`:
 * SEPAX_ERR_BAD_OPTION), and the scratch, NULL when there is none, else aligned
 * (SEPAX_ERR_MISALIGNED) and large enough (SEPAX_ERR_BAD_OPTION). */
sepax_status sepax_options_of(const sepax_query_options *opt, int no_margin, float *margin,
                              void **work) {
    *work = NULL;
    sepax_status st = sepax_margin_of(opt, margin);
    if (st != SEPAX_OK || !opt) return st;
    if (no_margin && *margin != 0.0f) return SEPAX_ERR_BAD_OPTION;
    if (!opt->scratch) return SEPAX_OK;
    if ((uintptr_t)opt->scratch % SEPAX_SCRATCH_ALIGN) return SEPAX_ERR_MISALIGNED;
    if (opt->scratch_bytes < SEPAX_SCRATCH_BYTES) return SEPAX_ERR_BAD_OPTION;
    *work = opt->scratch;
    return SEPAX_OK;
}

/* SEPAX_ERR_BAD_OPTION when the scratch at work (the SEPAX_SCRATCH_BYTES a call uses) and a
 * buffer of the call (NULL: none) share a byte */
sepax_status sepax_scratch_apart(const void *work, const void *buf, size_t bytes) {
    if (!work || !buf || bytes == 0) return SEPAX_OK;
    uintptr_t w = (uintptr_t)work, b = (uintptr_t)buf;
    return w < b + bytes && b < w + SEPAX_SCRATCH_BYTES ? SEPAX_ERR_BAD_OPTION : SEPAX_OK;
}

/* A pair query's checks up to its ids, in the documented order; `more` are the inputs a
 * sweep reads besides its pairs (its velocities: NULL for the other queries), which must not
 * share memory with the output either. */
static sepax_status check_pairs(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                                const void *out, size_t out_size, size_t out_align,
                                const sepax_query_options *opt, int no_margin, float *margin,
                                void **work, const sepax_vec2 *const more[2]) {
    if (!store) return SEPAX_ERR_NULL;
    sepax_status st = sepax_options_of(opt, no_margin, margin, work);
    if (st != SEPAX_OK || n == 0) return st;
    if (!pairs || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(pairs, sepax_pair) || (uintptr_t)out % out_align) return SEPAX_ERR_MISALIGNED;
    if (n > SIZE_MAX / sizeof(sepax_pair) || n > SIZE_MAX / out_size) return SEPAX_ERR_COUNT;
    sepax_span o = sepax_span_of(out, n, out_size);
    sepax_span in[3] = {sepax_span_of(pairs, n, sizeof *pairs),
                        sepax_span_of(more ? more[0] : NULL, n, sizeof(sepax_vec2)),
                        sepax_span_of(more ? more[1] : NULL, n, sizeof(sepax_vec2))};
    size_t more_inputs = more ? 3 : 1; /* the velocities' spans only where a sweep has them */
    if ((st = sepax_spans_apart(&o, 1, in, more_inputs)) != SEPAX_OK) return st;
    if ((st = sepax_scratch_apart(*work, pairs, n * sizeof *pairs)) != SEPAX_OK ||
        (st = sepax_scratch_apart(*work, out, n * out_size)) != SEPAX_OK)
        return st;
    if (!all_live(store, pairs, n)) return first_bad_id(store, pairs, n);
    return SEPAX_OK;
}

/* SEPAX_ERR_STALE_WORLD where a call that passed its other checks would read records a lazy
 * frame left behind (n pairs; none read nothing) */
static sepax_status records_current(const sepax_shapes *store, size_t n, sepax_status st) {
    return st == SEPAX_OK && n && store->recs_stale ? SEPAX_ERR_STALE_WORLD : st;
}

sepax_status sepax_overlap_opt(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                               const sepax_query_options *options, uint8_t *hit) {
    const sepax_kernel *k;
    float margin;
    void *work;
    sepax_status st =
        check_pairs(store, pairs, n, hit, sizeof *hit, 1, options, 0, &margin, &work, NULL);
    st = records_current(store, n, st);
    if (st == SEPAX_OK) st = sepax_kernel_for_query(&k);
    if (st == SEPAX_OK && n) k->overlap(store, pairs, n, margin, hit, work);
    return st;
}

sepax_status sepax_collide_opt(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                               const sepax_query_options *options, sepax_hit *out) {
    const sepax_kernel *k;
    float margin;
    void *work;
    sepax_status st = check_pairs(store, pairs, n, out, sizeof *out, _Alignof(sepax_hit), options,
                                  0, &margin, &work, NULL);
    st = records_current(store, n, st);
    if (st == SEPAX_OK) st = sepax_kernel_for_query(&k);
    if (st == SEPAX_OK && n) k->collide(store, pairs, n, margin, out, NULL, work);
    return st;
}

/* Pairs a manifold call sends to the kernel at a time: its collide answers
 * wait (17 bytes a pair) until the contacts are made, in the caller's scratch (then the
 * kernel's work memory after them) or on the stack. */
#define MANIFOLD_CHUNK 1024
#define MANIFOLD_HEAD ((MANIFOLD_CHUNK * (sizeof(sepax_hit) + 1) + 63) / 64 * 64)
_Static_assert(MANIFOLD_HEAD + SEPAX_WORK_BYTES <= SEPAX_SCRATCH_BYTES,
               "a manifold call's answers and its kernels' work memory fit the scratch");

/* Manifolds a call writes around the caches (the contact step's `stream`): from 262,144 pairs
 * (12 MB of output, past what a shared L3 keeps of it) and where the output is 16-byte aligned.
 * On the Zen 4 the AVX-512 manifold of 1M pairs took 20.36-21.67 ns a pair against
 * 20.95-22.80 plain; of 262,144, 20.11 at best against 20.84; of 65,536 streamed was the
 * slower (21.92 against 18.71) and of 4,096 too (18.13 against 17.53): docs/performance.md,
 * "The manifolds written once". */
#define STREAM_MANIFOLDS 262144u

static void manifolds_with(const sepax_kernel *k, const sepax_shapes *store,
                           const sepax_pair *pairs, size_t n, float margin, sepax_manifold *out,
                           sepax_hit *hits, uint8_t *axes, void *work) {
    int stream = n >= STREAM_MANIFOLDS && ((uintptr_t)out & 15u) == 0;
    for (size_t base = 0; base < n; base += MANIFOLD_CHUNK) {
        size_t len = n - base < MANIFOLD_CHUNK ? n - base : MANIFOLD_CHUNK;
        k->collide(store, pairs + base, len, margin, hits, axes, work);
        k->contacts(store, pairs + base, len, hits, axes, margin, out + base, work, stream);
    }
}

/* a call of its own, so that the frame of a call given scratch holds no such arrays */
static __attribute__((noinline)) void manifolds_on_stack(const sepax_kernel *k,
                                                         const sepax_shapes *store,
                                                         const sepax_pair *pairs, size_t n,
                                                         float margin, sepax_manifold *out) {
    sepax_hit hits[MANIFOLD_CHUNK];
    uint8_t axes[MANIFOLD_CHUNK];
    manifolds_with(k, store, pairs, n, margin, out, hits, axes, NULL);
}

sepax_status sepax_collide_manifold_opt(const sepax_shapes *store, const sepax_pair *pairs,
                                        size_t n, const sepax_query_options *options,
                                        sepax_manifold *out) {
    const sepax_kernel *k;
    float margin;
    void *work;
    sepax_status st = check_pairs(store, pairs, n, out, sizeof *out, _Alignof(sepax_manifold),
                                  options, 0, &margin, &work, NULL);
    st = records_current(store, n, st);
    if (st == SEPAX_OK) st = sepax_kernel_for_query(&k);
    if (st != SEPAX_OK || n == 0) return st;
    if (work) {
        unsigned char *at = work;
        manifolds_with(k, store, pairs, n, margin, out, (sepax_hit *)(void *)at,
                       at + MANIFOLD_CHUNK * sizeof(sepax_hit), at + MANIFOLD_HEAD);
    } else {
        manifolds_on_stack(k, store, pairs, n, margin, out);
    }
    return st;
}

sepax_status sepax_collide_manifold(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                                    sepax_manifold *out) {
    return sepax_collide_manifold_opt(store, pairs, n, NULL, out);
}

/* A sweep's velocities: finite, within SEPAX_SWEEP_LIMIT; NULL is no motion. A
 * branch-free scan first (each bound also fails NaN and the infinities), then, only
 * when it fails, the first bad velocity's status. */
static sepax_status check_velocities(const sepax_vec2 *v, size_t n) {
    if (!v) return SEPAX_OK;
    if (MISALIGNED(v, sepax_vec2)) return SEPAX_ERR_MISALIGNED;
    int ok = 1;
    for (size_t i = 0; i < n; i++)
        ok &= (fabsf(v[i].x) <= SEPAX_SWEEP_LIMIT) & (fabsf(v[i].y) <= SEPAX_SWEEP_LIMIT);
    if (ok) return SEPAX_OK;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i].x) || !isfinite(v[i].y)) return SEPAX_ERR_NONFINITE;
        if (fabsf(v[i].x) > SEPAX_SWEEP_LIMIT || fabsf(v[i].y) > SEPAX_SWEEP_LIMIT)
            return SEPAX_ERR_RANGE;
    }
    return SEPAX_OK;
}

sepax_status sepax_sweep_opt(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                             const sepax_vec2 *velocity_a, const sepax_vec2 *velocity_b,
                             const sepax_query_options *options, sepax_sweep_hit *out) {
    const sepax_kernel *k;
    float margin;
    void *work;
    const sepax_vec2 *velocities[2] = {velocity_a, velocity_b};
    sepax_status st = check_pairs(store, pairs, n, out, sizeof *out, _Alignof(sepax_sweep_hit),
                                  options, 1, &margin, &work, velocities);
    if (st == SEPAX_OK && n) st = check_velocities(velocity_a, n);
    if (st == SEPAX_OK && n) st = check_velocities(velocity_b, n);
    if (st == SEPAX_OK && n &&
        (st = sepax_scratch_apart(work, velocity_a, n * sizeof *velocity_a)) == SEPAX_OK)
        st = sepax_scratch_apart(work, velocity_b, n * sizeof *velocity_b);
    st = records_current(store, n, st);
    if (st == SEPAX_OK) st = sepax_kernel_for_query(&k);
    if (st == SEPAX_OK && n) k->sweep(store, pairs, n, velocity_a, velocity_b, out, work);
    return st;
}

sepax_status sepax_sweep(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                         const sepax_vec2 *velocity_a, const sepax_vec2 *velocity_b,
                         sepax_sweep_hit *out) {
    return sepax_sweep_opt(store, pairs, n, velocity_a, velocity_b, NULL, out);
}

/* Range queries while the transposed rows lag the records (store.h: after a frame's
 * update): the pair kernels over (probe, target) pairs made on the stack, a piece at a
 * time. The same bits as the row kernels, both being the reference's answer; slower, as
 * each target's record is gathered. */
enum { STALE_PIECE = 256 };

static void overlap_one_by_pairs(const sepax_kernel *k, const sepax_shapes *store, uint32_t probe,
                                 uint32_t first, size_t count, float margin, uint8_t *hit,
                                 void *work) {
    sepax_pair pairs[STALE_PIECE];
    for (size_t base = 0; base < count; base += STALE_PIECE) {
        size_t len = count - base < STALE_PIECE ? count - base : STALE_PIECE;
        for (size_t i = 0; i < len; i++) /* indices serve as ids: the kernels mask them */
            pairs[i] = (sepax_pair){probe, first + (uint32_t)(base + i)};
        k->overlap(store, pairs, len, margin, hit + base, work);
    }
}

/* Rays a piece: fewer than the pairs', as the kernel's raycast then takes its own buffers on
 * the stack too (raycast_range has no options, so no scratch), and the whole call stays
 * within SEPAX_SCRATCH_STACK_BYTES. */
enum { STALE_RAYS = 64 };

static void raycast_range_by_rays(const sepax_kernel *k, const sepax_shapes *store,
                                  const sepax_ray *ray, uint32_t first, size_t count,
                                  sepax_ray_hit *out) {
    sepax_ray rays[STALE_RAYS];
    uint32_t ids[STALE_RAYS];
    for (size_t i = 0; i < STALE_RAYS && i < count; i++) rays[i] = *ray; /* the first piece's */
    for (size_t base = 0; base < count; base += STALE_RAYS) {
        size_t len = count - base < STALE_RAYS ? count - base : STALE_RAYS;
        for (size_t i = 0; i < len; i++) ids[i] = first + (uint32_t)(base + i);
        k->raycast(store, rays, ids, len, out + base, NULL);
    }
}

sepax_status sepax_overlap_one_opt(const sepax_shapes *store, uint32_t probe, uint32_t first,
                                   size_t count, const sepax_query_options *options, uint8_t *hit) {
    if (!store) return SEPAX_ERR_NULL;
    float margin;
    void *work;
    sepax_status st = sepax_options_of(options, 0, &margin, &work);
    if (st == SEPAX_OK) st = sepax_check_id(store, probe);
    if (st != SEPAX_OK) return st;
    uint32_t total = store->count;
    if (first > total || count > (size_t)(total - first)) return SEPAX_ERR_BAD_ID;
    if (count == 0) return SEPAX_OK;
    if (!hit) return SEPAX_ERR_NULL;
    if ((st = sepax_scratch_apart(work, hit, count)) != SEPAX_OK) return st;
    if (store->recs_stale) return SEPAX_ERR_STALE_WORLD;
    const sepax_kernel *k;
    st = sepax_kernel_for_query(&k);
    if (st != SEPAX_OK) return st;
    if (store->rows_stale)
        overlap_one_by_pairs(k, store, sepax_id_index(probe), first, count, margin, hit, work);
    else
        k->overlap_one(store, sepax_id_index(probe), first, count, margin, hit);
    return st;
}

sepax_status sepax_overlap(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                           uint8_t *hit) {
    return sepax_overlap_opt(store, pairs, n, NULL, hit);
}

sepax_status sepax_collide(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                           sepax_hit *out) {
    return sepax_collide_opt(store, pairs, n, NULL, out);
}

sepax_status sepax_overlap_one(const sepax_shapes *store, uint32_t probe, uint32_t first,
                               size_t count, uint8_t *hit) {
    return sepax_overlap_one_opt(store, probe, first, count, NULL, hit);
}

/* A ray's numbers: finite; the origin within SEPAX_COORD_LIMIT, the
 * direction and max fraction within SEPAX_SWEEP_LIMIT (a sweep's limits:
 * a ray is a point sweeping by its direction), the max fraction >= 0. */
sepax_status sepax_ray_check(const sepax_ray *r) {
    if (!isfinite(r->origin.x) || !isfinite(r->origin.y) || !isfinite(r->direction.x) ||
        !isfinite(r->direction.y) || !isfinite(r->max_fraction))
        return SEPAX_ERR_NONFINITE;
    if (fabsf(r->origin.x) > SEPAX_COORD_LIMIT || fabsf(r->origin.y) > SEPAX_COORD_LIMIT ||
        fabsf(r->direction.x) > SEPAX_SWEEP_LIMIT || fabsf(r->direction.y) > SEPAX_SWEEP_LIMIT ||
        !(r->max_fraction >= 0.0f) || r->max_fraction > SEPAX_SWEEP_LIMIT)
        return SEPAX_ERR_RANGE;
    return SEPAX_OK;
}

/* Whether every id names a live shape, branch-free, as all_live. */
static int ids_live(const sepax_shapes *s, const uint32_t *ids, size_t n) {
    uint32_t bad = 0, count = s->count;
    for (size_t i = 0; i < n; i++) {
        uint32_t ix = ids[i] & SEPAX_ID_INDEX_MASK, in = ix < count;
        bad |= (in ^ 1u) | ((uint32_t)s->gen[ix * in] ^ (ids[i] >> SEPAX_ID_INDEX_BITS));
    }
    return bad == 0;
}

/* Whether every ray passes sepax_ray_check: its bounds, each of which also fails NaN and
 * the infinities, so finiteness needs no test of its own. */
static int rays_ok(const sepax_ray *r, size_t n) {
    int ok = 1;
    for (size_t i = 0; i < n; i++)
        ok &= (fabsf(r[i].origin.x) <= SEPAX_COORD_LIMIT) &
              (fabsf(r[i].origin.y) <= SEPAX_COORD_LIMIT) &
              (fabsf(r[i].direction.x) <= SEPAX_SWEEP_LIMIT) &
              (fabsf(r[i].direction.y) <= SEPAX_SWEEP_LIMIT) & (r[i].max_fraction >= 0.0f) &
              (r[i].max_fraction <= SEPAX_SWEEP_LIMIT);
    return ok;
}

sepax_status sepax_rays_check(const sepax_ray *rays, size_t n) {
    if (rays_ok(rays, n)) return SEPAX_OK; /* branch-free; the first bad one only on a failure */
    for (size_t i = 0; i < n; i++) {
        sepax_status st = sepax_ray_check(&rays[i]);
        if (st != SEPAX_OK) return st;
    }
    return SEPAX_OK;
}

sepax_status sepax_raycast_opt(const sepax_shapes *store, const sepax_ray *rays,
                               const uint32_t *shapes, size_t n, const sepax_query_options *options,
                               sepax_ray_hit *out) {
    if (!store) return SEPAX_ERR_NULL;
    float margin;
    void *work;
    sepax_status checked = sepax_options_of(options, 1, &margin, &work);
    if (checked != SEPAX_OK) return checked;
    if (n == 0) return SEPAX_OK;
    if (!rays || !shapes || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(rays, sepax_ray) || MISALIGNED(shapes, uint32_t) ||
        MISALIGNED(out, sepax_ray_hit))
        return SEPAX_ERR_MISALIGNED;
    if (n > SIZE_MAX / sizeof(sepax_ray_hit)) return SEPAX_ERR_COUNT;
    sepax_span o = sepax_span_of(out, n, sizeof *out);
    sepax_span in[2] = {sepax_span_of(rays, n, sizeof *rays),
                        sepax_span_of(shapes, n, sizeof *shapes)};
    if ((checked = sepax_spans_apart(&o, 1, in, 2)) != SEPAX_OK) return checked;
    if ((checked = sepax_scratch_apart(work, rays, n * sizeof *rays)) != SEPAX_OK ||
        (checked = sepax_scratch_apart(work, shapes, n * sizeof *shapes)) != SEPAX_OK ||
        (checked = sepax_scratch_apart(work, out, n * sizeof *out)) != SEPAX_OK)
        return checked;
    /* branch-free scans first; the first bad entry's status only when one fails */
    if (!ids_live(store, shapes, n)) {
        for (size_t i = 0; i < n; i++) {
            sepax_status st = sepax_check_id(store, shapes[i]);
            if (st != SEPAX_OK) return st;
        }
    }
    if ((checked = sepax_rays_check(rays, n)) != SEPAX_OK) return checked;
    if (store->recs_stale) return SEPAX_ERR_STALE_WORLD;
    const sepax_kernel *k;
    sepax_status st = sepax_kernel_for_query(&k);
    if (st == SEPAX_OK) k->raycast(store, rays, shapes, n, out, work);
    return st;
}

sepax_status sepax_raycast(const sepax_shapes *store, const sepax_ray *rays, const uint32_t *shapes,
                           size_t n, sepax_ray_hit *out) {
    return sepax_raycast_opt(store, rays, shapes, n, NULL, out);
}

sepax_status sepax_raycast_range(const sepax_shapes *store, const sepax_ray *ray, uint32_t first,
                                 size_t count, sepax_ray_hit *out) {
    if (!store || !ray) return SEPAX_ERR_NULL;
    if (MISALIGNED(ray, sepax_ray)) return SEPAX_ERR_MISALIGNED;
    sepax_status st = sepax_ray_check(ray);
    if (st != SEPAX_OK) return st;
    uint32_t total = store->count;
    if (first > total || count > (size_t)(total - first)) return SEPAX_ERR_BAD_ID;
    if (count == 0) return SEPAX_OK;
    if (!out) return SEPAX_ERR_NULL;
    if (MISALIGNED(out, sepax_ray_hit)) return SEPAX_ERR_MISALIGNED;
    sepax_span o = sepax_span_of(out, count, sizeof *out), in = sepax_span_of(ray, 1, sizeof *ray);
    if ((st = sepax_spans_apart(&o, 1, &in, 1)) != SEPAX_OK) return st;
    if (store->recs_stale) return SEPAX_ERR_STALE_WORLD;
    const sepax_kernel *k;
    st = sepax_kernel_for_query(&k);
    if (st != SEPAX_OK) return st;
    if (store->rows_stale)
        raycast_range_by_rays(k, store, ray, first, count, out);
    else
        k->raycast_range(store, ray, first, count, out);
    return st;
}
