/* range_profiler.h - the target side of the CUPTI Range Profiler, one object
 * per CUDA context, user replay, one range per launch or a batch of them.  Callers see only
 * the project's types; values come back as doubles (NaN when missing). */
#ifndef GP_RANGE_PROFILER_H
#define GP_RANGE_PROFILER_H

#include <cuda.h>
#include <stddef.h>

#include "replay/rp_sets.h"

typedef struct gp_rp gp_rp;

/* Error classes, so that the caller can say the right sentence once. */
enum gp_rp_error {
    GP_RP_OK = 0,
    GP_RP_ERR_PERMISSION,
    GP_RP_ERR_UNSUPPORTED,
    GP_RP_ERR_METRICS,
    GP_RP_ERR_OTHER
};

/* Once per process. */
int gp_rp_global_init(char *err, size_t errlen);
/* Tests only (GPUPROF_TEST_INJECT=no-permission): every gp_rp_create() fails
 * as CUPTI does when counters may be read by administrators only. */
void gp_rp_inject_no_permission(int on);

/* Enables the range profiler on ctx (device ordinal `device`) for `names`.
 * The one-pass set holds the hardware (non-SASS) names when those fit in one
 * pass; it is used when no snapshot is possible.  *errclass tells why on NULL. */
gp_rp *gp_rp_create(CUcontext ctx, int device, const char *const *names, size_t n,
                    size_t max_ranges, int *errclass, char *err, size_t errlen);
void gp_rp_destroy(gp_rp *rp);
/* The device's chip name without enabling a profiler object.  0, or -1
 * with err. */
int gp_rp_chip_name(int device, char *chip, size_t len, char *err, size_t errlen);

const char *gp_rp_chip(const gp_rp *rp);
/* A sentence naming the metrics CUPTI cannot schedule on this device, which
 * the set leaves out (gp_rp_set_has() is false for them), or NULL. */
const char *gp_rp_left_out(const gp_rp *rp);
/* Auto range: each kernel between start and end is its own range, bounded by
 * the hardware (no push/pop); user range (default): one named range. */
void gp_rp_set_auto_range(gp_rp *rp, int on);
/* CUPTI's own kernel replay (CUPTI saves and restores memory): a cross-check. */
void gp_rp_set_kernel_replay(gp_rp *rp, int on);
/* 1 when the full set (its extras included) has an instrumented name: one
 * of its passes is CUPTI's instrumented pass. */
int gp_rp_has_instrumented(const gp_rp *rp);
/* Passes of a set; for FULL, those of all its configurations. */
size_t gp_rp_passes(const gp_rp *rp, int set);
/* Passes of one configuration (FULL: its first one). */
size_t gp_rp_config_passes(const gp_rp *rp, int set);
/* Further configurations of FULL (sets GP_RP_EXTRA + 0 .. n-1). */
size_t gp_rp_extra_configs(const gp_rp *rp);
/* Whether names[i] is collected by `set`. */
int gp_rp_set_has(const gp_rp *rp, int set, size_t i);

/* Replay mode none: splits the names over one-pass configurations (sets
 * GP_RP_ROT + k), each carrying the names with every[i] set where it can
 * (gp_host_partition_one_pass), then the names no one-pass configuration
 * takes over configurations of several passes (gp_rp_is_stepped).  Returns
 * their number (0 with err: none possible).  Names CUPTI refuses even alone
 * are named in a sentence gp_rp_rotation_left_out() returns; they are
 * collected only by the full set's kernel replay. */
size_t gp_rp_rotation_build(gp_rp *rp, const int *every, char *err, size_t errlen);
size_t gp_rp_rotation_configs(const gp_rp *rp);
const char *gp_rp_rotation_left_out(const gp_rp *rp);
/* 1 when `set` is a rotation configuration of several passes: the names no
 * one-pass configuration takes, collected over a variant's successive
 * launches (stepped), one pass each: gp_rp_begin() at the first, then
 * gp_rp_pass_start()/kernel/gp_rp_pass_end() at each, gp_rp_finish() when
 * the last pass is submitted.  They come after the one-pass ones. */
int gp_rp_is_stepped(const gp_rp *rp, int set);
/* Gives up the configuration in progress (the passes of a stepped one not
 * all submitted): the next gp_rp_begin() starts from a fresh object. */
int gp_rp_abandon(gp_rp *rp, char *err, size_t errlen);

/* One profiled launch: begin(set), then per pass start()/kernel/end(), until
 * end() reports all passes submitted; then finish() fills values[0..n). */
int gp_rp_begin(gp_rp *rp, int set, char *err, size_t errlen);
/* 1 when passes have a user range (gpuprof's replay), 0 with auto range or
 * CUPTI's kernel replay. */
int gp_rp_is_user_range(const gp_rp *rp);
/* before_range (may be NULL) runs after CUPTI's start and before the user
 * range opens: work there (an L2 flush) is counted by no range, and comes
 * after whatever CUPTI writes to device memory when it starts a pass. */
int gp_rp_pass_start(gp_rp *rp, const char *range_name, void (*before_range)(void *), void *arg,
                     char *err, size_t errlen);
int gp_rp_pass_end(gp_rp *rp, int *all_submitted, char *err, size_t errlen);
int gp_rp_finish(gp_rp *rp, double *values, char *err, size_t errlen);
/* After an extra configuration's passes: decodes its values and keeps them
 * for the finish() of the launch, which merges them in. */
int gp_rp_keep(gp_rp *rp, char *err, size_t errlen);
/* After a configuration's passes whose values are not wanted (a warm-up):
 * decodes them and forgets them. */
int gp_rp_discard(gp_rp *rp, char *err, size_t errlen);

/* Batches (a one-pass full set, auto range): the profiler is started once
 * and stays started across launches, each kernel executed meanwhile being a
 * range of its own; the counters of all of them are decoded together.  This
 * saves the start and stop (about 36 + 7 ms on an H200 with the default
 * set) of every launch but the first of a batch.  The caller counts the
 * kernels it executes while the batch is open (note) and must close it
 * before any kernel it does not count may run in the context. */
int gp_rp_batch_open(gp_rp *rp, char *err, size_t errlen);
/* The same with a set of one pass (GP_RP_FULL, or GP_RP_ROT + k); a batch
 * already open with another set is an error (close it first). */
int gp_rp_batch_open_set(gp_rp *rp, int set, char *err, size_t errlen);
int gp_rp_batch_is_open(const gp_rp *rp);
/* Ranges left before the image is full. */
size_t gp_rp_batch_room(const gp_rp *rp);
/* Adds `kernels` (may be negative) to the expected ranges; returns the new
 * count, so the range of the kernel just noted is the result minus one. */
size_t gp_rp_batch_note(gp_rp *rp, int kernels);
/* Stops and decodes: *expected ranges were noted, *recorded were decoded. */
int gp_rp_batch_close(gp_rp *rp, size_t *expected, size_t *recorded, char *err, size_t errlen);
int gp_rp_batch_values(gp_rp *rp, size_t range, double *values, char *err, size_t errlen);
/* The range's name in the decoded image (for the debug log), or NULL. */
const char *gp_rp_range_name(gp_rp *rp, size_t range);

#endif
