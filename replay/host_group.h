/* host_group.h - splitting a metric list into CUPTI configurations, on the
 * host (no GPU needed): for kernel replay when one configuration cannot take
 * the list, and into one-pass configurations for replay mode none.  Asks
 * CUPTI's host API (host_obj.h) and PerfWorks' scheduler (nvpw_sched.h). */
#ifndef GP_REPLAY_HOST_GROUP_H
#define GP_REPLAY_HOST_GROUP_H

#include <stddef.h>
#include <stdint.h>

/* Splits names over configurations CUPTI accepts on this device (with the
 * availability image `avail`), as Nsight Compute does with a list too long
 * for one: group[i] is the configuration of names[i] (0, 1, ...), or -1 for
 * a name CUPTI refuses even alone (metrics of units the device or its
 * configuration does not expose, such as NVLink counters without NVLink).
 * Greedy in the caller's order: each configuration takes the remaining
 * names until CUPTI refuses one that it takes alone.  Returns the number of
 * configurations (0 when CUPTI cannot be asked).  Called only after a whole
 * set failed. */
size_t gp_host_partition(const char *chip, const uint8_t *avail, const char *const *names,
                         size_t n, int *group);

/* Replay mode none: splits names over configurations of one pass each.
 * Names with every[i] set are carried by every configuration that can take
 * them (group[i] = GP_HOST_EVERY; as many of them as one pass takes, in
 * order); every other name is placed in the first configuration, greedy in
 * the caller's order, with which it stays one pass (group[i] = 0, 1, ...),
 * or -1 when it needs more than one pass even alone, is refused, or more
 * than max_groups configurations would be needed.  Instrumented names
 * (gp_metric_is_instrumented) never share a configuration with the every
 * names: instrumentation changes durations and instruction counts.  carries_every[g]: 1 when
 * configuration g carries the every names (a name that fits with none of
 * them gets configurations without them).  Returns the number of
 * configurations (0: none possible).  Each trial is first answered by
 * PerfWorks' scheduler (replay/nvpw_sched.h: about 0.1 ms a trial), and
 * each configuration so made checked with a CUPTI host configuration; where
 * that is not possible or a check fails, the trials open a host
 * configuration each (3-8 ms on the host), on up to half the machine's
 * processors at once (at most 8; the result is the same as one at a time).
 * Called once per process and chip. */
#define GP_HOST_EVERY (-2)
size_t gp_host_partition_one_pass(const char *chip, const uint8_t *avail, const char *const *names,
                                  size_t n, const int *every, int *group, int *carries_every,
                                  size_t max_groups);
/* The same with `threads` trials at once (1: one at a time; the tests
 * compare the two). */
/* 0: the trials always open host configurations (the tests compare both
 * ways); 1, the default: PerfWorks' scheduler first. */
void gp_host_fast_grouping(int on);
/* Tests: the one-pass check refuses lists of more than `names` names, as
 * CUPTI did on a GPU for a configuration PerfWorks' scheduler proposed (0:
 * off).  Not for the library's own use. */
void gp_host_inject_one_pass_limit(size_t names);
/* 1 when the last one-pass grouping was PerfWorks' (0: the slow way). */
int gp_host_last_grouping_fast(void);
size_t gp_host_partition_one_pass_threads(const char *chip, const uint8_t *avail,
                                          const char *const *names, size_t n, const int *every,
                                          int *group, int *carries_every, size_t max_groups,
                                          size_t threads);

/* 1 when CUPTI refuses `name` alone on chip (a fresh host object refuses
 * the add), 0 when it takes it, -1 when CUPTI cannot be asked: what a name
 * gp_host_partition() leaves out (-1) means, checked again for a split kept
 * between runs (host_split.h). */
int gp_host_refused_alone(const char *chip, const uint8_t *avail, const char *name);

/* Seconds this process has spent in gp_host_partition() and
 * gp_host_partition_one_pass*() (wall time, all calls together): the
 * splitting of a metric list into configurations, for the summary's set-up
 * parts. */
double gp_host_grouping_s(void);

#endif
