/* load.c - see load.h. */
#include "load.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "facts.h"
#include "util/num.h"
#include "util/strindex.h"

void gp_report_init(gp_report *r, const gp_peaks *peaks)
{
    memset(r, 0, sizeof *r);
    if (peaks)
        r->peaks = *peaks;
    else
        gp_peaks_none(&r->peaks);
    gp_device_h100(&r->dflt);
    r->tool = "gpuprof-report";
}

void gp_report_free(gp_report *r)
{
    size_t i;
    for (i = 0; i < r->n; i++) {
        gp_aggregate_free(&r->kernels[i].agg);
        free(r->kernels[i].verdicts);
    }
    gp_strindex_free(&r->index);
    for (i = 0; i < r->n_files; i++)
        free(r->files[i]);
    free(r->files);
    free(r->kernels);
    free(r->devices);
    memset(r, 0, sizeof *r);
}

const gp_device *gp_report_device(const gp_report *r, int ordinal)
{
    size_t i;
    for (i = 0; i < r->n_devices; i++)
        if (r->devices[i].ordinal == ordinal)
            return &r->devices[i];
    return &r->dflt; /* no device record: H100 defaults */
}

static int gp_load_device(gp_report *r, const gp_json *obj, char *err, size_t errlen)
{
    gp_device d, *nd;
    size_t i;
    if (gp_record_device(obj, &d, err, errlen) < 0)
        return -1;
    for (i = 0; i < r->n_devices; i++)
        if (r->devices[i].ordinal == d.ordinal) {
            r->devices[i] = d;
            return 0;
        }
    nd = realloc(r->devices, (r->n_devices + 1) * sizeof *nd);
    if (!nd) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    r->devices = nd;
    r->devices[r->n_devices++] = d;
    return 0;
}

/* The kernel table: kernels[] in order of appearance, found by (device,
 * name) through an index (a linear scan made 50,000 distinct kernels take
 * 45 s).  key: the device's 4 bytes, then the name. */
static char *gp_load_key(const char *kernel, int device, char *buf, size_t buflen, size_t *len)
{
    size_t n = strlen(kernel);
    char *k = n + sizeof device <= buflen ? buf : malloc(n + sizeof device);
    *len = n + sizeof device;
    if (k) {
        memcpy(k, &device, sizeof device);
        memcpy(k + sizeof device, kernel, n);
    }
    return k;
}

static gp_kernel_agg *gp_load_kernel(gp_report *r, const char *kernel, int device)
{
    char buf[512], *key;
    size_t len, i;
    long at;
    gp_kernel_agg *k = NULL;
    /* positions change when finish sorts: the index is rebuilt then */
    if (!r->index)
        for (i = 0; i < r->n; i++) {
            char *ik = gp_load_key(r->kernels[i].agg.kernel, r->kernels[i].agg.device, buf,
                                   sizeof buf, &len);
            int bad = !ik || gp_strindex_add(&r->index, ik, len, i) < 0;
            if (ik != buf)
                free(ik);
            if (bad)
                return NULL;
        }
    if (!(key = gp_load_key(kernel, device, buf, sizeof buf, &len)))
        return NULL;
    if ((at = gp_strindex_find(r->index, key, len)) >= 0) {
        k = &r->kernels[at].agg;
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
    k = &r->kernels[r->n++].agg;
out:
    if (key != buf)
        free(key);
    return k;
}

static int gp_load_launch(gp_report *r, const gp_json *obj, gp_derived_row *row, char *err,
                          size_t errlen)
{
    gp_launch l;
    gp_occ_input oi;
    gp_occ_result occ;
    gp_facts f;
    gp_kernel_agg *k;
    const gp_device *d;
    if (gp_record_launch(obj, &l, err, errlen) < 0)
        return -1;
    d = gp_report_device(r, l.device);
    memset(&oi, 0, sizeof oi);
    oi.threads_per_block = (int)gp_num_clamp((double)gp_record_threads_per_block(&l), 0, INT_MAX, 0);
    oi.regs_per_thread = l.regs_per_thread;
    oi.static_smem = l.static_smem;
    oi.dynamic_smem = l.dynamic_smem;
    oi.max_dynamic_smem = -1;
    oi.carveout_pct = -1;
    oi.cluster_size = (int)gp_num_clamp((double)gp_record_cluster_size(&l), 0, INT_MAX, 0);
    gp_occupancy_compute(d, &oi, &occ);
    f.launch = &l;
    f.device = d;
    f.occ = occ.limiter == GP_OCC_LIMIT_INVALID ? NULL : &occ;
    f.peaks = &r->peaks;
    gp_derived_eval(&f, row);
    k = gp_load_kernel(r, l.kernel, l.device);
    if (!k) {
        gp_record_launch_free(&l);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    gp_aggregate_add(k, &l, row, &occ);
    r->launches++;
    gp_record_launch_free(&l);
    return 0;
}

static int gp_load_line(gp_report *r, const char *line, size_t len, gp_derived_row *row,
                        char *err, size_t errlen)
{
    char perr[160];
    const char *type;
    gp_json *obj;
    int rc = 0;
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    if (len == 0)
        return 0;
    obj = gp_json_parse(line, len, perr, sizeof perr);
    if (!obj) {
        snprintf(err, errlen, "malformed JSON (%s)", perr);
        return -1;
    }
    type = gp_json_string(gp_json_get(obj, "type"));
    if (!type) {
        snprintf(err, errlen, "record without a \"type\" string");
        rc = -1;
    } else if (strcmp(type, "device") == 0) {
        rc = gp_load_device(r, obj, err, errlen);
    } else if (strcmp(type, "launch") == 0) {
        rc = gp_load_launch(r, obj, row, err, errlen);
    } else if (strcmp(type, "summary") == 0) {
        r->summaries++;
    } /* other types: newer writers may add some; ignore them */
    gp_json_free(obj);
    if (rc == 0)
        r->records++;
    return rc;
}

long gp_report_load_stream(gp_report *r, FILE *f, const char *name, FILE *warn)
{
    char *line = NULL, err[256], **nf, *copy;
    size_t cap = 0, n = strlen(name) + 1;
    ssize_t got;
    long lineno = 0, before = r->launches;
    gp_derived_row *row = malloc(sizeof *row);
    nf = realloc(r->files, (r->n_files + 1) * sizeof *nf);
    copy = malloc(n);
    if (nf)
        r->files = nf;
    if (!row || !nf || !copy) {
        if (warn)
            fprintf(warn, "%s: out of memory reading %s\n", r->tool, name);
        free(row);
        free(copy);
        return -1;
    }
    memcpy(copy, name, n);
    errno = 0;
    while ((got = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (gp_load_line(r, line, (size_t)got, row, err, sizeof err) < 0) {
            r->bad_lines++;
            if (warn)
                fprintf(warn, "%s: %s:%ld: %s\n", r->tool, name, lineno, err);
        }
    }
    free(line);
    free(row);
    if (ferror(f)) {
        if (warn)
            fprintf(warn, "%s: cannot read %s: %s\n", r->tool, name,
                    errno ? strerror(errno) : "read error");
        free(copy);
        return -1;
    }
    r->files[r->n_files++] = copy;
    return r->launches - before;
}

long gp_report_load(gp_report *r, const char *path, FILE *warn)
{
    FILE *f = fopen(path, "r");
    struct stat st;
    long got;
    if (!f) {
        if (warn)
            fprintf(warn, "%s: cannot open %s: %s\n", r->tool, path, strerror(errno));
        return -1;
    }
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        if (warn)
            fprintf(warn, "%s: cannot read %s: it is a directory\n", r->tool, path);
        fclose(f);
        return -1;
    }
    got = gp_report_load_stream(r, f, path, warn);
    fclose(f);
    return got;
}

static int gp_load_cmp(const void *a, const void *b)
{
    const gp_kernel_report *x = a, *y = b;
    double tx = x->agg.row.v[GP_M_DURATION], ty = y->agg.row.v[GP_M_DURATION];
    if (isnan(tx))
        tx = -1;
    if (isnan(ty))
        ty = -1;
    if (tx != ty)
        return tx < ty ? 1 : -1;
    return strcmp(x->agg.kernel, y->agg.kernel);
}

void gp_report_finish(gp_report *r)
{
    gp_verdict found[GP_V_COUNT];
    size_t i;
    r->total_time = 0;
    for (i = 0; i < r->n; i++) {
        gp_kernel_report *k = &r->kernels[i];
        gp_verdict_input vi;
        gp_aggregate_finish(&k->agg);
        gp_roofline_compute(&k->agg.row, &r->peaks, &k->roof);
        vi.row = &k->agg.row;
        vi.device = gp_report_device(r, k->agg.device);
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
        if (!isnan(k->agg.row.v[GP_M_DURATION]))
            r->total_time += k->agg.row.v[GP_M_DURATION];
    }
    if (r->n > 1)
        qsort(r->kernels, r->n, sizeof *r->kernels, gp_load_cmp);
    /* positions changed: a later load rebuilds the index */
    gp_strindex_free(&r->index);
}
