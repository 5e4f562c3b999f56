/* classes.h - the study's metric classes (compute/memory ratio, FP-unit
 * utilization, DRAM bandwidth utilization, occupancy, shared-memory, global
 * load/store and warp execution efficiency): the table the summary's text,
 * CSV, JSON and HTML writers share, and a kernel's value of each.
 * May use: metrics/ (the report model). */
#ifndef GPC_CLASSES_H
#define GPC_CLASSES_H

#include <stddef.h>

#include "metrics/model/load.h"

/* The study's metric classes: one chart each, counts against two
 * thresholds, extremes.  metric[1] is -1 for one-metric classes; metric[0]
 * is GPC_FP_MAIN for the FP-unit utilization of each kernel's main
 * precision (the roofline's). */
#define GPC_FP_MAIN (-2)
typedef struct {
    const char *id, *title, *unit;
    int metric[2];
    double low, high;
    const char *low_means, *high_means;
    /* per metric: the guard (metrics/records/guards.def) whose reason marks a kernel
     * that did none of what the metric measures, or -1; such kernels have no
     * place in the class and are counted apart, "N kernels without <what>" */
    int absent[2];
    const char *absent_what[2];
} gpc_class;

extern const gpc_class gpc_classes[];
extern const size_t gpc_n_classes;

/* A metric's name, for GPC_FP_MAIN "fp_util". */
const char *gpc_metric_name(int m);
/* Metric m's unit, and a kernel's reason for n/a (GPC_FP_MAIN included). */
const char *gpc_metric_unit(int m);
const char *gpc_metric_why(const gp_kernel_report *k, int m);
/* A kernel's value of metric m (GPC_FP_MAIN included), NaN when n/a. */
double gpc_metric_value(const gp_kernel_report *k, int m);

/* 1 when kernel k has no value of class c's metric number mi (0 or 1)
 * because it did none of what that metric measures (no shared-memory
 * accesses for the shared-memory efficiency). */
int gpc_class_absent(const gpc_class *c, int mi, const gp_kernel_report *k);

#endif
