/* summary.c - see summary.h: the model and the CSV, JSON and text writers
 * (the HTML page is in summary_html.c). */
#include "summary.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "metrics/catalog/format.h"
#include "metrics/records/guard.h"
#include "metrics/report/report.h"
#include "util/safefile.h"
#include "util/strindex.h"
#include "util/textio.h"

/* The metrics of kernels.csv / kernels.json, after the identifying columns. */
static const int gpc_columns[] = {
    GP_M_DURATION,
    GP_M_RF_G,
    GPC_FP_MAIN,
    GP_M_FP32_UTIL,
    GP_M_FP64_UTIL,
    GP_M_FP16_UTIL,
    GP_M_DRAM_UTIL,
    GP_M_DRAM_UTIL_MEASURED,
    GP_M_ACHIEVED_OCCUPANCY,
    GP_M_THEORETICAL_OCCUPANCY,
    GP_M_SHARED_EFFICIENCY,
    GP_M_GLD_EFFICIENCY,
    GP_M_GST_EFFICIENCY,
    GP_M_WARP_EXECUTION_EFFICIENCY,
    GP_M_FLOPS,
    GP_M_DRAM_BYTES,
    GP_M_FLOPS_PER_S,
    GP_M_AI_DRAM,
};
#define GPC_N_COLUMNS (sizeof gpc_columns / sizeof gpc_columns[0])

void gpc_summary_init(gpc_summary *s, const gp_peaks *peaks)
{
    memset(s, 0, sizeof *s);
    gp_peaks_set(&s->peaks, peaks);
}

void gpc_summary_free(gpc_summary *s)
{
    size_t i;
    for (i = 0; i < s->n; i++) {
        gpc_result_free(&s->progs[i].res);
        free(s->progs[i].dir);
        if (s->progs[i].rep) {
            gp_report_free(s->progs[i].rep);
            free(s->progs[i].rep);
        }
    }
    free(s->progs);
    gp_strindex_free(&s->by_name);
    memset(s, 0, sizeof *s);
}

static int gpc_has_result(const char *dir)
{
    char path[8192];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, GPC_RESULT_FILE);
    /* a link there is a result the loader refuses, not a directory to scan */
    return lstat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode));
}

static int gpc_summary_add_one(gpc_summary *s, const char *dir, char *err, size_t errlen)
{
    gpc_prog *np;
    gpc_result r;
    long at;
    if (gpc_result_load(&r, dir, err, errlen) < 0)
        return -1;
    if ((at = gp_strindex_find(s->by_name, r.name, strlen(r.name))) >= 0) {
        snprintf(err, errlen, "program '%s' has two results: %s and %s (merge each once)", r.name,
                 s->progs[at].dir, dir);
        gpc_result_free(&r);
        return -1;
    }
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 16;
        if (!(np = realloc(s->progs, nc * sizeof *np)))
            goto oom;
        s->progs = np;
        s->cap = nc;
    }
    np = &s->progs[s->n];
    memset(np, 0, sizeof *np);
    if (!(np->dir = strdup(dir)) ||
        gp_strindex_add(&s->by_name, r.name, strlen(r.name), s->n) < 0) {
        free(np->dir);
        goto oom;
    }
    np->res = r;
    s->n++;
    return 0;
oom:
    gpc_result_free(&r);
    snprintf(err, errlen, "out of memory");
    return -1;
}

static int gpc_cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

long gpc_summary_add(gpc_summary *s, const char *dir, char *err, size_t errlen)
{
    DIR *d;
    struct dirent *de;
    char **names = NULL, path[4096];
    size_t n = 0, i;
    long added = 0;
    if (gpc_has_result(dir))
        return gpc_summary_add_one(s, dir, err, errlen) < 0 ? -1 : 1;
    if (!(d = opendir(dir))) {
        snprintf(err, errlen, "cannot read directory %s: %s", dir, strerror(errno));
        return -1;
    }
    while ((de = readdir(d))) {
        char **nn;
        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (!gpc_has_result(path))
            continue;
        if (!(nn = realloc(names, (n + 1) * sizeof *nn)) || !(nn[n] = strdup(de->d_name))) {
            names = nn ? nn : names;
            closedir(d);
            snprintf(err, errlen, "out of memory");
            added = -1;
            goto out;
        }
        names = nn;
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, gpc_cmp_name);
    for (i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (gpc_summary_add_one(s, path, err, errlen) < 0) {
            added = -1;
            goto out;
        }
        added++;
    }
out:
    for (i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return added;
}

static int gpc_cmp_prog(const void *a, const void *b)
{
    return strcmp(((const gpc_prog *)a)->res.name, ((const gpc_prog *)b)->res.name);
}

int gpc_summary_finish(gpc_summary *s, FILE *warn)
{
    size_t i, j;
    if (s->n > 1)
        qsort(s->progs, s->n, sizeof *s->progs, gpc_cmp_prog);
    gp_strindex_free(&s->by_name); /* positions changed */
    s->n_kernels = 0;
    s->kernel_time = 0;
    for (i = 0; i < s->n; i++) {
        gpc_prog *p = &s->progs[i];
        if (p->res.status != GPC_OK)
            continue;
        if (p->res.jsonl_repeated && warn) {
            fputs("gpuprof-characterize: ", warn);
            gp_text_plain(warn, p->dir);
            fprintf(warn,
                    "/" GPC_RESULT_FILE ": %ld entr%s of jsonl name%s a file named before: each "
                    "file read once\n",
                    p->res.jsonl_repeated, p->res.jsonl_repeated == 1 ? "y" : "ies",
                    p->res.jsonl_repeated == 1 ? "s" : "");
        }
        if (!(p->rep = malloc(sizeof *p->rep)))
            return -1;
        gp_report_init(p->rep, &s->peaks);
        p->rep->tool = "gpuprof-characterize";
        if (s->on_report && s->on_report(s->on_report_arg, i, p->rep, 0) < 0)
            return -1;
        for (j = 0; j < p->res.n_jsonl; j++) {
            char path[4096];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", p->dir, p->res.jsonl[j]);
            /* a FIFO planted under the name would block the reader */
            if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
                if (warn) {
                    fputs("gpuprof-characterize: ", warn);
                    gp_text_plain(warn, path);
                    fputs(" is not a regular file: left out\n", warn);
                }
                continue;
            }
            gp_report_load(p->rep, path, warn); /* says why on warn when it fails */
        }
        gp_report_finish(p->rep);
        if (s->on_report && s->on_report(s->on_report_arg, i, p->rep, 1) < 0)
            return -1;
        s->n_kernels += p->rep->n;
        s->kernel_time += p->rep->total_time;
    }
    return 0;
}

static void gpc_csv_num(FILE *out, double v)
{
    if (!isnan(v) && !isinf(v))
        fprintf(out, "%.9g", v);
}

static double gpc_suite_share(const gpc_summary *s, const gp_kernel_report *k)
{
    double t = k->agg.row.v[GP_M_DURATION];
    return s->kernel_time > 0 && !isnan(t) ? 100 * t / s->kernel_time : NAN;
}

static void gpc_verdict_list(const gp_kernel_report *k, FILE *out, int csv)
{
    size_t i;
    char label[64], all[GP_V_COUNT * 64 + 1] = "";
    for (i = 0; i < k->n_verdicts; i++) {
        gp_verdict_label(&k->verdicts[i], label, sizeof label);
        if (i)
            strcat(all, ";");
        strcat(all, label);
    }
    if (csv)
        gpc_csv_str(out, all);
    else
        gpc_json_str(out, all);
}

int gpc_summary_kernels_csv(const gpc_summary *s, FILE *out)
{
    size_t i, j, c;
    fputs("program,kernel,device,launches,program_time_share [%],suite_time_share [%],"
          "fp_precision",
          out);
    for (c = 0; c < GPC_N_COLUMNS; c++)
        fprintf(out, ",%s [%s]", gpc_metric_name(gpc_columns[c]), gpc_metric_unit(gpc_columns[c]));
    fputs(",first_verdict,verdicts\n", out);
    for (i = 0; i < s->n; i++) {
        const gp_report *r = s->progs[i].rep;
        for (j = 0; r && j < r->n; j++) {
            const gp_kernel_report *k = &r->kernels[j];
            char label[64] = "";
            gpc_csv_str(out, s->progs[i].res.name);
            fputc(',', out);
            gpc_csv_str(out, k->agg.kernel);
            fprintf(out, ",%d,%ld,", k->agg.device, k->agg.launches);
            gpc_csv_num(out, gp_report_time_share(r, k));
            fputc(',', out);
            gpc_csv_num(out, gpc_suite_share(s, k));
            fprintf(out, ",%s", k->roof.precision ? k->roof.precision : "");
            for (c = 0; c < GPC_N_COLUMNS; c++) {
                fputc(',', out);
                gpc_csv_num(out, gpc_metric_value(k, gpc_columns[c]));
            }
            if (k->n_verdicts)
                gp_verdict_label(&k->verdicts[0], label, sizeof label);
            fprintf(out, ",%s,", label);
            gpc_verdict_list(k, out, 1);
            fputc('\n', out);
        }
    }
    return ferror(out) ? -1 : 0;
}

static double gpc_slowdown(const gpc_result *r)
{
    return r->native.ran && r->profiled.ran && r->native.wall_s > 0
               ? r->profiled.wall_s / r->native.wall_s
               : NAN;
}

int gpc_summary_programs_csv(const gpc_summary *s, FILE *out)
{
    size_t i;
    fputs("program,status,native_wall [s],profiled_wall [s],slowdown,kernels,launches,"
          "kernel_time [s],message\n",
          out);
    for (i = 0; i < s->n; i++) {
        const gpc_prog *p = &s->progs[i];
        gpc_csv_str(out, p->res.name);
        fprintf(out, ",%s,", gpc_status_name(p->res.status));
        gpc_csv_num(out, gpc_exec_wall(&p->res.native));
        fputc(',', out);
        gpc_csv_num(out, gpc_exec_wall(&p->res.profiled));
        fputc(',', out);
        gpc_csv_num(out, gpc_slowdown(&p->res));
        if (p->rep)
            fprintf(out, ",%zu,%ld,", p->rep->n, p->rep->launches);
        else
            fputs(",,,", out);
        gpc_csv_num(out, p->rep && p->rep->n ? p->rep->total_time : NAN);
        fputc(',', out);
        gpc_csv_str(out, p->res.message);
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

int gpc_summary_kernels_json(const gpc_summary *s, FILE *out)
{
    size_t i, j, c, first = 1;
    fputs("{\n\"format\": \"gpuprof-characterize-summary/1\",\n\"programs\": [", out);
    for (i = 0; i < s->n; i++) {
        const gpc_prog *p = &s->progs[i];
        fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
        gpc_json_str(out, p->res.name);
        fputs(", \"status\": ", out);
        gpc_json_str(out, gpc_status_name(p->res.status));
        fputs(", \"message\": ", out);
        gpc_json_str(out, p->res.message);
        fputs(", \"native_wall_s\": ", out);
        gpc_json_num(out, gpc_exec_wall(&p->res.native));
        fputs(", \"profiled_wall_s\": ", out);
        gpc_json_num(out, gpc_exec_wall(&p->res.profiled));
        fputs(", \"slowdown\": ", out);
        gpc_json_num(out, gpc_slowdown(&p->res));
        if (p->rep)
            fprintf(out, ", \"kernels\": %zu, \"launches\": %ld, \"bad_lines\": %ld", p->rep->n,
                    p->rep->launches, p->rep->bad_lines);
        fputs("}", out);
    }
    fputs("\n],\n\"classes\": [", out);
    for (c = 0; c < gpc_n_classes; c++) {
        const gpc_class *k = &gpc_classes[c];
        fprintf(out, "%s\n  {\"id\": \"%s\", \"title\": ", c ? "," : "", k->id);
        gpc_json_str(out, k->title);
        fprintf(out, ", \"metrics\": [\"%s\"", gpc_metric_name(k->metric[0]));
        if (k->metric[1] >= 0)
            fprintf(out, ", \"%s\"", gpc_metric_name(k->metric[1]));
        fprintf(out, "], \"unit\": \"%s\", \"low\": %g, \"high\": %g}", k->unit, k->low, k->high);
    }
    fputs("\n],\n\"kernels\": [", out);
    for (i = 0; i < s->n; i++) {
        const gp_report *r = s->progs[i].rep;
        for (j = 0; r && j < r->n; j++) {
            const gp_kernel_report *k = &r->kernels[j];
            size_t nwhy = 0, v;
            fprintf(out, "%s\n  {\"program\": ", first ? "" : ",");
            first = 0;
            gpc_json_str(out, s->progs[i].res.name);
            fputs(", \"kernel\": ", out);
            gpc_json_str(out, k->agg.kernel);
            fprintf(out,
                    ", \"device\": %d, \"launches\": %ld, \"program_time_share\": ", k->agg.device,
                    k->agg.launches);
            gpc_json_num(out, gp_report_time_share(r, k));
            fputs(", \"suite_time_share\": ", out);
            gpc_json_num(out, gpc_suite_share(s, k));
            fputs(", \"fp_precision\": ", out);
            gpc_json_str(out, k->roof.precision);
            fputs(",\n   \"metrics\": {", out);
            for (c = 0; c < GPC_N_COLUMNS; c++) {
                fprintf(out, "%s\"%s\": ", c ? ", " : "", gpc_metric_name(gpc_columns[c]));
                gpc_json_num(out, gpc_metric_value(k, gpc_columns[c]));
            }
            fputs("},\n   \"why_na\": {", out);
            for (c = 0; c < GPC_N_COLUMNS; c++) {
                if (!isnan(gpc_metric_value(k, gpc_columns[c])))
                    continue;
                fprintf(out, "%s\"%s\": ", nwhy++ ? ", " : "", gpc_metric_name(gpc_columns[c]));
                gpc_json_str(out, gpc_metric_why(k, gpc_columns[c]));
            }
            fputs("},\n   \"verdicts\": [", out);
            for (v = 0; v < k->n_verdicts; v++) {
                char label[64];
                gp_verdict_label(&k->verdicts[v], label, sizeof label);
                fprintf(out, "%s{\"label\": ", v ? ", " : "");
                gpc_json_str(out, label);
                fputs(", \"title\": ", out);
                gpc_json_str(out, k->verdicts[v].title);
                fputs(", \"score\": ", out);
                gpc_json_num(out, k->verdicts[v].score);
                fputs("}", out);
            }
            fputs("]}", out);
        }
    }
    fputs("\n]\n}\n", out);
    return ferror(out) ? -1 : 0;
}

/* The extremes and the counts of one metric over every kernel. */
static void gpc_text_metric(const gpc_summary *s, const gpc_class *c, int mi, FILE *out)
{
    int m = c->metric[mi];
    long below = 0, mid = 0, above = 0, na = 0, absent = 0;
    double lo = NAN, hi = NAN;
    const char *lo_p = NULL, *lo_k = NULL, *hi_p = NULL, *hi_k = NULL;
    size_t i, j;
    gp_fmtbuf fb = {.next = 0};
    for (i = 0; i < s->n; i++) {
        const gp_report *r = s->progs[i].rep;
        for (j = 0; r && j < r->n; j++) {
            double v = gpc_metric_value(&r->kernels[j], m);
            if (gpc_class_absent(c, mi, &r->kernels[j])) {
                absent++;
                continue;
            }
            if (isnan(v)) {
                na++;
                continue;
            }
            if (v < c->low)
                below++;
            else if (v > c->high)
                above++;
            else
                mid++;
            if (isnan(lo) || v < lo) {
                lo = v;
                lo_p = s->progs[i].res.name;
                lo_k = r->kernels[j].agg.kernel;
            }
            if (isnan(hi) || v > hi) {
                hi = v;
                hi_p = s->progs[i].res.name;
                hi_k = r->kernels[j].agg.kernel;
            }
        }
    }
    fprintf(out, "  %s: %ld kernel%s with a value, %ld n/a", gpc_metric_name(m),
            below + mid + above, below + mid + above == 1 ? "" : "s", na);
    if (c->absent[mi] >= 0)
        fprintf(out, "; %ld kernel%s without %s (left out)", absent, absent == 1 ? "" : "s",
                c->absent_what[mi]);
    fputc('\n', out);
    if (below + mid + above == 0)
        return;
    fprintf(out, "    below %s (%s): %ld   between: %ld   above %s (%s): %ld\n",
            gp_fmt(&fb, c->low, c->unit), c->low_means, below, mid, gp_fmt(&fb, c->high, c->unit),
            c->high_means, above);
    fprintf(out, "    lowest  %-12s %s: ", gp_fmt(&fb, lo, c->unit), lo_p);
    gp_text_plain(out, lo_k);
    fprintf(out, "\n    highest %-12s %s: ", gp_fmt(&fb, hi, c->unit), hi_p);
    gp_text_plain(out, hi_k);
    fputc('\n', out);
}

void gpc_diff_text(const gpc_diff *d, FILE *out)
{
    /* what names a compare file of the suite, or comes from a result file
     * written by hand: escaped like the lines */
    fputs("    ", out);
    gp_text_plain(out, d->what);
    if (d->line)
        fprintf(out,
                ": first difference at line %ld (profiled line %ld); %ld compared line%s "
                "differ%s\n",
                d->line, d->line_prof, d->n_differ, d->n_differ == 1 ? "" : "s",
                d->n_differ == 1 ? "s" : "");
    else
        fputs(":\n", out);
    /* the program's own output: shown escaped, it cannot forge lines */
    fputs("      native:   ", out);
    gp_text_plain(out, d->native ? d->native : "(end of output)");
    fputs("\n      profiled: ", out);
    gp_text_plain(out, d->profiled ? d->profiled : "(end of output)");
    fputc('\n', out);
}

void gpc_validity_text(const gpc_validity *v, FILE *out)
{
    if (!v->known || v->valid)
        return;
    fputs("    results broken", out);
    if (v->from_launch >= 0)
        fprintf(out, " from launch %ld", v->from_launch);
    if (v->kernel) {
        fputs(" (kernel ", out);
        gp_text_plain(out, v->kernel);
        fputc(')', out);
    }
    if (v->file) {
        fputs(" in ", out);
        gp_text_plain(out, v->file);
    }
    if (v->n_invalid > 1)
        fprintf(out, " and %ld other process%s", v->n_invalid - 1, v->n_invalid == 2 ? "" : "es");
    fputs(": ", out);
    gp_text_plain(out, v->reason);
    fputc('\n', out);
}

int gpc_summary_text(const gpc_summary *s, FILE *out)
{
    size_t i, j, v, st[GPC_STATUS_COUNT] = {0};
    gp_fmtbuf fb = {.next = 0};
    int c;
    for (i = 0; i < s->n; i++)
        st[s->progs[i].res.status]++;
    fprintf(out,
            "gpuprof-characterize summary: %zu program%s (%zu ok, %zu failed natively, %zu "
            "PROFILER DEFECT, %zu PROFILER BROKE RESULTS, %zu without records, %zu not run), "
            "%zu kernels, %s of kernel time\n",
            s->n, s->n == 1 ? "" : "s", st[GPC_OK], st[GPC_NATIVE_FAILED], st[GPC_PROFILER_DEFECT],
            st[GPC_PROFILER_BROKE_RESULTS], st[GPC_NO_RECORDS], st[GPC_ERROR], s->n_kernels,
            gp_fmt(&fb, s->n_kernels ? s->kernel_time : NAN, "s"));
    if (st[GPC_NOT_FINISHED]) /* cluster runs only: their jobs ended first */
        fprintf(out, "%zu program%s not finished (their cluster jobs ended first; run again "
                     "with --resume)\n",
                st[GPC_NOT_FINISHED], st[GPC_NOT_FINISHED] == 1 ? "" : "s");
    fputs("measured ceilings: ", out);
    gp_text_plain(out, s->peaks.source[0] ? s->peaks.source : "none (architectural only)");
    fprintf(out, "\n\nPrograms\n  %-24s %-16s %10s %10s %8s %7s\n", "program", "status", "native",
            "profiled", "slowdown", "kernels");
    for (i = 0; i < s->n; i++) {
        const gpc_prog *p = &s->progs[i];
        char sd[32] = "n/a", nk[24] = "-";
        double x = gpc_slowdown(&p->res);
        fb.next = 0;
        if (!isnan(x))
            snprintf(sd, sizeof sd, "x%.2f", x);
        if (p->rep)
            snprintf(nk, sizeof nk, "%zu", p->rep->n);
        fprintf(out, "  %-24s %-16s %10s %10s %8s %7s\n", p->res.name,
                gpc_status_name(p->res.status), gp_fmt(&fb, gpc_exec_wall(&p->res.native), "s"),
                gp_fmt(&fb, gpc_exec_wall(&p->res.profiled), "s"), sd, nk);
        if (p->res.message && p->res.message[0] && p->res.status != GPC_PROFILER_DEFECT &&
            p->res.status != GPC_PROFILER_BROKE_RESULTS) {
            fputs("      ", out);
            gp_text_plain(out, p->res.message);
            fputc('\n', out);
        }
    }
    if (st[GPC_PROFILER_DEFECT]) {
        fprintf(out, "\nPROFILER DEFECTS (the program failed or differed only under the "
                     "profiler; its kernels are left out of the study)\n");
        for (i = 0; i < s->n; i++) {
            const gpc_result *r = &s->progs[i].res;
            if (r->status != GPC_PROFILER_DEFECT)
                continue;
            fprintf(out, "  PROFILER DEFECT in %s: ", r->name);
            gp_text_plain(out, r->message);
            fputc('\n', out);
            for (j = 0; j < r->n_diffs; j++)
                gpc_diff_text(&r->diffs[j], out);
            gpc_validity_text(&r->results, out);
        }
    }
    if (st[GPC_PROFILER_BROKE_RESULTS]) {
        fprintf(out,
                "\nPROFILER BROKE RESULTS (the outputs were the same, but the profiler reports "
                "that kernels did not run as they would have without it; the program's "
                "kernels are left out of the study)\n");
        for (i = 0; i < s->n; i++) {
            const gpc_result *r = &s->progs[i].res;
            if (r->status != GPC_PROFILER_BROKE_RESULTS)
                continue;
            fprintf(out, "  PROFILER BROKE RESULTS in %s\n", r->name);
            gpc_validity_text(&r->results, out);
        }
    }
    fprintf(out,
            "\nThe study's metric classes over all %zu kernels (thresholds: "
            "docs/characterize.md)\n",
            s->n_kernels);
    for (c = 0; c < (int)gpc_n_classes; c++) {
        fprintf(out, "%s [%s]\n", gpc_classes[c].title, gpc_classes[c].unit);
        gpc_text_metric(s, &gpc_classes[c], 0, out);
        if (gpc_classes[c].metric[1] >= 0)
            gpc_text_metric(s, &gpc_classes[c], 1, out);
    }
    fprintf(out, "\nBottlenecks per program (kernels by time; the report's verdicts, ranked)\n");
    for (i = 0; i < s->n; i++) {
        const gp_report *r = s->progs[i].rep;
        if (!r)
            continue;
        fb.next = 0;
        if (!r->n) {
            fprintf(out, "%s: no kernel profiled\n", s->progs[i].res.name);
            continue;
        }
        fprintf(out, "%s: %zu kernel%s, %ld launches, %s of kernel time\n", s->progs[i].res.name,
                r->n, r->n == 1 ? "" : "s", r->launches,
                gp_fmt(&fb, r->n ? r->total_time : NAN, "s"));
        for (j = 0; j < r->n; j++) {
            const gp_kernel_report *k = &r->kernels[j];
            fb.next = 0;
            fprintf(out, "  %7s %10s  ", gp_fmt(&fb, gp_report_time_share(r, k), "%"),
                    gp_fmt(&fb, k->agg.row.v[GP_M_DURATION], "s"));
            gp_text_plain(out, k->agg.kernel);
            fputc('\n', out);
            if (!k->n_verdicts)
                fprintf(out, "      no bottleneck rule fired\n");
            for (v = 0; v < k->n_verdicts; v++) {
                char label[64];
                gp_verdict_label(&k->verdicts[v], label, sizeof label);
                fprintf(out, "      %zu. %s [%s]\n", v + 1, k->verdicts[v].title, label);
            }
        }
    }
    return ferror(out) ? -1 : 0;
}

int gpc_summary_write(const gpc_summary *s, const char *out_dir, char *err, size_t errlen)
{
    static const struct {
        const char *file;
        int (*write)(const gpc_summary *, FILE *);
    } outs[] = {{"kernels.csv", gpc_summary_kernels_csv},
                {"kernels.json", gpc_summary_kernels_json},
                {"programs.csv", gpc_summary_programs_csv},
                {"summary.txt", gpc_summary_text},
                {"summary.html", gpc_summary_html}};
    size_t i;
    if (gp_safedir(out_dir, err, errlen) < 0)
        return -1;
    for (i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        char path[4096];
        gp_safefile f;
        snprintf(path, sizeof path, "%s/%s", out_dir, outs[i].file);
        if (gp_safefile_create(&f, path, err, errlen) < 0)
            return -1;
        if (outs[i].write(s, f.f) < 0) {
            gp_safefile_discard(&f);
            snprintf(err, errlen, "cannot write %s", path);
            return -1;
        }
        if (gp_safefile_commit(&f, err, errlen) < 0)
            return -1;
    }
    return 0;
}
