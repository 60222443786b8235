/* sepax_rot's constants, shared by rot.c (one angle) and rot_kernel.c (a batch, per ISA),
 * which compute the same IEEE double operations in the same order. */
#ifndef SEPAX_ROT_POLY_H
#define SEPAX_ROT_POLY_H

/* pi/2 in three parts (Cody-Waite): k * each part is exact for |k| < 2^20,
 * so the reduced angle keeps full precision for |angle| up to about 1.6e6. */
#define ROT_PIO2_1 1.57079632673412561417e+00 /* first 33 bits */
#define ROT_PIO2_2 6.07710050650619224932e-11 /* next 33 bits */
#define ROT_PIO2_3 2.02226624879595063154e-21 /* the rest */
#define ROT_TWO_OVER_PI 6.36619772367581382433e-01

/* Taylor series on [-pi/4, pi/4]; the first omitted terms are below 3e-14, far under float
 * resolution. Horner form, highest term first: sin r = r + r * r2 * p(r2), cos r =
 * 1 - r2 * p(r2), each step p = p * r2 -/+ the next coefficient. */
#define ROT_SIN_13 (1.0 / 6227020800.0)  /* 1/13! */
#define ROT_SIN_11 (1.0 / 39916800.0)    /* 1/11!, subtracted */
#define ROT_SIN_9 (1.0 / 362880.0)       /* 1/9!, added */
#define ROT_SIN_7 (1.0 / 5040.0)         /* 1/7!, subtracted */
#define ROT_SIN_5 (1.0 / 120.0)          /* 1/5!, added */
#define ROT_SIN_3 (1.0 / 6.0)            /* 1/3!, subtracted */
#define ROT_COS_14 (1.0 / 87178291200.0) /* 1/14! */
#define ROT_COS_12 (1.0 / 479001600.0)   /* 1/12!, subtracted */
#define ROT_COS_10 (1.0 / 3628800.0)     /* 1/10!, added */
#define ROT_COS_8 (1.0 / 40320.0)        /* 1/8!, subtracted */
#define ROT_COS_6 (1.0 / 720.0)          /* 1/6!, added */
#define ROT_COS_4 (1.0 / 24.0)           /* 1/4!, subtracted */
#define ROT_COS_2 0.5                    /* 1/2!, added */

#endif
