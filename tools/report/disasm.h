/* disasm.h - SASS text for the report: each function's machine code (the
 * "code" of its source_function record) disassembled by nvdisasm at report
 * time, the listing parsed by metrics/instructions/sass_listing.c and each instruction's
 * text given to the model.  The only place gpuprof-report runs a program. */
#ifndef GP_DISASM_H
#define GP_DISASM_H

#include <stdio.h>

#include "metrics/instructions/source.h"
#include "metrics/instructions/source_text.h"

#define GP_DISASM_TIMEOUT_S 20      /* one function, unless --nvdisasm-timeout says */
#define GP_DISASM_BUDGET_S 120      /* all functions of a report */
#define GP_DISASM_OUT_PER_INSTR 512 /* bytes of listing one instruction may take */

/* The disassembler: `explicit` (--nvdisasm) when given, else
 * $CUDA_HOME/bin/nvdisasm, else nvdisasm on the PATH.  A malloc'd path, or
 * NULL with the reason in why. */
char *gp_disasm_find(const char *explicit_path, char *why, size_t len);

/* Disassembles every function of s that has machine code, as raw
 * instructions of its device's SM version (`nvdisasm -b SM90 FILE`, from a
 * private temporary file), each run bounded by timeout_s seconds (0:
 * GP_DISASM_TIMEOUT_S) and an output of GP_DISASM_OUT_PER_INSTR bytes per
 * instruction, all of them by GP_DISASM_BUDGET_S.  Sets s->disasm
 * (the tool's path, or why there is none) and each function's SASS text or
 * sass_why; the first failure is said on warn.  Returns how many functions
 * got text. */
int gp_disasm_source(gp_source *s, const char *explicit_path, double timeout_s, FILE *warn);

#endif
