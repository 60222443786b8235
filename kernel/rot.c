/* A rotation from an angle, the same bits on every platform: no libm trig
 * (whose last bits differ between C libraries), only IEEE double operations
 * in a fixed order, rounded once to float at the end. */
#include <math.h>

#include "sepax.h"

/* pi/2 in three parts (Cody-Waite): k * each part is exact for |k| < 2^20,
 * so the reduced angle keeps full precision for |angle| up to about 1.6e6. */
static const double PIO2_1 = 1.57079632673412561417e+00; /* first 33 bits */
static const double PIO2_2 = 6.07710050650619224932e-11; /* next 33 bits */
static const double PIO2_3 = 2.02226624879595063154e-21; /* the rest */
static const double TWO_OVER_PI = 6.36619772367581382433e-01;

/* Taylor series on [-pi/4, pi/4]; the first omitted terms are below 3e-14,
 * far under float resolution. Horner form: one fixed order of operations. */
static double sin_poly(double r) {
    double r2 = r * r;
    double p = 1.0 / 6227020800.0; /* 1/13! */
    p = p * r2 - 1.0 / 39916800.0; /* 1/11! */
    p = p * r2 + 1.0 / 362880.0;   /* 1/9! */
    p = p * r2 - 1.0 / 5040.0;     /* 1/7! */
    p = p * r2 + 1.0 / 120.0;      /* 1/5! */
    p = p * r2 - 1.0 / 6.0;        /* 1/3! */
    return r + r * r2 * p;
}

static double cos_poly(double r) {
    double r2 = r * r;
    double p = 1.0 / 87178291200.0; /* 1/14! */
    p = p * r2 - 1.0 / 479001600.0; /* 1/12! */
    p = p * r2 + 1.0 / 3628800.0;   /* 1/10! */
    p = p * r2 - 1.0 / 40320.0;     /* 1/8! */
    p = p * r2 + 1.0 / 720.0;       /* 1/6! */
    p = p * r2 - 1.0 / 24.0;        /* 1/4! */
    p = p * r2 + 0.5;               /* 1/2! */
    return 1.0 - r2 * p;
}

sepax_rotation sepax_rot(float angle) {
    sepax_rotation q;
    if (!isfinite(angle) || fabsf(angle) > SEPAX_ROT_LIMIT) {
        q.c = NAN; /* refused by pose validation rather than silently wrong */
        q.s = NAN;
        return q;
    }
    double x = angle;
    double k = floor(x * TWO_OVER_PI + 0.5); /* nearest quadrant; floor is exact */
    double r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_3;
    double s = sin_poly(r), c = cos_poly(r);
    long quadrant = (long)k & 3;
    switch (quadrant) {
    case 0: q.c = (float)c, q.s = (float)s; break;
    case 1: q.c = (float)-s, q.s = (float)c; break;
    case 2: q.c = (float)-c, q.s = (float)-s; break;
    default: q.c = (float)s, q.s = (float)-c; break;
    }
    /* 0 - x keeps a zero component +0, as everywhere in sepax */
    q.c = 0.0f + q.c;
    q.s = 0.0f + q.s;
    return q;
}
