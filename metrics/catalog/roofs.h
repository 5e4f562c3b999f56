/* roofs.h - the roofs of roofs.def and the invariant that ties their three
 * figures: a measured ceiling above the architectural one means the two
 * count different quantities (or the peaks file is from another device),
 * which is a bug to report, never a line to draw. */
#ifndef GP_ROOFS_H
#define GP_ROOFS_H

#include <stddef.h>

#include "metrics/catalog/derived.h"
#include "metrics/catalog/peaks.h"

typedef enum {
#define GP_ROOF(id, name, achieved, arch, peak, bench, clocked, quantity, ncu) GP_ROOF_##id,
#include "metrics/catalog/roofs.def"
#undef GP_ROOF
    GP_ROOF_COUNT
} gp_roof_id;

typedef struct {
    const char *name, *achieved, *arch, *peak, *bench, *quantity, *ncu;
    int clocked;
    int achieved_m, arch_m, peak_key; /* GP_M_*, GP_M_*, GP_PEAK_* */
} gp_roof_def;

extern const gp_roof_def gp_roof_defs[GP_ROOF_COUNT];

/* How far a measured ceiling may sit above the architectural one, per cycle
 * (rounding of the clocks each was read at), before it is a bug. */
#define GP_ROOFS_SLACK 0.02
/* The same for a clocked ceiling whose file does not say its clock (flat
 * peaks files): compared as rates, allowing for a kernel that ran below the
 * boost clock the figure was measured at (1755 against 1980 MHz: 12.8%). */
#define GP_ROOFS_SLACK_NO_CLOCK 0.15

typedef struct {
    double achieved, arch, measured; /* rates, NaN when n/a */
    /* measured at the kernel's clock (clocked roofs: x kernel clock /
     * gpupeak's clock), the figure the invariant and the roofline use */
    double measured_here;
    int bug;       /* 1: measured above architectural */
    char why[200]; /* the bug, or why measured_here is n/a */
} gp_roof_check;

/* Checks every roof for one kernel's (or launch's) derived row v against the
 * peaks p: out[GP_ROOF_COUNT].  Returns the number of roofs whose measured
 * ceiling is above the architectural one (each with its sentence in why).
 * Also: an achieved rate above the architectural ceiling is a bug of the
 * counters, said the same way. */
int gp_roofs_check(const double *v, const gp_peaks *p, gp_roof_check *out);

#endif
