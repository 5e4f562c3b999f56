/* devices.h - what the device records say of a device: its driver
 * attributes and chip name (docs/output-format.md). */
#ifndef GP_DEVICES_H
#define GP_DEVICES_H

#include "preload/core_state.h"

/* A device's facts (driver attributes) with its chip name. */
void gp_devices_facts(int dev, gp_device_facts *d, const char *chip);

#endif
