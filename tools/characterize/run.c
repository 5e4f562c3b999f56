/* run.c - see run.h. */
#define _GNU_SOURCE
#include "run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "textfile.h"
#include "util/regex_safe.h"
#include "util/safefile.h"

volatile sig_atomic_t gpc_run_stop;

#define GPC_LINE_SHOWN 300 /* bytes of a differing line kept in the result */

static double gpc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The next line of buf[*pos..len) not matched by an ignore rule: its start
 * and length (no newline), its 1-based number in *lineno.  0 at the end. */
static int gpc_next_line(const gpc_program *p, const char *buf, size_t len, size_t *pos,
                         long *lineno, const char **start, size_t *llen)
{
    while (*pos < len) {
        const char *s = buf + *pos, *nl = memchr(s, '\n', len - *pos);
        size_t n = nl ? (size_t)(nl - s) : len - *pos;
        int skip = 0;
        size_t i;
        *pos += n + (nl ? 1 : 0);
        (*lineno)++;
        if (p && p->n_ignore) {
            /* the rules see the first GP_REGEX_TEXT_MAX bytes: glibc's search
             * time grows with the square of the text */
            char *tmp = strndup(s, n < GP_REGEX_TEXT_MAX ? n : GP_REGEX_TEXT_MAX);
            if (!tmp)
                return -1;
            for (i = 0; i < p->n_ignore && !skip; i++)
                skip = regexec(&p->ignore_re[i], tmp, 0, NULL, 0) == 0;
            free(tmp);
        }
        if (!skip) {
            *start = s;
            *llen = n;
            return 1;
        }
    }
    return 0;
}

static char *gpc_shown(const char *s, size_t n)
{
    return strndup(s, n < GPC_LINE_SHOWN ? n : GPC_LINE_SHOWN);
}

int gpc_compare_text(const gpc_program *p, const char *what, const char *native, size_t nlen,
                     const char *profiled, size_t plen, gpc_result *r)
{
    size_t np = 0, pp = 0, nl = 0, pl = 0;
    long nno = 0, pno = 0, differ = 0, first_n = 0, first_p = 0;
    char *fn = NULL, *fp = NULL;
    int have_first = 0, rc;
    for (;;) {
        const char *ns = NULL, *ps = NULL;
        int hn = gpc_next_line(p, native, nlen, &np, &nno, &ns, &nl);
        int hp = gpc_next_line(p, profiled, plen, &pp, &pno, &ps, &pl);
        if (hn < 0 || hp < 0)
            goto oom;
        if (!hn && !hp)
            break;
        if (hn && hp && nl == pl && memcmp(ns, ps, nl) == 0)
            continue;
        differ++;
        if (!have_first) {
            have_first = 1;
            first_n = hn ? nno : nno + 1;
            first_p = hp ? pno : pno + 1;
            if ((hn && !(fn = gpc_shown(ns, nl))) || (hp && !(fp = gpc_shown(ps, pl))))
                goto oom;
        }
    }
    if (!differ)
        return 0;
    rc = gpc_result_add_diff(r, what, first_n, first_p, fn, fp, differ);
    free(fn);
    free(fp);
    return rc < 0 ? -1 : 1;
oom:
    free(fn);
    free(fp);
    return -1;
}

/* In the child: environment, files, directory, then the shell. */
static void gpc_exec_child(const gpc_program *p, const char *const *extra_env,
                           const char *prepend_preload, int out_fd, int err_fd)
{
    int fd;
    size_t i;
    setpgid(0, 0);
    if ((fd = open("/dev/null", O_RDONLY)) >= 0) {
        dup2(fd, 0);
        close(fd);
    }
    if (dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
        _exit(126);
    for (i = 0; i < p->n_env; i++)
        putenv(p->env[i]);
    for (i = 0; extra_env && extra_env[i]; i++)
        putenv((char *)extra_env[i]);
    if (prepend_preload) {
        const char *old = getenv("LD_PRELOAD");
        char *v = NULL;
        if (old && *old ? asprintf(&v, "%s:%s", prepend_preload, old) < 0
                        : !(v = strdup(prepend_preload)))
            _exit(126);
        setenv("LD_PRELOAD", v, 1);
    }
    if (chdir(p->dir) < 0) {
        fprintf(stderr, "gpuprof-characterize: cannot enter %s: %s\n", p->dir, strerror(errno));
        _exit(126);
    }
    execl("/bin/sh", "sh", "-c", p->cmd, (char *)NULL);
    fprintf(stderr, "gpuprof-characterize: cannot run /bin/sh: %s\n", strerror(errno));
    _exit(127);
}

int gpc_exec_command(const gpc_program *p, const char *const *extra_env,
                     const char *prepend_preload, const char *out_path, const char *err_path,
                     gpc_exec *e, char *err, size_t errlen)
{
    double t0 = gpc_now(), kill_at = 0;
    int status, killed = 0, rc;
    pid_t pid, w;
    struct timespec tick = {0, 1000 * 1000};
    gp_safefile out, errf;
    memset(e, 0, sizeof *e);
    /* the captured outputs are created here, safely, and renamed at the end */
    if (gp_safefile_open(&out, out_path, err, errlen) < 0)
        return -1;
    if (gp_safefile_open(&errf, err_path, err, errlen) < 0) {
        gp_safefile_discard(&out);
        return -1;
    }
    fflush(NULL);
    if ((pid = fork()) < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        gp_safefile_discard(&out);
        gp_safefile_discard(&errf);
        return -1;
    }
    if (pid == 0)
        gpc_exec_child(p, extra_env, prepend_preload, fileno(out.f), fileno(errf.f));
    setpgid(pid, pid); /* also here, so the kill below cannot miss the group */
    for (;;) {
        double now;
        w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            snprintf(err, errlen, "waitpid: %s", strerror(errno));
            gp_safefile_discard(&out);
            gp_safefile_discard(&errf);
            return -1;
        }
        now = gpc_now();
        if (gpc_run_stop && killed < 2) {
            kill(-pid, SIGKILL);
            killed = 2;
        } else if (!killed && now - t0 > p->timeout) {
            kill(-pid, SIGTERM);
            e->timed_out = 1;
            killed = 1;
            kill_at = now + 2;
        } else if (killed == 1 && now > kill_at) {
            kill(-pid, SIGKILL);
            killed = 2;
        }
        /* 1 ms steps for short commands, 20 ms once they run long */
        tick.tv_nsec = now - t0 < 0.5 ? 1000 * 1000 : 20 * 1000 * 1000;
        nanosleep(&tick, NULL);
    }
    e->wall_s = gpc_now() - t0;
    kill(-pid, SIGKILL); /* what the command left running in the background */
    rc = gp_safefile_commit(&out, err, errlen);
    if (gp_safefile_commit(&errf, rc < 0 ? NULL : err, rc < 0 ? 0 : errlen) < 0)
        rc = -1;
    if (gpc_run_stop)
        return -2;
    if (rc < 0)
        return -1;
    e->ran = 1;
    if (WIFEXITED(status)) {
        e->exit_code = WEXITSTATUS(status);
    } else {
        e->exit_code = -1;
        e->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    }
    return 0;
}

static int gpc_exec_failed(const gpc_exec *e)
{
    return e->timed_out || e->signal || e->exit_code != 0;
}

static void gpc_exec_describe(const gpc_exec *e, double timeout, char *buf, size_t len)
{
    if (e->timed_out)
        snprintf(buf, len, "timed out after %g s", timeout);
    else if (e->signal)
        snprintf(buf, len, "killed by signal %d (%s)", e->signal, strsignal(e->signal));
    else
        snprintf(buf, len, "exit status %d", e->exit_code);
}

/* 1 when name is one of ours: the profiler's files, the result, the captured
 * outputs, the compare copies (native.N.*, profiled.N.*), or a temporary
 * file of any of them that an interrupted run left (".NAME.XXXXXX"). */
static int gpc_run_ours(const char *name)
{
    size_t n;
    const char *p;
    if (name[0] == '.')
        name++;
    n = strlen(name);
    if (strncmp(name, "gpuprof-", 8) == 0 || strncmp(name, GPC_RESULT_FILE, strlen(GPC_RESULT_FILE)) == 0)
        return 1;
    p = strncmp(name, "native.", 7) == 0     ? name + 7
        : strncmp(name, "profiled.", 9) == 0 ? name + 9
                                             : NULL;
    if (!p || n == 0)
        return 0;
    if (strncmp(p, "stdout", 6) == 0 || strncmp(p, "stderr", 6) == 0)
        return 1;
    while (*p >= '0' && *p <= '9')
        p++;
    return *p == '.' && p[-1] >= '0' && p[-1] <= '9';
}

/* Removes what a previous run left in the program's result directory (one
 * gpc_run_program created and checked is no link). */
static void gpc_run_clean(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char path[4096];
    if (!d)
        return;
    while ((de = readdir(d))) {
        struct stat st;
        if (!gpc_run_ours(de->d_name))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (lstat(path, &st) == 0 && !S_ISDIR(st.st_mode))
            unlink(path);
    }
    closedir(d);
}

static int gpc_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The profiler's JSON-lines files in dir, sorted. */
static int gpc_run_list_jsonl(const char *dir, gpc_result *r)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    if (!d)
        return -1;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        char **nj;
        if (strncmp(de->d_name, "gpuprof-", 8) != 0 || n < 7 ||
            strcmp(de->d_name + n - 6, ".jsonl") != 0)
            continue;
        if (!(nj = realloc(r->jsonl, (r->n_jsonl + 1) * sizeof *nj)))
            break;
        r->jsonl = nj;
        if (!(nj[r->n_jsonl] = strdup(de->d_name)))
            break;
        r->n_jsonl++;
    }
    closedir(d);
    if (r->n_jsonl)
        qsort(r->jsonl, r->n_jsonl, sizeof *r->jsonl, gpc_cmp_str);
    return 0;
}

static char *gpc_read_or_null(const char *path, size_t *len)
{
    char why[256];
    return gp_textfile_read(path, len, why, sizeof why);
}

/* The first compare file that exists before the native run, or NULL: the
 * command must create them, since characterize takes them away after each
 * run and must never delete a file it did not see created. */
static const char *gpc_compare_present(const gpc_program *p)
{
    char path[4096];
    struct stat st;
    size_t i;
    for (i = 0; i < p->n_compare; i++) {
        snprintf(path, sizeof path, "%s/%s", p->dir, p->compare[i]);
        if (lstat(path, &st) == 0 || errno != ENOENT)
            return p->compare[i];
    }
    return NULL;
}

/* Reads what the last run wrote under each compare name (texts[i], NULL
 * when nothing readable) and moves it into prog_dir as which.N.BASENAME,
 * where it can be looked at: the program's directory is left as it was
 * before the study, and the next run must write the files again.  Returns
 * 0, or -1 when out of memory. */
static int gpc_compare_collect(const gpc_program *p, const char *prog_dir, const char *which,
                               char **texts, size_t *lens)
{
    char path[4096], dst[4096], why[256];
    struct stat st;
    size_t i;
    for (i = 0; i < p->n_compare; i++) {
        const char *base = strrchr(p->compare[i], '/');
        free(texts[i]);
        texts[i] = NULL;
        lens[i] = 0;
        snprintf(path, sizeof path, "%s/%s", p->dir, p->compare[i]);
        if (lstat(path, &st) != 0 || S_ISDIR(st.st_mode))
            continue; /* not written (a directory is not an output file) */
        texts[i] = gpc_read_or_null(path, &lens[i]);
        if (!texts[i] && errno == ENOMEM)
            return -1;
        snprintf(dst, sizeof dst, "%s/%s.%zu.%s", prog_dir, which, i + 1,
                 base ? base + 1 : p->compare[i]);
        if (rename(path, dst) == 0)
            continue;
        /* another file system: a copy, then the original goes */
        if (texts[i]) {
            gp_safefile f;
            if (gp_safefile_open(&f, dst, why, sizeof why) == 0) {
                fwrite(texts[i], 1, lens[i], f.f);
                gp_safefile_commit(&f, why, sizeof why);
            }
        }
        unlink(path);
    }
    return 0;
}

/* One run of the whole comparison, which = "native" (lib NULL) or
 * "profiled": stdout and stderr to prog_dir/which.stdout and .stderr, then
 * the compare files collected.  Returns gpc_exec_command's 0, -1 (msg says
 * why) or -2, or -3 when out of memory. */
static int gpc_run_once(const gpc_program *p, const char *prog_dir, const char *which,
                        char *const *envs, const char *lib, gpc_exec *e, char **texts,
                        size_t *lens, char *msg, size_t msglen)
{
    char out[4096], err[4096];
    int x;
    snprintf(out, sizeof out, "%s/%s.stdout", prog_dir, which);
    snprintf(err, sizeof err, "%s/%s.stderr", prog_dir, which);
    x = gpc_exec_command(p, (const char *const *)envs, lib, out, err, e, msg, msglen);
    if (x < 0)
        return x;
    return gpc_compare_collect(p, prog_dir, which, texts, lens) < 0 ? -3 : 0;
}

static void gpc_compare_free(char **texts, size_t n)
{
    size_t i;
    for (i = 0; texts && i < n; i++)
        free(texts[i]);
    free(texts);
}

int gpc_lib_check(const char *lib, char *err, size_t errlen)
{
    if (strpbrk(lib, " \t\n:")) {
        snprintf(err, errlen,
                 "the profiler library's path '%s' holds a space, tab, newline or colon, where "
                 "the dynamic loader splits LD_PRELOAD (the programs would run unprofiled): use "
                 "a path without them, e.g. a symbolic link, with --lib",
                 lib);
        return -1;
    }
    return 0;
}

int gpc_run_program(const gpc_program *p, const char *prog_dir, const char *lib, const char *gpu,
                    char *err, size_t errlen)
{
    gpc_result r;
    char path[4096], path2[4096], msg[1024], how[128], how2[128];
    char *envs[3] = {NULL, NULL, NULL}, **natives = NULL, **profs = NULL;
    size_t *nat_len = NULL, *prof_len = NULL, i;
    const char *there;
    int rc = -1, ne = 0, x;
    memset(&r, 0, sizeof r);
    msg[0] = 0;
    if (gp_safedir(prog_dir, err, errlen) < 0)
        return -1;
    gpc_run_clean(prog_dir);
    if (!(r.name = strdup(p->name)) || !(r.cmd = strdup(p->cmd)) || !(r.dir = strdup(p->dir)) ||
        (gpu && !(r.gpu = strdup(gpu))))
        goto oom;
    if (gpu && asprintf(&envs[ne++], "CUDA_VISIBLE_DEVICES=%s", gpu) < 0)
        goto oom;
    r.status = GPC_OK;
    natives = calloc(p->n_compare + 1, sizeof *natives);
    profs = calloc(p->n_compare + 1, sizeof *profs);
    nat_len = calloc(p->n_compare + 1, sizeof *nat_len);
    prof_len = calloc(p->n_compare + 1, sizeof *prof_len);
    if (!natives || !profs || !nat_len || !prof_len)
        goto oom;
    if ((there = gpc_compare_present(p))) {
        snprintf(msg, sizeof msg,
                 "compare file %s exists before the run: characterize compares only files the "
                 "command creates, and never deletes or changes one it did not create; remove "
                 "it, or leave it out of compare",
                 there);
        r.status = GPC_ERROR;
        goto save;
    }

    /* 1. natively */
    x = gpc_run_once(p, prog_dir, "native", envs, NULL, &r.native, natives, nat_len, msg,
                     sizeof msg);
    if (x < 0)
        goto run_failed;
    if (gpc_exec_failed(&r.native)) {
        gpc_exec_describe(&r.native, p->timeout, how, sizeof how);
        snprintf(msg, sizeof msg, "fails without the profiler (%s; see native.stderr): skipped",
                 how);
        r.status = GPC_NATIVE_FAILED;
        goto save;
    }
    for (i = 0; i < p->n_compare; i++)
        if (!natives[i]) {
            snprintf(msg, sizeof msg,
                     "wrote no %s without the profiler (listed under compare): skipped",
                     p->compare[i]);
            r.status = GPC_NATIVE_FAILED;
            goto save;
        }

    /* 2. under the profiler */
    snprintf(path, sizeof path, "%s/gpuprof-%%p", prog_dir);
    if (asprintf(&envs[ne++], "GPUPROF_OUTPUT=%s", path) < 0)
        goto oom;
    x = gpc_run_once(p, prog_dir, "profiled", envs, lib, &r.profiled, profs, prof_len, msg,
                     sizeof msg);
    if (x < 0)
        goto run_failed;

    /* 3. the same? */
    if (gpc_exec_failed(&r.profiled) || r.profiled.exit_code != r.native.exit_code) {
        gpc_exec_describe(&r.native, p->timeout, how, sizeof how);
        gpc_exec_describe(&r.profiled, p->timeout, how2, sizeof how2);
        if (gpc_result_add_diff(&r, "exit status", 0, 0, how, how2, 1) < 0)
            goto oom;
    }
    {
        size_t nl = 0, pl = 0;
        char *nat, *prof;
        snprintf(path, sizeof path, "%s/native.stdout", prog_dir);
        snprintf(path2, sizeof path2, "%s/profiled.stdout", prog_dir);
        nat = gpc_read_or_null(path, &nl);
        prof = gpc_read_or_null(path2, &pl);
        x = nat && prof ? gpc_compare_text(p, "stdout", nat, nl, prof, pl, &r) : -1;
        free(nat);
        free(prof);
        if (x < 0) {
            snprintf(msg, sizeof msg, "cannot read back the captured stdout in %s", prog_dir);
            r.status = GPC_ERROR;
            goto save;
        }
    }
    for (i = 0; i < p->n_compare; i++) {
        char what[512];
        snprintf(what, sizeof what, "file %s", p->compare[i]);
        if (!profs[i]) {
            if (gpc_result_add_diff(&r, what, 1, 1, "(the file)", NULL, 1) < 0)
                goto oom;
            continue;
        }
        if (gpc_compare_text(p, what, natives[i], nat_len[i], profs[i], prof_len[i], &r) < 0)
            goto oom;
    }
    if (r.n_diffs) {
        r.status = GPC_PROFILER_DEFECT;
        snprintf(msg, sizeof msg, "%s differs under the profiler only", r.diffs[0].what);
    }
    gpc_run_list_jsonl(prog_dir, &r);
    goto save;

run_failed: /* x from gpc_run_once */
    if (x == -3)
        goto oom;
    if (x == -2)
        goto interrupted;
    r.status = GPC_ERROR;
save:
    if (!(r.message = strdup(msg)))
        goto oom;
    rc = gpc_result_save(&r, prog_dir, err, errlen);
    goto out;
oom:
    snprintf(err, errlen, "out of memory");
    rc = -1;
    goto out;
interrupted:
    snprintf(err, errlen, "interrupted");
    rc = -2;
out:
    gpc_compare_free(natives, p->n_compare);
    gpc_compare_free(profs, p->n_compare);
    free(nat_len);
    free(prof_len);
    free(envs[0]);
    free(envs[1]);
    gpc_result_free(&r);
    return rc;
}
