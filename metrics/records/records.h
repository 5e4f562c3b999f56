/* metrics/records/ - one record in and out: the bounded reading of input files, JSON, the record
 * format (record_fields.def) and its structs, the device record, the guards
 * that make an efficiency of nothing n/a (guards.def).  The library's
 * writer (preload/output.c) and the report's reader share this room.
 *
 * The room's face: its public headers.  Rooms lie in layers (docs/
 * architecture.md, "Rooms of metrics/"); a file here includes only util/ and
 * the rooms named below, never one above, and no two files call each other
 * in a loop (tests/unit/test_layers.sh checks both).
 * May use: util
 */
#ifndef GP_ROOM_RECORDS_H
#define GP_ROOM_RECORDS_H

#include "metrics/records/device.h"
#include "metrics/records/guard.h"
#include "metrics/records/json.h"
#include "metrics/records/record.h"
#include "metrics/records/textfile.h"

#endif
