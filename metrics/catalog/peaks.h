/* peaks.h - measured ceilings for the roofline, from a gpupeak peaks file
 * (JSON).  Accepted shapes, any of:
 *   {"fp32_flops_per_s": 5.9e13, "dram_bytes_per_s": 3.0e12, ...}
 *   {"peaks": {...same keys...}}
 *   {"results": [{"name": "dram_bytes_per_s", "value": 3.0e12}, ...]}
 *   gpupeak/1 (docs/gpupeak.md): the lines gpupeak.def maps to a key with
 *   ROOF(key, factor): throughput.fp32_fma / fp64_fma / fp16x2_fma (x 0.5) /
 *   wgmma_bf16, bandwidth.dram_copy (else dram_read) / l2_read / l1_read /
 *   shared_read_128, each {"value": x, "clock_mhz": c}
 * Keys: fp32_flops_per_s, fp64_flops_per_s, fp16_flops_per_s,
 * tensor_flops_per_s, dram_bytes_per_s, l2_bytes_per_s, l1_bytes_per_s,
 * shared_bytes_per_s: each in its roof's quantity (metrics/catalog/roofs.def).  A value the file lacks
 * stays NaN (its ceiling is shown as n/a, never 0). */
#ifndef GP_PEAKS_H
#define GP_PEAKS_H

#include <stddef.h>
#include <stdint.h>

#include "metrics/records/json.h"

/* The schema gpupeak writes (docs/gpupeak.md); a file with another
 * "schema" is refused, one without is read as the flat shapes above. */
#define GP_PEAKS_SCHEMA "gpupeak/1"
/* A peaks file is a few kilobytes; a larger one is refused unread. */
#define GP_PEAKS_MAX_SIZE ((uint64_t)4 << 20)

/* The keys, in the order of gp_peaks' rates. */
#define GP_PEAKS_KEYS                                                                              \
    X(fp32_flops_per_s) X(fp64_flops_per_s) X(fp16_flops_per_s) X(tensor_flops_per_s)            \
    X(dram_bytes_per_s) X(l2_bytes_per_s) X(l1_bytes_per_s) X(shared_bytes_per_s)
enum {
#define X(k) GP_PEAK_##k,
    GP_PEAKS_KEYS
#undef X
    GP_PEAK_COUNT
};

typedef struct {
    /* each in its roof's quantity (metrics/catalog/roofs.def): a gpupeak figure is
     * converted by gpupeak.def's factor when read */
    double fp32_flops_per_s, fp64_flops_per_s, fp16_flops_per_s, tensor_flops_per_s;
    double dram_bytes_per_s, l2_bytes_per_s, l1_bytes_per_s, shared_bytes_per_s;
    /* the SM clock each was measured at (MHz), NaN when the file does not
     * say: the invariant check compares per cycle */
    double clock_mhz[GP_PEAK_COUNT];
    char source[256]; /* file name, "" when no file was given */
    char device[128]; /* device the peaks were measured on, when the file says */
} gp_peaks;

/* The key's index (GP_PEAK_*), -1 when it is none. */
int gp_peaks_key(const char *key);
/* The value of key index i (NaN when not measured or i out of range). */
double gp_peaks_get(const gp_peaks *p, int i);
const char *gp_peaks_key_name(int i);

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
