/* names.c - see names.h */
#include "preload/names.h"

#include <stdlib.h>
#include <string.h>

extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *gp_demangle(const char *mangled)
{
    if (!mangled)
        return strdup("?");
    int status = 0;
    char *d = NULL;
    if (mangled[0] == '_' && mangled[1] == 'Z')
        d = __cxa_demangle(mangled, NULL, NULL, &status);
    return d && status == 0 ? d : strdup(mangled);
}
