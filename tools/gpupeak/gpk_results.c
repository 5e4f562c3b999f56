/* gpk_results.c - the helpers the measurement, the fits and the writers
 * share (gpk_results.h). */
#include "gpk_results.h"

#include <stdio.h>
#include <time.h>

double gpk_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int gpk_cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gpk_dram_theo(const gpk_devinfo *d)
{
    return d->mem_clock_khz * 1e3 * 2.0 * d->mem_bus_bits / 8.0; /* double data rate */
}

const char *gpk_why(int done)
{
    switch (done) {
    case 0: return "not run in --quick mode";
    case -1: return "the measurement failed (see the log)";
    case 2: return "not built into this binary";
    }
    return NULL;
}

/* For a constant level that the footprint curve never saw exceeded within
 * 64 KB, adds why no chase in a __constant__ array can make it miss: with a
 * plain set index, ways + 1 lines of one set lie a way size apart and span
 * its whole capacity. */
void gpk_assoc_why(const gpk_results *r, int c, char *buf, size_t n)
{
    const gpk_assoc_res *o = &r->assoc[c];
    const gpk_assoc_def *d = &gpk_assocs[c];
    const gpk_curve *cc = &r->curve[gpk_curve_index(d->curve)];
    buf[0] = 0;
    if (o->done != 1) {
        snprintf(buf, n, "%s", o->why ? o->why : gpk_why(-1));
        return;
    }
    if (!o->a.why[0])
        return;
    if (d->space == GPK_C_CONST && d->level >= cc->nsteps && cc->n > 0)
        snprintf(buf, n,
                 "%s; this level is not exceeded within the %.0f B a __constant__ array may "
                 "hold (const_footprint has %d step%s up to %.0f B), and with a plain set index "
                 "ways + 1 lines of one set lie a way size apart, spanning its capacity or more, "
                 "so no chase inside one constant bank can make it miss",
                 o->a.why, GPK_CONST_BYTES, cc->nsteps, cc->nsteps == 1 ? "" : "s",
                 cc->x[cc->n - 1]);
    else
        snprintf(buf, n, "%s", o->a.why);
}
