/* run.h - running one program of a suite natively and under the profiler,
 * and comparing the two runs' outputs (compare.h) into its result. */
#ifndef GPC_RUN_H
#define GPC_RUN_H

#include <signal.h>
#include <stddef.h>

#include "result.h"
#include "suite.h"

/* Set by SIGINT/SIGTERM: the running program's process group is killed and
 * no result is written. */
extern volatile sig_atomic_t gpc_run_stop;

/* Runs p's command once: /bin/sh -c cmd in p->dir with p->env plus
 * extra_env ("VAR=value", NULL-terminated; may be NULL), stdin from
 * /dev/null, stdout and stderr to the given files, in a process group of its
 * own killed at the timeout (SIGTERM, then SIGKILL 2 s later) and after the
 * command ends (leftover background processes).  prepend_preload: a library
 * put in front of LD_PRELOAD (NULL: none).  Returns 0 (e filled), -1 on a
 * failure to start (err says why), -2 when interrupted (gpc_run_stop). */
int gpc_exec_command(const gpc_program *p, const char *const *extra_env,
                     const char *prepend_preload, const char *out_path, const char *err_path,
                     gpc_exec *e, char *err, size_t errlen);

/* The whole study of one program: native run, profiled run (LD_PRELOAD of
 * lib, GPUPROF_OUTPUT=prog_dir/gpuprof-%p), comparison; writes
 * prog_dir/result.json (prog_dir is created; it must not be a link).  The
 * compare files must not exist before the native run (the result is then
 * an error); after each run they are moved into prog_dir as
 * native.N.NAME / profiled.N.NAME.  gpu: CUDA_VISIBLE_DEVICES for
 * both runs, NULL to leave it.  Returns 0 (result written), -1 (could not
 * write it, err says why), -2 (interrupted: nothing written). */
int gpc_run_program(const gpc_program *p, const char *prog_dir, const char *lib, const char *gpu,
                    char *err, size_t errlen);

#endif
