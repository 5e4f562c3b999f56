/* metrics/catalog/ - the metric catalog and its derivation, as data: raw counters
 * (counters.def), derived formulas (derived.def) and the facts they use
 * (facts.def), their evaluator (expr), occupancy, the roofs of the roofline
 * (roofs.def) and the measured peaks, number formatting; gen.c checks the
 * tables at build time and writes the generated header and pages.
 *
 * The room's face: its public headers.  Rooms lie in layers (docs/
 * architecture.md, "Rooms of metrics/"); a file here includes only util/ and
 * the rooms named below, never one above, and no two files call each other
 * in a loop (tests/unit/test_layers.sh checks both).
 * May use: util, records
 */
#ifndef GP_ROOM_CATALOG_H
#define GP_ROOM_CATALOG_H

#include "metrics/catalog/derived.h"
#include "metrics/catalog/expr.h"
#include "metrics/catalog/facts.h"
#include "metrics/catalog/format.h"
#include "metrics/catalog/occupancy.h"
#include "metrics/catalog/peaks.h"
#include "metrics/catalog/roofline.h"
#include "metrics/catalog/roofs.h"

#endif
