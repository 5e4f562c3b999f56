/* facts.h - the non-counter names of the formula language (facts.def):
 * launch, device, occupancy and measured-peak facts. */
#ifndef GP_FACTS_H
#define GP_FACTS_H

#include <stddef.h>

#include "metrics/records/device.h"
#include "metrics/catalog/occupancy.h"
#include "metrics/catalog/peaks.h"
#include "metrics/records/record.h"

typedef struct {
    const gp_launch *launch;   /* may be NULL: launch.* facts are n/a */
    const gp_device *device;   /* never NULL */
    const gp_occ_result *occ;  /* may be NULL: occ.* facts are n/a */
    const gp_peaks *peaks;     /* may be NULL: peak.* facts are n/a */
} gp_facts;

typedef struct {
    const char *name, *unit, *description;
} gp_fact_def;

extern const gp_fact_def gp_fact_defs[];
extern const size_t gp_fact_count;

/* Resolves a fact name.  Returns 0 with *v (NaN with a reason when its source
 * is absent), or -1 when name is not a fact. */
int gp_facts_lookup(const gp_facts *f, const char *name, size_t len, double *v, char *why,
                    size_t whylen);

/* The facts of launch l on device d: its occupancy computed from the
 * record into *occ, which f points at unless the launch's shape is
 * impossible (occ.* facts n/a).  peaks may be NULL. */
void gp_facts_of_launch(gp_facts *f, const gp_launch *l, const gp_device *d, const gp_peaks *peaks,
                        gp_occ_result *occ);

/* True when name[0..len) is a fact name (no values needed: build-time check). */
int gp_facts_known(const char *name, size_t len);

#endif
