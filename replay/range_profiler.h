/* range_profiler.h - the target side of the CUPTI Range Profiler, one object
 * per CUDA context, user replay, one user range per launch.  Callers see only
 * the project's types; values come back as doubles (NaN when missing). */
#ifndef GP_RANGE_PROFILER_H
#define GP_RANGE_PROFILER_H

#include <cuda.h>
#include <stddef.h>

typedef struct gp_rp gp_rp;

enum gp_rp_set { GP_RP_FULL = 0, GP_RP_ONE_PASS = 1 };

/* Error classes, so that the caller can say the right sentence once. */
enum gp_rp_error { GP_RP_OK = 0, GP_RP_ERR_PERMISSION, GP_RP_ERR_UNSUPPORTED, GP_RP_ERR_METRICS,
                   GP_RP_ERR_OTHER };

/* Once per process. */
int gp_rp_global_init(char *err, size_t errlen);

/* Enables the range profiler on ctx (device ordinal `device`) for `names`.
 * The one-pass set holds the hardware (non-SASS) names when those fit in one
 * pass; it is used when no snapshot is possible.  *errclass tells why on NULL. */
gp_rp *gp_rp_create(CUcontext ctx, int device, const char *const *names, size_t n,
                    int *errclass, char *err, size_t errlen);
void gp_rp_destroy(gp_rp *rp);

const char *gp_rp_chip(const gp_rp *rp);
/* Auto range: each kernel between start and end is its own range, bounded by
 * the hardware (no push/pop); user range (default): one named range. */
void gp_rp_set_auto_range(gp_rp *rp, int on);
/* CUPTI's own kernel replay (CUPTI saves and restores memory): a cross-check. */
void gp_rp_set_kernel_replay(gp_rp *rp, int on);
size_t gp_rp_passes(const gp_rp *rp, int set);
/* Whether names[i] is collected by `set`. */
int gp_rp_set_has(const gp_rp *rp, int set, size_t i);

/* One profiled launch: begin(set), then per pass start()/kernel/end(), until
 * end() reports all passes submitted; then finish() fills values[0..n). */
int gp_rp_begin(gp_rp *rp, int set, char *err, size_t errlen);
int gp_rp_pass_start(gp_rp *rp, const char *range_name, char *err, size_t errlen);
int gp_rp_pass_end(gp_rp *rp, int *all_submitted, char *err, size_t errlen);
int gp_rp_finish(gp_rp *rp, double *values, char *err, size_t errlen);

#endif
