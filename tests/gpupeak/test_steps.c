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

/* Two cache levels with LRU and a plain set index (line address mod sets),
 * as Wong et al. found the constant caches: level 1 of s1 sets x w1 ways of
 * l1-byte lines, then level 2 of s2 x w2 of l2 B (s2 = 0: level 2 holds
 * everything); hash != 0 XOR-folds level 1's upper line bits into its
 * index.  Returns the mean latency of the timed pass of the device's
 * constant chase over m lines at stride (max(4096, m) loads to warm, as
 * many timed): 34 cycles a level-1 hit, 104 a level-2 hit, 300 beyond. */
static double gpk_t_two_level(int s1, int w1, int l1, int s2, int w2, int l2, int hash,
                              double stride, int m)
{
    static long tag1[64][64], age1[64][64], tag2[512][16], age2[512][16];
    const long n = m < 4096 ? 4096 : m;
    long clock = 0;
    double sum = 0;
    for (int s = 0; s < 64; s++)
        for (int w = 0; w < 64; w++)
            tag1[s][w] = -1, age1[s][w] = 0;
    for (int s = 0; s < 512; s++)
        for (int w = 0; w < 16; w++)
            tag2[s][w] = -1, age2[s][w] = 0;
    for (int pass = 0; pass < 2; pass++)
        for (long i = 0; i < n; i++) {
            const long addr = (long)(((pass * n + i) % m) * stride);
            const long a1 = addr / l1, a2 = addr / l2;
            const int i1 = (int)((hash ? a1 ^ (a1 / s1) ^ (a1 / s1 / s1) : a1) % s1);
            int h = -1, v = 0;
            double t = 34;
            clock++;
            for (int w = 0; w < w1; w++)
                if (tag1[i1][w] == a1)
                    h = w;
            if (h < 0) {
                t = 104;
                if (s2 > 0) {
                    const int i2 = (int)(a2 % s2);
                    int h2 = -1, v2 = 0;
                    for (int w = 0; w < w2; w++)
                        if (tag2[i2][w] == a2)
                            h2 = w;
                    if (h2 < 0) {
                        t = 300;
                        for (int w = 1; w < w2; w++)
                            if (age2[i2][w] < age2[i2][v2])
                                v2 = w;
                        tag2[i2][v2] = a2;
                        h2 = v2;
                    }
                    age2[i2][h2] = clock;
                }
                for (int w = 1; w < w1; w++)
                    if (age1[i1][w] < age1[i1][v])
                        v = w;
                tag1[i1][v] = a1;
                h = v;
            }
            age1[i1][h] = clock;
            sum += pass * t;
        }
    return sum / n;
}

/* The constant-memory strided test as gpupeak runs it: strides 64 B-16 KB,
 * m = 1..64 lines, m x stride <= 64 KB (NaN beyond), +-1 cycle of noise. */
static const double gpk_t_cstrides[9] = {64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
static void gpk_t_const_rows(int s1, int w1, int l1, int s2, int w2, int l2, int hash,
                             double *lines, double *lat)
{
    unsigned seed = (unsigned)(s1 * 7 + w1 * 131 + s2 * 17 + hash);
    for (int k = 0; k < 64; k++)
        lines[k] = k + 1;
    for (int i = 0; i < 9; i++)
        for (int k = 0; k < 64; k++)
            lat[i * 64 + k] = gpk_t_cstrides[i] * lines[k] > 65536
                                  ? NAN
                                  : gpk_t_two_level(s1, w1, l1, s2, w2, l2, hash,
                                                    gpk_t_cstrides[i], (int)lines[k]) +
                                        gpk_t_noise(&seed);
}

static void test_assoc_const(void)
{
    static double lines[64], lat[9 * 64];
    gpk_assoc a;
    /* 2 KB, 4 ways of 8 sets of 64 B lines (way 512 B), then a 128 KB L1.5
     * that 64 KB never fills: misses begin after 32, 16, 8 lines at 64,
     * 128, 256 B and after 4 from 512 B up; the 16 KB row (4 lines) shows
     * no climb and is left out */
    gpk_t_const_rows(8, 4, 64, 128, 4, 256, 0, lines, lat);
    GP_CHECK(isnan(lat[8 * 64 + 4]) && !isnan(lat[8 * 64 + 3])); /* 16 KB: m <= 4 */
    GP_CHECK_MSG(gpk_assoc_find(gpk_t_cstrides, 9, lines, 64, lat, 0.15, 8, &a) == 1,
                 "const L1: %s", a.why);
    GP_CHECK_NEAR(a.ways, 4, 0);
    GP_CHECK_NEAR(a.way_bytes, 512, 0);
    GP_CHECK_NEAR(a.ways * a.way_bytes, 2048, 0);
    GP_CHECK_NEAR(a.held[0], 32, 0);
    GP_CHECK_NEAR(a.held[1], 16, 0);
    GP_CHECK_NEAR(a.held[2], 8, 0);
    GP_CHECK_NEAR(a.held[7], 4, 0);
    GP_CHECK(isnan(a.held[8]) && !a.resolved[8] && a.tried[8] == 4 && a.tried[5] == 32);
    GP_CHECK(fabs(a.lat_hit - 34) < 2 && fabs(a.lat_miss - 104) < 2);
    /* its L1.5 (past 104 cycles) never misses inside 64 KB: null */
    GP_CHECK(gpk_assoc_find_at(gpk_t_cstrides, 9, lines, 64, lat, 0.15, 8, 104, &a) == 0);
    GP_CHECK(isnan(a.ways) && isnan(a.way_bytes));
    GP_CHECK_MSG(strstr(a.why, "no conflict") != NULL, "%s", a.why);

    /* an L1.5 of 8 KB, 4 ways of 8 sets of 256 B (way 2 KB): read from the
     * climbs past 104 cycles; from 2 KB up both levels miss from the 5th
     * line on, one climb from 34 to 300 cycles, which counts for both */
    gpk_t_const_rows(8, 4, 64, 8, 4, 256, 0, lines, lat);
    GP_CHECK(gpk_assoc_find(gpk_t_cstrides, 9, lines, 64, lat, 0.15, 8, &a) == 1);
    GP_CHECK(a.ways == 4 && a.way_bytes == 512);
    GP_CHECK_MSG(gpk_assoc_find_at(gpk_t_cstrides, 9, lines, 64, lat, 0.15, 8, 104, &a) == 1,
                 "L1.5: %s", a.why);
    GP_CHECK_NEAR(a.ways, 4, 0);
    GP_CHECK_NEAR(a.way_bytes, 2048, 0);
    GP_CHECK_NEAR(a.held[2], 32, 0); /* 256 B: 8 KB */
    GP_CHECK_NEAR(a.held[4], 8, 0);  /* 1 KB: two sets */
    GP_CHECK(isnan(a.held[0]) && a.resolved[0]); /* 64 B x 64 = 4 KB: no miss */
    GP_CHECK(fabs(a.lat_miss - 300) < 3);

    /* 8 ways of 4 sets (way 256 B), same 2 KB: 8 ways */
    gpk_t_const_rows(4, 8, 64, 0, 0, 0, 0, lines, lat);
    GP_CHECK(gpk_assoc_find(gpk_t_cstrides, 9, lines, 64, lat, 0.15, 8, &a) == 1 &&
             a.ways == 8 && a.way_bytes == 256);

    /* must give null: a hashed index spreads every stride over all sets,
     * so misses begin at the capacity (32 lines) at every stride, which a
     * fully associative cache would show too */
    gpk_t_const_rows(8, 4, 64, 0, 0, 0, 1, lines, lat);
    GP_CHECK(gpk_assoc_find(gpk_t_cstrides, 9, lines, 64, lat, 0.15, 8, &a) == 0);
    GP_CHECK(isnan(a.ways) && isnan(a.way_bytes));
    GP_CHECK_MSG(strstr(a.why, "every stride") != NULL, "hashed: %s", a.why);
    /* and a fully associative 2 KB cache (1 set of 32 ways) alike */
    gpk_t_const_rows(1, 32, 64, 0, 0, 0, 0, lines, lat);
    GP_CHECK(gpk_assoc_find(gpk_t_cstrides, 9, lines, 64, lat, 0.15, 8, &a) == 0 &&
             isnan(a.ways));

    /* a shortened row past the way size that holds more than the ways */
    {
        static double l2[64], t[3 * 64];
        const double st[3] = {512, 1024, 2048};
        for (int k = 0; k < 64; k++) {
            l2[k] = k + 1;
            t[k] = t[64 + k] = k < 4 ? 34 : 104; /* 4 ways at 512 and 1 KB */
            t[128 + k] = k < 16 ? 34 : NAN;      /* 16 lines and no miss at 2 KB */
        }
        GP_CHECK(gpk_assoc_find(st, 3, l2, 64, t, 0.15, 8, &a) == 0);
        GP_CHECK_MSG(strstr(a.why, "none up to 16") != NULL, "%s", a.why);
        /* with 5 lines at 2 KB that row is left out (4 ways need 6 to show),
         * and the two rows left agree with no smaller stride to compare */
        for (int k = 5; k < 16; k++)
            t[128 + k] = NAN;
        GP_CHECK(gpk_assoc_find(st, 3, l2, 64, t, 0.15, 8, &a) == 0);
        GP_CHECK_MSG(strstr(a.why, "every stride") != NULL, "%s", a.why);
        /* bad input: a gap inside a row, or a row of one point */
        t[128 + 2] = NAN;
        GP_CHECK(gpk_assoc_find(st, 3, l2, 64, t, 0.15, 8, &a) == -1);
        for (int k = 1; k < 64; k++)
            t[128 + k] = NAN;
        GP_CHECK(gpk_assoc_find(st, 3, l2, 64, t, 0.15, 8, &a) == -1);
    }
}

/* The H200's constant caches of device run 7: a 2 KB first level (28
 * cycles) of 4 ways of 512 B with 64 B lines, LRU and a plain index (at a
 * 64 B stride the 33rd line overflows one set of 8, the 40th all of them),
 * then 98 cycles to 64 KB, where nothing misses again. */
static void test_const_recorded(void)
{
    static double lines[64], lat[9 * 64], x[64], y[64];
    const char *path = GPK_DATA_DIR "/recorded-h200-run7-const.csv";
    gpk_assoc a;
    gpk_step st[4];
    double last;
    int n = gpk_curve_read(path, "const_footprint", x, y, 64);
    if (n < 0) {
        gp_test_skip("recorded constant caches",
                     "no tests/data/gpupeak/recorded-h200-run7-const.csv");
        return;
    }
    GP_CHECK(n == 15 && gpk_steps_find(x, y, n, 0.15, 8, st, 4, &last) == 1);
    GP_CHECK(st[0].size_below == 2048 && st[0].size_above == 3072);
    GP_CHECK(fabs(st[0].lat_below - 28) < 1 && fabs(last - 98) < 1);
    n = gpk_curve_read(path, "const_stride", x, y, 64);
    GP_CHECK(n == 8 && gpk_saturation(x, y, n, 0.9, 0.1) == 64);
    for (int k = 0; k < 64; k++)
        lines[k] = k + 1;
    for (int i = 0; i < 9; i++) {
        char name[64];
        snprintf(name, sizeof name, "const_l1_assoc_%.0f", gpk_t_cstrides[i]);
        n = gpk_curve_read(path, name, x, y, 64);
        GP_CHECK_MSG(n == (int)fmin(64, 65536 / gpk_t_cstrides[i]), "%s: %d points", name, n);
        for (int k = 0; k < 64; k++)
            lat[i * 64 + k] = k < n && x[k] == lines[k] ? y[k] : NAN;
    }
    GP_CHECK(gpk_assoc_find(gpk_t_cstrides, 9, lines, 64, lat, 0.15, 8, &a) == 1);
    GP_CHECK(a.ways == 4 && a.way_bytes == 512);
    GP_CHECK(a.held[0] == 32 && a.held[1] == 16 && a.held[2] == 8 && a.held[3] == 4);
    GP_CHECK(isnan(a.held[8]) && !a.resolved[8]);
    /* past the 98-cycle plateau: no climb in any row */
    GP_CHECK(gpk_assoc_find_at(gpk_t_cstrides, 9, lines, 64, lat, 0.15, 8, last, &a) == 0);
    GP_CHECK(isnan(a.ways) && strstr(a.why, "no conflict") != NULL);
}

/* A cache of sets x ways lines of 128 B whose set index XOR-folds the upper
 * line-address bits into the lower ones (sets a power of two), so every
 * aligned block of sets lines maps onto all sets once; policy 0 LRU,
 * 1 random, 2 tree pseudo-LRU.  Returns the miss fraction of the timed pass
 * of the device's chase: a cycle over lines, max(lines, 1024) loads to warm,
 * then as many timed, the cycle continuing. */
static double gpk_t_hashed_missrate(int sets, int ways, int policy, long lines, unsigned seed)
{
    static long tag[512][64], age[512][64];
    static unsigned plru[512];
    long n = lines < 1024 ? 1024 : lines, clock = 0, miss = 0;
    int lg = 0;
    while ((1 << lg) < sets)
        lg++;
    for (int s = 0; s < sets; s++) {
        plru[s] = 0;
        for (int w = 0; w < ways; w++)
            tag[s][w] = -1, age[s][w] = 0;
    }
    for (int pass = 0; pass < 2; pass++)
        for (long i = 0; i < n; i++) {
            const long line = (pass * n + i) % lines;
            const int s = (int)((line ^ (line >> lg) ^ (line >> (2 * lg))) & (sets - 1));
            int hit = -1, v = 0;
            for (int w = 0; w < ways; w++)
                if (tag[s][w] == line)
                    hit = w;
            if (hit < 0) {
                int empty = -1;
                for (int w = 0; w < ways && empty < 0; w++)
                    if (tag[s][w] < 0)
                        empty = w;
                if (empty >= 0) {
                    v = empty;
                } else if (policy == 0) {
                    for (int w = 1; w < ways; w++)
                        if (age[s][w] < age[s][v])
                            v = w;
                } else if (policy == 1) {
                    seed = seed * 1103515245u + 12345u;
                    v = (int)((seed >> 8) % (unsigned)ways);
                } else {
                    int node = 1;
                    while (node < ways)
                        node = 2 * node + ((plru[s] >> node) & 1);
                    v = node - ways;
                }
                tag[s][v] = line;
                hit = v;
                miss += pass;
            }
            age[s][hit] = ++clock;
            if (policy == 2) /* point every node on the path away from hit */
                for (int node = hit + ways; node > 1; node /= 2) {
                    if (node & 1)
                        plru[s] &= ~(1u << (node / 2));
                    else
                        plru[s] |= 1u << (node / 2);
                }
        }
    return (double)miss / n;
}

/* A fine footprint sweep of such a cache, from 32 lines below its capacity
 * to `past` x capacity beyond the LRU saturation, one line a step;
 * latencies 39 (hit) and 287 (miss) cycles with +-noise. */
static int gpk_t_fit(int sets, int ways, int policy, double noise, double past,
                     gpk_assoc_fit *f)
{
    static double x[2048], y[2048];
    const double c = sets * ways * 128.0;
    unsigned s = (unsigned)(sets * 131 + ways * 7 + policy);
    int n = 0;
    for (double nb = c - 32 * 128; nb <= c * (ways + 1) / ways + past * c && n < 2048;
         nb += 128, n++) {
        x[n] = nb;
        y[n] = 39 + 248 * gpk_t_hashed_missrate(sets, ways, policy, (long)(nb / 128), s + n) +
               noise * gpk_t_noise(&s);
    }
    return gpk_assoc_fit_lru(x, y, n, 128, 39, 287, 64, 0.025, f);
}

static void test_assoc_fit(void)
{
    gpk_assoc_fit f;
    /* LRU: the ways, the capacity and the sets come back, with noise too */
    static const int geo[][2] = {{128, 4}, {64, 8}, {32, 16}, {256, 2}};
    for (int i = 0; i < 4; i++) {
        const int sets = geo[i][0], ways = geo[i][1];
        int rc = gpk_t_fit(sets, ways, 0, 3, 0.3, &f);
        GP_CHECK_MSG(rc == 1 && f.ways == ways, "LRU %d x %d: rc %d, ways %g (%s)", sets, ways,
                     rc, f.ways, f.why);
        GP_CHECK_MSG(fabs(f.capacity_bytes - sets * ways * 128.0) <= ways * 128.0,
                     "capacity %.0f", f.capacity_bytes);
        GP_CHECK_NEAR(f.sets, sets, 0.02);
        GP_CHECK(f.rms_rel < 0.025 && f.ways_lo <= ways && f.ways_hi >= ways);
        GP_CHECK(f.n_transition >= 4 && f.n_below >= 2 && f.n_above >= 2 && f.why[0] == 0);
    }
    /* noiseless W = 4 gives exactly 4 and nothing else fits as well */
    GP_CHECK(gpk_t_fit(128, 4, 0, 0, 0.5, &f) == 1 && f.ways == 4 && f.ways_lo == 4 &&
             f.ways_hi == 4);
    /* random replacement: the curve rises too slowly and never saturates
     * where LRU would; noisy, with a long sweep or a short one */
    GP_CHECK_MSG(gpk_t_fit(128, 4, 1, 3, 1.5, &f) == 0 && isnan(f.ways), "random: ways %g",
                 f.ways);
    GP_CHECK(strstr(f.why, "does not fit") != NULL);
    GP_CHECK(gpk_t_fit(64, 8, 1, 3, 0.5, &f) == 0 && isnan(f.ways));
    /* tree pseudo-LRU of 8 and 16 ways misses only part of an overflowing
     * set's lines: the best LRU fit (about 5 ways) leaves a systematic
     * residual */
    GP_CHECK_MSG(gpk_t_fit(64, 8, 2, 3, 0.5, &f) == 0 && isnan(f.ways), "PLRU-8: ways %g",
                 f.ways);
    GP_CHECK(strstr(f.why, "does not fit") != NULL && f.best_w != 8);
    GP_CHECK(gpk_t_fit(32, 16, 2, 3, 0.5, &f) == 0 && isnan(f.ways));
    /* a sweep that stops before the saturation cannot give W */
    {
        double x[400], y[400];
        const double c = 128 * 4 * 128.0;
        int n = 0;
        for (double nb = c - 32 * 128; nb < c + 64 * 128; nb += 128, n++) {
            x[n] = nb;
            y[n] = 39 + 248 * gpk_assoc_lru_frac(nb, c, 4);
        }
        GP_CHECK(gpk_assoc_fit_lru(x, y, n, 128, 39, 287, 64, 0.025, &f) == 0);
        GP_CHECK_MSG(strstr(f.why, "both ends") != NULL, "%s", f.why);
        /* bad input */
        GP_CHECK(gpk_assoc_fit_lru(x, y, n, 128, 287, 39, 64, 0.025, &f) == -1);
        GP_CHECK(gpk_assoc_fit_lru(x, y, 5, 128, 39, 287, 64, 0.025, &f) == -1);
        x[3] = x[2];
        GP_CHECK(gpk_assoc_fit_lru(x, y, n, 128, 39, 287, 64, 0.025, &f) == -1);
    }
    /* the coarse H200 L1 curve of device run 2: 3 points in the climb are
     * too few to read W from */
    {
        double x[64], y[64];
        int n = gpk_curve_read(GPK_DATA_DIR "/recorded-h200.csv", "l1_footprint", x, y, 64);
        if (n > 8) {
            GP_CHECK(gpk_assoc_fit_lru(x, y, n, 128, y[0], y[n - 1], 64, 0.025, &f) == 0);
            GP_CHECK(isnan(f.ways));
        }
    }
}

/* TLB reach from a random-order sweep: generated rises with noise, flat
 * curves, and the H200's recorded sweeps of device run 6. */
static void test_reach(void)
{
    double x[64], y[64];
    gpk_reach_fit f;
    unsigned s = 11;
    int n = 0;
    /* 4 per octave from 4 MB to 48 GB; rise of 9 cycles from 256 MB, the
     * first five (few-line) points off by up to 8 cycles */
    for (double fp = 4 * MB; fp <= 48.0 * 1024 * MB && n < 64; fp *= pow(2, 0.25), n++) {
        x[n] = fp;
        y[n] = 282 + 9 * (fp > 256 * MB ? 1 - 256 * MB / fp : 0) + 0.5 * gpk_t_noise(&s) +
               (n < 5 ? 8 * gpk_t_noise(&s) : 0);
    }
    GP_CHECK(gpk_reach_find(x, y, n, 4, &f) == 1);
    GP_CHECK_MSG(f.reach_bytes > 200 * MB && f.reach_bytes < 330 * MB, "reach %.4g",
                 f.reach_bytes);
    GP_CHECK_NEAR(f.penalty_cycles, 9, 0.15);
    GP_CHECK(f.why[0] == 0 && f.n_below >= 3 && f.n_above >= 3);
    /* flat with the same noise: no rise */
    for (int i = 0; i < n; i++)
        y[i] = 282 + 0.5 * gpk_t_noise(&s) + (i < 5 ? 8 * gpk_t_noise(&s) : 0);
    GP_CHECK(gpk_reach_find(x, y, n, 4, &f) == 0 && isnan(f.reach_bytes));
    GP_CHECK(strstr(f.why, "no rise") != NULL);
    /* a rise under min_penalty is none either */
    for (int i = 0; i < n; i++)
        y[i] = 282 + 2 * (x[i] > 256 * MB ? 1 - 256 * MB / x[i] : 0);
    GP_CHECK(gpk_reach_find(x, y, n, 4, &f) == 0);
    /* a rise that starts at the sweep's end is not resolved */
    for (int i = 0; i < n; i++)
        y[i] = 282 + 9 * (x[i] > 24.0 * 1024 * MB ? 1 - 24.0 * 1024 * MB / x[i] : 0);
    GP_CHECK(gpk_reach_find(x, y, n, 4, &f) == 0 && isnan(f.reach_bytes));
    /* bad input */
    GP_CHECK(gpk_reach_find(x, y, 5, 4, &f) == -1);
    x[4] = x[3];
    GP_CHECK(gpk_reach_find(x, y, n, 4, &f) == -1);

    /* recorded: random order rises by about 10 cycles from a few hundred MB
     * (2 MB pages, cudaMalloc and separately mapped); address order stays
     * flat */
    const char *path = GPK_DATA_DIR "/recorded-h200-run6.csv";
    n = gpk_curve_read(path, "tlb_2m", x, y, 64);
    if (n < 0) {
        gp_test_skip("recorded TLB sweeps", "no tests/data/gpupeak/recorded-h200-run6.csv");
        return;
    }
    GP_CHECK(gpk_reach_find(x, y, n, 4, &f) == 1);
    GP_CHECK_MSG(f.reach_bytes > 128 * MB && f.reach_bytes < 512 * MB, "tlb_2m reach %.4g",
                 f.reach_bytes);
    GP_CHECK(f.penalty_cycles > 5 && f.penalty_cycles < 20);
    n = gpk_curve_read(path, "tlb_vmm_2m", x, y, 64);
    GP_CHECK(gpk_reach_find(x, y, n, 4, &f) == 1 && f.reach_bytes > 128 * MB &&
             f.reach_bytes < 512 * MB);
    n = gpk_curve_read(path, "tlb_2m_seq", x, y, 64);
    GP_CHECK(n > 40 && gpk_reach_find(x, y, n, 4, &f) == 0);
    n = gpk_curve_read(path, "tlb_vmm_2m_seq", x, y, 64);
    GP_CHECK(n > 40 && gpk_reach_find(x, y, n, 4, &f) == 0);
    /* what gpupeak reports (gpk_tlb_reach, footprints of 16 lines or more):
     * the same rise in runs 6 and 7 (run 7's 2-line point, 305 cycles,
     * made the plain fit reject tlb_2m there), nothing in address order */
    static const char *const runs[] = {GPK_DATA_DIR "/recorded-h200-run6.csv",
                                       GPK_DATA_DIR "/recorded-h200-run7-tlb.csv"};
    static const struct {
        const char *series;
        double stride;
        int rise;
    } tlb[] = {{"tlb_2m", 2 * MB, 1},     {"tlb_vmm_2m", 2 * MB, 1},    {"tlb_64k", 64 * 1024, 1},
               {"tlb_2m_seq", 2 * MB, 0}, {"tlb_vmm_2m_seq", 2 * MB, 0}};
    for (int r = 0; r < 2; r++)
        for (size_t i = 0; i < sizeof tlb / sizeof tlb[0]; i++) {
            n = gpk_curve_read(runs[r], tlb[i].series, x, y, 64);
            int rc = n > 20 ? gpk_tlb_reach(x, y, n, tlb[i].stride, 16, 4, &f) : -2;
            if (tlb[i].rise)
                GP_CHECK_MSG(rc == 1 && f.reach_bytes > 128 * MB && f.reach_bytes < 400 * MB &&
                                 f.penalty_cycles > 6 && f.penalty_cycles < 16,
                             "run %d %s: rc %d reach %.4g penalty %.1f", 6 + r, tlb[i].series,
                             rc, f.reach_bytes, f.penalty_cycles);
            else
                GP_CHECK_MSG(rc == 0, "run %d %s: rc %d reach %.4g", 6 + r, tlb[i].series, rc,
                             f.reach_bytes);
        }
    /* and the old step detector sees no step in any of them (3%, not 15%) */
    {
        gpk_step st[4];
        n = gpk_curve_read(path, "tlb_2m", x, y, 64);
        GP_CHECK(gpk_steps_find(x, y, n, 0.15, 8, st, 4, NULL) == 0);
    }
    /* the small steps quoted in docs/gpupeak.md, read with the detector at
     * 2% and 4 cycles over footprints of at least 8 lines (fewer lines
     * scatter by the near/far L2 mix): 2 MB random up to 362 MB, none in
     * address order; at 32 and 128 MB strides, either order, the climb
     * comes between 16 and 19 lines */
    static const struct {
        const char *series;
        double stride, below, above; /* NaN: no step */
    } small[] = {
        {"tlb_2m", 2 * MB, 362 * MB, 430 * MB},
        {"tlb_vmm_2m", 2 * MB, 362 * MB, 430 * MB},
        {"tlb_2m_seq", 2 * MB, NAN, NAN},
        {"tlb_vmm_2m_seq", 2 * MB, NAN, NAN},
        {"tlb_32m", 32 * MB, 16 * 32 * MB, 19 * 32 * MB},
        {"tlb_32m_seq", 32 * MB, 16 * 32 * MB, 19 * 32 * MB},
        {"tlb_128m", 128 * MB, 16 * 128 * MB, 19 * 128 * MB},
    };
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        gpk_step st[4];
        int a = 0, k;
        n = gpk_curve_read(path, small[i].series, x, y, 64);
        while (a < n && x[a] < 8 * small[i].stride)
            a++;
        k = n - a >= 2 ? gpk_steps_find(x + a, y + a, n - a, 0.02, 4, st, 4, NULL) : -1;
        if (isnan(small[i].below)) {
            GP_CHECK_MSG(k == 0, "%s: %d small steps", small[i].series, k);
        } else {
            GP_CHECK_MSG(k == 1 && fabs(st[0].size_below - small[i].below) < 0.01 * MB &&
                             fabs(st[0].size_above - small[i].above) < 0.01 * MB &&
                             st[0].lat_above - st[0].lat_below > 6,
                         "%s: %d small steps, first %.4g -> %.4g", small[i].series, k,
                         k > 0 ? st[0].size_below : NAN, k > 0 ? st[0].size_above : NAN);
        }
    }
}

/* The H200's fine L1 sweep of device run 6: misses begin after about
 * 217 KB, then the latency climbs in steps (plateaus near 105, 168 and 228
 * cycles) that no LRU curve has: the fit must refuse it. */
static void test_assoc_recorded(void)
{
    static double x[1024], y[1024];
    gpk_assoc_fit f;
    int n = gpk_curve_read(GPK_DATA_DIR "/recorded-h200-run6.csv", "l1_assoc_sweep", x, y,
                           1024);
    if (n < 0) {
        gp_test_skip("recorded L1 sweep", "no tests/data/gpupeak/recorded-h200-run6.csv");
        return;
    }
    GP_CHECK(n > 800);
    GP_CHECK(gpk_assoc_fit_lru(x, y, n, 128, 39.174, 287.5, 64, 0.025, &f) == 0);
    GP_CHECK(isnan(f.ways) && strstr(f.why, "does not fit") != NULL);
    GP_CHECK_MSG(f.capacity_bytes > 208 * KB && f.capacity_bytes < 224 * KB, "C %.0f",
                 f.capacity_bytes);
}

int main(void)
{
    test_assoc();
    test_assoc_const();
    test_const_recorded();
    test_assoc_fit();
    test_assoc_recorded();
    test_reach();
    test_fixture();
    test_recorded();
    test_generated();
    test_clusters();
    return gp_test_finish("gpupeak-steps");
}
