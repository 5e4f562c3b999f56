/* log_capture.h - unit tests of code that logs: the library's log sent to a
 * temporary file (log_capture_start), and the lines it took since the last
 * look counted (log_lines).  One sink per test program. */
#ifndef GP_TEST_LOG_CAPTURE_H
#define GP_TEST_LOG_CAPTURE_H

#include <stdio.h>

#include "util/log.h"

static FILE *log_sink;

/* The log at level and above into a temporary file.  0, or -1. */
static inline int log_capture_start(int level)
{
    log_sink = tmpfile();
    if (!log_sink)
        return -1;
    gp_log_setup(level, log_sink);
    return 0;
}

/* Lines the log has taken since the last call; the last one into last
 * (when not NULL). */
static inline int log_lines(char *last, size_t len)
{
    static long seen;
    fflush(log_sink);
    long end = ftell(log_sink);
    int lines = 0;
    char buf[1024];
    fseek(log_sink, seen, SEEK_SET);
    while (fgets(buf, sizeof(buf), log_sink)) {
        lines++;
        if (last)
            snprintf(last, len, "%s", buf);
    }
    seen = end;
    fseek(log_sink, end, SEEK_SET);
    return lines;
}

#endif
