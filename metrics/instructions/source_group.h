/* source_group.h - the instruction-level model after reading: each
 * function's instructions sorted by pc, the same function read from several
 * processes (same device model, module and symbol) summed into one, and the
 * functions grouped per kernel (demangled name, device ordinal, model: the
 * kernels of load.c), each group's rows built by where.c. */
#ifndef GP_SOURCE_GROUP_H
#define GP_SOURCE_GROUP_H

#include "metrics/instructions/source.h"

/* After every input (gp_report_finish calls it; NULL: nothing). */
void gp_source_group_finish(gp_source *s);

/* The group of a kernel, NULL when it has none; marks the group as shown. */
struct gp_where *gp_source_group_kernel(gp_source *s, const char *kernel, int ordinal, int model);

/* Groups no kernel asked for: functions with instruction-level data but no
 * profiled launch. */
size_t gp_source_group_unmatched(const gp_source *s);

#endif
