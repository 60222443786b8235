/* Known-answer checks for the double-precision ground truth, so a wrong
 * expectation in the real tests cannot hide behind a wrong oracle. */
#include <math.h>
#include <stdio.h>

#include "exact.h"

static int failures;

static exact_shape point(double x, double y, double r) {
    exact_shape s = {1, {x}, {y}, r};
    return s;
}

static exact_shape segment(double x0, double y0, double x1, double y1, double r) {
    exact_shape s = {2, {x0, x1}, {y0, y1}, r};
    return s;
}

static exact_shape box(double x0, double y0, double x1, double y1) {
    exact_shape s = {4, {x0, x1, x1, x0}, {y0, y0, y1, y1}, 0};
    return s;
}

/* Both argument orders, since the oracle must not depend on which shape is first. */
static void expect(const char *name, exact_shape a, exact_shape b, double want) {
    double ab = exact_gap(&a, &b), ba = exact_gap(&b, &a);
    int ok = fabs(ab - want) <= 1e-12 && fabs(ba - want) <= 1e-12;
    printf("%s %-34s gap %.17g (want %.17g)\n", ok ? "ok  " : "FAIL", name, ab, want);
    if (!ok) failures++;
}

int main(void) {
    exact_shape tri = {3, {0, 4, 0}, {0, 0, 3}, 0};
    expect("squares apart along x", box(0, 0, 1, 1), box(2, 0, 3, 1), 1);
    expect("squares diagonal corners", box(0, 0, 1, 1), box(2, 2, 3, 3), sqrt(2));
    expect("squares sharing an edge", box(0, 0, 1, 1), box(1, 0, 2, 1), 0);
    expect("square inside square", box(0, 0, 10, 10), box(4, 4, 5, 5), 0);
    expect("square contains point", box(0, 0, 1, 1), point(0.5, 0.5, 0), 0);
    expect("point on square edge", box(0, 0, 1, 1), point(1, 0.5, 0), 0);
    expect("circle-circle", point(0, 0, 1), point(3, 4, 2), 2);
    expect("circle-circle overlapping", point(0, 0, 1), point(1, 0, 1), -1);
    expect("segment crossing square", segment(-1, 0.5, 2, 0.5, 0), box(0, 0, 1, 1), 0);
    expect("parallel segments", segment(0, 0, 2, 0, 0), segment(1, 1, 3, 1, 0), 1);
    expect("collinear segments apart", segment(0, 0, 1, 0, 0), segment(3, 0, 5, 0, 0), 2);
    expect("collinear segments overlapping", segment(0, 0, 2, 0, 0), segment(1, 0, 3, 0, 0), 0);
    expect("crossing segments", segment(0, 0, 2, 2, 0), segment(0, 2, 2, 0, 0), 0);
    expect("segment end to edge interior", segment(1, 3, 4, 6, 0), box(0, 0, 2, 2), 1);
    expect("point near triangle vertex", tri, point(5, -1, 0), sqrt(2));
    expect("point near triangle hypotenuse", tri, point(4, 3, 0), 12.0 / 5);
    expect("thin rotated capsule apart", segment(3, 0, 0, 3, 0.1), box(0, 0, 1, 1),
           sqrt(0.5) - 0.1);
    expect("thin rotated capsule overlapping", segment(2.2, 0, 0, 2.2, 0.2), box(0, 0, 1, 1),
           0.2 / sqrt(2) - 0.2);
    if (failures) printf("%d failed\n", failures);
    return failures != 0;
}
