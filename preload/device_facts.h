/* device_facts.h - what the device records say of a device: its driver
 * attributes and chip name (docs/output-format.md). */
#ifndef GP_DEVICE_FACTS_H
#define GP_DEVICE_FACTS_H

#include "preload/core_state.h"

/* A device's facts (driver attributes) with its chip name. */
void gp_device_facts_read(int dev, gp_device_facts *d, const char *chip);

#endif
