/* report_missing.h - what a run did not collect, said once per report
 * instead of once per metric and kernel: a derived metric that is n/a
 * because a counter was not collected is counted under the set that
 * collects that counter (counters.def's set column), and the short text
 * report and the HTML page leave it out.  A metric n/a for another reason
 * (a pass that failed, nothing of the kind in the kernel, missing in some
 * launches) is no such gap: the writers say it with its kernel. */
#ifndef GP_REPORT_MISSING_H
#define GP_REPORT_MISSING_H

#include <stddef.h>

#include "metrics/model/load.h"

/* 1 when why is the evaluator's "<counter> not collected" (the whole
 * reason: "n/a in 1 of 3 launches: ..." is not). */
int gp_report_not_collected(const char *why);

/* 1 when v is a value; 0 when it is n/a because a counter was not
 * collected or no peaks file was given (leave it out: the header says both
 * once); -1 when it is n/a for another reason (say it). */
int gp_report_has(double v, const char *why);

/* The set that collects counter name, as a user asks for it ("--set full
 * (memory chart)", "--section WarpStateStats"); NULL when counters.def has
 * no such counter. */
const char *gp_report_set_phrase(const char *counter, size_t len);

/* The report's one line of what it lacks: "12 metrics of --set full (memory
 * chart), 8 of --section WarpStateStats" into buf (by count, largest
 * first), each metric counted once whatever the number of kernels that lack
 * it.  Returns the number of metrics; 0 (and buf "") when nothing was
 * missed. */
size_t gp_report_missing_line(const gp_report *r, char *buf, size_t len);

#endif
