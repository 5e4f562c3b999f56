/* test_steps.c - step detection on latency-versus-footprint curves: the
 * recorded/synthetic fixtures in tests/data/gpupeak, generated staircases
 * with noise, and the near/far split and line-size readers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A set-associative LRU cache of sets x ways lines of 128 B; hash != 0
 * XOR-folds the upper line-address bits into the set index.  Returns the
 * miss rate of the second pass of a cyclic chase over m lines at stride. */
static double gpk_t_cache_missrate(int sets, int ways, int hash, double stride, int m)
{
    static long tag[4096][32];
    static int age[4096][32];
    int misses = 0, clock = 0;
    for (int s = 0; s < sets; s++)
        for (int w = 0; w < ways; w++)
            tag[s][w] = -1, age[s][w] = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < m; k++) {
            long line = (long)(k * stride) / 128;
            long idx = hash ? (line ^ (line / sets) ^ (line / sets / sets)) : line;
            int s = (int)(idx % sets), hit = -1, old = 0;
            for (int w = 0; w < ways; w++)
                if (tag[s][w] == line)
                    hit = w;
            if (hit < 0) {
                for (int w = 1; w < ways; w++)
                    if (age[s][w] < age[s][old])
                        old = w;
                tag[s][old] = line;
                hit = old;
                misses += pass;
            }
            age[s][hit] = ++clock;
        }
    return (double)misses / m;
}

static int gpk_t_assoc(int sets, int ways, int hash, const double *strides, int ns,
                       gpk_assoc *out, unsigned seed)
{
    double lines[64], lat[8 * 64];
    for (int k = 0; k < 64; k++)
        lines[k] = k + 2;
    for (int i = 0; i < ns; i++)
        for (int k = 0; k < 64; k++)
            lat[i * 64 + k] = 39 + 250 * gpk_t_cache_missrate(sets, ways, hash, strides[i],
                                                              (int)lines[k]) +
                              2 * gpk_t_noise(&seed);
    return gpk_assoc_find(strides, ns, lines, 64, lat, 0.15, 8, out);
}

static void test_assoc(void)
{
    const double st[6] = {8 * KB, 16 * KB, 32 * KB, 64 * KB, 128 * KB, 256 * KB};
    gpk_assoc a;
    /* 4 ways x 512 sets x 128 B = 256 KB, way 64 KB: misses begin after
     * 32, 16, 8 lines at 8, 16, 32 KB and after 4 from 64 KB up */
    GP_CHECK(gpk_t_assoc(512, 4, 0, st, 6, &a, 1) == 1);
    GP_CHECK_NEAR(a.ways, 4, 0);
    GP_CHECK_NEAR(a.way_bytes, 64 * KB, 0);
    GP_CHECK_NEAR(a.held[0], 32, 0);
    GP_CHECK_NEAR(a.held[1], 16, 0);
    GP_CHECK_NEAR(a.held[2], 8, 0);
    GP_CHECK(a.why[0] == 0);
    /* 6 ways (not a power of two) x 256 sets: way 32 KB, 192 KB */
    GP_CHECK(gpk_t_assoc(256, 6, 0, st, 6, &a, 2) == 1);
    GP_CHECK_NEAR(a.ways, 6, 0);
    GP_CHECK_NEAR(a.way_bytes, 32 * KB, 0);
    GP_CHECK_NEAR(a.held[0], 24, 0);
    /* 16 ways x 128 sets: way 16 KB */
    GP_CHECK(gpk_t_assoc(128, 16, 0, st, 6, &a, 3) == 1);
    GP_CHECK_NEAR(a.ways, 16, 0);
    GP_CHECK_NEAR(a.way_bytes, 16 * KB, 0);
    /* hashed set index: the lines spread over sets, no conflict step, and
     * the detector must say so instead of inventing ways */
    GP_CHECK(gpk_t_assoc(512, 4, 1, st, 6, &a, 4) == 0);
    GP_CHECK(isnan(a.ways) && isnan(a.way_bytes));
    GP_CHECK(strstr(a.why, "no conflict") != NULL);
    /* strides below the way size only: the step moves with the stride */
    GP_CHECK(gpk_t_assoc(512, 4, 0, st, 3, &a, 5) == 0);
    GP_CHECK(isnan(a.ways));
    GP_CHECK(strstr(a.why, "no fixed set") != NULL);
    /* flat curves (everything hits) */
    {
        double lines[64], lat[2 * 64];
        for (int k = 0; k < 64; k++)
            lines[k] = k + 2, lat[k] = lat[64 + k] = 40;
        GP_CHECK(gpk_assoc_find(st, 2, lines, 64, lat, 0.15, 8, &a) == 0);
        GP_CHECK(isnan(a.ways));
        /* bad input: strides not ascending */
        const double bad[2] = {64 * KB, 32 * KB};
        GP_CHECK(gpk_assoc_find(bad, 2, lines, 64, lat, 0.15, 8, &a) == -1);
    }
}

int main(void)
{
    test_assoc();
    test_fixture();
    test_recorded();
    test_generated();
    test_clusters();
    return gp_test_finish("gpupeak-steps");
}
