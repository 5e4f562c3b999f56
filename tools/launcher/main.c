/* gpuprof - runs a program under the profiler with Nsight Compute's option
 * names where ncu has them (docs/user-guide.md):
 *
 *   gpuprof [options] [--] program [args...]
 *   gpuprof --query-metrics [--chip GH100] [--query-metrics-mode base|suffix|all]
 *
 * Each option sets the GPUPROF_* variable that libgpuprof.so reads (the
 * variables stay the interface underneath; those already set are kept unless
 * an option overrides them), the whole configuration is checked with the
 * library's own parser, and the program is executed in place of this process
 * with the library in LD_PRELOAD, so it keeps this process's id, its exit
 * status is the program's, and its output is untouched.  Options whose Nsight
 * Compute meaning gpuprof cannot honour are refused with the reason.
 *
 * Exit status: the program's; 2 usage or a configuration error; 126/127 the
 * program cannot be run; 1 a query failed. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpuprof.h"
#include "preload/config.h"
#include "metrics/ncu/sections.h"
#include "query.h"
#include "sets.h"
#include "util/strutil.h"
#include "util/textio.h"

#define GPL "gpuprof"

static int gpl_usage(FILE *f)
{
    fprintf(
        f,
        "usage: " GPL " [options] [--] program [args...]\n"
        "Profiles program's CUDA kernel launches with libgpuprof.so (options as Nsight Compute's "
        "ncu).\n"
        "Choosing launches:\n"
        "  -k, --kernel-name NAME|regex:EXPR  profile kernels with this name (exact) or matching "
        "EXPR\n"
        "      --kernel-name-base B           function (default), demangled or mangled\n"
        "      --kernel-exclude NAME|regex:EXPR  never profile these (gpuprof's own)\n"
        "  -s, --launch-skip N                skip the first N matching launches\n"
        "  -c, --launch-count N               profile at most N launches\n"
        "      --max-per-kernel N             at most N launches of each kernel (gpuprof's own)\n"
        "      --profile-from-start on|off    off: profile from cudaProfilerStart on\n"
        "      --disable-profiler-start-stop  ignore cu(da)ProfilerStart/Stop\n"
        "      --nvtx                         accepted: NVTX is on whenever a filter is given\n"
        "      --nvtx-include EXPR            only launches inside these NVTX ranges "
        "(repeatable)\n"
        "      --nvtx-exclude EXPR            never launches inside these (repeatable)\n"
        "What to collect:\n"
        "      --metrics a,b,...              these PerfWorks metrics ('+a' adds to the set)\n"
        "      --set NAME                     Nsight Compute's basic, detailed, full, roofline\n"
        "                                     or gpuprof's default, fast, extended, source,\n"
        "                                     warpstate (--list-sets)\n"
        "      --section NAME|regex:EXPR      Nsight Compute's sections (repeatable; "
        "--list-sections)\n"
        "      --sampling on|off|profiled     warp-stall sampling of the program's own launches\n"
        "                                     (profiled: only those the report profiles)\n"
        "      --warp-sampling-interval N     a sample every 2^(5+N) cycles (0..26, auto = 6)\n"
        "      --replay-mode kernel|cupti|none  kernel: gpuprof's replay; cupti: CUPTI's "
        "kernel replay;\n"
        "                                     none: one run, passes spread over a kernel's "
        "launches\n"
        "      --max-overhead PCT             replay mode none: the profiler's share of the run "
        "(25)\n"
        "      --cache-control all|none|l2    before each pass empty L2 and the GPCs' constant\n"
        "                                     and instruction caches (all), nothing, or L2 only\n"
        "      --clock-control none           gpuprof never changes clocks (only 'none')\n"
        "Output:\n"
        "  -o, --export PATH                  results in PATH.jsonl and PATH.csv (%%p, %%h, "
        "%%q{VAR})\n"
        "  -f, --force-overwrite              replace existing result files\n"
        "      --log-file PATH                messages to PATH instead of stderr\n"
        "      --print-summary none|per-kernel  the summary at exit (per-kernel: the default)\n"
        "      --format csv,json|csv|json|none  which files to write (gpuprof's own)\n"
        "      --log-level error|warn|info|debug, --verbose (= info), -q/--quiet\n"
        "      --batch N, --snapshot auto|device|host|none, --snapshot-reserve-mb N,\n"
        "      --crosscheck on|off            (gpuprof's own; docs/user-guide.md)\n"
        "Other:\n"
        "      --query-metrics                the metrics of a chip with their descriptions\n"
        "      --query-metrics-mode base|suffix|all  (suffix: of the names in --metrics)\n"
        "      --chip NAME, --chips NAME      the chip to query, e.g. GH100 (default: device "
        "0's)\n"
        "      --list-chips, --list-sets, --list-sections [--verbose]\n"
        "      --lib PATH                     libgpuprof.so (default: next to this program)\n"
        "      --dry-run                      print the environment and command, run nothing\n"
        "  -v, --version, -h, --help\n"
        "Results: gpuprof-report PATH.jsonl (docs/report.md).\n");
    return 2;
}

/* Long-only options. */
enum {
    O_BASE = 256,
    O_KEXCL,
    O_MAXK,
    O_FROM_START,
    O_NO_START_STOP,
    O_NVTX,
    O_NVTX_INC,
    O_NVTX_EXC,
    O_METRICS,
    O_SET,
    O_SECTION,
    O_REPLAY,
    O_CACHE,
    O_CLOCK,
    O_LOG_FILE,
    O_SUMMARY,
    O_FORMAT,
    O_LOG_LEVEL,
    O_VERBOSE,
    O_BATCH,
    O_MAX_OVERHEAD,
    O_SNAPSHOT,
    O_RESERVE,
    O_CROSSCHECK,
    O_QUERY,
    O_QUERY_MODE,
    O_CHIP,
    O_LIST_CHIPS,
    O_LIST_SETS,
    O_LIST_SECTIONS,
    O_LIB,
    O_DRY_RUN,
    O_SAMPLING,
    O_SAMPLING_INTERVAL,
    /* Nsight Compute options gpuprof does not have: refused with the reason */
    O_NCU_ONLY
};

/* gpuprof's options: getopt's fields and, for an option whose value goes as
 * it is to one variable, that variable. */
static const struct {
    const char *name;
    int has_arg, val;
    const char *var;
} gpl_opts[] = {
    {"kernel-name", required_argument, 'k', NULL},
    {"kernel-regex", required_argument, 'k', NULL},
    {"kernel-name-base", required_argument, O_BASE, NULL},
    {"kernel-regex-base", required_argument, O_BASE, NULL},
    {"kernel-exclude", required_argument, O_KEXCL, NULL},
    {"launch-skip", required_argument, 's', "GPUPROF_LAUNCH_SKIP"},
    {"launch-count", required_argument, 'c', "GPUPROF_LAUNCH_COUNT"},
    {"max-per-kernel", required_argument, O_MAXK, "GPUPROF_MAX_PER_KERNEL"},
    {"profile-from-start", required_argument, O_FROM_START, NULL},
    {"disable-profiler-start-stop", no_argument, O_NO_START_STOP, NULL},
    {"nvtx", no_argument, O_NVTX, NULL},
    {"nvtx-include", required_argument, O_NVTX_INC, NULL},
    {"nvtx-exclude", required_argument, O_NVTX_EXC, NULL},
    {"metrics", required_argument, O_METRICS, NULL},
    {"set", required_argument, O_SET, NULL},
    {"section", required_argument, O_SECTION, NULL},
    {"replay-mode", required_argument, O_REPLAY, NULL},
    {"cache-control", required_argument, O_CACHE, NULL},
    {"clock-control", required_argument, O_CLOCK, NULL},
    {"export", required_argument, 'o', "GPUPROF_OUTPUT"},
    {"force-overwrite", no_argument, 'f', NULL},
    {"log-file", required_argument, O_LOG_FILE, NULL},
    {"print-summary", required_argument, O_SUMMARY, NULL},
    {"format", required_argument, O_FORMAT, "GPUPROF_FORMAT"},
    {"log-level", required_argument, O_LOG_LEVEL, NULL},
    {"verbose", no_argument, O_VERBOSE, NULL},
    {"quiet", no_argument, 'q', NULL},
    {"batch", required_argument, O_BATCH, "GPUPROF_BATCH"},
    {"max-overhead", required_argument, O_MAX_OVERHEAD, "GPUPROF_MAX_OVERHEAD"},
    {"snapshot", required_argument, O_SNAPSHOT, NULL},
    {"snapshot-reserve-mb", required_argument, O_RESERVE, "GPUPROF_SNAPSHOT_RESERVE_MB"},
    {"crosscheck", required_argument, O_CROSSCHECK, NULL},
    {"query-metrics", no_argument, O_QUERY, NULL},
    {"query-metrics-mode", required_argument, O_QUERY_MODE, NULL},
    {"chip", required_argument, O_CHIP, NULL},
    {"chips", required_argument, O_CHIP, NULL},
    {"list-chips", no_argument, O_LIST_CHIPS, NULL},
    {"list-sets", no_argument, O_LIST_SETS, NULL},
    {"list-sections", no_argument, O_LIST_SECTIONS, NULL},
    {"sampling", required_argument, O_SAMPLING, NULL},
    {"warp-sampling-interval", required_argument, O_SAMPLING_INTERVAL, NULL},
    {"lib", required_argument, O_LIB, NULL},
    {"dry-run", no_argument, O_DRY_RUN, NULL},
    {"version", no_argument, 'v', NULL},
    {"help", no_argument, 'h', NULL},
};
#define GPL_N_OPTS (sizeof gpl_opts / sizeof gpl_opts[0])

/* Nsight Compute's options that have no gpuprof meaning, and why. */
static const struct {
    const char *option;
    int has_arg;
    const char *why;
} gpl_ncu_only[] = {
    {"csv", no_argument,
     "gpuprof writes files; for Nsight Compute's CSV use gpuprof-report --format "
     "ncu-csv (--page details) or ncu-raw-csv (--page raw) on them"},
    {"page", required_argument,
     "gpuprof writes files; for Nsight Compute's CSV use gpuprof-report --format "
     "ncu-csv (--page details) or ncu-raw-csv (--page raw) on them"},
    {"import", required_argument, "read results with gpuprof-report FILE.jsonl"},
    {"devices", required_argument,
     "gpuprof profiles every device the program uses; set CUDA_VISIBLE_DEVICES to "
     "limit them"},
    {"kernel-id", required_argument, "use -k with regex: and -s/-c, or --max-per-kernel"},
    {"target-processes", required_argument,
     "child processes inherit LD_PRELOAD and are profiled; gpuprof cannot "
     "leave them out"},
    {"launch-skip-before-match", required_argument,
     "-s counts only launches that pass the filters, as ncu's -s"},
    {"range-filter", required_argument, "use --nvtx-include and cudaProfilerStart/Stop"},
    {"nvtx-push-pop-scope", required_argument,
     "gpuprof keeps push/pop ranges per thread, ncu's default scope"},
    {"graph-profiling", required_argument,
     "gpuprof profiles the kernel nodes of a graph one by one, ncu's default "
     "(node)"},
    {"mode", required_argument,
     "gpuprof launches the program itself; it cannot attach to a running one"},
};
#define GPL_N_NCU (sizeof gpl_ncu_only / sizeof gpl_ncu_only[0])

/* getopt's table: gpuprof's options, then Nsight Compute's it refuses. */
static void gpl_getopt_table(struct option *o)
{
    size_t i, n = 0;
    for (i = 0; i < GPL_N_OPTS; i++)
        o[n++] = (struct option){gpl_opts[i].name, gpl_opts[i].has_arg, NULL, gpl_opts[i].val};
    for (i = 0; i < GPL_N_NCU; i++)
        o[n++] = (struct option){gpl_ncu_only[i].option, gpl_ncu_only[i].has_arg, NULL, O_NCU_ONLY};
    o[n] = (struct option){NULL, 0, NULL, 0};
}

/* The variable option c passes its value on to as it is, or NULL. */
static const char *gpl_plain_var(int c)
{
    for (size_t i = 0; i < GPL_N_OPTS; i++)
        if (gpl_opts[i].val == c && gpl_opts[i].var)
            return gpl_opts[i].var;
    return NULL;
}

static void gpl_set(const char *var, const char *value)
{
    setenv(var, value, 1);
}

/* One message on stderr, "gpuprof: ..." and a newline, escaped whole
 * (gp_text_plain): it may quote an option's value or the program's name,
 * which must not move the cursor or reverse the line. */
static void gpl_vsay(const char *fmt, va_list ap)
{
    char *msg = NULL;
    fputs(GPL ": ", stderr);
    if (vasprintf(&msg, fmt, ap) < 0)
        msg = NULL;
    gp_text_plain(stderr, msg ? msg : "(out of memory)");
    fputc('\n', stderr);
    free(msg);
}

static void gpl_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void gpl_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gpl_vsay(fmt, ap);
    va_end(ap);
}

static int gpl_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int gpl_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gpl_vsay(fmt, ap);
    va_end(ap);
    return 2;
}

/* The index of value in names[], or -1 after saying what --opt takes. */
static int gpl_index(const char *opt, const char *value, const char *const *names, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(value, names[i]) == 0)
            return (int)i;
    fprintf(stderr, GPL ": --%s takes ", opt);
    for (i = 0; i < n; i++)
        fprintf(stderr, "%s%s", i ? (i == n - 1 ? " or " : ", ") : "", names[i]);
    fputs(", not '", stderr);
    gp_text_plain(stderr, value);
    fputs("'\n", stderr);
    return -1;
}

/* value is one of names[]; sets var to the matching vals[] entry. */
static int gpl_choice(const char *opt, const char *value, const char *const *names,
                      const char *const *vals, size_t n, const char *var)
{
    int i = gpl_index(opt, value, names, n);
    if (i < 0)
        return 2;
    gpl_set(var, vals[i]);
    return 0;
}

static int gpl_onoff(const char *opt, const char *value, const char *var)
{
    static const char *const names[] = {"on", "off", "yes", "no", "1", "0"};
    static const char *const vals[] = {"1", "0", "1", "0", "1", "0"};
    return gpl_choice(opt, value, names, vals, 6, var);
}

/* Nsight Compute's -k: an exact name, or "regex:EXPR" (searched). */
static int gpl_kernel_regex(const char *value, const char *var)
{
    char re[2048];
    size_t o = 0;
    const char *p;
    if (strncmp(value, "regex:", 6) == 0) {
        gpl_set(var, value + 6);
        return 0;
    }
    re[o++] = '^';
    for (p = value; *p && o + 4 < sizeof re; p++) {
        if (strchr(".[]()*+?{}|^$\\", *p))
            re[o++] = '\\';
        re[o++] = *p;
    }
    if (*p)
        return gpl_fail("kernel name too long: %s", value);
    re[o++] = '$';
    re[o] = '\0';
    gpl_set(var, re);
    return 0;
}

/* Appends item to a list variable held in buf, joined by sep. */
static int gpl_append(char *buf, size_t len, const char *item, char sep)
{
    size_t used = strlen(buf);
    int n = snprintf(buf + used, len - used, "%s%s", used ? (char[2]){sep, 0} : "", item);
    return n < 0 || (size_t)n >= len - used ? -1 : 0;
}

/* An NVTX expression inside the ';'-separated variable: its own ';' escaped. */
static int gpl_append_nvtx(char *buf, size_t len, const char *expr)
{
    char esc[2048];
    size_t o = 0;
    for (const char *p = expr; *p && o + 3 < sizeof esc; p++) {
        if (*p == ';')
            esc[o++] = '\\';
        esc[o++] = *p;
    }
    esc[o] = '\0';
    return gpl_append(buf, len, esc, ';');
}

/* The library: --lib, else next to this executable. */
static int gpl_find_lib(const char *given, char *out, size_t len)
{
    char self[PATH_MAX], *slash;
    ssize_t n;
    if (given) {
        if (!realpath(given, out) || access(out, R_OK) != 0)
            return gpl_fail("--lib %s: %s", given, strerror(errno));
        return 0;
    }
    n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return gpl_fail("cannot find libgpuprof.so (give --lib PATH)");
    self[n] = '\0';
    slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    snprintf(out, len, "%.*s/libgpuprof.so", (int)(len > 16 ? len - 16 : 0), self);
    if (access(out, R_OK) != 0)
        return gpl_fail("cannot find %s (build it with make, or give --lib PATH)", out);
    return 0;
}

/* Nsight Compute refuses to overwrite a report unless -f; so does the
 * launcher for the files this process will write (exec keeps its id). */
static int gpl_check_overwrite(const gp_config *cfg)
{
    char host[256], base[1200], path[1300];
    size_t l;
    int i;
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    if (gp_expand_path(cfg->output, (long)getpid(), host, base, sizeof base) != 0)
        return 0; /* the library says what is wrong with the pattern */
    l = strlen(base);
    if (l > 4 && strcmp(base + l - 4, ".csv") == 0)
        base[l - 4] = '\0';
    else if (l > 6 && strcmp(base + l - 6, ".jsonl") == 0)
        base[l - 6] = '\0';
    for (i = 0; i < 2; i++) {
        struct stat st;
        if (!(i ? cfg->write_csv : cfg->write_json))
            continue;
        snprintf(path, sizeof path, "%s.%s", base, i ? "csv" : "jsonl");
        if (stat(path, &st) == 0)
            return gpl_fail("%s exists; use -f (--force-overwrite) to replace it", path);
    }
    return 0;
}

static const char *gpl_env(const char *name)
{
    return getenv(name);
}

static void gpl_print_env(FILE *out)
{
    extern char **environ;
    for (char **e = environ; *e; e++)
        if (strncmp(*e, "GPUPROF_", 8) == 0 || strncmp(*e, "LD_PRELOAD=", 11) == 0)
            fprintf(out, "%s\n", *e);
}

int main(int argc, char **argv)
{
    static const char *const bases[] = {"function", "demangled", "mangled"};
    static const char *const replay_names[] = {"kernel", "cupti", "none"};
    static const char *const replay_vals[] = {"profiler", "cupti", "none"};
    static const char *const cache_names[] = {"all", "none", "l2"};
    static const char *const cache_vals[] = {"flush", "none", "l2"};
    static const char *const summary_names[] = {"none", "per-kernel"};
    static const char *const summary_vals[] = {"0", "1"};
    static const char *const levels[] = {"error", "warn", "info", "debug"};
    static const char *const snaps[] = {"auto", "device", "host", "none"};
    static const char *const qmodes[] = {"base", "suffix", "all"};
    char sets[4096] = "", metrics[8192] = "", nvtx_inc[8192] = "", nvtx_exc[8192] = "";
    char lib[PATH_MAX], preload[2 * PATH_MAX + 2], err[4096], chip[64] = "";
    const char *lib_given = NULL, *metrics_arg = NULL;
    int c, rc, force = 0, query = 0, query_mode = GP_QUERY_BASE, dry_run = 0, list = 0, verbose = 0;
    gp_config cfg;
    struct option options[GPL_N_OPTS + GPL_N_NCU + 1];

    gpl_getopt_table(options);
    opterr = 0;
    int li;
    while ((li = -1, c = getopt_long(argc, argv, "+:k:s:c:o:fqvh", options, &li)) != -1) {
        const char *var = gpl_plain_var(c);
        if (var) {
            gpl_set(var, optarg);
            continue;
        }
        rc = 0;
        switch (c) {
        case 'k':
            rc = gpl_kernel_regex(optarg, "GPUPROF_KERNEL_INCLUDE");
            break;
        case O_KEXCL:
            rc = gpl_kernel_regex(optarg, "GPUPROF_KERNEL_EXCLUDE");
            break;
        case O_BASE:
            rc =
                gpl_choice("kernel-name-base", optarg, bases, bases, 3, "GPUPROF_KERNEL_NAME_BASE");
            break;
        case O_FROM_START:
            rc = gpl_onoff("profile-from-start", optarg, "GPUPROF_PROFILE_FROM_START");
            break;
        case O_NO_START_STOP:
            gpl_set("GPUPROF_PROFILER_START_STOP", "0");
            break;
        case O_NVTX:
            break; /* NVTX callbacks are subscribed whenever an expression is given */
        case O_NVTX_INC:
        case O_NVTX_EXC:
            if (gpl_append_nvtx(c == O_NVTX_INC ? nvtx_inc : nvtx_exc, sizeof nvtx_inc, optarg))
                rc = gpl_fail("too many NVTX expressions");
            break;
        case O_METRICS:
            if (strncmp(optarg, "regex:", 6) == 0 || strncmp(optarg, "group:", 6) == 0 ||
                strncmp(optarg, "breakdown:", 10) == 0 || strncmp(optarg, "pmsampling:", 11) == 0)
                rc = gpl_fail("--metrics %s: gpuprof collects metrics by their full names only "
                              "(--query-metrics lists them)",
                              optarg);
            else
                metrics_arg = optarg;
            break;
        case O_SET:
            rc = gpl_set_option(optarg, sets, sizeof sets);
            break;
        case O_SECTION:
            rc = gpl_section_option(optarg, sets, sizeof sets);
            break;
        case O_REPLAY:
            if (strcmp(optarg, "application") == 0 || strcmp(optarg, "range") == 0 ||
                strcmp(optarg, "app-range") == 0)
                rc = gpl_fail("--replay-mode %s: gpuprof replays each kernel launch on its own "
                              "(kernel); it does not replay applications or ranges. For one "
                              "run of the program, use --replay-mode none: the passes are "
                              "spread over a kernel's repeated launches and the values are "
                              "estimated",
                              optarg);
            else
                rc = gpl_choice("replay-mode", optarg, replay_names, replay_vals, 3,
                                "GPUPROF_REPLAY");
            break;
        case O_CACHE:
            rc = gpl_choice("cache-control", optarg, cache_names, cache_vals, 3,
                            "GPUPROF_CACHE_CONTROL");
            break;
        case O_SAMPLING:
            rc = gpl_choice("sampling", optarg, (const char *const[]){"on", "off", "profiled"},
                            (const char *const[]){"on", "off", "profiled"}, 3,
                            "GPUPROF_SAMPLING");
            break;
        case O_SAMPLING_INTERVAL:
            if (strcmp(optarg, "auto") != 0)
                gpl_set("GPUPROF_SAMPLING_INTERVAL", optarg);
            break;
        case O_CLOCK:
            if (strcmp(optarg, "none") != 0)
                rc = gpl_fail("--clock-control %s is not supported: gpuprof leaves the GPU's "
                              "settings alone and never locks or changes clocks (it runs as "
                              "ncu --clock-control none); lock them yourself if you need to, "
                              "e.g. nvidia-smi --lock-gpu-clocks=BASE,BASE",
                              optarg);
            break;
        case 'f':
            force = 1;
            break;
        case O_LOG_FILE:
            if (strcmp(optarg, "stdout") == 0)
                rc = gpl_fail("--log-file stdout: gpuprof never writes to the program's standard "
                              "output; use stderr or a file");
            else if (strcmp(optarg, "stderr") == 0)
                unsetenv("GPUPROF_LOG_FILE");
            else
                gpl_set("GPUPROF_LOG_FILE", optarg);
            break;
        case O_SUMMARY:
            if (strcmp(optarg, "per-gpu") == 0 || strcmp(optarg, "per-nvtx") == 0)
                rc = gpl_fail("--print-summary %s: gpuprof's summary is per kernel; "
                              "gpuprof-report groups by device in its header",
                              optarg);
            else
                rc = gpl_choice("print-summary", optarg, summary_names, summary_vals, 2,
                                "GPUPROF_SUMMARY");
            break;
        case O_LOG_LEVEL:
            rc = gpl_choice("log-level", optarg, levels, levels, 4, "GPUPROF_LOG_LEVEL");
            break;
        case O_VERBOSE:
            gpl_set("GPUPROF_LOG_LEVEL", "info");
            verbose = 1;
            break;
        case 'q':
            gpl_set("GPUPROF_LOG_LEVEL", "error");
            gpl_set("GPUPROF_SUMMARY", "0");
            break;
        case O_SNAPSHOT:
            rc = gpl_choice("snapshot", optarg, snaps, snaps, 4, "GPUPROF_SNAPSHOT");
            break;
        case O_CROSSCHECK:
            rc = gpl_onoff("crosscheck", optarg, "GPUPROF_CROSSCHECK");
            break;
        case O_QUERY:
            query = 1;
            break;
        case O_QUERY_MODE:
            query = 1;
            if ((query_mode = gpl_index("query-metrics-mode", optarg, qmodes, 3)) < 0)
                rc = 2;
            break;
        case O_CHIP:
            snprintf(chip, sizeof chip, "%s", optarg);
            break;
        case O_LIST_CHIPS:
            if (gp_query_chips(stdout, err, sizeof err) != 0) {
                gpl_say("%s", err);
                return 1;
            }
            return 0;
        case O_LIST_SETS:
        case O_LIST_SECTIONS:
            list = c; /* after every option: --list-sections --verbose */
            break;
        case O_LIB:
            lib_given = optarg;
            break;
        case O_DRY_RUN:
            dry_run = 1;
            break;
        case 'v':
            printf(GPL " %s\n", GPUPROF_VERSION);
            return 0;
        case 'h':
            gpl_usage(stdout);
            return 0;
        case O_NCU_ONLY:
            if (li >= (int)GPL_N_OPTS)
                return gpl_fail("--%s is Nsight Compute's; %s",
                                gpl_ncu_only[li - GPL_N_OPTS].option,
                                gpl_ncu_only[li - GPL_N_OPTS].why);
            return gpl_fail("%s is not supported", argv[optind - 1]);
        case ':':
            return gpl_fail("option '%s' needs a value (gpuprof --help)", argv[optind - 1]);
        default:
            return gpl_fail("unknown option '%s' (gpuprof --help)", argv[optind - 1]);
        }
        if (rc)
            return rc;
    }

    if (list == O_LIST_SETS) {
        gp_ncu_list_sets(stdout);
        return 0;
    }
    if (list == O_LIST_SECTIONS) {
        gp_ncu_list_sections(stdout, verbose);
        return 0;
    }
    if (query) {
        const char *names[256];
        size_t n = 0;
        char *copy = metrics_arg ? strdup(metrics_arg) : NULL;
        long lines;
        if (!chip[0] && gp_query_device_chip(chip, sizeof chip, err, sizeof err) != 0) {
            free(copy);
            gpl_say("%s; give the chip, e.g. --chip GH100 (--list-chips)", err);
            return 1;
        }
        if (copy)
            n = gp_split(copy, ',', (char **)names, 256);
        if (query_mode == GP_QUERY_SUFFIX && (n == 0 || n == (size_t)-1)) {
            free(copy);
            return gpl_fail("--query-metrics-mode suffix lists the sub-metrics of the base "
                            "metrics named by --metrics a,b (at most 256)");
        }
        lines = gp_query_metrics(chip, query_mode, names, n, stdout, err, sizeof err);
        free(copy);
        if (lines < 0) {
            gpl_say("%s", err);
            return 1;
        }
        return 0;
    }
    if (optind >= argc) {
        fprintf(stderr, GPL ": no program to run\n");
        return gpl_usage(stderr);
    }

    /* metrics: sets first (each keeps the default set), then the names */
    if (sets[0] && gpl_append(metrics, sizeof metrics, sets, ','))
        return gpl_fail("--set/--section: too long");
    if (metrics_arg && gpl_append(metrics, sizeof metrics, metrics_arg, ','))
        return gpl_fail("--metrics: too long");
    if (metrics[0])
        gpl_set("GPUPROF_METRICS", metrics);
    if (nvtx_inc[0])
        gpl_set("GPUPROF_NVTX_INCLUDE", nvtx_inc);
    if (nvtx_exc[0])
        gpl_set("GPUPROF_NVTX_EXCLUDE", nvtx_exc);

    /* the library's own parser says what is wrong, naming the variable */
    if (gp_config_parse(&cfg, gpl_env, err, sizeof err) != 0) {
        char *line = err, *next;
        for (; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            gpl_say("%s", line);
        }
        gpl_say("not running %s (gpuprof --help for the options)", argv[optind]);
        gp_config_free(&cfg);
        return 2;
    }
    rc = force ? 0 : gpl_check_overwrite(&cfg);
    gp_config_free(&cfg);
    if (rc)
        return rc;
    if ((rc = gpl_find_lib(lib_given, lib, sizeof lib)) != 0)
        return rc;
    {
        const char *cur = getenv("LD_PRELOAD");
        snprintf(preload, sizeof preload, "%s%s%s", lib, cur && *cur ? ":" : "",
                 cur && *cur ? cur : "");
        gpl_set("LD_PRELOAD", preload);
    }
    if (dry_run) {
        gpl_print_env(stdout);
        for (c = optind; c < argc; c++)
            printf("%s%s", argv[c], c + 1 < argc ? " " : "\n");
        return 0;
    }
    execvp(argv[optind], argv + optind);
    c = errno;
    rc = c == ENOENT ? 127 : 126;
    gpl_say("cannot run '%s': %s", argv[optind], strerror(c));
    return rc;
}
