/* Every kernel copy the test programs link: the library's own, and on x86
 * the test-only copies built through SIMDe emulation (AVX-512 lanes without
 * -mavx512f, and its copy at 256 bits; NEON lanes on x86, AVX2 lanes with
 * SIMDE_NO_NATIVE). */
#include "check.h"

#ifdef SEPAX_TEST_EMULATED
extern const sepax_kernel sepax_kernel_avx512_emulated;
extern const sepax_kernel sepax_kernel_avx512_256_emulated;
extern const sepax_kernel sepax_kernel_avx512_256_emulated_zen5;
extern const sepax_kernel sepax_kernel_neon_emulated;
extern const sepax_kernel sepax_kernel_avx2_portable;
#endif

/* runnable: -1 means "always" (emulated); the rest are resolved from the CPU */
static test_kernel list[] = {
    {"scalar", &sepax_kernel_scalar, 0},
#ifdef SEPAX_HAVE_SSE2
    {"sse2", &sepax_kernel_sse2, 0},
#endif
#ifdef SEPAX_HAVE_SSE41
    {"sse41", &sepax_kernel_sse41, 0},
#endif
#ifdef SEPAX_HAVE_AVX2
    {"avx2", &sepax_kernel_avx2, 0},
#endif
#ifdef SEPAX_HAVE_AVX512
    {"avx512", &sepax_kernel_avx512, 0},
    {"avx512_256", &sepax_kernel_avx512_256, 0},
    {"avx512_256_zen5", &sepax_kernel_avx512_256_zen5, 0},
#endif
#ifdef SEPAX_HAVE_NEON
    {"neon", &sepax_kernel_neon, 0},
#endif
#ifdef SEPAX_TEST_EMULATED
    {"avx512_emulated", &sepax_kernel_avx512_emulated, -1},
    {"avx512_256_emulated", &sepax_kernel_avx512_256_emulated, -1},
    {"avx512_256_emulated_zen5", &sepax_kernel_avx512_256_emulated_zen5, -1},
    {"neon_emulated", &sepax_kernel_neon_emulated, -1},
    {"avx2_portable", &sepax_kernel_avx2_portable, -1},
#endif
};

int test_kernel_count(void) { return (int)(sizeof list / sizeof list[0]); }

const test_kernel *test_kernel_at(int i) {
    test_kernel *t = &list[i];
    if (t->runnable <= 0) t->runnable = t->runnable < 0 || sepax_backend_available(t->k->backend);
    return t;
}
