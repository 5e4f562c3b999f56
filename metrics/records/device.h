/* device.h - what gpuprof knows about a device: the "device" record of the
 * JSON-lines file (docs/output-format.md), filled by the profiler from the
 * driver's attributes and by the report from the record, and the H100 SXM
 * defaults used when a file has no device record.  The record's fields are
 * those of record_fields.def. */
#ifndef GP_DEVICE_H
#define GP_DEVICE_H

/* the member declarations of record_fields.def's device kinds */
#define GP_RF_D_INT(m, hi) int m
#define GP_RF_D_DBL(m, hi) double m
#define GP_RF_D_TEXT(m, hi) char m[hi]
#define GP_RF_D_PAIR(m, hi) int m##_major, m##_minor

typedef struct gp_device {
#define GP_DEVICE_FIELD(key, member, kind, lo, hi, fill, doc) GP_RF_D_##kind(member, hi);
#include "metrics/records/record_fields.def"
    /* the report's own facts, not in the record */
    int max_threads_per_block;
    int smem_alloc_unit; /* bytes (128 on sm_80 and later) */
    int from_record;     /* 0: these are the defaults */
} gp_device;

/* H100 SXM5 (GH100, sm_90) limits: 132 SMs, 64 warps, 32 blocks, 64 K registers
 * (256 per warp unit), 228 KB shared per SM, 1 KB reserved per block. */
void gp_device_h100(gp_device *d);

#endif
