/* against_cmd.h - gpuprof-report --against: reads Nsight Compute's raw CSV
 * of a program and gpuprof's records of the same program, judges every
 * (launch, metric) pair (metrics/ncu/against.h) and writes the comparison
 * (metrics/report/against_out.h).  docs/report.md, "Agreement with Nsight
 * Compute". */
#ifndef GP_AGAINST_CMD_H
#define GP_AGAINST_CMD_H

#include <stddef.h>
#include <stdio.h>

enum { GP_AGAINST_TEXT, GP_AGAINST_JSON, GP_AGAINST_CSV };

typedef struct {
    char **ncu; /* the --against files: the first is the oracle, the others
                 * later runs of the same program */
    size_t n_ncu;
    const char *one_pass[2]; /* --against-one-pass: ncu's one-pass run, and a second one */
    size_t n_one_pass;
    int format;       /* GP_AGAINST_* */
} gp_against_opts;

/* Compares; writes the comparison on out and messages on err (prefixed
 * "gpuprof-report: ", escaped).  Returns the exit status, 0, 1 or 3, as
 * gp_against_status() says; -1 when writing out failed; -2 when an input
 * cannot be read or is malformed (said on err, nothing written on out). */
int gp_against_run(const gp_against_opts *o, char **runs, size_t n_runs, FILE *out, FILE *err);

#endif
