/* peaks.h - measured ceilings for the roofline, from a gpupeak peaks file
 * (JSON).  Accepted shapes, any of:
 *   {"fp32_flops_per_s": 5.9e13, "dram_bytes_per_s": 3.0e12, ...}
 *   {"peaks": {...same keys...}}
 *   {"results": [{"name": "dram_bytes_per_s", "value": 3.0e12}, ...]}
 *   gpupeak/1 (docs/gpupeak.md): throughput.fp32_fma / fp64_fma / fp16x2_fma,
 *   bandwidth.dram_copy (else dram_read) / l2_read / l1_read, each {"value": x}
 * Keys: fp32_flops_per_s, fp64_flops_per_s, fp16_flops_per_s,
 * dram_bytes_per_s, l2_bytes_per_s, l1_bytes_per_s.  A value the file lacks
 * stays NaN (its ceiling is shown as n/a, never 0). */
#ifndef GP_PEAKS_H
#define GP_PEAKS_H

#include <stddef.h>
#include <stdint.h>

#include "json.h"

/* The schema gpupeak writes (docs/gpupeak.md); a file with another
 * "schema" is refused, one without is read as the flat shapes above. */
#define GP_PEAKS_SCHEMA "gpupeak/1"
/* A peaks file is a few kilobytes; a larger one is refused unread. */
#define GP_PEAKS_MAX_SIZE ((uint64_t)4 << 20)

typedef struct {
    double fp32_flops_per_s, fp64_flops_per_s, fp16_flops_per_s;
    double dram_bytes_per_s, l2_bytes_per_s, l1_bytes_per_s;
    char source[256]; /* file name, "" when no file was given */
    char device[128]; /* device the peaks were measured on, when the file says */
} gp_peaks;

/* All NaN, no source. */
void gp_peaks_none(gp_peaks *p);
/* *p = *given, or no peaks (gp_peaks_none) when given is NULL. */
void gp_peaks_set(gp_peaks *p, const gp_peaks *given);
/* Reads a peaks file (a regular file or a pipe of at most GP_PEAKS_MAX_SIZE
 * bytes, textfile.h).  Returns 0, or -1 with a sentence in err. */
int gp_peaks_load(const char *path, gp_peaks *p, char *err, size_t errlen);
/* Same from a parsed document (tests). */
int gp_peaks_from_json(const gp_json *doc, gp_peaks *p, char *err, size_t errlen);

#endif
