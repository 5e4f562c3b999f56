/* metrics/verdicts/ - ranked bottleneck verdicts with their evidence and advice: what a
 * verdict is and the list rules add to (verdict_list), the counter and
 * roofline rules (verdict), the stall-reason rules (verdict_stall), and which
 * line each verdict's "where" quotes (verdict_where).
 *
 * The room's face: its public headers.  Rooms lie in layers (docs/
 * architecture.md, "Rooms of metrics/"); a file here includes only util/ and
 * the rooms named below, never one above, and no two files call each other
 * in a loop (tests/unit/test_layers.sh checks both).
 * May use: util, records, catalog, instructions
 */
#ifndef GP_ROOM_VERDICTS_H
#define GP_ROOM_VERDICTS_H

#include "metrics/verdicts/verdict.h"
#include "metrics/verdicts/verdict_list.h"
#include "metrics/verdicts/verdict_stall.h"
#include "metrics/verdicts/verdict_where.h"

#endif
