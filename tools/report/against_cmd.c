/* against_cmd.c - see against_cmd.h. */
#include "against_cmd.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/ncu/against.h"
#include "metrics/ncu/ncu_raw.h"
#include "metrics/report/against_out.h"
#include "metrics/report/report.h"
#include "util/textio.h"

__attribute__((format(printf, 2, 3))) static void gp_ag_say(FILE *err, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fputs("gpuprof-report: ", err);
    gp_text_plain(err, msg);
    fputc('\n', err);
}

/* Refuses a table whose compared metrics are in scaled units (ncu without
 * --print-units base): every value would differ by a power of ten. */
static int gp_ag_units(const gp_ncu_table *t, const gp_against_result *res, FILE *err)
{
    size_t m;
    for (m = 0; m < res->n_metrics; m++) {
        long c = gp_ncu_raw_col(t, res->metrics[m].name);
        if (c >= 0 && gp_ncu_raw_scaled_unit(t->units[c])) {
            gp_ag_say(err,
                      "%s: %s is in %s, not in its base unit; record Nsight Compute's CSV "
                      "with --print-units base",
                      t->name, res->metrics[m].name, t->units[c]);
            return -1;
        }
    }
    return 0;
}

/* gpuprof's launches, in the order of the records, as the judge sees them. */
static gp_against_launch *gp_ag_launches(const gp_report *r)
{
    gp_against_launch *l = calloc(r->n_launch_rows ? r->n_launch_rows : 1, sizeof *l);
    size_t i;
    if (!l)
        return NULL;
    for (i = 0; i < r->n_launch_rows; i++) {
        const gp_report_launch *x = &r->launch_rows[i];
        l[i].kernel = x->l.kernel;
        l[i].n_metrics = x->l.n_metrics;
        l[i].names = x->l.names;
        l[i].values = x->l.values;
        l[i].cc_major = l[i].cc_minor = -1;
        if (x->dev >= 0 && r->devices[x->dev].d.from_record) {
            const gp_device *d = &r->devices[x->dev].d;
            l[i].device = d->name;
            l[i].cc_major = d->cc_major;
            l[i].cc_minor = d->cc_minor;
        }
    }
    return l;
}

int gp_against_run(const gp_against_opts *o, char **runs, size_t n_runs, FILE *out, FILE *err)
{
    gp_ncu_table *t = calloc(o->n_ncu + 2, sizeof *t);
    const gp_ncu_table **again = calloc(o->n_ncu ? o->n_ncu : 1, sizeof *again);
    gp_report *r = calloc(1, sizeof *r);
    gp_against_launch *l = NULL;
    gp_against_result res;
    gp_against_inputs in;
    size_t i, n_t = 0;
    int rc = -2, read_any = 0, judged = 0;
    char msg[768];
    memset(&res, 0, sizeof res);
    if (!t || !again || !r) {
        gp_ag_say(err, "out of memory");
        goto out;
    }
    for (i = 0; i < o->n_ncu; i++, n_t++)
        if (gp_ncu_raw_load(&t[i], o->ncu[i], msg, sizeof msg) < 0) {
            gp_ag_say(err, "%s", msg);
            goto out;
        }
    for (i = 0; i < o->n_one_pass && i < 2; i++, n_t++)
        if (gp_ncu_raw_load(&t[n_t], o->one_pass[i], msg, sizeof msg) < 0) {
            gp_ag_say(err, "%s", msg);
            goto out;
        }
    gp_report_init(r, NULL);
    r->keep_launches = 1;
    r->skip_source = 1;
    for (i = 0; i < n_runs; i++)
        if (gp_report_load(r, runs[i], err) >= 0)
            read_any = 1;
    if (!read_any)
        goto out;
    if (r->bad_lines)
        gp_ag_say(err, "%ld malformed line%s skipped", r->bad_lines, r->bad_lines == 1 ? "" : "s");
    gp_report_finish(r);
    if (!(l = gp_ag_launches(r))) {
        gp_ag_say(err, "out of memory");
        goto out;
    }
    for (i = 1; i < o->n_ncu; i++)
        again[i - 1] = &t[i];
    const gp_ncu_table *one_pass = o->n_one_pass > 0 ? &t[o->n_ncu] : NULL;
    const gp_ncu_table *one_pass_again = o->n_one_pass > 1 ? &t[o->n_ncu + 1] : NULL;
    if (gp_against_judge(l, r->n_launch_rows, &t[0], again, o->n_ncu - 1, one_pass,
                         one_pass_again, &res) < 0) {
        gp_ag_say(err, "out of memory");
        goto out;
    }
    judged = 1;
    for (i = 0; i < n_t; i++)
        if (gp_ag_units(&t[i], &res, err) < 0)
            goto out;
    in = (gp_against_inputs){.run = runs[0],
                             .n_run = n_runs,
                             .oracle = &t[0],
                             .again = again,
                             .n_again = o->n_ncu - 1,
                             .one_pass = one_pass,
                             .one_pass_again = one_pass_again};
    if ((o->format == GP_AGAINST_JSON  ? gp_against_json(&res, &in, out)
         : o->format == GP_AGAINST_CSV ? gp_against_csv(&res, &in, out)
                                       : gp_against_text(&res, &in, out)) < 0) {
        rc = -1;
        goto out;
    }
    rc = gp_against_status(&res);
    if (rc == 1 && res.agree + res.differ == 0 && fflush(out) == 0)
        gp_ag_say(err, "nothing compared: no (launch, metric) pair has a value on both sides");
out:
    if (judged)
        gp_against_free(&res);
    free(l);
    for (i = 0; t && i < n_t; i++)
        gp_ncu_raw_free(&t[i]);
    free(t);
    free(again);
    if (r) {
        gp_report_free(r);
        free(r);
    }
    return rc;
}
