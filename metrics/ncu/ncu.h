/* metrics/ncu/ - Nsight Compute interop: the names it accepts and uses (ncu_names.def),
 * its raw CSV page read (ncu_raw), gpuprof's records judged against it
 * (against, against.def), its sets and sections (sections.def: sections,
 * and their rows' values for a launch: sections_eval).
 *
 * The room's face: its public headers.  Rooms lie in layers (docs/
 * architecture.md, "Rooms of metrics/"); a file here includes only util/ and
 * the rooms named below, never one above, and no two files call each other
 * in a loop (tests/unit/test_layers.sh checks both).
 * May use: util, records, catalog
 */
#ifndef GP_ROOM_NCU_H
#define GP_ROOM_NCU_H

#include "metrics/ncu/against.h"
#include "metrics/ncu/ncu_names.h"
#include "metrics/ncu/ncu_raw.h"
#include "metrics/ncu/sections.h"
#include "metrics/ncu/sections_eval.h"

#endif
