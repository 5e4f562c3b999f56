/* capture.h - a report writer's output as a string, for the report tests. */
#ifndef GP_TEST_CAPTURE_H
#define GP_TEST_CAPTURE_H

#include <stdio.h>

#include "gp_test.h"
#include "metrics/report/report.h"

/* What fn writes for r (malloc'd; the caller frees it). */
static char *capture(const gp_report *r, int (*fn)(const gp_report *, FILE *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    GP_CHECK(fn(r, f) == 0);
    fclose(f);
    return buf;
}

#endif
