/* Backend choice: names, forcing, refusal of what the CPU lacks, and the
 * SEPAX_BACKEND environment variable. Criterion runs each test in its own
 * process, so each starts with no backend chosen. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "sepax.h"

static const char *const names[] = {"scalar", "sse2", "sse41", "avx2", "avx512", "neon"};

Test(backend, names_round_trip) {
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        cr_expect(strcmp(sepax_backend_name((sepax_backend)b), names[b]) == 0);
        sepax_backend back;
        cr_expect(sepax_backend_from_name(names[b], &back) == SEPAX_OK && back == b);
    }
    sepax_backend back;
    cr_expect(sepax_backend_from_name("auto", &back) == SEPAX_OK && back == SEPAX_BACKEND_AUTO);
    cr_expect(strcmp(sepax_backend_name(SEPAX_BACKEND_AUTO), "auto") == 0);
    cr_expect(sepax_backend_from_name("avx3", &back) == SEPAX_ERR_BAD_BACKEND);
    cr_expect(sepax_backend_from_name(NULL, &back) == SEPAX_ERR_NULL);
    cr_expect(sepax_backend_name((sepax_backend)99) == NULL);
    cr_expect(sepax_backend_available((sepax_backend)99) == 0);
}

Test(backend, auto_picks_the_widest_available) {
    sepax_backend b = sepax_get_backend();
    cr_assert(b >= 0 && b < SEPAX_BACKEND_COUNT);
    cr_expect(sepax_backend_available(b));
    cr_expect(sepax_backend_available(SEPAX_BACKEND_SCALAR));
    for (int w = SEPAX_BACKEND_AVX512; w > (int)b; w--)
        cr_expect(w == SEPAX_BACKEND_NEON || !sepax_backend_available((sepax_backend)w),
                  "%s chosen although %s runs here", sepax_backend_name(b),
                  sepax_backend_name((sepax_backend)w));
#if defined(__x86_64__)
    cr_expect(b != SEPAX_BACKEND_SCALAR, "x86-64 always has SSE2");
#endif
}

Test(backend, forcing_and_refusing) {
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        sepax_backend before = sepax_get_backend();
        sepax_status st = sepax_set_backend((sepax_backend)b);
        if (sepax_backend_available((sepax_backend)b)) {
            cr_expect(st == SEPAX_OK && sepax_get_backend() == b);
        } else {
            cr_expect(st == SEPAX_ERR_UNSUPPORTED, "%s: %s", names[b], sepax_status_str(st));
            cr_expect(sepax_get_backend() == before, "a refused backend changed the choice");
        }
    }
    cr_expect(sepax_set_backend((sepax_backend)77) == SEPAX_ERR_BAD_BACKEND);
    cr_expect(sepax_set_backend(SEPAX_BACKEND_AUTO) == SEPAX_OK);
}

static sepax_shapes *one_box(void) {
    sepax_shapes *s = sepax_shapes_create(1);
    sepax_vec2 p[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    uint32_t id;
    cr_assert(sepax_shapes_add_polygon(s, p, 4, &id) == SEPAX_OK);
    return s;
}

Test(backend, environment_forces_scalar) {
    setenv("SEPAX_BACKEND", "scalar", 1);
    cr_expect(sepax_get_backend() == SEPAX_BACKEND_SCALAR);
}

Test(backend, environment_with_unknown_name_fails_queries) {
    setenv("SEPAX_BACKEND", "fastest-please", 1);
    sepax_shapes *s = one_box();
    sepax_pair p = {0, 0};
    uint8_t hit = 7;
    cr_expect(sepax_overlap(s, &p, 1, &hit) == SEPAX_ERR_BAD_BACKEND);
    cr_expect(hit == 7, "nothing written");
    cr_expect(sepax_get_backend() == SEPAX_BACKEND_AUTO);
    /* an explicit choice overrides the broken variable */
    cr_expect(sepax_set_backend(SEPAX_BACKEND_SCALAR) == SEPAX_OK);
    cr_expect(sepax_overlap(s, &p, 1, &hit) == SEPAX_OK && hit == 1);
    sepax_shapes_destroy(s);
}

/* A frame's backend error comes before its poses' (sepax.h: sepax_find_contacts' errors
 * first), and writes nothing */
Test(backend, posed_frame_refuses_the_backend_before_the_poses) {
    setenv("SEPAX_BACKEND", "fastest-please", 1);
    sepax_shapes *s = one_box();
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    sepax_pair pairs[4];
    memset(pairs, 0x5a, sizeof pairs);
    sepax_contacts out = {pairs, NULL, NULL, 4};
    sepax_frame_options o = {.test = SEPAX_TEST_OVERLAP};
    size_t count = 12345;
    cr_expect_eq(sepax_find_contacts(bp, s, &o, &out, &count), SEPAX_ERR_BAD_BACKEND);
    cr_expect_eq(sepax_find_contacts_posed(bp, s, 0, sepax_shapes_count(s), NULL, &o, &out, &count),
                 SEPAX_ERR_BAD_BACKEND);
    sepax_pose *skew = (sepax_pose *)(void *)((char *)pairs + 1);
    cr_expect_eq(sepax_find_contacts_posed(bp, s, 0, sepax_shapes_count(s), skew, &o, &out, &count),
                 SEPAX_ERR_BAD_BACKEND);
    cr_expect(count == 12345, "count written on error");
    for (size_t i = 0; i < sizeof pairs; i++)
        cr_expect_eq(((unsigned char *)pairs)[i], 0x5a, "a refused frame wrote its output");
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

Test(backend, environment_with_missing_isa_is_refused) {
#if defined(__x86_64__) || defined(__i386__)
    const char *absent = "neon";
#else
    const char *absent = "avx2";
#endif
    setenv("SEPAX_BACKEND", absent, 1);
    sepax_shapes *s = one_box();
    sepax_pair p = {0, 0};
    sepax_hit h = {9, {9, 9}, 9};
    cr_expect(sepax_collide(s, &p, 1, &h) == SEPAX_ERR_UNSUPPORTED);
    cr_expect(h.hit == 9 && h.depth == 9, "nothing written");
    sepax_shapes_destroy(s);
}

/* SEPAX_BACKEND's names for one AVX-512 table (dispatch.c): that table where the CPU has
 * AVX-512, refused as a missing ISA elsewhere (every query, nothing written); the backend
 * reads avx512 either way, and the names are the variable's alone, not
 * sepax_backend_from_name's. */
static void table_named(const char *name, const sepax_kernel *want) {
    setenv("SEPAX_BACKEND", name, 1);
    const sepax_kernel *k = NULL;
    sepax_status st = sepax_kernel_for_query(&k);
    if (want && sepax_backend_available(SEPAX_BACKEND_AVX512)) {
        cr_expect(st == SEPAX_OK && k == want, "%s: %s", name, k ? k->name : "none");
        cr_expect(sepax_get_backend() == SEPAX_BACKEND_AVX512);
    } else {
        cr_expect(st == SEPAX_ERR_UNSUPPORTED, "%s: %s", name, sepax_status_str(st));
        sepax_shapes *s = one_box();
        sepax_pair p = {0, 0};
        uint8_t hit = 7;
        cr_expect(sepax_overlap(s, &p, 1, &hit) == SEPAX_ERR_UNSUPPORTED);
        cr_expect(sepax_overlap(s, &p, 1, &hit) == SEPAX_ERR_UNSUPPORTED, "and again");
        cr_expect(hit == 7, "nothing written");
        cr_expect(sepax_get_backend() == SEPAX_BACKEND_AUTO);
        sepax_shapes_destroy(s);
    }
    sepax_backend b;
    cr_expect(sepax_backend_from_name(name, &b) == SEPAX_ERR_BAD_BACKEND);
}

#ifdef SEPAX_HAVE_AVX512
#define TABLE(t) (&(t))
#else
#define TABLE(t) NULL /* not built: refused */
#endif
Test(backend, environment_names_the_512_bit_avx512_table) {
    table_named("avx512-512", TABLE(sepax_kernel_avx512));
}
Test(backend, environment_names_the_256_bit_avx512_table) {
    table_named("avx512-256", TABLE(sepax_kernel_avx512_256));
}
Test(backend, environment_names_the_zen5_avx512_table) {
    table_named("avx512-zen5", TABLE(sepax_kernel_avx512_256_zen5));
}

/* Near misses are unknown names, as any other: refused by every query, nothing written.
 * One a test, since a process reads the variable once. */
static void unknown_name(const char *name) {
    setenv("SEPAX_BACKEND", name, 1);
    sepax_shapes *s = one_box();
    sepax_pair p = {0, 0};
    uint8_t hit = 7;
    cr_expect(sepax_overlap(s, &p, 1, &hit) == SEPAX_ERR_BAD_BACKEND, "%s", name);
    cr_expect(hit == 7, "nothing written");
    sepax_shapes_destroy(s);
}
Test(backend, environment_table_name_past_the_end) { unknown_name("avx512-5120"); }
Test(backend, environment_table_name_cut_short) { unknown_name("avx512-zen"); }
Test(backend, environment_table_name_in_capitals) { unknown_name("AVX512-512"); }
Test(backend, environment_table_name_without_a_table) { unknown_name("avx512-"); }
