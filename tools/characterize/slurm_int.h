/* slurm_int.h - inside `run --slurm` (slurm.h): the jobs submitted, the
 * tasks followed, and the verbs slurm.c gives slurm_watch.c. */
#ifndef GPC_SLURM_INT_H
#define GPC_SLURM_INT_H

#include "slurm.h"

typedef struct {
    char id[32]; /* the array job's id */
    size_t base; /* the program of task 0 */
} gpc_slurm_job;

typedef struct {
    size_t prog, job, task; /* the program; its job (index into jobs) and task number */
    int done;               /* its result is given */
    int misses;             /* looks in a row that found no trace of it */
    double grace;           /* s waited for the result of a COMPLETED task */
    char state[32], reason[128], node[128]; /* as squeue or sacct last said */
} gpc_slurm_task;

typedef struct {
    const gpc_slurm_opts *o;
    char dir[4096]; /* OUTDIR/.slurm: scripts, the jobs' outputs, the commands' */
    gpc_slurm_job *jobs;
    size_t n_jobs;
    gpc_slurm_task *tasks;
    size_t n_tasks;
    int have_sacct; /* -1 unknown, 0 no accounting, 1 sacct answers */
} gpc_slurm_ctx;

/* Runs a Slurm command (argv[0] found on the PATH, no shell) with its
 * output and error output captured into new strings, within a time limit.
 * Returns its exit status (124: no answer in time), or -1 when it could
 * not be started. */
int gpc_slurm_cmd(const gpc_slurm_ctx *c, char *const argv[], char **out, char **errout);
/* The first line of text with something on it, for a message. */
void gpc_slurm_first_line(const char *text, char *buf, size_t len);
double gpc_slurm_now(void);

/* Submits programs base + tasks[i] as one array job; records the job.
 * Returns 0, or -1 with one sentence in err. */
int gpc_slurm_submit(gpc_slurm_ctx *c, size_t base, const size_t *tasks, size_t n, char *err,
                     size_t errlen);
/* Records a submitted job and its tasks.  0 or -1 (memory). */
int gpc_slurm_add_job(gpc_slurm_ctx *c, const char *id, size_t base, const size_t *tasks, size_t n);
void gpc_slurm_cancel_all(gpc_slurm_ctx *c);
void gpc_slurm_cancel_task(gpc_slurm_ctx *c, const char *task);

#endif
