/* Which kernel copy runs: the best one the CPU supports, or the one forced by
 * sepax_set_backend() or the SEPAX_BACKEND environment variable. The choice
 * is made once, on first use, and kept in an atomic so concurrent first
 * queries agree. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "misaligned.h"

#ifdef SEPAX_HAVE_AVX512
#include <cpuid.h>

/* The family of an AMD CPU, 0 for any other. With AVX-512 (which the caller checks),
 * family 19h is a Zen 4, which runs each 512-bit operation as two 256-bit halves (the
 * family's others, Zen 3 and 3+, have no AVX-512), and 1Ah a Zen 5. */
static unsigned amd_family_cpuid(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return 0;
    /* "AuthenticAMD" in ebx, edx, ecx */
    if (b != 0x68747541u || d != 0x69746e65u || c != 0x444d4163u) return 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return ((a >> 8) & 0xfu) + ((a >> 20) & 0xffu);
}

/* Asked once: each sepax_backend_available() call asks, and in a virtual machine cpuid
 * traps to the hypervisor. Racing first calls compute the same answer. */
static unsigned amd_family(void) {
    static _Atomic unsigned known = ~0u;
    unsigned f = atomic_load_explicit(&known, memory_order_relaxed);
    if (f == ~0u) {
        f = amd_family_cpuid();
        atomic_store_explicit(&known, f, memory_order_relaxed);
    }
    return f;
}

/* The AVX-512 table for this CPU: the pair queries at 256 bits on a Zen 4; on a Zen 5 the
 * same but for the overlap and rays of some stores (sat_kernel.c says which is faster where);
 * elsewhere (Intel) at 512. SEPAX_BACKEND can name one table instead (avx512_table_named). */
static const sepax_kernel *avx512_table(void) {
    switch (amd_family()) {
    case 0x19u: return &sepax_kernel_avx512_256;
    case 0x1Au: return &sepax_kernel_avx512_256_zen5;
    default: return &sepax_kernel_avx512;
    }
}
#endif

static const char *const backend_names[SEPAX_BACKEND_COUNT] = {
    "scalar", "sse2", "sse41", "avx2", "avx512", "neon",
};

/* The copies this build compiled (meson passes SEPAX_HAVE_<ISA>); for avx512, the one
 * for this CPU. */
static const sepax_kernel *built(sepax_backend b) {
    switch (b) {
    case SEPAX_BACKEND_SCALAR: return &sepax_kernel_scalar;
#ifdef SEPAX_HAVE_SSE2
    case SEPAX_BACKEND_SSE2: return &sepax_kernel_sse2;
#endif
#ifdef SEPAX_HAVE_SSE41
    case SEPAX_BACKEND_SSE41: return &sepax_kernel_sse41;
#endif
#ifdef SEPAX_HAVE_AVX2
    case SEPAX_BACKEND_AVX2: return &sepax_kernel_avx2;
#endif
#ifdef SEPAX_HAVE_AVX512
    /* on AMD most pair queries at 256 bits (meson.build), the same bits either way */
    case SEPAX_BACKEND_AVX512: return avx512_table();
#endif
#ifdef SEPAX_HAVE_NEON
    case SEPAX_BACKEND_NEON: return &sepax_kernel_neon;
#endif
    default: return NULL;
    }
}

static int cpu_runs(sepax_backend b) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    switch (b) {
    case SEPAX_BACKEND_SCALAR: return 1;
    case SEPAX_BACKEND_SSE2: return __builtin_cpu_supports("sse2") != 0;
    case SEPAX_BACKEND_SSE41: return __builtin_cpu_supports("sse4.1") != 0;
    case SEPAX_BACKEND_AVX2: return __builtin_cpu_supports("avx2") != 0;
    case SEPAX_BACKEND_AVX512: /* built with -mavx512vl (meson.build) */
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
    default: return 0;
    }
#elif defined(__aarch64__)
    return b == SEPAX_BACKEND_SCALAR || b == SEPAX_BACKEND_NEON; /* NEON is baseline on aarch64 */
#else
    return b == SEPAX_BACKEND_SCALAR;
#endif
}

int sepax_backend_available(sepax_backend backend) {
    if (backend < 0 || backend >= SEPAX_BACKEND_COUNT) return 0;
    return built(backend) != NULL && cpu_runs(backend);
}

const char *sepax_backend_name(sepax_backend backend) {
    if (backend == SEPAX_BACKEND_AUTO) return "auto";
    if (backend < 0 || backend >= SEPAX_BACKEND_COUNT) return NULL;
    return backend_names[backend];
}

sepax_status sepax_backend_from_name(const char *name, sepax_backend *out) {
    if (!name || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(out, sepax_backend)) return SEPAX_ERR_MISALIGNED;
    if (strcmp(name, "auto") == 0) {
        *out = SEPAX_BACKEND_AUTO;
        return SEPAX_OK;
    }
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        if (strcmp(name, backend_names[b]) == 0) {
            *out = (sepax_backend)b;
            return SEPAX_OK;
        }
    }
    return SEPAX_ERR_BAD_BACKEND;
}

static const sepax_kernel *best_kernel(void) {
    static const sepax_backend order[] = {SEPAX_BACKEND_AVX512, SEPAX_BACKEND_AVX2,
                                          SEPAX_BACKEND_NEON,   SEPAX_BACKEND_SSE41,
                                          SEPAX_BACKEND_SSE2,   SEPAX_BACKEND_SCALAR};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (sepax_backend_available(order[i])) return built(order[i]);
    return &sepax_kernel_scalar;
}

/* NULL until chosen. An unusable SEPAX_BACKEND value is remembered as a
 * status instead, so every query reports it rather than silently running
 * another backend than the one asked for. */
static _Atomic(const sepax_kernel *) active;
static _Atomic int env_error;

/* SEPAX_BACKEND's names for one AVX-512 table whatever the CPU: a Zen 5 laptop part, which
 * runs 512-bit operations as two halves as a Zen 4 does, cannot be told from the family
 * alone, and a benchmark compares the tables on one CPU. Not backends of their own: the
 * backend is avx512 (sepax_get_backend), and sepax_set_backend picks by the CPU. */
static int avx512_table_named(const char *name, const sepax_kernel **table) {
    static const char *const names[] = {"avx512-512", "avx512-256", "avx512-zen5"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i]) != 0) continue;
        *table = NULL; /* a build without the AVX-512 copies: refused as avx512 is */
#ifdef SEPAX_HAVE_AVX512
        static const sepax_kernel *const tables[] = {&sepax_kernel_avx512, &sepax_kernel_avx512_256,
                                                     &sepax_kernel_avx512_256_zen5};
        *table = tables[i];
#endif
        return 1;
    }
    return 0;
}

static const sepax_kernel *choose_from_env(sepax_status *err) {
    const char *env = getenv("SEPAX_BACKEND");
    *err = SEPAX_OK;
    if (!env || !*env) return best_kernel();
    const sepax_kernel *table;
    if (avx512_table_named(env, &table)) {
        if (table && sepax_backend_available(SEPAX_BACKEND_AVX512)) return table;
        *err = SEPAX_ERR_UNSUPPORTED;
        return NULL;
    }
    sepax_backend b;
    if (sepax_backend_from_name(env, &b) != SEPAX_OK) {
        *err = SEPAX_ERR_BAD_BACKEND;
        return NULL;
    }
    if (b == SEPAX_BACKEND_AUTO) return best_kernel();
    if (!sepax_backend_available(b)) {
        *err = SEPAX_ERR_UNSUPPORTED;
        return NULL;
    }
    return built(b);
}

sepax_status sepax_kernel_for_query(const sepax_kernel **out) {
    const sepax_kernel *k = atomic_load_explicit(&active, memory_order_acquire);
    if (k) {
        *out = k;
        return SEPAX_OK;
    }
    int e = atomic_load_explicit(&env_error, memory_order_relaxed);
    if (e) return (sepax_status)e;
    sepax_status err;
    k = choose_from_env(&err);
    if (!k) {
        atomic_store_explicit(&env_error, (int)err, memory_order_relaxed);
        return err;
    }
    const sepax_kernel *expected = NULL;
    if (!atomic_compare_exchange_strong(&active, &expected, k)) k = expected;
    *out = k;
    return SEPAX_OK;
}

sepax_status sepax_set_backend(sepax_backend backend) {
    const sepax_kernel *k;
    if (backend == SEPAX_BACKEND_AUTO) {
        k = best_kernel();
    } else {
        if (backend < 0 || backend >= SEPAX_BACKEND_COUNT) return SEPAX_ERR_BAD_BACKEND;
        if (!sepax_backend_available(backend)) return SEPAX_ERR_UNSUPPORTED;
        k = built(backend);
    }
    atomic_store_explicit(&active, k, memory_order_release);
    atomic_store_explicit(&env_error, 0, memory_order_relaxed);
    return SEPAX_OK;
}

sepax_backend sepax_get_backend(void) {
    const sepax_kernel *k = NULL;
    if (sepax_kernel_for_query(&k) != SEPAX_OK) return SEPAX_BACKEND_AUTO;
    return k->backend;
}
