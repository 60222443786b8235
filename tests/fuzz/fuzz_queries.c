/* libFuzzer target: query arguments from arbitrary bytes against a store of
 * 100 shapes of every kind (WL_MIXED): ids in and out of range, removed
 * (stale) ids, counts, NULL buffers, ranges for overlap_one, query margins.
 *
 * Input:
 *   byte 0      flags: 1, 2 raw ids for a, b (byte * 0x01010101); 4 a count
 *               too large for any buffer (8: the larger one); 16 NULL pairs;
 *               32 NULL outputs; 64 a huge overlap_one count; 128 extended
 *   byte 1      overlap_one probe, byte 2 its first index, byte 3 its count
 * extended (flag 128) only:
 *   bytes 4..7  the margin, raw float bits (NaN, Inf, huge, denormal, -0)
 *   byte 8      low 4 bits: shapes to remove first; 16: ids of in-range
 *               indices carry their current generation (live ids); 32: the
 *               pair queries again with their output laid over the pairs
 *               (64: just past them, sharing no byte)
 *   then one byte per removal: index % (count + 1) (count itself: an id past
 *               the end), or from 0xf0 up a removed id again
 * then two bytes per pair (a, b): an index % (count + 2), a raw id (flags 1,
 * 2), or in extended mode from 0xf0 up an id removed above (stale).
 * Without the extended flag the plain queries run (no options), as before.
 * Manifolds and sweeps run on the same pairs: sweeps with velocities from the
 * input bytes (A's NULL when flag 2 is set), the first one the raw margin
 * bits in extended mode. Raycasts too: a ray per pair against its B (origin,
 * direction and max fraction from the input bytes; in extended mode one
 * field of the first ray is the raw margin bits), and the first ray against
 * the overlap_one range.
 *
 * Checks: the library and the reference return the same status; a bad margin
 * is NONFINITE or RANGE when the other arguments are fine; a removed id in a
 * pair list or as the probe (otherwise fine) is SEPAX_ERR_STALE_ID from
 * both; on an error nothing is written; on success every backend's output
 * is the reference's, bit for bit, and nothing is written past n. Removals report the move, keep
 * the moved shape's data, and refuse the dead ids afterwards. A store changed by removals is
 * rebuilt before the next input.
 *
 * Then a whole frame on the same store (sepax_find_contacts, by turns on one
 * and on two threads): the test from byte 2 (4: not a test), the update from
 * byte 1 (after a lazy one, a record query must refuse until a whole update),
 * the margin as above, a capacity from byte 3 (often too small), filters from
 * the pair bytes. A refused frame writes nothing; SEPAX_ERR_CAPACITY reports the
 * count a second call gets in full; the pairs found are exactly those that
 * brute force over every pair (sepax_overlap_opt, the filters applied by
 * hand) finds, each once, for every test but AABB, and each collide hit and
 * manifold is the pair query's (sepax_collide_opt, sepax_collide_manifold_opt)
 * bit for bit. A box query from the input bytes must find the ids brute force
 * finds over the shapes' boxes, each once. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "sepax_ref.h"
#include "workload.h"

#define SHAPES 100
#define MAXN 256
#define MAXDEAD 32

static sepax_shapes *store;
static int dirty; /* shapes were removed: rebuild before the next input */
static fuzz_dead dead = {{0}, 0, MAXDEAD};

static void build_store(void) {
    sepax_shapes_destroy(store);
    wl_config cfg = wl_default();
    cfg.shapes = SHAPES;
    cfg.kinds = WL_MIXED;
    store = sepax_shapes_create(cfg.shapes);
    if (!store || wl_fill_store(store, &cfg) != SEPAX_OK) fuzz_fail("store");
    dirty = 0;
}

static int is_live(uint32_t id) {
    uint32_t i = id & SEPAX_ID_INDEX_MASK;
    return i < sepax_shapes_count(store) && sepax_shapes_id(store, i) == id;
}

static int is_dead(uint32_t id) {
    for (int k = 0; k < dead.n; k++)
        if (dead.id[k] == id) return 1;
    return 0;
}

/* What a query must say about one id: 0 fine, STALE_ID for a removed one, 1
 * for one never handed out (BAD_ID or STALE_ID). */
static int id_verdict(uint32_t id) {
    if (is_live(id)) return 0;
    return is_dead(id) ? SEPAX_ERR_STALE_ID : 1;
}

static int check_id_status(sepax_status st, int verdict) {
    if (verdict == 0) return st == SEPAX_OK;
    if (verdict == 1) return st == SEPAX_ERR_BAD_ID || st == SEPAX_ERR_STALE_ID;
    return st == verdict;
}

/* Remove a shape chosen by one byte and check what the removal reports. */
static void remove_one(uint8_t byte) {
    uint32_t probe;
    if (fuzz_remove(store, byte, &dead, &probe)) dirty = 1;
}

static sepax_broadphase *bp1, *bp2;

/* The whole-frame checks (see the top of the file). */
static void check_frame(const uint8_t *data, size_t size, const sepax_query_options *opt,
                        int margin_ok, sepax_status margin_err) {
    if (!bp1) {
        sepax_broadphase_config two = {2, NULL, NULL, 1};
        bp1 = sepax_broadphase_create(NULL);
        bp2 = sepax_broadphase_create(&two);
        if (!bp1 || !bp2) fuzz_fail("broadphase create");
    }
    uint32_t total = sepax_shapes_count(store);
    static sepax_filter filters[SHAPES];
    for (uint32_t i = 0; i < total; i++) {
        uint8_t b = size ? data[(i * 7u) % size] : 0;
        filters[i] = (sepax_filter){1u << (b & 3), (b & 0x40) ? (1u << ((b >> 2) & 3)) : ~0u};
    }
    sepax_shapes_set_filters(store, 0, total, filters);
    int test = data[2] % 5;
    float margin = opt ? opt->margin : 0.0f;
    sepax_frame_options fo = {test, margin, 0.0f, data[1] % 4}; /* a sepax_frame_update */
    size_t cap = data[3] % 64;
    enum { ROOM = SHAPES * SHAPES / 2 + 8 };
    static sepax_pair pairs[ROOM];
    static sepax_hit hits[ROOM];
    static sepax_manifold mans[ROOM];
    memset(pairs, FUZZ_MARK, sizeof pairs);
    memset(hits, FUZZ_MARK, sizeof hits);
    memset(mans, FUZZ_MARK, sizeof mans);
    sepax_contacts out = {pairs, hits, mans, cap};
    size_t count = 12345;
    sepax_broadphase *bp = (data[1] & 2) ? bp2 : bp1;
    sepax_status st = sepax_find_contacts(bp, store, &fo, &out, &count);
    if (test == 4) {
        if (st != SEPAX_ERR_BAD_OPTION) fuzz_fail("frame: an unknown test accepted");
    } else if (!margin_ok) {
        if (st != margin_err) fuzz_fail("frame: bad margin not refused");
    } else if (st != SEPAX_OK && st != SEPAX_ERR_CAPACITY) {
        fuzz_fail("frame: good arguments refused");
    }
    if (st != SEPAX_OK && st != SEPAX_ERR_CAPACITY && count != 12345)
        fuzz_fail("frame: count written on error");
    size_t written = st == SEPAX_OK ? count : 0;
    if (!fuzz_untouched(pairs, written * sizeof *pairs, sizeof pairs) ||
        !fuzz_untouched(hits, test == SEPAX_TEST_COLLIDE ? written * sizeof *hits : 0,
                        sizeof hits) ||
        !fuzz_untouched(mans, test == SEPAX_TEST_MANIFOLD ? written * sizeof *mans : 0,
                        sizeof mans))
        fuzz_fail("frame: wrote on error or past the results");
    if (st == SEPAX_ERR_CAPACITY) {
        if (count <= cap) fuzz_fail("frame: CAPACITY with room enough");
        out.capacity = ROOM;
        size_t again;
        st = sepax_find_contacts(bp, store, &fo, &out, &again);
        if (st != SEPAX_OK || again != count) fuzz_fail("frame: the second call lost results");
    }
    if (fo.update == SEPAX_UPDATE_LAZY && st == SEPAX_OK) {
        /* records of shapes in no candidate pair lag: a query that reads them refuses and
         * writes nothing, until a whole update */
        if (total >= 2) {
            uint8_t h = FUZZ_MARK;
            sepax_pair p = {sepax_shapes_id(store, 0), sepax_shapes_id(store, total - 1)};
            if (sepax_overlap(store, &p, 1, &h) != SEPAX_ERR_STALE_WORLD || h != FUZZ_MARK)
                fuzz_fail("frame: a query after a lazy frame not refused");
        }
        if (sepax_shapes_update(store) != SEPAX_OK) fuzz_fail("frame: update after a lazy frame");
    }
    if (st != SEPAX_OK || test == SEPAX_TEST_AABB) return;
    /* brute force: every pair i < j whose filters meet */
    static sepax_pair all[ROOM];
    static uint8_t hit[ROOM];
    size_t n = 0, want = 0;
    for (uint32_t i = 0; i < total; i++)
        for (uint32_t j = i + 1; j < total; j++)
            if ((filters[i].category & filters[j].mask) && (filters[j].category & filters[i].mask))
                all[n++] = (sepax_pair){sepax_shapes_id(store, i), sepax_shapes_id(store, j)};
    if (sepax_overlap_opt(store, all, n, opt, hit) != SEPAX_OK) fuzz_fail("frame: brute force");
    for (size_t k = 0; k < n; k++) want += hit[k];
    /* collide's hits and the manifolds with points are overlap's hits at the same margin */
    if (want != count) fuzz_fail("frame: not brute force's pair count");
    static uint8_t seen[SHAPES][SHAPES];
    memset(seen, 0, sizeof seen);
    for (size_t k = 0; k < count; k++) { /* each pair found is one brute force finds */
        uint32_t a = pairs[k].a & SEPAX_ID_INDEX_MASK, b = pairs[k].b & SEPAX_ID_INDEX_MASK;
        if (a >= b || b >= total || pairs[k].a != sepax_shapes_id(store, a) ||
            pairs[k].b != sepax_shapes_id(store, b))
            fuzz_fail("frame: a pair not in index order or not live");
        if (seen[a][b]++) fuzz_fail("frame: a pair twice");
        uint8_t h;
        if (sepax_overlap_opt(store, &pairs[k], 1, opt, &h) != SEPAX_OK)
            fuzz_fail("frame: recheck");
        if (!h) fuzz_fail("frame: a pair that does not touch");
        /* and each result is the pair query's, bit for bit */
        if (test == SEPAX_TEST_COLLIDE) {
            sepax_hit one;
            if (sepax_collide_opt(store, &pairs[k], 1, opt, &one) != SEPAX_OK ||
                memcmp(&one, &hits[k], sizeof one) != 0)
                fuzz_fail("frame: a hit not sepax_collide's");
        } else if (test == SEPAX_TEST_MANIFOLD) {
            sepax_manifold one;
            if (sepax_collide_manifold_opt(store, &pairs[k], 1, opt, &one) != SEPAX_OK ||
                memcmp(&one, &mans[k], sizeof one) != 0)
                fuzz_fail("frame: a manifold not sepax_collide_manifold's");
        }
    }
    /* a box query */
    sepax_aabb box = {{(float)(data[1] % 40) - 5.0f, (float)(data[2] % 40) - 5.0f}, {0, 0}};
    box.upper = (sepax_vec2){box.lower.x + (float)(data[3] % 16), box.lower.y + 3.0f};
    uint32_t ids[SHAPES];
    size_t got;
    if (sepax_broadphase_query_aabb(bp, store, box, ids, SHAPES, &got) != SEPAX_OK)
        fuzz_fail("box query refused");
    size_t inside = 0;
    static uint8_t in_box[SHAPES];
    for (uint32_t i = 0; i < total; i++) {
        sepax_aabb b;
        sepax_shapes_aabb(store, sepax_shapes_id(store, i), &b);
        in_box[i] = b.lower.x <= box.upper.x && box.lower.x <= b.upper.x &&
                    b.lower.y <= box.upper.y && box.lower.y <= b.upper.y;
        inside += in_box[i];
    }
    if (got != inside) fuzz_fail("box query: not brute force's count");
    for (size_t k = 0; k < got; k++) { /* each a live shape in the box, once */
        uint32_t i = ids[k] & SEPAX_ID_INDEX_MASK;
        if (i >= total || ids[k] != sepax_shapes_id(store, i) || in_box[i] != 1)
            fuzz_fail("box query: an id not brute force's, or twice");
        in_box[i] = 2;
    }
}

/* One block holding the pairs at its front and each pair query's output laid over them at a
 * 4-byte step from the input bytes (byte 8's 32, extended mode), or starting just past them
 * (byte 8's 64 as well: adjacent, sharing no byte). Laid over: the library and the reference
 * refuse alike, SEPAX_ERR_ALIASED (or the margin's error, which comes first), and leave every
 * byte of the block as it was; adjacent: the answers of separate buffers, bit for bit. */
typedef union alias_block {
    unsigned char bytes[MAXN * sizeof(sepax_pair) + MAXN * sizeof(sepax_manifold)];
    sepax_pair pairs[MAXN]; /* the library reads the pairs as pairs, not as bytes */
} alias_block;
static _Alignas(64) alias_block blk;
static unsigned char *const block = blk.bytes;
static unsigned char before[sizeof blk];

typedef sepax_status alias_call(const sepax_pair *pairs, size_t n, const sepax_query_options *o,
                                void *out);
static sepax_status lib_overlap(const sepax_pair *p, size_t n, const sepax_query_options *o,
                                void *out) {
    return sepax_overlap_opt(store, p, n, o, out);
}
static sepax_status ref_overlap(const sepax_pair *p, size_t n, const sepax_query_options *o,
                                void *out) {
    return sepax_ref_overlap_opt(store, p, n, o, out);
}
static sepax_status lib_collide(const sepax_pair *p, size_t n, const sepax_query_options *o,
                                void *out) {
    return sepax_collide_opt(store, p, n, o, out);
}
static sepax_status ref_collide(const sepax_pair *p, size_t n, const sepax_query_options *o,
                                void *out) {
    return sepax_ref_collide_opt(store, p, n, o, out);
}
static sepax_status lib_manifold(const sepax_pair *p, size_t n, const sepax_query_options *o,
                                 void *out) {
    return sepax_collide_manifold_opt(store, p, n, o, out);
}
static sepax_status ref_manifold(const sepax_pair *p, size_t n, const sepax_query_options *o,
                                 void *out) {
    return sepax_ref_collide_manifold_opt(store, p, n, o, out);
}

static void check_aliased(const uint8_t *data, const sepax_pair *pairs, size_t n,
                          const sepax_query_options *opt, int margin_ok, sepax_status margin_err,
                          sepax_status ref, const void *const want[3], const size_t out_size[3]) {
    int adjacent = data[8] & 64;
    size_t span = n * sizeof *pairs;
    size_t at = adjacent ? span : n ? (size_t)data[2] * 4 % span : 0;
    sepax_status refused = !margin_ok ? margin_err : n == 0 ? SEPAX_OK : SEPAX_ERR_ALIASED;
    alias_call *lib[3] = {lib_overlap, lib_collide, lib_manifold};
    alias_call *refs[3] = {ref_overlap, ref_collide, ref_manifold};
    for (int q = 0; q < 3; q++) {
        for (int r = 0; r < 2; r++) {
            memset(block, FUZZ_MARK, sizeof blk);
            memcpy(blk.pairs, pairs, span);
            memcpy(before, block, sizeof blk);
            sepax_status st = (r ? refs[q] : lib[q])(blk.pairs, n, opt, block + at);
            if (!adjacent) {
                if (st != refused) fuzz_fail("aliased output: not refused");
                if (memcmp(block, before, sizeof blk) != 0)
                    fuzz_fail("aliased output: the block changed");
                continue;
            }
            if (st != ref) fuzz_fail("adjacent output: another status than separate buffers'");
            if (memcmp(block, before, span) != 0) fuzz_fail("adjacent output: the pairs changed");
            if (st == SEPAX_OK && memcmp(block + at, want[q], n * out_size[q]) != 0)
                fuzz_fail("adjacent output: other answers than separate buffers'");
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!store || dirty) build_store();
    dead.n = 0;
    if (size < 4) return 0;
    uint8_t flags = data[0];
    int extended = flags & 128, live_ids = 0;
    sepax_query_options opt = {.margin = 0.0f};
    size_t at = 4;
    if (extended) {
        if (size < 9) return 0;
        memcpy(&opt.margin, data + 4, sizeof opt.margin);
        live_ids = data[8] & 16;
        int removals = data[8] & 15;
        at = 9;
        for (int k = 0; k < removals && at < size; k++) remove_one(data[at++]);
    }
    const sepax_query_options *popt = extended ? &opt : NULL;
    int margin_ok = isfinite(opt.margin) && fabsf(opt.margin) <= SEPAX_COORD_LIMIT;
    sepax_status margin_err = isfinite(opt.margin) ? SEPAX_ERR_RANGE : SEPAX_ERR_NONFINITE;
    uint32_t total = sepax_shapes_count(store);

    /* ids: mostly in range, sometimes just past it, anywhere, or removed */
    sepax_pair pairs[MAXN];
    size_t n = 0;
    for (size_t i = at; i + 1 < size && n < MAXN; i += 2, n++) {
        uint32_t v[2] = {data[i], data[i + 1]}, id[2];
        for (int s = 0; s < 2; s++) {
            if (extended && v[s] >= 0xf0 && dead.n > 0)
                id[s] = dead.id[(v[s] - 0xf0) % (uint32_t)dead.n];
            else if (flags & (1 << s))
                id[s] = v[s] * 0x01010101u;
            else {
                id[s] = v[s] % (total + 2);
                if (live_ids && id[s] < total) id[s] = sepax_shapes_id(store, id[s]);
            }
        }
        pairs[n] = (sepax_pair){id[0], id[1]};
    }
    /* counts too large for any buffer: refused before a pair is read */
    size_t asked = (flags & 4) ? ((flags & 8) ? (size_t)-1 / 8 + 1 : (size_t)-1 / 2) : n;
    const sepax_pair *pp = (flags & 16) ? NULL : pairs;
    int null_out = flags & 32;

    static uint8_t want[MAXN + 64], got[MAXN + 64];
    static sepax_hit want_c[MAXN + 8], got_c[MAXN + 8];
    static sepax_manifold want_m[MAXN + 8], got_m[MAXN + 8];
    static sepax_sweep_hit want_s[MAXN + 8], got_s[MAXN + 8];
    /* sweeps: B's displacement from the input bytes (up to 64 units), A's the same
     * reversed or none; in extended mode the first one is the raw margin bits (NaN, Inf,
     * past SEPAX_SWEEP_LIMIT) */
    static sepax_vec2 vel_a[MAXN + 8], vel_b[MAXN + 8];
    for (size_t i = 0; i < MAXN; i++) {
        float x = (float)((int)data[(4 * i) % size] - 128) * 0.5f;
        float y = (float)((int)data[(4 * i + 1) % size] - 128) * 0.5f;
        vel_b[i] = (sepax_vec2){x, y};
        vel_a[i] = (sepax_vec2){0.0f - y * 0.25f, x * 0.25f};
    }
    if (extended) vel_b[0].x = opt.margin;
    const sepax_vec2 *pva = (flags & 2) ? NULL : vel_a;
    memset(want_s, FUZZ_MARK, sizeof want_s);
    memset(want, FUZZ_MARK, sizeof want);
    memset(want_c, FUZZ_MARK, sizeof want_c);
    memset(want_m, FUZZ_MARK, sizeof want_m);
    sepax_status ref = sepax_ref_overlap_opt(store, pp, asked, popt, null_out ? NULL : want);
    sepax_status ref_c = sepax_ref_collide_opt(store, pp, asked, popt, null_out ? NULL : want_c);
    if (ref != ref_c) fuzz_fail("reference overlap and collide disagree on status");
    sepax_status ref_m =
        sepax_ref_collide_manifold_opt(store, pp, asked, popt, null_out ? NULL : want_m);
    if (ref != ref_m) fuzz_fail("reference overlap and manifold disagree on status");
    sepax_status ref_s = sepax_ref_sweep(store, pp, asked, pva, vel_b, null_out ? NULL : want_s);
    if (ref_s != SEPAX_OK && !fuzz_untouched(want_s, 0, sizeof want_s))
        fuzz_fail("reference sweep wrote on error");
    if (ref_s == SEPAX_OK && !fuzz_untouched(want_s, asked * sizeof *want_s, sizeof want_s))
        fuzz_fail("reference sweep wrote past n");
    if (ref_s == SEPAX_OK && asked > MAXN) fuzz_fail("a sweep count past the buffers accepted");
    /* rays: from near the store's shapes, any direction, max fractions 0 to 2 */
    static sepax_ray rays[MAXN + 8];
    static uint32_t ray_ids[MAXN + 8];
    static sepax_ray_hit want_r[MAXN + 8], got_r[MAXN + 8];
    for (size_t i = 0; i < MAXN; i++) {
        float ox = (float)((int)data[(4 * i + 2) % size] - 128) * 0.25f;
        float oy = (float)((int)data[(4 * i + 3) % size] - 128) * 0.25f;
        rays[i] = (sepax_ray){{ox, oy}, vel_b[i], (float)(data[(3 * i) % size] % 9) * 0.25f};
        ray_ids[i] = i < n ? pairs[i].b : 0;
    }
    if (extended) {
        float *field[5] = {&rays[0].origin.x, &rays[0].origin.y, &rays[0].direction.x,
                           &rays[0].direction.y, &rays[0].max_fraction};
        *field[data[3] % 5] = opt.margin;
    }
    const sepax_ray *pr = (flags & 16) ? NULL : rays;
    memset(want_r, FUZZ_MARK, sizeof want_r);
    sepax_status ref_r = sepax_ref_raycast(store, pr, ray_ids, asked, null_out ? NULL : want_r);
    if (!fuzz_untouched(want_r, ref_r == SEPAX_OK ? asked * sizeof *want_r : 0, sizeof want_r))
        fuzz_fail("reference raycast wrote on error or past n");
    if (ref_r == SEPAX_OK && asked > MAXN) fuzz_fail("a raycast count past the buffers accepted");
    /* what the status must be when only the margin or the ids can be wrong */
    if (asked == 0 || (pp && !null_out && asked == n)) {
        if (!margin_ok) {
            if (ref != margin_err) fuzz_fail("bad margin not refused");
        } else {
            int verdict = 0;
            for (size_t i = 0; i < asked && !verdict; i++) {
                verdict = id_verdict(pairs[i].a);
                if (!verdict) verdict = id_verdict(pairs[i].b);
            }
            if (!check_id_status(ref, verdict)) fuzz_fail("wrong status for the ids");
        }
    }
    if (ref != SEPAX_OK &&
        !(fuzz_untouched(want, 0, sizeof want) && fuzz_untouched(want_c, 0, sizeof want_c) &&
          fuzz_untouched(want_m, 0, sizeof want_m)))
        fuzz_fail("reference wrote on error");
    if (ref == SEPAX_OK && asked > MAXN) fuzz_fail("a count past the buffers accepted");
    if (ref == SEPAX_OK && !(fuzz_untouched(want, asked, sizeof want) &&
                             fuzz_untouched(want_c, asked * sizeof *want_c, sizeof want_c) &&
                             fuzz_untouched(want_m, asked * sizeof *want_m, sizeof want_m)))
        fuzz_fail("reference wrote past n");

    uint32_t probe;
    if (extended && data[1] >= 0xf0 && dead.n > 0)
        probe = dead.id[(data[1] - 0xf0) % (uint32_t)dead.n];
    else {
        probe = data[1] % (total + 2);
        if (live_ids && probe < total) probe = sepax_shapes_id(store, probe);
    }
    uint32_t first = data[2] % (total + 4);
    size_t count = (flags & 64) ? (size_t)data[3] * 0x1000000u : data[3];
    uint8_t want_one[MAXN + 64];
    memset(want_one, FUZZ_MARK, sizeof want_one);
    sepax_status ref_one =
        sepax_ref_overlap_one_opt(store, probe, first, count, popt, null_out ? NULL : want_one);
    int range_ok = first <= total && count <= total - first && (count == 0 || !null_out);
    if (!margin_ok && is_live(probe) && range_ok && ref_one != margin_err)
        fuzz_fail("overlap_one: bad margin not refused");
    if (margin_ok && !is_live(probe) && !check_id_status(ref_one, id_verdict(probe)))
        fuzz_fail("overlap_one: wrong status for the probe");
    if (margin_ok && is_live(probe) && range_ok && ref_one != SEPAX_OK)
        fuzz_fail("overlap_one: good arguments refused");
    if (!fuzz_untouched(want_one, ref_one == SEPAX_OK ? count : 0, sizeof want_one))
        fuzz_fail("reference overlap_one wrote on error or past count");
    static sepax_ray_hit want_range[MAXN + 8];
    memset(want_range, FUZZ_MARK, sizeof want_range);
    sepax_status ref_range =
        sepax_ref_raycast_range(store, pr, first, count, null_out ? NULL : want_range);
    if (!fuzz_untouched(want_range, ref_range == SEPAX_OK ? count * sizeof *want_range : 0,
                        sizeof want_range))
        fuzz_fail("reference raycast_range wrote on error or past count");

    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        if (!sepax_backend_available((sepax_backend)b)) continue;
        sepax_set_backend((sepax_backend)b);
        memset(got, FUZZ_MARK, sizeof got);
        memset(got_c, FUZZ_MARK, sizeof got_c);
        memset(got_m, FUZZ_MARK, sizeof got_m);
        sepax_status st, st_c, st_m, st_one;
        if (extended) {
            st = sepax_overlap_opt(store, pp, asked, popt, null_out ? NULL : got);
            st_c = sepax_collide_opt(store, pp, asked, popt, null_out ? NULL : got_c);
            st_m = sepax_collide_manifold_opt(store, pp, asked, popt, null_out ? NULL : got_m);
        } else {
            st = sepax_overlap(store, pp, asked, null_out ? NULL : got);
            st_c = sepax_collide(store, pp, asked, null_out ? NULL : got_c);
            st_m = sepax_collide_manifold(store, pp, asked, null_out ? NULL : got_m);
        }
        if (st != ref) fuzz_fail("overlap status");
        if (st_c != ref) fuzz_fail("collide status");
        if (memcmp(got, want, sizeof got) != 0) fuzz_fail("overlap output or markers differ");
        if (memcmp(got_c, want_c, sizeof got_c) != 0) fuzz_fail("collide output or markers differ");
        if (st_m != ref) fuzz_fail("manifold status");
        if (memcmp(got_m, want_m, sizeof got_m) != 0)
            fuzz_fail("manifold output or markers differ");
        memset(got_s, FUZZ_MARK, sizeof got_s);
        sepax_status st_s = sepax_sweep(store, pp, asked, pva, vel_b, null_out ? NULL : got_s);
        if (st_s != ref_s) fuzz_fail("sweep status");
        if (memcmp(got_s, want_s, sizeof got_s) != 0) fuzz_fail("sweep output or markers differ");
        memset(got_r, FUZZ_MARK, sizeof got_r);
        sepax_status st_r = sepax_raycast(store, pr, ray_ids, asked, null_out ? NULL : got_r);
        if (st_r != ref_r) fuzz_fail("raycast status");
        if (memcmp(got_r, want_r, sizeof got_r) != 0) fuzz_fail("raycast output or markers differ");
        memset(got_r, FUZZ_MARK, sizeof got_r);
        st_r = sepax_raycast_range(store, pr, first, count, null_out ? NULL : got_r);
        if (st_r != ref_range) fuzz_fail("raycast_range status");
        if (memcmp(got_r, want_range, sizeof got_r) != 0)
            fuzz_fail("raycast_range output or markers differ");
        memset(got, FUZZ_MARK, sizeof got);
        if (extended)
            st_one = sepax_overlap_one_opt(store, probe, first, count, popt, null_out ? NULL : got);
        else
            st_one = sepax_overlap_one(store, probe, first, count, null_out ? NULL : got);
        if (st_one != ref_one) fuzz_fail("overlap_one status");
        if (memcmp(got, want_one, sizeof got) != 0)
            fuzz_fail("overlap_one output or markers differ");
    }
    if (extended && (data[8] & 32) && !(flags & (4 | 16 | 32))) {
        const void *want_q[3] = {want, want_c, want_m};
        const size_t sizes[3] = {sizeof *want, sizeof *want_c, sizeof *want_m};
        check_aliased(data, pairs, n, popt, margin_ok, margin_err, ref, want_q, sizes);
    }
    check_frame(data, size, popt, margin_ok, margin_err);
    return 0;
}
