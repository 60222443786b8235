/* sepax_rot: correctly rounded (within half a float ulp) against double-precision libm, a unit
 * rotation, and defined at the edges of its domain. Its bits on other
 * platforms are checked by the determinism hash. sepax_rot_many's bad-input rows (that every
 * kernel copy gives sepax_rot's bits: check_rot_kernel, run by test_equivalence and
 * sepax-equiv). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sepax.h"

static double ulps(float got, double want) {
    double scale = fabs(want) > 1e-30 ? fabs(want) : 1e-30;
    return fabs((double)got - want) / ldexp(1.0, ilogb(scale) - 23);
}

Test(rot, within_half_an_ulp_of_libm) {
    double worst = 0;
    for (int i = 0; i < 1000000; i++) {
        float a = (float)((double)(i - 500000) * 0.0123457);
        if (i % 4 == 0) a = (float)(i - 500000) * 2.0f; /* large angles up to 1e6 */
        sepax_rotation q = sepax_rot(a);
        double e = fmax(ulps(q.c, cos((double)a)), ulps(q.s, sin((double)a)));
        worst = fmax(worst, e);
        /* half an ulp, and a hair for libm's own error: the README's claim */
        cr_assert(e <= 0.5 + 1e-6, "angle %.9g: (%.9g, %.9g) is %.7f ulp off", a, q.c, q.s, e);
        double n = (double)q.c * q.c + (double)q.s * q.s;
        cr_assert(fabs(n - 1.0) < 2.5e-7, "angle %.9g: not unit (%g)", a, n);
    }
    cr_log_info("sepax_rot worst error over 1M angles: %.3f ulp", worst);
}

Test(rot, exact_cases_and_domain) {
    sepax_rotation z = sepax_rot(0.0f);
    cr_expect(z.c == 1.0f && z.s == 0.0f && !signbit(z.s));
    sepax_rotation m = sepax_rot(-0.0f);
    cr_expect(m.c == 1.0f && m.s == 0.0f);
    cr_expect(isnan(sepax_rot(NAN).c) && isnan(sepax_rot(INFINITY).s));
    cr_expect(isnan(sepax_rot(SEPAX_ROT_LIMIT * 2).c));
    cr_expect(!isnan(sepax_rot(SEPAX_ROT_LIMIT).c));
    sepax_rotation r = sepax_rot(1.0f);
    sepax_rotation l = sepax_rot(-1.0f);
    cr_expect(r.c == l.c && r.s == -l.s, "odd sine, even cosine");
}

Test(rot, many_bad_input) {
    float a[6] = {0.5f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
    _Alignas(8) sepax_rotation out[6];
    const sepax_rotation fill = {7.0f, 7.0f};
    for (int i = 0; i < 6; i++) out[i] = fill;
    cr_expect_eq(sepax_rot_many(NULL, 0, NULL), SEPAX_OK, "n 0, nothing read");
    cr_expect_eq(sepax_rot_many(a, 0, out), SEPAX_OK);
    cr_expect_eq(sepax_rot_many(NULL, 2, out), SEPAX_ERR_NULL);
    cr_expect_eq(sepax_rot_many(a, 2, NULL), SEPAX_ERR_NULL);
    cr_expect_eq(sepax_rot_many((const float *)(const void *)((const char *)a + 1), 2, out),
                 SEPAX_ERR_MISALIGNED);
    cr_expect_eq(sepax_rot_many(a, 2, (sepax_rotation *)(void *)((char *)out + 2)),
                 SEPAX_ERR_MISALIGNED);
    cr_expect_eq(sepax_rot_many(a, SIZE_MAX / 4, out), SEPAX_ERR_COUNT, "not read");
    for (int i = 0; i < 6; i++)
        cr_assert(out[i].c == 7.0f && out[i].s == 7.0f, "a refused call wrote out[%d]", i);
    cr_assert_eq(sepax_rot_many(a, 5, out), SEPAX_OK);
    for (int i = 0; i < 5; i++) {
        sepax_rotation w = sepax_rot(a[i]);
        cr_assert(memcmp(&out[i], &w, sizeof w) == 0, "out[%d]", i);
    }
    cr_assert(out[5].c == 7.0f, "out[5] past n untouched");
    /* an angle sepax_rot refuses is {NaN, NaN} here too, which set_poses refuses */
    float bad[2] = {NAN, 2e6f};
    cr_assert_eq(sepax_rot_many(bad, 2, out), SEPAX_OK);
    cr_expect(isnan(out[0].c) && isnan(out[0].s) && isnan(out[1].c) && isnan(out[1].s));
}
