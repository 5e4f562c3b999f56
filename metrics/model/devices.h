/* devices.h - the device entries of a report (load.h): each device record
 * kept per input, claimed by the process whose launches use it, grouped by
 * GPU model, every lookup through an index, so that records of tens of
 * thousands of processes cost linear time (a scan per record and per launch
 * made them quadratic).  load.c reads the records and calls these. */
#ifndef GP_DEVICES_H
#define GP_DEVICES_H

#include <stddef.h>

#include "metrics/model/report_types.h"

/* Adds a device record of the input being read (r->files' last).  Returns
 * 0, or -1 with "out of memory" in err. */
int gp_devices_add(gp_report *r, const gp_device *d, char *err, size_t errlen);

/* The entry a launch of (host, pid, ordinal) in input file uses: the one
 * its process already claimed; else the latest of that ordinal in its input
 * that no process has claimed, which it then claims (a launch without a pid
 * leaves it open); else the latest of that ordinal in its input; else in any
 * input; else -1. */
long gp_devices_of_launch(gp_report *r, size_t file, const char *host, long pid, int ordinal);

/* Calls fn once per (ordinal, model), in order of first appearance, with
 * the number of processes that used it (gp_report_each_device). */
void gp_devices_each(const gp_report *r, void (*fn)(const gp_device *d, size_t inputs, void *arg),
                     void *arg);

/* Frees the index (the entries are r->devices, freed with the report). */
void gp_devices_free(gp_report *r);

#endif
