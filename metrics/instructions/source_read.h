/* source_read.h - the instruction-level records read into the model
 * (source.h): "source_function", "source_instr" and the summary's sampling
 * and results; the model freed with what was built on it (where.h). */
#ifndef GP_SOURCE_READ_H
#define GP_SOURCE_READ_H

#include <stddef.h>

#include "metrics/instructions/source.h"
#include "metrics/records/json.h"

/* Reads a "source_function" or "source_instr" record into *s (created on
 * first use).  Returns 0, or -1 with one sentence in err (malformed,
 * duplicate, out of memory). */
int gp_source_load(gp_source **s, const char *type, const gp_json *obj,
                   const gp_source_origin *from, char *err, size_t errlen);

/* A summary record of input `input`: its "sampling" and "results" objects.
 * Returns 0, or -1 with the reason when they are malformed. */
int gp_source_summary(gp_source **s, const gp_json *obj, size_t input, char *err, size_t errlen);

void gp_source_free(gp_source **s);

#endif
