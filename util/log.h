/* log.h - levelled logging for the library and the tools.
 *
 * Every line goes to stderr (or GPUPROF_LOG_FILE) as "[gpuprof PID] level: text";
 * the host program's stdout is never touched.  gp_log_once() prints a message
 * only the first time its key is seen (one clear message per problem). */
#ifndef GP_LOG_H
#define GP_LOG_H

#include <stdio.h>

enum gp_log_level { GP_LOG_ERROR = 0, GP_LOG_WARN = 1, GP_LOG_INFO = 2, GP_LOG_DEBUG = 3 };

void gp_log_setup(int level, FILE *sink);
int gp_log_enabled(int level);
void gp_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Logs at most once per distinct key (a short string, e.g. "no-counter-permission"). */
void gp_log_once(int level, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define gp_error(...) gp_log(GP_LOG_ERROR, __VA_ARGS__)
#define gp_warn(...) gp_log(GP_LOG_WARN, __VA_ARGS__)
#define gp_info(...) gp_log(GP_LOG_INFO, __VA_ARGS__)
#define gp_debug(...)                                                                              \
    do {                                                                                           \
        if (gp_log_enabled(GP_LOG_DEBUG))                                                          \
            gp_log(GP_LOG_DEBUG, __VA_ARGS__);                                                     \
    } while (0)

#endif
