/* filter.c - see filter.h */
#include "preload/filter.h"

#include <stdio.h>
#include <string.h>

const char *gp_decision_name(int d)
{
    static const char *const names[GP_DECISIONS] = {
        "profiled", "name filter", "launch skip", "launch count reached",
        "per-kernel limit reached"};
    return d >= 0 && d < GP_DECISIONS ? names[d] : "?";
}

void gp_function_name(const char *demangled, char *buf, size_t len)
{
    /* Find the parameter list: the first '(' outside <...>.  The return type
     * ends at the last space outside <...> before it. */
    int depth = 0;
    const char *open = NULL, *start = demangled;
    for (const char *p = demangled; *p; p++) {
        if (*p == '<')
            depth++;
        else if (*p == '>' && depth > 0)
            depth--;
        else if (depth == 0 && *p == ' ')
            start = p + 1;
        else if (depth == 0 && *p == '(') {
            open = p;
            break;
        }
    }
    if (!open) {
        start = demangled;
        open = demangled + strlen(demangled);
    }
    size_t n = (size_t)(open - start);
    if (n >= len)
        n = len - 1;
    memcpy(buf, start, n);
    buf[n] = '\0';
}

const char *gp_filter_name(const gp_config *cfg, const char *demangled, const char *mangled,
                           char *buf, size_t len)
{
    switch (cfg->name_base) {
    case GP_NAME_MANGLED:
        return mangled;
    case GP_NAME_DEMANGLED:
        return demangled;
    default:
        gp_function_name(demangled, buf, len);
        return buf;
    }
}

int gp_filter_name_matches(const gp_config *cfg, const char *name)
{
    if (cfg->have_include && regexec(&cfg->include_re, name, 0, NULL, 0) != 0)
        return 0;
    if (cfg->have_exclude && regexec(&cfg->exclude_re, name, 0, NULL, 0) == 0)
        return 0;
    return 1;
}

int gp_filter_decide(const gp_config *cfg, gp_filter_state *st, int name_matches,
                     uint64_t *kernel_profiled)
{
    if (!name_matches)
        return GP_SKIP_NAME;
    st->matched++;
    if (st->matched <= (uint64_t)cfg->launch_skip)
        return GP_SKIP_LAUNCH;
    if (cfg->launch_count >= 0 && st->profiled >= (uint64_t)cfg->launch_count)
        return GP_SKIP_COUNT;
    if (cfg->max_per_kernel >= 0 && *kernel_profiled >= (uint64_t)cfg->max_per_kernel)
        return GP_SKIP_PER_KERNEL;
    st->profiled++;
    (*kernel_profiled)++;
    return GP_PROFILE;
}
