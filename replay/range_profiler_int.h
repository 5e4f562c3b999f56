/* range_profiler_int.h - the range profiler object's insides, shared by
 * range_profiler.c (its life, configurations, passes, batches) and
 * rp_rotation.c (replay mode none's configurations).  Not for other modules:
 * they see range_profiler.h. */
#ifndef GP_RANGE_PROFILER_INT_H
#define GP_RANGE_PROFILER_INT_H

#include <cupti_range_profiler.h>
#include <stddef.h>
#include <stdint.h>

#include "replay/cupti_host.h"
#include "replay/rp_sets.h"

typedef struct gp_rp gp_rp;

typedef struct rp_set {
    gp_host_config *cfg;
    size_t n;      /* names in this set */
    size_t *index; /* position of each in the caller's list */
    const char **names;
    uint8_t *counter_data;
    size_t counter_data_size;
    size_t max_ranges; /* ranges its image holds: one unless batches can use it */
    int stepped;       /* replay mode none: passes over successive launches, one range */
} rp_set;

struct gp_rp {
    CUcontext ctx;
    CUpti_RangeProfiler_Object *obj;
    char chip[64];
    size_t n_all;
    rp_set sets[GP_RP_MAX_SETS]; /* FULL (the main configuration), ONE_PASS, extras */
    size_t n_extra;              /* further configurations of a list too long for one */
    double *kept;                /* values decoded from the extras, until finish() */
    const struct rp_set *sized_set; /* the set CUPTI last sized an image for */
    int have_one_pass;
    int active_set;
    int configured; /* a set was configured on the object (active_set is it) */
    int auto_range;
    int kernel_replay;
    size_t max_ranges;   /* ranges the counter data image holds */
    int started;         /* a batch is open: the profiler runs across launches */
    size_t batch_ranges; /* ranges expected in the open batch */
    char left_out[1024]; /* names CUPTI cannot schedule here, "" when none */
    /* replay mode none */
    const char *const *all_names; /* the caller's list (borrowed until rotation_build) */
    uint8_t *avail;               /* the counter availability image */
    size_t avail_size;
    size_t n_rot;
    size_t n_rot_stepped; /* of them, the last ones: several passes, stepped */
    char rot_left_out[1024];
};

/* Frees a set's configuration, names and image and clears it. */
void gp_rp_set_free(rp_set *s);
/* Makes s's CUPTI host configuration from its names (when not made yet) and
 * sizes and allocates its counter data image.  0, or a gp_rp_error with err. */
int gp_rp_set_finish(gp_rp *rp, rp_set *s, const uint8_t *avail, size_t avail_size, char *err,
                     size_t errlen);

#endif
