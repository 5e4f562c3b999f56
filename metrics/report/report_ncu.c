/* report_ncu.c - profiled launches in Nsight Compute's CSV layouts, so that
 * scripts written for `ncu --csv` read gpuprof's results:
 *
 *   --page details: "ID","Process ID","Process Name","Host Name","Kernel Name",
 *   "Context","Stream","Block Size","Grid Size","Device","CC","Section Name",
 *   "Metric Name","Metric Unit","Metric Value", one row per launch and metric;
 *   --page raw: the first eleven columns then one column per metric, a row of
 *   units under the header, one row per launch.
 *
 * Every field is quoted, as ncu writes them; a text field that a spreadsheet
 * would run as a formula (= + - @ tab CR first) gets a leading ', as in
 * gpuprof's own CSV.  IDs count the launches from 0
 * in input order.  Values are plain numbers in the counters' own units (no
 * thousands separators; a script that strips them still reads these); a
 * value not measured is "n/a", as ncu prints it.  The raw counters are in
 * the section "Command line profiler metrics" (what ncu calls the metrics of
 * --metrics), the launch configuration in "Launch Statistics" under ncu's
 * launch__* names. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/report/details.h"
#include "metrics/report/report.h"
#include "util/strindex.h"
#include "util/textio.h"

static const struct {
    const char *name, *unit;
} gp_ncu_counters[] = {
#define GP_COUNTER(n, u, c, s, d) {n, u},
#include "metrics/catalog/counters.def"
#undef GP_COUNTER
};

/* The launch facts ncu reports in its Launch Statistics section. */
enum {
    GP_NCU_BLOCK,
    GP_NCU_GRID,
    GP_NCU_REGS,
    GP_NCU_SMEM_S,
    GP_NCU_SMEM_D,
    GP_NCU_THREADS,
    GP_NCU_N_LAUNCH
};
static const struct {
    const char *name, *unit;
} gp_ncu_launch[GP_NCU_N_LAUNCH] = {
    {"launch__block_size", ""},
    {"launch__grid_size", ""},
    {"launch__registers_per_thread", "register/thread"},
    {"launch__shared_mem_per_block_static", "byte"},
    {"launch__shared_mem_per_block_dynamic", "byte"},
    {"launch__thread_count", "thread"},
};

static const char gp_ncu_section[] = "Command line profiler metrics";
static const char gp_ncu_launch_section[] = "Launch Statistics";

/* The units of counters.def by name (ncu spells frequency "hz"; the other
 * units are ncu's own): built once per output, since every row asks. */
static gp_strindex *gp_ncu_units(void)
{
    gp_strindex *ix = NULL;
    size_t i;
    for (i = 0; i < sizeof gp_ncu_counters / sizeof gp_ncu_counters[0]; i++)
        if (gp_strindex_add(&ix, gp_ncu_counters[i].name, strlen(gp_ncu_counters[i].name), i) < 0)
            break; /* out of memory: the units left are "" */
    return ix;
}

static const char *gp_ncu_unit(const gp_strindex *units, const char *metric)
{
    long i = gp_strindex_find(units, metric, strlen(metric));
    if (i < 0)
        return "";
    return strcmp(gp_ncu_counters[i].unit, "Hz") == 0 ? "hz" : gp_ncu_counters[i].unit;
}

/* A text field: quoted, as ncu writes them, and guarded against being run
 * as a spreadsheet formula, as gpuprof's own CSV is (names and hosts come
 * from the input). */
static void gp_ncu_field(FILE *out, const char *s, int first)
{
    if (!first)
        fputc(',', out);
    gp_text_csv_quoted(out, s);
}

/* A number: quoted too, never guarded (no value is negative). */
static void gp_ncu_number(FILE *out, double v)
{
    if (!isfinite(v))
        fputs(",\"n/a\"", out);
    else if (v == floor(v) && fabs(v) < 9e15)
        fprintf(out, ",\"%.0f\"", v);
    else
        fprintf(out, ",\"%.10g\"", v);
}

static double gp_ncu_launch_value(const gp_launch *l, int i)
{
    switch (i) {
    case GP_NCU_BLOCK:
        return (double)gp_record_threads_per_block(l);
    case GP_NCU_GRID:
        return (double)gp_record_blocks(l);
    case GP_NCU_REGS:
        return l->regs_per_thread;
    case GP_NCU_SMEM_S:
        return (double)l->static_smem;
    case GP_NCU_SMEM_D:
        return (double)l->dynamic_smem;
    default:
        return (double)gp_record_threads_per_block(l) * (double)gp_record_blocks(l);
    }
}

/* The first eleven columns of a launch (details.h). */
void gp_report_ncu_prefix(const gp_report *r, size_t id, const gp_report_launch *x, FILE *out)
{
    char buf[128];
    const gp_kernel_report *k = x->kernel >= 0 ? &r->kernels[x->kernel] : NULL;
    const char *kernel = x->l.kernel;
    if (r->name_base == GP_REPORT_NAME_FUNCTION && k)
        kernel = k->name;
    else if (r->name_base == GP_REPORT_NAME_MANGLED && x->mangled)
        kernel = x->mangled;
    snprintf(buf, sizeof buf, "%zu", id);
    gp_ncu_field(out, buf, 1);
    snprintf(buf, sizeof buf, "%ld", x->pid);
    gp_ncu_field(out, x->pid >= 0 ? buf : "", 0);
    gp_ncu_field(out, x->process, 0);
    gp_ncu_field(out, x->host, 0);
    gp_ncu_field(out, kernel, 0);
    snprintf(buf, sizeof buf, "%ld", x->context);
    gp_ncu_field(out, x->context >= 0 ? buf : "", 0);
    snprintf(buf, sizeof buf, "%ld", x->stream);
    gp_ncu_field(out, x->stream >= 0 ? buf : "", 0);
    snprintf(buf, sizeof buf, "(%ld, %ld, %ld)", x->l.block[0], x->l.block[1], x->l.block[2]);
    gp_ncu_field(out, buf, 0);
    snprintf(buf, sizeof buf, "(%ld, %ld, %ld)", x->l.grid[0], x->l.grid[1], x->l.grid[2]);
    gp_ncu_field(out, buf, 0);
    snprintf(buf, sizeof buf, "%d", x->l.device);
    gp_ncu_field(out, buf, 0);
    if (x->dev >= 0)
        snprintf(buf, sizeof buf, "%d.%d", r->devices[x->dev].d.cc_major,
                 r->devices[x->dev].d.cc_minor);
    gp_ncu_field(out, x->dev >= 0 ? buf : "", 0);
}

static const char *const gp_ncu_header[] = {
    "ID",     "Process ID", "Process Name", "Host Name", "Kernel Name", "Context",
    "Stream", "Block Size", "Grid Size",    "Device",    "CC"};
#define GP_NCU_N_FIXED (sizeof gp_ncu_header / sizeof gp_ncu_header[0])

int gp_report_ncu_csv(const gp_report *r, FILE *out)
{
    gp_strindex *units = gp_ncu_units();
    size_t i, j;
    for (i = 0; i < GP_NCU_N_FIXED; i++)
        gp_ncu_field(out, gp_ncu_header[i], i == 0);
    fputs(",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n", out);
    for (i = 0; i < r->n_launch_rows; i++) {
        const gp_report_launch *x = &r->launch_rows[i];
        for (j = 0; j < x->l.n_metrics; j++) {
            gp_report_ncu_prefix(r, i, x, out);
            gp_ncu_field(out, gp_ncu_section, 0);
            gp_ncu_field(out, x->l.names[j], 0);
            gp_ncu_field(out, gp_ncu_unit(units, x->l.names[j]), 0);
            gp_ncu_number(out, x->l.values[j]);
            fputc('\n', out);
        }
        for (j = 0; j < GP_NCU_N_LAUNCH; j++) {
            gp_report_ncu_prefix(r, i, x, out);
            gp_ncu_field(out, gp_ncu_launch_section, 0);
            gp_ncu_field(out, gp_ncu_launch[j].name, 0);
            gp_ncu_field(out, gp_ncu_launch[j].unit, 0);
            gp_ncu_number(out, gp_ncu_launch_value(&x->l, (int)j));
            fputc('\n', out);
        }
    }
    gp_strindex_free(&units);
    return ferror(out) ? -1 : 0;
}

/* The columns of --page raw: every metric any launch has, in the order first
 * seen, found by name through an index (a scan of the columns for each
 * metric of each launch made 40,000 names take 6.6 s). */
typedef struct {
    const char **names;
    size_t n, cap;
    gp_strindex *ix;
} gp_ncu_cols;

static long gp_ncu_col(const gp_ncu_cols *c, const char *name)
{
    return gp_strindex_find(c->ix, name, strlen(name));
}

static int gp_ncu_cols_add(gp_ncu_cols *c, const char *name)
{
    if (gp_ncu_col(c, name) >= 0)
        return 0;
    if (c->n == c->cap) {
        size_t nc = c->cap ? 2 * c->cap : 64;
        const char **nn = realloc(c->names, nc * sizeof *nn);
        if (!nn)
            return -1;
        c->names = nn;
        c->cap = nc;
    }
    if (gp_strindex_add(&c->ix, name, strlen(name), c->n) < 0)
        return -1;
    c->names[c->n++] = name;
    return 0;
}

int gp_report_ncu_raw_csv(const gp_report *r, FILE *out)
{
    gp_ncu_cols cols = {0};
    gp_strindex *units = gp_ncu_units();
    double *v = NULL;
    size_t i, j, c;
    int rc = -1;
    for (i = 0; i < r->n_launch_rows; i++) {
        const gp_launch *l = &r->launch_rows[i].l;
        for (j = 0; j < l->n_metrics; j++)
            if (gp_ncu_cols_add(&cols, l->names[j]) < 0)
                goto out;
    }
    if (!(v = malloc((cols.n ? cols.n : 1) * sizeof *v)))
        goto out;
    for (i = 0; i < GP_NCU_N_FIXED; i++)
        gp_ncu_field(out, gp_ncu_header[i], i == 0);
    for (j = 0; j < GP_NCU_N_LAUNCH; j++)
        gp_ncu_field(out, gp_ncu_launch[j].name, 0);
    for (c = 0; c < cols.n; c++)
        gp_ncu_field(out, cols.names[c], 0);
    fputc('\n', out);
    for (i = 0; i < GP_NCU_N_FIXED; i++)
        gp_ncu_field(out, "", i == 0);
    for (j = 0; j < GP_NCU_N_LAUNCH; j++)
        gp_ncu_field(out, gp_ncu_launch[j].unit, 0);
    for (c = 0; c < cols.n; c++)
        gp_ncu_field(out, gp_ncu_unit(units, cols.names[c]), 0);
    fputc('\n', out);
    for (i = 0; i < r->n_launch_rows; i++) {
        const gp_report_launch *x = &r->launch_rows[i];
        gp_report_ncu_prefix(r, i, x, out);
        for (j = 0; j < GP_NCU_N_LAUNCH; j++)
            gp_ncu_number(out, gp_ncu_launch_value(&x->l, (int)j));
        for (c = 0; c < cols.n; c++)
            v[c] = NAN;
        for (j = 0; j < x->l.n_metrics; j++)
            v[gp_ncu_col(&cols, x->l.names[j])] = x->l.values[j];
        for (c = 0; c < cols.n; c++)
            gp_ncu_number(out, v[c]);
        fputc('\n', out);
    }
    rc = ferror(out) ? -1 : 0;
out:
    free(v);
    free(cols.names);
    gp_strindex_free(&cols.ix);
    gp_strindex_free(&units);
    return rc;
}
