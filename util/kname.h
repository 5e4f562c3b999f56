/* kname.h - kernel names as Nsight Compute shows them, from a demangled name.
 *
 * The function name is what Nsight Compute calls the "function" name base:
 * no return type, parameter list, template arguments or namespace, so
 * "void ns::gemm<float, 4>(float*, int)" is "gemm".  The library's name
 * filters (GPUPROF_KERNEL_NAME_BASE=function) and the reports' short names
 * use the same helper, so `-k gemm` selects what the report calls gemm. */
#ifndef GP_KNAME_H
#define GP_KNAME_H

#include <stddef.h>

/* Writes the function name of `demangled` into buf (truncated to len - 1).
 * A name that is not a C++ signature ("saxpy") is returned as it is. */
void gp_kname_function(const char *demangled, char *buf, size_t len);

/* Writes the template arguments of the function, with their angle brackets
 * ("<float, 4>"), into buf; "" when it has none. */
void gp_kname_template_args(const char *demangled, char *buf, size_t len);

#endif
