/* classes.c - see classes.h: the study's metric classes as one table, and a
 * kernel's value of each. */
#include "classes.h"

#include <math.h>
#include <string.h>

#include "metrics/records/guard.h"

/* The study's classes and the thresholds the text summary counts against:
 * one table, documented in docs/characterize.md. */
const gpc_class gpc_classes[] = {
    {"rf_g",
     "compute/memory ratio (Rf-g)",
     "flop/byte",
     {GP_M_RF_G, -1},
     1,
     10,
     "memory-leaning",
     "compute-leaning",
     {-1, -1},
     {NULL, NULL}},
    {"fp_util",
     "FP-unit utilization (main precision)",
     "%",
     {GPC_FP_MAIN, -1},
     10,
     50,
     "FP units mostly idle",
     "FP units busy",
     {-1, -1},
     {NULL, NULL}},
    {"dram_util",
     "DRAM bandwidth utilization",
     "%",
     {GP_M_DRAM_UTIL, -1},
     20,
     60,
     "DRAM lightly used",
     "DRAM heavily used",
     {-1, -1},
     {NULL, NULL}},
    {"achieved_occupancy",
     "achieved occupancy",
     "%",
     {GP_M_ACHIEVED_OCCUPANCY, -1},
     25,
     50,
     "low occupancy",
     "good occupancy",
     {GP_GUARD_WARPS_ACTIVE, -1},
     {"active cycles", NULL}},
    {"shared_efficiency",
     "shared-memory efficiency",
     "%",
     {GP_M_SHARED_EFFICIENCY, -1},
     50,
     90,
     "bank conflicts, broadcasts or narrow accesses",
     "wavefronts mostly full",
     {GP_GUARD_SHARED, -1},
     {"shared-memory accesses", NULL}},
    {"global_efficiency",
     "global load/store efficiency",
     "%",
     {GP_M_GLD_EFFICIENCY, GP_M_GST_EFFICIENCY},
     50,
     90,
     "uncoalesced, strided, broadcast or narrow accesses",
     "sectors mostly used",
     {GP_GUARD_GLOBAL_LD, GP_GUARD_GLOBAL_ST},
     {"global loads", "global stores"}},
    {"warp_execution_efficiency",
     "warp execution efficiency",
     "%",
     {GP_M_WARP_EXECUTION_EFFICIENCY, -1},
     50,
     90,
     "divergent or partly filled warps",
     "warps mostly full",
     {GP_GUARD_THREADS, -1},
     {"instructions", NULL}},
};
const size_t gpc_n_classes = sizeof gpc_classes / sizeof gpc_classes[0];

static int gpc_fp_metric(const gp_kernel_report *k)
{
    const char *p = k->roof.precision ? k->roof.precision : "FP32";
    return strcmp(p, "FP64") == 0   ? GP_M_FP64_UTIL
           : strcmp(p, "FP16") == 0 ? GP_M_FP16_UTIL
                                    : GP_M_FP32_UTIL;
}

const char *gpc_metric_name(int m)
{
    return m == GPC_FP_MAIN ? "fp_util" : gp_derived_defs[m].name;
}

const char *gpc_metric_unit(int m)
{
    return m == GPC_FP_MAIN ? "%" : gp_derived_defs[m].unit;
}

double gpc_metric_value(const gp_kernel_report *k, int m)
{
    return k->agg.row.v[m == GPC_FP_MAIN ? gpc_fp_metric(k) : m];
}

const char *gpc_metric_why(const gp_kernel_report *k, int m)
{
    return k->agg.row.why[m == GPC_FP_MAIN ? gpc_fp_metric(k) : m];
}

int gpc_class_absent(const gpc_class *c, int mi, const gp_kernel_report *k)
{
    int m = c->metric[mi];
    return m >= 0 && c->absent[mi] >= 0 && isnan(gpc_metric_value(k, m)) &&
           strstr(gpc_metric_why(k, m), gp_guard_reason(c->absent[mi])) != NULL;
}
