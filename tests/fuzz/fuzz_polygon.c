/* libFuzzer target: polygon construction and hulls from arbitrary bytes.
 * Input: byte 0 picks the point count (-1..10) and how coordinates are read;
 * the rest are coordinates, either raw float bits (NaN, Inf, denormals,
 * huge) or small integers (to reach the accepting paths often).
 * Checks: a refusal adds nothing and leaves out_id alone; an accepted polygon
 * is counter-clockwise, convex, made of input points, with unit outward
 * planes; every backend answers like the reference for it against the
 * store, as a pair list and as one-vs-many. The same points' hull, when there
 * is one, holds every point, is made of input points, and the store takes
 * it whole. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sepax_ref.h"

static sepax_shapes *store;
static const uint32_t keep = 48; /* the store is rebuilt past this many */

static void fail(const char *why) {
    (void)why;
    __builtin_trap();
}

static void check_accepted(uint32_t id, const sepax_vec2 *pts, int count) {
    sepax_shape_view v;
    if (sepax_shapes_view(store, id, &v) != SEPAX_OK) fail("view");
    if (v.count < 3 || v.count > SEPAX_MAX_VERTS || v.count > count) fail("count");
    double area = 0;
    for (int i = 0; i < v.count; i++) {
        int found = 0;
        for (int k = 0; k < count; k++) found |= pts[k].x == v.x[i] && pts[k].y == v.y[i];
        if (!found) fail("vertex not from the input");
        int j = (i + 1) % v.count;
        area += (double)v.x[i] * v.y[j] - (double)v.x[j] * v.y[i];
        double len = hypot(v.nx[i], v.ny[i]);
        if (!(fabs(len - 1.0) < 1e-6)) fail("normal not unit");
    }
    if (!(area > 0)) fail("not counter-clockwise");
}

static void check_queries(uint32_t id) {
    uint32_t n = sepax_shapes_count(store);
    sepax_pair pairs[2 * 64];
    for (uint32_t k = 0; k < n; k++) {
        pairs[2 * k] = (sepax_pair){id, k};
        pairs[2 * k + 1] = (sepax_pair){k, id};
    }
    size_t np = 2 * (size_t)n;
    uint8_t want[128], got[128], want_one[64], got_one[64];
    sepax_hit want_c[128], got_c[128];
    if (sepax_ref_overlap(store, pairs, np, want) != SEPAX_OK) fail("ref overlap");
    if (sepax_ref_collide(store, pairs, np, want_c) != SEPAX_OK) fail("ref collide");
    if (sepax_ref_overlap_one(store, id, 0, n, want_one) != SEPAX_OK) fail("ref one");
    for (size_t i = 0; i < np; i++)
        if (want[i] != want_c[i].hit) fail("reference overlap and collide disagree");
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        if (!sepax_backend_available((sepax_backend)b)) continue;
        sepax_set_backend((sepax_backend)b);
        if (sepax_overlap(store, pairs, np, got) != SEPAX_OK) fail("overlap");
        if (memcmp(got, want, np) != 0) fail("overlap differs from the reference");
        if (sepax_collide(store, pairs, np, got_c) != SEPAX_OK) fail("collide");
        if (memcmp(got_c, want_c, np * sizeof *got_c) != 0) fail("collide differs");
        if (sepax_overlap_one(store, id, 0, n, got_one) != SEPAX_OK) fail("one");
        if (memcmp(got_one, want_one, n) != 0) fail("overlap_one differs");
    }
}

static void check_hull(const sepax_vec2 *pts, int have) {
    sepax_vec2 out[SEPAX_MAX_VERTS + 1];
    memset(out, 0x5c, sizeof out);
    int n = -7;
    sepax_status st = sepax_hull(pts, have, out, &n);
    const uint8_t *tail = (const uint8_t *)&out[SEPAX_MAX_VERTS];
    for (size_t i = 0; i < sizeof out[0]; i++)
        if (tail[i] != 0x5c) fail("hull wrote past SEPAX_MAX_VERTS");
    if (st != SEPAX_OK) {
        if (n != -7) fail("hull wrote the count on error");
        return;
    }
    if (n < 3 || n > SEPAX_MAX_VERTS) fail("hull count");
    double size = 0;
    for (int k = 0; k < have; k++)
        for (int m = 0; m < have; m++)
            size = fmax(size,
                        fmax(fabs((double)pts[k].x - pts[m].x), fabs((double)pts[k].y - pts[m].y)));
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int k = 0; k < have; k++) found |= pts[k].x == out[i].x && pts[k].y == out[i].y;
        if (!found) fail("hull vertex not from the input");
        sepax_vec2 a = out[i], b = out[(i + 1) % n];
        double len = hypot((double)b.x - a.x, (double)b.y - a.y);
        for (int k = 0; k < have; k++) {
            double cross = ((double)b.x - a.x) * ((double)pts[k].y - a.y) -
                           ((double)b.y - a.y) * ((double)pts[k].x - a.x);
            if (cross < -1e-5 * size * len) fail("input point outside its hull");
        }
    }
    uint32_t id;
    if (sepax_shapes_add_polygon(store, out, n, &id) != SEPAX_OK) fail("store refused a hull");
    sepax_shape_view v;
    sepax_shapes_view(store, id, &v);
    if (v.count != n) fail("store changed a hull");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    if (!store || sepax_shapes_count(store) >= keep) {
        sepax_shapes_destroy(store);
        store = sepax_shapes_create(4);
        if (!store) fail("create");
    }
    int count = (int)(data[0] % 12) - 1;
    int raw = data[0] & 0x80;
    data++;
    size--;
    sepax_vec2 pts[16];
    int have = 0;
    while (have < 10) {
        if (raw) {
            if (size < 8) break;
            memcpy(&pts[have], data, 8);
            data += 8;
            size -= 8;
        } else {
            if (size < 2) break;
            pts[have] = (sepax_vec2){(float)(int8_t)data[0] / 4, (float)(int8_t)data[1] / 4};
            data += 2;
            size -= 2;
        }
        have++;
    }
    if (count > have) count = have;
    check_hull(pts, have);
    uint32_t before = sepax_shapes_count(store), id = 0xdeadbeef;
    sepax_status st = sepax_shapes_add_polygon(store, pts, count, &id);
    if (st == SEPAX_OK) {
        if (id != before || sepax_shapes_count(store) != before + 1) fail("id");
        check_accepted(id, pts, count);
        check_queries(id);
    } else {
        if (id != 0xdeadbeef || sepax_shapes_count(store) != before) fail("refusal changed state");
        if (!sepax_status_str(st)) fail("status name");
    }
    return 0;
}
