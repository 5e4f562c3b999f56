/* gpuprof-characterize - a whole suite's workload study in one command
 * (docs/characterize.md).
 *
 *   gpuprof-characterize run SUITE [-o OUTDIR] [--force] [--resume] [--gpus N|auto]
 *                            [--only NAME] [--index I] [--lib PATH] [--peaks FILE]
 *                            [--no-summary] [--no-gpu-check] [--slurm-poll S]
 *                            [--slurm [SBATCH OPTIONS...]]
 *   gpuprof-characterize merge DIR... [-o SUMMARY_DIR] [--peaks FILE]
 *   gpuprof-characterize list SUITE
 *
 * Options go anywhere after the command (getopt_long: --x=v, -- ends them);
 * SUITE '-' reads the suite from standard input (paths relative to the
 * working directory; its programs always run again).
 *
 * Exit status: 0 every program ok, 3 the profiler changed or broke a program
 * (profiler_defect, profiler_broke_results: the profiler is at fault), 4 none
 * of those but a program failed natively or could not be run, 1 another
 * failure (suite, library, results, summary), 2 usage. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpuprof.h"
#include "libcheck.h"
#include "progress.h"
#include "result.h"
#include "run.h"
#include "slurm.h"
#include "study_db.h"
#include "suite.h"
#include "summary.h"
#include "util/safefile.h"
#include "util/textio.h"

#define GPC_PROG "gpuprof-characterize"

static int gpc_usage(FILE *f)
{
    fprintf(f,
            "usage: " GPC_PROG " run SUITE [-o OUTDIR] [--force] [--resume] [--gpus N|auto]\n"
            "                            [--only NAME] [--index I] [--lib PATH] [--peaks FILE]\n"
            "                            [--no-summary] [--no-gpu-check] [--slurm-poll S]\n"
            "                            [--slurm [SBATCH OPTIONS...]]  (sbatch's options last)\n"
            "       " GPC_PROG " merge DIR... [-o SUMMARY_DIR] [--peaks FILE]\n"
            "       " GPC_PROG " list SUITE\n"
            "       " GPC_PROG " --version | --help\n"
            "SUITE '-' reads the suite from standard input.  See docs/characterize.md.\n");
    return 2;
}

static double gpc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void gpc_on_signal(int sig)
{
    (void)sig;
    gpc_run_stop = 1;
}

static int gpc_mkdirs(const char *path)
{
    char tmp[PATH_MAX], *p;
    snprintf(tmp, sizeof tmp, "%s", path);
    for (p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(tmp, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

/* The GPUs to spread programs over: CUDA_VISIBLE_DEVICES entries when set,
 * else nvidia-smi -L's count; want > 0 takes that many.  Returns the slot
 * count (>= 1); *ids gets one CUDA_VISIBLE_DEVICES value per slot, or NULL
 * when programs run one at a time with the environment left alone. */
static int gpc_gpus(int want, char ***ids, char *err, size_t errlen)
{
    const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
    char **list = NULL, buf[256];
    size_t n = 0, i;
    *ids = NULL;
    if (cvd && *cvd) {
        char *copy = strdup(cvd), *tok, *save = NULL;
        for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
             tok = strtok_r(NULL, ",", &save)) {
            if (gpc_push(&list, &n, tok) < 0)
                break;
        }
        free(copy);
    } else {
        FILE *p = popen("nvidia-smi -L 2>/dev/null", "r");
        while (p && fgets(buf, sizeof buf, p))
            if (strncmp(buf, "GPU ", 4) == 0) {
                snprintf(buf, sizeof buf, "%zu", n);
                if (gpc_push(&list, &n, buf) < 0)
                    break;
            }
        if (p)
            pclose(p);
    }
    if (want > 0) {
        if (n == 0) { /* no nvidia-smi: trust the user */
            for (i = 0; i < (size_t)want; i++) {
                snprintf(buf, sizeof buf, "%zu", i);
                if (gpc_push(&list, &n, buf) < 0)
                    break;
            }
        } else if ((size_t)want > n) {
            snprintf(err, errlen, "--gpus %d, but only %zu GPU%s visible (%s)", want, n,
                     n == 1 ? " is" : "s are",
                     cvd && *cvd ? "CUDA_VISIBLE_DEVICES" : "nvidia-smi -L");
            for (i = 0; i < n; i++)
                free(list[i]);
            free(list);
            return -1;
        }
        for (i = want; i < n; i++)
            free(list[i]);
        n = (size_t)want;
    }
    if (n <= 1) {
        for (i = 0; i < n; i++)
            free(list[i]);
        free(list);
        return 1;
    }
    *ids = list;
    return (int)n;
}

/* Whether this machine has an NVIDIA GPU: nvidia-smi -L lists one; without
 * nvidia-smi, a device node of the driver. */
static int gpc_have_gpu(void)
{
    char buf[256];
    int found = 0, ran = 0;
    FILE *p = popen("nvidia-smi -L 2>/dev/null; echo __gpc_end $?", "r");
    while (p && fgets(buf, sizeof buf, p)) {
        if (strncmp(buf, "GPU ", 4) == 0)
            found = 1;
        else if (strncmp(buf, "__gpc_end ", 10) == 0)
            ran = atoi(buf + 10) != 127; /* 127: the shell found no nvidia-smi */
    }
    if (p)
        pclose(p);
    return found || (!ran && access("/dev/nvidia0", F_OK) == 0);
}

/* A suite read from standard input: its paths are relative to the working
 * directory. */
static int gpc_suite_stdin(gpc_suite *s, char *err, size_t errlen)
{
    char cwd[PATH_MAX], *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    int c, rc;
    if (!mem || !getcwd(cwd, sizeof cwd)) {
        if (mem)
            fclose(mem);
        free(text);
        snprintf(err, errlen, "cannot read the suite from standard input");
        return -1;
    }
    while ((c = getchar()) != EOF)
        fputc(c, mem);
    fclose(mem);
    rc = gpc_suite_parse_n(s, "<stdin>", cwd, text ? text : "", text ? len : 0, err, errlen);
    free(text);
    return rc;
}

static int gpc_suite_open(gpc_suite *s, const char *path, char *err, size_t errlen)
{
    return strcmp(path, "-") == 0 ? gpc_suite_stdin(s, err, errlen)
                                  : gpc_suite_load(s, path, err, errlen);
}

static int gpc_newer(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec > b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

/* The summary of the given result directories into out_dir. */
static int gpc_summarize(char **dirs, size_t n, const gp_peaks *peaks, const char *out_dir,
                         int scan)
{
    gpc_summary s;
    gpc_study_db *db = NULL;
    char err[1024];
    size_t i, defects = 0, broke = 0, not_ok = 0;
    int rc = 1;
    gpc_summary_init(&s, peaks);
    for (i = 0; i < n; i++) {
        long got;
        if (!scan) {
            char path[PATH_MAX];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", dirs[i], GPC_RESULT_FILE);
            if (lstat(path, &st) < 0)
                continue; /* not run (yet): reported while running */
        }
        if ((got = gpc_summary_add(&s, dirs[i], err, sizeof err)) < 0) {
            gpc_progress_say(GPC_PROG ": %s", err);
            goto out;
        }
        if (scan && got == 0)
            gpc_progress_say(GPC_PROG ": warning: no result directory in %s", dirs[i]);
    }
    if (gp_safedir(out_dir, err, sizeof err) < 0 ||
        !(db = gpc_study_db_start(&s, out_dir, err, sizeof err)))
        gpc_progress_say(GPC_PROG ": warning: no %s: %s", GPC_STUDY_DB_FILE, err);
    if (gpc_summary_finish(&s, stderr) < 0) {
        fprintf(stderr, GPC_PROG ": out of memory\n");
        goto out;
    }
    if (gpc_summary_write(&s, out_dir, err, sizeof err) < 0) {
        gpc_progress_say(GPC_PROG ": %s", err);
        goto out;
    }
    if (db) { /* the other files are written: a database that fails is said, not fatal */
        int x = gpc_study_db_finish(db, &s, err, sizeof err);
        db = NULL;
        if (x < 0)
            gpc_progress_say(GPC_PROG ": warning: no %s: %s", GPC_STUDY_DB_FILE, err);
    }
    for (i = 0; i < s.n; i++) {
        defects += s.progs[i].res.status == GPC_PROFILER_DEFECT;
        broke += s.progs[i].res.status == GPC_PROFILER_BROKE_RESULTS;
        not_ok += s.progs[i].res.status != GPC_OK;
    }
    gpc_progress_say(GPC_PROG ": summary of %zu program%s, %zu kernels in %s/ (summary.txt, "
                              "summary.html, kernels.csv, kernels.json, programs.csv, study.db)",
                     s.n, s.n == 1 ? "" : "s", s.n_kernels, out_dir);
    if (defects)
        fprintf(stderr, GPC_PROG ": %zu PROFILER DEFECT%s: see summary.txt\n", defects,
                defects == 1 ? "" : "S");
    if (broke)
        fprintf(stderr,
                GPC_PROG ": %zu program%s whose results the profiler broke (PROFILER "
                         "BROKE RESULTS): see summary.txt\n",
                broke, broke == 1 ? "" : "s");
    rc = defects || broke ? 3 : not_ok ? 4 : 0;
out:
    gpc_study_db_discard(db);
    gpc_summary_free(&s);
    return rc;
}

static int gpc_load_peaks(const char *path, gp_peaks *peaks)
{
    char err[512];
    gp_peaks_none(peaks);
    if (path && gp_peaks_load(path, peaks, err, sizeof err) < 0) {
        gpc_progress_say(GPC_PROG ": %s", err);
        return -1;
    }
    return 0;
}

typedef struct {
    pid_t pid;
    size_t prog;
    int busy;
} gpc_slot;

static int gpc_cmd_run(int argc, char **argv)
{
    const char *suite_path = NULL, *out = "characterize-out", *only = NULL, *lib = NULL;
    const char *peaks_path = NULL;
    long index = -1;
    int force = 0, want_gpus = 0, no_summary = 0, summary = -1, i, rc = 1, n_slots;
    int resume = 0, slurm = 0;
    char **sbatch = NULL;
    size_t n_sbatch = 0;
    double poll_s = 10;
    char err[1024], outdir[PATH_MAX], libpath[PATH_MAX + 32], **gpu_ids = NULL, **dirs = NULL;
    gpc_suite suite;
    gpc_slot *slots = NULL;
    gp_peaks peaks;
    size_t *todo = NULL, n_todo = 0, next = 0, done = 0, ran = 0, p, total;
    struct stat sst;
    double t0 = gpc_now();
    int defect = 0, failed = 0, not_ok = 0;
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"force", no_argument, NULL, 'F'},
                                         {"no-summary", no_argument, NULL, 'N'},
                                         {"summary", no_argument, NULL, 'S'},
                                         {"gpus", required_argument, NULL, 'G'},
                                         {"only", required_argument, NULL, 'O'},
                                         {"index", required_argument, NULL, 'I'},
                                         {"lib", required_argument, NULL, 'L'},
                                         {"peaks", required_argument, NULL, 'P'},
                                         {"no-gpu-check", no_argument, NULL, 'X'},
                                         {"resume", no_argument, NULL, 'R'},
                                         {"slurm-poll", required_argument, NULL, 'W'},
                                         {NULL, 0, NULL, 0}};
    int c, gpu_check = 1;
    /* --slurm: what follows is sbatch's, passed as it is */
    for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--slurm") == 0) {
            slurm = 1;
            sbatch = argv + i + 1;
            n_sbatch = (size_t)(argc - i - 1);
            argc = i;
            break;
        }
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 'F':
            force = 1;
            break;
        case 'N':
            no_summary = 1;
            break;
        case 'S':
            summary = 1;
            break;
        case 'G':
            if (strcmp(optarg, "auto") == 0)
                want_gpus = 0;
            else if ((want_gpus = (int)strtol(optarg, &end, 10)) < 1 || *end) {
                gpc_progress_say(GPC_PROG ": --gpus takes a positive number or 'auto', not '%s'",
                                 optarg);
                return 2;
            }
            break;
        case 'O':
            only = optarg;
            break;
        case 'I':
            index = strtol(optarg, &end, 10);
            if (index < 0 || *end || !*optarg) {
                gpc_progress_say(GPC_PROG ": --index takes a number from 0, not '%s'", optarg);
                return 2;
            }
            break;
        case 'L':
            lib = optarg;
            break;
        case 'P':
            peaks_path = optarg;
            break;
        case 'X':
            gpu_check = 0;
            break;
        case 'R':
            resume = 1;
            break;
        case 'W':
            poll_s = strtod(optarg, &end);
            if (*end || !(poll_s >= 0.1 && poll_s <= 3600)) {
                gpc_progress_say(GPC_PROG ": --slurm-poll takes seconds from 0.1 to 3600, not '%s'",
                                 optarg);
                return 2;
            }
            break;
        case ':':
            gpc_progress_say(GPC_PROG " run: option '%s' needs a value", argv[optind - 1]);
            return gpc_usage(stderr);
        default:
            gpc_progress_say(GPC_PROG " run: unknown option '%s'", argv[optind - 1]);
            return gpc_usage(stderr);
        }
    }
    for (i = optind; i < argc; i++) {
        if (suite_path) {
            gpc_progress_say(GPC_PROG " run: one suite at a time ('%s' and '%s')", suite_path,
                             argv[i]);
            return gpc_usage(stderr);
        }
        suite_path = argv[i];
    }
    if (slurm && (want_gpus || !suite_path || strcmp(suite_path, "-") == 0)) {
        gpc_progress_say(GPC_PROG ": --slurm %s",
                         want_gpus ? "takes no --gpus: ask Slurm for GPUs (--gres=gpu:1 after "
                                     "--slurm)"
                                   : "needs a suite file the cluster's nodes can read, not "
                                     "standard input");
        return 2;
    }
    if (slurm && gpc_slurm_check(err, sizeof err) < 0) {
        gpc_progress_say(GPC_PROG ": %s", err);
        return 1;
    }
    /* with --slurm the programs run on the cluster's nodes, which check */
    if (suite_path && gpu_check && !slurm && !gpc_have_gpu()) {
        fprintf(stderr,
                GPC_PROG ": no NVIDIA GPU on this machine (nvidia-smi -L lists none): the "
                         "programs would run, but no kernel could be profiled.  Run the suite on "
                         "a machine with a GPU, or add --no-gpu-check to run it anyway (to check "
                         "the programs and the suite)\n");
        return 1;
    }
    if (!suite_path)
        return gpc_usage(stderr);
    if (gpc_suite_open(&suite, suite_path, err, sizeof err) < 0) {
        gpc_progress_say(GPC_PROG ": %s", err);
        return 1;
    }
    if (gpc_load_peaks(peaks_path, &peaks) < 0)
        goto out_suite;
    if (strcmp(suite_path, "-") == 0) { /* no file to date results by: all run again */
        memset(&sst, 0, sizeof sst);
        clock_gettime(CLOCK_REALTIME, &sst.st_mtim);
    } else if (stat(suite_path, &sst) < 0) {
        gpc_progress_say(GPC_PROG ": %s: %s", suite_path, strerror(errno));
        goto out_suite;
    }
    /* the library: --lib, else next to this executable */
    if (!lib) {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        char *slash;
        if (n > 0) {
            self[n] = 0;
            if ((slash = strrchr(self, '/')))
                *slash = 0;
            snprintf(libpath, sizeof libpath, "%s/libgpuprof.so", self);
            lib = libpath;
        } else {
            lib = "libgpuprof.so";
        }
    }
    {
        char real[PATH_MAX];
        if (!realpath(lib, real) || access(real, R_OK) < 0) {
            gpc_progress_say(GPC_PROG ": cannot find the profiler library %s (build it with make, "
                                      "or give --lib PATH)",
                             lib);
            goto out_suite;
        }
        snprintf(libpath, sizeof libpath, "%s", real);
        lib = libpath;
        if (gpc_libcheck(lib, err, sizeof err) < 0) {
            gpc_progress_say(GPC_PROG ": %s", err);
            goto out_suite;
        }
    }
    if (gpc_mkdirs(out) < 0 || !realpath(out, outdir)) {
        gpc_progress_say(GPC_PROG ": cannot create %s: %s", out, strerror(errno));
        goto out_suite;
    }
    if ((n_slots = gpc_gpus(want_gpus, &gpu_ids, err, sizeof err)) < 0) {
        gpc_progress_say(GPC_PROG ": %s", err);
        goto out_suite;
    }
    /* what to run */
    todo = calloc(suite.n, sizeof *todo);
    dirs = calloc(suite.n, sizeof *dirs);
    slots = calloc((size_t)n_slots, sizeof *slots);
    if (!todo || !dirs || !slots)
        goto oom;
    for (p = 0; p < suite.n; p++)
        if (asprintf(&dirs[p], "%s/%s", outdir, suite.progs[p].name) < 0) {
            dirs[p] = NULL;
            goto oom;
        }
    if (only && !gpc_suite_find(&suite, only)) {
        gpc_progress_say(GPC_PROG ": no program [%s] in %s", only, suite_path);
        goto out;
    }
    if (index >= (long)suite.n) {
        gpc_progress_say(GPC_PROG ": --index %ld, but %s has %zu programs (0 to %zu)", index,
                         suite_path, suite.n, suite.n - 1);
        goto out;
    }
    total = 0;
    for (p = 0; p < suite.n; p++)
        total +=
            !((only && strcmp(only, suite.progs[p].name) != 0) || (index >= 0 && (long)p != index));
    for (p = 0; p < suite.n; p++) {
        char path[PATH_MAX];
        struct stat rst;
        if ((only && strcmp(only, suite.progs[p].name) != 0) || (index >= 0 && (long)p != index))
            continue;
        snprintf(path, sizeof path, "%s/%s", dirs[p], GPC_RESULT_FILE);
        /* lstat: a result is ours only as a plain file, never through a link;
         * --resume keeps every finished result, however old */
        if (!force && lstat(path, &rst) == 0 && S_ISREG(rst.st_mode) &&
            (resume ? gpc_result_finished(dirs[p]) : gpc_newer(&rst.st_mtim, &sst.st_mtim))) {
            int x = gpc_progress_done(dirs[p], suite.progs[p].name, ++done, total, gpc_now() - t0,
                                      0, 0, 1);
            defect |= x == 3;
            not_ok |= x == 4;
            failed |= x == 1;
            continue;
        }
        todo[n_todo++] = p;
    }
    if (done)
        gpc_progress_say(resume ? GPC_PROG ": %zu finished result%s kept (--resume)"
                                : GPC_PROG ": %zu result%s newer than %s kept (--force to run "
                                           "again)",
                         done, done == 1 ? "" : "s", suite_path);
    {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = gpc_on_signal;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
    }
    if (slurm) {
        gpc_tally t = {dirs, &suite, done, total, 0, n_todo, t0, defect, not_ok, failed};
        int x = gpc_slurm_main(suite_path, &suite, outdir, lib, gpu_check, poll_s, sbatch,
                               n_sbatch, todo, &t);
        defect = t.defect;
        not_ok = t.not_ok;
        failed = t.failed || x == 1;
        if (x != 0)
            goto out; /* it said why; rc is 1 */
        next = ran = n_todo; /* the local loop below has nothing to do */
    }
    if (n_slots > 1 && !slurm)
        fprintf(stderr, GPC_PROG ": %zu program%s over %d GPUs, one program per GPU at a time\n",
                n_todo, n_todo == 1 ? "" : "s", n_slots);
    while ((next < n_todo && !gpc_run_stop) || ran < next) {
        int s, st;
        pid_t w;
        for (s = 0; s < n_slots && next < n_todo && !gpc_run_stop; s++) {
            pid_t pid;
            if (slots[s].busy)
                continue;
            fflush(NULL);
            if ((pid = fork()) < 0) {
                fprintf(stderr, GPC_PROG ": fork: %s\n", strerror(errno));
                gpc_run_stop = 1;
                break;
            }
            if (pid == 0) {
                int x = gpc_run_program(&suite.progs[todo[next]], dirs[todo[next]], lib,
                                        gpu_ids ? gpu_ids[s] : NULL, err, sizeof err);
                if (x == -1)
                    gpc_progress_say(GPC_PROG ": %s: %s", suite.progs[todo[next]].name, err);
                fflush(NULL);
                _exit(x == 0 ? 0 : x == -2 ? 130 : 1);
            }
            slots[s].pid = pid;
            slots[s].prog = todo[next++];
            slots[s].busy = 1;
        }
        w = wait(&st);
        if (w < 0) {
            if (errno == EINTR) {
                for (s = 0; s < n_slots; s++)
                    if (slots[s].busy)
                        kill(slots[s].pid, SIGTERM);
                continue;
            }
            break;
        }
        for (s = 0; s < n_slots; s++)
            if (slots[s].busy && slots[s].pid == w) {
                size_t pr = slots[s].prog;
                int x;
                slots[s].busy = 0;
                ran++;
                if (WIFEXITED(st) && WEXITSTATUS(st) == 130) {
                    fprintf(stderr, "%s: interrupted, no result written\n", suite.progs[pr].name);
                    continue;
                }
                x = gpc_progress_done(dirs[pr], suite.progs[pr].name, ++done, total, gpc_now() - t0,
                                      ran, n_todo, 0);
                defect |= x == 3;
                not_ok |= x == 4;
                failed |= x == 1;
            }
    }
    if (gpc_run_stop) {
        fprintf(stderr, GPC_PROG ": interrupted; run again to finish (finished programs are "
                                 "kept)\n");
        goto out;
    }
    if (summary < 0)
        summary = !only && index < 0;
    if (summary && !no_summary) {
        char sdir[PATH_MAX + 16];
        int x;
        snprintf(sdir, sizeof sdir, "%s/summary", outdir);
        x = gpc_summarize(dirs, suite.n, &peaks, sdir, 0);
        if (x == 1)
            failed = 1;
        defect |= x == 3;
        not_ok |= x == 4;
    }
    rc = failed ? 1 : defect ? 3 : not_ok ? 4 : 0;
    goto out;
oom:
    fprintf(stderr, GPC_PROG ": out of memory\n");
out:
    for (p = 0; dirs && p < suite.n; p++)
        free(dirs[p]);
    free(dirs);
    free(todo);
    free(slots);
    for (i = 0; gpu_ids && i < n_slots; i++)
        free(gpu_ids[i]);
    free(gpu_ids);
out_suite:
    gpc_suite_free(&suite);
    return rc;
}

static int gpc_cmd_merge(int argc, char **argv)
{
    const char *out = "characterize-summary", *peaks_path = NULL;
    char **dirs = calloc((size_t)argc + 1, sizeof *dirs);
    size_t n = 0;
    gp_peaks peaks;
    int i, rc;
    if (!dirs)
        return 1;
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"peaks", required_argument, NULL, 'P'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
        if (c == 'o') {
            out = optarg;
        } else if (c == 'P') {
            peaks_path = optarg;
        } else {
            gpc_progress_say(GPC_PROG " merge: %s '%s'",
                             c == ':' ? "option needs a value:" : "unknown option",
                             argv[optind - 1]);
            free(dirs);
            return gpc_usage(stderr);
        }
    }
    for (i = optind; i < argc; i++)
        dirs[n++] = argv[i];
    if (!n) {
        free(dirs);
        return gpc_usage(stderr);
    }
    if (gpc_load_peaks(peaks_path, &peaks) < 0) { /* it said why */
        free(dirs);
        return 1;
    }
    if (gpc_mkdirs(out) < 0) {
        gpc_progress_say(GPC_PROG ": cannot create %s: %s", out, strerror(errno));
        free(dirs);
        return 1;
    }
    rc = gpc_summarize(dirs, n, &peaks, out, 1);
    free(dirs);
    return rc;
}

static int gpc_cmd_list(int argc, char **argv)
{
    gpc_suite s;
    char err[1024];
    size_t i, j;
    if (argc != 2 || (argv[1][0] == '-' && argv[1][1]))
        return gpc_usage(stderr);
    if (gpc_suite_open(&s, argv[1], err, sizeof err) < 0) {
        gpc_progress_say(GPC_PROG ": %s", err);
        return 1;
    }
    /* the suite's text escaped: a tab or an escape sequence in a command
     * must neither split the line's fields nor reach the terminal */
    for (i = 0; i < s.n; i++) {
        const gpc_program *p = &s.progs[i];
        printf("%zu\t%s\tline %d\ttimeout %g s\tdir ", i, p->name, p->line, p->timeout);
        gp_text_plain(stdout, p->dir);
        fputs("\tcmd ", stdout);
        gp_text_plain(stdout, p->cmd);
        for (j = 0; j < p->n_env; j++) {
            fputs("\tenv ", stdout);
            gp_text_plain(stdout, p->env[j]);
        }
        for (j = 0; j < p->n_compare; j++) {
            fputs("\tcompare ", stdout);
            gp_text_plain(stdout, p->compare[j]);
        }
        for (j = 0; j < p->n_ignore; j++) {
            fputs("\tignore ", stdout);
            gp_text_plain(stdout, p->ignore[j]);
        }
        putchar('\n');
    }
    gpc_suite_free(&s);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return gpc_usage(stderr);
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        gpc_usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
        printf(GPC_PROG " %s\n", GPUPROF_VERSION);
        return 0;
    }
    /* each command parses its own options, argv[0] being the command */
    if (strcmp(argv[1], "run") == 0)
        return gpc_cmd_run(argc - 1, argv + 1);
    if (strcmp(argv[1], "merge") == 0)
        return gpc_cmd_merge(argc - 1, argv + 1);
    if (strcmp(argv[1], "list") == 0)
        return gpc_cmd_list(argc - 1, argv + 1);
    gpc_progress_say(GPC_PROG ": unknown command '%s'", argv[1]);
    return gpc_usage(stderr);
}
