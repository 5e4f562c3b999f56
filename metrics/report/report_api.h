/* report_api.h - what libgpuprof.so calls at exit to print its terminal
 * summary.  Written by the writers (metrics/report/report_api.c); the header
 * stays here, where the library includes it, and needs none of theirs. */
#ifndef GP_REPORT_API_H
#define GP_REPORT_API_H

#include <stdio.h>

/* Reads the JSON-lines file the library wrote and prints to `out` the top_n
 * kernels by total time (top_n <= 0: all) with their first verdicts.  Never
 * exits, never writes anywhere but `out` (nothing at all on failure).
 * Returns 0, or -1 when the file cannot be read or has a malformed line. */
int gp_report_summarize_jsonl(const char *jsonl_path, FILE *out, int top_n);

#endif
