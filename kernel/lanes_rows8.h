/* The 8 x 8 transpose behind lf_put_rows, shared by lanes_avx2.h and lanes_avx512.h (which
 * runs it on each 256-bit half): rows[l][f] = lane l of h[f], rows 32-byte aligned. */
#ifndef SEPAX_LANES_ROWS8_H
#define SEPAX_LANES_ROWS8_H

#include <simde/x86/avx.h>

static inline __attribute__((always_inline)) void put_rows8(const simde__m256 h[8],
                                                            float (*rows)[8]) {
    simde__m256 t[8], u[8];
    for (int f = 0; f < 8; f += 2) {
        t[f] = simde_mm256_unpacklo_ps(h[f], h[f + 1]);
        t[f + 1] = simde_mm256_unpackhi_ps(h[f], h[f + 1]);
    }
    for (int g = 0; g < 8; g += 4) {
        u[g] = simde_mm256_shuffle_ps(t[g], t[g + 2], SIMDE_MM_SHUFFLE(1, 0, 1, 0));
        u[g + 1] = simde_mm256_shuffle_ps(t[g], t[g + 2], SIMDE_MM_SHUFFLE(3, 2, 3, 2));
        u[g + 2] = simde_mm256_shuffle_ps(t[g + 1], t[g + 3], SIMDE_MM_SHUFFLE(1, 0, 1, 0));
        u[g + 3] = simde_mm256_shuffle_ps(t[g + 1], t[g + 3], SIMDE_MM_SHUFFLE(3, 2, 3, 2));
    }
    /* u[c] holds fields 0-3 of lanes c and c + 4, u[4 + c] fields 4-7 */
    for (int c = 0; c < 4; c++) {
        simde_mm256_store_ps(rows[c], simde_mm256_permute2f128_ps(u[c], u[4 + c], 0x20));
        simde_mm256_store_ps(rows[c + 4], simde_mm256_permute2f128_ps(u[c], u[4 + c], 0x31));
    }
}

#endif
