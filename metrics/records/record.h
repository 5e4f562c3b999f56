/* record.h - the JSON-lines records (docs/output-format.md) in the project's
 * own types: a device (gp_device, device.h) and a profiled launch, as the
 * profiler writes it (gp_launch_record: borrowed strings and metric arrays)
 * and as the report reads it back (gp_launch: owned copies, checked ranges).
 * Both launch structs, the writers (preload/output.c) and the reader
 * (record.c) come from the one field table, record_fields.def. */
#ifndef GP_RECORD_H
#define GP_RECORD_H

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics/records/device.h"
#include "metrics/records/json.h"

/* flags of record_fields.def's launch fields */
enum { GP_RF_CSV = 1, GP_RF_OPT = 2, GP_RF_STRICT = 4, GP_RF_NAME = 8 };
/* a DIM3 field's bounds, (x, y, z), as an initializer */
#define GP_RF_UNPAREN(...) __VA_ARGS__
#define GP_RF_DIM(xyz)                                                                             \
    {                                                                                              \
        GP_RF_UNPAREN xyz                                                                          \
    }
/* sizes in a record: bytes (1 TiB) */
#define GP_RECORD_BIG (1L << 40)

/* The writer's member of each launch kind. */
#define GP_RF_W_U64(m) uint64_t m
#define GP_RF_W_LONG(m) long m
#define GP_RF_W_INT(m) int m
#define GP_RF_W_STR(m) const char *m
#define GP_RF_W_DIM3(m) unsigned m[3]
#define GP_RF_W_DBL(m) double m
#define GP_RF_W_FLAG(m) int m
#define GP_RF_W_METRICS(m)                                                                         \
    size_t n_metrics;                                                                              \
    const char *const *metric_names;                                                               \
    const char *const *metric_units;                                                               \
    const double *values                              /* NaN when missing */
#define GP_RF_W_MISSING(m) const char *const *missing /* reason per metric, NULL when measured */

/* The reader's. */
#define GP_RF_R_U64(m) long m
#define GP_RF_R_LONG(m) long m
#define GP_RF_R_INT(m) int m
#define GP_RF_R_STR(m) char *m /* NULL when the record has no string */
#define GP_RF_R_DIM3(m) long m[3]
#define GP_RF_R_DBL(m) double m
#define GP_RF_R_FLAG(m) int m
#define GP_RF_R_METRICS(m)                                                                         \
    size_t n_metrics;                                                                              \
    char **names;    /* PerfWorks names */                                                         \
    double *values;  /* NaN when the record had null */                                            \
    size_t *by_name; /* names by hash (record.c), NULL: none */                                    \
    size_t by_name_cap
#define GP_RF_R_MISSING(m) char **missing /* reason for a NaN value, or NULL */

/* One profiled launch as the profiler hands it to the writers (rank -1 and
 * process NULL: none). */
typedef struct gp_launch_record {
#define GP_LAUNCH_FIELD(key, member, kind, flags, lo, hi, dflt, unit, doc) GP_RF_W_##kind(member);
#include "metrics/records/record_fields.def"
} gp_launch_record;

/* One profiled launch as the report reads it. */
typedef struct {
#define GP_LAUNCH_FIELD(key, member, kind, flags, lo, hi, dflt, unit, doc) GP_RF_R_##kind(member);
#include "metrics/records/record_fields.def"
} gp_launch;

/* Fills l from a launch object.  Returns 0, or -1 with a sentence in err
 * (l is then empty and needs no free): no "kernel" string, a field of the
 * wrong type, a shape beyond CUDA's limits, a negative size.  A negative or
 * infinite metric value is kept as NaN with that reason. */
int gp_record_launch(const gp_json *obj, gp_launch *l, char *err, size_t errlen);
void gp_record_launch_free(gp_launch *l);
/* Drops the name hash of a launch whose counters will not be asked again
 * (a launch kept for the launch-level writers), to save its memory. */
void gp_record_launch_unindex(gp_launch *l);

/* Fills d from a device object, starting from the H100 defaults for any field
 * the record lacks.  Returns 0, or -1 with a sentence naming the field and
 * its value when a fact is not a number or is absurd (a zero warp size,
 * 2^31 blocks per SM). */
int gp_record_device(const gp_json *obj, gp_device *d, char *err, size_t errlen);

/* Value of counter `name` (name[0..len)): 0 and *v (NaN with a reason when the
 * record had null), or -1 when the record does not have it.  Constant time
 * (a hash of the names, built by gp_record_launch): the derived metrics ask
 * a few hundred times per launch. */
int gp_record_counter(const gp_launch *l, const char *name, size_t len, double *v, char *why,
                      size_t whylen);

long gp_record_threads_per_block(const gp_launch *l);
long gp_record_blocks(const gp_launch *l);
long gp_record_cluster_size(const gp_launch *l);

#endif
