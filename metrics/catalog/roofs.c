/* roofs.c - see roofs.h. */
#include "metrics/catalog/roofs.h"

#include <math.h>
#include <stdio.h>

const gp_roof_def gp_roof_defs[GP_ROOF_COUNT] = {
#define GP_ROOF(id, nm, ach, ar, pk, be, clk, qty, nc)                                             \
    {nm, ach, ar, pk, be, qty, nc, clk, -1, -1, -1},
#include "metrics/catalog/roofs.def"
#undef GP_ROOF
};

/* The derived metrics and keys by index, looked up once: the table holds
 * names so that a renamed metric is caught by test_roofs (every index >= 0). */
static int gp_roofs_ix[GP_ROOF_COUNT][3];
static int gp_roofs_ready;

static void gp_roofs_init(void)
{
    int i;
    if (gp_roofs_ready)
        return;
    for (i = 0; i < GP_ROOF_COUNT; i++) {
        gp_roofs_ix[i][0] = gp_derived_index(gp_roof_defs[i].achieved);
        gp_roofs_ix[i][1] = gp_derived_index(gp_roof_defs[i].arch);
        gp_roofs_ix[i][2] = gp_peaks_key(gp_roof_defs[i].peak);
    }
    gp_roofs_ready = 1;
}

static double gp_roofs_v(const double *v, int m)
{
    return m >= 0 ? v[m] : NAN;
}

int gp_roofs_check(const double *v, const gp_peaks *p, gp_roof_check *out)
{
    int i, bugs = 0;
    gp_roofs_init();
    for (i = 0; i < GP_ROOF_COUNT; i++) {
        const gp_roof_def *d = &gp_roof_defs[i];
        gp_roof_check *c = &out[i];
        double sm_hz = gp_roofs_v(v, GP_M_SM_CLOCK),
               mhz = p->clock_mhz[gp_roofs_ix[i][2] < 0 ? 0 : gp_roofs_ix[i][2]];
        c->achieved = gp_roofs_v(v, gp_roofs_ix[i][0]);
        c->arch = gp_roofs_v(v, gp_roofs_ix[i][1]);
        c->measured = gp_peaks_get(p, gp_roofs_ix[i][2]);
        c->measured_here = c->measured;
        c->bug = 0;
        c->why[0] = 0;
        /* a clocked ceiling measured at gpupeak's clock is moved to the
         * kernel's: per cycle the two must agree whatever the clocks */
        if (d->clocked && !isnan(c->measured) && isfinite(sm_hz) && sm_hz > 0 && mhz > 0)
            c->measured_here = c->measured * sm_hz / (mhz * 1e6);
        if (!isnan(c->measured_here) && !isnan(c->arch) &&
            c->measured_here >
                c->arch * (1 + (d->clocked && !(mhz > 0) ? GP_ROOFS_SLACK_NO_CLOCK
                                                         : GP_ROOFS_SLACK))) {
            c->bug = 1;
            snprintf(c->why, sizeof c->why,
                     "bug: the measured %s ceiling (%.4g%s) is above the architectural one "
                     "(%.4g): they count different quantities, or the peaks are another "
                     "device's; not drawn",
                     d->name, c->measured_here,
                     d->clocked && mhz > 0 ? " at the kernel's clock" : "", c->arch);
        } else if (!isnan(c->achieved) && !isnan(c->arch) &&
                   c->achieved > c->arch * (1 + GP_ROOFS_SLACK)) {
            c->bug = 1;
            snprintf(c->why, sizeof c->why,
                     "bug: the kernel's %s rate (%.4g) is above the architectural ceiling "
                     "(%.4g): the counters disagree",
                     d->name, c->achieved, c->arch);
        }
        bugs += c->bug;
    }
    return bugs;
}
