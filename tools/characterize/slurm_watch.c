/* slurm_watch.c - gpc_slurm_run (slurm.h): the programs submitted, then
 * followed until each has a result.  A task's state comes from squeue
 * (which keeps ended jobs for MinJobAge, 300 s by default), else from sacct
 * where Slurm keeps accounts; a task Slurm no longer knows at all, or a
 * queue that cannot be read for GPC_SLURM_GIVE_UP seconds, ends the wait
 * instead of hanging it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "result.h"
#include "run.h"
#include "slurm_int.h"
#include "util/safefile.h"

#define GPC_SLURM_GIVE_UP 600.0 /* s of a queue that cannot be read */
#define GPC_SLURM_MISSES 3      /* looks without a trace of a task before it is given up */
#define GPC_SLURM_GRACE 60.0    /* s a COMPLETED task's result may take to be seen here */

/* States after which a task does nothing more. */
static const char *const gpc_slurm_ended[] = {
    "COMPLETED", "FAILED",   "CANCELLED",     "TIMEOUT", "NODE_FAIL",   "PREEMPTED",
    "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "REVOKED", "SPECIAL_EXIT"};
/* Reasons a pending task waits for something that will not come by itself:
 * it is cancelled and its program is not_finished with that reason. */
static const char *const gpc_slurm_never[] = {
    "PartitionTimeLimit", "PartitionNodeLimit", "BadConstraints", "InvalidAccount",
    "InvalidQOS",         "AccountNotAllowed",  "QOSNotAllowed",  "DependencyNeverSatisfied",
    "InactiveLimit",      "PartitionConfig"};

static int gpc_slurm_in(const char *s, const char *const *list, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strncmp(s, list[i], strlen(list[i])) == 0)
            return 1;
    return 0;
}

static void gpc_slurm_result_path(const gpc_slurm_ctx *c, size_t prog, const char *name, char *buf,
                                  size_t len)
{
    snprintf(buf, len, "%s/%s", c->o->dirs[prog], name);
}

/* Opened, not only looked up: on a network file system an open asks the
 * server, where a lookup may answer from a cache that predates the node's
 * write. */
static int gpc_slurm_has_result(const gpc_slurm_ctx *c, size_t prog)
{
    char path[4096];
    struct stat st;
    int fd, yes;
    gpc_slurm_result_path(c, prog, GPC_RESULT_FILE, path, sizeof path);
    if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
        return 0;
    yes = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    close(fd);
    return yes;
}

/* The last line with text of a task's output (what the job said last). */
static void gpc_slurm_last_line(const gpc_slurm_ctx *c, const gpc_slurm_task *t, char *buf,
                                size_t len)
{
    char path[4200], line[512];
    FILE *f;
    buf[0] = 0;
    snprintf(path, sizeof path, "%s/%s_%zu.out", c->dir, c->jobs[t->job].id, t->task);
    if (!(f = fopen(path, "r")))
        return;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[strspn(line, " \t")])
            snprintf(buf, len, "%s", line);
    }
    fclose(f);
}

/* A task that ended without its program's result: a result that says so,
 * with Slurm's state and reason. */
static int gpc_slurm_not_finished(gpc_slurm_ctx *c, gpc_slurm_task *t, const char *why, char *err,
                                  size_t errlen)
{
    const gpc_program *p = &c->o->parsed->progs[t->prog];
    gpc_result r;
    char job[64], msg[2048], last[512], how[256];
    int rc;
    memset(&r, 0, sizeof r);
    snprintf(job, sizeof job, "%s_%zu", c->jobs[t->job].id, t->task);
    /* what the job said last tells why it failed; a job Slurm ended has
     * only its own words for that */
    if (!why && (!strcmp(t->state, "FAILED") || !strcmp(t->state, "COMPLETED") ||
                 !strcmp(t->state, "OUT_OF_MEMORY")))
        gpc_slurm_last_line(c, t, last, sizeof last);
    else
        last[0] = 0;
    if (why)
        snprintf(how, sizeof how, "%s", why);
    else if (strcmp(t->state, "CANCELLED") == 0)
        snprintf(how, sizeof how, "was cancelled (CANCELLED)");
    else if (strcmp(t->state, "TIMEOUT") == 0)
        snprintf(how, sizeof how, "reached its time limit (TIMEOUT)");
    else if (strcmp(t->state, "NODE_FAIL") == 0)
        snprintf(how, sizeof how, "lost its node (NODE_FAIL)");
    else if (strcmp(t->state, "PREEMPTED") == 0)
        snprintf(how, sizeof how, "was preempted (PREEMPTED)");
    else
        snprintf(how, sizeof how, "ended %s", t->state);
    snprintf(msg, sizeof msg,
             "its Slurm job %s %s%s%s%s before the program finished: no result (run again with "
             "--resume)%s%s",
             job, how, t->reason[0] && strcmp(t->reason, "None") ? " (reason: " : "",
             t->reason[0] && strcmp(t->reason, "None") ? t->reason : "",
             t->reason[0] && strcmp(t->reason, "None") ? ")" : "", last[0] ? "; its output: " : "",
             last);
    r.status = GPC_NOT_FINISHED;
    r.name = strdup(p->name);
    r.cmd = strdup(p->cmd);
    r.dir = strdup(p->dir);
    r.message = strdup(msg);
    r.slurm_job = strdup(job);
    r.slurm_state = strdup(t->state);
    r.slurm_reason = t->reason[0] && strcmp(t->reason, "None") ? strdup(t->reason) : NULL;
    r.slurm_node = t->node[0] && strcmp(t->node, "(null)") ? strdup(t->node) : NULL;
    if (!r.name || !r.cmd || !r.dir || !r.message || !r.slurm_job || !r.slurm_state) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    } else {
        rc = gp_safedir(c->o->dirs[t->prog], err, errlen) < 0
                 ? -1
                 : gpc_result_save(&r, c->o->dirs[t->prog], err, errlen);
    }
    gpc_result_free(&r);
    return rc;
}

static gpc_slurm_task *gpc_slurm_find(gpc_slurm_ctx *c, const char *id, size_t task)
{
    size_t i;
    for (i = 0; i < c->n_tasks; i++)
        if (c->tasks[i].task == task && strcmp(c->jobs[c->tasks[i].job].id, id) == 0)
            return &c->tasks[i];
    return NULL;
}

/* Reads "JOB_TASK|STATE|REASON|NODES" lines into the tasks; returns how
 * many tasks were seen (seen[] set for them). */
static size_t gpc_slurm_parse(gpc_slurm_ctx *c, char *text, char *seen)
{
    char *line, *save = NULL;
    size_t n = 0;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[4] = {NULL}, *p = line, *us;
        gpc_slurm_task *t;
        int k;
        for (k = 0; k < 4 && p; k++) {
            f[k] = p;
            if ((p = strchr(p, '|')))
                *p++ = 0;
        }
        if (k < 2 || !(us = strchr(f[0], '_')))
            continue; /* not one array task (a pending range, a job step) */
        *us = 0;
        if (!(t = gpc_slurm_find(c, f[0], strtoul(us + 1, NULL, 10))))
            continue;
        snprintf(t->state, sizeof t->state, "%.*s", (int)strcspn(f[1], " +"), f[1]);
        snprintf(t->reason, sizeof t->reason, "%s", f[2] ? f[2] : "");
        snprintf(t->node, sizeof t->node, "%s", f[3] ? f[3] : "");
        seen[t - c->tasks] = 1;
        n++;
    }
    return n;
}

/* The job ids, comma-separated. */
static char *gpc_slurm_ids(const gpc_slurm_ctx *c)
{
    char *s = NULL;
    size_t len = 0, i;
    FILE *f = open_memstream(&s, &len);
    if (!f)
        return NULL;
    for (i = 0; i < c->n_jobs; i++)
        fprintf(f, "%s%s", i ? "," : "", c->jobs[i].id);
    return fclose(f) == 0 ? s : (free(s), NULL);
}

/* One look at the queue: squeue, then sacct for the tasks squeue no longer
 * lists.  Returns 0, or -1 when squeue could not be read (err says why). */
static int gpc_slurm_look(gpc_slurm_ctx *c, char *seen, char *err, size_t errlen)
{
    char *ids = gpc_slurm_ids(c), *out = NULL, *errout = NULL, line[512];
    char *sq[] = {"squeue", "-h", "-r", "--states=all", "-j", ids, "-o", "%i|%T|%r|%N", NULL};
    size_t i, missing = 0;
    int x;
    if (!ids) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memset(seen, 0, c->n_tasks);
    x = gpc_slurm_cmd(c, sq, &out, &errout);
    /* a job squeue no longer knows is "Invalid job id": not a failure */
    if (x != 0 && !strstr(errout, "Invalid job id")) {
        gpc_slurm_first_line(errout, line, sizeof line);
        snprintf(err, errlen, "squeue (exit status %d): %s", x, line);
        free(ids);
        free(out);
        free(errout);
        return -1;
    }
    gpc_slurm_parse(c, out, seen);
    for (i = 0; i < c->n_tasks; i++)
        missing += !c->tasks[i].done && !seen[i];
    if (missing && c->have_sacct != 0) {
        char *sa[] = {"sacct", "-n", "-P", "-X", "-j", ids, "-o", "JobID,State,Reason,NodeList",
                      NULL};
        free(out);
        free(errout);
        x = gpc_slurm_cmd(c, sa, &out, &errout);
        c->have_sacct = x == 0 && !strstr(errout, "disabled");
        if (c->have_sacct)
            gpc_slurm_parse(c, out, seen);
    }
    free(ids);
    free(out);
    free(errout);
    return 0;
}

/* Moves the results of the programs about to run aside (back = 0), or back
 * (back = 1, sbatch refused), or removes the moved ones (back = 2): a task
 * that never starts must not leave an old result looking like its own. */
static void gpc_slurm_old_results(const gpc_slurm_ctx *c, const size_t *todo, size_t n, int back)
{
    size_t i;
    for (i = 0; i < n; i++) {
        char path[4096], aside[4096];
        gpc_slurm_result_path(c, todo[i], GPC_RESULT_FILE, path, sizeof path);
        gpc_slurm_result_path(c, todo[i], "." GPC_RESULT_FILE ".before-slurm", aside, sizeof aside);
        if (back == 0)
            rename(path, aside);
        else if (back == 1)
            rename(aside, path);
        else
            unlink(aside);
    }
}

/* The waiting line, when it changed: how many tasks stand where. */
static void gpc_slurm_say_queue(const gpc_slurm_ctx *c, char *last, size_t lastlen)
{
    size_t pending = 0, running = 0, ended = 0, i;
    char reason[128] = "", now[400];
    for (i = 0; i < c->n_tasks; i++) {
        const gpc_slurm_task *t = &c->tasks[i];
        if (t->done)
            ended++;
        else if (strcmp(t->state, "PENDING") == 0) {
            pending++;
            if (!reason[0] && t->reason[0] && strcmp(t->reason, "None"))
                snprintf(reason, sizeof reason, " (%.100s)", t->reason);
        } else
            running++;
    }
    snprintf(now, sizeof now, "slurm: %zu pending%s, %zu running, %zu of %zu ended", pending,
             reason, running, ended, c->n_tasks);
    if (strcmp(now, last) != 0) {
        gpc_progress_say("gpuprof-characterize: %s", now);
        snprintf(last, lastlen, "%s", now);
    }
}

/* Sleeps s seconds, or less when interrupted. */
static void gpc_slurm_sleep(double s)
{
    struct timespec tick = {0, 100 * 1000 * 1000};
    double end = gpc_slurm_now() + s;
    while (!gpc_run_stop && gpc_slurm_now() < end)
        nanosleep(&tick, NULL);
}

int gpc_slurm_run(const gpc_slurm_opts *o, const size_t *todo, size_t n, gpc_slurm_done_fn done,
                  void *arg, char *err, size_t errlen)
{
    gpc_slurm_ctx c;
    size_t *tasks = calloc(n ? n : 1, sizeof *tasks), i, j, left = n;
    char *seen = NULL, last[400] = "";
    double failing_since = -1;
    int rc = -1;
    memset(&c, 0, sizeof c);
    c.o = o;
    c.have_sacct = -1;
    snprintf(c.dir, sizeof c.dir, "%s/.slurm", o->outdir);
    if (!tasks || gp_safedir(c.dir, err, errlen) < 0)
        goto out;
    gpc_slurm_old_results(&c, todo, n, 0);
    /* one array per GPC_SLURM_MAX_TASKS programs (todo is in suite order) */
    for (i = 0; i < n; i = j) {
        size_t base = todo[i] / GPC_SLURM_MAX_TASKS * GPC_SLURM_MAX_TASKS, k = 0;
        for (j = i; j < n && todo[j] / GPC_SLURM_MAX_TASKS * GPC_SLURM_MAX_TASKS == base; j++)
            tasks[k++] = todo[j] - base;
        if (gpc_slurm_submit(&c, base, tasks, k, err, errlen) < 0) {
            gpc_slurm_cancel_all(&c); /* the arrays before it, if any */
            gpc_slurm_old_results(&c, todo, n, 1);
            goto out;
        }
        gpc_progress_say("gpuprof-characterize: %zu program%s submitted to Slurm as job %s; its "
                         "outputs in %s/",
                         k, k == 1 ? "" : "s", c.jobs[c.n_jobs - 1].id, c.dir);
    }
    gpc_slurm_old_results(&c, todo, n, 2);
    if (!(seen = calloc(c.n_tasks ? c.n_tasks : 1, 1))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    while (left) {
        if (gpc_run_stop) {
            gpc_slurm_cancel_all(&c);
            snprintf(err, errlen, "interrupted");
            rc = -2;
            goto out;
        }
        if (gpc_slurm_look(&c, seen, err, errlen) < 0) {
            double now = gpc_slurm_now();
            if (failing_since < 0) {
                failing_since = now;
                gpc_progress_say("gpuprof-characterize: warning: %s; trying again", err);
            } else if (now - failing_since > GPC_SLURM_GIVE_UP) {
                snprintf(err + strlen(err), errlen - strlen(err),
                         " for %.0f s: the jobs' state is unknown (those that finish still write "
                         "their results; --resume runs the others)",
                         GPC_SLURM_GIVE_UP);
                goto out;
            }
            gpc_slurm_sleep(o->poll_s);
            continue;
        }
        failing_since = -1;
        for (i = 0; i < c.n_tasks; i++) {
            gpc_slurm_task *t = &c.tasks[i];
            int ended = gpc_slurm_in(t->state, gpc_slurm_ended,
                                     sizeof gpc_slurm_ended / sizeof gpc_slurm_ended[0]);
            const char *why = NULL;
            char never[256];
            if (t->done)
                continue;
            t->misses = seen[i] ? 0 : t->misses + 1;
            if (!seen[i] && gpc_slurm_has_result(&c, t->prog))
                ended = 1; /* gone from the queue, its result written */
            else if (!seen[i] && t->misses >= GPC_SLURM_MISSES) {
                ended = 1;
                why = "is no longer known to Slurm (squeue does not list it and sacct has no "
                      "account of it)";
                snprintf(t->state, sizeof t->state, "UNKNOWN");
            } else if (seen[i] && strcmp(t->state, "PENDING") == 0 &&
                       gpc_slurm_in(t->reason, gpc_slurm_never,
                                    sizeof gpc_slurm_never / sizeof gpc_slurm_never[0])) {
                char id[64];
                snprintf(id, sizeof id, "%s_%zu", c.jobs[t->job].id, t->task);
                gpc_slurm_cancel_task(&c, id);
                snprintf(never, sizeof never,
                         "cannot start (Slurm will not run it as asked) and "
                         "was cancelled");
                why = never;
                ended = 1;
            }
            if (!ended)
                continue;
            /* COMPLETED: the program wrote its result (the task's script
             * ends 0 only then), which a network file system may show here
             * a little later */
            if (!why && strcmp(t->state, "COMPLETED") == 0 && !gpc_slurm_has_result(&c, t->prog) &&
                (t->grace += o->poll_s) < GPC_SLURM_GRACE)
                continue;
            if (!why && strcmp(t->state, "COMPLETED") == 0 && !gpc_slurm_has_result(&c, t->prog))
                why = "completed, but its result did not appear in the study folder here (is it "
                      "on a file system the nodes share?)";
            /* a result there is the program's own: it finished, whatever the
             * job did after (the results of earlier runs were moved away) */
            if (!gpc_slurm_has_result(&c, t->prog) &&
                gpc_slurm_not_finished(&c, t, why, err, errlen) < 0)
                goto out;
            t->done = 1;
            left--;
            done(arg, t->prog);
        }
        if (left) {
            gpc_slurm_say_queue(&c, last, sizeof last);
            gpc_slurm_sleep(o->poll_s);
        }
    }
    rc = 0;
out:
    free(tasks);
    free(seen);
    free(c.jobs);
    free(c.tasks);
    return rc;
}
