/* verdict_where.h - "where" evidence of every verdict: the source line (or
 * SASS instruction) that holds the largest share of what the verdict is
 * about, from the kernel's instruction-level data (where.h).  The table of
 * what each verdict attributes is in verdict_where.c. */
#ifndef GP_VERDICT_WHERE_H
#define GP_VERDICT_WHERE_H

#include "metrics/verdicts/verdict_list.h"

/* Fills out[i].where for the n verdicts, when in->where has data. */
void gp_verdict_where(const gp_verdict_input *in, gp_verdict *out, size_t n);

#endif
