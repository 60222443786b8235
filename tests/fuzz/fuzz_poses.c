/* libFuzzer target: poses, adds and removals from arbitrary bytes on a store
 * of shapes of every kind (WL_MIXED), with world updates between them.
 *
 * Input: byte 0, byte 1 flags (1 raw poses, 2 large turns, 4 operations, 8 reorders).
 * A pose is 16 bytes of raw float bits (flag 1: NaN, Inf, denormals, huge,
 * non-unit rotations) or 3 bytes: x, y as signed integers and a signed angle
 * step (0.05 rad, or 0.7 with flag 2) through sepax_rot.
 * Without flag 4 (the original format): byte 0 % (count + 2) is the first
 * index and the rest are poses for one set_poses.
 * With flag 4, bytes 2.. are up to 64 operations, one byte each (low 2 bits
 * the operation) and their arguments:
 *   0 set_poses  next byte: first index % (count + 2); (op >> 2) & 15 poses
 *   1 update     on backend (op >> 2) & 7 (modulo the available ones), then
 *                check world data, and queries at margin
 *                {0, 0.5, -0.25, 2}[op >> 5]
 *   2 add        next byte: the kind (% 5: circle, capsule, box, polygon,
 *                rounded; / 5: polygon points - 3), then its small float
 *                arguments (signed byte / 4), as many as the kind needs
 *   3 remove     next byte: index % (count + 1) (count: past the end), or
 *                from 0xf0 up an id removed before (stale); with op bit 3, a set
 *                removal (sepax_shapes_remove_many) of 1 + b % 8 ids made from b:
 *                indices, one past the end, a dead id, one id twice
 *     reorder    (flag 8 and op bit 2) next byte b: sepax_shapes_reorder by a
 *                permutation, (op >> 3) & 3: 0 shuffled from b, 1 reversed,
 *                2 shuffled then broken by b (an entry past the shapes, an
 *                entry twice, a count one too many or too few), 3 identity
 * Operation k runs with backend k (modulo the available ones) selected.
 * Then every backend updates and is checked, and the queries run on every
 * backend at margin 0 (with flag 4: {0, 0.5, -0.25, 2}[byte 0 & 3]).
 *
 * Checks: set_poses takes exactly the valid batches in range, and a refused
 * one changes no pose; an accepted pose reads back bit for bit. A set_poses whose first
 * index and count differ in their low bit is followed by sepax_shapes_update_range over the
 * same range: refused exactly when the range is past the shapes, else the blocks holding it
 * get the reference's world data and no other shape's changes. An add adds
 * one shape with the next id, the identity pose and world data from it, or
 * nothing. A removal reports the move; the moved shape keeps its local data,
 * pose and world data; the dead ids are refused. After every update, every
 * shape's world data (kind, count, planes, radius, vertices, normals, plane
 * offsets, bounds) is sepax_ref_world's bit for bit, and after updates, adds
 * and removals the queries (collide, overlap, overlap_one, at a margin) agree
 * with the reference, on world data that may be stale (poses set since the
 * last update) but is the same for both. A reorder moves every shape with its
 * local shape, pose, filter, bounds and world data to the index the order
 * gives it, reports its new id, refuses the old ids of the shapes that moved
 * and keeps the others'; a broken order changes and writes nothing. The
 * store is restored (rebuilt, or
 * its poses reset) before each input, so every input starts alike. Last, the bytes from 2 on
 * are read again as up to 67 raw float angles: sepax_rot_many gives sepax_rot's bits on every
 * backend. */
#include <math.h>
#include <string.h>

#include "fuzz_common.h"
#include "sepax_ref.h"
#include "workload.h"

#define SHAPES 40
#define MAXSHAPES 160
#define MAXOPS 64
#define MAXDEAD 64
#define NPAIRS (3 * MAXSHAPES)

static sepax_shapes *store;
static int moved_poses, changed_shapes; /* what the last input changed */
static sepax_backend avail[SEPAX_BACKEND_COUNT];
static int navail;
static fuzz_dead dead = {{0}, 0, MAXDEAD};

static void restore_store(void) {
    if (!store || changed_shapes) {
        sepax_shapes_destroy(store);
        wl_config cfg = wl_default();
        cfg.shapes = SHAPES;
        cfg.kinds = WL_MIXED;
        store = sepax_shapes_create(cfg.shapes);
        if (!store || wl_fill_store(store, &cfg) != SEPAX_OK) fuzz_fail("store");
    } else if (moved_poses) {
        sepax_pose identity[SHAPES];
        for (int i = 0; i < SHAPES; i++) identity[i] = (sepax_pose){{0.0f, 0.0f}, {1.0f, 0.0f}};
        if (sepax_shapes_set_poses(store, 0, SHAPES, identity) != SEPAX_OK ||
            sepax_shapes_update(store) != SEPAX_OK)
            fuzz_fail("reset poses");
    }
    moved_poses = changed_shapes = 0;
    dead.n = 0;
    if (!navail) {
        for (int b = 0; b < SEPAX_BACKEND_COUNT; b++)
            if (sepax_backend_available((sepax_backend)b)) avail[navail++] = (sepax_backend)b;
        if (!navail) fuzz_fail("no backend");
    }
}

/* ---- input ---- */

typedef struct cursor {
    const uint8_t *p;
    size_t n;
} cursor;

static int next_byte(cursor *c) {
    if (!c->n) return -1;
    c->n--;
    return *c->p++;
}

static float next_small(cursor *c) {
    int b = next_byte(c);
    return b < 0 ? 1.0f : (float)(int8_t)b / 4;
}

static int read_pose(cursor *c, int raw, int angles, sepax_pose *out) {
    if (raw) {
        if (c->n < sizeof *out) return 0;
        memcpy(out, c->p, sizeof *out);
        c->p += sizeof *out;
        c->n -= sizeof *out;
        return 1;
    }
    if (c->n < 3) return 0;
    float angle = (float)(int8_t)c->p[2] * (angles ? 0.7f : 0.05f);
    *out = (sepax_pose){{(float)(int8_t)c->p[0], (float)(int8_t)c->p[1]}, sepax_rot(angle)};
    c->p += 3;
    c->n -= 3;
    return 1;
}

/* ---- checks ---- */

/* Queries on the current world data, against the reference. With `only`
 * SEPAX_BACKEND_AUTO, on every backend: collide and overlap over pairs of
 * near and far indices and each shape with itself, and overlap_one of
 * `probe` against the whole store. Otherwise, on backend `only` (the cheap
 * check after each operation): collide of `probe` with every shape, and
 * overlap_one. */
static void check_queries(uint32_t probe, float margin, sepax_backend only) {
    uint32_t n = sepax_shapes_count(store);
    if (!n || probe == SEPAX_NO_ID) return;
    static sepax_pair pairs[NPAIRS];
    int full = only == SEPAX_BACKEND_AUTO;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id = sepax_shapes_id(store, i);
        if (!full) {
            pairs[i] = (sepax_pair){probe, id};
            continue;
        }
        pairs[3 * i] = (sepax_pair){id, sepax_shapes_id(store, (i * 7 + 3) % n)};
        pairs[3 * i + 1] = (sepax_pair){id, id};
        pairs[3 * i + 2] = (sepax_pair){sepax_shapes_id(store, (i + 1) % n), id};
    }
    size_t np = (full ? 3 : 1) * (size_t)n;
    sepax_query_options opt = {.margin = margin};
    static sepax_hit want[NPAIRS], got[NPAIRS];
    static uint8_t want_o[NPAIRS], got_o[NPAIRS], want_one[MAXSHAPES], got_one[MAXSHAPES];
    if (sepax_ref_collide_opt(store, pairs, np, &opt, want) != SEPAX_OK) fuzz_fail("ref collide");
    if (full && sepax_ref_overlap_opt(store, pairs, np, &opt, want_o) != SEPAX_OK)
        fuzz_fail("ref overlap");
    if (sepax_ref_overlap_one_opt(store, probe, 0, n, &opt, want_one) != SEPAX_OK)
        fuzz_fail("ref overlap_one");
    sepax_backend keep = sepax_get_backend();
    for (int b = 0; b < navail; b++) {
        if (only != SEPAX_BACKEND_AUTO && avail[b] != only) continue;
        sepax_set_backend(avail[b]);
        if (sepax_collide_opt(store, pairs, np, &opt, got) != SEPAX_OK) fuzz_fail("collide");
        if (memcmp(got, want, np * sizeof *got) != 0)
            fuzz_fail("collide differs from the reference");
        if (full && sepax_overlap_opt(store, pairs, np, &opt, got_o) != SEPAX_OK)
            fuzz_fail("overlap");
        if (full && memcmp(got_o, want_o, np) != 0) fuzz_fail("overlap differs from the reference");
        if (sepax_overlap_one_opt(store, probe, 0, n, &opt, got_one) != SEPAX_OK)
            fuzz_fail("overlap_one");
        if (memcmp(got_one, want_one, n) != 0) fuzz_fail("overlap_one differs from the reference");
    }
    sepax_set_backend(keep);
}

/* Update on the current backend, then every shape's world data. */
static void update_and_check(void) {
    if (sepax_shapes_update(store) != SEPAX_OK) fuzz_fail("update");
    uint32_t n = sepax_shapes_count(store);
    for (uint32_t i = 0; i < n; i++) fuzz_same_world(store, sepax_shapes_id(store, i));
}

/* sepax_shapes_update_range(first, n), taken exactly when the range is in the store: the
 * blocks holding it then hold the reference's world data of their poses, and every other
 * shape's is as it was. */
static void update_range_and_check(uint32_t first, size_t n) {
    uint32_t count = sepax_shapes_count(store);
    static wl_view_copy before[MAXSHAPES];
    for (uint32_t i = 0; i < count; i++) wl_copy_view(store, sepax_shapes_id(store, i), &before[i]);
    int in_store = first <= count && n <= count - first;
    sepax_status st = sepax_shapes_update_range(store, first, n);
    if (st != (in_store ? SEPAX_OK : SEPAX_ERR_BAD_ID)) fuzz_fail("update_range's verdict");
    uint32_t lo = 0, hi = 0; /* the written blocks' shapes */
    if (st == SEPAX_OK && n) {
        lo = first / SEPAX_BLOCK_SHAPES * SEPAX_BLOCK_SHAPES;
        hi = (uint32_t)((first + n + SEPAX_BLOCK_SHAPES - 1) / SEPAX_BLOCK_SHAPES *
                        SEPAX_BLOCK_SHAPES);
    }
    for (uint32_t i = 0; i < count; i++) {
        if (i >= lo && i < hi) {
            fuzz_same_world(store, sepax_shapes_id(store, i));
            continue;
        }
        wl_view_copy now;
        wl_copy_view(store, sepax_shapes_id(store, i), &now);
        if (memcmp(&now, &before[i], sizeof now) != 0)
            fuzz_fail("update_range wrote a shape outside its blocks");
    }
}

static uint32_t middle(void) { return sepax_shapes_id(store, sepax_shapes_count(store) / 2); }

/* ---- operations ---- */

static int pose_valid(const sepax_pose *p, int *unsure) {
    float v[4] = {p->position.x, p->position.y, p->rotation.c, p->rotation.s};
    for (int i = 0; i < 4; i++)
        if (!isfinite(v[i])) return 0;
    if (fabsf(v[0]) > SEPAX_COORD_LIMIT || fabsf(v[1]) > SEPAX_COORD_LIMIT) return 0;
    double off = fabs((double)v[2] * v[2] + (double)v[3] * v[3] - 1.0), tol = 1.0 / 65536.0;
    if (off > 0.99 * tol && off < 1.01 * tol) *unsure = 1; /* at the documented tolerance */
    return off <= tol;
}

static void op_set_poses(uint32_t first, const sepax_pose *poses, size_t n) {
    uint32_t count = sepax_shapes_count(store);
    static sepax_pose before[MAXSHAPES];
    for (uint32_t i = 0; i < count; i++)
        sepax_shapes_get_pose(store, sepax_shapes_id(store, i), &before[i]);
    int valid = first <= count && n <= count - first, unsure = 0;
    for (size_t i = 0; i < n && valid; i++) valid = pose_valid(&poses[i], &unsure);
    sepax_status st = sepax_shapes_set_poses(store, first, n, poses);
    if (!unsure && (st == SEPAX_OK) != valid) fuzz_fail("set_poses verdict");
    for (uint32_t i = 0; i < count; i++) {
        sepax_pose now;
        sepax_shapes_get_pose(store, sepax_shapes_id(store, i), &now);
        const sepax_pose *want =
            st == SEPAX_OK && i >= first && i - first < n ? &poses[i - first] : &before[i];
        if (memcmp(&now, want, sizeof now) != 0)
            fuzz_fail(st == SEPAX_OK ? "pose not stored" : "refused batch changed a pose");
    }
    if (st == SEPAX_OK && n) moved_poses = 1;
    if ((first ^ (uint32_t)n) & 1) update_range_and_check(first, n);
}

static void op_add(cursor *c) {
    int k = next_byte(c);
    if (k < 0 || sepax_shapes_count(store) >= MAXSHAPES) return;
    uint32_t before = sepax_shapes_count(store), id = 0xdeadbeef;
    sepax_status st;
    int kind;
    switch (k % 5) {
    case 0: {
        sepax_vec2 c0 = {next_small(c), next_small(c)};
        st = sepax_shapes_add_circle(store, c0, next_small(c), &id);
        kind = SEPAX_KIND_CIRCLE;
        break;
    }
    case 1: {
        sepax_vec2 p0 = {next_small(c), next_small(c)}, p1 = {next_small(c), next_small(c)};
        st = sepax_shapes_add_capsule(store, p0, p1, next_small(c), &id);
        kind = SEPAX_KIND_CAPSULE;
        break;
    }
    case 2: {
        float hw = next_small(c);
        st = sepax_shapes_add_box(store, hw, next_small(c), &id);
        kind = SEPAX_KIND_POLYGON;
        break;
    }
    default: {
        int n = 3 + (k / 5) % 6;
        float radius = k % 5 == 4 ? next_small(c) : 0.0f;
        sepax_vec2 pts[SEPAX_MAX_VERTS];
        for (int i = 0; i < n; i++) pts[i] = (sepax_vec2){next_small(c), next_small(c)};
        st = k % 5 == 4 ? sepax_shapes_add_rounded(store, pts, n, radius, &id)
                        : sepax_shapes_add_polygon(store, pts, n, &id);
        kind = SEPAX_KIND_POLYGON;
        break;
    }
    }
    if (st != SEPAX_OK) {
        if (id != 0xdeadbeef || sepax_shapes_count(store) != before)
            fuzz_fail("refused add changed");
        return;
    }
    changed_shapes = 1;
    if (sepax_shapes_count(store) != before + 1 || id != sepax_shapes_id(store, before) ||
        (id & SEPAX_ID_INDEX_MASK) != before)
        fuzz_fail("add id");
    /* the caller's data: 0 when added, then one of its own that moves and reorders must
     * carry with the shape (copy_shape) */
    uint64_t user = 1;
    if (sepax_shapes_get_user(store, &id, 1, &user) != SEPAX_OK || user != 0)
        fuzz_fail("a new shape's data not 0");
    user = (uint64_t)id * 0x9e3779b97f4a7c15ull + before;
    if (sepax_shapes_set_user(store, before, 1, &user) != SEPAX_OK) fuzz_fail("set_user refused");
    sepax_local_shape l;
    sepax_pose p;
    if (sepax_shapes_local(store, id, &l) != SEPAX_OK || l.kind != kind) fuzz_fail("added kind");
    if (sepax_shapes_get_pose(store, id, &p) != SEPAX_OK || p.position.x != 0.0f ||
        p.position.y != 0.0f || p.rotation.c != 1.0f || p.rotation.s != 0.0f)
        fuzz_fail("added pose not the identity");
    fuzz_same_world(store, id); /* world data from its identity pose, already */
    check_queries(id, 0.0f, sepax_get_backend());
}

static void op_remove(int byte) {
    uint32_t probe;
    if (!fuzz_remove(store, byte, &dead, &probe)) return;
    changed_shapes = 1;
    /* the world data moved with the shapes: queries still agree */
    if (probe != SEPAX_NO_ID) check_queries(probe, 0.5f, sepax_get_backend());
}

/* What a shape shows through the API, copied (a view points into the store). */
typedef struct shape_copy {
    sepax_local_shape local;
    sepax_pose pose;
    sepax_aabb box;
    sepax_filter filter;
    uint64_t user;
    int kind, count, planes;
    float radius, world[5][SEPAX_MAX_VERTS];
} shape_copy;

static void copy_shape(uint32_t id, shape_copy *o) {
    memset(o, 0, sizeof *o);
    sepax_shape_view v;
    if (sepax_shapes_local(store, id, &o->local) != SEPAX_OK ||
        sepax_shapes_get_pose(store, id, &o->pose) != SEPAX_OK ||
        sepax_shapes_aabb(store, id, &o->box) != SEPAX_OK ||
        sepax_shapes_get_filter(store, id, &o->filter) != SEPAX_OK ||
        sepax_shapes_get_user(store, &id, 1, &o->user) != SEPAX_OK ||
        sepax_shapes_view(store, id, &v) != SEPAX_OK)
        fuzz_fail("a live id refused");
    o->kind = v.kind;
    o->count = v.count;
    o->planes = v.planes;
    o->radius = v.radius;
    const float *rows[5] = {v.x, v.y, v.nx, v.ny, v.c};
    for (int r = 0; r < 5; r++) memcpy(o->world[r], rows[r], sizeof o->world[r]);
}

/* A set removal from byte b: 1 + b % 8 entries, each an index from b (one past the end now
 * and then), the same one twice when b says so, or a dead id. The verdict is the first bad
 * entry's (past the end, dead, or a repeat); a refusal changes and writes nothing; else the
 * count drops by the set's size, each move takes a staying shape from at or past the new
 * count into a removed one's index below it, with all its data, and the old ids are dead. */
static void op_remove_many(int b) {
    uint32_t count = sepax_shapes_count(store), n = 1 + (uint32_t)b % 8, ids[8];
    sepax_status want = SEPAX_OK;
    static shape_copy before[MAXSHAPES];
    uint32_t before_id[MAXSHAPES];
    for (uint32_t i = 0; i < count; i++) {
        before_id[i] = sepax_shapes_id(store, i);
        copy_shape(before_id[i], &before[i]);
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t span = count + (b & 1 || !count); /* one past the end now and then */
        uint32_t idx = ((uint32_t)b * 7u + k * 13u) % span;
        ids[k] = idx < count ? sepax_shapes_id(store, idx) : idx;
        if (k == 3 && (b & 0x40) && dead.n) ids[k] = dead.id[(uint32_t)b % dead.n];
        if (k == 5 && (b & 0x80)) ids[k] = ids[1];
        /* the id's own verdict, BAD_ID or STALE_ID, as every id-taking call gives it */
        sepax_status st = sepax_shapes_view(store, ids[k], &(sepax_shape_view){0});
        for (uint32_t j = 0; j < k && st == SEPAX_OK; j++)
            if (ids[j] == ids[k]) st = SEPAX_ERR_DUPLICATE;
        if (want == SEPAX_OK) want = st;
    }
    sepax_move mv[8];
    uint32_t moves = 0xabababu;
    memset(mv, 0xab, sizeof mv);
    sepax_status st = sepax_shapes_remove_many(store, ids, n, mv, &moves);
    if (st != want) fuzz_fail("remove_many verdict");
    if (st != SEPAX_OK) {
        if (moves != 0xabababu || mv[0].from != 0xababababu) fuzz_fail("a refused set wrote");
        if (sepax_shapes_count(store) != count) fuzz_fail("a refused set changed the count");
        for (uint32_t i = 0; i < count; i++) {
            shape_copy now;
            copy_shape(sepax_shapes_id(store, i), &now);
            if (memcmp(&now, &before[i], sizeof now) != 0) fuzz_fail("a refused set changed");
        }
        return;
    }
    changed_shapes = 1;
    uint32_t keep = count - n;
    if (sepax_shapes_count(store) != keep) fuzz_fail("count after remove_many");
    for (uint32_t j = 0; j < moves; j++) {
        uint32_t from = mv[j].from & SEPAX_ID_INDEX_MASK, to = mv[j].to & SEPAX_ID_INDEX_MASK;
        if (from < keep || from >= count || to >= keep) fuzz_fail("remove_many move");
        shape_copy now;
        copy_shape(mv[j].to, &now);
        if (memcmp(&now, &before[from], sizeof now) != 0) fuzz_fail("a moved shape changed");
        if (sepax_shapes_view(store, mv[j].from, &(sepax_shape_view){0}) != SEPAX_ERR_STALE_ID)
            fuzz_fail("a moved shape's old id still works");
        if (dead.n < dead.cap) dead.id[dead.n++] = mv[j].from;
    }
    /* every other shape stays where it was, as it was */
    for (uint32_t i = 0; i < count; i++) {
        uint32_t id = before_id[i];
        int gone = 0;
        for (uint32_t k = 0; k < n; k++) gone |= ids[k] == id;
        for (uint32_t j = 0; j < moves; j++) gone |= mv[j].from == id;
        if (gone) continue;
        shape_copy now;
        copy_shape(id, &now); /* fails on a refused id */
        if (memcmp(&now, &before[i], sizeof now) != 0) fuzz_fail("a staying shape changed");
    }
    for (uint32_t k = 0; k < n; k++) {
        if (sepax_shapes_view(store, ids[k], &(sepax_shape_view){0}) != SEPAX_ERR_STALE_ID)
            fuzz_fail("a removed id still works");
        if (dead.n < dead.cap) dead.id[dead.n++] = ids[k];
    }
    if (keep) check_queries(middle(), 0.5f, sepax_get_backend());
}

static void op_reorder(int op, int b) {
    static uint32_t order[MAXSHAPES + 1], ids[MAXSHAPES + 1], old_id[MAXSHAPES];
    static shape_copy before[MAXSHAPES], now;
    uint32_t n = sepax_shapes_count(store), count = n, x = (uint32_t)b * 2654435761u + 1u;
    int mode = (op >> 3) & 3;
    for (uint32_t i = 0; i < n; i++) order[i] = mode == 1 ? n - 1 - i : i;
    if (mode == 0 || mode == 2)
        for (uint32_t i = n; i > 1; i--) { /* xorshift32 Fisher-Yates */
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            uint32_t j = x % i, t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
    sepax_status want = SEPAX_OK;
    if (mode == 2 && n > 1) {
        switch (b & 3) {
        case 0:
            order[(uint32_t)b % n] = n + (uint32_t)(b >> 2);
            want = SEPAX_ERR_BAD_ID;
            break;
        case 1:
            order[(uint32_t)b % n] = order[((uint32_t)b + 1) % n];
            want = SEPAX_ERR_DUPLICATE;
            break;
        default:
            count = (b & 3) == 2 ? n + 1 : n - 1;
            want = SEPAX_ERR_COUNT;
            break;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        old_id[i] = sepax_shapes_id(store, i);
        copy_shape(old_id[i], &before[i]);
    }
    memset(ids, 0xab, sizeof ids);
    sepax_status st = sepax_shapes_reorder(store, order, count, ids);
    if (st != want) fuzz_fail("reorder verdict");
    if (st != SEPAX_OK) {
        for (uint32_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
            if (ids[i] != 0xababababu) fuzz_fail("a refused reorder wrote new ids");
        for (uint32_t i = 0; i < n; i++) {
            if (sepax_shapes_id(store, i) != old_id[i])
                fuzz_fail("a refused reorder changed an id");
            copy_shape(old_id[i], &now);
            if (memcmp(&now, &before[i], sizeof now) != 0) fuzz_fail("a refused reorder moved");
        }
        return;
    }
    for (uint32_t j = 0; j < n; j++) {
        uint32_t i = order[j], id = ids[i];
        if ((id & SEPAX_ID_INDEX_MASK) != j || sepax_shapes_id(store, j) != id)
            fuzz_fail("reorder's new id");
        copy_shape(id, &now);
        if (memcmp(&now, &before[i], sizeof now) != 0) fuzz_fail("a reordered shape changed");
        if (i == j && id != old_id[i]) fuzz_fail("a shape that stayed got a new id");
        sepax_shape_view v;
        if (i != j && sepax_shapes_view(store, old_id[j], &v) != SEPAX_ERR_STALE_ID)
            fuzz_fail("the old id of a moved shape still works");
        if (i != j) changed_shapes = 1;
    }
    if (n) check_queries(middle(), 0.5f, sepax_get_backend());
}

static const float margins[4] = {0.0f, 0.5f, -0.25f, 2.0f};

static void run_ops(cursor *c, int raw, int angles, int reorders) {
    for (int ops = 0; ops < MAXOPS; ops++) {
        int op = next_byte(c);
        if (op < 0) break;
        sepax_set_backend(avail[ops % navail]); /* adds and removals check on each in turn */
        switch (op & 3) {
        case 0: {
            int b = next_byte(c);
            if (b < 0) return;
            uint32_t first = (uint32_t)b % (sepax_shapes_count(store) + 2);
            sepax_pose poses[16];
            size_t n = 0;
            while (n < (size_t)((op >> 2) & 15) && read_pose(c, raw, angles, &poses[n])) n++;
            op_set_poses(first, poses, n);
            break;
        }
        case 1:
            sepax_set_backend(avail[((op >> 2) & 7) % navail]);
            update_and_check();
            check_queries(middle(), margins[(op >> 5) & 3], sepax_get_backend());
            break;
        case 2: op_add(c); break;
        default: {
            int b = next_byte(c);
            if (b < 0) return;
            if (reorders && (op >> 2) & 1)
                op_reorder(op, b);
            else if ((op >> 3) & 1)
                op_remove_many(b);
            else
                op_remove(b);
            break;
        }
        }
    }
}

/* The input's bytes from byte 2 on as raw float angles (NaN, Inf, denormals and angles past
 * SEPAX_ROT_LIMIT among them): sepax_rot_many on every backend gives sepax_rot's bits for
 * each, and writes nothing past n. */
static void check_rot_many(const uint8_t *p, size_t len) {
    enum { MAXANGLES = 67 };
    float angle[MAXANGLES];
    sepax_rotation got[MAXANGLES + 1];
    size_t n = len / 4 < MAXANGLES ? len / 4 : MAXANGLES;
    memcpy(angle, p, n * 4);
    for (int b = 0; b < navail; b++) {
        sepax_set_backend(avail[b]);
        memset(got, 0x5a, sizeof got);
        if (sepax_rot_many(angle, n, got) != SEPAX_OK) fuzz_fail("rot_many refused its angles");
        for (size_t i = 0; i < n; i++) {
            sepax_rotation want = sepax_rot(angle[i]);
            if (memcmp(&got[i], &want, sizeof want) != 0) fuzz_fail("rot_many differs from rot");
        }
        uint32_t past;
        memcpy(&past, &got[n].c, sizeof past);
        if (past != 0x5a5a5a5au) fuzz_fail("rot_many wrote past n");
    }
    sepax_set_backend(SEPAX_BACKEND_AUTO);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    restore_store();
    if (size < 2) return 0;
    int raw = data[1] & 1, angles = data[1] & 2;
    cursor c = {data + 2, size - 2};
    if (data[1] & 4) {
        run_ops(&c, raw, angles, data[1] & 8);
    } else {
        uint32_t first = data[0] % (SHAPES + 2);
        sepax_pose poses[SHAPES + 2];
        size_t n = 0;
        while (n < SHAPES + 2 && read_pose(&c, raw, angles, &poses[n])) n++;
        op_set_poses(first, poses, n);
    }
    for (int b = 0; b < navail; b++) {
        sepax_set_backend(avail[b]);
        update_and_check();
    }
    check_queries(middle(), data[1] & 4 ? margins[data[0] & 3] : 0.0f, SEPAX_BACKEND_AUTO);
    check_rot_many(data + 2, size - 2);
    return 0;
}
