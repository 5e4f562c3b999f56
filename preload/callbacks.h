/* callbacks.h - the CUPTI callback/activity boundary (see callbacks.c).  It
 * calls the core (core.h); the core never calls it. */
#ifndef GP_CALLBACKS_H
#define GP_CALLBACKS_H

/* Subscribes to the driver-API and resource callbacks; with crosscheck, also
 * enables kernel activity records; then hands the core what it needs from
 * CUPTI (gp_core_set_boundary).  Returns 0 or -1 (message already given). */
int gp_callbacks_subscribe(long crosscheck);
/* At start-up, when NVTX ranges select launches: points NVTX_INJECTION64_PATH
 * at the CUPTI library, so that the program's NVTX calls reach CUPTI's NVTX
 * callbacks (a problem is said when the callbacks are subscribed). */
void gp_callbacks_nvtx_injection(void);
/* Delivers the activity records still buffered (at exit). */
void gp_callbacks_flush(void);

#endif
