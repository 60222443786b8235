#include "fuzz_common.h"

#include <string.h>

#include "sepax_ref.h"

_Noreturn void fuzz_fail(const char *why) {
    (void)why;
    __builtin_trap();
}

int fuzz_untouched(const void *buf, size_t from, size_t to) {
    const unsigned char *p = buf;
    for (size_t i = from; i < to; i++)
        if (p[i] != FUZZ_MARK) return 0;
    return 1;
}

void fuzz_same_world(const sepax_shapes *store, uint32_t id) {
    sepax_world_shape want;
    sepax_shape_view got;
    sepax_aabb box;
    if (sepax_ref_world(store, id, &want) != SEPAX_OK) fuzz_fail("ref world");
    if (sepax_shapes_view(store, id, &got) != SEPAX_OK) fuzz_fail("view");
    if (sepax_shapes_aabb(store, id, &box) != SEPAX_OK) fuzz_fail("aabb");
    int planes = got.kind == SEPAX_KIND_CIRCLE ? 0 : got.kind == SEPAX_KIND_CAPSULE ? 2 : got.count;
    if (got.kind != want.kind || got.count != want.count || got.planes != planes ||
        memcmp(&got.radius, &want.radius, sizeof got.radius))
        fuzz_fail("world kind, count, planes or radius differ");
    size_t row = SEPAX_MAX_VERTS * sizeof(float);
    if (memcmp(got.x, want.x, row) || memcmp(got.y, want.y, row) || memcmp(got.nx, want.nx, row) ||
        memcmp(got.ny, want.ny, row) || memcmp(got.c, want.c, row) ||
        memcmp(&box, &want.aabb, sizeof box))
        fuzz_fail("world data differs from the reference");
}

static void add_dead(fuzz_dead *d, uint32_t id) {
    if (d->n < d->cap) d->id[d->n++] = id;
}

int fuzz_remove(sepax_shapes *store, int byte, fuzz_dead *dead, uint32_t *probe) {
    uint32_t count = sepax_shapes_count(store);
    sepax_move mv = {0x12345678u, 0x12345678u};
    if (byte >= 0xf0 && dead->n > 0) { /* a removed id again: refused, nothing changes */
        if (sepax_shapes_remove(store, dead->id[(byte - 0xf0) % dead->n], &mv) !=
            SEPAX_ERR_STALE_ID)
            fuzz_fail("removed twice");
        if (sepax_shapes_count(store) != count || mv.from != 0x12345678u)
            fuzz_fail("refusal moved");
        return 0;
    }
    uint32_t idx = (uint32_t)byte % (count + 1);
    if (idx == count) { /* past the end: refused */
        sepax_status st = sepax_shapes_remove(store, idx, &mv);
        if (st != SEPAX_ERR_BAD_ID && st != SEPAX_ERR_STALE_ID) fuzz_fail("removed past the end");
        if (sepax_shapes_count(store) != count || mv.from != 0x12345678u)
            fuzz_fail("refusal moved");
        return 0;
    }
    uint32_t id = sepax_shapes_id(store, idx), last = sepax_shapes_id(store, count - 1);
    sepax_local_shape local_last, local_now;
    sepax_pose pose_last, pose_now;
    sepax_aabb box_last, box_now;
    sepax_shape_view view_last, view_now;
    sepax_shapes_local(store, last, &local_last);
    sepax_shapes_get_pose(store, last, &pose_last);
    sepax_shapes_aabb(store, last, &box_last);
    sepax_shapes_view(store, last, &view_last);
    float world_last[5][SEPAX_MAX_VERTS];
    const float *rows[5] = {view_last.x, view_last.y, view_last.nx, view_last.ny, view_last.c};
    for (int r = 0; r < 5; r++) memcpy(world_last[r], rows[r], sizeof world_last[r]);
    if (sepax_shapes_remove(store, id, &mv) != SEPAX_OK) fuzz_fail("remove");
    if (sepax_shapes_count(store) != count - 1) fuzz_fail("count after remove");
    add_dead(dead, id);
    *probe = count > 1 ? sepax_shapes_id(store, 0) : SEPAX_NO_ID;
    if (id == last) {
        if (mv.from != SEPAX_NO_ID) fuzz_fail("removing the last shape moved one");
    } else {
        if (mv.from != last || mv.to != sepax_shapes_id(store, idx) ||
            (mv.to & SEPAX_ID_INDEX_MASK) != idx || mv.to == id)
            fuzz_fail("move report");
        add_dead(dead, last);
        /* the moved shape is the same shape, world data included */
        sepax_shapes_local(store, mv.to, &local_now);
        sepax_shapes_get_pose(store, mv.to, &pose_now);
        sepax_shapes_aabb(store, mv.to, &box_now);
        sepax_shapes_view(store, mv.to, &view_now);
        const float *now[5] = {view_now.x, view_now.y, view_now.nx, view_now.ny, view_now.c};
        if (memcmp(&local_now, &local_last, sizeof local_now) ||
            memcmp(&pose_now, &pose_last, sizeof pose_now) ||
            memcmp(&box_now, &box_last, sizeof box_now) || view_now.kind != view_last.kind ||
            view_now.count != view_last.count || view_now.planes != view_last.planes ||
            memcmp(&view_now.radius, &view_last.radius, sizeof view_now.radius))
            fuzz_fail("moved shape changed");
        for (int r = 0; r < 5; r++)
            if (memcmp(now[r], world_last[r], sizeof world_last[r]))
                fuzz_fail("moved world changed");
        *probe = mv.to;
    }
    sepax_pose p;
    if (sepax_shapes_get_pose(store, id, &p) != SEPAX_ERR_STALE_ID)
        fuzz_fail("removed id still read");
    if (id != last && sepax_shapes_get_pose(store, last, &p) != SEPAX_ERR_STALE_ID)
        fuzz_fail("moved shape's old id still read");
    return 1;
}
