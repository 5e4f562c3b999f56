/* test_report_io.c - what the report reads and writes beyond its verdicts:
 * short kernel names (Nsight Compute's function name, collisions told apart),
 * devices kept per input (two hosts' device 0 do not collide), the peaks
 * file's device checked, the comparison with a baseline, the JSON document
 * and Nsight Compute's CSV layouts. */
#include <math.h>
#include <stdlib.h>

#include "metrics/model/baseline.h"
#include "capture.h"
#include "gp_test.h"
#include "metrics/records/json.h"
#include "metrics/report/report.h"
#include "util/kname.h"

#define FIX "tests/data/report/"

static const gp_kernel_report *find(const gp_report *r, const char *prefix, int sm_count)
{
    size_t i;
    for (i = 0; i < r->n; i++)
        if (strncmp(r->kernels[i].agg.kernel, prefix, strlen(prefix)) == 0 &&
            (!sm_count || gp_report_kernel_device(r, &r->kernels[i])->sm_count == sm_count))
            return &r->kernels[i];
    return NULL;
}

static gp_report *load(const char *a, const char *b, int keep, const gp_peaks *p)
{
    gp_report *r = calloc(1, sizeof *r);
    gp_report_init(r, p);
    r->keep_launches = keep;
    GP_CHECK(gp_report_load(r, a, stderr) > 0);
    if (b)
        GP_CHECK(gp_report_load(r, b, stderr) > 0);
    gp_report_finish(r);
    return r;
}

static void done(gp_report *r)
{
    gp_report_free(r);
    free(r);
}

static void test_kname(void)
{
    static const char *const cases[][3] = {
        /* demangled, function name, template arguments */
        {"void ns::gemm<float, 4>(float*, int)", "gemm", "<float, 4>"},
        {"saxpy", "saxpy", ""},
        {"add_one(float*, int)", "add_one", ""},
        {"void k<(int)1>(float*)", "k", "<(int)1>"},
        {"(anonymous namespace)::fill(int*)", "fill", ""},
        {"void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::native::"
         "AddFunctor<float>>(at::TensorIteratorBase&, const at::native::AddFunctor<float>&)::"
         "{lambda(int)#1}>(int, at::native::gpu_kernel_impl<...>::{lambda(int)#1})",
         "elementwise_kernel",
         "<128, 4, at::native::gpu_kernel_impl<at::native::AddFunctor<float>>(at::"
         "TensorIteratorBase&, const at::native::AddFunctor<float>&)::{lambda(int)#1}>"},
        {"void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4>(cutlass_80_"
         "tensorop_s1688gemm_64x64_16x6_tn_align4::Params)",
         "Kernel2", "<cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4>"},
        {"unsigned int ns::inner::count<256u>(unsigned int const*)", "count", "<256u>"},
    };
    char buf[512];
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gp_kname_function(cases[i][0], buf, sizeof buf);
        GP_CHECK_STR(buf, cases[i][1]);
        gp_kname_template_args(cases[i][0], buf, sizeof buf);
        GP_CHECK_STR(buf, cases[i][2]);
    }
    gp_kname_function("void ns::gemm<float, 4>(float*, int)", buf, 3); /* truncated, ended */
    GP_CHECK_STR(buf, "ge");
}

static void test_names(void)
{
    gp_report *r = load(FIX "names.jsonl", NULL, 0, NULL);
    static const char *const want[] = {"reduce<256>", "reduce<512>", "scale (1)",
                                       "scale (2)",   "scale (3)",   "fill"};
    size_t i;
    GP_CHECK(r->n == 6);
    for (i = 0; i < r->n && i < 6; i++)
        GP_CHECK_STR(gp_report_kernel_name(r, &r->kernels[i]), want[i]);
    r->name_base = GP_REPORT_NAME_DEMANGLED;
    GP_CHECK_STR(gp_report_kernel_name(r, &r->kernels[0]), "void ns::reduce<256>(float*, int)");
    r->name_base = GP_REPORT_NAME_MANGLED;
    GP_CHECK_STR(gp_report_kernel_name(r, &r->kernels[0]), "_Z33void ns::reduce<256>(float*, int)");
    done(r);
    /* one name per kernel in the planted fixture: no numbers, no template arguments */
    r = load(FIX "h100-planted.jsonl", NULL, 0, NULL);
    GP_CHECK_STR(find(r, "sgemm_tiled", 0)->name, "sgemm_tiled");
    char *html = capture(r, gp_report_html);
    GP_CHECK(strstr(html, "<code title=\"sgemm_tiled&lt;128, 128&gt;(int, int, int, const float*, "
                          "const float*, float*)\">sgemm_tiled</code>") != NULL);
    free(html);
    done(r);
}

static void test_devices(void)
{
    gp_report *r = load(FIX "h100-planted.jsonl", FIX "h100-pcie-rank1.jsonl", 0, NULL);
    const gp_kernel_report *a = find(r, "one_block", 132), *b = find(r, "one_block", 114);
    char *text;
    GP_CHECK(r->n_devices == 2 && gp_report_n_models(r) == 2);
    /* the same kernel on two GPU models: two rows, each with its own limits */
    GP_CHECK(a && b && a != b && a->agg.launches == 1 && b->agg.launches == 1);
    GP_CHECK(b && b->n_verdicts && strstr(b->verdicts[0].evidence, "114 SMs") != NULL);
    GP_CHECK(a && a->n_verdicts && strstr(a->verdicts[0].evidence, "132 SMs") != NULL);
    text = capture(r, gp_report_text);
    GP_CHECK(strstr(text, "device 0: NVIDIA H100 80GB HBM3") &&
             strstr(text, "device 0: NVIDIA H100 "
                          "PCIe"));
    GP_CHECK(strstr(text, "device 0 (NVIDIA H100 PCIe); main launch: 57 blocks") != NULL);
    free(text);
    done(r);
    /* two processes on the same model: one device line, launches combined */
    r = load(FIX "h100-planted.jsonl", FIX "h100-second.jsonl", 0, NULL);
    GP_CHECK(gp_report_n_models(r) == 1 && find(r, "copy_coalesced", 0)->agg.launches == 2);
    text = capture(r, gp_report_text);
    GP_CHECK(strstr(text, "(GH100, sm_90, 132 SMs), in 2 processes\n") != NULL);
    free(text);
    done(r);
}

/* sm_count of the device a kernel's launches used (the kernel name is unique here). */
static int sm_of(const gp_report *r, const char *kernel)
{
    const gp_kernel_report *k = find(r, kernel, 0);
    return k ? gp_report_kernel_device(r, k)->sm_count : -1;
}

static void count_device(const gp_device *d, size_t inputs, void *arg)
{
    char *o = arg;
    sprintf(o + strlen(o), "%d:%d:%zu ", d->ordinal, d->sm_count, inputs);
}

/* Which device record a launch uses (load.c, devices.c): its process's own;
 * else the latest its input has that no process claimed (a launch without a
 * pid leaves it open); else the latest of its input; else of any input. */
static void test_device_claims(void)
{
    static const char a[] =
        "{\"type\":\"device\",\"device\":0,\"name\":\"A\",\"sm_count\":100}\n"
        "{\"type\":\"launch\",\"pid\":1,\"device\":0,\"kernel\":\"k1\",\"block\":[32,1,1]}\n"
        "{\"type\":\"device\",\"device\":0,\"name\":\"B\",\"sm_count\":110}\n"
        "{\"type\":\"launch\",\"pid\":2,\"device\":0,\"kernel\":\"k2\",\"block\":[32,1,1]}\n"
        "{\"type\":\"launch\",\"pid\":1,\"device\":0,\"kernel\":\"k3\",\"block\":[32,1,1]}\n"
        "{\"type\":\"launch\",\"device\":0,\"kernel\":\"k4\",\"block\":[32,1,1]}\n"
        "{\"type\":\"device\",\"device\":1,\"name\":\"C\",\"sm_count\":120}\n"
        "{\"type\":\"launch\",\"device\":1,\"kernel\":\"k5\",\"block\":[32,1,1]}\n"
        "{\"type\":\"launch\",\"pid\":3,\"device\":1,\"kernel\":\"k6\",\"block\":[32,1,1]}\n"
        "{\"type\":\"device\",\"device\":1,\"name\":\"C\",\"sm_count\":120}\n"
        "{\"type\":\"launch\",\"pid\":4,\"device\":1,\"kernel\":\"k9\",\"block\":[32,1,1]}\n";
    static const char b[] =
        "{\"type\":\"launch\",\"pid\":9,\"device\":1,\"kernel\":\"k7\",\"block\":[32,1,1]}\n"
        "{\"type\":\"launch\",\"pid\":1,\"device\":0,\"kernel\":\"k8\",\"block\":[32,1,1]}\n";
    gp_report *r = calloc(1, sizeof *r);
    char groups[256] = "";
    FILE *f;
    gp_report_init(r, NULL);
    f = fmemopen((void *)a, sizeof a - 1, "r");
    GP_CHECK(gp_report_load_stream(r, f, "a", stderr) == 7);
    fclose(f);
    f = fmemopen((void *)b, sizeof b - 1, "r");
    GP_CHECK(gp_report_load_stream(r, f, "b", stderr) == 2);
    fclose(f);
    gp_report_finish(r);
    GP_CHECK(sm_of(r, "k1") == 100 && sm_of(r, "k2") == 110 && sm_of(r, "k3") == 100);
    GP_CHECK(sm_of(r, "k4") == 110); /* no pid, nothing unclaimed: the latest */
    GP_CHECK(sm_of(r, "k5") == 120 && sm_of(r, "k6") == 120 && sm_of(r, "k9") == 120);
    GP_CHECK(sm_of(r, "k7") == 120); /* an input without records: any input's latest */
    GP_CHECK(sm_of(r, "k8") == 100); /* pid 1's own, from the other input */
    gp_report_each_device(r, count_device, groups);
    GP_CHECK_MSG(strcmp(groups, "0:100:1 0:110:1 1:120:2 ") == 0, "%s", groups);
    done(r);
}

static void test_peaks_device(void)
{
    gp_peaks p;
    char err[512];
    gp_report *r;
    GP_CHECK(gp_peaks_load(FIX "peaks-h100.json", &p, err, sizeof err) == 0);
    r = load(FIX "h100-planted.jsonl", NULL, 0, &p);
    GP_CHECK(gp_report_peaks_mismatch(r, err, sizeof err) == 0);
    done(r);
    snprintf(p.device, sizeof p.device, "NVIDIA H200");
    r = load(FIX "h100-planted.jsonl", NULL, 0, &p);
    GP_CHECK(gp_report_peaks_mismatch(r, err, sizeof err) == 1);
    GP_CHECK_MSG(strstr(err, "NVIDIA H200") && strstr(err, "NVIDIA H100 80GB HBM3"), "%s", err);
    char *text = capture(r, gp_report_text);
    GP_CHECK(strstr(text, "warning: the measured ceilings") != NULL);
    free(text);
    done(r);
}

static const gp_baseline_row *row_of(const gp_baseline *b, const char *prefix)
{
    size_t i;
    for (i = 0; i < b->n; i++) {
        const gp_kernel_report *k = b->rows[i].now ? b->rows[i].now : b->rows[i].old;
        if (strncmp(k->agg.kernel, prefix, strlen(prefix)) == 0)
            return &b->rows[i];
    }
    return NULL;
}

static int has_label(const gp_kernel_report *k, const size_t *idx, size_t n, const char *label)
{
    char got[64];
    size_t i;
    for (i = 0; i < n; i++) {
        gp_verdict_label(&k->verdicts[idx[i]], got, sizeof got);
        if (strcmp(got, label) == 0)
            return 1;
    }
    return 0;
}

static void test_baseline(void)
{
    gp_report *old = load(FIX "h100-planted.jsonl", NULL, 0, NULL);
    gp_report *now = load(FIX "h100-planted-new.jsonl", NULL, 0, NULL);
    gp_baseline b;
    const gp_baseline_row *x;
    const char *unit;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    GP_CHECK(gp_baseline_compare(old, now, &b) == 0);
    GP_CHECK(b.n == 11); /* 9 in both, 1 gone, 1 new */
    x = row_of(&b, "one_block");
    GP_CHECK(x && x->old && x->now && fabs(x->dt_pct + 95.0) < 1e-9);
    GP_CHECK(x && has_label(x->old, x->lost, x->n_lost, "few_blocks") && x->n_gained == 0);
    GP_CHECK(b.rows[0].old == x->old); /* the largest change first */
    x = row_of(&b, "strided_load");
    GP_CHECK(x && has_label(x->old, x->lost, x->n_lost, "uncoalesced(load)"));
    x = row_of(&b, "tiny_kernel");
    GP_CHECK(x && x->old && !x->now && isnan(x->dt_pct));
    x = row_of(&b, "fused_epilogue");
    GP_CHECK(x && !x->old && x->now && x->n_gained == x->now->n_verdicts);
    x = row_of(&b, "copy_coalesced");
    GP_CHECK(x && x->dt == 0 && x->n_gained == 0 && x->n_lost == 0);
    /* percentages change in points, other metrics in per cent, n/a stays n/a */
    GP_CHECK(gp_baseline_change(GP_M_ACHIEVED_OCCUPANCY, 12.4, 85, &unit) == 85 - 12.4 &&
             strcmp(unit, "pt") == 0);
    GP_CHECK(gp_baseline_change(GP_M_DURATION, 2e-3, 1e-4, &unit) == -95 && *unit == '%');
    GP_CHECK(isnan(gp_baseline_change(GP_M_DURATION, NAN, 1, &unit)));
    GP_CHECK(isnan(gp_baseline_change(GP_M_DRAM_BYTES, 0, 1, &unit)));
    f = open_memstream(&buf, &len);
    GP_CHECK(gp_baseline_text(&b, f) == 0);
    fclose(f);
    GP_CHECK(strstr(buf, "#1 one_block (device 0)\n   time 2 ms -> 100 us (-95.0%)") != NULL);
    GP_CHECK(strstr(buf, "verdicts lost:   few_blocks") != NULL);
    GP_CHECK(strstr(buf, "tiny_kernel (device 0): not in this run") != NULL);
    GP_CHECK(strstr(buf, "fused_epilogue (device 0): new in this run") != NULL);
    GP_CHECK(strstr(buf, "total kernel time: 6.12 ms -> 4.51 ms (-26.2%)") != NULL);
    GP_CHECK(strstr(buf, "nan") == NULL);
    free(buf);
    f = open_memstream(&buf, &len);
    GP_CHECK(gp_baseline_csv(&b, f) == 0);
    fclose(f);
    GP_CHECK(strncmp(buf, "kernel,demangled,device,status,time_baseline [s],time_new [s],", 62) ==
             0);
    GP_CHECK(strstr(buf, "\ntiny_kernel,tiny_kernel(float*),0,gone,6.3e-06,,,3,,") != NULL);
    GP_CHECK(strstr(buf, ",few_blocks\n") != NULL);
    free(buf);
    f = open_memstream(&buf, &len);
    GP_CHECK(gp_baseline_html(&b, f) == 0);
    fclose(f);
    GP_CHECK(strstr(buf, "data-status=\"gone\"") && strstr(buf, "data-status=\"new\"") &&
             strstr(buf, "class=\"num better\">-95.0%") && !strstr(buf, "<script src"));
    free(buf);
    gp_baseline_free(&b);
    done(old);
    done(now);
}

static void test_json(void)
{
    gp_report *r = load(FIX "h100-planted.jsonl", FIX "h100-pcie-rank1.jsonl", 1, NULL);
    char *buf = capture(r, gp_report_json), err[160];
    gp_json *doc = gp_json_parse(buf, strlen(buf), err, sizeof err);
    const gp_json *k, *l;
    size_t i;
    GP_CHECK_MSG(doc != NULL, "%s", err);
    if (!doc) {
        free(buf);
        done(r);
        return;
    }
    GP_CHECK_STR(gp_json_string(gp_json_get(doc, "schema")), "gpuprof-report/1");
    k = gp_json_get(doc, "kernels");
    l = gp_json_get(doc, "launch_metrics");
    GP_CHECK(k && k->n == r->n && l && l->n == 14);
    for (i = 0; k && i < k->n; i++) { /* n/a is null with its reason, never 0 */
        const gp_json *m = gp_json_get(&k->items[i], "metrics");
        const char *name = gp_json_string(gp_json_get(&k->items[i], "name"));
        if (name && strcmp(name, "reduce_partial") == 0) {
            GP_CHECK(gp_json_get(m, "rf_g")->type == GP_JSON_NULL);
            GP_CHECK(
                strstr(gp_json_string(gp_json_get(gp_json_get(&k->items[i], "missing"), "rf_g")),
                       "CUPTI_ERROR_NOT_SUPPORTED") != NULL);
        }
    }
    for (i = 0; l && i < l->n; i++) {
        const gp_json *x = &l->items[i];
        if (gp_json_number(gp_json_get(x, "pid")) == 777) {
            GP_CHECK(gp_json_number(gp_json_get(x, "rank")) == 1);
            GP_CHECK_STR(gp_json_string(gp_json_get(x, "host")), "pcie-node");
        }
        GP_CHECK(gp_json_get(gp_json_get(x, "metrics"), "achieved_occupancy") != NULL);
    }
    gp_json_free(doc);
    free(buf);
    done(r);
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_ncu(void)
{
    static const char hdr[] =
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
        "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\","
        "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
    gp_report *r = load(FIX "h100-planted.jsonl", FIX "h100-pcie-rank1.jsonl", 1, NULL);
    char *buf, *line2;
    size_t i, want = 1;
    r->name_base = GP_REPORT_NAME_DEMANGLED;
    for (i = 0; i < r->n_launch_rows; i++)
        want += r->launch_rows[i].l.n_metrics + 6;
    buf = capture(r, gp_report_ncu_csv);
    GP_CHECK(strncmp(buf, hdr, strlen(hdr)) == 0);
    GP_CHECK(count_lines(buf) == want);
    GP_CHECK(strstr(buf, "\n\"0\",\"4242\",\"\",\"h100-node\",\"saxpy_4x4(int, float, const "
                         "float*, float*)\",\"1\",\"7\",\"(4, 4, 1)\",\"(4096, 256, 1)\",\"0\","
                         "\"9.0\",\"Command line profiler metrics\",\"gpu__time_duration.sum\","
                         "\"ns\",\"180000\"\n") != NULL);
    GP_CHECK(strstr(buf, "\"12\",\"777\",\"copy_app\",\"pcie-node\"") != NULL);
    GP_CHECK(strstr(buf, "\"launch__grid_size\",\"\",\"1048576\"") != NULL);
    GP_CHECK(strstr(buf, "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"inst\","
                         "\"n/a\"") != NULL); /* reduce_partial's: not 0 */
    free(buf);
    buf = capture(r, gp_report_ncu_raw_csv);
    GP_CHECK(count_lines(buf) == 2 + r->n_launch_rows);
    line2 = strchr(buf, '\n') + 1;
    GP_CHECK(strncmp(line2,
                     "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\","
                     "\"register/thread\"",
                     55) == 0);
    GP_CHECK(strstr(buf, "\"gpu__time_duration.sum\"") && strstr(line2, "\"ns\""));
    free(buf);
    done(r);
}

/* 1 when s holds what a terminal acts on: a C0 control but newline, DEL, a
 * C1 control, U+2028/U+2029, a bidirectional override or isolate, or bytes
 * that are not UTF-8. */
static int has_raw(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = *p < 0x80             ? 1
                   : (*p & 0xE0) == 0xC0 ? 2
                   : (*p & 0xF0) == 0xE0 ? 3
                   : (*p & 0xF8) == 0xF0 ? 4
                                         : 0;
        size_t i;
        if (n == 0 || (n == 2 && *p < 0xC2))
            return 1;
        for (i = 1; i < n; i++)
            if ((p[i] & 0xC0) != 0x80)
                return 1;
        if ((*p < 0x20 && *p != '\n') || *p == 0x7F || (p[0] == 0xC2 && p[1] < 0xA0) ||
            (p[0] == 0xE2 && p[1] == 0x80 && p[2] >= 0xA8 && p[2] <= 0xAE) ||
            (p[0] == 0xE2 && p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9))
            return 1;
        p += n;
    }
    return 0;
}

static int summary5(const gp_report *r, FILE *f)
{
    return gp_report_summary(r, f, 5);
}

/* Every text a terminal shows, written from names, reasons and device names
 * built to move the cursor, recolour or reorder the screen: all escaped. */
static void test_text_escapes(void)
{
    gp_peaks peaks;
    char err[512], *out;
    gp_baseline b;
    gp_report *r, *m;
    GP_CHECK_MSG(gp_peaks_load(FIX "hostile/peaks_dev_esc.json", &peaks, err, sizeof err) == 0,
                 "%s", err);
    r = load(FIX "hostile/names_all.jsonl", FIX "hostile/utf8_bad.jsonl", 0, &peaks);
    m = load(FIX "hostile/missing_hostile.jsonl", NULL, 0, &peaks);
    out = capture(r, gp_report_text);
    GP_CHECK_MSG(!has_raw(out), "text report");
    GP_CHECK(strstr(out, "\\x1b[2J\\x1b[31mEVIL") && strstr(out, "\\u{202e}RTL") &&
             strstr(out, "\\x85NEL") && strstr(out, "\\u{2028}LS"));
    GP_CHECK(strstr(out, "measured on \\x1b]0;pwned\\x07") != NULL);
    free(out);
    out = capture(r, summary5);
    GP_CHECK_MSG(!has_raw(out), "exit summary");
    free(out);
    out = capture(m, gp_report_text); /* a reason quoted by a roofline and a verdict */
    GP_CHECK_MSG(!has_raw(out) && strstr(out, "n/a (gpu__time_duration.sum: \\x1b[31m<b>"),
                 "text report of a hostile reason");
    free(out);
    out = capture(m, summary5);
    GP_CHECK_MSG(!has_raw(out), "exit summary of a hostile reason");
    free(out);
    GP_CHECK(gp_baseline_compare(r, r, &b) == 0);
    {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        GP_CHECK(gp_baseline_text(&b, f) == 0);
        fclose(f);
        GP_CHECK_MSG(!has_raw(buf) && strstr(buf, "\\x1b[2J\\x1b[31mEVIL (device 0)"),
                     "baseline text");
        free(buf);
    }
    gp_baseline_free(&b);
    done(r);
    done(m);
}

int main(void)
{
    test_kname();
    test_names();
    test_devices();
    test_device_claims();
    test_peaks_device();
    test_baseline();
    test_json();
    test_ncu();
    test_text_escapes();
    return gp_test_finish("report-io");
}
