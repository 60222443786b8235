/* libFuzzer target: query arguments from arbitrary bytes against a fixed
 * store: ids in and out of range, counts, NULL buffers, ranges for
 * overlap_one. Checks: the library and the reference return the same status;
 * on an error nothing is written; on success every backend's output is the
 * reference's, bit for bit, and nothing is written past n. */
#include <stdlib.h>
#include <string.h>

#include "sepax_ref.h"
#include "workload.h"

#define MAXN 256
#define MARK 0xC3

static sepax_shapes *store;

static void fail(const char *why) {
    (void)why;
    __builtin_trap();
}

static int untouched(const void *buf, size_t from, size_t to) {
    const uint8_t *p = buf;
    for (size_t i = from; i < to; i++)
        if (p[i] != MARK) return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!store) {
        wl_config cfg = wl_default();
        cfg.shapes = 100;
        store = sepax_shapes_create(cfg.shapes);
        if (!store || wl_fill_store(store, &cfg) != SEPAX_OK) fail("store");
    }
    if (size < 4) return 0;
    uint8_t flags = data[0];
    uint32_t total = sepax_shapes_count(store);
    /* ids: mostly in range, sometimes just past it or anywhere */
    sepax_pair pairs[MAXN];
    size_t n = 0;
    for (size_t i = 4; i + 1 < size && n < MAXN; i += 2, n++) {
        uint32_t a = data[i], b = data[i + 1];
        pairs[n].a = (flags & 1) ? a * 0x01010101u : a % (total + 2);
        pairs[n].b = (flags & 2) ? b * 0x01010101u : b % (total + 2);
    }
    /* counts too large for any buffer: refused before a pair is read */
    size_t asked = (flags & 4) ? ((flags & 8) ? (size_t)-1 / 8 + 1 : (size_t)-1 / 2) : n;
    const sepax_pair *pp = (flags & 16) ? NULL : pairs;

    static uint8_t want[MAXN + 64], got[MAXN + 64];
    static sepax_hit want_c[MAXN + 8], got_c[MAXN + 8];
    int null_out = flags & 32;
    memset(want, MARK, sizeof want);
    memset(want_c, MARK, sizeof want_c);
    sepax_status ref = sepax_ref_overlap(store, pp, asked, null_out ? NULL : want);
    sepax_status ref_c = sepax_ref_collide(store, pp, asked, null_out ? NULL : want_c);
    if (ref != ref_c) fail("reference overlap and collide disagree on status");
    uint32_t probe = data[1] % (total + 2), first = data[2] % (total + 4);
    size_t count = (flags & 64) ? (size_t)data[3] * 0x1000000u : data[3];
    uint8_t want_one[MAXN + 64];
    memset(want_one, MARK, sizeof want_one);
    sepax_status ref_one =
        sepax_ref_overlap_one(store, probe, first, count, null_out ? NULL : want_one);
    if (ref != SEPAX_OK &&
        !(untouched(want, 0, sizeof want) && untouched(want_c, 0, sizeof want_c)))
        fail("reference wrote on error");
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        if (!sepax_backend_available((sepax_backend)b)) continue;
        sepax_set_backend((sepax_backend)b);
        memset(got, MARK, sizeof got);
        memset(got_c, MARK, sizeof got_c);
        if (sepax_overlap(store, pp, asked, null_out ? NULL : got) != ref) fail("overlap status");
        if (sepax_collide(store, pp, asked, null_out ? NULL : got_c) != ref) fail("collide status");
        if (memcmp(got, want, sizeof got) != 0) fail("overlap output or markers differ");
        if (memcmp(got_c, want_c, sizeof got_c) != 0) fail("collide output or markers differ");
        memset(got, MARK, sizeof got);
        if (sepax_overlap_one(store, probe, first, count, null_out ? NULL : got) != ref_one)
            fail("overlap_one status");
        if (memcmp(got, want_one, sizeof got) != 0) fail("overlap_one output or markers differ");
    }
    return 0;
}
