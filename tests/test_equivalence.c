/* Every kernel copy against the scalar reference, bit for bit: random
 * rounds of 1M pairs per shape mix (polygons, mixed kinds, circles; overlap,
 * collide and contact manifolds at three margins, sweeps, plus one-vs-many),
 * the adversarial store, every batch size with marker bytes, and the same
 * again with denormals flushed. SEPAX_TEST_ROUNDS lowers the rounds: CI runs
 * one (tools/test.sh, to fit its time limit). */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "check.h"
#include "sepax_ref.h"

static int rounds(void) {
    const char *e = getenv("SEPAX_TEST_ROUNDS");
    int r = e ? atoi(e) : 3;
    return r > 0 ? r : 3;
}

static const sepax_kernel *need(const char *name) {
    const test_kernel *t = find_test_kernel(name);
    if (!t) cr_skip_test("%s is not built for this target", name);
    if (!t->runnable) cr_skip_test("this CPU cannot run %s", name);
    if (test_kernel_left_out(name)) cr_skip_test("%s left out by SEPAX_TEST_SKIP_KERNELS", name);
    return t->k;
}

static void full_check(const char *name) {
    const sepax_kernel *k = need(name);
    check_msg msg = {""};
    size_t compared = 0;
    size_t bad = check_tails(k, 49, &msg);
    cr_expect(bad == 0, "%s tails: %zu mismatches: %s", name, bad, msg.text);
    bad = check_lengths(k, &compared, &msg);
    cr_expect(bad == 0, "%s lengths: %zu mismatches: %s", name, bad, msg.text);
    compared = 0;
    bad = check_far_store(k, &compared, &msg);
    cr_expect(bad == 0, "%s far store: %zu mismatches: %s", name, bad, msg.text);
    cr_expect(compared >= 2 * 6 * (size_t)12011, "the far store compared only %zu", compared);
    compared = 0;
    bad = check_adversarial(k, &compared, &msg);
    cr_expect(bad == 0, "%s adversarial: %zu mismatches: %s", name, bad, msg.text);
    /* the README's store: 265 shapes, all 70,225 ordered pairs (12 results each, as in the
     * random rounds below), and every shape a probe: 265 probes at margin 0 and a quarter
     * (67) at each other margin and as rays, each against the 265 shapes */
    cr_expect(compared == 12 * (size_t)70225 + (265 + 3 * 67) * (size_t)265,
              "the adversarial store is not the README's: %zu results", compared);
    compared = 0;
    bad = check_update(k, &compared, &msg);
    cr_expect(bad == 0, "%s poses: %zu mismatches: %s", name, bad, msg.text);
    cr_expect(compared > 100000, "the pose checks compared only %zu", compared);
    compared = 0;
    bad = check_pose_kernel(k, &compared, &msg);
    cr_expect(bad == 0, "%s pose batches: %zu mismatches: %s", name, bad, msg.text);
    compared = 0;
    bad = check_rot_kernel(k, &compared, &msg);
    cr_expect(bad == 0, "%s rot: %zu mismatches: %s", name, bad, msg.text);
    cr_expect(compared > 800000, "the rot check compared only %zu", compared);
    static const char *const kinds[] = {"polygons", "mixed kinds", "circles"};
    for (int kind = WL_POLYGONS; kind <= WL_CIRCLES; kind++) {
        compared = 0;
        wl_config cfg = wl_default();
        cfg.kinds = kind;
        cfg.pairs = test_pairs(cfg.pairs);
        int r = rounds();
        bad = check_random_rounds(k, cfg, r, &compared, &msg);
        cr_expect(bad == 0, "%s random %s: %zu mismatches of %zu: %s", name, kinds[kind], bad,
                  compared, msg.text);
        /* at margins 0, + and -: three results (overlap, collide, manifold) per
         * pair, two sweeps and a ray per pair, plus 8 + 2 + 2 probes x shapes
         * and 2 rays x shapes */
        cr_expect(compared == (size_t)r * (12 * cfg.pairs + 14 * cfg.shapes), "compared %zu",
                  compared);
        cr_log_info("%s: %zu random pairs of %s at 3 margins, %zu results compared, all "
                    "bit-identical",
                    name, (size_t)r * cfg.pairs, kinds[kind], compared);
    }
}

Test(equivalence, scalar, .timeout = 1200) { full_check("scalar"); }
Test(equivalence, sse2, .timeout = 1200) { full_check("sse2"); }
Test(equivalence, sse41, .timeout = 1200) { full_check("sse41"); }
Test(equivalence, avx2, .timeout = 1200) { full_check("avx2"); }
Test(equivalence, avx512, .timeout = 1200) { full_check("avx512"); }
Test(equivalence, avx512_256, .timeout = 1200) { full_check("avx512_256"); }
Test(equivalence, avx512_256_zen5, .timeout = 1200) { full_check("avx512_256_zen5"); }
Test(equivalence, neon, .timeout = 1200) { full_check("neon"); }
Test(equivalence, avx512_emulated, .timeout = 1200) { full_check("avx512_emulated"); }
Test(equivalence, avx512_256_emulated, .timeout = 1200) { full_check("avx512_256_emulated"); }
Test(equivalence, avx512_256_emulated_zen5, .timeout = 1200) {
    full_check("avx512_256_emulated_zen5");
}
Test(equivalence, neon_emulated, .timeout = 1200) { full_check("neon_emulated"); }
Test(equivalence, avx2_portable, .timeout = 1200) { full_check("avx2_portable"); }

#ifdef SEPAX_HAVE_AVX512
/* What a Zen 5 runs (dispatch.c) is the 256-bit copy's table but for its overlap and
 * raycast, which send some stores to the 512-bit copy: checked here on any CPU, since its
 * full check above needs AVX-512 (and takes each path: polygons, circles, mixed kinds). */
Test(equivalence, zen5_table_is_the_256_bit_one_but_for_overlap_and_raycast) {
    const sepax_kernel *z5 = &sepax_kernel_avx512_256_zen5;
    cr_expect(z5->overlap != sepax_kernel_avx512.overlap);
    cr_expect(z5->overlap != sepax_kernel_avx512_256.overlap);
    cr_expect(z5->raycast != sepax_kernel_avx512.raycast);
    cr_expect(z5->raycast != sepax_kernel_avx512_256.raycast);
    cr_expect(z5->backend == SEPAX_BACKEND_AVX512);
    cr_expect(z5->backend == sepax_kernel_avx512_256.backend);
    /* the function pointers, from overlap to the end: pointers alike, so no padding between
     * them to compare (the 4 bytes after `backend` are left out) */
    sepax_kernel got = *z5;
    got.overlap = sepax_kernel_avx512_256.overlap;
    got.raycast = sepax_kernel_avx512_256.raycast;
    size_t from = offsetof(sepax_kernel, overlap);
    cr_expect(memcmp((const char *)&got + from, (const char *)&sepax_kernel_avx512_256 + from,
                     sizeof got - from) == 0,
              "another field differs");
    cr_expect(strcmp(z5->name, "sepax_kernel_avx512_256_zen5") == 0, "%s", z5->name);
}
#endif

/* The same answers with denormals flushed (as a process linked with
 * -ffast-math runs): kernels and reference both see the same mode. */
Test(equivalence, flush_to_zero_mode, .timeout = 1200) {
#if defined(__x86_64__) || defined(__i386__)
    /* stores are built in the default mode: with DAZ, the denormal
     * coordinates of the adversarial store would read as zeros */
    sepax_shapes *adv = wl_adversarial_store();
    wl_config cfg = wl_default();
    cfg.pairs = test_pairs(100000);
    cfg.kinds = WL_MIXED;
    sepax_shapes *rnd = sepax_shapes_create(cfg.shapes);
    size_t n_adv = 0;
    sepax_pair *p_adv = adv ? wl_all_pairs(sepax_shapes_count(adv), &n_adv) : NULL;
    sepax_pair *p_rnd = malloc(cfg.pairs * sizeof *p_rnd);
    cr_assert(adv && rnd && p_adv && p_rnd);
    cr_assert(wl_fill_store(rnd, &cfg) == SEPAX_OK && wl_make_pairs(rnd, &cfg, p_rnd) == SEPAX_OK);
    _mm_setcsr(_mm_getcsr() | 0x8040); /* FTZ | DAZ */
    for (int i = 0; i < test_kernel_count(); i++) {
        const test_kernel *t = test_kernel_at(i);
        if (!t->runnable || test_kernel_left_out(t->name)) continue;
        check_msg msg = {""};
        size_t compared = 0;
        size_t bad = check_store(t->k, adv, p_adv, n_adv, 16, &compared, &msg);
        cr_expect(bad == 0, "%s adversarial under FTZ/DAZ: %s", t->name, msg.text);
        bad = check_store(t->k, rnd, p_rnd, cfg.pairs, 8, &compared, &msg);
        cr_expect(bad == 0, "%s random under FTZ/DAZ: %s", t->name, msg.text);
    }
    sepax_shapes_destroy(adv);
    sepax_shapes_destroy(rnd);
    free(p_adv);
    free(p_rnd);
#else
    cr_skip_test("flush-to-zero switch tested on x86 only");
#endif
}

/* The public entry points with each backend forced: dispatch reaches the
 * kernel it names and the answers stay the reference's. */
Test(equivalence, public_api_every_backend, .timeout = 1200) {
    wl_config cfg = wl_default();
    cfg.pairs = test_pairs(200000);
    cfg.kinds = WL_MIXED;
    sepax_shapes *s = sepax_shapes_create(cfg.shapes);
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    uint8_t *want = malloc(cfg.pairs), *got = malloc(cfg.pairs), *want_one = malloc(cfg.shapes);
    sepax_hit *want_c = malloc(cfg.pairs * sizeof *want_c),
              *got_c = malloc(cfg.pairs * sizeof *got_c);
    cr_assert(s && pairs && want && got && want_one && want_c && got_c);
    cr_assert(wl_fill_store(s, &cfg) == SEPAX_OK);
    cr_assert(wl_make_pairs(s, &cfg, pairs) == SEPAX_OK);
    cr_assert(sepax_ref_overlap(s, pairs, cfg.pairs, want) == SEPAX_OK);
    cr_assert(sepax_ref_collide(s, pairs, cfg.pairs, want_c) == SEPAX_OK);
    cr_assert(sepax_ref_overlap_one(s, 17, 3, cfg.shapes - 3, want_one) == SEPAX_OK);
    size_t hits = 0;
    for (size_t i = 0; i < cfg.pairs; i++) hits += want[i];
    cr_expect(hits > cfg.pairs * 45 / 100 && hits < cfg.pairs * 55 / 100, "overlap ratio %zu",
              hits);
    int tested = 0;
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        if (!sepax_backend_available((sepax_backend)b)) continue;
        cr_assert(sepax_set_backend((sepax_backend)b) == SEPAX_OK);
        cr_assert(sepax_get_backend() == (sepax_backend)b);
        cr_assert(sepax_overlap(s, pairs, cfg.pairs, got) == SEPAX_OK);
        cr_expect(memcmp(got, want, cfg.pairs) == 0, "%s overlap", sepax_backend_name(b));
        cr_assert(sepax_collide(s, pairs, cfg.pairs, got_c) == SEPAX_OK);
        cr_expect(memcmp(got_c, want_c, cfg.pairs * sizeof *got_c) == 0, "%s collide",
                  sepax_backend_name(b));
        cr_assert(sepax_overlap_one(s, 17, 3, cfg.shapes - 3, got) == SEPAX_OK);
        cr_expect(memcmp(got, want_one, cfg.shapes - 3) == 0, "%s overlap_one",
                  sepax_backend_name(b));
        tested++;
    }
    cr_expect(tested >= 2, "at least scalar and one SIMD backend run here");
    sepax_shapes_destroy(s);
    free(pairs);
    free(want);
    free(want_one);
    free(got);
    free(want_c);
    free(got_c);
}

/* Same bits on every platform: the hash over the default workload, its
 * reference answers and sepax_rot is the one committed, which the aarch64
 * run under qemu checks too (tests/equiv_driver.c). */
Test(equivalence, same_bits_on_every_platform, .timeout = 600) {
    uint64_t h = determinism_hash();
    cr_expect(h == SEPAX_DETERMINISM_HASH, "hash %016llx, committed %016llx", (unsigned long long)h,
              (unsigned long long)SEPAX_DETERMINISM_HASH);
}
