/* sets.h - the launcher's --set and --section (Nsight Compute's sets and
 * sections of metrics/ncu/sections.def, and gpuprof's own sets) turned into
 * GPUPROF_METRICS items. */
#ifndef GPL_SETS_H
#define GPL_SETS_H

#include <stddef.h>

/* --set NAME: gpuprof's own set as its group ("@default", ...), Nsight
 * Compute's as "@set:NAME", appended to the comma-separated list in buf.
 * Returns 0, or 2 after one message on stderr naming every set. */
int gpl_set_option(const char *value, char *buf, size_t len);
/* --section NAME or regex:EXPR: "@section:ID" for each section it names
 * (a regex resolved here, so that the variable holds identifiers only);
 * gpuprof's own set names are taken too, as before.  0, or 2 after one
 * message naming every section. */
int gpl_section_option(const char *value, char *buf, size_t len);

#endif
