/* The lane abstraction the SAT kernel is written against. A step works on
 * SEPAX_P pairs; each pair owns a "slot" of 8 float lanes, one per polygon
 * plane (or vertex), so a value of type `lf` holds 8 * SEPAX_P floats.
 *
 *   lf_load(p0, p1)      slot 0 = p0[0..7], slot 1 = p1[0..7]
 *   lf_bcast(p0, p1)     slot 0 = *p0 in every lane, slot 1 = *p1
 *   lf_add/sub/mul       lane-wise IEEE arithmetic, never fused
 *   lf_min(a, b)         a < b ? a : b   (the operand order of minps)
 *   lf_max(a, b)         a > b ? a : b   (the operand order of maxps)
 *   lf_div/sqrt          lane-wise IEEE division and square root (correctly rounded)
 *   lf_sel_lt(a,b,x,y)   a < b ? x : y, lane-wise
 *   lf_sel_gt(a,b,x,y)   a > b ? x : y, lane-wise
 *   lf_min_nn(a, b), lf_sel_lt_nn(a, b, x, y)
 *                        lf_min and lf_sel_lt for lanes of a and b with the sign bit clear, no
 *                        NaN, and no denormal under DAZ (squared distances), where the bits order
 *                        as the values do: the same results, through integer lanes where that
 *                        spares the float pipes
 *   lf_slot_max(a)       every lane = the maximum of its slot
 *   lf_rows4(p, at, out) lane k (of 8 * SEPAX_P) of out[c] = p[k][at + c], c < 4: four
 *                        floats of 8 * SEPAX_P rows (each 16-byte aligned), transposed
 *   lf_eq_bits(a, b)     bit 8*p + k set when lane k of slot p is equal
 *   lf_le_bits(a, b)     bit 8*p + k set when lane k of slot p of a is <= b's
 *   lf_join16(lo, hi)    lanes of whole numbers in [0, 65536) joined as the bits of the
 *                        32-bit integer lo | hi << 16
 *   lf_put_rows(f, rows) rows[l][c] = lane l of f[c], c < 8, l < 8 * SEPAX_P: eight values
 *                        of each lane as a row (rows 32-byte aligned)
 *   lf_store(a, out)     out[0 .. 8*SEPAX_P-1] = a
 *   lf_store2(a, p0, p1) p0[0..7] = slot 0, p1[0..7] = slot 1 (32-byte aligned)
 *
 * With SEPAX_P == 1 the second pointer of lf_load/lf_bcast/lf_store2 is ignored.
 * Exactly one SEPAX_ISA_* macro is defined by the build for each copy. */
#ifndef SEPAX_LANES_H
#define SEPAX_LANES_H

#include <stddef.h>

/* For the few lane helpers big enough that the compiler would call them out
 * of line (a call per row block, its results through memory). */
#if defined(__GNUC__) || defined(__clang__)
#define LF_INLINE static inline __attribute__((always_inline))
#else
#define LF_INLINE static inline
#endif

#if defined(SEPAX_ISA_SCALAR)
#include "lanes_scalar.h"
#elif defined(SEPAX_ISA_SSE2) || defined(SEPAX_ISA_SSE41)
#include "lanes_sse.h"
#elif defined(SEPAX_ISA_AVX2) || (defined(SEPAX_ISA_AVX512) && defined(SEPAX_LANES_256))
#include "lanes_avx2.h" /* with AVX-512 flags: the same lanes, 32 registers (meson.build) */
#elif defined(SEPAX_ISA_AVX512)
#include "lanes_avx512.h"
#elif defined(SEPAX_ISA_NEON)
#include "lanes_neon.h"
#else
#error "define one SEPAX_ISA_* macro"
#endif

#endif
