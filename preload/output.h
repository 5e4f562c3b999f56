/* output.h - the CSV and JSON-lines writers (docs/output-format.md).  They
 * take FILE*s so that tests drive them without a GPU; nothing here writes to
 * stdout unless given stdout. */
#ifndef GP_OUTPUT_H
#define GP_OUTPUT_H

#include <stdio.h>

#include "preload/record.h"

void gp_json_write_device(FILE *f, const gp_device_facts *d);
void gp_json_write_launch(FILE *f, const gp_launch_record *r);
void gp_csv_write_header(FILE *f, const gp_launch_record *r);
void gp_csv_write_launch(FILE *f, const gp_launch_record *r);

#endif
