/* test_steps.c - step detection on latency-versus-footprint curves: the
 * recorded/synthetic fixtures in tests/data/gpupeak, generated staircases
 * with noise, and the near/far split and line-size readers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gp_test.h"
#include "gpk_steps.h"

#define KB 1024.0
#define MB (1024.0 * 1024.0)

/* deterministic noise in [-1, 1] */
static double gpk_t_noise(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return ((*s >> 8) & 0xffff) / 32767.5 - 1.0;
}

static void test_fixture(void)
{
    double x[64], y[64], last = 0;
    gpk_step st[4];
    const char *path = GPK_DATA_DIR "/synthetic-h100.csv";
    int n = gpk_curve_read(path, "l1_footprint", x, y, 64);
    GP_CHECK_MSG(n == 18, "read %d points from %s", n, path);
    int k = gpk_steps_find(x, y, n, 0.15, 8, st, 4, &last);
    GP_CHECK(k == 1);
    if (k >= 1) {
        GP_CHECK_NEAR(st[0].size_below, 224 * KB, 1e-9);
        GP_CHECK_NEAR(st[0].size_above, 256 * KB, 1e-9);
        GP_CHECK_NEAR(st[0].lat_below, 33.0, 0.01);
        GP_CHECK_NEAR(st[0].lat_above, 266.5, 0.01); /* median of 255..272 */
    }
    GP_CHECK_NEAR(last, 266.5, 0.01);

    n = gpk_curve_read(path, "l2_footprint", x, y, 64);
    GP_CHECK(n == 17);
    k = gpk_steps_find(x, y, n, 0.15, 8, st, 4, &last);
    GP_CHECK_MSG(k == 1, "l2 steps %d (the 16 MB spike must not count)", k);
    if (k >= 1) {
        GP_CHECK_NEAR(st[0].size_below, 40 * MB, 1e-9);
        GP_CHECK_NEAR(st[0].size_above, 64 * MB, 1e-9);
        GP_CHECK(st[0].lat_below > 280 && st[0].lat_below < 290);
        GP_CHECK(st[0].lat_above > 640 && st[0].lat_above < 666);
    }
    n = gpk_curve_read(path, "l1_stride", x, y, 64);
    GP_CHECK(n == 8);
    GP_CHECK_NEAR(gpk_saturation(x, y, n, 0.9, 0.1), 32, 1e-9);
    /* all series together: the first 18 are the l1 curve */
    GP_CHECK(gpk_curve_read(path, NULL, x, y, 64) == 18 + 17 + 8);
    GP_CHECK(gpk_curve_read(GPK_DATA_DIR "/no-such-file.csv", NULL, x, y, 64) == -1);
}

/* Recorded on the device (tests/data/gpupeak/recorded-*.csv), when present:
 * the L1 step must lie where Hopper's L1 can be (up to 256 KB with no shared
 * memory carved out) and the L2 step between 8 MB and 128 MB. */
static void test_recorded(void)
{
    double x[64], y[64], last;
    gpk_step st[4];
    const char *path = GPK_DATA_DIR "/recorded-h200.csv";
    int n = gpk_curve_read(path, "l1_footprint", x, y, 64);
    if (n < 0) {
        gp_test_skip("recorded curves", "no tests/data/gpupeak/recorded-h200.csv");
        return;
    }
    int k = gpk_steps_find(x, y, n, 0.15, 8, st, 4, &last);
    GP_CHECK(k >= 1);
    if (k >= 1) {
        GP_CHECK_MSG(st[0].size_below >= 64 * KB && st[0].size_below <= 256 * KB,
                     "L1 step at %.0f", st[0].size_below);
        GP_CHECK(st[0].lat_below > 20 && st[0].lat_below < 60);
    }
    n = gpk_curve_read(path, "l2_footprint", x, y, 64);
    k = gpk_steps_find(x, y, n, 0.15, 8, st, 4, &last);
    /* H200: near-partition hits to 24 MB, far-partition hits to 56 MB, DRAM */
    GP_CHECK_MSG(k == 2, "%d L2 steps", k);
    if (k == 2) {
        GP_CHECK_MSG(st[0].size_below >= 8 * MB && st[0].size_below <= 40 * MB,
                     "near step at %.0f", st[0].size_below);
        GP_CHECK_MSG(st[1].size_below >= 40 * MB && st[1].size_below <= 128 * MB,
                     "far step at %.0f", st[1].size_below);
        GP_CHECK(st[0].lat_below > 200 && st[0].lat_below < 350);
        GP_CHECK(st[1].lat_below > st[0].lat_below * 1.4);
        GP_CHECK(last > st[1].lat_below * 1.15);
    }
    /* TLB: with a 2 MB stride to 16 GB this GPU showed no step at all */
    n = gpk_curve_read(path, "tlb_footprint", x, y, 64);
    GP_CHECK(n > 10 && gpk_steps_find(x, y, n, 0.15, 8, st, 4, &last) == 0);
    n = gpk_curve_read(path, "l1_stride", x, y, 64);
    GP_CHECK_NEAR(gpk_saturation(x, y, n, 0.9, 0.1), 32, 1e-9);
}

/* Generated three-level staircases with +-3% noise: both steps at the right
 * footprints for every seed. */
static void test_generated(void)
{
    double x[40], y[40];
    gpk_step st[4];
    int ok = 0;
    for (unsigned seed = 1; seed <= 50; seed++) {
        unsigned s = seed;
        int n = 0;
        for (double f = 1 * KB; f <= 512 * MB && n < 40; f *= 2, n++) {
            double base = f <= 64 * KB ? 30 : (f <= 16 * MB ? 200 : 500);
            x[n] = f;
            y[n] = base * (1 + 0.03 * gpk_t_noise(&s));
        }
        double last;
        int k = gpk_steps_find(x, y, n, 0.15, 8, st, 4, &last);
        if (k == 2 && st[0].size_below == 64 * KB && st[0].size_above == 128 * KB &&
            st[1].size_below == 16 * MB && st[1].size_above == 32 * MB &&
            fabs(last - 500) < 20 && fabs(st[0].lat_below - 30) < 1.5)
            ok++;
    }
    GP_CHECK_MSG(ok == 50, "%d of 50 noisy staircases read right", ok);

    /* a flat noisy curve has no step */
    unsigned s = 7;
    for (int i = 0; i < 20; i++) {
        x[i] = 1024.0 * (i + 1);
        y[i] = 100 * (1 + 0.05 * gpk_t_noise(&s));
    }
    GP_CHECK(gpk_steps_find(x, y, 20, 0.15, 8, st, 4, NULL) == 0);
    /* a rise under abs_min cycles is not a step, even if large in relation */
    for (int i = 0; i < 20; i++)
        y[i] = i < 10 ? 2 : 5;
    GP_CHECK(gpk_steps_find(x, y, 20, 0.15, 8, st, 4, NULL) == 0);
    GP_CHECK(gpk_steps_find(x, y, 20, 0.15, 1, st, 4, NULL) == 1);
    /* bad input */
    x[3] = x[2];
    GP_CHECK(gpk_steps_find(x, y, 20, 0.15, 8, st, 4, NULL) == -1);
    x[3] = x[2] + 1;
    y[5] = NAN;
    GP_CHECK(gpk_steps_find(x, y, 20, 0.15, 8, st, 4, NULL) == -1);
    GP_CHECK(gpk_steps_find(x, y, 1, 0.15, 8, st, 4, NULL) == -1);
}

static void test_clusters(void)
{
    double v[1500], lo, hi, frac;
    unsigned s = 3;
    for (int i = 0; i < 1500; i++)
        v[i] = (i % 3 == 2 ? 520 : 270) + 5 * gpk_t_noise(&s);
    GP_CHECK(gpk_two_clusters(v, 1500, 0.2, &lo, &hi, &frac) == 1);
    GP_CHECK_NEAR(lo, 270, 0.01);
    GP_CHECK_NEAR(hi, 520, 0.01);
    GP_CHECK_NEAR(frac, 1.0 / 3, 1e-9);
    for (int i = 0; i < 1500; i++)
        v[i] = 300 + 10 * gpk_t_noise(&s);
    GP_CHECK(gpk_two_clusters(v, 1500, 0.2, &lo, &hi, &frac) == 0);
    GP_CHECK_NEAR(lo, 300, 0.02);
    GP_CHECK(lo == hi && frac == 0);
    /* saturation: flat curve has none */
    double x[4] = {4, 8, 16, 32}, y[4] = {100, 101, 100, 102};
    GP_CHECK(isnan(gpk_saturation(x, y, 4, 0.9, 0.1)));
}

int main(void)
{
    test_fixture();
    test_recorded();
    test_generated();
    test_clusters();
    return gp_test_finish("gpupeak-steps");
}
