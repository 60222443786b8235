/* Double-precision ground truth for distance queries, written independently
 * of the library so tests can judge its float results against it. */
#ifndef SEPAX_EXACT_H
#define SEPAX_EXACT_H

/* Shapes as the tests see them in double precision: a convex "core" of n
 * points plus a radius r >= 0. n == 1: a point (circle of radius r);
 * n == 2: a segment (capsule); n >= 3 (<= 8): a convex polygon, counter-clockwise. */
typedef struct exact_shape {
    int n;
    double x[8], y[8];
    double r;
} exact_shape;

/* Euclidean distance between the two cores (0 when they touch or intersect,
 * including one containing the other). */
double exact_core_distance(const exact_shape *a, const exact_shape *b);

/* dist(core a, core b) - a->r - b->r: > 0 separated, <= 0 touching/overlapping. */
double exact_gap(const exact_shape *a, const exact_shape *b);

#endif
