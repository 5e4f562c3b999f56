/* ncu_names.h - every name Nsight Compute accepts in --metrics or uses in
 * its sections, accepted or refused with the reason and the nearest
 * collectable names.  Pure: the chip's metrics come in as a list (from
 * CUPTI's host API in the library, from a recorded `ncu --query-metrics`
 * in the tests), so the same rules run with and without a GPU.
 *
 * The rules, in order: a metric of derived.def under Nsight Compute's name
 * (contains "__"): accepted, computed by gpuprof-report; a line of
 * ncu_names.def: accepted (a launch fact) or refused with its reason; a
 * base metric of the chip with a suffix its type has: accepted (CUPTI
 * collects it); otherwise refused: a base name without a suffix, a suffix
 * the type has not, or no metric of the chip, each with the nearest names
 * that are accepted. */
#ifndef GP_NCU_NAMES_H
#define GP_NCU_NAMES_H

#include <stddef.h>

/* A base metric's type, as CUPTI and Nsight Compute list them. */
enum { GP_NCUN_NONE = -1, GP_NCUN_COUNTER = 0, GP_NCUN_RATIO, GP_NCUN_THROUGHPUT };

typedef enum {
    GP_NCUN_ACCEPT_CUPTI,   /* a chip metric with a valid suffix: CUPTI collects it */
    GP_NCUN_ACCEPT_DERIVED, /* derived.def: computed by gpuprof-report (inputs in `inputs`) */
    GP_NCUN_ACCEPT_LAUNCH,  /* a launch fact every record has */
    GP_NCUN_REFUSED
} gp_ncun_kind;

typedef struct {
    gp_ncun_kind kind;
    char reason[320];  /* why refused, or where an accepted value comes from */
    char instead[600]; /* refused: names to collect instead, ", "-separated */
} gp_ncun_verdict;

typedef struct gp_ncun_list gp_ncun_list;

/* The chip's base metrics: add each (name without suffix, GP_NCUN_* type),
 * then gp_ncun_list_done (sorts).  NULL / -1 on out of memory. */
gp_ncun_list *gp_ncun_list_new(void);
int gp_ncun_list_add(gp_ncun_list *l, const char *name, int type);
void gp_ncun_list_done(gp_ncun_list *l);
void gp_ncun_list_free(gp_ncun_list *l);
size_t gp_ncun_list_count(const gp_ncun_list *l);
/* The type of base name[0..len), GP_NCUN_NONE when the chip has none. */
int gp_ncun_base_type(const gp_ncun_list *l, const char *name, size_t len);

/* Whether suffix (".sum", ".avg.per_second", ...; "" for none) is one that
 * Nsight Compute lists for a metric of type. */
int gp_ncun_suffix_ok(int type, const char *suffix);
/* The n-th suffix of type (n from 0), NULL past the last: the grammar that
 * expands a base list to `ncu --query-metrics-mode all`. */
const char *gp_ncun_suffix(int type, size_t n);

/* 1 when name is one of Nsight Compute's own (a derived.def metric under its
 * name, or a line of ncu_names.def): decided without CUPTI. */
int gp_ncun_known(const char *name);

/* The verdict on name for the chip (chip_name for messages); chip may be
 * NULL (no list: no close names offered). */
void gp_ncun_check(const gp_ncun_list *chip, const char *chip_name, const char *name,
                   gp_ncun_verdict *v);

#endif
