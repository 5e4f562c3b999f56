/* progress.c - see progress.h. */
#define _GNU_SOURCE
#include "progress.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "result.h"
#include "summary.h"
#include "util/textio.h"

#define GPC_FIRST_ERROR_SCAN (1 << 20) /* bytes of an output searched for its error line */

void gpc_progress_say(const char *fmt, ...)
{
    char *msg = NULL;
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    if (n < 0) {
        fputs("gpuprof-characterize: out of memory\n", stderr);
        return;
    }
    gp_text_plain(stderr, msg);
    fputc('\n', stderr);
    free(msg);
}

static void gpc_progress_hms(double s, char *buf, size_t len)
{
    long t = isnan(s) || s < 0 ? 0 : (long)(s + 0.5);
    snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

/* An output of the program, opened only as a regular file (never a FIFO or
 * a link planted under its name). */
static FILE *gpc_progress_open(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    FILE *f;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
        close(fd);
        return NULL;
    }
    return f;
}

/* The line of a failed program's output that most likely says why: the first
 * with an error word, else the first non-empty one, searched in the first
 * GPC_FIRST_ERROR_SCAN bytes; NULL when none (else free it). */
static char *gpc_progress_first_error(const char *prog_dir)
{
    static const char *const words[] = {
        "error",  "fail",      "fatal",   "abort",  "exception",    "cannot", "can't",
        "unable", "not found", "no such", "denied", "segmentation", "killed", "traceback"};
    const char *files[] = {"native.stderr", "native.stdout"};
    char path[PATH_MAX + 32], line[1024], low[1024], *first = NULL, *cut;
    size_t f, w, i, seen;
    for (f = 0; f < 2; f++) {
        FILE *in;
        snprintf(path, sizeof path, "%s/%s", prog_dir, files[f]);
        if (!(in = gpc_progress_open(path)))
            continue;
        for (seen = 0; seen < GPC_FIRST_ERROR_SCAN && fgets(line, sizeof line, in);) {
            int hit = 0;
            seen += strlen(line);
            line[strcspn(line, "\r\n")] = 0;
            for (i = 0; line[i] && i + 1 < sizeof low; i++)
                low[i] = (char)tolower((unsigned char)line[i]);
            low[i] = 0;
            for (w = 0; w < sizeof words / sizeof words[0] && !hit; w++)
                hit = strstr(low, words[w]) != NULL;
            if ((first && !hit) || !line[strspn(line, " \t")])
                continue;
            cut = gpc_excerpt(line, strlen(line), 200);
            free(first);
            first = NULL;
            if (cut && asprintf(&first, "%s: %s", files[f], cut) < 0)
                first = NULL;
            free(cut);
            if (hit) {
                fclose(in);
                return first;
            }
        }
        fclose(in);
    }
    return first;
}

int gpc_progress_done(const char *prog_dir, const char *name, size_t done, size_t total,
                      double elapsed, size_t ran, size_t to_run, int kept)
{
    gpc_result r;
    char err[512], el[32], left[32];
    int not_ok;
    size_t i;
    gpc_progress_hms(elapsed, el, sizeof el);
    gpc_progress_hms(ran ? elapsed / ran * (to_run - ran) : NAN, left, sizeof left);
    if (gpc_result_load(&r, prog_dir, err, sizeof err) < 0) {
        gpc_progress_say("[%zu/%zu] %s: no result (%s); elapsed %s, about %s left", done, total,
                         name, err, el, left);
        return 1;
    }
    fprintf(stderr, "[%zu/%zu] %s: %s%s", done, total, name, kept ? "kept, " : "",
            gpc_status_name(r.status));
    if (r.native.ran)
        fprintf(stderr, ", native %.2f s", r.native.wall_s);
    if (r.profiled.ran)
        fprintf(stderr, ", profiled %.2f s", r.profiled.wall_s);
    if (r.gpu) {
        fputs(", GPU ", stderr);
        gp_text_plain(stderr, r.gpu);
    }
    fprintf(stderr, "; elapsed %s, about %s left\n", el, left);
    if (r.status == GPC_NATIVE_FAILED || r.status == GPC_ERROR || r.status == GPC_NO_RECORDS ||
        r.status == GPC_NOT_FINISHED)
        gpc_progress_say("    %s: %s", name, r.message ? r.message : "");
    if (r.status == GPC_NATIVE_FAILED) {
        char *first = gpc_progress_first_error(prog_dir);
        if (first)
            gpc_progress_say("    %s: first error line: %s", name, first);
        free(first);
    }
    if (r.status == GPC_PROFILER_DEFECT || r.status == GPC_PROFILER_BROKE_RESULTS) {
        fputc('\n', stderr);
        gpc_progress_say("*** %s in %s: %s ***",
                         r.status == GPC_PROFILER_DEFECT ? "PROFILER DEFECT"
                                                         : "PROFILER BROKE RESULTS",
                         name, r.message ? r.message : "");
        for (i = 0; i < r.n_diffs; i++)
            gpc_diff_text(&r.diffs[i], stderr);
        gpc_validity_text(&r.results, stderr);
        gpc_progress_say("    outputs: %s/{native,profiled}.{stdout,stderr}, gpuprof-*.jsonl",
                         prog_dir);
        fputc('\n', stderr);
    }
    not_ok = r.status != GPC_OK;
    i = r.status == GPC_PROFILER_DEFECT || r.status == GPC_PROFILER_BROKE_RESULTS;
    gpc_result_free(&r);
    return i ? 3 : not_ok ? 4 : 0;
}

void gpc_tally_done(void *arg, size_t prog)
{
    gpc_tally *t = arg;
    struct timespec ts;
    int x;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    t->ran++;
    x = gpc_progress_done(t->dirs[prog], t->suite->progs[prog].name, ++t->done, t->total,
                          ts.tv_sec + ts.tv_nsec * 1e-9 - t->t0, t->ran, t->n_todo, 0);
    t->defect |= x == 3;
    t->not_ok |= x == 4;
    t->failed |= x == 1;
}
