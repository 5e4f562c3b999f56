/* log.c - see log.h */
#include "util/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

static int log_level = GP_LOG_WARN;
static FILE *log_sink;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

#define LOG_ONCE_MAX 64
static char log_once_keys[LOG_ONCE_MAX][48];
static int log_once_count;

static const char *const level_names[] = {"error", "warning", "info", "debug"};

void gp_log_setup(int level, FILE *sink)
{
    log_level = level;
    log_sink = sink;
}

int gp_log_enabled(int level) { return level <= log_level; }

static void log_v(int level, const char *fmt, va_list ap)
{
    FILE *out = log_sink ? log_sink : stderr;
    char line[2048];
    int n = snprintf(line, sizeof(line), "[gpuprof %d] %s: ", (int)getpid(), level_names[level]);
    if (n < 0)
        return;
    vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
    /* one write per line so that lines from threads do not interleave */
    fprintf(out, "%s\n", line);
    fflush(out);
}

void gp_log(int level, const char *fmt, ...)
{
    if (!gp_log_enabled(level))
        return;
    va_list ap;
    va_start(ap, fmt);
    log_v(level, fmt, ap);
    va_end(ap);
}

void gp_log_once(int level, const char *key, const char *fmt, ...)
{
    if (!gp_log_enabled(level))
        return;
    pthread_mutex_lock(&log_lock);
    for (int i = 0; i < log_once_count; i++) {
        if (strcmp(log_once_keys[i], key) == 0) {
            pthread_mutex_unlock(&log_lock);
            return;
        }
    }
    if (log_once_count < LOG_ONCE_MAX)
        snprintf(log_once_keys[log_once_count++], sizeof(log_once_keys[0]), "%s", key);
    pthread_mutex_unlock(&log_lock);
    va_list ap;
    va_start(ap, fmt);
    log_v(level, fmt, ap);
    va_end(ap);
}
