/* metrics/instructions/ - instruction-level data ("why and where"): the source_function and
 * source_instr records (source, source_read, source_instr, source_json),
 * functions grouped per kernel (source_group), source and SASS text given at
 * report time (source_text, sass_listing) and per kernel the rows per line
 * or instruction (where).
 *
 * The room's face: its public headers.  Rooms lie in layers (docs/
 * architecture.md, "Rooms of metrics/"); a file here includes only util/ and
 * the rooms named below, never one above, and no two files call each other
 * in a loop (tests/unit/test_layers.sh checks both).
 * May use: util, records
 */
#ifndef GP_ROOM_INSTRUCTIONS_H
#define GP_ROOM_INSTRUCTIONS_H

#include "metrics/instructions/sass_listing.h"
#include "metrics/instructions/source.h"
#include "metrics/instructions/source_group.h"
#include "metrics/instructions/source_instr.h"
#include "metrics/instructions/source_json.h"
#include "metrics/instructions/source_read.h"
#include "metrics/instructions/source_text.h"
#include "metrics/instructions/where.h"

#endif
