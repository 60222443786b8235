/* The shape store: records in one aligned array, ids are dense indices. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polygon.h"
#include "store.h"

#define STORE_ALIGN 64
#define CAP_GRAIN                                                                                  \
    16 /* capacities stay multiples of this: keeps sizes multiples of the alignment                \
        */

static size_t round_cap(size_t cap) {
    if (cap < CAP_GRAIN) cap = CAP_GRAIN;
    return (cap + CAP_GRAIN - 1) / CAP_GRAIN * CAP_GRAIN;
}

/* Replace the arrays with ones of `cap` entries; on failure nothing changes. */
static int store_resize(sepax_shapes *s, size_t cap) {
    if (cap > SIZE_MAX / sizeof(sepax_poly_rec)) return 0; /* 32-bit size_t */
    size_t nblocks = cap / SEPAX_BLOCK_LANES;
    sepax_poly_rec *rec = aligned_alloc(STORE_ALIGN, cap * sizeof(sepax_poly_rec));
    sepax_poly_block *block = aligned_alloc(STORE_ALIGN, nblocks * sizeof(sepax_poly_block));
    uint8_t *nverts = malloc(cap);
    if (!rec || !block || !nverts) {
        free(rec);
        free(block);
        free(nverts);
        return 0;
    }
    /* zero lanes past the last shape: kernels read whole blocks */
    memset(block, 0, nblocks * sizeof(sepax_poly_block));
    if (s->count) {
        memcpy(rec, s->rec, s->count * sizeof(sepax_poly_rec));
        memcpy(block, s->block, (s->cap / SEPAX_BLOCK_LANES) * sizeof(sepax_poly_block));
        memcpy(nverts, s->nverts, s->count);
    }
    free(s->rec);
    free(s->block);
    free(s->nverts);
    s->rec = rec;
    s->block = block;
    s->nverts = nverts;
    s->cap = (uint32_t)cap;
    return 1;
}

sepax_shapes *sepax_shapes_create(size_t capacity) {
    if (capacity > SEPAX_STORE_MAX_SHAPES) return NULL;
    sepax_shapes *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    if (!store_resize(s, round_cap(capacity))) {
        free(s);
        return NULL;
    }
    return s;
}

void sepax_shapes_destroy(sepax_shapes *store) {
    if (!store) return;
    free(store->rec);
    free(store->block);
    free(store->nverts);
    free(store);
}

uint32_t sepax_shapes_count(const sepax_shapes *store) { return store ? store->count : 0; }

sepax_status sepax_shapes_add_polygon(sepax_shapes *store, const sepax_vec2 *points, int count,
                                      uint32_t *out_id) {
    if (!store || !points || !out_id) return SEPAX_ERR_NULL;
    sepax_poly_rec rec;
    uint8_t nverts;
    sepax_status st = sepax_polygon_build(points, count, &rec, &nverts);
    if (st != SEPAX_OK) return st;
    if (store->count == store->cap) {
        if (store->cap >= SEPAX_STORE_MAX_SHAPES) return SEPAX_ERR_COUNT;
        size_t cap = (size_t)store->cap * 2;
        if (cap > SEPAX_STORE_MAX_SHAPES) cap = SEPAX_STORE_MAX_SHAPES;
        if (!store_resize(store, round_cap(cap))) return SEPAX_ERR_NOMEM;
    }
    uint32_t id = store->count;
    store->rec[id] = rec;
    store->nverts[id] = nverts;
    sepax_poly_block *blk = &store->block[id / SEPAX_BLOCK_LANES];
    unsigned lane = id % SEPAX_BLOCK_LANES;
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        blk->x[k][lane] = rec.x[k];
        blk->y[k][lane] = rec.y[k];
        blk->nx[k][lane] = rec.nx[k];
        blk->ny[k][lane] = rec.ny[k];
        blk->c[k][lane] = rec.c[k];
    }
    store->count = id + 1;
    *out_id = id;
    return SEPAX_OK;
}

sepax_status sepax_shapes_view(const sepax_shapes *store, uint32_t id, sepax_polygon_view *out) {
    if (!store || !out) return SEPAX_ERR_NULL;
    if (id >= store->count) return SEPAX_ERR_BAD_ID;
    const sepax_poly_rec *r = &store->rec[id];
    out->count = store->nverts[id];
    out->x = r->x;
    out->y = r->y;
    out->nx = r->nx;
    out->ny = r->ny;
    out->c = r->c;
    return SEPAX_OK;
}
