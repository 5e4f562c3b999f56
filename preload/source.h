/* source.h - instruction-level data of the run (source_table.h) as the
 * policy keeps it: the SASS pass's records of each profiled launch, the
 * stall samples sampling.h drains, and at exit the source_function and
 * source_instr records (docs/output-format.md), each instruction given its
 * source line when its cubin has line information (lineinfo.h). */
#ifndef GP_SOURCE_H
#define GP_SOURCE_H

#include <stdio.h>

#include "preload/core_state.h"

/* machine code of one function written in its record at most (hex takes
 * twice as many characters); a larger function's record has no code */
#define GP_SOURCE_CODE_MAX (1u << 20)

/* The table, created at first use (NULL when out of memory).  Caller holds
 * state_lock. */
gp_src_table *gp_source_table(void);
/* gp_collect_set.sass_sink: one launch's SASS records into the table.
 * Takes state_lock. */
void gp_source_sass_sink(void *arg, int device, const gp_sass_record *r, size_t n);
/* Whether the run keeps instruction-level data: a SASS pass or stall
 * sampling. */
int gp_source_wanted(void);
/* A loaded module: its functions' machine code and line information are
 * kept when gp_source_wanted().  Caller holds state_lock. */
void gp_source_module_loaded(const void *cubin, size_t size);
/* At exit, with out_lock held and the JSON output open: the device records
 * not written yet, then one source_function record per function and its
 * source_instr records.  Takes state_lock. */
void gp_source_write(FILE *json);

#endif
