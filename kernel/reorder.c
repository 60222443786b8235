/* Putting the store in a caller's order (in practice a spatial one): one permutation applied
 * in place, cycle by cycle, so the only memory it takes is a bitmap of the shapes. */
#include <stdint.h>
#include <string.h>

#include "kernel.h"
#include "store.h"

#define L SEPAX_BLOCK_LANES
#define ROWS(type) (sizeof(type) / sizeof(float) / L)

/* Everything a store keeps per shape except its generation (which belongs to the index) and
 * the transposed world rows (rebuilt from the records afterwards). */
typedef struct slot {
    sepax_poly_rec rec;
    sepax_disc disc;
    sepax_filter filter;
    float local[ROWS(sepax_local_block)];
    float pose[ROWS(sepax_pose_block)];
    float aabb[ROWS(sepax_aabb_block)];
    uint8_t nverts, nplanes, kind, cls, code;
} slot;

/* Lane i of an array of transposed blocks of `rows` rows of floats. */
static void lane_get(float *dst, const void *blocks, size_t rows, uint32_t i) {
    const float *b = (const float *)blocks + (size_t)(i / L) * rows * L + i % L;
    for (size_t r = 0; r < rows; r++) dst[r] = b[r * L];
}

static void lane_put(void *blocks, size_t rows, uint32_t i, const float *src) {
    float *b = (float *)blocks + (size_t)(i / L) * rows * L + i % L;
    for (size_t r = 0; r < rows; r++) b[r * L] = src[r];
}

static void slot_get(const sepax_shapes *s, uint32_t i, slot *o) {
    o->rec = s->rec[i];
    o->disc = s->disc[i];
    o->filter = s->filter[i];
    lane_get(o->local, s->local, ROWS(sepax_local_block), i);
    lane_get(o->pose, s->pose, ROWS(sepax_pose_block), i);
    lane_get(o->aabb, s->aabb, ROWS(sepax_aabb_block), i);
    o->nverts = s->nverts[i];
    o->nplanes = s->nplanes[i];
    o->kind = s->kind[i];
    o->cls = s->cls[i];
    o->code = s->code[i];
}

static void slot_put(sepax_shapes *s, uint32_t i, const slot *o) {
    s->rec[i] = o->rec;
    s->disc[i] = o->disc;
    s->filter[i] = o->filter;
    lane_put(s->local, ROWS(sepax_local_block), i, o->local);
    lane_put(s->pose, ROWS(sepax_pose_block), i, o->pose);
    lane_put(s->aabb, ROWS(sepax_aabb_block), i, o->aabb);
    s->nverts[i] = o->nverts;
    s->nplanes[i] = o->nplanes;
    s->kind[i] = o->kind;
    s->cls[i] = o->cls;
    s->code[i] = o->code;
}

static int bit_get(const uint64_t *bits, uint32_t i) { return (int)(bits[i / 64] >> (i % 64)) & 1; }

/* Check that order[0 .. count-1] is a permutation, leaving every bit of `seen` set. */
static sepax_status check_permutation(const uint32_t *order, uint32_t count, uint64_t *seen) {
    for (uint32_t j = 0; j < count; j++) {
        uint32_t i = order[j];
        if (i >= count) return SEPAX_ERR_BAD_ID;
        if (bit_get(seen, i)) return SEPAX_ERR_DUPLICATE;
        seen[i / 64] |= 1ull << (i % 64);
    }
    return SEPAX_OK;
}

/* Follow each cycle of the permutation once: index j takes the shape at order[j]; a bit
 * cleared marks an index filled. */
static void permute(sepax_shapes *s, const uint32_t *order, uint32_t count, uint64_t *todo) {
    slot first, next;
    for (uint32_t j0 = 0; j0 < count; j0++) {
        if (!bit_get(todo, j0)) continue;
        todo[j0 / 64] &= ~(1ull << (j0 % 64));
        if (order[j0] == j0) continue;
        slot_get(s, j0, &first);
        for (uint32_t j = j0;;) {
            uint32_t from = order[j];
            todo[j / 64] &= ~(1ull << (j % 64));
            if (from == j0) {
                slot_put(s, j, &first);
                break;
            }
            slot_get(s, from, &next);
            slot_put(s, j, &next);
            j = from;
        }
    }
}

sepax_status sepax_shapes_reorder(sepax_shapes *store, const uint32_t *order, uint32_t count,
                                  uint32_t *new_ids) {
    if (!store || (!order && count > 0)) return SEPAX_ERR_NULL;
    if ((uintptr_t)order % _Alignof(uint32_t) || (uintptr_t)new_ids % _Alignof(uint32_t))
        return SEPAX_ERR_MISALIGNED;
    if (count != store->count) return SEPAX_ERR_COUNT;
    if (count == 0) return SEPAX_OK;
    size_t bytes = ((size_t)count + 63) / 64 * sizeof(uint64_t);
    uint64_t *bits = store->mem.alloc(bytes, 64, store->mem.ctx);
    if (!bits) return SEPAX_ERR_NOMEM;
    memset(bits, 0, bytes);
    sepax_status st = check_permutation(order, count, bits);
    if (st == SEPAX_OK) {
        permute(store, order, count, bits);
        uint32_t moved = 0;
        for (uint32_t j = 0; j < count; j++) {
            /* index j holds another shape now: neither its old id nor the mover's names it */
            if (order[j] != j) {
                store->gen[j]++;
                moved = 1;
            }
            if (new_ids) new_ids[order[j]] = j | (uint32_t)store->gen[j] << SEPAX_ID_INDEX_BITS;
        }
        if (moved && store->removals < UINT32_MAX) store->removals++; /* ids != indices now */
        sepax_blocks_refresh_all(store);
    }
    store->mem.free(bits, store->mem.ctx);
    return st;
}
