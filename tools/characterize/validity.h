/* validity.h - whether the profiled run's results can be trusted, from the
 * profiler's own summary records: the last line of each gpuprof-PID.jsonl
 * ({"type":"summary",...}), one per process that used CUDA.  The library
 * writes "results":{"valid":false,"from_launch":N,"kernel":K,"reason":R}
 * when it broke what the program computes (a fault in a replay pass kills
 * the CUDA context, and every later kernel fails); a record written before
 * that field existed tells it by launches_not_executed > 0 (launches its
 * callbacks saw that the GPU never ran). */
#ifndef GPC_VALIDITY_H
#define GPC_VALIDITY_H

#include <stddef.h>

#include "result.h"

/* The longest summary record read (bytes of a file's last line). */
#define GPC_VALIDITY_LINE_MAX (16L << 20)

/* Reads the summary record of each of dir's files jsonl[0..n) into v
 * (empty before; gpc_result_free frees it).  A file without a readable
 * summary record at its end adds nothing.  Returns 0, or -1 when out of
 * memory. */
int gpc_validity_read(gpc_validity *v, const char *dir, char *const *jsonl, size_t n);

#endif
