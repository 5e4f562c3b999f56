/* test_sampling.c - when warp-stall sampling runs (preload/sampling.c),
 * without a GPU: CUPTI's PC sampling (replay/pc_sampling.h) and the source
 * table are stand-ins that count starts, stops and sampled launches.
 * Checks, for one context launching an unprofiled, a profiled, two
 * unprofiled and a profiled launch (the metric set without hardware
 * counters, as --set source):
 *   GPUPROF_SAMPLING=on        every launch sampled, sampling stopped only
 *                              around the profiled launches' passes;
 *   GPUPROF_SAMPLING=profiled  the program's runs of the profiled launches
 *                              alone: stopped before the first unprofiled
 *                              launch after one, never started for the others;
 *   profiled with -c 0         nothing sampled, and the summary says why.
 * The launches go through sampling's hooks (launch_hooks.h) as the launch
 * path walks them.  Each case runs in a child process: the module's state
 * is per process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "preload/core_state.h"
#include "preload/crosscheck.h"
#include "preload/launch_hooks.h"
#include "preload/metric_set.h"
#include "preload/sampling.h"
#include "preload/serialize.h"
#include "preload/source.h"
#include "preload/source_table.h"
#include "preload/summary.h"
#include "replay/collect.h"
#include "replay/pc_sampling.h"
#include "tests/unit/gp_test.h"


/* ---- the stand-ins ------------------------------------------------------- */

static struct {
    int opened, started, starts, stops, closed;
    int sampled_launches; /* gp_src_sampled_launch calls */
} pcs;
static int pcs_handle;

gp_pcs *gp_pcs_open(CUcontext ctx, const gp_pcs_config *cfg, char *err, size_t errlen)
{
    (void)ctx, (void)cfg, (void)err, (void)errlen;
    pcs.opened++;
    return (gp_pcs *)&pcs_handle;
}
int gp_pcs_start(gp_pcs *p, char *err, size_t errlen)
{
    (void)p, (void)err, (void)errlen;
    GP_CHECK_MSG(!pcs.started, "started twice");
    pcs.started = 1;
    pcs.starts++;
    return 0;
}
int gp_pcs_stop(gp_pcs *p, char *err, size_t errlen)
{
    (void)p, (void)err, (void)errlen;
    GP_CHECK_MSG(pcs.started, "stopped while stopped");
    pcs.started = 0;
    pcs.stops++;
    return 0;
}
int gp_pcs_drain(gp_pcs *p, gp_pcs_sink sink, void *arg, char *err, size_t errlen)
{
    (void)p, (void)sink, (void)arg, (void)err, (void)errlen;
    return 0;
}
void gp_pcs_close(gp_pcs *p, gp_pcs_sink sink, void *arg, gp_pcs_totals *totals)
{
    (void)p, (void)sink, (void)arg, (void)totals;
    pcs.closed++;
}
const char *gp_pcs_reason_name(const gp_pcs *p, uint32_t reason)
{
    (void)p, (void)reason;
    return "selected";
}
int gp_metric_set_needs_counters(void)
{
    return 0; /* @source: the SASS pass alone */
}
int gp_collect_current_device(void)
{
    return 0;
}
gp_src_table *gp_source_table(void)
{
    return NULL;
}
int gp_src_add_samples(gp_src_table *t, int device, uint64_t crc, const char *function,
                       uint64_t pc, const char *reason, uint64_t n)
{
    (void)t, (void)device, (void)crc, (void)function, (void)pc, (void)reason, (void)n;
    return 0;
}
void gp_src_sampled_launch(gp_src_table *t, int device, const char *function)
{
    (void)t, (void)device, (void)function;
    pcs.sampled_launches++;
}
uint64_t gp_src_left_out(const gp_src_table *t)
{
    (void)t;
    return 0;
}
static int xc_ends;
void gp_crosscheck_end(uint64_t correlation, const char *why)
{
    (void)correlation, (void)why;
    xc_ends++;
}
/* the lists (globals.c): sampling's seen hook alone on its own */
static int in_section;
void gp_serialize_exclusive_begin(void)
{
    GP_CHECK_MSG(!in_section, "the exclusive section taken twice");
    in_section = 1;
}
void gp_serialize_exclusive_end(void)
{
    GP_CHECK_MSG(in_section, "the exclusive section left while outside");
    in_section = 0;
}
int gp_serialize_at_exit_begin(int seconds)
{
    (void)seconds;
    return 0;
}
void gp_serialize_at_exit_end(void)
{
}

/* ---- the program --------------------------------------------------------- */

static gp_kernel_name kname = {.mangled = "_Z1kv", .demangled = "k()"};
static gp_kernel kern = {.name = &kname};
static gp_launch_event ev = {.ctx = (CUcontext)0x1000, .symbol = "_Z1kv"};

/* A launch that is not profiled, through sampling's hooks as
 * gp_core_launch_enter walks them (launch_hooks.h). */
static void unprofiled(void)
{
    gp_hook_args a = {.ev = &ev, .k = &kern, .id = 1, .ctx = ev.ctx};
    pthread_mutex_lock(&gp_core.state_lock);
    gp_sampling_hooks.at[GP_AT_SEEN](&a);
    pthread_mutex_unlock(&gp_core.state_lock);
    gp_sampling_hooks.at[GP_AT_UNPROFILED](&a);
    GP_CHECK_MSG(!in_section, "the service left the exclusive section held");
    GP_CHECK_MSG(!pcs.started || gp_core.cfg.sampling == GP_SAMPLING_ON,
                 "an unprofiled launch ran sampled with GPUPROF_SAMPLING=profiled");
}

/* A profiled launch: its passes, then the program's own launch (the hooks
 * gp_profile_enter walks). */
static void profiled(void)
{
    gp_hook_args a = {.ev = &ev, .k = &kern, .id = 2, .ctx = ev.ctx, .profiled = 1};
    pthread_mutex_lock(&gp_core.state_lock);
    gp_sampling_hooks.at[GP_AT_SEEN](&a);
    pthread_mutex_unlock(&gp_core.state_lock);
    GP_CHECK_MSG(!a.sample_service, "a profiled launch asked for the unprofiled service");
    gp_sampling_hooks.at[GP_AT_BEFORE_PASSES](&a);
    GP_CHECK_MSG(!pcs.started, "sampling ran during the profiler's passes");
    GP_CHECK_MSG(a.sample_program, "the program's launch of a set without counters not sampled");
    gp_sampling_hooks.at[GP_AT_PROGRAM_LAUNCH](&a);
    GP_CHECK_MSG(pcs.started, "the program's run of a profiled launch was not sampled");
}

static char *summary_json(void)
{
    static char buf[2048];
    FILE *f = fmemopen(buf, sizeof(buf), "w");
    gp_sampling_write_json(f);
    fclose(f);
    return buf;
}

static char *summary_line(void)
{
    static char buf[2048];
    FILE *f = fmemopen(buf, sizeof(buf), "w");
    gp_sampling_print(f, 1);
    fclose(f);
    return buf;
}

static void run_case(int mode, long launch_count)
{
    pthread_mutex_init(&gp_core.state_lock, NULL);
    gp_hook_lists[GP_AT_SEEN].fn[0] = gp_sampling_hooks.at[GP_AT_SEEN];
    gp_hook_lists[GP_AT_SEEN].n = 1;
    gp_core.cfg.enabled = 1;
    gp_core.cfg.sampling = mode;
    gp_core.cfg.sampling_interval = 6;
    gp_core.cfg.launch_count = launch_count;
    unprofiled();
    if (launch_count != 0)
        profiled();
    unprofiled();
    unprofiled();
    if (launch_count != 0)
        profiled();
    const char *json = summary_json();
    const char *line = summary_line();
    gp_hook_args a = {0};
    gp_sampling_hooks.at[GP_AT_EXIT](&a);
    GP_CHECK(!pcs.started && (pcs.opened == 0 || pcs.closed == 1));
    /* sampling not wanted in this run: its seen hook left the list */
    int unwanted = mode == GP_SAMPLING_PROFILED && launch_count == 0;
    GP_CHECK_MSG((gp_hook_lists[GP_AT_SEEN].n == 0) == unwanted &&
                     (gp_hook_lists[GP_AT_SEEN].fn[0] == NULL) == unwanted,
                 "the seen list holds %zu hooks", gp_hook_lists[GP_AT_SEEN].n);
    if (mode == GP_SAMPLING_ON) {
        GP_CHECK_MSG(pcs.sampled_launches == 5, "%d", pcs.sampled_launches);
        GP_CHECK_MSG(strstr(json, "\"launches\":5,") != NULL, "%s", json);
        /* started at the first launch, stopped and started around each
         * profiled launch's passes, stopped at exit */
        GP_CHECK_MSG(pcs.starts == 3 && pcs.stops == 3, "%d %d", pcs.starts, pcs.stops);
        GP_CHECK_MSG(xc_ends == 3, "the cross-check was asked to end %d times (at each start)", xc_ends);
    } else if (launch_count != 0) {
        GP_CHECK_MSG(pcs.sampled_launches == 2, "%d", pcs.sampled_launches);
        GP_CHECK_MSG(strstr(json, "\"launches\":2,") != NULL, "%s", json);
        /* started for each profiled launch, stopped before the first
         * unprofiled launch after it and at exit */
        GP_CHECK_MSG(pcs.starts == 2 && pcs.stops == 2, "%d %d", pcs.starts, pcs.stops);
    } else {
        GP_CHECK_MSG(pcs.opened == 0 && pcs.sampled_launches == 0, "%d %d", pcs.opened,
                     pcs.sampled_launches);
        GP_CHECK_MSG(strstr(json, "\"state\":\"off\"") &&
                         strstr(json, "GPUPROF_SAMPLING=profiled and no launch is profiled"),
                     "%s", json);
        GP_CHECK_MSG(strstr(line, "stall sampling: off (GPUPROF_SAMPLING=profiled") != NULL, "%s",
                     line);
    }
}

int main(void)
{
    static const struct {
        const char *what;
        int mode;
        long count;
    } cases[] = {
        {"on", GP_SAMPLING_ON, -1},
        {"profiled", GP_SAMPLING_PROFILED, -1},
        {"profiled, -c 0", GP_SAMPLING_PROFILED, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            gp_test_passed = gp_test_failed = 0; /* the child's own checks */
            run_case(cases[i].mode, cases[i].count);
            fflush(NULL);
            _exit(gp_test_failed ? 1 : 0);
        }
        int st = 0;
        GP_CHECK_MSG(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
                         WEXITSTATUS(st) == 0,
                     "case %s", cases[i].what);
    }
    return gp_test_finish("sampling");
}
