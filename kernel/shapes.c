/* The shape store: local shapes, poses and the world data queries read, all
 * in arrays of `cap` shapes; ids are dense indices. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "polygon.h"
#include "store.h"

#define STORE_ALIGN 64
#define CAP_GRAIN 16 /* capacities stay multiples of this, so blocks are whole */

/* Each array of the store: where its pointer lives and its bytes per shape. */
static const struct {
    size_t field, per_shape;
} arrays[] = {
    {offsetof(sepax_shapes, rec), sizeof(sepax_poly_rec)},
    {offsetof(sepax_shapes, block), sizeof(sepax_poly_block) / SEPAX_BLOCK_LANES},
    {offsetof(sepax_shapes, aabb), sizeof(sepax_aabb_block) / SEPAX_BLOCK_LANES},
    {offsetof(sepax_shapes, local), sizeof(sepax_local_block) / SEPAX_BLOCK_LANES},
    {offsetof(sepax_shapes, lrec), sizeof(sepax_local_rec)},
    {offsetof(sepax_shapes, pose), sizeof(sepax_pose_block) / SEPAX_BLOCK_LANES},
    {offsetof(sepax_shapes, nverts), 1},
};
#define NARRAYS (sizeof arrays / sizeof arrays[0])

static void **array_ptr(sepax_shapes *s, size_t i) {
    return (void **)(void *)((char *)s + arrays[i].field);
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
        fresh[i] = aligned_alloc(STORE_ALIGN, array_bytes(i, cap));
        if (!fresh[i]) {
            for (size_t k = 0; k < i; k++) free(fresh[k]);
            return 0;
        }
        memset(fresh[i], 0, array_bytes(i, cap));
    }
    for (size_t i = 0; i < NARRAYS; i++) {
        void **p = array_ptr(s, i);
        if (*p) memcpy(fresh[i], *p, array_bytes(i, s->cap));
        free(*p);
        *p = fresh[i];
    }
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
    for (size_t i = 0; i < NARRAYS; i++) free(*array_ptr(store, i));
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
    store->nverts[id] = nverts;
    sepax_local_block *l = &store->local[id / SEPAX_BLOCK_LANES];
    sepax_pose_block *p = &store->pose[id / SEPAX_BLOCK_LANES];
    unsigned lane = id % SEPAX_BLOCK_LANES;
    sepax_local_rec *lr = &store->lrec[id];
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        l->x[k][lane] = lr->x[k] = rec.x[k];
        l->y[k][lane] = lr->y[k] = rec.y[k];
        l->nx[k][lane] = lr->nx[k] = rec.nx[k];
        l->ny[k][lane] = lr->ny[k] = rec.ny[k];
    }
    p->px[lane] = 0.0f; /* the identity pose: world = local */
    p->py[lane] = 0.0f;
    p->c[lane] = 1.0f;
    p->s[lane] = 0.0f;
    sepax_transform_shape(store, id);
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

sepax_status sepax_shapes_local(const sepax_shapes *store, uint32_t id, sepax_local_polygon *out) {
    if (!store || !out) return SEPAX_ERR_NULL;
    if (id >= store->count) return SEPAX_ERR_BAD_ID;
    const sepax_local_block *l = &store->local[id / SEPAX_BLOCK_LANES];
    unsigned i = id % SEPAX_BLOCK_LANES;
    out->count = store->nverts[id];
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        out->vertex[k] = (sepax_vec2){l->x[k][i], l->y[k][i]};
        out->normal[k] = (sepax_vec2){l->nx[k][i], l->ny[k][i]};
    }
    return SEPAX_OK;
}

/* How far a rotation's squared length may be from 1: sepax_rot stays within
 * 2.5e-7; 2^-16 leaves room for rotations the caller composes itself. */
#define ROT_TOL (1.0f / 65536.0f)

static sepax_status check_pose(const sepax_pose *p) {
    float v[4] = {p->position.x, p->position.y, p->rotation.c, p->rotation.s};
    for (int i = 0; i < 4; i++)
        if (!isfinite(v[i])) return SEPAX_ERR_NONFINITE;
    if (fabsf(v[0]) > SEPAX_COORD_LIMIT || fabsf(v[1]) > SEPAX_COORD_LIMIT) return SEPAX_ERR_RANGE;
    double len2 = (double)v[2] * v[2] + (double)v[3] * v[3];
    if (!(fabs(len2 - 1.0) <= ROT_TOL)) return SEPAX_ERR_BAD_POSE;
    return SEPAX_OK;
}

sepax_status sepax_shapes_set_poses(sepax_shapes *store, uint32_t first, size_t count,
                                    const sepax_pose *poses) {
    if (!store) return SEPAX_ERR_NULL;
    if (first > store->count || count > (size_t)(store->count - first)) return SEPAX_ERR_BAD_ID;
    if (count == 0) return SEPAX_OK;
    if (!poses) return SEPAX_ERR_NULL;
    for (size_t i = 0; i < count; i++) { /* all or nothing */
        sepax_status st = check_pose(&poses[i]);
        if (st != SEPAX_OK) return st;
    }
    for (size_t i = 0; i < count; i++) {
        uint32_t id = first + (uint32_t)i;
        sepax_pose_block *p = &store->pose[id / SEPAX_BLOCK_LANES];
        unsigned lane = id % SEPAX_BLOCK_LANES;
        p->px[lane] = poses[i].position.x;
        p->py[lane] = poses[i].position.y;
        p->c[lane] = poses[i].rotation.c;
        p->s[lane] = poses[i].rotation.s;
    }
    return SEPAX_OK;
}

sepax_status sepax_shapes_get_pose(const sepax_shapes *store, uint32_t id, sepax_pose *out) {
    if (!store || !out) return SEPAX_ERR_NULL;
    if (id >= store->count) return SEPAX_ERR_BAD_ID;
    const sepax_pose_block *p = &store->pose[id / SEPAX_BLOCK_LANES];
    unsigned i = id % SEPAX_BLOCK_LANES;
    out->position = (sepax_vec2){p->px[i], p->py[i]};
    out->rotation = (sepax_rotation){p->c[i], p->s[i]};
    return SEPAX_OK;
}

sepax_status sepax_shapes_aabb(const sepax_shapes *store, uint32_t id, sepax_aabb *out) {
    if (!store || !out) return SEPAX_ERR_NULL;
    if (id >= store->count) return SEPAX_ERR_BAD_ID;
    const sepax_aabb_block *b = &store->aabb[id / SEPAX_BLOCK_LANES];
    unsigned i = id % SEPAX_BLOCK_LANES;
    out->lower = (sepax_vec2){b->minx[i], b->miny[i]};
    out->upper = (sepax_vec2){b->maxx[i], b->maxy[i]};
    return SEPAX_OK;
}

sepax_status sepax_shapes_update(sepax_shapes *store) {
    if (!store) return SEPAX_ERR_NULL;
    const sepax_kernel *k;
    sepax_status st = sepax_kernel_for_query(&k);
    if (st != SEPAX_OK) return st;
    if (store->count) k->update(store);
    return SEPAX_OK;
}
