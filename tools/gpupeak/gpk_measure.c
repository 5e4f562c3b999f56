/* gpk_measure.c - runs gpupeak's benchmarks on the device (gpk_device.h)
 * in the order the full run needs, fills gpk_results, calls each fit as
 * soon as its points are in (later measurements use the fits), and logs
 * progress to stderr.  Also the probe processes that try the risky paths
 * first. */
#include "gpk_measure.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpk_fit.h"

/* A measured rate: amount (flops, operations or bytes) over the median
 * launch, and per clock and SM at the clock that launch ran at. */
static void gpk_rate_set(gpk_rate *o, double amount, const gpk_meas *m, int sms)
{
    o->done = 1;
    o->ms = m->ms;
    o->clk_mhz = m->clk_mhz;
    o->value = amount / (m->ms * 1e-3);
    o->per_clk_sm = o->value / (m->clk_mhz * 1e6) / sms;
}

/* One throughput line: skipped (done 3), not built (2), failed (-1) or
 * measured. */
static void gpk_measure_tput(const gpk_tput_def *d, gpk_rate *o, double target, int sms)
{
    double count = 0, t0;
    gpk_meas m;
    int rc;
    if (d->skip) {
        o->done = 3;
        o->why = d->skip;
        return;
    }
    t0 = gpk_now();
    rc = gpk_dev_tput(d->kind, target, &count, &m);
    if (rc != 0) {
        o->done = rc == 1 ? 2 : -1;
        return;
    }
    gpk_rate_set(o, count * d->per_count, &m, sms);
    fprintf(stderr, "gpupeak: %-16s %10.4g %s  %7.1f /clk/SM  at %4.0f MHz  (%.2f s)\n", d->key,
            o->value, d->unit, o->per_clk_sm, m.clk_mhz, gpk_now() - t0);
}

/* One bandwidth line: failed (-1) or measured; the DRAM copy also keeps
 * its variants. */
static void gpk_measure_bw(gpk_results *r, const gpk_mem_def *d, gpk_rate *o, double target)
{
    double bytes = 0;
    gpk_meas m;
    if (gpk_dev_mem(d->kind, target, &bytes, &m) != 0) {
        o->done = -1;
        return;
    }
    gpk_rate_set(o, bytes, &m, r->dev.sm_count);
    if (d->kind == GPK_M_DRAM_COPY)
        r->ncopyv = gpk_dev_copy_variants(r->copyv, GPK_MAXCOPYV);
    fprintf(stderr, "gpupeak: %-16s %10.4g B/s    %7.1f B/clk/SM at %4.0f MHz\n", d->key,
            o->value, o->per_clk_sm, m.clk_mhz);
}

/* One latency curve: its points, then what they say. */
static void gpk_measure_curve(gpk_results *r, int c, double t0)
{
    const gpk_curve_def *d = &gpk_curves[c];
    gpk_curve *o = &r->curve[c];
    o->n = 0;
    if (GPK_IS_TLB(d->space)) {
        /* cudaMalloc: at most 48 GB and under half the free memory; VMM
         * chunks: at most 16 GB and half the memory free now */
        double cap = fmin(GPK_TLB_MAX, 0.5 * (double)r->dev.global_bytes);
        cap -= fmod(cap, 32.0 * MB);
        if (d->space == GPK_C_TLB) {
            r->tlb_buf = fmax(r->tlb_buf, cap);
        } else {
            size_t chunk = 0, mapped = 0;
            const double tm = gpk_now();
            gpk_dev_tlb_free();
            cap = fmin(GPK_TLB_VMM_MAX, 0.5 * (double)gpk_dev_free_bytes());
            if (cap < 4 * MB || gpk_dev_vmm_alloc((size_t)cap, &chunk, &mapped) != 0) {
                r->vmm_why = "could not map the chunks (cuMemCreate/cuMemMap/cuMemSetAccess; "
                             "see the log)";
                cap = 0;
            } else {
                r->vmm_chunk = (double)chunk;
                r->vmm_mapped = (double)mapped;
                r->vmm_map_s = gpk_now() - tm;
                cap = (double)mapped;
                fprintf(stderr, "gpupeak: mapped %.0f MB as %zu chunks of %zu KB in %.2f s\n",
                        cap / MB, mapped / chunk, chunk >> 10, r->vmm_map_s);
            }
        }
        /* at most GPK_TLB_LINES lines (3 MB of L2), so every load hits L2 */
        const double fp_max = fmin(cap, (double)d->fixed * GPK_TLB_LINES);
        for (int k = 0; k < 200 && o->n < GPK_MAXPTS && cap > 0; k++) {
            double fp = 4 * MB * pow(2.0, k / 4.0);
            double cyc, mhz;
            fp -= fmod(fp, (double)d->fixed);
            if (fp > fp_max)
                fp = fp_max;
            if (fp < 2.0 * d->fixed || (o->n && fp <= o->x[o->n - 1]))
                continue;
            if ((d->space == GPK_C_TLB
                     ? gpk_dev_tlb_chase((size_t)fp, d->fixed, (size_t)cap, d->order, &cyc, &mhz)
                     : gpk_dev_vmm_chase((size_t)fp, d->fixed, d->order, &cyc, &mhz)) != 0) {
                if (d->space == GPK_C_TLB_VMM)
                    r->vmm_why = "a chase over the mapped chunks failed (see the log)";
                break;
            }
            o->x[o->n] = fp;
            o->y[o->n] = cyc;
            o->clk[o->n] = mhz;
            o->n++;
            if (fp >= fp_max)
                break;
        }
    }
    for (int k = 0; d->xs && d->xs[k] > 0 && o->n < GPK_MAXPTS; k++) {
        size_t fp = d->by_stride ? d->fixed : (size_t)d->xs[k];
        size_t st = d->by_stride ? (size_t)d->xs[k] : d->fixed;
        double cyc, mhz;
        if (fp > r->dev.global_bytes / 3)
            break; /* leave room; the TLB curve stops where memory does */
        if (gpk_dev_chase(d->space, fp, st, &cyc, &mhz) != 0)
            break;
        o->x[o->n] = d->xs[k];
        o->y[o->n] = cyc;
        o->clk[o->n] = mhz;
        o->n++;
    }
    gpk_fit_curve(r, c);
    fprintf(stderr, "gpupeak: curve %-16s %d points, %d steps (%.1f s)\n", d->key, o->n,
            o->nsteps, gpk_now() - t0);
    if (d->space == GPK_C_TLB_VMM)
        gpk_dev_vmm_free(); /* unmaps and releases every chunk */
}

/* One fine footprint sweep past a cache's capacity and the LRU fit. */
static void gpk_measure_sweep(gpk_results *r, int c)
{
    const gpk_sweep_def *d = &gpk_sweeps[c];
    gpk_sweep_res *o = &r->sweep[c];
    const double t0 = gpk_now();
    o->n = 0;
    if (gpk_fit_sweep_plateaus(r, c) != 0)
        return;
    for (double nb = d->from; nb <= d->to && o->n < GPK_SW_MAX;
         nb += nb < d->fine_to ? d->step : d->step2) {
        double cyc, mhz;
        if (gpk_dev_chase(d->space, (size_t)nb, (size_t)GPK_SW_LINE, &cyc, &mhz) != 0) {
            o->done = -1;
            o->why = "a chase of the sweep failed (see the log)";
            return;
        }
        o->x[o->n] = nb;
        o->y[o->n] = cyc;
        o->n++;
    }
    gpk_fit_sweep(r, c);
    o->seconds = gpk_now() - t0;
    fprintf(stderr,
            "gpupeak: %s associativity (sweep, %d points, %.1f s): ways %.0f (best fit %d, "
            "C %.0f B, range %.0f-%.0f, rms %.1f%% / transition %.1f%%, limit %.1f%%)%s%s\n",
            d->key, o->n, o->seconds, o->fit.ways, o->fit.best_w, o->fit.capacity_bytes,
            o->fit.ways_lo, o->fit.ways_hi, 100 * o->fit.rms_rel, 100 * o->fit.rms_trans_rel,
            100 * o->fit.limit_rel, o->fit.why[0] ? ": " : "", o->fit.why);
}

void gpk_measure(gpk_results *r)
{
    const double target = r->quick ? 15.0 : 25.0;
    const int sms = r->dev.sm_count;
    double t0;

    for (int i = 0; i < GPK_T_COUNT; i++)
        if (r->only ? r->only_tput[i] : !r->quick || gpk_tputs[i].quick)
            gpk_measure_tput(&gpk_tputs[i], &r->tput[i], target, sms);
    for (int i = 0; i < GPK_M_COUNT; i++)
        if (r->only ? r->only_mem[i] : !r->quick || gpk_mems[i].quick)
            gpk_measure_bw(r, &gpk_mems[i], &r->mem[i], target);
    if (r->quick)
        return;
    for (int i = 0; i < GPK_L_COUNT; i++) {
        gpk_lat *o = &r->lat[i];
        gpk_meas m;
        if (gpk_lats[i].skip) {
            o->done = 3;
            continue;
        }
        if (gpk_dev_lat(gpk_lats[i].kind, &o->cycles, &m) != 0) {
            o->done = -1;
            continue;
        }
        o->done = 1;
        o->clk_mhz = m.clk_mhz;
        o->ns = o->cycles / m.clk_mhz * 1e3;
        fprintf(stderr, "gpupeak: latency %-14s %8.2f cycles %8.2f ns at %4.0f MHz\n",
                gpk_lats[i].key, o->cycles, o->ns, m.clk_mhz);
    }
    /* curves (the VMM TLB sweep comes last, below) */
    t0 = gpk_now();
    for (int c = 0; c < GPK_NCURVE; c++)
        if (gpk_curves[c].space != GPK_C_TLB_VMM)
            gpk_measure_curve(r, c, t0);
    gpk_dev_tlb_free();
    r->curves_done = 1;
    /* associativity: m lines spaced by a stride (Wong et al.) */
    for (int c = 0; c < GPK_NASSOC; c++) {
        const gpk_assoc_def *d = &gpk_assocs[c];
        gpk_assoc_res *o = &r->assoc[c];
        int ok = 1;
        t0 = gpk_now();
        for (int k = 0; k < GPK_AS_LINES; k++)
            o->lines[k] = d->m0 + k;
        if (d->same_as) { /* the next level of the same rows */
            const gpk_assoc_res *src = &r->assoc[gpk_assoc_index(d->same_as)];
            ok = src->done == 1;
            memcpy(o->lat, src->lat, sizeof o->lat);
        }
        for (int i = 0; i < d->ns && ok && !d->same_as; i++)
            for (int k = 0; k < GPK_AS_LINES && ok; k++) {
                double cyc = NAN, mhz;
                const size_t st = (size_t)d->strides[i];
                o->lat[i * GPK_AS_LINES + k] = NAN;
                if (d->max_bytes > 0 && d->strides[i] * o->lines[k] > d->max_bytes)
                    continue; /* past the space's limit: the row ends here */
                if (gpk_dev_chase(d->space, st * (size_t)o->lines[k], st, &cyc, &mhz) != 0)
                    ok = 0;
                o->lat[i * GPK_AS_LINES + k] = cyc;
            }
        if (!ok) {
            o->done = -1;
            continue;
        }
        if (gpk_fit_assoc(r, c) != 0)
            continue;
        o->seconds = gpk_now() - t0;
        fprintf(stderr, "gpupeak: %s associativity: ways %.0f, way %.0f B%s%s (%.1f s)\n", d->key,
                o->a.ways, o->a.way_bytes, o->a.why[0] ? "; " : "", o->a.why, o->seconds);
    }
    /* associativity through the hashed index: fine sweeps past capacity */
    for (int c = 0; c < GPK_NSWEEP; c++)
        gpk_measure_sweep(r, c);
    /* L2 near and far partition */
    {
        uint32_t cyc[GPK_L2N];
        double v[GPK_L2N];
        if (gpk_dev_l2_samples((size_t)GPK_L2N * 128, GPK_L2N, cyc, &r->l2nf_smid) == 0) {
            for (int i = 0; i < GPK_L2N; i++)
                v[i] = cyc[i];
            gpk_fit_l2_samples(r, v, GPK_L2N);
        }
    }
    /* cross-SM ping-pong */
    t0 = gpk_now();
    r->xsm_ns = malloc(sizeof(double) * GPK_MAXSM * GPK_MAXSM);
    r->xsm_cyc = malloc(sizeof(double) * GPK_MAXSM * GPK_MAXSM);
    if (r->xsm_ns && r->xsm_cyc &&
        gpk_dev_pingpong_matrix(100, GPK_MAXSM, r->xsm_ns, r->xsm_cyc, &r->xsm_n) == 0)
        gpk_fit_cross_sm(r);
    fprintf(stderr, "gpupeak: cross-SM matrix %d SMs, %d pairs (%.1f s)\n", r->xsm_n,
            r->xsm_done, gpk_now() - t0);
    /* last: the TLB over separately mapped 2 MB chunks */
    t0 = gpk_now();
    for (int c = 0; c < GPK_NCURVE; c++) {
        if (gpk_curves[c].space != GPK_C_TLB_VMM)
            continue;
        if (r->probe_vmm_why)
            r->vmm_why = r->probe_vmm_why;
        else
            gpk_measure_curve(r, c, t0);
    }
}

/* One probe: a child process (forked while this process has not touched
 * CUDA) runs one risky path on small buffers, every byte checked: the
 * bulk-copy variants (2 x 64 MB), or a small VMM sweep (64 MB of separately
 * mapped chunks).  A fault there (a sticky CUDA error), a hang (killed after
 * 30 s) or a wrong copy costs only the child; the main run then skips that
 * path and says why.  Returns NULL when the path works.  A child that finds
 * no usable device says nothing and sets *no_device: this process's own
 * gpk_dev_open() then says why, once. */
static const char *gpk_probe_one(int vmm, int *no_device)
{
    const double limit = 30.0, t0 = gpk_now();
    const char *what = vmm ? "VMM" : "bulk-copy";
    int st = 0, done = 0;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return "fork() for the probe process failed";
    if (pid == 0) {
        gpk_devinfo d;
        char why[512];
        int code = 2;
        alarm((unsigned)limit + 5); /* in case the parent is gone */
        if (gpk_dev_open(&d, why, sizeof why) == 0) {
            code = (vmm ? gpk_dev_probe_vmm() : gpk_dev_probe_bulk()) != 0;
            gpk_dev_close();
        }
        _exit(code);
    }
    while (gpk_now() - t0 < limit) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid) {
            done = 1;
            break;
        }
        if (w < 0)
            break;
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    if (!done) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
    }
    if (done && WIFEXITED(st) && WEXITSTATUS(st) == 2) {
        *no_device = 1;
        return "the probe process found no usable CUDA device";
    }
    fprintf(stderr, "gpupeak: %s probe: %s (%.1f s)\n", what,
            !done ? "did not finish in 30 s; killed"
                  : !WIFEXITED(st) ? "crashed"
                                   : WEXITSTATUS(st) == 0 ? "ok" : "failed",
            gpk_now() - t0);
    if (!done)
        return vmm ? "the VMM probe process hung (killed after 30 s)"
                   : "the bulk-copy probe process hung (killed after 30 s)";
    if (!WIFEXITED(st))
        return vmm ? "the VMM probe process crashed (see the log)"
                   : "the bulk-copy probe process crashed (see the log)";
    if (WEXITSTATUS(st) != 0)
        return vmm ? "the VMM probe (64 MB of separately mapped 2 MB chunks, one chase) failed "
                     "(see the log)"
                   : "the bulk-copy probe (2 x 64 MB, every byte checked) failed or found a "
                     "wrong copy (see the log)";
    return NULL;
}

void gpk_probe(gpk_results *r)
{
    int no_device = 0;
    /* --only without the DRAM copy runs no bulk copy: no probe, so the
     * launches are the named lines' kernels and nothing else */
    if (r->only && !r->only_mem[GPK_M_DRAM_COPY])
        return;
    r->probe_bulk_why = gpk_probe_one(0, &no_device);
    if (!r->quick)
        r->probe_vmm_why = no_device ? r->probe_bulk_why : gpk_probe_one(1, &no_device);
}
