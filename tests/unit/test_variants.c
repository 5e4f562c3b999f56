/* test_variants.c - replay mode none's policy (preload/variants.c) without a
 * GPU: the collection side is a stand-in with three configurations (two of
 * the range profiler, one the SASS pass) over a list of five metrics.
 * Checks: a variant's first launch is profiled in kernel replay (and its
 * record written by the caller), later ones rotate in blocks of
 * GPUPROF_ROTATE_LAUNCHES with the batch closed exactly when the
 * configuration changes or is full (at every launch once a batch could not
 * be decoded); another shape is another variant;
 * values go to the variant and give the exact sums for identical launches;
 * a configuration that keeps failing leaves the rotation; the variant limit
 * falls back to kernel replay; the variant_estimate record at the end; a
 * stepped configuration (several passes over successive launches), its
 * giving up, and its refusal when CUPTI never reports its passes done. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/model/estimate.h"
#include "preload/finish.h"
#include "preload/metric_set.h"
#include "preload/variants.h"
#include "tests/unit/gp_test.h"

gp_core_state gp_core;
__thread int gp_t_in_profiler;
__thread int gp_t_api_depth;

/* ---- the stand-ins ------------------------------------------------------- */

static const char *names[] = {"gpu__time_duration.sum", "smsp__inst_executed.sum",
                              "dram__bytes_read.sum", "smsp__sass_inst_executed.sum",
                              "gpuprof__sass_requested_bytes.sum"};
enum { N_M = 5 };
/* which range-profiler configuration holds metric i (bit g) */
static const unsigned holds_plain[N_M] = {3, 3, 1, 2, 0};
/* the stepped part: configuration 1 is one of 3 passes over successive
 * launches and holds the DRAM bytes alone */
static const unsigned holds_stepped[N_M] = {1, 1, 2, 1, 0};
static const unsigned *holds = holds_plain;
static size_t stepped_passes; /* 0: no stepped configuration */
static int abandoned;
static int batch_open;
static size_t batch_room = 100;
static char *json_buf;
static size_t json_len;
static FILE *json;

size_t gp_collect_rotation_configs(const gp_collect_ctx *c)
{
    (void)c;
    return 2;
}
int gp_collect_rotation_has(const gp_collect_ctx *c, const gp_collect_set *set, size_t g, size_t i)
{
    (void)c, (void)set;
    return i < N_M && (holds[i] >> g & 1);
}
int gp_collect_rotation_stepped(const gp_collect_ctx *c, size_t g)
{
    (void)c;
    return stepped_passes && g == 1;
}
size_t gp_collect_rotation_passes(const gp_collect_ctx *c, size_t g)
{
    (void)c;
    return stepped_passes && g == 1 ? stepped_passes : 1;
}
int gp_collect_abandon(gp_collect_ctx *c, char *err, size_t errlen)
{
    (void)c, (void)err, (void)errlen;
    abandoned++;
    return 0;
}
const char *gp_collect_rotation_why(const gp_collect_ctx *c)
{
    (void)c;
    return NULL;
}
int gp_collect_batch_is_open(const gp_collect_ctx *c)
{
    (void)c;
    return batch_open;
}
size_t gp_collect_batch_room(const gp_collect_ctx *c)
{
    (void)c;
    return batch_room;
}
int gp_collect_is_sass(const char *name)
{
    return strncmp(name, "gpuprof__", 9) == 0;
}
int gp_collect_is_instrumented(const char *name)
{
    return strstr(name, "__sass_") != NULL;
}
int gp_metric_set_is_spread(const char *name)
{
    return strcmp(name, "gpu__time_duration.sum") == 0 ||
           strcmp(name, "smsp__inst_executed.sum") == 0;
}
FILE *gp_finish_json_begin(void)
{
    return json;
}
void gp_finish_json_end(void) {}

/* ---- the test ------------------------------------------------------------ */

static gp_kernel_name kname = {.mangled = "_Z1kv", .demangled = "k()"};
static gp_kernel kern = {.name = &kname};

/* One launch of shape grid x 1 x 1: plan, then its values.  Returns the
 * configuration it collected (GP_EST_ALL: kernel replay); *closed: the plan
 * asked to close the batch. */
static int launch(gp_context *cs, unsigned grid, const double *v, int *closed)
{
    gp_launch_state ls;
    gp_launch_exec e;
    memset(&ls, 0, sizeof(ls));
    memset(&e, 0, sizeof(e));
    e.grid[0] = grid;
    e.grid[1] = e.grid[2] = e.block[0] = e.block[1] = e.block[2] = 1;
    ls.kernel = &kern;
    ls.cs = cs;
    ls.launch_id = atomic_fetch_add(&gp_core.launch_seq, 1) + 1;
    int rotated = gp_variants_plan(&ls, &e, closed);
    if (*closed)
        batch_open = 0;
    if (rotated && !ls.opts.rotate_sass)
        batch_open = 1;
    GP_CHECK(rotated == ls.opts.rotate);
    GP_CHECK(rotated ? ls.rot_config >= 0 : ls.rot_config == GP_EST_ALL);
    int taken = gp_variants_take(&ls, v, NULL);
    GP_CHECK(taken == rotated); /* a first launch's record is the caller's to write */
    return ls.rot_config;
}

/* One launch of shape grid in the stepped part: the sample-out decision,
 * then the plan and the values as the caller gives them; a stepped pass
 * gets its values only with the last of stepped_passes passes.  Returns
 * the configuration (GP_EST_ALL: kernel replay; -1: counted only). */
static int step_pass_no;
static int never_done; /* CUPTI never reports every pass submitted */
static int launch_stepped(gp_context *cs, unsigned grid, const double *v)
{
    gp_launch_exec e;
    memset(&e, 0, sizeof(e));
    e.grid[0] = grid;
    e.grid[1] = e.grid[2] = e.block[0] = e.block[1] = e.block[2] = 1;
    uint64_t id = atomic_fetch_add(&gp_core.launch_seq, 1) + 1;
    if (gp_variants_sample_out(cs, &kern, id, &e, 0, 0))
        return -1;
    gp_launch_state ls;
    memset(&ls, 0, sizeof(ls));
    ls.kernel = &kern;
    ls.cs = cs;
    ls.launch_id = id;
    int closed;
    int rotated = gp_variants_plan(&ls, &e, &closed);
    if (ls.opts.rotate_step) {
        GP_CHECK(ls.opts.rotate_set == GP_RP_ROT + 1);
        GP_CHECK(strcmp(ls.opts.range_name, "gpuprof-stepped") == 0);
        step_pass_no = ls.opts.step_first ? 1 : step_pass_no + 1;
        ls.rs.step_pending = never_done || step_pass_no < (int)stepped_passes;
    }
    int taken = gp_variants_take(&ls, v, NULL);
    GP_CHECK(taken == rotated);
    return ls.rot_config;
}

/* A new case: the records to a fresh buffer, the settings, a fresh setup;
 * passes > 0: the second range-profiler configuration is stepped. */
static void begin_case(gp_context *cs, size_t passes, long max_overhead, long rotate_launches)
{
    holds = passes ? holds_stepped : holds_plain;
    stepped_passes = passes;
    json = open_memstream(&json_buf, &json_len);
    gp_core.cfg.max_overhead = max_overhead;
    gp_core.cfg.rotate_launches = rotate_launches;
    gp_core.cfg.rotate_ms = 0;
    gp_variants_setup(cs);
    GP_CHECK(cs->variants != NULL);
}

/* A configuration of several passes (stepped): each pass wraps one launch of
 * the variant under way, the other variants' launches are only counted
 * meanwhile, the values come with the last pass; a variant that is not
 * launched again is given up after the patience (max(4 x variants,
 * GPUPROF_ROTATE_LAUNCHES) launches). */
static void stepped_test(gp_context *cs, const double *v)
{
    begin_case(cs, 3, 100, 2);
    /* A = grid 8, B = grid 16, alternating */
    int want[] = {GP_EST_ALL, GP_EST_ALL, 0, 0, /* first launches; a block of configuration 0 */
                  1, -1, 1, -1, 1,              /* A's three passes, B counted meanwhile */
                  1, -1, 1, -1, 1,              /* B's three (the block of 2 not yet full) */
                  2, 2, 0};                     /* the SASS pass, then configuration 0 again */
    int n = (int)(sizeof(want) / sizeof(want[0]));
    for (int i = 0; i < n; i++) {
        int c = launch_stepped(cs, i % 2 ? 16 : 8, v);
        GP_CHECK_MSG(c == want[i], "stepped launch %d: %d, want %d", i, c, want[i]);
    }
    /* B's launch fills configuration 0's block; A's next begins its
     * stepping; then only B comes */
    int c = launch_stepped(cs, 16, v);
    GP_CHECK_MSG(c == 0, "B: %d", c);
    c = launch_stepped(cs, 8, v); /* the block of 2 is full: configuration 1, A's first pass */
    GP_CHECK_MSG(c == 1, "A: %d", c);
    int before = abandoned, counted = 0;
    for (int i = 0; i < 9; i++) /* patience: max(4 x 2 variants, 2) = 8 of B's launches */
        counted += launch_stepped(cs, 16, v) == -1;
    GP_CHECK_MSG(counted == 8 && abandoned == before + 1, "counted %d, abandoned %d", counted,
                 abandoned - before);
    gp_variants_close(cs);
    fclose(json);
    const char *a = strstr(json_buf, "\"grid\":[8,1,1]");
    GP_CHECK(a != NULL);
    /* A: 10 launches (2 counted while B stepped), configuration 2 (stepped)
     * collected once plus the exact first launch, its estimate 10 x the
     * value for identical work */
    GP_CHECK_MSG(a && strstr(a, "{\"configuration\":2,\"kind\":\"counters\",\"passes\":3,"
                                "\"launches\":2,"),
                 "%s", json_buf);
    GP_CHECK_MSG(a && strstr(a, "\"launches\":10,\"exact_launches\":1,\"lost_launches\":0,\"unprofiled_launches\":2,"), "%s", json_buf);
    GP_CHECK_MSG(a && strstr(a, "\"dram__bytes_read.sum\":40960,"), "%s", json_buf);
    free(json_buf);

    /* CUPTI never reports the passes done: after 2 x 3 + 2 passes the
     * collection is given up, a failure of the configuration; after three
     * such failures and no value it leaves the rotation */
    json = open_memstream(&json_buf, &json_len);
    gp_core.cfg.rotate_launches = 1;
    gp_variants_setup(cs);
    never_done = 1;
    before = abandoned;
    int in_stepped = 0, late = 0;
    for (int i = 0; i < 60; i++) {
        c = launch_stepped(cs, 8, v);
        in_stepped += c == 1;
        late += i >= 50 && c == 1;
    }
    GP_CHECK_MSG(abandoned == before + 3 && in_stepped == 24 && late == 0,
                 "abandoned %d, stepped passes %d, late %d", abandoned - before, in_stepped, late);
    never_done = 0;
    gp_variants_close(cs);
    fclose(json);
    free(json_buf);
    holds = holds_plain;
    stepped_passes = 0;
}

/* The configuration's entry of the variant_estimate record of grid g in
 * buf: its "launches" (collections), -1 when not found. */
static long config_launches(const char *buf, unsigned g, const char *entry)
{
    char key[32];
    snprintf(key, sizeof key, "\"grid\":[%u,1,1]", g);
    const char *rec = buf ? strstr(buf, key) : NULL;
    const char *nl = rec ? strchr(rec, '\n') : NULL;
    const char *at = rec ? strstr(rec, entry) : NULL;
    if (!at || (nl && at > nl))
        return -1;
    return strtol(at + strlen(entry), NULL, 10);
}

/* Below a share of 100%, a stepped slice gives its collections to the
 * variants that have fewest: A launched three times for each launch of B,
 * and still both get as many collections; when every variant has its
 * round's, the slice ends after the patience and the rotation goes on. */
static void stepped_share_test(gp_context *cs, const double *v)
{
    begin_case(cs, 2, 50, 1);
    int sass = 0, rotated = 0;
    unsigned long long est0 = gp_core.summary.launches_estimated;
    for (int i = 0; i < 400; i++) {
        int c = launch_stepped(cs, i % 4 == 3 ? 16 : 8, v);
        sass += i >= 200 && c == 2;
        rotated += c >= 0;
    }
    /* every launch that ran profiled once counts in the summary, each pass
     * of a stepped collection too (not only the one that gives values) */
    GP_CHECK_MSG(gp_core.summary.launches_estimated - est0 == (unsigned long long)rotated,
                 "summary %llu, rotated %d", gp_core.summary.launches_estimated - est0, rotated);
    gp_variants_close(cs);
    fclose(json);
    const char *entry = "{\"configuration\":2,\"kind\":\"counters\",\"passes\":2,\"launches\":";
    long a = config_launches(json_buf, 8, entry), b = config_launches(json_buf, 16, entry);
    GP_CHECK_MSG(a >= 1 && a == b, "stepped collections: A %ld, B %ld", a, b);
    GP_CHECK_MSG(sass > 0, "the rotation stopped at the stepped configuration");
    free(json_buf);
    holds = holds_plain;
    stepped_passes = 0;
    gp_core.cfg.max_overhead = 100;
}

/* A slice lasts a round of the work even where the round is longer than
 * the variants' count: A launched five times, then B and C, at a share of
 * 50%; once the three are known, every slice reaches all three. */
static void slice_round_test(gp_context *cs, const double *v)
{
    gp_core.cfg.variants_max = 8;
    begin_case(cs, 0, 50, 2);
    static const unsigned round[7] = {8, 8, 8, 8, 8, 16, 32};
    double now = 0, spent = 0;
    int prev = -1, seen = 0, slices = 0, whole = 0;
    for (int i = 0; i < 140; i++) {
        unsigned g = round[i % 7];
        gp_launch_exec e;
        memset(&e, 0, sizeof(e));
        e.grid[0] = g;
        e.grid[1] = e.grid[2] = e.block[0] = e.block[1] = e.block[2] = 1;
        uint64_t id = atomic_fetch_add(&gp_core.launch_seq, 1) + 1;
        int c = -1, closed;
        if (!gp_variants_sample_out(cs, &kern, id, &e, now, spent)) {
            c = launch(cs, g, v, &closed);
            spent += 1;
            now += 1;
        }
        now += 1;
        if (c != prev && prev >= 0 && i > 14) { /* a slice ended: which variants it had */
            slices++;
            whole += seen == 7;
        }
        if (c != prev)
            seen = 0;
        if (c >= 0)
            seen |= g == 8 ? 1 : g == 16 ? 2 : 4;
        prev = c;
    }
    GP_CHECK_MSG(slices >= 3 && whole == slices, "%d of %d slices reached the three variants",
                 whole, slices);
    gp_variants_close(cs);
    fclose(json);
    free(json_buf);
    gp_core.cfg.max_overhead = 100;
    gp_core.cfg.variants_max = 2;
}

int main(void)
{
    gp_core.metric_names = names;
    gp_core.n_metrics = N_M;
    gp_core.has_sass = 1;
    gp_core.cfg.rotate_launches = 4;
    gp_core.cfg.variants_max = 2;
    gp_core.cfg.max_overhead = 100; /* every launch profiled, until the last part */
    gp_core.cfg.replay_mode = GP_REPLAY_NONE;
    gp_core.cfg.log_level = 0;
    pthread_mutex_init(&gp_core.state_lock, NULL);
    pthread_mutex_init(&gp_core.out_lock, NULL);
    json = open_memstream(&json_buf, &json_len);

    gp_context cs;
    memset(&cs, 0, sizeof(cs));
    cs.sass_ok = 1;
    gp_variants_setup(&cs);
    GP_CHECK(cs.variants != NULL);

    double v[N_M] = {1000, 500, 4096, 77, 64};
    int closed, c;
    /* the first launch: kernel replay, the batch closed for its passes */
    batch_open = 1;
    c = launch(&cs, 8, v, &closed);
    GP_CHECK(c == GP_EST_ALL && closed);
    /* then blocks of 4 launches per configuration: 0 0 0 0 1 1 1 1 2 2 2 2 0 */
    int want[13] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0};
    for (int i = 0; i < 13; i++) {
        int was_open = batch_open;
        c = launch(&cs, 8, v, &closed);
        GP_CHECK_MSG(c == want[i], "launch %d: configuration %d, want %d", i + 2, c, want[i]);
        /* the batch is closed when the configuration changes (and for the
         * SASS pass, which wraps its launch alone), never within a block */
        int change = i == 0 ? 0 : want[i] != want[i - 1];
        GP_CHECK_MSG(closed == (want[i] == 2 || (was_open && change)), "launch %d: closed %d",
                     i + 2, closed);
    }
    /* a full batch is closed even within a block */
    batch_room = 1;
    c = launch(&cs, 8, v, &closed);
    GP_CHECK(c == 0 && closed);
    batch_room = 100;
    /* after a batch CUPTI could not decode (preload/batch.c): one launch per
     * batch, the configuration unchanged */
    c = launch(&cs, 8, v, &closed);
    GP_CHECK(c == 0 && !closed);
    cs.batch_single = 1;
    c = launch(&cs, 8, v, &closed);
    GP_CHECK(c == 0 && closed);
    cs.batch_single = 0;
    /* another shape: another variant, its first launch in kernel replay */
    c = launch(&cs, 16, v, &closed);
    GP_CHECK(c == GP_EST_ALL);
    /* beyond GPUPROF_VARIANTS_MAX=2: kernel replay, no variant */
    c = launch(&cs, 32, v, &closed);
    GP_CHECK(c == GP_EST_ALL);
    c = launch(&cs, 32, v, &closed);
    GP_CHECK(c == GP_EST_ALL);

    gp_variants_close(&cs);
    GP_CHECK(cs.variants == NULL);
    fclose(json);
    /* two records: grid 8 (17 launches, 1 exact) and grid 16 (1 launch) */
    const char *r1 = strstr(json_buf, "\"grid\":[8,1,1]");
    const char *r2 = strstr(json_buf, "\"grid\":[16,1,1]");
    GP_CHECK(r1 && r2 && !strstr(json_buf, "\"grid\":[32,1,1]"));
    int lines = 0;
    for (const char *p = json_buf; p && *p; p++)
        lines += *p == '\n';
    GP_CHECK(lines == 2);
    const char *rec8 = NULL;
    for (const char *p = json_buf; p && *p;) { /* the line of grid 8 */
        const char *nl = strchr(p, '\n');
        if (r1 >= p && (!nl || r1 < nl))
            rec8 = p;
        p = nl ? nl + 1 : NULL;
    }
    GP_CHECK(rec8 && strstr(rec8, "\"type\":\"variant_estimate\"") == rec8 + 1);
    GP_CHECK(rec8 && strstr(rec8, "\"launches\":17,\"exact_launches\":1,"));
    /* identical launches: every total is 17 x the value, bound 0 where all
     * launches had it; the configurations' coverage */
    GP_CHECK(rec8 && strstr(rec8, "\"gpu__time_duration.sum\":17000,"));
    GP_CHECK(rec8 && strstr(rec8, "\"dram__bytes_read.sum\":69632,"));
    GP_CHECK(rec8 && strstr(rec8, "\"gpuprof__sass_requested_bytes.sum\":1088}"));
    GP_CHECK(rec8 && strstr(rec8, "{\"configuration\":3,\"kind\":\"sass\",\"passes\":1,"
                                  "\"launches\":5,\"first\":1,\"last\":13}"));
    GP_CHECK(rec8 && strstr(rec8, "{\"configuration\":2,\"kind\":\"instrumented\""));
    GP_CHECK(rec8 && strstr(rec8, "\"bound\":{\"gpu__time_duration.sum\":"));
    free(json_buf);

    /* a configuration that keeps failing leaves the rotation */
    json = open_memstream(&json_buf, &json_len);
    gp_core.cfg.rotate_launches = 1;
    gp_variants_setup(&cs);
    launch(&cs, 8, v, &closed); /* exact */
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < 9; i++) {
        gp_launch_state ls;
        gp_launch_exec e;
        memset(&ls, 0, sizeof(ls));
        memset(&e, 0, sizeof(e));
        e.grid[0] = 8;
        e.grid[1] = e.grid[2] = e.block[0] = e.block[1] = e.block[2] = 1;
        ls.kernel = &kern;
        ls.cs = &cs;
        GP_CHECK(gp_variants_plan(&ls, &e, &closed) == 1);
        seen[ls.rot_config]++;
        if (ls.rot_config == 1) /* the instrumented one: its counters never come */
            GP_CHECK(gp_variants_take(&ls, v, "counters lost: test") == 1);
        else
            GP_CHECK(gp_variants_take(&ls, v, NULL) == 1);
    }
    GP_CHECK_MSG(seen[1] == 3 && seen[0] == 3 && seen[2] == 3, "%d %d %d", seen[0], seen[1],
                 seen[2]);
    for (int i = 0; i < 6; i++) { /* refused after 3 failures: 0 and 2 only */
        c = launch(&cs, 8, v, &closed);
        GP_CHECK_MSG(c == 0 || c == 2, "configuration %d after its refusal", c);
    }
    gp_variants_close(&cs);
    fclose(json);
    free(json_buf);

    /* the profiler's share of the run (GPUPROF_MAX_OVERHEAD=50): the first
     * launch is profiled whatever the share; later ones in slices of 2
     * launches (no time floor), one configuration each, the others counted */
    json = open_memstream(&json_buf, &json_len);
    gp_core.cfg.max_overhead = 50;
    gp_core.cfg.rotate_launches = 2;
    gp_core.cfg.rotate_ms = 0;
    gp_variants_setup(&cs);
    gp_launch_exec e8;
    memset(&e8, 0, sizeof(e8));
    e8.grid[0] = 8;
    e8.grid[1] = e8.grid[2] = e8.block[0] = e8.block[1] = e8.block[2] = 1;
    double spent = 100; /* seconds before: any origin */
    GP_CHECK(gp_variants_sample_out(&cs, &kern, 1000, &e8, 0, spent) == 0); /* first: exact */
    c = launch(&cs, 8, v, &closed);
    GP_CHECK(c == GP_EST_ALL);
    spent += 10; /* the exact launch took 10 s */
    /* each launch takes 1 s of the program's own; a profiled one 1 s more */
    double now = 11;
    int got[12], counted = 0;
    for (int i = 0; i < 12; i++) {
        if (gp_variants_sample_out(&cs, &kern, 2000 + (uint64_t)i, &e8, now, spent)) {
            got[i] = -1;
            counted++;
        } else {
            got[i] = launch(&cs, 8, v, &closed);
            spent += 1;
            now += 1;
        }
        now += 1;
    }
    /* 10 s spent in 11: nothing until the share is back at 50% (t = 20,
     * launch 9), then a slice of 2 launches of configuration 0; at t = 24,
     * 12 s spent, the next slice, the next configuration */
    int want_s[12] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 1};
    for (int i = 0; i < 12; i++)
        GP_CHECK_MSG(got[i] == want_s[i], "launch %d: %d, want %d", i, got[i], want_s[i]);
    GP_CHECK(counted == 9);
    gp_variants_close(&cs);
    fclose(json);
    GP_CHECK_MSG(strstr(json_buf, "\"launches\":13,\"exact_launches\":1,\"lost_launches\":0,"
                                  "\"unprofiled_launches\":9,") != NULL,
                 "%s", json_buf);
    GP_CHECK(strstr(json_buf, "\"max_overhead_pct\":50,") != NULL);
    /* identical launches: the totals are still 13 x the value */
    GP_CHECK(strstr(json_buf, "\"gpu__time_duration.sum\":13000,") != NULL);
    free(json_buf);

    /* a new variant when the first launches' half of the share is used up:
     * not in kernel replay, but in the slice under way (configuration 0);
     * in kernel replay at a later launch once the share allows */
    json = open_memstream(&json_buf, &json_len);
    gp_core.cfg.rotate_launches = 100;
    gp_variants_setup(&cs);
    GP_CHECK(gp_variants_sample_out(&cs, &kern, 3000, &e8, 0, 0) == 0); /* exact */
    c = launch(&cs, 8, v, &closed);
    GP_CHECK(c == GP_EST_ALL);
    /* the first slice waits for a round of the work without a new variant
     * (100 launches here), then takes configuration 0 */
    int waited = 0;
    for (int i = 0; i < 101; i++) {
        if (gp_variants_sample_out(&cs, &kern, 3100 + (uint64_t)i, &e8, 12, 5)) {
            waited++;
            continue;
        }
        c = launch(&cs, 8, v, &closed);
    }
    GP_CHECK_MSG(waited == 99 && c == 0, "waited %d launches, then configuration %d", waited, c);
    gp_launch_exec e16 = e8;
    e16.grid[0] = 16;
    /* 5 s spent on the first, 12 s into the run: a slice may begin
     * (5 <= 0.5 x 12), a first launch in kernel replay may not
     * (5 > 0.125 x 12 + 1) */
    GP_CHECK(gp_variants_sample_out(&cs, &kern, 3001, &e16, 12, 5) == 0);
    c = launch(&cs, 16, v, &closed);
    GP_CHECK_MSG(c == 0, "deferred first launch: configuration %d", c);
    GP_CHECK(gp_variants_sample_out(&cs, &kern, 3002, &e16, 100, 5.1) == 0); /* 5 <= 25: now */
    c = launch(&cs, 16, v, &closed);
    GP_CHECK_MSG(c == GP_EST_ALL, "first launch in kernel replay later: %d", c);
    gp_variants_close(&cs);
    fclose(json);
    GP_CHECK(strstr(json_buf, "\"grid\":[16,1,1]") &&
             strstr(json_buf, "\"launches\":2,\"exact_launches\":1,"));
    GP_CHECK(strstr(json_buf, "\"launches\":102,\"exact_launches\":1,\"lost_launches\":0,"
                              "\"unprofiled_launches\":99,"));
    free(json_buf);

    stepped_test(&cs, v);
    stepped_share_test(&cs, v);
    slice_round_test(&cs, v);
    return gp_test_finish("variants");
}
