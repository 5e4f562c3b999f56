/* disasm.c - see disasm.h. */
#define _GNU_SOURCE
#include "disasm.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "metrics/instructions/sass_listing.h"
#include "util/textio.h"

extern char **environ;

static int gp_disasm_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *gp_disasm_find(const char *explicit_path, char *why, size_t len)
{
    const char *home = getenv("CUDA_HOME"), *path = getenv("PATH");
    char buf[4096];
    if (explicit_path) {
        if (gp_disasm_executable(explicit_path))
            return strdup(explicit_path);
        snprintf(why, len, "--nvdisasm %.200s is not an executable file", explicit_path);
        return NULL;
    }
    if (home && home[0]) {
        snprintf(buf, sizeof buf, "%s/bin/nvdisasm", home);
        if (gp_disasm_executable(buf))
            return strdup(buf);
    }
    while (path && *path) {
        size_t n = strcspn(path, ":");
        if (n && n < sizeof buf - 10) {
            snprintf(buf, sizeof buf, "%.*s/nvdisasm", (int)n, path);
            if (gp_disasm_executable(buf))
                return strdup(buf);
        }
        path += n + (path[n] == ':');
    }
    snprintf(why, len,
             "no nvdisasm (give --nvdisasm PATH, set CUDA_HOME, or put the CUDA "
             "toolkit's bin on the PATH); instructions are shown by their offset");
    return NULL;
}

static double gp_disasm_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Runs tool -b sm file; its standard output into *out (malloc'd), at most
 * max bytes, within timeout seconds.  0, or -1 with the reason. */
static int gp_disasm_run(const char *tool, const char *sm, const char *file, size_t max,
                         double timeout, char **out, size_t *out_len, char *why, size_t len)
{
    posix_spawn_file_actions_t fa;
    char *argv[] = {(char *)tool, "-b", (char *)sm, (char *)file, NULL};
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int fds[2], status = 0, rc = -1, killed = 0, spawned = 0;
    pid_t pid;
    double deadline = gp_disasm_now() + timeout;
    *out = NULL;
    *out_len = 0;
    if (pipe2(fds, O_CLOEXEC) < 0) {
        snprintf(why, len, "pipe: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    errno = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (errno) {
        snprintf(why, len, "cannot run it: %s", strerror(errno));
        close(fds[0]);
        return -1;
    }
    spawned = 1;
    for (;;) {
        struct pollfd p = {fds[0], POLLIN, 0};
        double left = deadline - gp_disasm_now();
        ssize_t got;
        if (left <= 0) {
            snprintf(why, len, "it ran over %d s", (int)timeout);
            killed = 1;
            break;
        }
        if (poll(&p, 1, (int)(left * 1000) + 1) < 0) {
            if (errno == EINTR)
                continue;
            snprintf(why, len, "poll: %s", strerror(errno));
            killed = 1;
            break;
        }
        if (!p.revents)
            continue;
        if (cap - n < 65536) {
            char *nb;
            cap = cap ? 2 * cap : 262144;
            if (!(nb = realloc(buf, cap + 1))) {
                snprintf(why, len, "out of memory");
                killed = 1;
                break;
            }
            buf = nb;
        }
        got = read(fds[0], buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
        if (n > max) { /* bounded: a listing never needs this much */
            snprintf(why, len, "its output passed %zu bytes", max);
            killed = 1;
            break;
        }
    }
    close(fds[0]);
    if (killed)
        kill(pid, SIGKILL);
    while (spawned && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!killed) {
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
            rc = 0;
        else if (WIFEXITED(status))
            snprintf(why, len, "it exited with status %d", WEXITSTATUS(status));
        else
            snprintf(why, len, "it was killed by signal %d", WTERMSIG(status));
    }
    if (rc == 0) {
        buf = buf ? buf : malloc(1);
        if (!buf) {
            snprintf(why, len, "out of memory");
            return -1;
        }
        buf[n] = 0;
        *out = buf;
        *out_len = n;
    } else {
        free(buf);
    }
    return rc;
}

/* Writes the code to dir/code.bin, a file of our own. */
static int gp_disasm_write(const char *path, const unsigned char *code, size_t n, char *why,
                           size_t len)
{
    int fd;
    size_t done = 0;
    unlink(path);
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(why, len, "cannot write its temporary file: %s", strerror(errno));
        return -1;
    }
    while (done < n) {
        ssize_t w = write(fd, code + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(why, len, "cannot write its temporary file: %s", strerror(errno));
            close(fd);
            return -1;
        }
        done += (size_t)w;
    }
    return close(fd);
}

/* One function: its text set, or its sass_why. */
static int gp_disasm_one(const char *tool, const char *path, gp_source_func *f, double timeout,
                         double budget_end, char *why, size_t len)
{
    char sm[16], *out = NULL;
    size_t out_len, i;
    gp_sass_listing l;
    const gp_sass_func *lf;
    double left = budget_end - gp_disasm_now();
    long n_ins = f->code_bytes / 16;
    int got = 0;
    if (left <= 0) {
        snprintf(why, len, "not disassembled: the report's %d s for disassembly were spent",
                 GP_DISASM_BUDGET_S);
        return -1;
    }
    /* the SM version of its device record; without one, the H100 the report
     * assumes then */
    snprintf(sm, sizeof sm, "SM%d%d", f->cc_major ? f->cc_major : 9, f->cc_major ? f->cc_minor : 0);
    if (gp_disasm_write(path, f->code, (size_t)f->code_bytes, why, len) < 0)
        return -1;
    if (gp_disasm_run(tool, sm, path, (size_t)(n_ins + 16) * GP_DISASM_OUT_PER_INSTR,
                      left < timeout ? left : timeout, &out, &out_len, why, len) < 0)
        return -1;
    if (gp_sass_listing_parse(out, out_len, &l) < 0) {
        free(out);
        snprintf(why, len, "out of memory");
        return -1;
    }
    free(out);
    lf = l.n ? &l.funcs[0] : NULL;
    for (i = 0; lf && i < lf->n; i++)
        got += gp_source_text_set_sass(f, lf->ins[i].pc, lf->ins[i].text) == 0;
    gp_sass_listing_free(&l);
    if (!got) {
        snprintf(why, len, "nvdisasm printed no instruction for %s", sm);
        return -1;
    }
    return 0;
}

int gp_disasm_source(gp_source *s, const char *explicit_path, double timeout_s, FILE *warn)
{
    char why[512], dir[4096], path[4200], *tool;
    const char *tmp = getenv("TMPDIR");
    double end = gp_disasm_now() + GP_DISASM_BUDGET_S;
    size_t i;
    int done = 0, said = 0;
    if (!s || !s->n_funcs)
        return 0;
    if (!(tool = gp_disasm_find(explicit_path, why, sizeof why))) {
        free(s->disasm);
        s->disasm = strdup(why);
        for (i = 0; i < s->n_funcs; i++)
            gp_source_text_set_sass_why(&s->funcs[i], "no disassembler");
        if (explicit_path && warn) { /* the path is the user's: shown escaped */
            fputs("gpuprof-report: ", warn);
            gp_text_plain(warn, why);
            fputc('\n', warn);
        }
        return 0;
    }
    free(s->disasm);
    s->disasm = strdup(tool);
    /* a directory of our own (mode 0700): no one else can swap the file */
    snprintf(dir, sizeof dir, "%s/gpuprof-sass-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        snprintf(why, sizeof why, "cannot make a temporary directory: %s", strerror(errno));
        for (i = 0; i < s->n_funcs; i++)
            gp_source_text_set_sass_why(&s->funcs[i], why);
        free(tool);
        return 0;
    }
    snprintf(path, sizeof path, "%s/code.bin", dir);
    for (i = 0; i < s->n_funcs; i++) {
        gp_source_func *f = &s->funcs[i];
        if (!f->code) {
            gp_source_text_set_sass_why(f, f->code_why ? f->code_why : "no machine code");
            continue;
        }
        if (gp_disasm_one(tool, path, f, timeout_s > 0 ? timeout_s : GP_DISASM_TIMEOUT_S, end, why,
                          sizeof why) == 0) {
            done++;
            continue;
        }
        gp_source_text_set_sass_why(f, why);
        if (!said++ && warn) {
            char msg[1024], name[160];
            snprintf(msg, sizeof msg, "%s on %s: %s (its instructions are shown by offset)", tool,
                     gp_text_plain_buf(name, sizeof name, f->kernel), why);
            fputs("gpuprof-report: ", warn);
            gp_text_plain(warn, msg);
            fputc('\n', warn);
        }
    }
    unlink(path);
    rmdir(dir);
    free(tool);
    return done;
}
