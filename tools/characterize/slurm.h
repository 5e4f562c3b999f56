/* slurm.h - `run --slurm`: a suite's programs on a Slurm cluster
 * (docs/characterize.md, "On a Slurm cluster").
 *
 * The programs to run go to the cluster as one job array (sbatch), one task
 * per program; each task runs this same executable on its node, `run SUITE
 * --index I`, which writes the program's result into the study folder on the
 * shared file system.  Here, squeue (and sacct where Slurm keeps accounts)
 * says how each task stands; a task that ends finished prints its progress
 * line, one that ends without a result (a timeout, a cancel, a node
 * failure, a preemption, a failure) gets a result of status not_finished
 * with Slurm's state and reason, so that `run --resume` runs it again.
 * Only Slurm's own commands are used (sbatch, squeue, sacct, scancel), run
 * without a shell, the user's sbatch options passed as they are. */
#ifndef GPC_SLURM_H
#define GPC_SLURM_H

#include <stddef.h>

#include "suite.h"

/* The largest array task index used (MaxArraySize is 1001 by default):
 * more programs go in several arrays. */
#define GPC_SLURM_MAX_TASKS 1000

typedef struct {
    const char *self;   /* this executable, absolute (the nodes run it) */
    const char *suite;  /* the suite file, absolute */
    const char *outdir; /* the study folder, absolute, on the shared file system */
    const char *lib;    /* the profiler library, absolute */
    int gpu_check;      /* 0: the tasks get --no-gpu-check */
    char **sbatch;      /* the user's sbatch options, as given */
    size_t n_sbatch;
    double poll_s; /* seconds between two looks at the queue */
    const gpc_suite *parsed;
    char **dirs; /* each program's result folder */
} gpc_slurm_opts;

/* Called when program prog has a result (finished, or not_finished). */
typedef void (*gpc_slurm_done_fn)(void *arg, size_t prog);

/* 0 when sbatch, squeue and scancel are on the PATH; -1 with one sentence
 * in err otherwise. */
int gpc_slurm_check(char *err, size_t errlen);

/* Submits the programs todo[0..n) and follows them until each has a
 * result; done() is called for each as it ends.  Returns 0; -1 when sbatch
 * refused the job or the queue could not be read (err says why; programs
 * that ended keep their results); -2 when interrupted (gpc_run_stop: the
 * jobs are cancelled and their programs left without a result). */
int gpc_slurm_run(const gpc_slurm_opts *o, const size_t *todo, size_t n, gpc_slurm_done_fn done,
                  void *arg, char *err, size_t errlen);

/* `run --slurm` as the run command calls it: this executable and the suite
 * made absolute, then gpc_slurm_run for todo[0..n) with the progress lines
 * of tally (a gpc_tally, progress.h).  Returns 0, or 1 when the run stopped (said on stderr:
 * sbatch refused, the queue unreadable, interrupted). */
int gpc_slurm_main(const char *suite_path, const gpc_suite *suite, const char *outdir,
                   const char *lib, int gpu_check, double poll_s, char **sbatch, size_t n_sbatch,
                   const size_t *todo, void *tally);

/* For a task on its node: the Slurm job of this process ("JOB_TASK" of an
 * array, else "JOB") and its node, into new strings; NULL when not in a
 * Slurm job. */
char *gpc_slurm_job_here(char **node);

#endif
