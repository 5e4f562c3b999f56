/* host_obj.h - CUPTI's profiler host objects, shared by the two halves of
 * the host side: cupti_host.c (configurations, names) and host_group.c
 * (grouping names into configurations).  Internal to replay/. */
#ifndef GP_REPLAY_HOST_OBJ_H
#define GP_REPLAY_HOST_OBJ_H

#include <cupti_profiler_host.h>
#include <cupti_result.h>
#include <stddef.h>
#include <stdint.h>

/* A host object for chip (with the device's availability image, or NULL),
 * or NULL with *res set. */
CUpti_Profiler_Host_Object *gp_host_obj_open(const char *chip, const uint8_t *avail,
                                             CUptiResult *res);
void gp_host_obj_close(CUpti_Profiler_Host_Object *h);
/* Adds names[0..n) to the object's configuration: 0, or -1 when CUPTI
 * refuses them (which spoils the object for every later add). */
int gp_host_obj_add(CUpti_Profiler_Host_Object *h, const char *const *names, size_t n);

#endif
