/* details_summary.c - `--print-summary per-kernel` as Nsight Compute 2025.3
 * prints it (details.h): the launches grouped per kernel (process, device,
 * name, grid and block), the groups by kernel name, each group's sections
 * by display name, and for each row of the details page the minimum,
 * maximum and average over the group's launches that have a value, with two
 * decimals.  A row no launch of the group has a value for is left out of
 * the text, as ncu leaves out its rows of names (CachePreferNone), and why
 * is said once after the summary; the CSV keeps it with n/a in its three
 * value columns, but for the rows whose value is a name in ncu (sections.def's
 * facts N), which ncu's summary has not.  Text:
 *
 *   [pid] process@host
 *     kernel (gx, gy, gz)x(bx, by, bz), Device D, CC M.m, Invocations N
 *       Section: ...
 *       ----------- ----------- ------- ------- -------
 *       Metric Name Metric Unit Minimum Maximum Average
 *
 * CSV: "Process ID", "Process Name", "Host Name", "Kernel Name", "Block
 * Size", "Grid Size", "Device", "CC", "Invocations", "Section Name",
 * "Metric Name", "Metric Unit", "Minimum", "Maximum", "Average". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/report/details_common.h"
#include "util/textio.h"

typedef struct {
    size_t *launches; /* indices into launch_rows */
    size_t n, cap;
} gp_ds_group;

/* qsort's comparison of two groups: by input and process, then kernel
 * name, then first launch */
static const gp_report *gp_ds_report;
static int gp_ds_by_kernel(const void *a, const void *b)
{
    const gp_ds_group *x = a, *y = b;
    const gp_report_launch *p = &gp_ds_report->launch_rows[x->launches[0]];
    const gp_report_launch *q = &gp_ds_report->launch_rows[y->launches[0]];
    int c;
    /* per process, as ncu prints a process's kernels under its line */
    if (p->file != q->file)
        return (p->file > q->file) - (p->file < q->file);
    if (p->pid != q->pid)
        return (p->pid > q->pid) - (p->pid < q->pid);
    c = strcmp(gp_dl_kernel(gp_ds_report, p), gp_dl_kernel(gp_ds_report, q));
    return c ? c : (x->launches[0] > y->launches[0]) - (x->launches[0] < y->launches[0]);
}

/* The sections in order of display name (the summary's order). */
static void gp_ds_section_order(size_t *order)
{
    for (size_t i = 0; i < gp_ncu_n_sections; i++)
        order[i] = i;
    for (size_t i = 1; i < gp_ncu_n_sections; i++)
        for (size_t j = i; j > 0 && strcmp(gp_ncu_sections[order[j - 1]].display,
                                           gp_ncu_sections[order[j]].display) > 0;
             j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

/* The groups by kernel name; NULL when out of memory. */
static gp_ds_group *gp_ds_groups(const gp_report *r, size_t *ngroups)
{
    gp_ds_group *g = calloc(r->n_launch_rows ? r->n_launch_rows : 1, sizeof *g);
    gp_strindex *ix = NULL;
    size_t n = 0;
    if (!g)
        return NULL;
    for (size_t i = 0; i < r->n_launch_rows; i++) {
        const gp_report_launch *x = &r->launch_rows[i];
        const char *kernel = gp_dl_kernel(r, x);
        /* the whole name in the key: C++ names run to thousands of bytes */
        size_t cap = strlen(kernel) + 160, klen;
        char *key = malloc(cap);
        long at;
        gp_ds_group *grp;
        int len;
        if (!key)
            goto oom;
        len = snprintf(key, cap, "%zu|%ld|%d|%ld,%ld,%ld|%ld,%ld,%ld|%s", x->file, x->pid,
                       x->l.device, x->l.grid[0], x->l.grid[1], x->l.grid[2], x->l.block[0],
                       x->l.block[1], x->l.block[2], kernel);
        klen = len < 0 ? 0 : (size_t)len >= cap ? cap - 1 : (size_t)len;
        at = gp_strindex_find(ix, key, klen);
        if (at < 0 && gp_strindex_add(&ix, key, klen, n) < 0) {
            free(key);
            goto oom;
        }
        free(key);
        if (at < 0)
            at = (long)n++;
        grp = &g[at];
        if (grp->n == grp->cap) {
            size_t nc = grp->cap ? 2 * grp->cap : 4;
            size_t *nl = realloc(grp->launches, nc * sizeof *nl);
            if (!nl)
                goto oom;
            grp->launches = nl;
            grp->cap = nc;
        }
        grp->launches[grp->n++] = i;
    }
    gp_strindex_free(&ix);
    *ngroups = n;
    gp_ds_report = r;
    qsort(g, n, sizeof *g, gp_ds_by_kernel);
    return g;
oom:
    gp_strindex_free(&ix);
    for (size_t i = 0; i < n; i++)
        free(g[i].launches);
    free(g);
    return NULL;
}

static void gp_ds_free(gp_ds_group *g, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(g[i].launches);
    free(g);
}

/* One row over a group: min, max, mean of the launches with a value;
 * 0 when none has one (why: the first launch's reason). */
typedef struct {
    double min, max, sum;
    size_t n;
    char why[600];
} gp_ds_stat;

static void gp_ds_row(const gp_report *r, const gp_ds_group *g, const gp_ncu_row *row,
                      gp_ncu_eval *evals, gp_ds_stat *st)
{
    (void)r;
    memset(st, 0, sizeof *st);
    for (size_t k = 0; k < g->n; k++) {
        gp_ncu_value v;
        gp_ncu_eval_row(&evals[k], row, &v);
        if (v.status != GP_NCU_OK) {
            if (!st->why[0])
                gp_dl_reason(row, &v, st->why, sizeof st->why);
            continue;
        }
        if (!st->n || v.value < st->min)
            st->min = v.value;
        if (!st->n || v.value > st->max)
            st->max = v.value;
        st->sum += v.value;
        st->n++;
    }
}

typedef struct {
    char unit[32], v[3][48];
} gp_ds_cell;

/* The evaluations of a group's launches (counters indexed once each). */
static int gp_ds_evals(const gp_report *r, const gp_ds_group *g, gp_dl_counters **cs,
                       gp_ncu_eval **es)
{
    *cs = malloc(g->n * sizeof **cs);
    *es = malloc(g->n * sizeof **es);
    if (!*cs || !*es) {
        free(*cs);
        free(*es);
        return -1;
    }
    for (size_t k = 0; k < g->n; k++) {
        const gp_report_launch *x = &r->launch_rows[g->launches[k]];
        gp_dl_counters_init(&(*cs)[k], &x->l);
        gp_ncu_eval_init(&(*es)[k], &x->l, gp_dl_device(r, x), gp_dl_counter, &(*cs)[k]);
    }
    return 0;
}

static void gp_ds_evals_free(const gp_ds_group *g, gp_dl_counters *cs, gp_ncu_eval *es)
{
    for (size_t k = 0; k < g->n; k++)
        gp_dl_counters_free(&cs[k]);
    free(cs);
    free(es);
}

/* The cells of a row: the unit scaled by the average, as ncu does. */
static void gp_ds_cells(const gp_ncu_row *row, const gp_ds_stat *st, int base, gp_ds_cell *c)
{
    if (!st->n) {
        snprintf(c->unit, sizeof c->unit, "%s", row->unit);
        for (int j = 0; j < 3; j++)
            snprintf(c->v[j], sizeof c->v[j], "n/a");
        return;
    }
    double mean = st->sum / (double)st->n;
    double div = gp_dl_scale(mean, row->unit, base, c->unit, sizeof c->unit);
    gp_dl_number(st->min / div, 1, c->v[0], sizeof c->v[0]);
    gp_dl_number(st->max / div, 1, c->v[1], sizeof c->v[1]);
    gp_dl_number(mean / div, 1, c->v[2], sizeof c->v[2]);
}

int gp_report_summary_text(const gp_report *r, const gp_details_opts *o, FILE *out)
{
    static const char *const head[] = {"Metric Name", "Metric Unit", "Minimum", "Maximum",
                                       "Average"};
    size_t ng = 0;
    long last = -2;
    size_t last_file = (size_t)-1;
    gp_dl_reasons rs = {0};
    gp_ds_group *g = gp_ds_groups(r, &ng);
    const char **cells = malloc(gp_ncu_n_rows * 5 * sizeof *cells);
    gp_ds_cell *text = malloc(gp_ncu_n_rows * sizeof *text);
    size_t order[64];
    int rc = -1;
    if (!g || !cells || !text)
        goto out;
    gp_ds_section_order(order);
    for (size_t gi = 0; gi < ng; gi++) {
        const gp_report_launch *x = &r->launch_rows[g[gi].launches[0]];
        const gp_device *d = gp_dl_device(r, x);
        gp_ncu_mask m = gp_dl_sections(o, x);
        gp_dl_counters *cs;
        gp_ncu_eval *es;
        if (gp_ds_evals(r, &g[gi], &cs, &es) < 0)
            goto out;
        gp_dl_process_line(out, x, &last, &last_file);
        fputs("  ", out);
        gp_text_plain(out, gp_dl_kernel(r, x));
        fprintf(out, " (%ld, %ld, %ld)x(%ld, %ld, %ld), Device %d, CC %d.%d, Invocations %zu\n",
                x->l.grid[0], x->l.grid[1], x->l.grid[2], x->l.block[0], x->l.block[1],
                x->l.block[2], x->l.device, d->cc_major, d->cc_minor, g[gi].n);
        for (size_t si = 0; si < gp_ncu_n_sections; si++) {
            size_t n = 0, s = order[si];
            if (!(m >> s & 1))
                continue;
            for (size_t k = 0; k < gp_ncu_n_rows; k++) {
                const gp_ncu_row *row = &gp_ncu_rows[k];
                gp_ds_stat st;
                if (strcmp(row->section, gp_ncu_sections[s].id) != 0 || !gp_dl_shows(o, row))
                    continue;
                gp_ds_row(r, &g[gi], row, es, &st);
                if (!st.n) {
                    char line[900];
                    snprintf(line, sizeof line, "%s / %s (%s): %s", gp_ncu_sections[s].display,
                             row->label, row->metric, st.why);
                    gp_dl_reasons_add(&rs, line);
                    continue;
                }
                gp_ds_cells(row, &st, o->base_units, &text[n]);
                cells[n * 5] = row->label;
                cells[n * 5 + 1] = text[n].unit;
                for (int j = 0; j < 3; j++)
                    cells[n * 5 + 2 + j] = text[n].v[j];
                n++;
            }
            if (!n)
                continue;
            fputs("    Section: ", out);
            gp_text_plain(out, gp_ncu_sections[s].display);
            fputc('\n', out);
            gp_dl_table(out, "    ", head, cells, n, 5);
            fputc('\n', out);
        }
        gp_ds_evals_free(&g[gi], cs, es);
    }
    if (ng)
        fputs(
            "  Note: each average is the arithmetic mean of the values of the kernel's launches; "
            "where its launches differ in configuration, read them one by one (--page details).\n",
            out);
    gp_dl_reasons_flush(&rs, out);
    rc = ferror(out) ? -1 : 0;
out:
    gp_dl_reasons_flush(&rs, NULL); /* after a failure: freed, not written */
    if (g)
        gp_ds_free(g, ng);
    free(cells);
    free(text);
    return rc;
}

int gp_report_summary_csv(const gp_report *r, const gp_details_opts *o, FILE *out)
{
    static const char *const head[] = {"Process ID",  "Process Name", "Host Name",   "Kernel Name",
                                       "Block Size",  "Grid Size",    "Device",      "CC",
                                       "Invocations", "Section Name", "Metric Name", "Metric Unit",
                                       "Minimum",     "Maximum",      "Average"};
    size_t ng = 0, order[64];
    gp_ds_group *g = gp_ds_groups(r, &ng);
    if (!g)
        return -1;
    gp_ds_section_order(order);
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++) {
        if (i)
            fputc(',', out);
        gp_text_csv_quoted(out, head[i]);
    }
    fputc('\n', out);
    for (size_t gi = 0; gi < ng; gi++) {
        const gp_report_launch *x = &r->launch_rows[g[gi].launches[0]];
        const gp_device *d = gp_dl_device(r, x);
        gp_ncu_mask m = gp_dl_sections(o, x);
        gp_dl_counters *cs;
        gp_ncu_eval *es;
        char fixed[8][160];
        snprintf(fixed[0], sizeof fixed[0], "%ld", x->pid);
        snprintf(fixed[1], sizeof fixed[1], "(%ld, %ld, %ld)", x->l.block[0], x->l.block[1],
                 x->l.block[2]);
        snprintf(fixed[2], sizeof fixed[2], "(%ld, %ld, %ld)", x->l.grid[0], x->l.grid[1],
                 x->l.grid[2]);
        snprintf(fixed[3], sizeof fixed[3], "%d", x->l.device);
        snprintf(fixed[4], sizeof fixed[4], "%d.%d", d->cc_major, d->cc_minor);
        snprintf(fixed[5], sizeof fixed[5], "%zu", g[gi].n);
        if (gp_ds_evals(r, &g[gi], &cs, &es) < 0) {
            gp_ds_free(g, ng);
            return -1;
        }
        for (size_t si = 0; si < gp_ncu_n_sections; si++) {
            size_t s = order[si];
            if (!(m >> s & 1))
                continue;
            for (size_t k = 0; k < gp_ncu_n_rows; k++) {
                const gp_ncu_row *row = &gp_ncu_rows[k];
                gp_ds_stat st;
                gp_ds_cell c;
                const char *f[15];
                if (strcmp(row->section, gp_ncu_sections[s].id) != 0 || !gp_dl_shows(o, row))
                    continue;
                gp_ds_row(r, &g[gi], row, es, &st);
                /* a row without a value stays, as n/a: the CSV has no room
                 * for the reason (the details page and --list-sections
                 * --verbose give it), but the row is named, not dropped;
                 * unless ncu's value is a name, a row its summary has not */
                if (!st.n && row->named)
                    continue;
                gp_ds_cells(row, &st, o->base_units, &c);
                f[0] = x->pid >= 0 ? fixed[0] : "";
                f[1] = x->process ? x->process : "";
                f[2] = x->host ? x->host : "";
                f[3] = gp_dl_kernel(r, x);
                f[4] = fixed[1];
                f[5] = fixed[2];
                f[6] = fixed[3];
                f[7] = fixed[4];
                f[8] = fixed[5];
                f[9] = gp_ncu_sections[s].display;
                f[10] = row->label;
                f[11] = c.unit;
                f[12] = c.v[0];
                f[13] = c.v[1];
                f[14] = c.v[2];
                for (int j = 0; j < 15; j++) {
                    if (j)
                        fputc(',', out);
                    gp_text_csv_quoted(out, f[j]);
                }
                fputc('\n', out);
            }
        }
        gp_ds_evals_free(&g[gi], cs, es);
    }
    gp_ds_free(g, ng);
    return ferror(out) ? -1 : 0;
}
