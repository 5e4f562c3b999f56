/* start.c - the policy's start and ends (core.h): the configuration read
 * once, the locks, the tables and the metric list set up, the driver loaded
 * and the launch path's lists built when CUDA starts (launch_hooks.h); at a
 * context's destruction and at exit the subsystems' hooks walked
 * (context_end, exit), gpuprof's own state of the context freed and the
 * files written.
 * Holds the state every module of the policy shares (core_state.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuprof.h"
#include "preload/core_state.h"
#include "preload/finish.h"
#include "preload/kernels.h"
#include "preload/launch_hooks.h"
#include "preload/metric_set.h"
#include "preload/ranges.h"
#include "preload/source.h"
#include "util/log.h"

int gp_core_in_profiler(void)
{
    return gp_t_in_profiler || gp_collect_own_thread();
}

const gp_config *gp_core_config(void)
{
    return &gp_core.cfg;
}

int gp_core_wants_nvtx(void)
{
    return gp_core.active && (gp_core.cfg.n_nvtx_include || gp_core.cfg.n_nvtx_exclude);
}

void gp_core_set_boundary(const gp_core_boundary *b)
{
    gp_core.boundary = *b;
}

static const char *env_lookup(const char *name)
{
    return getenv(name);
}

int gp_core_init(void)
{
    char err[2048];
    int bad = gp_config_parse(&gp_core.cfg, env_lookup, err, sizeof(err));
    FILE *sink = NULL;
    if (gp_core.cfg.log_file[0]) {
        char why[256];
        sink = gp_safefile_append(gp_core.cfg.log_file, why, sizeof(why));
        if (!sink)
            fprintf(stderr,
                    "[gpuprof %d] error: GPUPROF_LOG_FILE='%s' cannot be opened (%s); "
                    "logging to stderr\n",
                    (int)getpid(), gp_core.cfg.log_file, why);
    }
    gp_log_setup(gp_core.cfg.log_level, sink);
    if (bad) {
        /* said once CUDA starts (gp_core_cuda_ready): a program that never
         * touches CUDA hears nothing from gpuprof */
        snprintf(gp_core.config_errors, sizeof(gp_core.config_errors), "%s", err);
        gp_core.n_config_errors = bad;
        return 0;
    }
    pthread_rwlockattr_t ra;
    pthread_rwlockattr_init(&ra);
    pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&gp_core.launch_lock, &ra);
    pthread_rwlockattr_destroy(&ra);
    pthread_mutex_init(&gp_core.state_lock, NULL);
    pthread_mutex_init(&gp_core.out_lock, NULL);
    gp_core.allocs = gp_alloc_table_create();
    if (!gp_core.allocs || gp_metric_set_build() != 0) {
        gp_error("out of memory at start-up; not profiling");
        return -1;
    }
    gp_core.set.code = gp_kernels_code;
    gp_core.set.sass_dump = gp_core.cfg.sass_dump;
    gp_core.set.sass_sink = gp_source_sass_sink;
    if (gethostname(gp_core.host, sizeof(gp_core.host)) != 0)
        snprintf(gp_core.host, sizeof(gp_core.host), "unknown");
    gp_core.host[sizeof(gp_core.host) - 1] = '\0';
    gp_summary_init(&gp_core.summary);
    gp_core.xc_left = gp_core.cfg.crosscheck;
    gp_ranges_reset(gp_core.cfg.profile_from_start);
    gp_core.active = 1;
    return 0;
}

int gp_core_cuda_ready(void)
{
    char err[256];
    double t0 = gp_now_s();
    if (gp_core.n_config_errors) {
        /* one line per malformed variable, then stay out of the program */
        char *line = gp_core.config_errors, *next;
        for (; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            gp_error("%s", line);
        }
        gp_error("gpuprof is not profiling this run because of the configuration error%s above",
                 gp_core.n_config_errors > 1 ? "s" : "");
        return -1;
    }
    if (!gp_core.active)
        return -1;
    if (gp_collect_load_driver(err, sizeof(err)) != 0) {
        gp_error("%s; not profiling", err);
        gp_core.active = 0;
        return -1;
    }
    gp_hooks_start();
    gp_core.cuda_ready = 1;
    if (gp_log_enabled(GP_LOG_INFO)) {
        char what[1024];
        gp_config_describe(&gp_core.cfg, what, sizeof(what));
        gp_info("gpuprof %s: %s", GPUPROF_VERSION, what);
    }
    gp_core.init_s += gp_now_s() - t0;
    return 0;
}

/* What the subsystems keep for the context ends first (sampling, its
 * batch, its variants' records), then gpuprof's own state of it. */
void gp_core_context_destroying(CUcontext ctx)
{
    if (!gp_core.cuda_ready)
        return;
    pthread_rwlock_wrlock(&gp_core.launch_lock);
    pthread_mutex_lock(&gp_core.state_lock);
    gp_context *cs;
    HASH_FIND(hh, gp_core.contexts, &ctx, sizeof(ctx), cs);
    pthread_mutex_unlock(&gp_core.state_lock);
    /* sampling ends; waiting launches get their counters, variants their
     * records (out_lock is never taken under state_lock) */
    gp_hook_args a = {.ctx = ctx, .cs = cs};
    gp_t_in_profiler++;
    gp_hooks_run(GP_AT_CONTEXT_END, &a);
    gp_t_in_profiler--;
    pthread_mutex_lock(&gp_core.state_lock);
    if (cs) {
        HASH_DEL(gp_core.contexts, cs);
        gp_t_in_profiler++;
        gp_collect_close(cs->col);
        gp_t_in_profiler--;
        free(cs);
    }
    gp_kernels_forget(ctx);
    gp_alloc_peer_access(gp_core.allocs, (uint64_t)(uintptr_t)ctx, 0, 0);
    pthread_mutex_unlock(&gp_core.state_lock);
    pthread_rwlock_unlock(&gp_core.launch_lock);
}

void gp_core_shutdown(void)
{
    if (!gp_core.active)
        return;
    /* the batches closed, replay mode none's estimates, the samples not read yet */
    gp_hook_args a = {0};
    gp_hooks_run(GP_AT_EXIT, &a);
    gp_finish_close();
}
