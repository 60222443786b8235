/* Putting the store in a caller's order (in practice a spatial one). It takes one scratch
 * buffer as large as the widest per-shape array (the world records, 160 bytes a shape, about
 * 30% of the store) for the duration of the call. */
#include <stdint.h>
#include <string.h>

#include "kernel.h"
#include "misaligned.h"
#include "store.h"

#define L SEPAX_BLOCK_LANES

/* Array by array into a scratch buffer in the new order, then back: writes are sequential,
 * and when the order is close to the store's (a store kept in grid order, reordered now and
 * then) so are the reads. The element size is a constant in each copy, so each element is a
 * few moves. */
static inline __attribute__((always_inline)) void
gather_sized(void *arr, size_t size, void *scratch, const uint32_t *order, uint32_t count) {
    char *a = arr, *tmp = scratch;
    for (uint32_t j = 0; j < count; j++) {
        if (j + 8 < count) __builtin_prefetch(a + (size_t)order[j + 8] * size);
        memcpy(tmp + (size_t)j * size, a + (size_t)order[j] * size, size);
    }
    memcpy(a, tmp, (size_t)count * size);
}

/* A per-shape array of `size`-byte elements: the sizes the store has, and any other. */
static void gather_shapes(void *arr, size_t size, void *scratch, const uint32_t *order,
                          uint32_t count) {
    switch (size) {
    case 1: gather_sized(arr, 1, scratch, order, count); break;
    case 8: gather_sized(arr, 8, scratch, order, count); break;
    case 16: gather_sized(arr, 16, scratch, order, count); break;
    case sizeof(sepax_poly_rec):
        gather_sized(arr, sizeof(sepax_poly_rec), scratch, order, count);
        break;
    default: gather_sized(arr, size, scratch, order, count); break;
    }
}

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

/* Whether order[0 .. count-1] is a permutation, found before anything is allocated: the
 * marks of the indices seen borrow the top bit of each shape's kind byte (a sepax_kind is
 * 0 to 2), and are cleared again before returning, whatever the verdict. */
#define SEEN 0x80u
_Static_assert(SEPAX_KIND_POLYGON < SEEN, "a kind leaves the top bit free");
static sepax_status check_permutation(uint8_t *kind, const uint32_t *order, uint32_t count) {
    sepax_status st = SEPAX_OK;
    uint32_t j = 0;
    for (; j < count; j++) {
        uint32_t i = order[j];
        if (i >= count) {
            st = SEPAX_ERR_BAD_ID;
            break;
        }
        if (kind[i] & SEEN) {
            st = SEPAX_ERR_DUPLICATE;
            break;
        }
        kind[i] = (uint8_t)(kind[i] | SEEN);
    }
    for (uint32_t k = 0; k < j; k++) kind[order[k]] = (uint8_t)(kind[order[k]] & ~SEEN);
    return st;
}

/* Every array that moves with the shapes; the generations belong to the indices, and
 * the block info and transposed world rows are rebuilt afterwards. */
static void permute(sepax_shapes *s, const uint32_t *order, uint32_t count, void *scratch) {
    sepax_store_array arr[SEPAX_STORE_ARRAYS];
    size_t n = sepax_store_arrays(s, arr);
    for (size_t k = 0; k < n; k++) {
        if (arr[k].kind == SEPAX_ARRAY_SHAPE)
            gather_shapes(arr[k].base, arr[k].bytes, scratch, order, count);
        else if (arr[k].kind == SEPAX_ARRAY_LANES)
            gather_lanes(arr[k].base, arr[k].bytes / sizeof(float), scratch, order, count);
    }
}

sepax_status sepax_shapes_reorder(sepax_shapes *store, const uint32_t *order, uint32_t count,
                                  uint32_t *new_ids) {
    if (!store || (!order && count > 0)) return SEPAX_ERR_NULL;
    if (MISALIGNED(order, uint32_t) || MISALIGNED(new_ids, uint32_t)) return SEPAX_ERR_MISALIGNED;
    if (count != store->count) return SEPAX_ERR_COUNT;
    if (count == 0) return SEPAX_OK;
    sepax_status st = check_permutation(store->kind, order, count);
    if (st != SEPAX_OK) return st;
    /* one buffer: each array in turn (as large as the widest) */
    sepax_store_array arr[SEPAX_STORE_ARRAYS];
    size_t n = sepax_store_arrays(store, arr), widest = sizeof(uint32_t);
    for (size_t k = 0; k < n; k++) widest = arr[k].bytes > widest ? arr[k].bytes : widest;
    size_t bytes = ((size_t)count + L - 1) / L * L * widest;
    void *scratch = store->mem.alloc(bytes, 64, store->mem.ctx);
    if (!scratch) return SEPAX_ERR_NOMEM;
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
    store->mem.free(scratch, store->mem.ctx);
    return SEPAX_OK;
}
