/* source_instr.h - "source_instr" records (docs/output-format.md) read into
 * their function of the model (source.h): counts, line, access, stall
 * reasons (known ones at their gp_stall_id, others interned up to
 * GP_SOURCE_MAX_REASONS, then "(other reasons)"), the invariants of the
 * counts checked (a defect is flagged and described, never fatal), a second
 * record of the same instruction refused, the limits of source.h applied. */
#ifndef GP_SOURCE_INSTR_H
#define GP_SOURCE_INSTR_H

#include "metrics/instructions/source.h"

/* One record of the current input.  Returns 0 (also when the instruction
 * was left out for a limit: counted), or -1 with one sentence in err. */
int gp_source_instr_load(gp_source *s, const gp_json *obj, char *err, size_t errlen);

/* Appends in to f (f takes over its stall list).  0, or -1 (memory). */
int gp_source_instr_append(gp_source_func *f, gp_source_instr *in);

#endif
