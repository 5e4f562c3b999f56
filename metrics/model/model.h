/* metrics/model/ - the loaded report: its structs (report_types), records read into
 * per-kernel rows (load), device entries (devices), launches combined
 * (aggregate), replay mode none's arithmetic (estimate, also the library's)
 * and its records (estimate_load), two runs matched (baseline).
 *
 * The room's face: its public headers.  Rooms lie in layers (docs/
 * architecture.md, "Rooms of metrics/"); a file here includes only util/ and
 * the rooms named below, never one above, and no two files call each other
 * in a loop (tests/unit/test_layers.sh checks both).
 * May use: util, records, catalog, instructions, verdicts
 */
#ifndef GP_ROOM_MODEL_H
#define GP_ROOM_MODEL_H

#include "metrics/model/aggregate.h"
#include "metrics/model/baseline.h"
#include "metrics/model/devices.h"
#include "metrics/model/estimate.h"
#include "metrics/model/estimate_load.h"
#include "metrics/model/load.h"
#include "metrics/model/report_types.h"

#endif
