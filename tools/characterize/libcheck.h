/* libcheck.h - whether a file can be the profiler library characterize
 * preloads.  The dynamic loader skips an LD_PRELOAD entry it cannot load
 * (a directory, a text file, a library of another architecture) with a
 * warning on the program's stderr, which is not compared: every program
 * would run unprofiled and be reported ok.  So the library is checked before
 * anything runs, by reading its ELF headers (nothing of it is loaded or
 * run). */
#ifndef GPC_LIBCHECK_H
#define GPC_LIBCHECK_H

#include <stddef.h>

/* The symbol only libgpuprof defines (include/gpuprof.h). */
#define GPC_LIBCHECK_SYMBOL "gpuprof_version"
/* What libgpuprof.so loads from its own directory. */
#define GPC_LIBCHECK_CORE "libgpuprof-core.so"

/* 0 when lib (a resolved path) is a path LD_PRELOAD can carry (no space,
 * tab, newline or colon) naming a readable regular file that is an ELF
 * shared object of this program's class, byte order and machine, whose
 * dynamic symbol table defines GPC_LIBCHECK_SYMBOL, with GPC_LIBCHECK_CORE
 * as a regular file next to it (unless lib is that file).  -1 with one
 * sentence naming lib and what is wrong in err otherwise. */
int gpc_libcheck(const char *lib, char *err, size_t errlen);

#endif
