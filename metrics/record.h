/* record.h - one profiled launch as the report sees it, read from a
 * "type":"launch" JSON-lines record (docs/output-format.md). */
#ifndef GP_RECORD_H
#define GP_RECORD_H

#include <stddef.h>

#include "device.h"
#include "json.h"

typedef struct {
    long launch_id;
    int device;
    char *kernel;
    long grid[3], block[3], cluster[3];
    int regs_per_thread;
    long static_smem, dynamic_smem, local_bytes_per_thread;
    size_t n_metrics;
    char **names;    /* PerfWorks names */
    double *values;  /* NaN when the record had null */
    char **missing;  /* reason for a NaN value (from "missing"), or NULL */
} gp_launch;

/* Fills l from a launch object.  Returns 0, or -1 with a sentence in err
 * (l is then empty and needs no free): a field of the wrong type, a shape
 * beyond CUDA's limits, a negative size.  A negative or infinite metric
 * value is kept as NaN with that reason. */
int gp_record_launch(const gp_json *obj, gp_launch *l, char *err, size_t errlen);
void gp_record_launch_free(gp_launch *l);

/* Fills d from a device object, starting from the H100 defaults for any field
 * the record lacks.  Returns 0, or -1 with a sentence naming the field and
 * its value when a fact is not a number or is absurd (a zero warp size,
 * 2^31 blocks per SM). */
int gp_record_device(const gp_json *obj, gp_device *d, char *err, size_t errlen);

/* Value of counter `name` (name[0..len)): 0 and *v (NaN with a reason when the
 * record had null), or -1 when the record does not have it. */
int gp_record_counter(const gp_launch *l, const char *name, size_t len, double *v, char *why,
                      size_t whylen);

long gp_record_threads_per_block(const gp_launch *l);
long gp_record_blocks(const gp_launch *l);
long gp_record_cluster_size(const gp_launch *l);

#endif
