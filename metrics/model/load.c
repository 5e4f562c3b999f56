/* load.c - see load.h. */
#include "metrics/model/load.h"
#include "metrics/instructions/source_read.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "metrics/model/devices.h"
#include "metrics/model/estimate_load.h"
#include "metrics/catalog/facts.h"
#include "metrics/records/textfile.h"
#include "util/kname.h"
#include "util/num.h"
#include "util/strhash.h"
#include "util/strindex.h"
#include "util/textio.h"

void gp_report_init(gp_report *r, const gp_peaks *peaks)
{
    memset(r, 0, sizeof *r);
    gp_peaks_set(&r->peaks, peaks);
    gp_device_h100(&r->dflt);
    r->tool = "gpuprof-report";
}

/* A kept launch: its metric names are the report's pooled strings (only
 * the array is its own) and its reasons were dropped when it was kept
 * unless keep_reasons. */
static void gp_load_row_free(gp_report_launch *row)
{
    for (size_t i = 0; row->l.missing && i < row->l.n_metrics; i++)
        free(row->l.missing[i]);
    free(row->l.names);
    row->l.names = NULL;
    row->l.n_metrics = 0;
    gp_record_launch_free(&row->l);
}

void gp_report_free(gp_report *r)
{
    size_t i;
    for (i = 0; i < r->n; i++) {
        gp_aggregate_free(&r->kernels[i].agg);
        free(r->kernels[i].mangled);
        free(r->kernels[i].verdicts);
    }
    gp_strindex_free(&r->index);
    gp_devices_free(r);
    gp_source_free(&r->source);
    gp_estimates_free(r);
    for (i = 0; i < r->n_files; i++)
        free(r->files[i]);
    for (i = 0; i < r->n_launch_rows; i++)
        gp_load_row_free(&r->launch_rows[i]);
    free(r->launch_rows);
    for (i = 0; i < r->n_pool; i++)
        free(r->pool[i]);
    free(r->pool);
    gp_strindex_free(&r->pool_index);
    gp_digestset_free(&r->seen);
    gp_strindex_free(&r->file_ids);
    free(r->files);
    free(r->kernels);
    free(r->devices);
    memset(r, 0, sizeof *r);
}

double gp_report_total_time(const gp_report *r)
{
    return r->n_timed ? r->total_time : NAN;
}

const gp_device *gp_report_kernel_device(const gp_report *r, const gp_kernel_report *k)
{
    return k->dev >= 0 ? &r->devices[k->dev].d : &r->dflt; /* no record: H100 defaults */
}

const char *gp_report_kernel_name(const gp_report *r, const gp_kernel_report *k)
{
    switch (r->name_base) {
    case GP_REPORT_NAME_DEMANGLED:
        return k->agg.kernel;
    case GP_REPORT_NAME_MANGLED:
        return k->mangled ? k->mangled : k->agg.kernel;
    default:
        return k->name[0] ? k->name : k->agg.kernel;
    }
}

static char *gp_load_strdup(const char *s)
{
    size_t n;
    char *d;
    if (!s)
        return NULL;
    n = strlen(s) + 1;
    d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int gp_load_model(const gp_report *r, long dev)
{
    return dev >= 0 ? r->devices[dev].model : -1;
}

/* The kernel table: kernels[] in order of appearance, found by (device,
 * device model, name) through an index (a linear scan made 50,000 distinct
 * kernels take 45 s).  key: the device's and the model's 4 bytes, then the
 * name. */
static char *gp_load_key(const char *kernel, int device, int model, char *buf, size_t buflen,
                         size_t *len)
{
    size_t n = strlen(kernel), h = sizeof device + sizeof model;
    char *k = n + h <= buflen ? buf : malloc(n + h);
    *len = n + h;
    if (k) {
        memcpy(k, &device, sizeof device);
        memcpy(k + sizeof device, &model, sizeof model);
        memcpy(k + h, kernel, n);
    }
    return k;
}

static gp_kernel_report *gp_load_kernel(gp_report *r, const char *kernel, int device, long dev,
                                        const char *mangled)
{
    char buf[512], *key;
    size_t len, i;
    long at;
    int model = gp_load_model(r, dev);
    gp_kernel_report *k = NULL;
    /* positions change when finish sorts: the index is rebuilt then */
    if (!r->index)
        for (i = 0; i < r->n; i++) {
            char *ik = gp_load_key(r->kernels[i].agg.kernel, r->kernels[i].agg.device,
                                   gp_load_model(r, r->kernels[i].dev), buf, sizeof buf, &len);
            int bad = !ik || gp_strindex_add(&r->index, ik, len, i) < 0;
            if (ik != buf)
                free(ik);
            if (bad)
                return NULL;
        }
    if (!(key = gp_load_key(kernel, device, model, buf, sizeof buf, &len)))
        return NULL;
    if ((at = gp_strindex_find(r->index, key, len)) >= 0) {
        k = &r->kernels[at];
        goto out;
    }
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 16;
        gp_kernel_report *nk = realloc(r->kernels, nc * sizeof *nk);
        if (!nk)
            goto out;
        r->kernels = nk;
        r->cap = nc;
    }
    memset(&r->kernels[r->n], 0, sizeof r->kernels[r->n]);
    if (gp_aggregate_init(&r->kernels[r->n].agg, kernel, device) < 0)
        goto out;
    if (gp_strindex_add(&r->index, key, len, r->n) < 0) {
        gp_aggregate_free(&r->kernels[r->n].agg);
        goto out;
    }
    r->kernels[r->n].dev = dev;
    r->kernels[r->n].mangled = gp_load_strdup(mangled);
    /* creation order, to find the kernel again after sorting */
    r->kernels[r->n].seq = r->n;
    k = &r->kernels[r->n++];
out:
    if (key != buf)
        free(key);
    return k;
}

/* The report's one copy of a metric name: every kept launch of a list of
 * 50 counters held 50 copies of the same names (a million launches, 3 GB).
 * NULL out of memory. */
static char *gp_load_pooled(gp_report *r, const char *name)
{
    size_t len = strlen(name);
    long at = gp_strindex_find(r->pool_index, name, len);
    char *copy;
    if (at >= 0)
        return r->pool[at];
    if (r->n_pool == r->cap_pool) {
        size_t nc = r->cap_pool ? 2 * r->cap_pool : 64;
        char **np = realloc(r->pool, nc * sizeof *np);
        if (!np)
            return NULL;
        r->pool = np;
        r->cap_pool = nc;
    }
    if (!(copy = gp_load_strdup(name)))
        return NULL;
    if (gp_strindex_add(&r->pool_index, name, len, r->n_pool) < 0) {
        free(copy);
        return NULL;
    }
    return r->pool[r->n_pool++] = copy;
}

/* Keeps one launch (r->keep_launches): takes over l. */
static int gp_load_keep(gp_report *r, gp_launch *l, long dev, const gp_derived_row *row,
                        const gp_kernel_report *k)
{
    gp_report_launch *x;
    char **pooled;
    size_t i;
    if (r->n_launch_rows == r->cap_launch_rows) {
        size_t nc = r->cap_launch_rows ? 2 * r->cap_launch_rows : 64;
        gp_report_launch *n = realloc(r->launch_rows, nc * sizeof *n);
        if (!n)
            return -1;
        r->launch_rows = n;
        r->cap_launch_rows = nc;
    }
    /* what the launch writers do not read goes (the reasons of null values,
     * the name hash) and the names become the pooled ones, all found before
     * l is changed: on failure it is still whole for its caller */
    if (!(pooled = malloc((l->n_metrics ? l->n_metrics : 1) * sizeof *pooled)))
        return -1;
    for (i = 0; i < l->n_metrics; i++)
        if (!(pooled[i] = gp_load_pooled(r, l->names[i]))) {
            free(pooled);
            return -1;
        }
    for (i = 0; i < l->n_metrics; i++) {
        free(l->names[i]);
        l->names[i] = pooled[i];
        if (!r->keep_reasons)
            free(l->missing[i]);
    }
    free(pooled);
    if (!r->keep_reasons) {
        free(l->missing);
        l->missing = NULL;
    }
    gp_record_launch_unindex(l);
    x = &r->launch_rows[r->n_launch_rows];
    memset(x, 0, sizeof *x);
    x->file = r->n_files - 1;
    x->pid = l->pid;
    x->rank = l->rank;
    x->context = l->context;
    x->stream = l->stream;
    x->dev = dev;
    x->l = *l;
    memset(l, 0, sizeof *l);
    x->host = x->l.host; /* the launch's own strings, not copies */
    x->process = x->l.process;
    x->mangled = x->l.mangled;
    memcpy(x->derived, row->v, sizeof x->derived);
    x->kernel = (long)k->seq;
    r->n_launch_rows++;
    return 0;
}

/* Hands a valid record to r->on_record; its refusal stops the loading. */
static void gp_load_stream(gp_report *r, const gp_report_record *rec)
{
    if (r->on_record && r->on_record(r->on_record_arg, r, rec) != 0)
        r->stopped = 1;
}

static int gp_load_launch(gp_report *r, const gp_json *obj, gp_derived_row *row, long lineno,
                          char *err, size_t errlen)
{
    gp_launch l;
    gp_occ_result occ;
    gp_facts f;
    gp_kernel_report *k;
    const gp_device *d;
    long dev;
    if (gp_record_launch(obj, &l, err, errlen) < 0)
        return -1;
    dev = gp_devices_of_launch(r, r->n_files - 1, l.host ? l.host : "", l.pid, l.device);
    d = dev >= 0 ? &r->devices[dev].d : &r->dflt;
    gp_facts_of_launch(&f, &l, d, &r->peaks, &occ);
    gp_derived_eval(&f, row);
    k = gp_load_kernel(r, l.kernel, l.device, dev, l.mangled);
    if (!k) {
        gp_record_launch_free(&l);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* before keeping: gp_load_keep moves the launch out of l */
    gp_aggregate_add(&k->agg, &l, row, &occ);
    if (r->on_record) {
        gp_report_record rec = {"launch", obj, r->n_files - 1, lineno, dev, &l, row, k->seq};
        gp_load_stream(r, &rec);
    }
    if (r->keep_launches && gp_load_keep(r, &l, dev, row, k) < 0) {
        gp_record_launch_free(&l);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    r->launches++;
    gp_record_launch_free(&l); /* empty when kept */
    return 0;
}

/* An instruction-level record: its device is found as a launch's without a
 * process (the records name none; the library writes them after its
 * process's device and launch records), through the device index. */
static int gp_load_source(gp_report *r, const char *type, const gp_json *obj, char *err,
                          size_t errlen)
{
    gp_source_origin from = {.input = r->n_files - 1, .model = -1};
    double ord = gp_json_number(gp_json_get(obj, "device"));
    long dev = ord >= 0 && ord <= 65535 && ord == floor(ord)
                   ? gp_devices_of_launch(r, r->n_files - 1, "", -1, (int)ord)
                   : -1;
    if (dev >= 0) {
        from.model = r->devices[dev].model;
        from.cc_major = r->devices[dev].d.cc_major;
        from.cc_minor = r->devices[dev].d.cc_minor;
    }
    return gp_source_load(&r->source, type, obj, &from, err, errlen);
}

static int gp_load_line(gp_report *r, const char *line, size_t len, long lineno,
                        gp_derived_row *row, char *err, size_t errlen)
{
    char perr[160];
    const char *type;
    gp_json *obj;
    int rc = 0;
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    if (len == 0)
        return 0;
    if (r->skip_source && len > 16 && memcmp(line, "{\"type\":\"source_", 16) == 0)
        return 0;
    obj = gp_json_parse(line, len, perr, sizeof perr);
    if (!obj) {
        snprintf(err, errlen, "malformed JSON (%s)", perr);
        return -1;
    }
    type = gp_json_string(gp_json_get(obj, "type"));
    if (type && (strcmp(type, "launch") == 0 || strcmp(type, "variant_estimate") == 0)) {
        /* a launch names its process and launch id, an estimate its process
         * and variant: the same line again is the same record read twice (a
         * file given twice, lines copied), counted once.  Records of other
         * values under the same ids are another run's (a process id used
         * again) and kept. */
        int again = gp_digestset_add(&r->seen, gp_strhash(line, len));
        if (again) {
            gp_json_free(obj);
            if (again < 0) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            r->repeats++;
            r->proc_repeats++;
            return 0;
        }
        r->proc_new++;
    } else if (type && gp_source_is_record(type) && r->proc_repeats && !r->proc_new) {
        /* the instruction-level records of a process read before */
        gp_json_free(obj);
        r->repeats++;
        return 0;
    }
    if (!type) {
        snprintf(err, errlen, "record without a \"type\" string");
        rc = -1;
    } else if (strcmp(type, "device") == 0) {
        gp_device d;
        rc = gp_record_device(obj, &d, err, errlen) < 0 ? -1 : gp_devices_add(r, &d, err, errlen);
    } else if (strcmp(type, "launch") == 0) {
        rc = gp_load_launch(r, obj, row, lineno, err, errlen);
    } else if (strcmp(type, "summary") == 0) {
        if (r->proc_repeats && !r->proc_new) { /* the end of a process read before */
            r->proc_repeats = 0;
            gp_json_free(obj);
            r->repeats++;
            return 0;
        }
        rc = gp_source_summary(&r->source, obj, r->n_files - 1, err, errlen);
        r->summaries += rc == 0;
        r->proc_new = r->proc_repeats = 0;
    } else if (gp_source_is_record(type)) {
        rc = gp_load_source(r, type, obj, err, errlen);
    } else if (strcmp(type, "variant_estimate") == 0) {
        rc = gp_estimate_load(r, obj, err, errlen);
    } /* other types: newer writers may add some; ignore them */
    if (rc == 0 && r->on_record && strcmp(type, "launch") != 0) {
        gp_report_record rec = {type, obj, r->n_files - 1, lineno, -1, NULL, NULL, 0};
        if (strcmp(type, "device") == 0)
            rec.dev = (long)r->n_devices - 1;
        gp_load_stream(r, &rec);
    }
    gp_json_free(obj);
    if (rc == 0)
        r->records++;
    return rc;
}

/* Reads the records of t, a file registered as r->files' last. */
static long gp_load_lines(gp_report *r, gp_textfile *t, FILE *warn)
{
    char *line, err[320];
    size_t len;
    long before = r->launches, repeats = r->repeats;
    int got, failed = 0;
    r->proc_new = r->proc_repeats = 0; /* a file starts a process */
    gp_derived_row *row = malloc(sizeof *row);
    if (!row) {
        if (warn)
            fprintf(warn, "%s: out of memory reading %s\n", r->tool, t->name);
        return -1;
    }
    while (!r->stopped && (got = gp_textfile_line(t, &line, &len, err, sizeof err)) != 0) {
        if (got == -1) { /* a read error or the size limit: the file ends here */
            if (warn)
                fprintf(warn, "%s: %s\n", r->tool, err);
            failed = 1;
            break;
        }
        if (got == 1 && gp_load_line(r, line, len, t->lineno, row, err, sizeof err) == 0)
            continue;
        r->bad_lines++;
        if (warn) {
            /* the reason may quote the input (a kernel name) */
            fprintf(warn, "%s: %s:%ld: ", r->tool, t->name, t->lineno);
            gp_text_plain(warn, err);
            fputc('\n', warn);
        }
    }
    free(row);
    if (warn && r->repeats > repeats)
        fprintf(warn,
                "%s: %s: %ld record%s repeat%s what was read before (a launch or variant of "
                "the same process with the same values, and the rest of that process's "
                "records): counted once\n",
                r->tool, t->name, r->repeats - repeats, r->repeats - repeats == 1 ? "" : "s",
                r->repeats - repeats == 1 ? "s" : "");
    return failed ? -1 : r->launches - before;
}

/* 1 when the file open in t is one read before (the same device and inode:
 * a path given twice, a link to it): said, and not read again. */
static int gp_load_same_file(gp_report *r, gp_textfile *t, const char *path, FILE *warn)
{
    struct stat st;
    uint64_t id[2];
    long at;
    if (!t->f || fstat(fileno(t->f), &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    id[0] = (uint64_t)st.st_dev;
    id[1] = (uint64_t)st.st_ino;
    if ((at = gp_strindex_find(r->file_ids, id, sizeof id)) >= 0) {
        if (warn) {
            fprintf(warn, "%s: ", r->tool);
            gp_text_plain(warn, path);
            fputs(" is the file ", warn);
            gp_text_plain(warn, r->files[at]);
            fputs(" again: read once\n", warn);
        }
        return 1;
    }
    gp_strindex_add(&r->file_ids, id, sizeof id, r->n_files);
    return 0;
}

/* Registers the file's name before reading: device records and kept
 * launches name their file. */
static int gp_load_register(gp_report *r, const char *name, FILE *warn)
{
    char **nf = realloc(r->files, (r->n_files + 1) * sizeof *nf), *copy = gp_load_strdup(name);
    if (nf)
        r->files = nf;
    if (!nf || !copy) {
        if (warn)
            fprintf(warn, "%s: out of memory\n", r->tool);
        free(copy);
        return -1;
    }
    r->files[r->n_files++] = copy;
    return 0;
}

long gp_report_load_stream(gp_report *r, FILE *f, const char *name, FILE *warn)
{
    gp_textfile t;
    long got;
    if (gp_load_register(r, name, warn) < 0)
        return -1;
    gp_textfile_stream(&t, f, name, GP_REPORT_MAX_FILE, GP_REPORT_MAX_LINE);
    got = gp_load_lines(r, &t, warn);
    gp_textfile_close(&t);
    return got;
}

long gp_report_load(gp_report *r, const char *path, FILE *warn)
{
    gp_textfile t;
    char err[512];
    long got;
    if (gp_textfile_open(&t, path, NULL, GP_REPORT_MAX_FILE, GP_REPORT_MAX_LINE, err, sizeof err) <
        0) {
        if (warn)
            fprintf(warn, "%s: %s\n", r->tool, err);
        return -1;
    }
    if (gp_load_same_file(r, &t, path, warn)) {
        gp_textfile_close(&t);
        return 0;
    }
    if (gp_load_register(r, strcmp(path, "-") == 0 ? "<stdin>" : path, warn) < 0) {
        gp_textfile_close(&t);
        return -1;
    }
    got = gp_load_lines(r, &t, warn);
    gp_textfile_close(&t);
    return got;
}

static int gp_load_cmp(const void *a, const void *b)
{
    const gp_kernel_report *x = a, *y = b;
    double tx = x->agg.row.v[GP_M_DURATION], ty = y->agg.row.v[GP_M_DURATION];
    int c;
    if (isnan(tx))
        tx = -1;
    if (isnan(ty))
        ty = -1;
    if (tx != ty)
        return tx < ty ? 1 : -1;
    c = strcmp(x->agg.kernel, y->agg.kernel);
    if (c)
        return c;
    return x->agg.device != y->agg.device ? (x->agg.device < y->agg.device ? -1 : 1)
                                          : (x->seq < y->seq ? -1 : x->seq > y->seq);
}

/* Short names: Nsight Compute's function name; kernels that share it are told
 * apart by their template arguments when those differ, else by a number in
 * the order of the report ("k (2)").  One demangled name keeps one short name
 * on every device. */
/* Short names, told apart where several kernels share one: by template
 * arguments when those differ, else by a number in order of first
 * appearance.  Sorted groups keep this near-linear in the number of kernels
 * (a program may have tens of thousands). */
typedef struct {
    const char *fn, *full;
    size_t i;        /* kernel index */
    size_t first;    /* first index of this full name */
    int shared;      /* another name of the group has the same template arguments */
    char targs[256]; /* template arguments of the full name */
} gp_load_nm;

static int gp_load_nm_cmp(const void *a, const void *b)
{
    const gp_load_nm *x = a, *y = b;
    int c = strcmp(x->fn, y->fn);
    if (!c)
        c = strcmp(x->full, y->full);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int gp_load_nm_first_cmp(const void *a, const void *b)
{
    const gp_load_nm *const *x = a, *const *y = b;
    return ((*x)->first > (*y)->first) - ((*x)->first < (*y)->first);
}

static int gp_load_nm_targs_cmp(const void *a, const void *b)
{
    const gp_load_nm *const *x = a, *const *y = b;
    return strcmp((*x)->targs, (*y)->targs);
}

static void gp_load_names(gp_report *r)
{
    char(*fn)[256] = calloc(r->n ? r->n : 1, sizeof *fn);
    gp_load_nm *v = calloc(r->n ? r->n : 1, sizeof *v);
    const gp_load_nm **d = calloc(r->n ? r->n : 1, sizeof *d);
    size_t i, g, e;
    if (!fn || !v || !d)
        goto out;
    for (i = 0; i < r->n; i++) {
        gp_kname_function(r->kernels[i].agg.kernel, fn[i], sizeof fn[i]);
        v[i].fn = fn[i];
        v[i].full = r->kernels[i].agg.kernel;
        v[i].i = i;
    }
    if (r->n > 1)
        qsort(v, r->n, sizeof *v, gp_load_nm_cmp);
    for (g = 0; g < r->n; g = e) { /* one group: the kernels of one short name */
        size_t nd = 0, k, j;
        for (e = g; e < r->n && strcmp(v[e].fn, v[g].fn) == 0; e++)
            ;
        for (k = g; k < e; k = j) { /* one distinct full name: v[k..j) */
            for (j = k; j < e && strcmp(v[j].full, v[k].full) == 0; j++)
                ;
            v[k].first = v[k].i; /* sorted by index within a full name */
            gp_kname_template_args(v[k].full, v[k].targs, sizeof v[k].targs);
            d[nd++] = &v[k];
        }
        if (nd > 1) {
            qsort(d, nd, sizeof *d, gp_load_nm_targs_cmp);
            for (k = 0; k < nd; k = j) { /* template arguments shared by several names */
                for (j = k; j < nd && strcmp(d[j]->targs, d[k]->targs) == 0; j++)
                    ;
                for (size_t m = k; m < j; m++)
                    ((gp_load_nm *)d[m])->shared = j - k > 1;
            }
            qsort(d, nd, sizeof *d, gp_load_nm_first_cmp);
        }
        for (k = 0; k < nd; k++) {
            const gp_load_nm *x = d[k];
            int shared_targs = x->shared;
            for (j = (size_t)(x - v); j < e && strcmp(v[j].full, x->full) == 0; j++) {
                char *name = r->kernels[v[j].i].name;
                size_t len = sizeof r->kernels[v[j].i].name;
                if (nd <= 1)
                    snprintf(name, len, "%s", x->fn);
                else if (!shared_targs)
                    snprintf(name, len, "%.120s%.120s", x->fn, x->targs);
                else
                    snprintf(name, len, "%.200s (%zu)", x->fn, k + 1);
            }
        }
    }
out:
    free(fn);
    free(v);
    free(d);
}

/* Replay mode none: each variant's repeated launches join its kernel's row
 * as N - exact launches of the estimated mean launch (its first launches are
 * there already, as launch records), so that launch counts, time shares and
 * the study count every launch; the writers mark them as estimated. */
static void gp_load_fold_estimates(gp_report *r)
{
    for (size_t i = r->n_folded; i < r->n_estimates; i++) {
        gp_report_estimate *e = &r->estimates[i];
        gp_kernel_report *k = gp_load_kernel(r, e->kernel, e->device, e->dev, NULL);
        /* the total is checked as each estimate is read (estimate_load.c):
         * no sum here can overflow */
        if (k)
            gp_aggregate_add_estimated(&k->agg, e->derived, e->launches - e->exact, &e->shape);
    }
    r->n_folded = r->n_estimates;
}

void gp_report_finish(gp_report *r)
{
    gp_verdict found[GP_V_COUNT];
    size_t i;
    long *index;
    r->total_time = 0;
    r->n_timed = 0;
    gp_load_fold_estimates(r);
    gp_source_group_finish(r->source);
    for (i = 0; i < r->n; i++) {
        gp_kernel_report *k = &r->kernels[i];
        gp_verdict_input vi;
        gp_aggregate_finish(&k->agg);
        k->where = gp_source_group_kernel(r->source, k->agg.kernel, k->agg.device,
                                          gp_load_model(r, k->dev));
        vi.source = r->source;
        vi.where = k->where;
        gp_roofline_compute(k->agg.row.v, k->agg.row.why[GP_M_FLOPS_PER_S], &r->peaks, &k->roof);
        vi.v = k->agg.row.v;
        vi.device = gp_report_kernel_device(r, k);
        vi.occ = k->agg.occ.limiter == GP_OCC_LIMIT_INVALID ? NULL : &k->agg.occ;
        vi.roof = &k->roof;
        vi.launches = k->agg.launches;
        vi.threads_per_block = k->agg.threads_per_block;
        vi.blocks = k->agg.blocks;
        vi.smem_per_block = k->agg.smem_per_block;
        vi.regs_per_thread = k->agg.regs_per_thread;
        free(k->verdicts);
        k->verdicts = NULL;
        /* kept at their number: most kernels have one to three */
        k->n_verdicts = gp_verdict_diagnose(&vi, found);
        if (k->n_verdicts && (k->verdicts = malloc(k->n_verdicts * sizeof *found)))
            memcpy(k->verdicts, found, k->n_verdicts * sizeof *found);
        else
            k->n_verdicts = 0;
        if (!isnan(k->agg.row.v[GP_M_DURATION])) {
            r->total_time += k->agg.row.v[GP_M_DURATION];
            r->n_timed++;
        }
    }
    if (!isfinite(r->total_time)) /* durations beyond a double's range, summed */
        r->total_time = NAN;
    if (r->n > 1)
        qsort(r->kernels, r->n, sizeof *r->kernels, gp_load_cmp);
    /* positions changed: a later load rebuilds the index */
    gp_strindex_free(&r->index);
    gp_load_names(r);
    /* launches point at their kernel's place in the sorted list */
    index = malloc((r->n ? r->n : 1) * sizeof *index);
    for (i = 0; index && i < r->n; i++)
        index[r->kernels[i].seq] = (long)i;
    for (i = 0; i < r->n_launch_rows; i++)
        r->launch_rows[i].kernel = index ? index[r->launch_rows[i].kernel] : -1;
    free(index);
}

int gp_report_n_models(const gp_report *r)
{
    int n = 0;
    size_t i;
    for (i = 0; i < r->n_devices; i++)
        n += r->devices[i].model == (int)i;
    return n;
}

int gp_report_peaks_mismatch(const gp_report *r, char *buf, size_t len)
{
    size_t i;
    if (!r->peaks.device[0] || !r->n_devices)
        return 0;
    for (i = 0; i < r->n_devices; i++)
        if (strcasecmp(r->devices[i].d.name, r->peaks.device) == 0)
            return 0;
    snprintf(buf, len,
             "the measured ceilings (%s) are from %s, but the profiled device is %s (device %d): "
             "measure this GPU with gpupeak, or its %% of ceiling figures are not this GPU's",
             r->peaks.source, r->peaks.device, r->devices[0].d.name, r->devices[0].d.ordinal);
    return 1;
}

void gp_report_each_device(const gp_report *r,
                           void (*fn)(const gp_device *d, size_t inputs, void *arg), void *arg)
{
    gp_devices_each(r, fn, arg);
}
