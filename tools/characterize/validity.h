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
 * (empty before; gpc_result_free frees it), and how many launch and
 * variant_estimate records the files hold (v->records).  A file without a
 * readable summary record at its end adds nothing to the judgement, and one
 * record to v->records when a launch record opens it.  Returns 0, or -1 when
 * out of memory. */
int gpc_validity_read(gpc_validity *v, const char *dir, char *const *jsonl, size_t n);

/* The bytes of the profiled run's stderr searched for the library's line. */
#define GPC_VALIDITY_STDERR_TAIL (16L << 20)

/* When the last GPC_VALIDITY_STDERR_TAIL bytes of path (the profiled run's
 * stderr, a regular file, not followed if a link) hold the library's line
 * "[gpuprof PID] THE PROGRAM'S RESULTS ARE NOT VALID from launch N on ...",
 * v says the results are broken (a summary record that said so already is
 * kept): the line is printed even when no file could hold the summary
 * record.  Returns 0, or -1 when out of memory. */
int gpc_validity_stderr(gpc_validity *v, const char *path);

#endif
