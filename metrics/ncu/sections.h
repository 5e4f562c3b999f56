/* sections.h - Nsight Compute's sets and sections (sections.def) by name:
 * finding them (an identifier, or regex: as ncu takes it), which metrics a
 * choice of sections collects, and the listings of --list-sets and
 * --list-sections.  Pure; needs util/ and the formula parser only, so the
 * launcher, the library's configuration parser and the report share it.
 * The values of a section's rows for a launch are sections_eval.h's. */
#ifndef GP_NCU_SECTIONS_H
#define GP_NCU_SECTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { GP_NCU_HEAD, GP_NCU_BODY, GP_NCU_COLLECT } gp_ncu_place;

/* How a row's value is had (from the first character of its value column). */
typedef enum {
    GP_NCU_PLAIN,   /* the metric itself, collected by CUPTI */
    GP_NCU_FORMULA, /* computed by the report: value + 1 is the formula */
    GP_NCU_CANNOT   /* not collectable: value + 1 is the reason */
} gp_ncu_how;

typedef struct {
    const char *section, *label, *metric, *unit, *value;
    gp_ncu_place place;
    int provisional;
    int named; /* Nsight Compute's value is a name or text (PolicySpread), not
                * a number: its per-kernel summary leaves the row out */
} gp_ncu_row;

typedef struct {
    const char *id, *display, *note;
    int order, provisional, line; /* line: of sections.def */
} gp_ncu_section_def;

typedef struct {
    const char *id, *sections, *group, *description;
    int provisional;
} gp_ncu_set;

extern const gp_ncu_row gp_ncu_rows[];
extern const size_t gp_ncu_n_rows;
extern const gp_ncu_section_def gp_ncu_sections[];
extern const size_t gp_ncu_n_sections;
extern const gp_ncu_set gp_ncu_sets[];
extern const size_t gp_ncu_n_sets;

/* A choice of sections: bit i is gp_ncu_sections[i]. */
typedef uint64_t gp_ncu_mask;

gp_ncu_how gp_ncu_row_how(const gp_ncu_row *r);
/* Index of a section or a set by its identifier (exact), -1 when none. */
int gp_ncu_section_find(const char *id);
int gp_ncu_set_find(const char *id);
/* The sections of Nsight Compute's set s (0 for gpuprof's own sets). */
gp_ncu_mask gp_ncu_set_mask(int s);
/* The sections of the whole table, in the order of the details page
 * (gp_ncu_sections[] is in that order already). */
gp_ncu_mask gp_ncu_mask_all(void);

/* --section arg: an identifier, or "regex:EXPR" (every section whose
 * identifier EXPR matches, searched, as Nsight Compute does).  Adds the
 * sections to *m and returns 0; -1 with one sentence in err that names
 * the known sections when nothing matches or the regex is refused. */
int gp_ncu_select_section(const char *arg, gp_ncu_mask *m, char *err, size_t errlen);
/* --set arg: one of Nsight Compute's sets (its sections added to *m, *group
 * left alone) or one of gpuprof's (*group set to its GPUPROF_METRICS group,
 * "@default" ...).  -1 with one sentence naming every set otherwise. */
int gp_ncu_select_set(const char *arg, gp_ncu_mask *m, const char **group, char *err,
                      size_t errlen);

/* The identifiers of m, comma-separated, into buf (cut at len); returns buf. */
char *gp_ncu_mask_format(gp_ncu_mask m, char *buf, size_t len);
/* The sections of a comma-separated list of identifiers (the launch
 * record's "sections" field); unknown names are skipped and counted in
 * *unknown (may be NULL). */
gp_ncu_mask gp_ncu_mask_parse(const char *list, size_t *unknown);

/* Calls fn once for each distinct metric the sections of m make gpuprof
 * collect: the plain rows' metrics and the counters their formulas read
 * (names with "__"), in table order, then the counters.def rows of each of
 * Nsight Compute's sets whose sections m holds whole (set "basic", "full":
 * what gpuprof-report's charts read).  Returns how many. */
size_t gp_ncu_collect(gp_ncu_mask m, void (*fn)(void *ctx, const char *name), void *ctx);
/* Calls fn for each row of m that cannot be collected.  Returns how many. */
size_t gp_ncu_cannot(gp_ncu_mask m, void (*fn)(void *ctx, const gp_ncu_row *r), void *ctx);

/* Nsight Compute's listings, with gpuprof's own sets after its: --list-sets
 * ("Identifier Sections Enabled Estimated Metrics"; Enabled: what is
 * collected when nothing is chosen, gpuprof's default) and --list-sections
 * ("Identifier Display Name Enabled Filename", the filename being the line
 * of sections.def that defines it).  verbose adds each section's rows: the
 * label, the metric, how its value is had, and the reason for what cannot
 * be collected. */
void gp_ncu_list_sets(FILE *f);
void gp_ncu_list_sections(FILE *f, int verbose);

#endif
