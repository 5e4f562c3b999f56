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

#include "compare.h"
#include "slurm.h"
#include "util/safefile.h"
#include "validity.h"

volatile sig_atomic_t gpc_run_stop;

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
    double t0 = gpc_compare_now(), kill_at = 0;
    int status, killed = 0, rc;
    pid_t pid, w;
    struct timespec tick = {0, 1000 * 1000};
    gp_safefile out, errf;
    memset(e, 0, sizeof *e);
    /* the captured outputs are created here, safely, and renamed at the end */
    if (gp_safefile_create(&out, out_path, err, errlen) < 0)
        return -1;
    if (gp_safefile_create(&errf, err_path, err, errlen) < 0) {
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
        now = gpc_compare_now();
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
    e->wall_s = gpc_compare_now() - t0;
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
    if (strncmp(name, "gpuprof-", 8) == 0 ||
        strncmp(name, GPC_RESULT_FILE, strlen(GPC_RESULT_FILE)) == 0)
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
        char **nj;
        struct stat st;
        if (!gpc_jsonl_name_ok(de->d_name))
            continue;
        /* only regular files: the summary must not block on a FIFO the
         * program planted under the profiler's name */
        if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
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

/* One run, which = "native" (lib NULL) or "profiled": stdout and stderr to
 * prog_dir/which.stdout and .stderr, then the compare files taken out of the
 * program's directory (outs[i] says what each was).  Returns
 * gpc_exec_command's 0, -1 (msg says why) or -2, or -3 when out of memory. */
static int gpc_run_once(const gpc_program *p, const char *prog_dir, const char *which,
                        char *const *envs, const char *lib, gpc_exec *e, gpc_out *outs, char *msg,
                        size_t msglen)
{
    char out[4096], err[4096];
    size_t i;
    int x;
    snprintf(out, sizeof out, "%s/%s.stdout", prog_dir, which);
    snprintf(err, sizeof err, "%s/%s.stderr", prog_dir, which);
    x = gpc_exec_command(p, (const char *const *)envs, lib, out, err, e, msg, msglen);
    if (x < 0)
        return x;
    for (i = 0; i < p->n_compare; i++)
        if (gpc_compare_collect(p, i, prog_dir, which, &outs[i]) < 0)
            return -3;
    return 0;
}

/* Reads the native and the profiled copy of one output and compares them.
 * Returns gpc_compare_text's values, or 2 when one of them cannot be
 * compared (msg says why). */
static int gpc_run_compare(const gpc_program *p, const char *what, const char *npath,
                           const char *ppath, const gpc_bound *b, gpc_result *r, char *msg,
                           size_t msglen)
{
    char *nat = NULL, *prof = NULL, desc[256];
    size_t nl = 0, pl = 0;
    gpc_out o;
    int x = gpc_compare_read(npath, b, &nat, &nl, &o), side = 0;
    if (x == 0) {
        side = 1;
        x = gpc_compare_read(ppath, b, &prof, &pl, &o);
    }
    if (x == 1) {
        snprintf(msg, msglen, "%s of the %s run is %s: not compared", what,
                 side ? "profiled" : "native", gpc_out_describe(&o, desc, sizeof desc));
        x = 2;
    } else if (x == 0) {
        x = gpc_compare_text(p, what, nat, nl, prof, pl, b, r);
    }
    free(nat);
    free(prof);
    return x;
}

/* Whether the native run left every compare file as a regular file to
 * compare; otherwise the status and message say why not. */
static int gpc_run_natives_ok(const gpc_program *p, const gpc_out *outs, gpc_result *r, char *msg,
                              size_t msglen)
{
    char desc[256];
    size_t i;
    for (i = 0; i < p->n_compare; i++) {
        if (outs[i].kind == GPC_OUT_FILE)
            continue;
        if (outs[i].kind == GPC_OUT_ABSENT) {
            snprintf(msg, msglen,
                     "wrote no %s without the profiler (listed under compare): skipped",
                     p->compare[i]);
            r->status = GPC_NATIVE_FAILED;
        } else {
            snprintf(msg, msglen, "compare file %s of the native run is %s: not compared",
                     p->compare[i], gpc_out_describe(&outs[i], desc, sizeof desc));
            r->status = GPC_ERROR;
        }
        return 0;
    }
    return 1;
}

/* Step 3: exit status, stdout and each compare file, within the program's
 * timeout.  Differences go into r; returns 0, or 2 when something could not
 * be compared (msg says why), or GPC_CMP_NOMEM / _STOPPED / _LATE. */
static int gpc_run_compare_all(const gpc_program *p, const char *prog_dir, const gpc_out *outs,
                               gpc_result *r, char *msg, size_t msglen)
{
    gpc_bound b = {gpc_compare_now() + p->timeout, &gpc_run_stop};
    char how[128], how2[128], np[4096], pp[4096], what[512];
    size_t i;
    int x;
    if (gpc_exec_failed(&r->profiled) || r->profiled.exit_code != r->native.exit_code) {
        gpc_exec_describe(&r->native, p->timeout, how, sizeof how);
        gpc_exec_describe(&r->profiled, p->timeout, how2, sizeof how2);
        if (gpc_result_add_diff(r, "exit status", 0, 0, how, how2, 1) < 0)
            return GPC_CMP_NOMEM;
    }
    snprintf(np, sizeof np, "%s/native.stdout", prog_dir);
    snprintf(pp, sizeof pp, "%s/profiled.stdout", prog_dir);
    if ((x = gpc_run_compare(p, "stdout", np, pp, &b, r, msg, msglen)) < 0 || x == 2)
        return x;
    for (i = 0; i < p->n_compare; i++) {
        const char *slash = strrchr(p->compare[i], '/'), *base = slash ? slash + 1 : p->compare[i];
        snprintf(what, sizeof what, "file %s", p->compare[i]);
        if (outs[i].kind == GPC_OUT_ABSENT || outs[i].kind == GPC_OUT_NOT_REGULAR) {
            /* written natively, not (as a regular file) under the profiler */
            char kind[128] = "";
            if (outs[i].kind == GPC_OUT_NOT_REGULAR)
                snprintf(kind, sizeof kind, "(%s, not a regular file)", outs[i].what);
            if (gpc_result_add_diff(r, what, 1, 1, "(the file)", kind[0] ? kind : NULL, 1) < 0)
                return GPC_CMP_NOMEM;
            continue;
        }
        snprintf(np, sizeof np, "%s/native.%zu.%s", prog_dir, i + 1, base);
        snprintf(pp, sizeof pp, "%s/profiled.%zu.%s", prog_dir, i + 1, base);
        if ((x = gpc_run_compare(p, what, np, pp, &b, r, msg, msglen)) < 0 || x == 2)
            return x;
    }
    return 0;
}

/* The profiler says it broke the program's results: a status of its own
 * when the outputs were the same (a program that does not check CUDA's
 * errors goes on after its kernels stopped running), else said with the
 * difference. */
static void gpc_run_broken(gpc_result *r, char *msg, size_t len)
{
    const gpc_validity *v = &r->results;
    char where[64] = "";
    size_t n = strlen(msg);
    if (v->from_launch >= 0)
        snprintf(where, sizeof where, " from launch %ld", v->from_launch);
    if (r->status == GPC_OK) {
        r->status = GPC_PROFILER_BROKE_RESULTS;
        snprintf(msg, len,
                 "its outputs were the same, but the profiler broke its results%s%s%s%s: %s", where,
                 v->kernel ? " (kernel " : "", v->kernel ? v->kernel : "", v->kernel ? ")" : "",
                 v->reason);
    } else if (n < len) {
        snprintf(msg + n, len - n, "; the profiler also reports broken results%s: %s", where,
                 v->reason);
    }
}

int gpc_run_program(const gpc_program *p, const char *prog_dir, const char *lib, const char *gpu,
                    char *err, size_t errlen)
{
    gpc_result r;
    char path[4096], msg[2048], how[128], desc[128];
    char *envs[3] = {NULL, NULL, NULL};
    gpc_out *outs = NULL;
    size_t i;
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
    r.slurm_job = gpc_slurm_job_here(&r.slurm_node); /* run as a task of `run --slurm` */
    r.status = GPC_OK;
    if (!(outs = calloc(p->n_compare + 1, sizeof *outs)))
        goto oom;
    for (i = 0; i < p->n_compare; i++)
        if (gpc_compare_present(p, i, desc, sizeof desc)) {
            snprintf(msg, sizeof msg,
                     "compare file %s %s before the run: characterize compares only files the "
                     "command creates, and never deletes or changes one it did not create; "
                     "remove it, or leave it out of compare",
                     p->compare[i], desc);
            r.status = GPC_ERROR;
            goto save;
        }

    /* 1. natively */
    x = gpc_run_once(p, prog_dir, "native", envs, NULL, &r.native, outs, msg, sizeof msg);
    if (x < 0)
        goto run_failed;
    if (gpc_exec_failed(&r.native)) {
        gpc_exec_describe(&r.native, p->timeout, how, sizeof how);
        snprintf(msg, sizeof msg, "fails without the profiler (%s; see native.stderr): skipped",
                 how);
        r.status = GPC_NATIVE_FAILED;
        goto save;
    }
    if (!gpc_run_natives_ok(p, outs, &r, msg, sizeof msg))
        goto save;

    /* 2. under the profiler */
    snprintf(path, sizeof path, "%s/gpuprof-%%p", prog_dir);
    if (asprintf(&envs[ne++], "GPUPROF_OUTPUT=%s", path) < 0)
        goto oom;
    x = gpc_run_once(p, prog_dir, "profiled", envs, lib, &r.profiled, outs, msg, sizeof msg);
    if (x < 0)
        goto run_failed;

    /* 3. the same? */
    x = gpc_run_compare_all(p, prog_dir, outs, &r, msg, sizeof msg);
    if (x == GPC_CMP_NOMEM)
        goto oom;
    if (x == GPC_CMP_STOPPED)
        goto interrupted;
    if (x == GPC_CMP_LATE || x == 2) {
        if (x == GPC_CMP_LATE)
            snprintf(msg, sizeof msg,
                     "comparing the outputs took longer than the timeout (%g s): not compared",
                     p->timeout);
        r.status = GPC_ERROR;
        goto save;
    }
    if (r.n_diffs) {
        r.status = GPC_PROFILER_DEFECT;
        snprintf(msg, sizeof msg, "%s differs under the profiler only", r.diffs[0].what);
    }
    gpc_run_list_jsonl(prog_dir, &r);
    if (gpc_validity_read(&r.results, prog_dir, r.jsonl, r.n_jsonl) < 0)
        goto oom;
    snprintf(path, sizeof path, "%s/profiled.stderr", prog_dir);
    if (gpc_validity_stderr(&r.results, path) < 0)
        goto oom;
    if (r.results.known && !r.results.valid)
        gpc_run_broken(&r, msg, sizeof msg);
    if (r.status == GPC_OK && r.results.records == 0) {
        /* nothing measured is not a success: the study would count the
         * program as characterized with no kernel */
        r.status = GPC_NO_RECORDS;
        if (r.n_jsonl == 0)
            snprintf(msg, sizeof msg,
                     "the profiled run wrote no profiler file (gpuprof-*.jsonl): nothing was "
                     "profiled (a program that launches no kernel, or a profiler that could not "
                     "start or write: see profiled.stderr)");
        else
            snprintf(msg, sizeof msg,
                     "the profiler's file%s (%zu) hold%s no launch record: nothing was profiled "
                     "(see profiled.stderr)",
                     r.n_jsonl == 1 ? "" : "s", r.n_jsonl, r.n_jsonl == 1 ? "s" : "");
    }
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
    free(outs);
    free(envs[0]);
    free(envs[1]);
    gpc_result_free(&r);
    return rc;
}
