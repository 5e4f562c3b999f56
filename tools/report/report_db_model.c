/* report_db_model.c - the finished report into the database: files,
 * devices' processes, kernels (ranked, named) with their aggregated metrics
 * and verdicts, and the estimates' derived metrics (report_db.h,
 * gp_rdb_add_report). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/catalog/derived.h"
#include "metrics/report/report.h"
#include "report_db_int.h"

/* A derived metric's row of a kernel or an estimate: the value, or NULL
 * with its reason. */
static int gp_rdb_derived_row(gp_rdb *w, gp_rdb_table t, int64_t owner, size_t m, double v,
                              double bound, const char *why)
{
    gp_rdbv row[5];
    int64_t mid =
        gp_strindex_find(w->names[1], gp_derived_defs[m].name, strlen(gp_derived_defs[m].name));
    int64_t rid = isnan(v) ? gp_rdb_reason_id(w, why && *why ? why : "n/a") : 0;
    size_t n = 0;
    if (mid < 0 || rid < 0) {
        gp_rdb_fail(w, "out of memory");
        return -1;
    }
    row[n++] = gp_rdbv_int(owner);
    row[n++] = gp_rdbv_int(mid);
    row[n++] = gp_rdbv_num(v);
    if (t == GP_RT_EMETRIC)
        row[n++] = gp_rdbv_num(bound);
    row[n++] = isnan(v) ? gp_rdbv_int(rid) : gp_rdbv_null();
    return gp_rdb_row(w, t, row, n);
}

static gp_rdbv gp_rdb_binding(const gp_roofline *roof, int arch)
{
    int b = arch ? roof->arch_binding : roof->measured_binding;
    int compute = arch ? roof->arch_compute_binds : roof->measured_compute_binds;
    return b < 0 ? gp_rdbv_null()
                 : gp_rdbv_text(compute ? "compute" : gp_roofline_level_name((gp_level)b));
}

static double gp_rdb_attainable(const gp_roofline *roof, int arch)
{
    int b = arch ? roof->arch_binding : roof->measured_binding;
    return b < 0 ? NAN : arch ? roof->level[b].arch.pct : roof->level[b].measured.pct;
}

static int gp_rdb_kernel(gp_rdb *w, const gp_report *r, size_t rank, double suite_time)
{
    const gp_kernel_report *k = &r->kernels[rank];
    const gp_kernel_agg *a = &k->agg;
    int64_t id = w->kernel_base + (int64_t)k->seq + 1;
    double dur = a->row.v[GP_M_DURATION];
    gp_rdbv row[25];
    size_t i, n = 0;
    row[n++] = gp_rdbv_int(id);
    row[n++] = w->program_id > 0 ? gp_rdbv_int(w->program_id) : gp_rdbv_null();
    row[n++] = gp_rdbv_int((int64_t)rank + 1);
    row[n++] = gp_rdbv_text(k->name[0] ? k->name : a->kernel);
    row[n++] = gp_rdbv_text(a->kernel);
    row[n++] = gp_rdbv_text(k->mangled);
    row[n++] = gp_rdbv_int(a->device);
    row[n++] = k->dev >= 0 ? gp_rdbv_int(w->device_base + k->dev + 1) : gp_rdbv_null();
    row[n++] = gp_rdbv_int(a->launches);
    row[n++] = gp_rdbv_int(a->estimated);
    row[n++] = gp_rdbv_num(dur);
    row[n++] = gp_rdbv_num(gp_report_time_share(r, k));
    row[n++] = gp_rdbv_num(suite_time > 0 && !isnan(dur) ? 100 * dur / suite_time : NAN);
    row[n++] = gp_rdbv_int(a->blocks);
    row[n++] = gp_rdbv_int(a->threads_per_block);
    row[n++] = gp_rdbv_int(a->regs_per_thread);
    row[n++] = gp_rdbv_int(a->smem_per_block);
    row[n++] = gp_rdbv_text(gp_occupancy_limiter_name(a->occ.limiter));
    row[n++] = gp_rdbv_text(a->occ.advice[0] ? a->occ.advice : NULL);
    row[n++] = gp_rdbv_text(k->roof.precision);
    row[n++] = gp_rdb_binding(&k->roof, 1);
    row[n++] = gp_rdbv_num(gp_rdb_attainable(&k->roof, 1));
    row[n++] = gp_rdb_binding(&k->roof, 0);
    row[n++] = gp_rdbv_num(gp_rdb_attainable(&k->roof, 0));
    row[n++] = gp_rdbv_text(k->roof.bug[0] ? k->roof.bug : NULL);
    if (gp_rdb_row(w, GP_RT_KERNEL, row, n) < 0)
        return -1;
    for (i = 0; i < GP_DERIVED_COUNT; i++)
        if (gp_rdb_derived_row(w, GP_RT_KMETRIC, id, i, a->row.v[i], NAN, a->row.why[i]) < 0)
            return -1;
    for (i = 0; i < k->n_verdicts; i++) {
        const gp_verdict *v = &k->verdicts[i];
        char label[64];
        gp_rdbv vr[9];
        gp_verdict_label(v, label, sizeof label);
        vr[0] = gp_rdbv_int(id);
        vr[1] = gp_rdbv_int((int64_t)i + 1);
        vr[2] = gp_rdbv_text(v->id);
        vr[3] = gp_rdbv_text(label);
        vr[4] = gp_rdbv_text(v->title);
        vr[5] = gp_rdbv_text(v->evidence);
        vr[6] = gp_rdbv_text(v->advice);
        vr[7] = gp_rdbv_text(v->where[0] ? v->where : NULL);
        vr[8] = gp_rdbv_num(v->score);
        if (gp_rdb_row(w, GP_RT_VERDICT, vr, 9) < 0)
            return -1;
    }
    return 0;
}

/* The kernel row an estimate was folded into: the kernel of its name on
 * its device (and model) that the report made. */
static long gp_rdb_estimate_kernel(const gp_report *r, const gp_report_estimate *e)
{
    size_t i;
    int model = e->dev >= 0 ? r->devices[e->dev].model : -1;
    for (i = 0; i < r->n; i++) {
        const gp_kernel_report *k = &r->kernels[i];
        int km = k->dev >= 0 ? r->devices[k->dev].model : -1;
        if (k->agg.device == e->device && km == model && strcmp(k->agg.kernel, e->kernel) == 0)
            return (long)k->seq;
    }
    return -1;
}

int gp_rdb_add_report(gp_rdb *w, const gp_report *r, double suite_time)
{
    size_t i, m;
    gp_rdbv row[3];
    for (i = w->files_at_attach; i < r->n_files; i++) {
        row[0] = gp_rdbv_int(w->file_base + (int64_t)(i - w->files_at_attach) + 1);
        row[1] = w->program_id > 0 ? gp_rdbv_int(w->program_id) : gp_rdbv_null();
        row[2] = gp_rdbv_text(r->files[i]);
        if (gp_rdb_row(w, GP_RT_FILE, row, 3) < 0)
            return -1;
    }
    for (i = 0; i < r->n_devices; i++) {
        if (r->devices[i].pid < 0)
            continue;
        row[0] = gp_rdbv_text(r->devices[i].host);
        row[1] = gp_rdbv_int(r->devices[i].pid);
        row[2] = gp_rdbv_int(w->device_base + (int64_t)i + 1);
        if (gp_rdb_row(w, GP_RT_DEVPROC, row, 3) < 0)
            return -1;
    }
    for (i = 0; i < r->n; i++)
        if (gp_rdb_kernel(w, r, i, suite_time) < 0)
            return -1;
    for (i = 0; i < r->n_estimates; i++) {
        const gp_report_estimate *e = &r->estimates[i];
        int64_t id = w->estimate_base + (int64_t)i + 1;
        long seq = gp_rdb_estimate_kernel(r, e);
        for (m = 0; m < GP_DERIVED_COUNT; m++)
            if (gp_rdb_derived_row(w, GP_RT_EMETRIC, id, m, e->derived[m], e->bound[m],
                                   e->why ? e->why[m] : NULL) < 0)
                return -1;
        if (seq >= 0) {
            row[0] = gp_rdbv_int(w->kernel_base + seq + 1);
            row[1] = gp_rdbv_int(id);
            if (gp_rdb_row(w, GP_RT_ESTKERNEL, row, 2) < 0)
                return -1;
        }
    }
    w->file_base += (int64_t)(r->n_files - w->files_at_attach);
    w->device_base += (int64_t)r->n_devices;
    w->kernel_base += (int64_t)r->n;
    w->estimate_base += (int64_t)r->n_estimates;
    w->n_bad_lines += r->bad_lines;
    return w->failed ? -1 : 0;
}
