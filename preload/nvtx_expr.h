/* nvtx_expr.h - NVTX range expressions in Nsight Compute's --nvtx-include
 * syntax (the syntax is described in ranges.h), parsed once from the
 * configuration and matched against the ranges around a launch.  Plain
 * logic: no CUDA type, no state. */
#ifndef GP_NVTX_EXPR_H
#define GP_NVTX_EXPR_H

#include <stddef.h>

/* ---- expressions ------------------------------------------------------- */

typedef struct gp_nvtx_expr gp_nvtx_expr;

/* Parses one expression.  Returns NULL with one sentence in err. */
gp_nvtx_expr *gp_nvtx_expr_parse(const char *text, char *err, size_t errlen);
void gp_nvtx_expr_free(gp_nvtx_expr *e);
/* The text it was parsed from. */
const char *gp_nvtx_expr_text(const gp_nvtx_expr *e);

/* Parses a list of expressions separated by ';' ("\;" is a literal ';') into
 * out[0..max).  Returns the count, or -1 with one sentence in err (the
 * expressions parsed so far are freed). */
int gp_nvtx_list_parse(const char *text, gp_nvtx_expr **out, size_t max, char *err, size_t errlen);

/* One open range as the matcher sees it; domain "" is the default domain. */
typedef struct {
    const char *domain;
    const char *name;
} gp_nvtx_range;

/* The ranges around a launch: the launching thread's push/pop ranges, every
 * domain, bottom first; the process's open start/end ranges. */
typedef struct {
    const gp_nvtx_range *stack;
    size_t n_stack;
    const gp_nvtx_range *open;
    size_t n_open;
} gp_nvtx_view;

int gp_nvtx_expr_match(const gp_nvtx_expr *e, const gp_nvtx_view *v);
/* 1 when some include matches (or n_inc is 0) and no exclude matches. */
int gp_nvtx_select(gp_nvtx_expr *const *inc, size_t n_inc, gp_nvtx_expr *const *exc, size_t n_exc,
                   const gp_nvtx_view *v);

#endif
