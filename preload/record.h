/* record.h - the profiler's names for the records it writes.  The structs and
 * their fields are defined once, in metrics/records/record.h and
 * metrics/record_fields.def. */
#ifndef GP_PRELOAD_RECORD_H
#define GP_PRELOAD_RECORD_H

#include "metrics/records/record.h"

typedef gp_device gp_device_facts;

#endif
