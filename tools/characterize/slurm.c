/* slurm.c - see slurm.h: `run --slurm` from the command line: the paths
 * the jobs need, then slurm_watch.c's submit-and-follow. */
#define _GNU_SOURCE
#include "slurm.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "progress.h"

int gpc_slurm_main(const char *suite_path, const gpc_suite *suite, const char *outdir,
                   const char *lib, int gpu_check, double poll_s, char **sbatch, size_t n_sbatch,
                   const size_t *todo, void *tally)
{
    gpc_tally *t = tally;
    char self[PATH_MAX], suite_abs[PATH_MAX], err[1024];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    gpc_slurm_opts o = {self,   suite_abs, outdir, lib,   gpu_check,
                        sbatch, n_sbatch,  poll_s, suite, t->dirs};
    int x;
    if (n <= 0 || !realpath(suite_path, suite_abs)) {
        gpc_progress_say("gpuprof-characterize: --slurm: cannot find this program or %s",
                         suite_path);
        return 1;
    }
    self[n] = 0;
    if (!t->n_todo)
        return 0;
    x = gpc_slurm_run(&o, todo, t->n_todo, gpc_tally_done, t, err, sizeof err);
    if (x == -2) {
        fprintf(stderr, "gpuprof-characterize: interrupted: the Slurm jobs are cancelled; run "
                        "again with --resume to finish (finished programs are kept)\n");
        return 1;
    }
    if (x < 0) {
        gpc_progress_say("gpuprof-characterize: --slurm: %s", err);
        return 1;
    }
    return 0;
}
