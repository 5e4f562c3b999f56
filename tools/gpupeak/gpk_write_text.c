/* gpk_write_text.c - the table (peaks.txt and stdout), curves.csv,
 * cross-sm.csv and the SVG plots. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpk_svg.h"
#include "gpk_write.h"

static void gpk_fmt(char *buf, size_t n, double v, const char *fmt)
{
    if (isfinite(v))
        snprintf(buf, n, fmt, v);
    else
        snprintf(buf, n, "n/a");
}

static void gpk_bytes(char *buf, size_t n, double v)
{
    if (!isfinite(v))
        snprintf(buf, n, "n/a");
    else if (v >= 4.0 * GB)
        snprintf(buf, n, "%.4g GB", v / GB);
    else if (v >= 4.0 * MB)
        snprintf(buf, n, "%.4g MB", v / MB);
    else
        snprintf(buf, n, "%.4g KB", v / KB);
}

void gpk_write_table(const gpk_results *r, FILE *f)
{
    const int sms = r->dev.sm_count;
    char a[32], b[32], c[32], d[32], e[32];
    fprintf(f, "gpupeak (%s) on %s: %d SMs, peak clock %.0f MHz, measured %.0f MHz, "
               "L2 %d MB, %.1f s\n",
            r->quick ? "quick" : "full", r->dev.name, sms, r->dev.max_clock_khz / 1e3,
            r->clk_mhz, r->dev.l2_bytes / (1 << 20), r->seconds);
    fprintf(f, "\n%-18s %12s %7s %10s %10s %6s %6s\n", "throughput", "measured", "unit",
            "/clk/SM", "theory", "%", "MHz");
    for (int i = 0; i < GPK_T_COUNT; i++) {
        const gpk_rate *o = &r->tput[i];
        if (o->done == 0)
            continue;
        gpk_fmt(a, sizeof a, o->done == 1 ? o->value / 1e12 : NAN, "%.2f");
        gpk_fmt(b, sizeof b, o->done == 1 ? o->per_clk_sm : NAN, "%.1f");
        gpk_fmt(c, sizeof c, gpk_tputs[i].theo, "%.0f");
        gpk_fmt(d, sizeof d, o->done == 1 ? 100 * o->per_clk_sm / gpk_tputs[i].theo : NAN,
                "%.1f");
        gpk_fmt(e, sizeof e, o->done == 1 ? o->clk_mhz : NAN, "%.0f");
        fprintf(f, "%-18s %12s %7s %10s %10s %6s %6s%s%s\n", gpk_tputs[i].key, a,
                strcmp(gpk_tputs[i].unit, "flop/s") ? "Top/s" : "Tflop/s", b, c, d, e,
                o->done != 1 ? "  " : "",
                o->done == 3 ? "skipped (see peaks.json)" : (o->done != 1 ? gpk_why(o->done) : ""));
    }
    fprintf(f, "\n%-18s %12s %7s %10s %10s %6s %6s\n", "bandwidth", "measured", "unit",
            "B/clk/SM", "theory", "%", "MHz");
    for (int i = 0; i < GPK_M_COUNT; i++) {
        const gpk_rate *o = &r->mem[i];
        double theo = gpk_mems[i].theo;
        if (o->done == 0)
            continue;
        if (gpk_mems[i].theo == GPK_THEO_DRAM)
            theo = o->done == 1 ? gpk_dram_theo(&r->dev) / (o->clk_mhz * 1e6) / sms : NAN;
        gpk_fmt(a, sizeof a, o->done == 1 ? o->value / 1e9 : NAN, "%.0f");
        gpk_fmt(b, sizeof b, o->done == 1 ? o->per_clk_sm : NAN, "%.1f");
        gpk_fmt(c, sizeof c, theo, "%.1f");
        gpk_fmt(d, sizeof d, o->done == 1 ? 100 * o->per_clk_sm / theo : NAN, "%.1f");
        gpk_fmt(e, sizeof e, o->done == 1 ? o->clk_mhz : NAN, "%.0f");
        fprintf(f, "%-18s %12s %7s %10s %10s %6s %6s\n", gpk_mems[i].key, a, "GB/s", b, c, d, e);
    }
    fprintf(f, "  (DRAM theory: %.0f GB/s from %d-bit bus at %.0f MHz DDR; L2 has no published "
               "theoretical rate)\n",
            gpk_dram_theo(&r->dev) / 1e9, r->dev.mem_bus_bits, r->dev.mem_clock_khz / 1e3);
    if (r->ncopyv) {
        fprintf(f, "  dram_copy variants (GB/s, %% of theory):");
        for (int i = 0; i < r->ncopyv; i++)
            if (!r->copyv[i].why)
                fprintf(f, "%s %s %.0f (%.1f)", i % 3 ? "," : "\n   ", r->copyv[i].name,
                        r->copyv[i].bytes_per_s / 1e9,
                        100 * r->copyv[i].bytes_per_s / gpk_dram_theo(&r->dev));
            else
                fprintf(f, "%s %s n/a", i % 3 ? "," : "\n   ", r->copyv[i].name);
        fputc('\n', f);
        for (int i = 0; i < r->ncopyv; i++)
            if (r->copyv[i].why)
                fprintf(f, "    %s: %s\n", r->copyv[i].name, r->copyv[i].why);
    }
    if (r->quick)
        return;
    fprintf(f, "\n%-18s %10s %10s %16s  %s\n", "latency", "cycles", "ns", "published cyc",
            "what");
    for (int i = 0; i < GPK_L_COUNT; i++) {
        const gpk_lat *o = &r->lat[i];
        const gpk_lat_def *l = &gpk_lats[i];
        char p[40];
        gpk_fmt(a, sizeof a, o->done == 1 ? o->cycles : NAN, "%.2f");
        gpk_fmt(b, sizeof b, o->done == 1 ? o->ns : NAN, "%.2f");
        if (!isfinite(l->pub_lo))
            snprintf(p, sizeof p, "-");
        else if (l->pub_lo == l->pub_hi)
            snprintf(p, sizeof p, "%.4g", l->pub_lo);
        else
            snprintf(p, sizeof p, "%.4g-%.4g", l->pub_lo, l->pub_hi);
        fprintf(f, "%-18s %10s %10s %16s  %s\n", l->key, a, b, p,
                o->done == 3 ? "skipped (see peaks.json)" : l->what);
    }
    if (r->curves_done) {
        fprintf(f, "\ncurves (steps read off latency vs footprint; sizes are the last footprint "
                   "before each climb)\n");
        for (int c2 = 0; c2 < GPK_NCURVE; c2++) {
            const gpk_curve *o = &r->curve[c2];
            fprintf(f, "%-16s", gpk_curves[c2].key);
            if (gpk_curves[c2].by_stride) {
                gpk_fmt(a, sizeof a, o->sat, "%.0f B");
                fprintf(f, " fetch granularity %s (latency %.0f -> %.0f cycles)\n", a,
                        o->n ? o->y[0] : NAN, o->n ? o->y[o->n - 1] : NAN);
                continue;
            }
            for (int k = 0; k < o->nsteps; k++) {
                gpk_bytes(a, sizeof a, o->steps[k].size_below);
                gpk_bytes(b, sizeof b, o->steps[k].size_above);
                fprintf(f, " [%.0f cyc up to %s -> %.0f cyc from %s]", o->steps[k].lat_below, a,
                        o->steps[k].lat_above, b);
            }
            if (gpk_curves[c2].space == GPK_C_TLB_VMM && o->n == 0) {
                fprintf(f, " n/a: %s\n", r->vmm_why ? r->vmm_why : gpk_why(-1));
                continue;
            }
            if (GPK_IS_TLB(gpk_curves[c2].space) && o->reach_rc == 1) {
                gpk_bytes(a, sizeof a, o->reach.reach_bytes);
                fprintf(f, " rise +%.1f cyc from %s (%.0f x stride)", o->reach.penalty_cycles, a,
                        o->reach.reach_bytes / gpk_curves[c2].fixed);
            } else if (GPK_IS_TLB(gpk_curves[c2].space) && o->n) {
                fprintf(f, " no rise");
            }
            if (GPK_IS_TLB(gpk_curves[c2].space) && o->n) {
                gpk_bytes(a, sizeof a, o->x[o->n - 1]);
                gpk_bytes(b, sizeof b, (double)gpk_curves[c2].fixed);
                fprintf(f, " (stride %s, %s, to %s%s)", b,
                        gpk_curves[c2].order ? "random order" : "address order", a,
                        gpk_curves[c2].space == GPK_C_TLB_VMM ? ", separate chunks" : "");
            }
            fprintf(f, " last plateau %.0f cyc\n", o->last_lat);
        }
    }
    for (int c = 0; r->curves_done && c < GPK_NSWEEP; c++) {
        const gpk_sweep_res *w = &r->sweep[c];
        const gpk_assoc_fit *ft = &w->fit;
        fprintf(f, "%-2s associativity  ", gpk_sweeps[c].key);
        if (w->done != 1) {
            fprintf(f, "n/a: %s\n", w->why ? w->why : gpk_why(-1));
            continue;
        }
        if (w->rc == 1)
            fprintf(f, "%.0f ways (fits %.0f-%.0f), capacity %.1f KB, %.0f sets of %.0f B lines",
                    ft->ways, ft->ways_lo, ft->ways_hi, ft->capacity_bytes / 1024, ft->sets,
                    GPK_SW_LINE);
        else
            fprintf(f, "n/a: %s", ft->why);
        fprintf(f, "\n                 (sweep %.0f-%.0f KB, %d points, plateaus %.0f/%.0f cyc; "
                   "best fit %d ways, C %.1f KB, residual %.1f%% / %.1f%% in the transition, "
                   "limit %.1f%%)\n",
                w->n ? w->x[0] / 1024 : NAN, w->n ? w->x[w->n - 1] / 1024 : NAN, w->n, w->t_hit,
                w->t_miss, ft->best_w, ft->capacity_bytes / 1024, 100 * ft->rms_rel,
                100 * ft->rms_trans_rel, 100 * ft->limit_rel);
    }
    for (int c = 0; r->curves_done && c < GPK_NASSOC; c++) {
        const gpk_assoc_res *o = &r->assoc[c];
        const gpk_assoc_def *d = &gpk_assocs[c];
        char why[600];
        gpk_assoc_why(r, c, why, sizeof why);
        fprintf(f, "%-9s strided (Wong) ", d->key);
        if (o->done != 1 || o->a.why[0])
            fprintf(f, "n/a: %s\n", why);
        else if (o->a.way_bytes < KB)
            fprintf(f, "%.0f ways, way %.0f B (implies %.0f B)\n", o->a.ways, o->a.way_bytes,
                    o->a.ways * o->a.way_bytes);
        else
            fprintf(f, "%.0f ways, way %.0f KB (implies %.0f KB)\n", o->a.ways,
                    o->a.way_bytes / 1024, o->a.ways * o->a.way_bytes / 1024);
        if (o->done == 1) {
            /* stride:held, or stride:-/tried when no climb came within the lines tried */
            fprintf(f, "                 lines held before misses, per stride:");
            for (int i = 0; i < d->ns; i++) {
                if (d->strides[i] < KB)
                    fprintf(f, " %.0f", d->strides[i]);
                else
                    fprintf(f, " %.0fK", d->strides[i] / 1024);
                if (isnan(o->a.held[i]))
                    fprintf(f, ":-/%.0f", o->a.tried[i]);
                else
                    fprintf(f, ":%.0f", o->a.held[i]);
            }
            fputc('\n', f);
        }
    }
    if (r->l2nf_done)
        fprintf(f, "l2 single loads  from SM %d: %s %.0f cyc, %.0f cyc (%.0f%% high;"
                   " includes the clock-read overhead)\n",
                r->l2nf_smid, r->l2nf_split ? "two clusters:" : "one cluster:", r->l2_near,
                r->l2_far, 100 * r->l2_far_frac);
    if (r->xsm_done)
        fprintf(f, "\ncross-SM one-way (%d pairs): min %.0f ns, median %.0f, max %.0f; near %.0f "
                   "ns, far %.0f ns (%.0f%% far)\n",
                r->xsm_done, r->xsm_min, r->xsm_med, r->xsm_max, r->xsm_near, r->xsm_far,
                100 * r->xsm_far_frac);
}

int gpk_write_plots(const gpk_results *r, const char *dir)
{
    char path[4096];
    FILE *f;
    int rc = 0;
    if (r->curves_done) {
        gpk_series s[GPK_NCURVE];
        int ns = 0;
        for (int c = 0; c < GPK_NCURVE; c++) {
            if (gpk_curves[c].by_stride)
                continue;
            s[ns].name = gpk_curves[c].key;
            s[ns].x = r->curve[c].x;
            s[ns].y = r->curve[c].y;
            s[ns].n = r->curve[c].n;
            ns++;
        }
        snprintf(path, sizeof path, "%s/latency-curves.svg", dir);
        if ((f = fopen(path, "w"))) {
            char title[400];
            snprintf(title, sizeof title, "%s: dependent-load latency vs footprint", r->dev.name);
            rc |= gpk_svg_curves(f, title, "footprint (bytes)", "cycles per load", s, ns);
            fclose(f);
        }
        snprintf(path, sizeof path, "%s/curves.csv", dir);
        if ((f = fopen(path, "w"))) {
            fprintf(f, "# gpupeak latency curves on %s; x bytes, y cycles per load\n",
                    r->dev.name);
            for (int c = 0; c < GPK_NCURVE; c++) {
                fprintf(f, "# series %s\n", gpk_curves[c].key);
                for (int i = 0; i < r->curve[c].n; i++)
                    fprintf(f, "%.0f,%.3f\n", r->curve[c].x[i], r->curve[c].y[i]);
            }
            /* fine sweeps past capacity: x bytes, y cycles per load */
            for (int c = 0; c < GPK_NSWEEP; c++) {
                fprintf(f, "# series %s_assoc_sweep\n", gpk_sweeps[c].key);
                for (int i = 0; i < r->sweep[c].n; i++)
                    fprintf(f, "%.0f,%.3f\n", r->sweep[c].x[i], r->sweep[c].y[i]);
            }
            /* associativity: x = lines in the chase, y = cycles per load */
            for (int c = 0; c < GPK_NASSOC; c++) {
                if (r->assoc[c].done != 1 || gpk_assocs[c].same_as)
                    continue;
                for (int i = 0; i < gpk_assocs[c].ns; i++) {
                    fprintf(f, "# series %s_assoc_%.0f\n", gpk_assocs[c].key,
                            gpk_assocs[c].strides[i]);
                    for (int k = 0; k < GPK_AS_LINES; k++)
                        if (!isnan(r->assoc[c].lat[i * GPK_AS_LINES + k]))
                            fprintf(f, "%.0f,%.3f\n", r->assoc[c].lines[k],
                                    r->assoc[c].lat[i * GPK_AS_LINES + k]);
                }
            }
            fclose(f);
        }
        /* L1 and L2 in one plot, the constant caches (cycles 30-110) in another */
        for (int pl = 0; pl < 2; pl++) {
            gpk_series as[GPK_NASSOC * GPK_ASSOC_MAXS];
            char names[GPK_NASSOC * GPK_ASSOC_MAXS][48], title[400];
            int na = 0;
            snprintf(path, sizeof path, "%s/%s", dir,
                     pl == 0 ? "assoc-curves.svg" : "assoc-const.svg");
            for (int c = 0; c < GPK_NASSOC; c++) {
                const gpk_assoc_def *d = &gpk_assocs[c];
                if ((d->space == GPK_C_CONST) != pl || d->same_as)
                    continue;
                for (int i = 0; r->assoc[c].done == 1 && i < d->ns; i++) {
                    if (d->strides[i] < KB)
                        snprintf(names[na], sizeof names[na], "%s stride %.0f B", d->key,
                                 d->strides[i]);
                    else
                        snprintf(names[na], sizeof names[na], "%s stride %.0f KB", d->key,
                                 d->strides[i] / 1024);
                    as[na].name = names[na];
                    as[na].x = r->assoc[c].lines;
                    as[na].y = r->assoc[c].lat + i * GPK_AS_LINES;
                    as[na].n = GPK_AS_LINES;
                    na++;
                }
            }
            if (!na || !(f = fopen(path, "w")))
                continue;
            snprintf(title, sizeof title, "%s: latency vs lines at a fixed stride (%s)",
                     r->dev.name, pl == 0 ? "L1, L2 associativity" : "constant caches");
            rc |= gpk_svg_curves(f, title, "lines in the chase", "cycles per load", as, na);
            fclose(f);
        }
    }
    /* each fine sweep with the best LRU fit over it */
    for (int c = 0; r->curves_done && c < GPK_NSWEEP; c++) {
        const gpk_sweep_res *w = &r->sweep[c];
        static double model[GPK_SW_MAX];
        char title[400], fitname[96];
        if (w->done != 1 || w->n < 2)
            continue;
        for (int i = 0; i < w->n; i++)
            model[i] = w->t_hit + (w->t_miss - w->t_hit) *
                                      gpk_assoc_lru_frac(w->x[i], w->fit.capacity_bytes,
                                                         w->fit.best_w);
        snprintf(fitname, sizeof fitname, "LRU fit, %d ways%s", w->fit.best_w,
                 w->rc == 1 ? "" : " (rejected)");
        gpk_series sv[2] = {{"measured", w->x, w->y, w->n}, {fitname, w->x, model, w->n}};
        snprintf(path, sizeof path, "%s/assoc-sweep-%s.svg", dir, gpk_sweeps[c].key);
        if ((f = fopen(path, "w"))) {
            snprintf(title, sizeof title, "%s: %s latency just past capacity (associativity fit)",
                     r->dev.name, gpk_sweeps[c].key);
            rc |= gpk_svg_curves(f, title, "footprint (bytes)", "cycles per load", sv, 2);
            fclose(f);
        }
    }
    if (r->xsm_done) {
        const int n = r->xsm_n;
        snprintf(path, sizeof path, "%s/cross-sm.svg", dir);
        if ((f = fopen(path, "w"))) {
            char title[400];
            snprintf(title, sizeof title, "%s: one-way atomicCAS latency between SMs (ns)",
                     r->dev.name);
            rc |= gpk_svg_heatmap(f, title, "ns", r->xsm_ns, n);
            fclose(f);
        }
        snprintf(path, sizeof path, "%s/cross-sm.csv", dir);
        if ((f = fopen(path, "w"))) {
            fprintf(f, "# one-way ns, row and column = %%smid; empty = not measured\n");
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (j)
                        fputc(',', f);
                    if (isfinite(r->xsm_ns[i * n + j]))
                        fprintf(f, "%.1f", r->xsm_ns[i * n + j]);
                }
                fputc('\n', f);
            }
            fclose(f);
        }
    }
    return rc;
}
