/* report_json.c - the report as one JSON document (schema
 * "gpuprof-report/1", docs/report.md): what the Python loader joins to the
 * launches it reads, and what scripts read instead of parsing text.  A value
 * that is n/a is null, with its reason under "missing"; never 0. */
#include <math.h>
#include <string.h>

#include "metrics/catalog/roofs.h"
#include "metrics/report/report.h"
#include "util/textio.h"

static void gp_json_num(FILE *out, double v)
{
    gp_report_json_num(out, v);
}

/* ,"key":"value" (value NULL: null). */
static void gp_json_str(FILE *out, const char *key, const char *v)
{
    fprintf(out, ",\"%s\":", key);
    gp_text_json_string(out, v);
}

static void gp_json_key(FILE *out, int *first, const char *key)
{
    fputs(*first ? "" : ",", out);
    *first = 0;
    gp_text_json_string(out, key);
    fputc(':', out);
}

/* {"name": value, ...} of a derived row; NaN as null. */
static void gp_json_metrics(FILE *out, const double *v)
{
    int first = 1;
    size_t i;
    fputc('{', out);
    for (i = 0; i < GP_DERIVED_COUNT; i++) {
        gp_json_key(out, &first, gp_derived_defs[i].name);
        gp_json_num(out, v[i]);
    }
    fputc('}', out);
}

static void gp_json_roof(FILE *out, const gp_roofline *roof, int arch)
{
    int b = arch ? roof->arch_binding : roof->measured_binding;
    int compute = arch ? roof->arch_compute_binds : roof->measured_compute_binds;
    fputs("{\"binding\":", out);
    gp_text_json_string(out, b < 0     ? NULL
                             : compute ? "compute"
                                       : gp_roofline_level_name((gp_level)b));
    fputs(",\"attainable_pct\":", out);
    gp_json_num(out, b < 0 ? NAN : arch ? roof->level[b].arch.pct : roof->level[b].measured.pct);
    fputc('}', out);
}

/* Every roof of roofs.def: the kernel's rate and the two ceilings in the
 * same quantity (measured at the kernel's clock), and a broken invariant. */
static void gp_json_roofs(const gp_report *r, const gp_kernel_report *k, FILE *out)
{
    gp_roof_check c[GP_ROOF_COUNT];
    int i;
    gp_roofs_check(k->agg.row.v, &r->peaks, c);
    fputs("\"roofs\":{", out);
    for (i = 0; i < GP_ROOF_COUNT; i++) {
        fprintf(out, "%s\"%s\":{\"achieved\":", i ? "," : "", gp_roof_defs[i].name);
        gp_json_num(out, c[i].achieved);
        fputs(",\"architectural\":", out);
        gp_json_num(out, c[i].arch);
        fputs(",\"measured\":", out);
        gp_json_num(out, c[i].measured_here);
        fputs(",\"bug\":", out);
        gp_text_json_string(out, c[i].bug ? c[i].why : NULL);
        fputc('}', out);
    }
    fputc('}', out);
}

/* The elements of a verdicts array; with_where: each one's "where" too. */
static void gp_json_verdicts(FILE *out, const gp_verdict *v, size_t n, int with_where)
{
    char label[64];
    for (size_t i = 0; i < n; i++) {
        gp_verdict_label(&v[i], label, sizeof label);
        fprintf(out, "%s{\"id\":", i ? "," : "");
        gp_text_json_string(out, v[i].id);
        gp_json_str(out, "label", label);
        gp_json_str(out, "title", v[i].title);
        gp_json_str(out, "evidence", v[i].evidence);
        gp_json_str(out, "advice", v[i].advice);
        if (with_where)
            gp_json_str(out, "where", v[i].where[0] ? v[i].where : NULL);
        fputs(",\"score\":", out);
        gp_json_num(out, v[i].score);
        fputc('}', out);
    }
}

static void gp_json_kernel(const gp_report *r, const gp_kernel_report *k, size_t rank, FILE *out)
{
    const gp_kernel_agg *a = &k->agg;
    size_t i;
    int first = 1;
    fprintf(out, "{\"rank\":%zu,\"name\":", rank);
    gp_text_json_string(out, k->name);
    gp_json_str(out, "kernel", a->kernel);
    gp_json_str(out, "mangled", k->mangled);
    fprintf(out, ",\"device\":%d,\"device_name\":", a->device);
    gp_text_json_string(out, gp_report_kernel_device(r, k)->name);
    fprintf(out, ",\"launches\":%ld,\"launches_estimated\":%ld,\"time_share_pct\":", a->launches,
            a->estimated);
    gp_json_num(out, gp_report_time_share(r, k));
    fprintf(out,
            ",\"blocks\":%ld,\"threads_per_block\":%ld,\"regs_per_thread\":%ld,"
            "\"smem_per_block\":%ld,\"occupancy_limiter\":",
            a->blocks, a->threads_per_block, a->regs_per_thread, a->smem_per_block);
    gp_text_json_string(out, gp_occupancy_limiter_name(a->occ.limiter));
    gp_json_str(out, "occupancy_advice", a->occ.advice);
    fputs(",\"verdicts\":[", out);
    gp_json_verdicts(out, k->verdicts, k->n_verdicts, 1);
    fputs("],\"roofline\":{\"precision\":", out);
    gp_text_json_string(out, k->roof.precision);
    fputs(",\"architectural\":", out);
    gp_json_roof(out, &k->roof, 1);
    fputs(",\"measured\":", out);
    gp_json_roof(out, &k->roof, 0);
    fputs(",\"bug\":", out);
    gp_text_json_string(out, k->roof.bug[0] ? k->roof.bug : NULL);
    fputs("},", out);
    gp_json_roofs(r, k, out);
    fputs(",\"metrics\":", out);
    gp_json_metrics(out, a->row.v);
    fputs(",\"missing\":{", out);
    for (i = 0; i < GP_DERIVED_COUNT; i++)
        if (isnan(a->row.v[i])) {
            gp_json_key(out, &first, gp_derived_defs[i].name);
            gp_text_json_string(out, a->row.why[i]);
        }
    fputc('}', out);
    gp_report_where_json(r, k, out);
    fputc('}', out);
}

static void gp_json_launch(const gp_report *r, const gp_report_launch *x, FILE *out)
{
    const gp_kernel_report *k = x->kernel >= 0 ? &r->kernels[x->kernel] : NULL;
    fputs("{\"file\":", out);
    gp_text_json_string(out, r->files[x->file]);
    gp_json_str(out, "host", x->host);
    fputs(",\"pid\":", out);
    gp_json_num(out, x->pid < 0 ? NAN : (double)x->pid);
    fputs(",\"rank\":", out);
    gp_json_num(out, x->rank < 0 ? NAN : (double)x->rank);
    fprintf(out, ",\"launch_id\":%ld,\"device\":%d,\"name\":", x->l.launch_id, x->l.device);
    gp_text_json_string(out, k ? k->name : NULL);
    gp_json_str(out, "kernel", x->l.kernel);
    fprintf(out, ",\"kernel_rank\":%ld,\"metrics\":", x->kernel + 1);
    gp_json_metrics(out, x->derived);
    fputc('}', out);
}

/* A variant of replay mode none: its derived metrics of the mean launch
 * (estimates) and their bounds. */
static void gp_json_estimate(const gp_report_estimate *e, FILE *out)
{
    int first = 1;
    size_t i;
    fputs("{\"estimated\":true,\"kernel\":", out);
    gp_text_json_string(out, e->kernel);
    fprintf(out,
            ",\"grid\":[%ld,%ld,%ld],\"block\":[%ld,%ld,%ld],\"dynamic_smem\":%ld,"
            "\"launches\":%ld,\"exact_launches\":%ld,\"unprofiled_launches\":%ld,"
            "\"configurations\":[",
            e->grid[0], e->grid[1], e->grid[2], e->block[0], e->block[1], e->block[2],
            e->dynamic_smem, e->launches, e->exact, e->unprofiled);
    for (i = 0; i < e->n_configs; i++) {
        fprintf(out, "%s{\"kind\":", i ? "," : "");
        gp_text_json_string(out, e->cfg_kind[i]);
        fprintf(out, ",\"passes\":%ld,\"launches\":%ld}", e->cfg_passes[i], e->cfg_launches[i]);
    }
    fputs("],\"verdicts\":[", out);
    gp_json_verdicts(out, e->verdicts, e->n_verdicts, 0);
    fputs("],\"metrics\":", out);
    gp_json_metrics(out, e->derived);
    fputs(",\"bound\":", out);
    gp_json_metrics(out, e->bound);
    fputs(",\"missing\":{", out);
    for (i = 0; i < GP_DERIVED_COUNT; i++)
        if (isnan(e->derived[i])) {
            gp_json_key(out, &first, gp_derived_defs[i].name);
            gp_text_json_string(out, e->why[i]);
        }
    fputs("}}", out);
}

int gp_report_json(const gp_report *r, FILE *out)
{
    size_t i;
    fputs("{\"schema\":\"gpuprof-report/1\",\"files\":[", out);
    for (i = 0; i < r->n_files; i++) {
        fputs(i ? "," : "", out);
        gp_text_json_string(out, r->files[i]);
    }
    fputs("],\"devices\":[", out);
    for (i = 0; i < r->n_devices; i++) {
        const gp_device *d = &r->devices[i].d;
        fprintf(out, "%s{\"file\":", i ? "," : "");
        gp_text_json_string(out, r->files[r->devices[i].file]);
        fprintf(out, ",\"device\":%d,\"name\":", d->ordinal);
        gp_text_json_string(out, d->name);
        gp_json_str(out, "chip", d->chip);
        fprintf(out, ",\"cc\":[%d,%d],\"sm_count\":%d}", d->cc_major, d->cc_minor, d->sm_count);
    }
    fputs("],\"peaks\":{\"source\":", out);
    gp_text_json_string(out, r->peaks.source[0] ? r->peaks.source : NULL);
    gp_json_str(out, "device", r->peaks.device[0] ? r->peaks.device : NULL);
    fprintf(out, "},\"launches\":%ld,\"bad_lines\":%ld,\"total_time_s\":", r->launches,
            r->bad_lines);
    gp_json_num(out, gp_report_total_time(r));
    gp_report_where_json_head(r, out);
    fputs(",\"units\":{", out);
    for (i = 0; i < GP_DERIVED_COUNT; i++) {
        fputs(i ? "," : "", out);
        gp_text_json_string(out, gp_derived_defs[i].name);
        fputc(':', out);
        gp_text_json_string(out, gp_derived_defs[i].unit);
    }
    fputs("},\n\"kernels\":[", out);
    for (i = 0; i < r->n; i++) {
        fputs(i ? ",\n" : "\n", out);
        gp_json_kernel(r, &r->kernels[i], i + 1, out);
    }
    fputs("],\n\"launch_metrics\":[", out);
    for (i = 0; i < r->n_launch_rows; i++) {
        fputs(i ? ",\n" : "\n", out);
        gp_json_launch(r, &r->launch_rows[i], out);
    }
    fputs("],\n\"estimates\":[", out);
    for (i = 0; i < r->n_estimates; i++) {
        fputs(i ? ",\n" : "\n", out);
        gp_json_estimate(&r->estimates[i], out);
    }
    fputs("]}\n", out);
    return ferror(out) ? -1 : 0;
}
