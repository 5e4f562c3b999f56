/* verdict_list.c - see verdict_list.h. */
#include "metrics/verdicts/verdict_list.h"

#include <stdio.h>
#include <string.h>

gp_verdict *gp_verdict_add(gp_verdict *out, size_t *n, gp_verdict_kind kind, const char *id,
                           double score)
{
    gp_verdict *v = &out[(*n)++];
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->id = id;
    v->score = score < 0 ? 0 : score > 1 ? 1 : score;
    return v;
}

void gp_verdict_label(const gp_verdict *v, char *buf, size_t len)
{
    if (v->detail[0])
        snprintf(buf, len, "%s(%s)", v->id, v->detail);
    else
        snprintf(buf, len, "%s", v->id);
}
