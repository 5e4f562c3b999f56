/* names.h - kernel names: demangling (libstdc++'s __cxa_demangle). */
#ifndef GP_NAMES_H
#define GP_NAMES_H

#include <stddef.h>

/* Demangles `mangled` into a malloc'd string; a name that is not a C++
 * mangled name is copied as is.  Returns NULL only when out of memory. */
char *gp_demangle(const char *mangled);

#endif
