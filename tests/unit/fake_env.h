/* fake_env.h - an environment for the configuration parser in tests: a
 * NULL-terminated table of name, value pairs instead of getenv. */
#ifndef GP_FAKE_ENV_H
#define GP_FAKE_ENV_H

#include <string.h>

static const char *const *fake_env_table;

static const char *fake_env(const char *name)
{
    for (const char *const *p = fake_env_table; p && *p; p += 2)
        if (strcmp(p[0], name) == 0)
            return p[1];
    return NULL;
}

#endif
