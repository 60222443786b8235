/* Removing shapes: the last shape moves into the hole and keeps its data, old
 * ids are refused (nothing written), and a long random churn mirrored in a
 * plain model never loses, swaps or corrupts a shape. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "sepax_ref.h"
#include "workload.h"

#define MARK 0x5a

static int untouched(const void *buf, size_t n) {
    const uint8_t *p = buf;
    for (size_t i = 0; i < n; i++)
        if (p[i] != MARK) return 0;
    return 1;
}

static uint32_t gen_of(uint32_t id) { return id >> SEPAX_ID_INDEX_BITS; }
static uint32_t index_of(uint32_t id) { return id & SEPAX_ID_INDEX_MASK; }

typedef wl_view_copy world_copy;

static world_copy copy_view(const sepax_shapes *s, uint32_t id) {
    world_copy w;
    cr_assert(wl_copy_view(s, id, &w) == SEPAX_OK, "view of %#x", id);
    return w;
}

/* Every id-taking call gives `want` for `id` and writes nothing. */
static void expect_refused(const sepax_shapes *s, uint32_t id, sepax_status want) {
    uint32_t live = sepax_shapes_id(s, 0);
    sepax_pair pairs[2] = {{live, live}, {live, id}};
    uint8_t hit[2];
    sepax_hit h[2];
    sepax_shape_view v;
    sepax_local_shape l;
    sepax_aabb box;
    sepax_pose pose;
    sepax_query_options opt = {.margin = 0.5f};
    memset(hit, MARK, sizeof hit);
    memset(h, MARK, sizeof h);
    memset(&v, MARK, sizeof v);
    memset(&l, MARK, sizeof l);
    memset(&box, MARK, sizeof box);
    memset(&pose, MARK, sizeof pose);
    cr_expect(sepax_overlap(s, pairs, 2, hit) == want, "overlap with %#x", id);
    cr_expect(sepax_overlap_opt(s, pairs, 2, &opt, hit) == want, "overlap_opt with %#x", id);
    cr_expect(sepax_collide(s, pairs, 2, h) == want, "collide with %#x", id);
    cr_expect(sepax_ref_collide(s, pairs, 2, h) == want, "ref_collide with %#x", id);
    cr_expect(sepax_overlap_one(s, id, 0, 1, hit) == want, "overlap_one probe %#x", id);
    cr_expect(sepax_shapes_view(s, id, &v) == want, "view of %#x", id);
    cr_expect(sepax_shapes_local(s, id, &l) == want, "local of %#x", id);
    cr_expect(sepax_shapes_aabb(s, id, &box) == want, "aabb of %#x", id);
    cr_expect(sepax_shapes_get_pose(s, id, &pose) == want, "pose of %#x", id);
    cr_expect(untouched(hit, sizeof hit) && untouched(h, sizeof h) && untouched(&v, sizeof v) &&
                  untouched(&l, sizeof l) && untouched(&box, sizeof box) &&
                  untouched(&pose, sizeof pose),
              "a refusal for %#x wrote output", id);
}

Test(remove, last_shape_moves_into_the_hole) {
    sepax_shapes *s = sepax_shapes_create(8);
    cr_assert(s);
    uint32_t ids[5];
    sepax_vec2 tri[3] = {{6, 0}, {8, 0}, {7, 2}};
    cr_assert(sepax_shapes_add_circle(s, (sepax_vec2){0, 0}, 1, &ids[0]) == SEPAX_OK);
    cr_assert(sepax_shapes_add_capsule(s, (sepax_vec2){1, 0}, (sepax_vec2){3, 0}, 0.5f, &ids[1]) ==
              SEPAX_OK);
    cr_assert(sepax_shapes_add_box(s, 1, 2, &ids[2]) == SEPAX_OK);
    cr_assert(sepax_shapes_add_polygon(s, tri, 3, &ids[3]) == SEPAX_OK);
    cr_assert(sepax_shapes_add_rounded(s, tri, 3, 0.25f, &ids[4]) == SEPAX_OK);
    for (uint32_t i = 0; i < 5; i++)
        cr_assert(ids[i] == i, "a store that never removed: id == index");
    /* pose the last one, so the move must carry the pose as well as the shape */
    sepax_pose p = {{10, -3}, sepax_rot(0.7f)};
    cr_assert(sepax_shapes_set_poses(s, 4, 1, &p) == SEPAX_OK);
    cr_assert(sepax_shapes_update(s) == SEPAX_OK);
    /* and give it a filter of its own, which must move too */
    sepax_filter f = {0x40u, 0x0f0fu}, g;
    cr_assert(sepax_shapes_set_filters(s, 4, 1, &f) == SEPAX_OK);
    world_copy before = copy_view(s, ids[4]);
    sepax_aabb box_before, box_after;
    sepax_local_shape local_before, local_after;
    cr_assert(sepax_shapes_aabb(s, ids[4], &box_before) == SEPAX_OK);
    cr_assert(sepax_shapes_local(s, ids[4], &local_before) == SEPAX_OK);

    sepax_move mv;
    cr_assert(sepax_shapes_remove(s, ids[1], &mv) == SEPAX_OK);
    cr_expect(mv.from == ids[4], "moved.from %#x, want the last shape's old id %#x", mv.from,
              ids[4]);
    cr_expect(index_of(mv.to) == 1 && gen_of(mv.to) != gen_of(ids[1]), "moved.to %#x", mv.to);
    cr_expect(sepax_shapes_count(s) == 4);
    cr_expect(sepax_shapes_id(s, 1) == mv.to && sepax_shapes_id(s, 4) == SEPAX_NO_ID);

    /* the same shape, bit for bit, at its new id, and it still answers where it is */
    world_copy after = copy_view(s, mv.to);
    cr_expect(memcmp(&before, &after, sizeof before) == 0, "the moved shape's world data changed");
    cr_assert(sepax_shapes_aabb(s, mv.to, &box_after) == SEPAX_OK);
    cr_assert(sepax_shapes_local(s, mv.to, &local_after) == SEPAX_OK);
    cr_expect(memcmp(&box_before, &box_after, sizeof box_before) == 0);
    cr_expect(memcmp(&local_before, &local_after, sizeof local_before) == 0);
    sepax_pose q;
    cr_assert(sepax_shapes_get_pose(s, mv.to, &q) == SEPAX_OK);
    cr_expect(memcmp(&p, &q, sizeof p) == 0, "the pose moved with the shape");
    cr_assert(sepax_shapes_get_filter(s, mv.to, &g) == SEPAX_OK);
    cr_expect(g.category == f.category && g.mask == f.mask, "the filter moved with the shape");
    /* and an update recomputes it from the moved pose to the same place */
    cr_assert(sepax_shapes_update(s) == SEPAX_OK);
    after = copy_view(s, mv.to);
    cr_expect(memcmp(&before, &after, sizeof before) == 0, "update after the move changed it");

    /* the removed id and the moved shape's old id are stale; past count is a bad id */
    expect_refused(s, ids[1], SEPAX_ERR_STALE_ID);
    expect_refused(s, mv.from, SEPAX_ERR_STALE_ID);
    expect_refused(s, 5, SEPAX_ERR_BAD_ID);
    /* index 4's current generation, but no shape there */
    expect_refused(s, 4u | gen_of(mv.to) << SEPAX_ID_INDEX_BITS, SEPAX_ERR_BAD_ID);
    sepax_pair live = {ids[0], mv.to};
    sepax_hit h;
    cr_expect(sepax_collide(s, &live, 1, &h) == SEPAX_OK);

    sepax_move keep;
    memset(&keep, MARK, sizeof keep);
    cr_expect(sepax_shapes_remove(s, ids[1], &keep) == SEPAX_ERR_STALE_ID, "removed twice");
    cr_expect(sepax_shapes_remove(s, mv.from, &keep) == SEPAX_ERR_STALE_ID);
    cr_expect(sepax_shapes_remove(s, 9, &keep) == SEPAX_ERR_BAD_ID);
    cr_expect(sepax_shapes_remove(NULL, ids[0], &keep) == SEPAX_ERR_NULL);
    cr_expect(untouched(&keep, sizeof keep) && sepax_shapes_count(s) == 4,
              "a refused removal changed something");

    /* the last shape itself: nothing moves */
    uint32_t last = sepax_shapes_id(s, 3);
    cr_assert(sepax_shapes_remove(s, last, &mv) == SEPAX_OK);
    cr_expect(mv.from == SEPAX_NO_ID, "removing the last shape moved %#x", mv.from);
    cr_expect(sepax_shapes_count(s) == 3);
    cr_expect(sepax_shapes_remove(s, last, NULL) == SEPAX_ERR_STALE_ID);
    /* the others are untouched: ids 0 and 2 never moved */
    cr_expect(sepax_shapes_id(s, 0) == ids[0] && sepax_shapes_id(s, 2) == ids[2]);
    for (uint32_t i = 0; i < sepax_shapes_count(s); i++)
        cr_expect(index_of(sepax_shapes_id(s, i)) == i);
    sepax_shapes_destroy(s);
}

/* One random shape of any kind near (x, y); a box is centred on the origin
 * and needs its pose to get there (*posed). */
static sepax_status add_random(sepax_shapes *s, wl_rng *r, float x, float y, uint32_t *id,
                               int *posed) {
    float a = 0.3f + wl_unit(r), b = 0.3f + wl_unit(r);
    int pick = wl_range(r, 0, 4);
    *posed = pick == 2;
    switch (pick) {
    case 0: return sepax_shapes_add_circle(s, (sepax_vec2){x, y}, a, id);
    case 1:
        return sepax_shapes_add_capsule(s, (sepax_vec2){x - a, y}, (sepax_vec2){x, y + b}, 0.3f,
                                        id);
    case 2: return sepax_shapes_add_box(s, a, b, id);
    default: {
        float c = a * wl_unit(r), d = a * wl_unit(r); /* a trapezoid: always convex */
        sepax_vec2 p[4] = {{x - a, y - b}, {x + a, y - b}, {x + c, y + b}, {x - d, y + b}};
        return wl_range(r, 0, 1) ? sepax_shapes_add_polygon(s, p, 4, id)
                                 : sepax_shapes_add_rounded(s, p, 4, 0.5f * b, id);
    }
    }
}

#define START 1000
#define OPS 20000
#define KEYS (START + OPS)
#define CHECK_EVERY 1000
#define CHECK_PAIRS 5000

/* The caller's side of the contract: keys it chose, and the ids sepax gave. */
typedef struct model {
    uint32_t id[KEYS];             /* current id of each key, SEPAX_NO_ID once removed */
    uint32_t key_at[KEYS];         /* key of the shape at each index */
    sepax_local_shape local[KEYS]; /* what was added for each key */
    sepax_pose pose[KEYS];         /* the pose set for it */
    uint32_t count, keys;
} model;

/* The caller's data the model gives each key: every bit of it in play. */
static uint64_t user_of(uint32_t key) { return (uint64_t)key * 0x9e3779b97f4a7c15ull + 1u; }

static void add_key(sepax_shapes *s, model *m, wl_rng *r) {
    uint32_t key = m->keys++, id;
    int box;
    float x = 64.0f * wl_unit(r), y = 64.0f * wl_unit(r);
    cr_assert(add_random(s, r, x, y, &id, &box) == SEPAX_OK);
    cr_assert(index_of(id) == m->count, "new shapes go at the end");
    cr_assert(sepax_shapes_local(s, id, &m->local[key]) == SEPAX_OK);
    /* a box goes where its pose puts it; the others get a small nudge and turn */
    sepax_pose p = {{box ? x : wl_unit(r) - 0.5f, box ? y : wl_unit(r) - 0.5f},
                    sepax_rot(box ? 6.2831853f * wl_unit(r) : 0.02f * (wl_unit(r) - 0.5f))};
    cr_assert(sepax_shapes_set_poses(s, index_of(id), 1, &p) == SEPAX_OK);
    uint64_t u = user_of(key);
    cr_assert(sepax_shapes_set_user(s, index_of(id), 1, &u) == SEPAX_OK);
    m->pose[key] = p;
    m->id[key] = id;
    m->key_at[m->count++] = key;
}

static void remove_key(sepax_shapes *s, model *m, uint32_t key) {
    uint32_t id = m->id[key];
    sepax_move mv;
    cr_assert(sepax_shapes_remove(s, id, &mv) == SEPAX_OK, "remove key %u id %#x", key, id);
    uint32_t last = --m->count;
    m->id[key] = SEPAX_NO_ID;
    if (index_of(id) != last) {
        uint32_t moved = m->key_at[last];
        cr_assert(mv.from == m->id[moved], "moved.from %#x, the model says key %u had %#x", mv.from,
                  moved, m->id[moved]);
        cr_assert(index_of(mv.to) == index_of(id));
        m->id[moved] = mv.to;
        m->key_at[index_of(id)] = moved;
        cr_assert(sepax_shapes_view(s, mv.from, &(sepax_shape_view){0}) == SEPAX_ERR_STALE_ID);
    } else {
        cr_assert(mv.from == SEPAX_NO_ID);
    }
    cr_assert(sepax_shapes_view(s, id, &(sepax_shape_view){0}) == SEPAX_ERR_STALE_ID,
              "removed id %#x still answers", id);
}

/* Every live key still has its own shape and pose at the id the model holds,
 * and the kernels agree with the reference on them bit for bit. */
static void check_model(sepax_shapes *s, const model *m, wl_rng *r, size_t *hits) {
    cr_assert(sepax_shapes_count(s) == m->count);
    cr_assert(sepax_shapes_update(s) == SEPAX_OK);
    for (uint32_t i = 0; i < m->count; i++) {
        uint32_t key = m->key_at[i], id = m->id[key];
        cr_assert(sepax_shapes_id(s, i) == id, "index %u: id %#x, model %#x", i,
                  sepax_shapes_id(s, i), id);
        sepax_local_shape l;
        sepax_pose p;
        cr_assert(sepax_shapes_local(s, id, &l) == SEPAX_OK);
        cr_assert(sepax_shapes_get_pose(s, id, &p) == SEPAX_OK);
        cr_assert(memcmp(&l, &m->local[key], sizeof l) == 0, "key %u (id %#x): shape changed", key,
                  id);
        cr_assert(memcmp(&p, &m->pose[key], sizeof p) == 0, "key %u (id %#x): pose changed", key,
                  id);
    }
    cr_assert(sepax_shapes_id(s, m->count) == SEPAX_NO_ID);
    /* each shape's data moved with it */
    uint32_t *ids = malloc((m->count + 1) * sizeof *ids);
    uint64_t *users = malloc((m->count + 1) * sizeof *users);
    cr_assert(ids && users);
    for (uint32_t i = 0; i < m->count; i++) ids[i] = m->id[m->key_at[i]];
    cr_assert(sepax_shapes_get_user(s, ids, m->count, users) == SEPAX_OK);
    for (uint32_t i = 0; i < m->count; i++)
        cr_assert(users[i] == user_of(m->key_at[i]), "index %u: user %#llx, model %#llx", i,
                  (unsigned long long)users[i], (unsigned long long)user_of(m->key_at[i]));
    free(ids);
    free(users);
    /* half random pairs, half pairs whose bounds touch, so both answers occur */
    sepax_aabb *box = malloc(m->count * sizeof *box);
    sepax_pair *pairs = malloc(CHECK_PAIRS * sizeof *pairs);
    sepax_hit *h = malloc(CHECK_PAIRS * sizeof *h), *want = malloc(CHECK_PAIRS * sizeof *want);
    uint8_t *hit = malloc(CHECK_PAIRS), *hit_want = malloc(CHECK_PAIRS);
    cr_assert(box && pairs && h && want && hit && hit_want);
    for (uint32_t i = 0; i < m->count; i++) sepax_shapes_aabb(s, sepax_shapes_id(s, i), &box[i]);
    for (size_t k = 0; k < CHECK_PAIRS; k++) {
        uint32_t a = (uint32_t)wl_range(r, 0, (int)m->count - 1);
        uint32_t b = (uint32_t)wl_range(r, 0, (int)m->count - 1);
        for (uint32_t t = 0; k % 2 && t < m->count; t++, b = (b + 1) % m->count)
            if (b != a && box[b].lower.x <= box[a].upper.x && box[a].lower.x <= box[b].upper.x &&
                box[b].lower.y <= box[a].upper.y && box[a].lower.y <= box[b].upper.y)
                break;
        pairs[k] = (sepax_pair){m->id[m->key_at[a]], m->id[m->key_at[b]]};
    }
    cr_assert(sepax_collide(s, pairs, CHECK_PAIRS, h) == SEPAX_OK);
    cr_assert(sepax_ref_collide(s, pairs, CHECK_PAIRS, want) == SEPAX_OK);
    cr_assert(sepax_overlap(s, pairs, CHECK_PAIRS, hit) == SEPAX_OK);
    cr_assert(sepax_ref_overlap(s, pairs, CHECK_PAIRS, hit_want) == SEPAX_OK);
    for (size_t k = 0; k < CHECK_PAIRS; k++) {
        cr_assert(memcmp(&h[k], &want[k], sizeof h[k]) == 0 && hit[k] == hit_want[k],
                  "pair %#x, %#x: kernel (%u, %a, %a, %a), reference (%u, %a, %a, %a)", pairs[k].a,
                  pairs[k].b, h[k].hit, h[k].normal.x, h[k].normal.y, h[k].depth, want[k].hit,
                  want[k].normal.x, want[k].normal.y, want[k].depth);
        *hits += want[k].hit;
    }
    free(box);
    free(pairs);
    free(h);
    free(want);
    free(hit);
    free(hit_want);
}

Test(remove, random_churn_matches_a_plain_model, .timeout = 600) {
    static model m; /* large: not on the stack */
    memset(&m, 0, sizeof m);
    sepax_shapes *s = sepax_shapes_create(START);
    cr_assert(s);
    wl_rng r = {0xc4u};
    for (int i = 0; i < START; i++) add_key(s, &m, &r);
    size_t adds = 0, removes = 0, hits = 0, checks = 0;
    for (int op = 1; op <= OPS; op++) {
        /* drift between 200 and 1800 shapes, crossing block boundaries both ways */
        int remove = m.count > 200 && (m.count >= 1800 || wl_range(&r, 0, 99) < 50);
        if (remove) {
            remove_key(s, &m, m.key_at[wl_range(&r, 0, (int)m.count - 1)]);
            removes++;
        } else {
            add_key(s, &m, &r);
            adds++;
        }
        if (op % CHECK_EVERY == 0) {
            check_model(s, &m, &r, &hits);
            checks++;
        }
    }
    cr_log_info("churn: %zu adds, %zu removes, %zu checks of %d pairs, %zu hits; %u shapes left",
                adds, removes, checks, CHECK_PAIRS, hits, m.count);
    cr_expect(removes > 5000 && adds > 5000);
    cr_expect(hits > checks * CHECK_PAIRS / 10, "too few hits (%zu) to mean much", hits);
    /* empty it completely, then it works again from nothing */
    while (m.count) remove_key(s, &m, m.key_at[wl_range(&r, 0, (int)m.count - 1)]);
    cr_expect(sepax_shapes_count(s) == 0 && sepax_shapes_id(s, 0) == SEPAX_NO_ID);
    for (int i = 0; i < 50; i++) add_key(s, &m, &r);
    check_model(s, &m, &r, &hits);
    sepax_shapes_destroy(s);
}

/* The generation is 8 bits: an id kept across exactly 256 replacements at its
 * index names the new shape there (the documented ABA limit); across 1..255
 * it is refused. */
Test(remove, generation_wraps_after_256_replacements) {
    sepax_shapes *s = sepax_shapes_create(4);
    cr_assert(s);
    uint32_t old, id;
    cr_assert(sepax_shapes_add_circle(s, (sepax_vec2){0, 0}, 1, &old) == SEPAX_OK);
    cr_assert(sepax_shapes_add_circle(s, (sepax_vec2){5, 0}, 2, &id) == SEPAX_OK);
    for (int n = 1; n <= 256; n++) {
        /* remove whatever is at index 0 (the other shape moves in), then refill */
        sepax_move mv;
        cr_assert(sepax_shapes_remove(s, sepax_shapes_id(s, 0), &mv) == SEPAX_OK);
        cr_assert(index_of(mv.to) == 0 && gen_of(mv.to) == (uint32_t)n % 256, "round %d", n);
        cr_assert(sepax_shapes_add_circle(s, (sepax_vec2){0, 0}, 1.0f + (float)n, &id) == SEPAX_OK);
        sepax_shape_view v;
        sepax_status st = sepax_shapes_view(s, old, &v);
        if (n < 256)
            cr_assert(st == SEPAX_ERR_STALE_ID, "after %d replacements: %s", n,
                      sepax_status_str(st));
        else
            cr_expect(st == SEPAX_OK && v.radius != 1.0f,
                      "after 256 the old id is live again, naming another shape: %s, radius %g",
                      sepax_status_str(st), v.radius);
    }
    sepax_shapes_destroy(s);
}

/* Every probe against every shape, and rays across the field, through the kernels that read
 * the transposed blocks (overlap_one, raycast_range), against the reference. */
static size_t check_blocks(const sepax_shapes *s, const char *when) {
    uint32_t n = sepax_shapes_count(s);
    uint8_t hit[64], want[64];
    size_t hits = 0;
    cr_assert(n <= 64);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t probe = sepax_shapes_id(s, i);
        cr_assert(sepax_overlap_one(s, probe, 0, n, hit) == SEPAX_OK);
        cr_assert(sepax_ref_overlap_one(s, probe, 0, n, want) == SEPAX_OK);
        for (uint32_t k = 0; k < n; k++) {
            cr_assert(hit[k] == want[k], "%s: overlap_one %u with %u: %u, reference %u", when, i, k,
                      hit[k], want[k]);
            hits += want[k];
        }
    }
    sepax_ray_hit rh[64], rw[64];
    for (int j = 0; j < 24; j++) {
        sepax_ray ray = {{-2.0f, -2.0f + 0.5f * (float)j}, {16.0f, 3.0f - 0.25f * (float)j}, 1.0f};
        cr_assert(sepax_raycast_range(s, &ray, 0, n, rh) == SEPAX_OK);
        cr_assert(sepax_ref_raycast_range(s, &ray, 0, n, rw) == SEPAX_OK);
        for (uint32_t k = 0; k < n; k++)
            cr_assert(memcmp(&rh[k], &rw[k], sizeof rh[k]) == 0, "%s: ray %d, shape %u", when, j,
                      k);
    }
    return hits;
}

/* An update writes only the block rows that queries read (the most vertices and planes in
 * the block): a block that gains a shape with more rows, by an add or by a removal moving
 * the last shape in, must show the last update's values in every row, with no update in
 * between. */
/* New poses for every shape, turned by `turn`, then an update. */
static void move_all(sepax_shapes *s, float dx, float turn) {
    sepax_pose pose[64];
    uint32_t n = sepax_shapes_count(s);
    for (uint32_t i = 0; i < n; i++)
        pose[i] = (sepax_pose){{dx + 0.01f * (float)i, 0.9f}, sepax_rot(turn)};
    cr_assert(sepax_shapes_set_poses(s, 0, n, pose) == SEPAX_OK);
    cr_assert(sepax_shapes_update(s) == SEPAX_OK);
}

/* 20 triangles on a 5 x 4 lattice: blocks 0, 1 and half of 2, each 3 rows deep */
static void add_triangles(sepax_shapes *s) {
    uint32_t id;
    for (int i = 0; i < 20; i++) {
        float x = 2.0f * (float)(i % 5), y = 2.0f * (float)(i / 5);
        sepax_vec2 p[3] = {{x, y}, {x + 1.2f, y + 0.1f}, {x + 0.3f, y + 1.1f}};
        cr_assert(sepax_shapes_add_polygon(s, p, 3, &id) == SEPAX_OK);
    }
}

/* an octagon among the triangles: its block then reads 8 rows */
static uint32_t add_octagon(sepax_shapes *s) {
    sepax_vec2 oct[8];
    for (int k = 0; k < 8; k++) {
        sepax_rotation r = sepax_rot(0.785398f * (float)k);
        oct[k] = (sepax_vec2){4.0f + 1.5f * r.c, 3.0f + 1.5f * r.s};
    }
    uint32_t id;
    cr_assert(sepax_shapes_add_polygon(s, oct, 8, &id) == SEPAX_OK);
    return id;
}

Test(remove, a_block_gaining_rows_shows_the_last_update) {
    sepax_shapes *s = sepax_shapes_create(16);
    cr_assert(s);
    uint32_t id;
    /* 20 triangles on a 5 x 4 lattice (blocks 0, 1 and half of 2), moved and turned: the
     * update writes 3 rows of each block, and rows 3 .. 7 keep the pose they were added in */
    add_triangles(s);
    move_all(s, 0.7f, 0.3f);
    size_t hits = check_blocks(s, "triangles");
    /* an add: an octagon into block 2, among triangles */
    id = add_octagon(s);
    cr_assert(index_of(id) == 20);
    hits += check_blocks(s, "after the add");
    /* a removal: the octagon moves to index 5 (block 0); after another update block 2 has
     * only triangles again, written 3 rows deep; removing index 3 moves its last (19) into
     * block 0, read 8 rows deep */
    cr_assert(sepax_shapes_remove(s, sepax_shapes_id(s, 5), NULL) == SEPAX_OK);
    move_all(s, -0.6f, -0.4f);
    hits += check_blocks(s, "the octagon in block 0");
    cr_assert(sepax_shapes_remove(s, sepax_shapes_id(s, 3), NULL) == SEPAX_OK);
    hits += check_blocks(s, "after the removal");
    cr_expect(hits > 40, "too few overlaps (%zu) to mean much", hits);
    sepax_shapes_destroy(s);
}

/* While the rows are stale (after a frame's SEPAX_UPDATE_FRAME, which writes records only),
 * adds and removals leave them so instead of rewriting three blocks each; the range queries
 * answer from the records meanwhile, and the next whole update writes every row the new
 * counts need: an octagon added into a block of triangles, and moved by a removal into
 * another, then read 8 rows deep. */
Test(remove, stale_rows_stay_stale_until_a_whole_update) {
    sepax_shapes *s = sepax_shapes_create(16);
    cr_assert(s);
    add_triangles(s);
    move_all(s, 0.7f, 0.3f);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    sepax_frame_options o = {SEPAX_TEST_OVERLAP, 0.0f, 0.0f, SEPAX_UPDATE_FRAME};
    sepax_pair pairs[512];
    sepax_contacts out = {pairs, NULL, NULL, 512};
    size_t count;
    cr_assert(sepax_find_contacts(bp, s, &o, &out, &count) == SEPAX_OK); /* rows stale now */
    size_t hits = check_blocks(s, "after a frame");
    add_octagon(s);
    hits += check_blocks(s, "the add, rows stale");
    cr_assert(sepax_shapes_remove(s, sepax_shapes_id(s, 5), NULL) == SEPAX_OK);
    hits += check_blocks(s, "the octagon in block 0, rows stale");
    for (int k = 0; k < 3; k++) /* a whole update, then the rows are read again */
        cr_assert(sepax_shapes_remove(s, sepax_shapes_id(s, (uint32_t)(3 + 4 * k)), NULL) ==
                  SEPAX_OK);
    cr_assert(sepax_shapes_update(s) == SEPAX_OK);
    hits += check_blocks(s, "after the whole update");
    move_all(s, -0.6f, -0.4f);
    hits += check_blocks(s, "moved");
    cr_expect(hits > 40, "too few overlaps (%zu) to mean much", hits);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* A shape of a random kind with from 1 to 8 rows, somewhere in a 12 x 8 field: mostly
 * circles, capsules, triangles and boxes (1 to 4 rows), so that most blocks are read 4 rows
 * deep or fewer, and now and then a hexagon or an octagon that makes its block gain rows. */
static void add_random_shape(sepax_shapes *s, wl_rng *r) {
    float x = 12.0f * wl_unit(r), y = 8.0f * wl_unit(r), size = 0.4f + 1.2f * wl_unit(r);
    uint32_t id;
    static const int kinds[20] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 4, 5};
    int kind = kinds[wl_range(r, 0, 19)];
    sepax_status st;
    if (kind == 0) {
        st = sepax_shapes_add_circle(s, (sepax_vec2){x, y}, size, &id);
    } else if (kind == 1) {
        st = sepax_shapes_add_capsule(s, (sepax_vec2){x, y}, (sepax_vec2){x + size, y + 0.5f}, 0.3f,
                                      &id);
    } else {
        static const int verts[4] = {3, 4, 6, 8};
        int nv = verts[kind - 2];
        sepax_vec2 p[8];
        for (int k = 0; k < nv; k++) {
            sepax_rotation q = sepax_rot(6.2831853f * (float)k / (float)nv + wl_unit(r) * 0.3f);
            p[k] = (sepax_vec2){x + size * q.c, y + size * q.s};
        }
        st = sepax_shapes_add_polygon(s, p, nv, &id);
    }
    cr_assert_eq(st, SEPAX_OK, "add of kind %d: %s", kind, sepax_status_str(st));
}

/* New poses and a frame that writes the records only, leaving the rows stale; then, one time
 * in two, a whole update that makes them current again. */
static void frame_then_maybe_update(sepax_shapes *s, sepax_broadphase *bp, wl_rng *r) {
    uint32_t n = sepax_shapes_count(s);
    sepax_pose pose[64];
    cr_assert(n <= 64);
    for (uint32_t k = 0; k < n; k++)
        pose[k] = (sepax_pose){{0.3f * wl_unit(r), 0.2f}, sepax_rot(wl_unit(r))};
    cr_assert_eq(sepax_shapes_set_poses(s, 0, n, pose), SEPAX_OK);
    sepax_frame_options o = {SEPAX_TEST_OVERLAP, 0.0f, 0.0f, SEPAX_UPDATE_FRAME};
    sepax_contacts none = {NULL, NULL, NULL, 0};
    size_t count;
    sepax_status st = sepax_find_contacts(bp, s, &o, &none, &count);
    cr_assert(st == SEPAX_OK || st == SEPAX_ERR_CAPACITY, "%s", sepax_status_str(st));
    if (wl_range(r, 0, 1)) cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
}

/* Adds and removals keep the transposed rows current by writing only the lanes they change,
 * and rewrite whole blocks (and their neighbours) from the records only when a block gains
 * rows. A random churn of every kind, from 1 to 8 rows, with the poses moved and updated now
 * and then, and now and then a frame that leaves the rows stale: after every operation the
 * range queries that read the rows (overlap_one, raycast_range) agree with the reference. */
Test(remove, random_churn_keeps_the_rows_current) {
    sepax_shapes *s = sepax_shapes_create(16);
    cr_assert(s);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    wl_rng r = {0x5eed};
    size_t hits = 0, stale_ops = 0;
    for (int i = 0; i < 24; i++) add_random_shape(s, &r);
    for (int op = 0; op < 400; op++) {
        uint32_t n = sepax_shapes_count(s);
        int what = wl_range(&r, 0, 99);
        if (what < 40 && n < 60) {
            add_random_shape(s, &r);
        } else if (what < 85 && n > 1) {
            uint32_t at = (uint32_t)wl_range(&r, 0, (int)n - 1);
            cr_assert_eq(sepax_shapes_remove(s, sepax_shapes_id(s, at), NULL), SEPAX_OK);
        } else if (what < 95) {
            move_all(s, 0.5f * wl_unit(&r), 6.0f * wl_unit(&r)); /* new poses, rows current */
        } else { /* a frame: records only, the rows stale until the next whole update */
            frame_then_maybe_update(s, bp, &r);
            stale_ops++;
        }
        hits += check_blocks(s, "churn");
    }
    cr_log_info("rows churn: %zu hits, %zu frames", hits, stale_ops);
    cr_expect(hits > 4000, "too few overlaps (%zu) to mean much", hits);
    cr_expect(stale_ops > 5);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* Remove the model's keys keys[0 .. n-1] in one sepax_shapes_remove_many and mirror it: the
 * moves are what the contract says (each removed shape's index below the new count takes one
 * staying shape from at or past it, each staying shape moving once), and every removed id and
 * every moved shape's old id is refused afterwards. */
static void remove_keys_many(sepax_shapes *s, model *m, const uint32_t *keys, uint32_t n) {
    uint32_t *ids = malloc((n + 1) * sizeof *ids);
    sepax_move *mv = malloc((n + 1) * sizeof *mv);
    uint8_t *hole = calloc(m->count + 1, 1);
    cr_assert(ids && mv && hole);
    for (uint32_t k = 0; k < n; k++) ids[k] = m->id[keys[k]];
    uint32_t moves = 12345, keep = m->count - n, holes = 0;
    for (uint32_t k = 0; k < n; k++) {
        holes += index_of(ids[k]) < keep;
        hole[index_of(ids[k])] = 1;
    }
    sepax_status st = sepax_shapes_remove_many(s, ids, n, mv, &moves);
    cr_assert_eq(st, SEPAX_OK, "%s", sepax_status_str(st));
    cr_assert_eq(moves, holes, "%u moves for %u holes", moves, holes);
    for (uint32_t k = 0; k < n; k++) m->id[keys[k]] = SEPAX_NO_ID;
    for (uint32_t j = 0; j < moves; j++) {
        uint32_t from = index_of(mv[j].from), to = index_of(mv[j].to);
        cr_assert(from >= keep && from < m->count, "move %u from %u (new count %u)", j, from, keep);
        cr_assert(to < keep && hole[to] == 1, "move %u to %u, not a hole (or twice)", j, to);
        hole[to] = 2;
        uint32_t key = m->key_at[from]; /* past keep: no move writes there */
        cr_assert_eq(mv[j].from, m->id[key], "move %u: from %#x, the model says %#x", j, mv[j].from,
                     m->id[key]);
        m->id[key] = mv[j].to;
        m->key_at[to] = key;
    }
    m->count = keep;
    for (uint32_t k = 0; k < n; k++)
        cr_assert_eq(sepax_shapes_view(s, ids[k], &(sepax_shape_view){0}), SEPAX_ERR_STALE_ID,
                     "removed id %#x still answers", ids[k]);
    for (uint32_t k = 0; k < moves; k++)
        cr_assert_eq(sepax_shapes_view(s, mv[k].from, &(sepax_shape_view){0}), SEPAX_ERR_STALE_ID,
                     "moved shape's old id %#x still answers", mv[k].from);
    free(hole);
    free(ids);
    free(mv);
}

/* Removal of random sets (1 to a third of the store, or all of it; sparse and dense; from
 * anywhere, from the top, from the bottom) mirrored in the plain model: no shape lost, swapped or
 * corrupted, the kernels against the reference after each. */
Test(remove, many_matches_a_plain_model, .timeout = 600) {
    static model m;
    memset(&m, 0, sizeof m);
    sepax_shapes *s = sepax_shapes_create(START);
    cr_assert(s);
    wl_rng r = {0xba7c4u};
    for (int i = 0; i < START; i++) add_key(s, &m, &r);
    static uint32_t keys[KEYS];
    size_t hits = 0, removed = 0;
    for (int round = 0; round < 60 && m.keys + 400 < KEYS; round++) {
        while (m.count < 400) add_key(s, &m, &r);
        int how = wl_range(&r, 0, 3);
        /* every other round a sparse set (fewer than one in 64: removed in the order of ids),
         * else a dense one (removed in the order of their indices) */
        uint32_t n = (uint32_t)wl_range(&r, 1, round % 2 ? (int)m.count / 80 : (int)m.count / 3);
        /* a random set: a partial shuffle of the live indices */
        static uint32_t at[KEYS];
        for (uint32_t i = 0; i < m.count; i++) at[i] = i;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t pick = how == 1   ? m.count - 1 - k /* the top, highest first */
                            : how == 2 ? k               /* the bottom */
                                       : k + (uint32_t)wl_range(&r, 0, (int)(m.count - 1 - k));
            uint32_t t = at[k];
            at[k] = at[pick];
            at[pick] = t;
            keys[k] = m.key_at[at[k]];
        }
        if (how == 3 && round % 10 == 3) { /* everything */
            n = m.count;
            for (uint32_t k = 0; k < n; k++) keys[k] = m.key_at[n - 1 - k];
        }
        remove_keys_many(s, &m, keys, n);
        removed += n;
        for (int a = wl_range(&r, 0, 50); a > 0; a--) add_key(s, &m, &r);
        if (m.count) check_model(s, &m, &r, &hits);
    }
    cr_log_info("remove_many: %zu removed, %zu hits", removed, hits);
    cr_expect(removed > 2000 && hits > 1000, "%zu removed, %zu hits", removed, hits);
    sepax_shapes_destroy(s);
}

/* A refused call changes nothing: a bad, stale or repeated id anywhere in the list leaves the
 * store as it was (its marks cleared: the same shapes then go in a call that passes) and the
 * outputs untouched. */
/* Which staying shape fills which hole: README's rule, pinned. A dense set (one shape in 64 or
 * more) fills its holes in index order, a sparse one in the list's order, each with the
 * highest staying shape; listing index 1 before index 0 tells the two apart. */
static void expect_fill_order(uint32_t count, float want0, float want1) {
    sepax_shapes *s = sepax_shapes_create(count);
    uint32_t id[200];
    for (uint32_t i = 0; i < count; i++)
        cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){10.0f * (float)i, 0}, 1, &id[i]),
                     SEPAX_OK);
    const uint32_t gone[2] = {id[1], id[0]};
    sepax_move moved[2];
    uint32_t moves = 0;
    cr_assert_eq(sepax_shapes_remove_many(s, gone, 2, moved, &moves), SEPAX_OK);
    cr_assert_eq(moves, 2);
    sepax_local_shape l0, l1;
    cr_assert_eq(sepax_shapes_local(s, sepax_shapes_id(s, 0), &l0), SEPAX_OK);
    cr_assert_eq(sepax_shapes_local(s, sepax_shapes_id(s, 1), &l1), SEPAX_OK);
    cr_expect(l0.vertex[0].x == want0 && l1.vertex[0].x == want1,
              "%u shapes: index 0 holds x = %g, index 1 x = %g; want %g and %g", count,
              (double)l0.vertex[0].x, (double)l1.vertex[0].x, (double)want0, (double)want1);
    /* the moves in the order made, each from the highest staying shape */
    uint32_t first = want0 > want1 ? 0 : 1;
    cr_expect(index_of(moved[0].to) == first && index_of(moved[1].to) == 1 - first,
              "%u shapes: moves into %u then %u", count, index_of(moved[0].to),
              index_of(moved[1].to));
    cr_expect(moved[0].from == id[count - 1] && moved[1].from == id[count - 2],
              "%u shapes: the highest staying shape moves first", count);
    sepax_shapes_destroy(s);
}

Test(remove, many_fills_holes_in_the_documented_order) {
    expect_fill_order(4, 30, 20);       /* dense: hole 0, then hole 1 */
    expect_fill_order(128, 1270, 1260); /* 2 * 64 >= 128: dense */
    expect_fill_order(129, 1270, 1280); /* sparse: hole 1 (listed first), then hole 0 */
}

Test(remove, many_refused_changes_nothing) {
    sepax_shapes *s = sepax_shapes_create(32);
    cr_assert(s);
    uint32_t id[20], gone;
    for (int i = 0; i < 20; i++)
        cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){(float)i, 0}, 0.5f, &id[i]), SEPAX_OK);
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){0, 5}, 1, &gone), SEPAX_OK);
    cr_assert_eq(sepax_shapes_remove(s, gone, NULL), SEPAX_OK);
    world_copy before[20];
    for (int i = 0; i < 20; i++) before[i] = copy_view(s, id[i]);
    const struct {
        uint32_t list[4];
        sepax_status want;
    } bad[] = {
        {{id[3], id[7], 25, id[1]}, SEPAX_ERR_BAD_ID},
        {{id[3], id[7], id[1], gone}, SEPAX_ERR_STALE_ID},
        {{id[19], id[3], id[19], id[0]}, SEPAX_ERR_DUPLICATE},
        {{id[5], id[5], id[6], id[7]}, SEPAX_ERR_DUPLICATE},
    };
    sepax_move mv[4];
    uint32_t moves;
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        memset(mv, MARK, sizeof mv);
        memset(&moves, MARK, sizeof moves);
        cr_assert_eq(sepax_shapes_remove_many(s, bad[b].list, 4, mv, &moves), bad[b].want,
                     "list %zu", b);
        cr_assert(untouched(mv, sizeof mv) && untouched(&moves, sizeof moves), "list %zu wrote", b);
        cr_assert_eq(sepax_shapes_count(s), 20);
        for (int i = 0; i < 20; i++) {
            world_copy now = copy_view(s, id[i]);
            cr_assert(memcmp(&now, &before[i], sizeof now) == 0, "list %zu: shape %d changed", b,
                      i);
            sepax_local_shape l;
            cr_assert_eq(sepax_shapes_local(s, id[i], &l), SEPAX_OK);
            cr_assert_eq(l.kind, SEPAX_KIND_CIRCLE, "list %zu: shape %d's kind is %d", b, i,
                         l.kind);
        }
    }
    cr_assert_eq(sepax_shapes_remove_many(NULL, id, 1, mv, &moves), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_shapes_remove_many(s, NULL, 1, mv, &moves), SEPAX_ERR_NULL);
    /* the NULL checks before the alignment ones, as the header orders them (a review found
     * a misaligned moved winning over NULL ids) */
    cr_assert_eq(sepax_shapes_remove_many(s, NULL, 1, (sepax_move *)((char *)mv + 1), &moves),
                 SEPAX_ERR_NULL);
    cr_assert_eq(sepax_shapes_remove_many(s, NULL, 1, mv, (uint32_t *)((char *)&moves + 1)),
                 SEPAX_ERR_NULL);
    cr_assert_eq(sepax_shapes_remove_many(s, id, 1, (sepax_move *)((char *)mv + 1), &moves),
                 SEPAX_ERR_MISALIGNED);
    cr_assert_eq(
        sepax_shapes_remove_many(s, (const uint32_t *)((const char *)id + 2), 1, mv, &moves),
        SEPAX_ERR_MISALIGNED);
    cr_assert(untouched(&moves, sizeof moves));
    cr_assert_eq(sepax_shapes_remove_many(s, NULL, 0, NULL, &moves), SEPAX_OK);
    cr_assert_eq(moves, 0u);
    /* the ones refused with the duplicate go, without it */
    uint32_t list[3] = {id[19], id[3], id[0]};
    cr_assert_eq(sepax_shapes_remove_many(s, list, 3, mv, &moves), SEPAX_OK);
    cr_assert_eq(sepax_shapes_count(s), 17);
    /* index 19 is past the new count (17): popped; holes 0 and 3 take 17 and 18 */
    cr_assert_eq(moves, 2u);
    for (uint32_t j = 0; j < 2; j++) {
        uint32_t from = index_of(mv[j].from), to = index_of(mv[j].to);
        cr_assert((from == 17 || from == 18) && mv[j].from == id[from], "from %#x", mv[j].from);
        cr_assert((to == 0 || to == 3) && to != index_of(mv[1 - j].to), "to %#x", mv[j].to);
        world_copy now = copy_view(s, mv[j].to);
        cr_assert(memcmp(&before[from], &now, sizeof now) == 0, "shape %u changed on its move",
                  from);
    }
    sepax_shapes_destroy(s);
}

/* The same sets through the transposed rows: random removals of sets amid adds, pose changes
 * and frames, with the range queries (which read the rows) against the reference after each. */
Test(remove, many_keeps_the_rows_current) {
    sepax_shapes *s = sepax_shapes_create(16);
    cr_assert(s);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    wl_rng r = {0x5e75};
    size_t hits = 0, sets = 0;
    for (int i = 0; i < 40; i++) add_random_shape(s, &r);
    for (int op = 0; op < 300; op++) {
        uint32_t n = sepax_shapes_count(s);
        int what = wl_range(&r, 0, 99);
        if (what < 45 && n < 60) {
            for (int a = wl_range(&r, 1, 6); a > 0 && sepax_shapes_count(s) < 64; a--)
                add_random_shape(s, &r);
        } else if (what < 85 && n > 1) {
            uint32_t at[64], ids[64], k = (uint32_t)wl_range(&r, 1, (int)n / 2);
            for (uint32_t i = 0; i < n; i++) at[i] = i;
            for (uint32_t j = 0; j < k; j++) {
                uint32_t pick = j + (uint32_t)wl_range(&r, 0, (int)(n - 1 - j)), t = at[j];
                at[j] = at[pick];
                at[pick] = t;
                ids[j] = sepax_shapes_id(s, at[j]);
            }
            cr_assert_eq(sepax_shapes_remove_many(s, ids, k, NULL, NULL), SEPAX_OK);
            cr_assert_eq(sepax_shapes_count(s), n - k);
            sets++;
        } else if (what < 95) {
            move_all(s, 0.5f * wl_unit(&r), 6.0f * wl_unit(&r));
        } else {
            frame_then_maybe_update(s, bp, &r);
        }
        if (sepax_shapes_count(s)) hits += check_blocks(s, "sets");
    }
    cr_log_info("rows with sets: %zu hits, %zu sets", hits, sets);
    cr_expect(hits > 2000 && sets > 50, "%zu hits, %zu sets", hits, sets);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* The caller's data: 0 for a new shape; set by index range and read by ids; refusals in the
 * header's order change and write nothing. */
Test(remove, user_data_contract) {
    sepax_shapes *s = sepax_shapes_create(8);
    uint32_t ids[4];
    for (int i = 0; i < 4; i++)
        cr_assert(sepax_shapes_add_circle(s, (sepax_vec2){(float)i, 0}, 0.5f, &ids[i]) == SEPAX_OK);
    _Alignas(8) uint64_t out[6], set[4] = {11, 22, 33, UINT64_MAX};
    cr_assert(sepax_shapes_get_user(s, ids, 4, out) == SEPAX_OK);
    for (int i = 0; i < 4; i++)
        cr_expect(out[i] == 0, "a new shape's data %llu", (unsigned long long)out[i]);
    cr_assert(sepax_shapes_set_user(s, 1, 3, set + 1) == SEPAX_OK); /* 22, 33, UINT64_MAX */
    /* set: NULL store; range past the shapes (before the array is looked at); NULL or
     * misaligned array; count 0 takes NULL */
    cr_expect(sepax_shapes_set_user(NULL, 0, 1, set) == SEPAX_ERR_NULL);
    cr_expect(sepax_shapes_set_user(s, 2, 3, set) == SEPAX_ERR_BAD_ID);
    cr_expect(sepax_shapes_set_user(s, 5, 0, NULL) == SEPAX_ERR_BAD_ID);
    cr_expect(sepax_shapes_set_user(s, 0, 1, NULL) == SEPAX_ERR_NULL);
    cr_expect(
        sepax_shapes_set_user(s, 0, 1, (const uint64_t *)(const void *)((const char *)set + 4)) ==
        SEPAX_ERR_MISALIGNED);
    cr_expect(sepax_shapes_set_user(s, 4, 0, NULL) == SEPAX_OK);
    /* get: every refusal leaves out as it was */
    memset(out, 0xA5, sizeof out);
    cr_expect(sepax_shapes_get_user(NULL, ids, 4, out) == SEPAX_ERR_NULL);
    cr_expect(sepax_shapes_get_user(s, NULL, 4, out) == SEPAX_ERR_NULL);
    cr_expect(sepax_shapes_get_user(s, ids, 4, NULL) == SEPAX_ERR_NULL);
    cr_expect(sepax_shapes_get_user(s, ids, 0, NULL) == SEPAX_OK);
    cr_expect(sepax_shapes_get_user(s, (const uint32_t *)(const void *)((const char *)ids + 1), 2,
                                    out) == SEPAX_ERR_MISALIGNED);
    cr_expect(sepax_shapes_get_user(s, ids, 2, (uint64_t *)(void *)((char *)out + 4)) ==
              SEPAX_ERR_MISALIGNED);
    cr_expect(sepax_shapes_get_user(s, ids, SIZE_MAX / 4, out) == SEPAX_ERR_COUNT);
    uint32_t bad[3] = {ids[0], 7, ids[1]};
    cr_expect(sepax_shapes_get_user(s, bad, 3, out) == SEPAX_ERR_BAD_ID);
    /* removing shape 1 moves the last (data UINT64_MAX) into its place; its old id and the
     * removed one are stale */
    sepax_move mv;
    cr_assert(sepax_shapes_remove(s, ids[1], &mv) == SEPAX_OK);
    uint32_t stale[2] = {ids[0], ids[3]};
    cr_expect(sepax_shapes_get_user(s, stale, 2, out) == SEPAX_ERR_STALE_ID);
    stale[1] = ids[1];
    cr_expect(sepax_shapes_get_user(s, stale, 2, out) == SEPAX_ERR_STALE_ID);
    for (size_t i = 0; i < sizeof out; i++)
        cr_assert(((unsigned char *)out)[i] == 0xA5, "a refused get wrote");
    uint32_t now[3] = {ids[0], mv.to, ids[2]};
    cr_assert(sepax_shapes_get_user(s, now, 3, out) == SEPAX_OK);
    cr_expect(out[0] == 0 && out[1] == UINT64_MAX && out[2] == 33, "%llu %llu %llu",
              (unsigned long long)out[0], (unsigned long long)out[1], (unsigned long long)out[2]);
    cr_expect(((unsigned char *)out)[3 * sizeof *out] == 0xA5, "wrote past n");
    /* a shape added in the vacated index starts at 0 again */
    uint32_t id;
    cr_assert(sepax_shapes_add_circle(s, (sepax_vec2){9, 0}, 0.5f, &id) == SEPAX_OK);
    cr_assert(sepax_shapes_get_user(s, &id, 1, out) == SEPAX_OK);
    cr_expect(out[0] == 0, "a new shape in a vacated index: %llu", (unsigned long long)out[0]);
    sepax_shapes_destroy(s);
}
