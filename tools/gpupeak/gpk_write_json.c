/* gpk_write_json.c - peaks.json, schema gpupeak/1 (docs/gpupeak.md): every
 * figure of the run, null with a "why" wherever one could not be measured. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpk_json.h"
#include "gpk_write.h"
#include "util/textio.h"

/* Figures under their names, in order; all null when !valid. */
typedef struct gpk_json_field {
    const char *key;
    double v;
} gpk_json_field;
static void gpk_json_fields(gpk_json *j, const gpk_json_field *f, int n, int valid)
{
    for (int k = 0; k < n; k++)
        gpk_json_num(j, f[k].key, valid ? f[k].v : NAN);
}

/* Wong's strided test of one entry, as geometry.associativity.*.strided. */
static void gpk_json_strided(gpk_json *j, const gpk_results *r, int c)
{
    const gpk_assoc_res *o = &r->assoc[c];
    const gpk_assoc_def *d = &gpk_assocs[c];
    char why[600], series[64];
    gpk_assoc_why(r, c, why, sizeof why);
    gpk_json_obj_begin(j, "strided");
    gpk_json_num(j, "ways", o->done == 1 ? o->a.ways : NAN);
    gpk_json_num(j, "way_bytes", o->done == 1 ? o->a.way_bytes : NAN);
    gpk_json_num(j, "implied_size_bytes", o->done == 1 ? o->a.ways * o->a.way_bytes : NAN);
    gpk_json_str(j, "why", why[0] ? why : NULL);
    if (d->level > 0)
        gpk_json_num(j, "past_latency_cycles", o->done == 1 ? o->hit_lat : NAN);
    gpk_json_arr_begin(j, "strides_bytes");
    for (int i = 0; i < d->ns; i++)
        gpk_json_num(j, NULL, d->strides[i]);
    gpk_json_arr_end(j);
    gpk_json_arr_begin(j, "lines_held_per_stride");
    for (int i = 0; i < d->ns; i++)
        gpk_json_num(j, NULL, o->done == 1 ? o->a.held[i] : NAN);
    gpk_json_arr_end(j);
    gpk_json_arr_begin(j, "lines_tried_per_stride");
    for (int i = 0; i < d->ns; i++)
        gpk_json_num(j, NULL, o->done == 1 ? o->a.tried[i] : NAN);
    gpk_json_arr_end(j);
    snprintf(series, sizeof series, "%s_assoc_STRIDE",
             d->same_as ? d->same_as : d->key);
    gpk_json_str(j, "series", series);
    gpk_json_obj_end(j);
}

/* geometry.associativity.const_l1 / const_l15: the strided test is the
 * method (a constant cache has a plain set index, unlike L1 and L2). */
static void gpk_json_const_assoc(gpk_json *j, const gpk_results *r, int c)
{
    const gpk_assoc_res *o = &r->assoc[c];
    const gpk_assoc_def *d = &gpk_assocs[c];
    const gpk_curve *cc = &r->curve[gpk_curve_index(d->curve)];
    const int ci = gpk_curve_index("const_stride");
    const int ok = o->done == 1 && !isnan(o->a.ways);
    const double line = d->level == 0 && ci >= 0 ? r->curve[ci].sat : NAN;
    char why[600], method[600];
    gpk_assoc_why(r, c, why, sizeof why);
    gpk_json_obj_begin(j, d->key);
    gpk_json_num(j, "ways", ok ? o->a.ways : NAN);
    gpk_json_str(j, "why", ok ? NULL : why);
    snprintf(method, sizeof method,
             "Wong's strided test: a dependent LDC chase (register index, byte offsets) "
             "through a __constant__ array over m = %d..%d lines spaced by a stride of "
             "%.0f-%.0f B, m x stride <= %.0f B, first pass discarded; the lines held before "
             "%s of each row, at the strides that are a multiple of the way size, are the "
             "ways, the smallest such stride the way size",
             d->m0, d->m0 + GPK_AS_LINES - 1, d->strides[0], d->strides[d->ns - 1],
             d->max_bytes,
             d->level == 0 ? "the first climb"
                           : "the first climb past this level's hit latency "
                             "(past_latency_cycles: the footprint curve's plateau)");
    gpk_json_str(j, "method", method);
    gpk_json_num(j, "way_bytes", ok ? o->a.way_bytes : NAN);
    gpk_json_num(j, "capacity_bytes", ok ? o->a.ways * o->a.way_bytes : NAN);
    gpk_json_num(j, "footprint_size_bytes",
                 d->level < cc->nsteps ? cc->steps[d->level].size_below : NAN);
    gpk_json_num(j, "line_bytes", line);
    gpk_json_num(j, "sets", ok && line > 0 ? o->a.way_bytes / line : NAN);
    gpk_json_num(j, "hit_latency_cycles",
                 ok ? (d->level > 0 ? o->hit_lat : o->a.lat_hit) : NAN);
    gpk_json_num(j, "miss_latency_cycles", ok ? o->a.lat_miss : NAN);
    gpk_json_num(j, "seconds", o->seconds);
    gpk_json_strided(j, r, c);
    gpk_json_obj_end(j);
}

static void gpk_json_rate(gpk_json *j, const char *key, const char *unit, const gpk_rate *o,
                          double theo_clk_sm, double theo_value, int sms, double max_mhz,
                          const char *instr)
{
    gpk_json_obj_begin(j, key);
    gpk_json_str(j, "unit", unit);
    if (o->done == 1) {
        gpk_json_num(j, "value", o->value);
        gpk_json_num(j, "per_clk_per_sm", o->per_clk_sm);
        gpk_json_num(j, "clock_mhz", o->clk_mhz);
    } else {
        gpk_json_num(j, "value", NAN);
        gpk_json_num(j, "per_clk_per_sm", NAN);
        gpk_json_num(j, "clock_mhz", NAN);
        gpk_json_str(j, "why", o->done == 3 ? o->why : gpk_why(o->done));
    }
    gpk_json_num(j, "theoretical_per_clk_per_sm", theo_clk_sm);
    /* theoretical rate at the device's peak clock, or from memory attributes */
    gpk_json_num(j, "theoretical", isfinite(theo_value) ? theo_value
                                                         : theo_clk_sm * sms * max_mhz * 1e6);
    gpk_json_num(j, "pct_of_theoretical",
                 o->done == 1 ? 100.0 * o->per_clk_sm / theo_clk_sm : NAN);
    if (instr)
        gpk_json_str(j, "sass", instr);
    gpk_json_obj_end(j);
}

int gpk_write_json(const gpk_results *r, const char *path)
{
    FILE *f = fopen(path, "w");
    gpk_json j;
    char buf[64];
    const int sms = r->dev.sm_count;
    const double maxmhz = r->dev.max_clock_khz / 1e3;
    if (!f) {
        fputs("gpupeak: cannot write ", stderr);
        gp_text_plain(stderr, path);
        fprintf(stderr, ": %s\n", strerror(errno));
        return -1;
    }
    gpk_json_init(&j, f);
    gpk_json_obj_begin(&j, NULL);
    gpk_json_str(&j, "schema", "gpupeak/1");
    gpk_json_str(&j, "mode", r->quick ? "quick" : "full");
    gpk_json_num(&j, "seconds", r->seconds);
    gpk_json_obj_begin(&j, "device");
    gpk_json_str(&j, "name", r->dev.name);
    snprintf(buf, sizeof buf, "%d.%d", r->dev.cc_major, r->dev.cc_minor);
    gpk_json_str(&j, "compute_capability", buf);
    gpk_json_int(&j, "sm_count", sms);
    gpk_json_num(&j, "max_sm_clock_mhz", maxmhz);
    gpk_json_num(&j, "mem_clock_mhz", r->dev.mem_clock_khz / 1e3);
    gpk_json_int(&j, "mem_bus_bits", r->dev.mem_bus_bits);
    gpk_json_int(&j, "l2_bytes", r->dev.l2_bytes);
    gpk_json_int(&j, "shared_per_sm_bytes", r->dev.smem_per_sm);
    gpk_json_obj_end(&j);
    gpk_json_num(&j, "sm_clock_mhz", r->clk_mhz);

    gpk_json_obj_begin(&j, "throughput");
    for (int i = 0; i < GPK_T_COUNT; i++)
        gpk_json_rate(&j, gpk_tputs[i].key, gpk_tputs[i].unit, &r->tput[i], gpk_tputs[i].theo,
                      NAN, sms, maxmhz, gpk_tputs[i].instr);
    gpk_json_obj_end(&j);

    gpk_json_obj_begin(&j, "bandwidth");
    for (int i = 0; i < GPK_M_COUNT; i++) {
        const gpk_mem_def *d = &gpk_mems[i];
        double theo = d->theo, theo_v = NAN;
        if (d->theo == GPK_THEO_DRAM) {
            theo_v = gpk_dram_theo(&r->dev);
            /* per clock per SM at the clock the test ran at */
            theo = r->mem[i].done == 1 ? theo_v / (r->mem[i].clk_mhz * 1e6) / sms : NAN;
        }
        gpk_json_rate(&j, d->key, "B/s", &r->mem[i], theo, theo_v, sms, maxmhz, NULL);
    }
    gpk_json_obj_end(&j);

    gpk_json_arr_begin(&j, "dram_copy_variants");
    for (int i = 0; i < r->ncopyv; i++) {
        gpk_json_obj_begin(&j, NULL);
        gpk_json_str(&j, "name", r->copyv[i].name);
        gpk_json_num(&j, "value", r->copyv[i].bytes_per_s);
        gpk_json_num(&j, "pct_of_theoretical",
                     100.0 * r->copyv[i].bytes_per_s / gpk_dram_theo(&r->dev));
        gpk_json_num(&j, "clock_mhz", r->copyv[i].clk_mhz);
        gpk_json_bool(&j, "reference_only", r->copyv[i].reference);
        if (r->copyv[i].why)
            gpk_json_str(&j, "why", r->copyv[i].why);
        gpk_json_obj_end(&j);
    }
    gpk_json_arr_end(&j);

    gpk_json_obj_begin(&j, "latency");
    for (int i = 0; i < GPK_L_COUNT; i++) {
        const gpk_lat *o = &r->lat[i];
        gpk_json_obj_begin(&j, gpk_lats[i].key);
        gpk_json_num(&j, "cycles", o->done == 1 ? o->cycles : NAN);
        gpk_json_num(&j, "ns", o->done == 1 ? o->ns : NAN);
        gpk_json_num(&j, "clock_mhz", o->done == 1 ? o->clk_mhz : NAN);
        if (o->done != 1)
            gpk_json_str(&j, "why", o->done == 3 ? gpk_lats[i].skip : gpk_why(o->done));
        gpk_json_obj_end(&j);
    }
    gpk_json_obj_end(&j);

    /* geometry read off the curves */
    gpk_json_obj_begin(&j, "geometry");
    if (r->curves_done) {
        const gpk_curve *l1 = &r->curve[gpk_curve_index("l1_footprint")];
        const gpk_curve *l2 = &r->curve[gpk_curve_index("l2_footprint")];
        const gpk_curve *cc = &r->curve[gpk_curve_index("const_footprint")];
        const gpk_curve *s1 = &r->curve[gpk_curve_index("l1_stride")];
        const gpk_curve *s2 = &r->curve[gpk_curve_index("l2_stride")];
        const double mhz = r->clk_mhz;
        gpk_json_obj_begin(&j, "l1");
        gpk_json_num(&j, "size_bytes", l1->nsteps > 0 ? l1->steps[0].size_below : NAN);
        gpk_json_num(&j, "size_upper_bound_bytes",
                     l1->nsteps > 0 ? l1->steps[0].size_above : NAN);
        gpk_json_num(&j, "hit_latency_cycles", l1->nsteps > 0 ? l1->steps[0].lat_below : NAN);
        gpk_json_num(&j, "miss_latency_cycles", l1->nsteps > 0 ? l1->steps[0].lat_above : NAN);
        gpk_json_num(&j, "fetch_granularity_bytes", s1->sat);
        gpk_json_obj_end(&j);
        /* One step: L2 then DRAM.  Two steps (Hopper): a footprint past the
         * first leaves the near partition's reach and is served by the far
         * one; past the second it goes to DRAM. */
        const int two = l2->nsteps >= 2;
        const gpk_step *last_step = l2->nsteps > 0 ? &l2->steps[l2->nsteps - 1] : NULL;
        gpk_json_obj_begin(&j, "l2");
        gpk_json_num(&j, "size_bytes", last_step ? last_step->size_below : NAN);
        gpk_json_num(&j, "size_upper_bound_bytes", last_step ? last_step->size_above : NAN);
        gpk_json_num(&j, "hit_latency_cycles", l2->nsteps > 0 ? l2->steps[0].lat_below : NAN);
        gpk_json_num(&j, "near_reach_bytes", two ? l2->steps[0].size_below : NAN);
        gpk_json_num(&j, "near_latency_cycles", two ? l2->steps[0].lat_below : NAN);
        gpk_json_num(&j, "far_latency_cycles", two ? l2->steps[1].lat_below : NAN);
        gpk_json_num(&j, "near_latency_ns", two ? l2->steps[0].lat_below / mhz * 1e3 : NAN);
        gpk_json_num(&j, "far_latency_ns", two ? l2->steps[1].lat_below / mhz * 1e3 : NAN);
        gpk_json_obj_begin(&j, "single_load_samples");
        gpk_json_int(&j, "from_smid", r->l2nf_smid);
        gpk_json_num(&j, "low_cycles", r->l2nf_done ? r->l2_near : NAN);
        gpk_json_num(&j, "high_cycles", r->l2nf_done && r->l2nf_split ? r->l2_far : NAN);
        gpk_json_num(&j, "high_fraction", r->l2nf_done && r->l2nf_split ? r->l2_far_frac : NAN);
        gpk_json_obj_end(&j);
        gpk_json_num(&j, "dram_fetch_granularity_bytes", s2->sat);
        gpk_json_obj_end(&j);
        gpk_json_obj_begin(&j, "dram");
        gpk_json_num(&j, "latency_cycles", l2->last_lat);
        gpk_json_num(&j, "latency_ns", l2->last_lat / mhz * 1e3);
        gpk_json_obj_end(&j);
        gpk_json_obj_begin(&j, "tlb");
        gpk_json_str(&j, "method", "dependent chase of 64-bit pointers, one load per "
                                   "stride-sized block (a new page each load), ld.global.cg, "
                                   "first pass discarded; blocks visited in a random single "
                                   "cycle (Sattolo shuffle, fixed seed), or in address order "
                                   "for the _seq sweeps");
        gpk_json_num(&j, "buffer_bytes", r->tlb_buf);
        for (int c = 0; c < GPK_NCURVE; c++) {
            const gpk_curve *t = &r->curve[c];
            if (!GPK_IS_TLB(gpk_curves[c].space))
                continue;
            gpk_json_obj_begin(&j, gpk_curves[c].key);
            if (gpk_curves[c].space == GPK_C_TLB_VMM) {
                gpk_json_str(&j, "method",
                             "the same chase over memory mapped from separate physical chunks "
                             "(cuMemCreate of the minimum granularity, at least 2 MB, mapped in "
                             "shuffled order by cuMemMap into one cuMemAddressReserve range), "
                             "so no translation covers more than one chunk");
                gpk_json_num(&j, "chunk_bytes", r->vmm_chunk > 0 ? r->vmm_chunk : NAN);
                gpk_json_num(&j, "mapped_bytes", r->vmm_mapped > 0 ? r->vmm_mapped : NAN);
                gpk_json_num(&j, "map_seconds", r->vmm_mapped > 0 ? r->vmm_map_s : NAN);
                if (r->vmm_why || t->n == 0)
                    gpk_json_str(&j, "why", r->vmm_why ? r->vmm_why : gpk_why(-1));
            }
            gpk_json_str(&j, "order", gpk_curves[c].order ? "random cycle" : "address order");
            gpk_json_num(&j, "stride_bytes", (double)gpk_curves[c].fixed);
            gpk_json_num(&j, "largest_footprint_bytes", t->n ? t->x[t->n - 1] : NAN);
            /* level k: reach = the last footprint before the k-th climb; the
             * last level's reach is open (past the largest footprint) */
            gpk_json_arr_begin(&j, "levels");
            for (int k = 0; k <= t->nsteps && t->n > 0; k++) {
                gpk_json_obj_begin(&j, NULL);
                gpk_json_num(&j, "reach_bytes", k < t->nsteps ? t->steps[k].size_below : NAN);
                gpk_json_num(&j, "reach_upper_bound_bytes",
                             k < t->nsteps ? t->steps[k].size_above : NAN);
                gpk_json_num(&j, "reach_at_least_bytes",
                             k < t->nsteps ? t->steps[k].size_below : t->x[t->n - 1]);
                gpk_json_num(&j, "latency_cycles",
                             k < t->nsteps ? t->steps[k].lat_below : t->last_lat);
                gpk_json_num(&j, "entries_if_pages_le_stride",
                             k < t->nsteps ? t->steps[k].size_below / gpk_curves[c].fixed : NAN);
                gpk_json_obj_end(&j);
            }
            gpk_json_arr_end(&j);
            /* the small rise (a next-level TLB hit), fitted */
            gpk_json_obj_begin(&j, "rise");
            {
                const gpk_reach_fit *q = &t->reach;
                const int ok = t->reach_rc == 1;
                gpk_json_str(&j, "model", "y = base + penalty max(0, 1 - reach/F)");
                gpk_json_num(&j, "reach_bytes", ok ? q->reach_bytes : NAN);
                gpk_json_num(&j, "entries_if_pages_le_stride",
                             ok ? q->reach_bytes / gpk_curves[c].fixed : NAN);
                /* the best fit's figures, also when its reach was rejected */
                const gpk_json_field fit[] = {
                    {"penalty_cycles", q->penalty_cycles}, {"base_cycles", q->base_cycles},
                    {"rms_cycles", q->rms_cycles},         {"noise_cycles", q->noise_cycles},
                    {"flat_ratio", q->flat_ratio},         {"best_fit_reach_bytes", q->best_reach},
                };
                gpk_json_fields(&j, fit, 6, t->reach_rc >= 0);
                gpk_json_str(&j, "why", ok ? NULL
                                           : t->reach_rc == 0 ? q->why
                                                              : "too few points to fit");
            }
            gpk_json_obj_end(&j);
            gpk_json_obj_end(&j);
        }
        gpk_json_obj_end(&j);
        /* constant-cache levels: size from const_footprint, the first
         * level's line from const_stride, ways from the strided test */
        gpk_json_arr_begin(&j, "constant");
        for (int k = 0; k <= cc->nsteps && cc->n > 0; k++) {
            const int ci = gpk_curve_index("const_stride"), ai = gpk_const_assoc(k);
            const double line = k == 0 && ci >= 0 ? r->curve[ci].sat : NAN;
            const int aok = ai >= 0 && r->assoc[ai].done == 1 && !isnan(r->assoc[ai].a.ways);
            char why[400];
            gpk_json_obj_begin(&j, NULL);
            gpk_json_str(&j, "name", k == 0 ? "L1" : k == 1 ? "L1.5" : "beyond");
            gpk_json_num(&j, "size_bytes", k < cc->nsteps ? cc->steps[k].size_below : NAN);
            gpk_json_num(&j, "size_upper_bound_bytes",
                         k < cc->nsteps ? cc->steps[k].size_above : NAN);
            gpk_json_num(&j, "size_at_least_bytes",
                         k < cc->nsteps ? cc->steps[k].size_below : cc->x[cc->n - 1]);
            gpk_json_num(&j, "latency_cycles", k < cc->nsteps ? cc->steps[k].lat_below
                                                              : cc->last_lat);
            gpk_json_num(&j, "line_bytes", line);
            gpk_json_num(&j, "ways", aok ? r->assoc[ai].a.ways : NAN);
            gpk_json_num(&j, "way_bytes", aok ? r->assoc[ai].a.way_bytes : NAN);
            why[0] = 0;
            if (k >= cc->nsteps)
                snprintf(why, sizeof why,
                         "size: not exceeded within the %.0f B a __constant__ array may hold "
                         "(size_at_least_bytes); line: needs a stride sweep past its capacity",
                         GPK_CONST_BYTES);
            else if (isnan(line))
                snprintf(why, sizeof why, "line: const_stride did not saturate");
            if (!aok)
                snprintf(why + strlen(why), sizeof why - strlen(why), "%sways: see %s",
                         why[0] ? "; " : "",
                         ai >= 0 ? (k == 0 ? "associativity.const_l1" : "associativity.const_l15")
                                 : "no strided test for this level");
            gpk_json_str(&j, "why", why[0] ? why : NULL);
            gpk_json_obj_end(&j);
        }
        gpk_json_arr_end(&j);
        gpk_json_obj_begin(&j, "associativity");
        for (int c = 0; c < GPK_NASSOC; c++) {
            const gpk_assoc_def *d = &gpk_assocs[c];
            const int si = gpk_sweep_index(d->key);
            const gpk_sweep_res *w = si >= 0 ? &r->sweep[si] : NULL;
            char series[64];
            if (d->space == GPK_C_CONST) {
                gpk_json_const_assoc(&j, r, c);
                continue;
            }
            const gpk_assoc_fit *ft = w ? &w->fit : NULL;
            const int ok = w && w->done == 1 && w->rc == 1;
            gpk_json_obj_begin(&j, d->key);
            /* the footprint sweep past capacity with the LRU model fitted */
            gpk_json_num(&j, "ways", ok ? ft->ways : NAN);
            gpk_json_str(&j, "why", ok ? NULL
                                       : !w || w->done == 0 ? gpk_why(-1)
                                       : w->done < 0        ? (w->why ? w->why : gpk_why(-1))
                                                            : ft->why);
            gpk_json_str(&j, "method",
                         "footprint sweep just past capacity, one line (128 B) per step, "
                         "cyclic chase; fitted t(N) = t_hit + (t_miss - t_hit) min(1, "
                         "(W+1)(N-C)/N) for N > C (LRU or FIFO over a set index hash that maps "
                         "each way-sized block onto all sets once), C and whole W by least "
                         "squares, plateaus fixed");
            if (w && w->done == 1) {
                gpk_json_num(&j, "capacity_bytes", ft->capacity_bytes);
                gpk_json_num(&j, "sets", ok ? ft->sets : NAN);
                gpk_json_num(&j, "way_bytes", ok ? ft->capacity_bytes / ft->ways : NAN);
                gpk_json_num(&j, "line_bytes", GPK_SW_LINE);
                gpk_json_int(&j, "best_fit_ways", ft->best_w);
                gpk_json_arr_begin(&j, "ways_range");
                gpk_json_num(&j, NULL, ft->ways_lo);
                gpk_json_num(&j, NULL, ft->ways_hi);
                gpk_json_arr_end(&j);
                gpk_json_num(&j, "hit_latency_cycles", w->t_hit);
                gpk_json_num(&j, "miss_latency_cycles", w->t_miss);
                gpk_json_obj_begin(&j, "fit");
                const gpk_json_field fit[] = {
                    {"rms_cycles", ft->rms_cycles}, {"rms_rel", ft->rms_rel},
                    {"transition_rms_rel", ft->rms_trans_rel}, {"noise_rel", ft->noise_rel},
                    {"limit_rel", ft->limit_rel},
                };
                gpk_json_fields(&j, fit, 5, 1);
                gpk_json_int(&j, "points_below", ft->n_below);
                gpk_json_int(&j, "points_transition", ft->n_transition);
                gpk_json_int(&j, "points_above", ft->n_above);
                gpk_json_obj_end(&j);
                gpk_json_obj_begin(&j, "sweep");
                gpk_json_num(&j, "from_bytes", w->n ? w->x[0] : NAN);
                gpk_json_num(&j, "to_bytes", w->n ? w->x[w->n - 1] : NAN);
                gpk_json_int(&j, "points", w->n);
                gpk_json_num(&j, "seconds", w->seconds);
                snprintf(series, sizeof series, "%s_assoc_sweep", d->key);
                gpk_json_str(&j, "series", series);
                gpk_json_obj_end(&j);
            }
            /* Wong et al.'s m lines at a fixed stride (kept: it shows the hash) */
            gpk_json_strided(&j, r, c);
            gpk_json_obj_end(&j);
        }
        gpk_json_obj_end(&j);
    } else {
        gpk_json_str(&j, "why", gpk_why(0));
    }
    gpk_json_obj_end(&j);

    gpk_json_obj_begin(&j, "cross_sm");
    if (r->xsm_done) {
        gpk_json_str(&j, "method", "atomicCAS ping-pong, global memory, one-way = round trip / 2");
        gpk_json_int(&j, "pairs", r->xsm_done);
        const gpk_json_field xsm[] = {
            {"min_ns", r->xsm_min},   {"median_ns", r->xsm_med}, {"max_ns", r->xsm_max},
            {"near_ns", r->xsm_near}, {"far_ns", r->xsm_far},    {"far_fraction", r->xsm_far_frac},
        };
        gpk_json_fields(&j, xsm, 6, 1);
        gpk_json_str(&j, "matrix_file", "cross-sm.csv");
    } else {
        gpk_json_str(&j, "why", r->quick ? gpk_why(0) : gpk_why(-1));
    }
    gpk_json_obj_end(&j);
    gpk_json_obj_end(&j);
    int rc = gpk_json_finish(&j);
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}
