/* libFuzzer target: poses from arbitrary bytes (raw float bits: NaN, Inf,
 * denormals, huge, non-unit rotations), then the world update.
 * Checks: a refused batch changes no pose; after an update every backend's
 * world data (vertices, planes, bounds) is the reference's, bit for bit; and
 * queries on the moved shapes agree with the reference. */
#include <string.h>

#include "sepax_ref.h"
#include "workload.h"

#define SHAPES 40

static sepax_shapes *store;

static void fail(const char *why) {
    (void)why;
    __builtin_trap();
}

static void same_world(uint32_t id) {
    sepax_world_shape want;
    sepax_shape_view got;
    sepax_aabb box;
    if (sepax_ref_world(store, id, &want) != SEPAX_OK) fail("ref world");
    sepax_shapes_view(store, id, &got);
    sepax_shapes_aabb(store, id, &box);
    size_t row = SEPAX_MAX_VERTS * sizeof(float);
    if (memcmp(got.x, want.x, row) || memcmp(got.y, want.y, row) || memcmp(got.nx, want.nx, row) ||
        memcmp(got.ny, want.ny, row) || memcmp(got.c, want.c, row) ||
        memcmp(&box, &want.aabb, sizeof box))
        fail("world data differs from the reference");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!store) {
        wl_config cfg = wl_default();
        cfg.shapes = SHAPES;
        store = sepax_shapes_create(cfg.shapes);
        if (!store || wl_fill_store(store, &cfg) != SEPAX_OK) fail("store");
    }
    if (size < 2) return 0;
    uint32_t first = data[0] % (SHAPES + 2);
    int raw = data[1] & 1, angles = data[1] & 2;
    data += 2;
    size -= 2;
    sepax_pose poses[SHAPES + 2];
    size_t n = 0;
    while (n < SHAPES + 2) {
        if (raw && size >= sizeof(sepax_pose)) {
            memcpy(&poses[n], data, sizeof(sepax_pose));
            data += sizeof(sepax_pose);
            size -= sizeof(sepax_pose);
        } else if (!raw && size >= 3) {
            float angle = (float)(int8_t)data[2] * (angles ? 0.7f : 0.05f);
            poses[n] =
                (sepax_pose){{(float)(int8_t)data[0], (float)(int8_t)data[1]}, sepax_rot(angle)};
            data += 3;
            size -= 3;
        } else {
            break;
        }
        n++;
    }
    sepax_pose before[SHAPES];
    for (uint32_t i = 0; i < SHAPES; i++) sepax_shapes_get_pose(store, i, &before[i]);
    sepax_status st = sepax_shapes_set_poses(store, first, n, poses);
    if (st != SEPAX_OK) {
        for (uint32_t i = 0; i < SHAPES; i++) {
            sepax_pose now;
            sepax_shapes_get_pose(store, i, &now);
            if (memcmp(&now, &before[i], sizeof now) != 0) fail("refused batch changed a pose");
        }
        return 0;
    }
    sepax_pair pairs[SHAPES * 2];
    for (uint32_t i = 0; i < SHAPES; i++) {
        pairs[2 * i] = (sepax_pair){i, (i * 7 + 3) % SHAPES};
        pairs[2 * i + 1] = (sepax_pair){i, i};
    }
    sepax_hit want[SHAPES * 2], got[SHAPES * 2];
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        if (!sepax_backend_available((sepax_backend)b)) continue;
        sepax_set_backend((sepax_backend)b);
        if (sepax_shapes_update(store) != SEPAX_OK) fail("update");
        for (uint32_t i = 0; i < SHAPES; i++) same_world(i);
        if (sepax_ref_collide(store, pairs, SHAPES * 2, want) != SEPAX_OK) fail("ref collide");
        if (sepax_collide(store, pairs, SHAPES * 2, got) != SEPAX_OK) fail("collide");
        if (memcmp(got, want, sizeof got) != 0) fail("collide differs on moved shapes");
    }
    return 0;
}
