/* roofline.c - see roofline.h. */
#include "metrics/catalog/roofline.h"

#include "metrics/catalog/roofs.h"

#include <math.h>
#include <stdio.h>

const char *gp_roofline_level_name(gp_level l)
{
    static const char *const names[] = {"DRAM", "L2", "L1"};
    return l < GP_LEVEL_COUNT ? names[l] : "?";
}

static int gp_roofline_rate(double x)
{
    return isfinite(x) && x > 0;
}

/* One level against one set of ceilings.  Only positive finite ceilings
 * draw a roof, and a % of attainable exists only where the kernel's rate
 * does: anything else stays NaN, never an infinity or a division by 0. */
static void gp_roofline_roof(double ai, double perf, double compute, double bw, gp_roof *r)
{
    r->compute = compute;
    r->bandwidth = bw;
    r->ridge = gp_roofline_rate(compute) && gp_roofline_rate(bw) ? compute / bw : NAN;
    if (!isfinite(r->ridge))
        r->ridge = NAN;
    r->attainable = r->pct = NAN;
    r->memory_bound = 0;
    if (!isfinite(ai) || ai < 0 || isnan(r->ridge))
        return;
    r->memory_bound = ai * bw < compute;
    r->attainable = r->memory_bound ? ai * bw : compute;
    if (!gp_roofline_rate(r->attainable)) {
        r->attainable = NAN;
        r->memory_bound = 0;
        return;
    }
    r->pct = 100 * perf / r->attainable;
    if (!isfinite(r->pct) || r->pct < 0)
        r->pct = NAN;
}

static int gp_roofline_binding(const gp_roofline *r, int arch, int *compute_binds)
{
    int best = -1, l;
    double lowest = INFINITY;
    *compute_binds = 0;
    for (l = 0; l < GP_LEVEL_COUNT; l++) {
        const gp_roof *f = arch ? &r->level[l].arch : &r->level[l].measured;
        if (!isnan(f->attainable) && f->attainable < lowest) {
            lowest = f->attainable;
            best = l;
        }
    }
    if (best >= 0) {
        const gp_roof *f = arch ? &r->level[best].arch : &r->level[best].measured;
        *compute_binds = !f->memory_bound;
    }
    return best;
}

void gp_roofline_compute(const double *v, const char *perf_why, const gp_peaks *peaks,
                         gp_roofline *r)
{
    static const int ai_of[GP_LEVEL_COUNT] = {GP_M_AI_DRAM, GP_M_AI_L2, GP_M_AI_L1};
    static const int arch_bw_of[GP_LEVEL_COUNT] = {GP_M_ARCH_DRAM_BYTES_PER_S,
                                                   GP_M_ARCH_L2_BYTES_PER_S,
                                                   GP_M_ARCH_L1_BYTES_PER_S};
    gp_roof_check chk[GP_ROOF_COUNT];
    double meas[GP_ROOF_COUNT], meas_bw[GP_LEVEL_COUNT];
    double f32 = v[GP_M_FP32_FLOPS], f64 = v[GP_M_FP64_FLOPS], f16 = v[GP_M_FP16_FLOPS];
    double arch_c = v[GP_M_ARCH_FP32_FLOPS_PER_S], meas_c;
    int l, i, main_roof = GP_ROOF_FP32;
    /* every measured ceiling at the kernel's clock, and none drawn that is
     * above its architectural one */
    gp_roofs_check(v, peaks, chk);
    r->bug[0] = 0;
    for (i = 0; i < GP_ROOF_COUNT; i++) {
        meas[i] = chk[i].bug ? NAN : chk[i].measured_here;
        if (chk[i].bug && !r->bug[0])
            snprintf(r->bug, sizeof r->bug, "%s", chk[i].why);
    }
    meas_bw[GP_LEVEL_DRAM] = meas[GP_ROOF_DRAM];
    meas_bw[GP_LEVEL_L2] = meas[GP_ROOF_L2];
    meas_bw[GP_LEVEL_L1] = meas[GP_ROOF_L1];
    r->precision = "FP32";
    if (!isnan(f64) && f64 > (isnan(f32) ? 0 : f32) && f64 >= (isnan(f16) ? 0 : f16)) {
        r->precision = "FP64";
        arch_c = v[GP_M_ARCH_FP64_FLOPS_PER_S];
        main_roof = GP_ROOF_FP64;
    } else if (!isnan(f16) && f16 > (isnan(f32) ? 0 : f32)) {
        r->precision = "FP16";
        arch_c = v[GP_M_ARCH_FP16_FLOPS_PER_S];
        main_roof = GP_ROOF_FP16;
    }
    meas_c = meas[main_roof];
    r->perf = v[GP_M_FLOPS_PER_S];
    snprintf(r->why, sizeof r->why, "%s", isnan(r->perf) && perf_why ? perf_why : "");
    for (l = 0; l < GP_LEVEL_COUNT; l++) {
        r->level[l].ai = v[ai_of[l]];
        gp_roofline_roof(r->level[l].ai, r->perf, arch_c, v[arch_bw_of[l]], &r->level[l].arch);
        gp_roofline_roof(r->level[l].ai, r->perf, meas_c, meas_bw[l], &r->level[l].measured);
    }
    r->arch_binding = gp_roofline_binding(r, 1, &r->arch_compute_binds);
    r->measured_binding = gp_roofline_binding(r, 0, &r->measured_compute_binds);
    if (r->perf == 0) {
        /* no floating-point work: the kernel has no place on a FLOP roofline */
        r->arch_binding = r->measured_binding = -1;
        snprintf(r->why, sizeof r->why, "no floating-point work");
    }
}

void gp_roofline_describe(const gp_roofline *r, int arch, char *buf, size_t len)
{
    int b = arch ? r->arch_binding : r->measured_binding;
    int cb = arch ? r->arch_compute_binds : r->measured_compute_binds;
    const gp_roof *f;
    char pct[200];
    if (b < 0) {
        snprintf(buf, len, "n/a (%s)",
                 r->why[0] ? r->why
                           : (arch ? "architectural ceilings not collected"
                                   : "no measured ceilings (gpuprof-report --peaks FILE)"));
        return;
    }
    f = arch ? &r->level[b].arch : &r->level[b].measured;
    /* the ceiling that binds is known from the intensity alone; the share of
     * it reached needs the kernel's rate */
    if (isnan(f->pct))
        snprintf(pct, sizeof pct, "%% of attainable n/a (%s)",
                 r->why[0] ? r->why : "the kernel's FLOP rate is n/a");
    else
        snprintf(pct, sizeof pct, "%.1f%% of attainable", f->pct);
    if (cb)
        snprintf(buf, len, "%s compute ceiling binds; %s", r->precision, pct);
    else
        snprintf(buf, len, "%s bandwidth binds (intensity %.3g flop/byte < ridge %.3g); %s",
                 gp_roofline_level_name((gp_level)b), r->level[b].ai, f->ridge, pct);
}
