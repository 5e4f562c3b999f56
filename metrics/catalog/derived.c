/* derived.c - the table of derived.def and its evaluation; see derived.h. */
#include "metrics/catalog/derived.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const gp_derived_def gp_derived_defs[GP_DERIVED_COUNT] = {
#define GP_DERIVED(name, unit, cls, agg, formula, desc) {name, unit, cls, agg, formula, desc},
#include "metrics/catalog/derived.def"
#undef GP_DERIVED
};

gp_agg gp_derived_agg(size_t i)
{
    return strcmp(gp_derived_defs[i].agg_name, "sum") == 0 ? GP_AGG_SUM : GP_AGG_TIME;
}

int gp_derived_index(const char *name)
{
    size_t i;
    for (i = 0; i < GP_DERIVED_COUNT; i++)
        if (strcmp(gp_derived_defs[i].name, name) == 0)
            return (int)i;
    return -1;
}

typedef struct {
    const gp_facts *facts;
    const gp_derived_row *row;
    size_t done; /* metrics evaluated so far */
} gp_derived_ctx;

static int gp_derived_lookup(void *vctx, const char *name, size_t len, double *v, char *why,
                             size_t whylen)
{
    gp_derived_ctx *c = vctx;
    size_t i;
    for (i = 0; i < c->done; i++) {
        if (gp_derived_defs[i].name[0] == name[0] && /* rules most out cheaply */
            strncmp(gp_derived_defs[i].name, name, len) == 0 && gp_derived_defs[i].name[len] == 0) {
            *v = c->row->v[i];
            if (isnan(*v))
                snprintf(why, whylen, "%s", c->row->why[i]);
            return 0;
        }
    }
    if (gp_facts_lookup(c->facts, name, len, v, why, whylen) == 0)
        return 0;
    if (c->facts->launch &&
        gp_record_counter(c->facts->launch, name, len, v, why, whylen) == 0)
        return 0;
    *v = NAN;
    snprintf(why, whylen, "%.*s not collected", (int)len, name);
    return 0;
}

int gp_derived_eval(const gp_facts *facts, gp_derived_row *row)
{
    gp_derived_ctx c = {facts, row, 0};
    int rc = 0;
    for (c.done = 0; c.done < GP_DERIVED_COUNT; c.done++) {
        gp_expr_value out;
        char err[120];
        size_t i = c.done;
        if (gp_expr_eval(gp_derived_defs[i].formula, gp_derived_lookup, &c, &out, err,
                         sizeof err) < 0) {
            snprintf(out.why, sizeof out.why, "formula error: %s", err);
            rc = -1;
        }
        /* every derived metric is a count, a time, a rate or a share: none
         * is negative, and a negative one (a difference of counters that
         * disagree) is no value */
        if (out.value < 0) {
            snprintf(out.why, sizeof out.why,
                     "impossible negative value %.6g: the record's counters disagree", out.value);
            out.value = NAN;
        }
        row->v[i] = out.value;
        snprintf(row->why[i], sizeof row->why[i], "%s", isnan(out.value) ? out.why : "");
    }
    return rc;
}

void gp_derived_row_missing(gp_derived_row *row, const char *why)
{
    size_t i;
    for (i = 0; i < GP_DERIVED_COUNT; i++) {
        row->v[i] = NAN;
        snprintf(row->why[i], sizeof row->why[i], "%s", why);
    }
}
