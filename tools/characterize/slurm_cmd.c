/* slurm_cmd.c - the verbs of `run --slurm` (slurm_int.h, slurm.h): Slurm's
 * commands run, jobs submitted and recorded, tasks cancelled, and where a
 * task of a job finds itself.  slurm_watch.c follows the tasks; slurm.c
 * starts it all. */
#define _GNU_SOURCE
#include "slurm.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "result.h"
#include "run.h"
#include "slurm_int.h"
#include "metrics/records/textfile.h"
#include "util/safefile.h"

/* Seconds a Slurm command may take (sbatch retries while slurmctld is
 * busy; a controller that never answers must not hang the run). */
#define GPC_SLURM_CMD_TIMEOUT 120.0

static int gpc_slurm_on_path(const char *cmd)
{
    const char *path = getenv("PATH");
    char buf[4096];
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? path : ".", cmd);
        if (access(buf, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

int gpc_slurm_check(char *err, size_t errlen)
{
    static const char *const cmds[] = {"sbatch", "squeue", "scancel"};
    size_t i;
    for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!gpc_slurm_on_path(cmds[i])) {
            snprintf(err, errlen,
                     "--slurm: Slurm's %s is not on the PATH (the programs go to the cluster "
                     "through sbatch, squeue and scancel): run this on a machine of the "
                     "cluster, or without --slurm",
                     cmds[i]);
            return -1;
        }
    return 0;
}

char *gpc_slurm_job_here(char **node)
{
    const char *job = getenv("SLURM_JOB_ID"), *arr = getenv("SLURM_ARRAY_JOB_ID"),
               *task = getenv("SLURM_ARRAY_TASK_ID"), *n = getenv("SLURMD_NODENAME");
    char *s = NULL;
    *node = NULL;
    if (!job || !*job)
        return NULL;
    if (arr && *arr && task && *task ? asprintf(&s, "%s_%s", arr, task) < 0 : !(s = strdup(job)))
        return NULL;
    if (n && *n)
        *node = strdup(n);
    return s;
}

int gpc_slurm_cmd(const gpc_slurm_ctx *c, char *const argv[], char **out, char **errout)
{
    char opath[4200], epath[4200], why[256];
    double t0, now;
    struct timespec tick = {0, 20 * 1000 * 1000};
    int ofd, efd, status = 0, rc = -1;
    pid_t pid;
    size_t len;
    *out = *errout = NULL;
    snprintf(opath, sizeof opath, "%s/cmd.stdout", c->dir);
    snprintf(epath, sizeof epath, "%s/cmd.stderr", c->dir);
    unlink(opath);
    unlink(epath);
    ofd = open(opath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    efd = open(epath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (ofd < 0 || efd < 0)
        goto out;
    fflush(NULL);
    if ((pid = fork()) < 0)
        goto out;
    if (pid == 0) {
        int nul = open("/dev/null", O_RDONLY);
        setpgid(0, 0);
        if (nul >= 0)
            dup2(nul, 0);
        dup2(ofd, 1);
        dup2(efd, 2);
        execvp(argv[0], argv);
        fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    t0 = gpc_slurm_now();
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            goto out;
        now = gpc_slurm_now();
        if (now - t0 > GPC_SLURM_CMD_TIMEOUT) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            dprintf(efd, "%s: no answer within %.0f s\n", argv[0], GPC_SLURM_CMD_TIMEOUT);
            status = 124 << 8;
            break;
        }
        nanosleep(&tick, NULL);
    }
    rc = WIFEXITED(status) ? WEXITSTATUS(status)
                           : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
out:
    if (ofd >= 0)
        close(ofd);
    if (efd >= 0)
        close(efd);
    *out = gp_textfile_read_max(opath, "output", 64 << 20, &len, why, sizeof why);
    *errout = gp_textfile_read_max(epath, "output", 1 << 20, &len, why, sizeof why);
    if (!*out)
        *out = strdup("");
    if (!*errout)
        *errout = strdup("");
    return rc;
}

/* The first line of a command's error output with text, for a message. */
void gpc_slurm_first_line(const char *text, char *buf, size_t len)
{
    const char *p = text ? text : "";
    while (*p == '\n' || *p == ' ')
        p++;
    snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
    if (!buf[0])
        snprintf(buf, len, "(it said nothing)");
}

double gpc_slurm_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* "0-3,7,9" for the sorted task numbers t[0..n). */
static char *gpc_slurm_array_spec(const size_t *t, size_t n)
{
    char *buf = NULL;
    size_t len = 0, i, j;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    for (i = 0; i < n; i = j) {
        for (j = i + 1; j < n && t[j] == t[j - 1] + 1; j++)
            ;
        fprintf(f, "%s%zu", i ? "," : "", t[i]);
        if (j - i > 1)
            fprintf(f, "-%zu", t[j - 1]);
    }
    return fclose(f) == 0 ? buf : (free(buf), NULL);
}

/* s for a shell script, in single quotes. */
static void gpc_slurm_sh_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

/* The batch script of one array: its task I runs program base + I. */
static int gpc_slurm_script(const gpc_slurm_ctx *c, size_t base, const char *path, char *err,
                            size_t errlen)
{
    const gpc_slurm_opts *o = c->o;
    gp_safefile sf;
    if (gp_safefile_open(&sf, path, err, errlen) < 0)
        return -1;
    fprintf(sf.f,
            "#!/bin/sh\n# written by gpuprof-characterize run --slurm: task I of the array "
            "runs program %zu + I of the suite\n",
            base);
    fprintf(sf.f, "i=$((SLURM_ARRAY_TASK_ID + %zu))\n", base);
    gpc_slurm_sh_quote(sf.f, o->self);
    fputs(" run ", sf.f);
    gpc_slurm_sh_quote(sf.f, o->suite);
    fputs(" --index \"$i\" -o ", sf.f);
    gpc_slurm_sh_quote(sf.f, o->outdir);
    fputs(" --force --no-summary --lib ", sf.f);
    gpc_slurm_sh_quote(sf.f, o->lib);
    fputs(o->gpu_check ? "" : " --no-gpu-check", sf.f);
    /* 3 and 4 are a program's statuses, in its result: the task did its work */
    fputs("\nrc=$?\n[ \"$rc\" -eq 3 ] || [ \"$rc\" -eq 4 ] && rc=0\nexit \"$rc\"\n", sf.f);
    return gp_safefile_commit(&sf, err, errlen);
}

int gpc_slurm_submit(gpc_slurm_ctx *c, size_t base, const size_t *tasks, size_t n, char *err,
                     size_t errlen)
{
    const gpc_slurm_opts *o = c->o;
    char script[4200], *spec = gpc_slurm_array_spec(tasks, n), *array = NULL, *output = NULL,
                       *name = NULL, *out = NULL, *errout = NULL, line[512];
    const char *slash = strrchr(o->suite, '/');
    char **argv = calloc(o->n_sbatch + 10, sizeof *argv);
    size_t a = 0, i;
    int rc = -1, x;
    snprintf(script, sizeof script, "%s/run-%zu.sh", c->dir, base);
    if (!spec || !argv || asprintf(&array, "--array=%s", spec) < 0 ||
        asprintf(&output, "--output=%s/%%A_%%a.out", c->dir) < 0 ||
        asprintf(&name, "--job-name=gpc-%s", slash ? slash + 1 : o->suite) < 0) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (gpc_slurm_script(c, base, script, err, errlen) < 0)
        goto out;
    argv[a++] = "sbatch";
    argv[a++] = "--parsable";
    argv[a++] = array;
    argv[a++] = name;
    argv[a++] = output;
    /* a job Slurm would put back in the queue after a node failure or a
     * preemption would leave the program waiting for nodes that may not
     * come back: it ends, its program is not_finished, --resume runs it
     * (the user's --requeue, later on the line, wins) */
    argv[a++] = "--no-requeue";
    for (i = 0; i < o->n_sbatch; i++)
        argv[a++] = o->sbatch[i];
    argv[a++] = script;
    argv[a] = NULL;
    x = gpc_slurm_cmd(c, argv, &out, &errout);
    if (x != 0) {
        gpc_slurm_first_line(errout, line, sizeof line);
        snprintf(err, errlen, "sbatch refused the job (exit status %d): %s", x, line);
        goto out;
    }
    out[strcspn(out, ";\n")] = 0; /* "JOBID" or "JOBID;CLUSTER" */
    if (!out[0] || strspn(out, "0123456789") != strlen(out)) {
        snprintf(err, errlen, "sbatch gave no job id (it said '%.100s')", out);
        goto out;
    }
    rc = gpc_slurm_add_job(c, out, base, tasks, n);
    if (rc < 0)
        snprintf(err, errlen, "out of memory");
out:
    free(spec);
    free(array);
    free(output);
    free(name);
    free(out);
    free(errout);
    free(argv);
    return rc;
}

void gpc_slurm_cancel_all(gpc_slurm_ctx *c)
{
    char **argv = calloc(c->n_jobs + 2, sizeof *argv), *out = NULL, *errout = NULL;
    size_t i;
    if (!argv || !c->n_jobs) {
        free(argv);
        return;
    }
    argv[0] = "scancel";
    for (i = 0; i < c->n_jobs; i++)
        argv[i + 1] = c->jobs[i].id;
    gpc_slurm_cmd(c, argv, &out, &errout);
    free(out);
    free(errout);
    free(argv);
}

void gpc_slurm_cancel_task(gpc_slurm_ctx *c, const char *task)
{
    char *argv[3] = {"scancel", (char *)task, NULL}, *out = NULL, *errout = NULL;
    gpc_slurm_cmd(c, argv, &out, &errout);
    free(out);
    free(errout);
}

int gpc_slurm_add_job(gpc_slurm_ctx *c, const char *id, size_t base, const size_t *tasks, size_t n)
{
    gpc_slurm_job *nj = realloc(c->jobs, (c->n_jobs + 1) * sizeof *nj);
    gpc_slurm_task *nt;
    size_t i;
    if (!nj)
        return -1;
    c->jobs = nj;
    if (!(nt = realloc(c->tasks, (c->n_tasks + n) * sizeof *nt)))
        return -1;
    c->tasks = nt;
    snprintf(nj[c->n_jobs].id, sizeof nj[c->n_jobs].id, "%s", id);
    nj[c->n_jobs].base = base;
    for (i = 0; i < n; i++) {
        gpc_slurm_task *t = &nt[c->n_tasks + i];
        memset(t, 0, sizeof *t);
        t->prog = base + tasks[i];
        t->job = c->n_jobs;
        t->task = tasks[i];
        snprintf(t->state, sizeof t->state, "PENDING");
    }
    c->n_jobs++;
    c->n_tasks += n;
    return 0;
}
