/* gpupeak.c - measures the GPU's real peaks, latencies and cache geometry and
 * writes DIR/peaks.json (read by the roofline), DIR/peaks.txt and, in the
 * full run, SVG plots and the raw curves.  See docs/gpupeak.md.
 *
 *   gpupeak [--quick] [--only NAME[,NAME...]] [--profile-measured] [--out DIR] [--help] [--version]
 *
 * This file is the command: its options, the output folder, and the three
 * jobs in order: measure (gpk_measure.c, with the fits of gpk_fit.c), then
 * write (gpk_write_json.c, gpk_write_text.c).  What is measured is data:
 * metrics/catalog/gpupeak.def and gpk_bench.c.
 *
 * Exit status: 0 when every file was written, 1 when the device could not
 * be used or a file not written, 2 for a usage error. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpk_bench.h"
#include "gpk_fit.h"
#include "gpk_measure.h"
#include "gpk_write.h"
#include "gpuprof.h"
#include "util/textio.h"

/* One message on stderr, "gpupeak: ..." and a newline, escaped whole: it
 * may quote an option's value or a folder, which must not move the
 * terminal's cursor or reverse the line. */
static void gpk_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void gpk_say(const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fputs("gpupeak: ", stderr);
    gp_text_plain(stderr, msg);
    fputc('\n', stderr);
}

static int gpk_usage(FILE *f, int rc)
{
    fprintf(f, "usage: gpupeak [--quick] [--only NAME[,NAME...]] [--profile-measured] [--out DIR]\n"
               "  --quick    only the roofline's peaks (FP32, FP64, FP16x2, BF16x2, tensor BF16,\n"
               "             DRAM, L2, L1, shared), under 30 s\n"
               "  --only N   only the throughput or bandwidth lines named (peaks.json keys,\n"
               "             e.g. fp32_fma,l1_read): each launches its own kernel and no other\n"
               "  --profile-measured  the timed launches between cudaProfilerStart and Stop\n"
               "             (a profiler started with profiling off sees only them, not the\n"
               "             calibration: gpuprof --profile-from-start off)\n"
               "  --out DIR  where peaks.json, peaks.txt and the plots go (default: .)\n"
               "  --version  the version, and the schema of peaks.json\n"
               "  --help     this text\n");
    return rc;
}

static const struct option gpk_options[] = {
    {"quick", no_argument, NULL, 'q'},
    {"only", required_argument, NULL, 'n'},
    {"out", required_argument, NULL, 'o'},
    {"profile-measured", no_argument, NULL, 'P'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

/* One sentence for the option getopt_long() refused (c: '?' or ':'). */
static void gpk_bad_option(int c, char **argv)
{
    const char *arg = argv[optind - 1];
    if (strncmp(arg, "--", 2) != 0) {
        gpk_say("unknown option '-%c'", optopt);
        return;
    }
    const size_t len = strcspn(arg + 2, "=");
    for (const struct option *o = gpk_options; o->name; o++) {
        if (strncmp(o->name, arg + 2, len) != 0)
            continue;
        if (c == ':')
            gpk_say("--%s needs a value", o->name);
        else if (arg[2 + len] == '=' && o->has_arg == no_argument)
            gpk_say("--%s takes no value ('%s')", o->name, arg);
        else
            break; /* ambiguous */
        return;
    }
    gpk_say("unknown option '%s'", arg);
}

/* --only's list into r: 0, or -1 after naming the unknown line and the
 * known ones. */
static int gpk_only(gpk_results *r, const char *list)
{
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        int found = 0;
        for (int i = 0; i < GPK_T_COUNT; i++)
            if (strlen(gpk_tputs[i].key) == len && strncmp(gpk_tputs[i].key, p, len) == 0)
                found = r->only_tput[i] = 1;
        for (int i = 0; i < GPK_M_COUNT; i++)
            if (strlen(gpk_mems[i].key) == len && strncmp(gpk_mems[i].key, p, len) == 0)
                found = r->only_mem[i] = 1;
        if (!found) {
            char known[2048];
            size_t used = 0;
            known[0] = 0;
            for (int i = 0; i < GPK_T_COUNT + GPK_M_COUNT && used < sizeof known; i++)
                used += (size_t)snprintf(
                    known + used, sizeof known - used, " %s",
                    i < GPK_T_COUNT ? gpk_tputs[i].key : gpk_mems[i - GPK_T_COUNT].key);
            gpk_say("--only: no line '%.*s'; the lines are:%s", (int)len, p, known);
            return -1;
        }
        p += len + (p[len] == ',');
    }
    r->only = r->quick = 1;
    return 0;
}

int main(int argc, char **argv)
{
    static gpk_results r;
    const char *dir = ".";
    char path[4096], why[512];
    double t0 = gpk_now();
    int c, made;
    opterr = 0; /* one message, ours */
    while ((c = getopt_long(argc, argv, ":h", gpk_options, NULL)) != -1) {
        switch (c) {
        case 'q': r.quick = 1; break;
        case 'n':
            if (!optarg[0] || gpk_only(&r, optarg) < 0)
                return gpk_usage(stderr, 2);
            break;
        case 'o': dir = optarg; break;
        case 'P': gpk_dev_profile_measured(1); break;
        case 'h': return gpk_usage(stdout, 0);
        case 'V':
            printf("gpupeak %s (gpuprof), writes peaks.json schema gpupeak/1\n", GPUPROF_VERSION);
            return 0;
        default: gpk_bad_option(c, argv); return gpk_usage(stderr, 2);
        }
    }
    if (optind < argc) {
        gpk_say("unexpected argument '%s' (the folder goes after --out)", argv[optind]);
        return gpk_usage(stderr, 2);
    }
    if (!dir[0]) {
        gpk_say("--out needs a folder");
        return gpk_usage(stderr, 2);
    }
    /* the folder is made first, so a bad one is said before minutes of
     * measuring, and removed again if the run ends before writing */
    made = mkdir(dir, 0777) == 0;
    if (!made && errno != EEXIST) {
        gpk_say("cannot create %s: %s", dir, strerror(errno));
        return 1;
    }
    gpk_probe(&r); /* before this process touches CUDA */
    if (gpk_dev_open(&r.dev, why, sizeof why) != 0) {
        gpk_say("%s", why);
        if (made)
            rmdir(dir);
        return 1;
    }
    if (r.probe_bulk_why)
        gpk_dev_skip_bulk(r.probe_bulk_why);
    gpk_say("%s, %d SMs, cc %d.%d (%s run)", r.dev.name, r.dev.sm_count, r.dev.cc_major,
            r.dev.cc_minor, r.quick ? "quick" : "full");
    gpk_measure(&r);
    gpk_fit_clock(&r);
    r.seconds = gpk_now() - t0;
    snprintf(path, sizeof path, "%s/peaks.json", dir);
    int rc = gpk_write_json(&r, path);
    snprintf(path, sizeof path, "%s/peaks.txt", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        gpk_write_table(&r, f);
        fclose(f);
    } else {
        gpk_say("cannot write %s: %s", path, strerror(errno));
        rc = -1;
    }
    rc |= gpk_write_plots(&r, dir);
    gpk_write_table(&r, stdout);
    free(r.xsm_ns);
    free(r.xsm_cyc);
    gpk_dev_close();
    return rc ? 1 : 0;
}
