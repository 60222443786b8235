/* The public queries: check every argument before writing anything, then
 * hand the whole batch to the active kernel. */
#include "kernel.h"

/* Largest id in the list, branch-free so the compiler vectorizes the scan. */
static uint32_t max_id(const sepax_pair *pairs, size_t n) {
    uint32_t m = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t ab = pairs[i].a > pairs[i].b ? pairs[i].a : pairs[i].b;
        m = ab > m ? ab : m;
    }
    return m;
}

static sepax_status check_pairs(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                                const void *out, size_t out_size) {
    if (!store) return SEPAX_ERR_NULL;
    if (n == 0) return SEPAX_OK;
    if (!pairs || !out) return SEPAX_ERR_NULL;
    if (n > SIZE_MAX / sizeof(sepax_pair) || n > SIZE_MAX / out_size) return SEPAX_ERR_COUNT;
    if (max_id(pairs, n) >= store->count) return SEPAX_ERR_BAD_ID;
    return SEPAX_OK;
}

sepax_status sepax_overlap(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                           uint8_t *hit) {
    const sepax_kernel *k;
    sepax_status st = check_pairs(store, pairs, n, hit, sizeof *hit);
    if (st == SEPAX_OK) st = sepax_kernel_for_query(&k);
    if (st == SEPAX_OK && n) k->overlap(store->rec, pairs, n, hit);
    return st;
}

sepax_status sepax_collide(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                           sepax_hit *out) {
    const sepax_kernel *k;
    sepax_status st = check_pairs(store, pairs, n, out, sizeof *out);
    if (st == SEPAX_OK) st = sepax_kernel_for_query(&k);
    if (st == SEPAX_OK && n) k->collide(store->rec, pairs, n, out);
    return st;
}

sepax_status sepax_overlap_one(const sepax_shapes *store, uint32_t probe, uint32_t first,
                               size_t count, uint8_t *hit) {
    if (!store) return SEPAX_ERR_NULL;
    uint32_t total = store->count;
    if (probe >= total || first > total || count > (size_t)(total - first)) return SEPAX_ERR_BAD_ID;
    if (count == 0) return SEPAX_OK;
    if (!hit) return SEPAX_ERR_NULL;
    const sepax_kernel *k;
    sepax_status st = sepax_kernel_for_query(&k);
    if (st == SEPAX_OK) k->overlap_one(store, probe, first, count, hit);
    return st;
}
