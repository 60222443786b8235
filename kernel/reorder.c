/* Putting the store in a caller's order (in practice a spatial one). It takes one scratch
 * buffer as large as the widest per-shape array (the world records, 160 bytes a shape, about
 * 30% of the store) for the duration of the call. */
#include <stdint.h>
#include <string.h>

#include "kernel.h"
#include "store.h"

#define L SEPAX_BLOCK_LANES
#define ROWS(type) (sizeof(type) / sizeof(float) / L)

/* Array by array into a scratch buffer in the new order, then back: writes are sequential,
 * and when the order is close to the store's (a store kept in grid order, reordered now and
 * then) so are the reads. */
#define DEFINE_GATHER(name, type)                                                                  \
    static void name(type *arr, void *scratch, const uint32_t *order, uint32_t count) {            \
        type *tmp = scratch;                                                                       \
        for (uint32_t j = 0; j < count; j++) {                                                     \
            if (j + 8 < count) __builtin_prefetch(&arr[order[j + 8]]);                             \
            tmp[j] = arr[order[j]];                                                                \
        }                                                                                          \
        memcpy(arr, tmp, (size_t)count * sizeof *arr);                                             \
    }

DEFINE_GATHER(gather_recs, sepax_poly_rec)
DEFINE_GATHER(gather_discs, sepax_disc)
DEFINE_GATHER(gather_filters, sepax_filter)
DEFINE_GATHER(gather_bytes, uint8_t)

/* The same for an array of transposed blocks of `rows` rows: lane j of the new blocks is
 * lane order[j] of the old. Lanes past count stay zero. */
static void gather_lanes(void *blocks, size_t rows, void *scratch, const uint32_t *order,
                         uint32_t count) {
    float *arr = blocks, *tmp = scratch;
    size_t nblocks = ((size_t)count + L - 1) / L, block = rows * L;
    for (size_t b = 0; b < nblocks; b++) {
        /* a whole row of the new block at a time: one contiguous store per row */
        const float *from[L];
        for (unsigned l = 0; l < L; l++) {
            size_t j = b * L + l;
            /* lanes past count copy a zero lane: the last block's own, past the shapes */
            uint32_t o = j < count ? order[j] : (uint32_t)j;
            from[l] = arr + (size_t)(o / L) * block + o % L;
        }
        float *to = tmp + b * block;
        for (size_t r = 0; r < rows; r++)
            for (unsigned l = 0; l < L; l++) to[r * L + l] = from[l][r * L];
    }
    memcpy(arr, tmp, nblocks * block * sizeof *tmp);
}

static int bit_get(const uint64_t *bits, uint32_t i) { return (int)(bits[i / 64] >> (i % 64)) & 1; }

/* Check that order[0 .. count-1] is a permutation (`seen`: count bits, zeroed). */
static sepax_status check_permutation(const uint32_t *order, uint32_t count, uint64_t *seen) {
    for (uint32_t j = 0; j < count; j++) {
        uint32_t i = order[j];
        if (i >= count) return SEPAX_ERR_BAD_ID;
        if (bit_get(seen, i)) return SEPAX_ERR_DUPLICATE;
        seen[i / 64] |= 1ull << (i % 64);
    }
    return SEPAX_OK;
}

/* Every per-shape array but the generations (which belong to the indices) and the
 * transposed world rows (rebuilt from the records afterwards). */
static void permute(sepax_shapes *s, const uint32_t *order, uint32_t count, void *scratch) {
    gather_recs(s->rec, scratch, order, count);
    gather_discs(s->disc, scratch, order, count);
    gather_filters(s->filter, scratch, order, count);
    uint8_t *bytes[] = {s->nverts, s->nplanes, s->kind, s->cls, s->code};
    for (size_t k = 0; k < sizeof bytes / sizeof bytes[0]; k++)
        gather_bytes(bytes[k], scratch, order, count);
    gather_lanes(s->local, ROWS(sepax_local_block), scratch, order, count);
    gather_lanes(s->pose, ROWS(sepax_pose_block), scratch, order, count);
    gather_lanes(s->aabb, ROWS(sepax_aabb_block), scratch, order, count);
}

sepax_status sepax_shapes_reorder(sepax_shapes *store, const uint32_t *order, uint32_t count,
                                  uint32_t *new_ids) {
    if (!store || (!order && count > 0)) return SEPAX_ERR_NULL;
    if ((uintptr_t)order % _Alignof(uint32_t) || (uintptr_t)new_ids % _Alignof(uint32_t))
        return SEPAX_ERR_MISALIGNED;
    if (count != store->count) return SEPAX_ERR_COUNT;
    if (count == 0) return SEPAX_OK;
    /* one buffer: the bitmap, then each array in turn (the records are the widest) */
    size_t nblocks = ((size_t)count + L - 1) / L;
    size_t bytes = nblocks * L * sizeof(sepax_poly_rec);
    _Static_assert(sizeof(sepax_local_block) <= L * sizeof(sepax_poly_rec), "scratch size");
    void *scratch = store->mem.alloc(bytes, 64, store->mem.ctx);
    if (!scratch) return SEPAX_ERR_NOMEM;
    memset(scratch, 0, ((size_t)count + 63) / 64 * sizeof(uint64_t));
    sepax_status st = check_permutation(order, count, scratch);
    if (st == SEPAX_OK) {
        permute(store, order, count, scratch);
        /* the new ids go to the scratch first: new_ids may be `order` itself */
        uint32_t *ids = scratch, moved = 0;
        for (uint32_t j = 0; j < count; j++) {
            /* index j holds another shape now: neither its old id nor the mover's names it */
            if (order[j] != j) {
                store->gen[j]++;
                moved = 1;
            }
            ids[order[j]] = j | (uint32_t)store->gen[j] << SEPAX_ID_INDEX_BITS;
        }
        if (new_ids) memcpy(new_ids, ids, (size_t)count * sizeof *ids);
        if (moved && store->removals < UINT32_MAX) store->removals++; /* ids != indices now */
        sepax_blocks_refresh_all(store);
    }
    store->mem.free(scratch, store->mem.ctx);
    return st;
}
