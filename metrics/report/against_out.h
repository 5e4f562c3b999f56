/* against_out.h - the writers of a comparison with Nsight Compute
 * (metrics/ncu/against.h; gpuprof-report --against, docs/report.md): text for a
 * reader and for scripts that read its last line, JSON and CSV (one row per
 * pair). */
#ifndef GP_AGAINST_OUT_H
#define GP_AGAINST_OUT_H

#include <stdio.h>

#include "metrics/ncu/against.h"

/* What was compared, as the messages name it. */
typedef struct {
    const char *run;            /* gpuprof's records (the first file) */
    size_t n_run;               /* how many record files */
    const gp_ncu_table *oracle; /* ncu's first run */
    const gp_ncu_table *const *again;
    size_t n_again;
    const gp_ncu_table *one_pass; /* the one-pass run, NULL: none */
    const gp_ncu_table *one_pass_again; /* a second one-pass run, NULL: none */
} gp_against_inputs;

/* Each returns 0, or -1 when writing failed. */
int gp_against_text(const gp_against_result *res, const gp_against_inputs *in, FILE *out);
int gp_against_json(const gp_against_result *res, const gp_against_inputs *in, FILE *out);
int gp_against_csv(const gp_against_result *res, const gp_against_inputs *in, FILE *out);

/* The last line of the text form, without its newline:
 * "against: N agree, N differ, N not judged (N unstable, N over 100%), N
 * unmatched launches". */
void gp_against_totals(const gp_against_result *res, char *buf, size_t len);

#endif
