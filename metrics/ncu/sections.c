/* sections.c - see sections.h. */
#include "metrics/ncu/sections.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/catalog/expr.h"
#include "util/regex_safe.h"

enum { GP_NCU_FACTS_V = 0, GP_NCU_FACTS_P = 1, GP_NCU_FACTS_N = 2 };

const gp_ncu_row gp_ncu_rows[] = {
#define GP_NCU_ROW(sec, place, label, metric, unit, value, facts)                                  \
    {sec,                                                                                          \
     label,                                                                                        \
     metric,                                                                                       \
     unit,                                                                                         \
     value,                                                                                        \
     GP_NCU_##place,                                                                               \
     GP_NCU_FACTS_##facts == GP_NCU_FACTS_P,                                                       \
     GP_NCU_FACTS_##facts == GP_NCU_FACTS_N},
#include "metrics/ncu/sections.def"
};
const size_t gp_ncu_n_rows = sizeof gp_ncu_rows / sizeof gp_ncu_rows[0];

const gp_ncu_section_def gp_ncu_sections[] = {
#define GP_NCU_SECTION(id, display, order, facts, note)                                            \
    {id, display, note, order, GP_NCU_FACTS_##facts, __LINE__},
#include "metrics/ncu/sections.def"
};
const size_t gp_ncu_n_sections = sizeof gp_ncu_sections / sizeof gp_ncu_sections[0];

const gp_ncu_set gp_ncu_sets[] = {
#define GP_NCU_SET(id, sections, group, facts, description)                                        \
    {id, sections, group, description, GP_NCU_FACTS_##facts},
#include "metrics/ncu/sections.def"
};
const size_t gp_ncu_n_sets = sizeof gp_ncu_sets / sizeof gp_ncu_sets[0];

/* a mask holds every section */
typedef char gp_ncu_fits_mask[sizeof gp_ncu_sections / sizeof gp_ncu_sections[0] <= 64 ? 1 : -1];

static const struct {
    const char *name, *set;
} gp_ncu_counters[] = {
#define GP_COUNTER(n, u, c, s, d) {n, s},
#include "metrics/catalog/counters.def"
#undef GP_COUNTER
};

gp_ncu_how gp_ncu_row_how(const gp_ncu_row *r)
{
    return r->value[0] == '=' ? GP_NCU_FORMULA : r->value[0] == '!' ? GP_NCU_CANNOT : GP_NCU_PLAIN;
}

int gp_ncu_section_find(const char *id)
{
    for (size_t i = 0; i < gp_ncu_n_sections; i++)
        if (strcmp(gp_ncu_sections[i].id, id) == 0)
            return (int)i;
    return -1;
}

int gp_ncu_set_find(const char *id)
{
    for (size_t i = 0; i < gp_ncu_n_sets; i++)
        if (strcmp(gp_ncu_sets[i].id, id) == 0)
            return (int)i;
    return -1;
}

/* Calls fn for each word of a space- or comma-separated list. */
static void gp_ncu_words(const char *list, void (*fn)(void *ctx, const char *w, size_t n),
                         void *ctx)
{
    const char *p = list;
    while (p && *p) {
        size_t n;
        while (*p == ' ' || *p == ',')
            p++;
        n = strcspn(p, " ,");
        if (n)
            fn(ctx, p, n);
        p += n;
    }
}

typedef struct {
    gp_ncu_mask m;
    size_t unknown;
} gp_ncu_words_ctx;

static void gp_ncu_word_bit(void *ctx, const char *w, size_t n)
{
    gp_ncu_words_ctx *c = ctx;
    for (size_t i = 0; i < gp_ncu_n_sections; i++)
        if (strlen(gp_ncu_sections[i].id) == n && memcmp(gp_ncu_sections[i].id, w, n) == 0) {
            c->m |= (gp_ncu_mask)1 << i;
            return;
        }
    c->unknown++;
}

gp_ncu_mask gp_ncu_set_mask(int s)
{
    gp_ncu_words_ctx c = {0, 0};
    if (s >= 0 && (size_t)s < gp_ncu_n_sets)
        gp_ncu_words(gp_ncu_sets[s].sections, gp_ncu_word_bit, &c);
    return c.m;
}

gp_ncu_mask gp_ncu_mask_all(void)
{
    return gp_ncu_n_sections >= 64 ? ~(gp_ncu_mask)0 : ((gp_ncu_mask)1 << gp_ncu_n_sections) - 1;
}

gp_ncu_mask gp_ncu_mask_parse(const char *list, size_t *unknown)
{
    gp_ncu_words_ctx c = {0, 0};
    gp_ncu_words(list, gp_ncu_word_bit, &c);
    if (unknown)
        *unknown = c.unknown;
    return c.m;
}

char *gp_ncu_mask_format(gp_ncu_mask m, char *buf, size_t len)
{
    size_t o = 0;
    if (!len)
        return buf;
    buf[0] = '\0';
    for (size_t i = 0; i < gp_ncu_n_sections; i++) {
        if (!(m >> i & 1))
            continue;
        int n = snprintf(buf + o, len - o, "%s%s", o ? "," : "", gp_ncu_sections[i].id);
        if (n < 0 || (size_t)n >= len - o)
            break;
        o += (size_t)n;
    }
    return buf;
}

/* "A, B, C" of the sections' identifiers into err after prefix. */
static void gp_ncu_known_sections(char *err, size_t errlen, size_t used)
{
    for (size_t i = 0; i < gp_ncu_n_sections && used < errlen; i++) {
        int n = snprintf(err + used, errlen - used, "%s%s", i ? ", " : "", gp_ncu_sections[i].id);
        if (n < 0)
            return;
        used += (size_t)n;
    }
    if (used < errlen)
        snprintf(err + used, errlen - used, " (gpuprof --list-sections)");
}

int gp_ncu_select_section(const char *arg, gp_ncu_mask *m, char *err, size_t errlen)
{
    int n;
    if (strncmp(arg, "regex:", 6) == 0) {
        regex_t re;
        char why[256];
        gp_ncu_mask got = 0;
        if (gp_regex_compile(&re, arg + 6, REG_EXTENDED | REG_NOSUB, why, sizeof why) != 0) {
            snprintf(err, errlen, "--section %s: %s", arg, why);
            return -1;
        }
        for (size_t i = 0; i < gp_ncu_n_sections; i++)
            if (regexec(&re, gp_ncu_sections[i].id, 0, NULL, 0) == 0)
                got |= (gp_ncu_mask)1 << i;
        regfree(&re);
        if (got) {
            *m |= got;
            return 0;
        }
        n = snprintf(err, errlen,
                     "--section %s: no section's identifier matches; the sections are ", arg);
    } else {
        int i = gp_ncu_section_find(arg);
        if (i >= 0) {
            *m |= (gp_ncu_mask)1 << i;
            return 0;
        }
        n = snprintf(err, errlen, "--section '%s': no such section; the sections are ", arg);
    }
    if (n > 0 && (size_t)n < errlen)
        gp_ncu_known_sections(err, errlen, (size_t)n);
    return -1;
}

int gp_ncu_select_set(const char *arg, gp_ncu_mask *m, const char **group, char *err, size_t errlen)
{
    int s = gp_ncu_set_find(arg);
    size_t used;
    int n;
    if (s >= 0) {
        if (gp_ncu_sets[s].group[0])
            *group = gp_ncu_sets[s].group;
        else
            *m |= gp_ncu_set_mask(s);
        return 0;
    }
    n = snprintf(err, errlen, "--set '%s': no such set; Nsight Compute's sets are ", arg);
    used = n > 0 ? (size_t)n : 0;
    for (int own = 0; own < 2; own++) {
        int first = 1;
        for (size_t i = 0; i < gp_ncu_n_sets && used < errlen; i++) {
            if ((gp_ncu_sets[i].group[0] != 0) != own)
                continue;
            n = snprintf(err + used, errlen - used, "%s%s", first ? "" : ", ", gp_ncu_sets[i].id);
            first = 0;
            used += n > 0 ? (size_t)n : 0;
        }
        if (used < errlen) {
            n = snprintf(err + used, errlen - used, "%s",
                         own ? " (gpuprof --list-sets)" : "; gpuprof's own are ");
            used += n > 0 ? (size_t)n : 0;
        }
    }
    return -1;
}

/* ---- what a choice collects ------------------------------------------------ */

typedef struct {
    const char **seen;
    size_t n, cap;
    void (*fn)(void *ctx, const char *name);
    void *ctx;
    int oom;
} gp_ncu_names;

static void gp_ncu_names_add(gp_ncu_names *s, const char *name, size_t len)
{
    for (size_t i = 0; i < s->n; i++)
        if (strlen(s->seen[i]) == len && memcmp(s->seen[i], name, len) == 0)
            return;
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 256;
        const char **nn = realloc(s->seen, nc * sizeof *nn);
        if (!nn) {
            s->oom = 1;
            return;
        }
        s->seen = nn;
        s->cap = nc;
    }
    /* the formula's names point into the table's static strings; a copy
     * with a terminator is kept for the callback */
    char *copy = malloc(len + 1);
    if (!copy) {
        s->oom = 1;
        return;
    }
    memcpy(copy, name, len);
    copy[len] = '\0';
    s->seen[s->n++] = copy;
    if (s->fn)
        s->fn(s->ctx, copy);
}

static void gp_ncu_formula_name(void *ctx, const char *name, size_t len)
{
    /* PerfWorks names have "__"; facts (launch.x, device.x, occ.x) have not */
    for (size_t i = 0; i + 1 < len; i++)
        if (name[i] == '_' && name[i + 1] == '_') {
            gp_ncu_names_add(ctx, name, len);
            return;
        }
}

size_t gp_ncu_collect(gp_ncu_mask m, void (*fn)(void *ctx, const char *name), void *ctx)
{
    gp_ncu_names s = {NULL, 0, 0, fn, ctx, 0};
    size_t n;
    for (size_t i = 0; i < gp_ncu_n_rows; i++) {
        const gp_ncu_row *r = &gp_ncu_rows[i];
        int sec = gp_ncu_section_find(r->section);
        if (sec < 0 || !(m >> sec & 1))
            continue;
        if (gp_ncu_row_how(r) == GP_NCU_PLAIN)
            gp_ncu_names_add(&s, r->metric, strlen(r->metric));
        else if (gp_ncu_row_how(r) == GP_NCU_FORMULA)
            gp_expr_names(r->value + 1, gp_ncu_formula_name, &s);
    }
    /* counters.def's rows of an Nsight Compute set ("basic", "full": what
     * gpuprof-report's charts read) when every section of that set is chosen */
    for (size_t k = 0; k < gp_ncu_n_sets; k++) {
        gp_ncu_mask need = gp_ncu_set_mask((int)k);
        if (gp_ncu_sets[k].group[0] || !need || (m & need) != need)
            continue;
        for (size_t i = 0; i < sizeof gp_ncu_counters / sizeof gp_ncu_counters[0]; i++)
            if (strcmp(gp_ncu_counters[i].set, gp_ncu_sets[k].id) == 0)
                gp_ncu_names_add(&s, gp_ncu_counters[i].name, strlen(gp_ncu_counters[i].name));
    }
    n = s.n;
    for (size_t i = 0; i < s.n; i++)
        free((void *)s.seen[i]);
    free(s.seen);
    return n;
}

size_t gp_ncu_cannot(gp_ncu_mask m, void (*fn)(void *ctx, const gp_ncu_row *r), void *ctx)
{
    size_t n = 0;
    for (size_t i = 0; i < gp_ncu_n_rows; i++) {
        const gp_ncu_row *r = &gp_ncu_rows[i];
        int sec = gp_ncu_section_find(r->section);
        if (sec < 0 || !(m >> sec & 1) || gp_ncu_row_how(r) != GP_NCU_CANNOT)
            continue;
        n++;
        if (fn)
            fn(ctx, r);
    }
    return n;
}

/* ---- the listings ------------------------------------------------------------ */

/* A table as Nsight Compute prints its listings: columns as wide as their
 * widest cell, one space apart, every cell padded to its column's width,
 * dashed rules above and below the header.  cells[row * ncol + col]; a
 * NULL cell is empty. */
static void gp_ncu_table(FILE *f, const char *const *cells, size_t nrow, size_t ncol)
{
    size_t w[8] = {0}, r, c;
    for (r = 0; r < nrow; r++)
        for (c = 0; c < ncol && c < 8; c++) {
            size_t l = cells[r * ncol + c] ? strlen(cells[r * ncol + c]) : 0;
            if (l > w[c])
                w[c] = l;
        }
    for (r = 0; r < nrow; r++) {
        size_t last = 0; /* cells after the last non-empty one are not padded */
        if (r <= 1)
            for (c = 0; c < ncol; c++) {
                for (size_t k = 0; k < w[c]; k++)
                    fputc('-', f);
                fputc(c + 1 < ncol ? ' ' : '\n', f);
            }
        /* every column padded, the last one too, as ncu pads them */
        (void)last;
        for (c = 0; c < ncol; c++) {
            const char *s = cells[r * ncol + c] ? cells[r * ncol + c] : "";
            fprintf(f, "%-*s%c", (int)w[c], s, c + 1 < ncol ? ' ' : '\n');
        }
    }
}

static void gp_ncu_count_name(void *ctx, const char *name)
{
    (void)name;
    (void)ctx;
}

/* Nsight Compute cuts a set's sections into lines of this many characters. */
#define GP_NCU_WRAP 75

void gp_ncu_list_sets(FILE *f)
{
    /* each set takes as many lines as its sections need */
    size_t cap = 4 * (gp_ncu_n_sets + 1) + 64, nrow = 0;
    const char **cells = calloc(cap * 4, sizeof *cells);
    char *text = malloc(gp_ncu_n_sets * 2048), (*counts)[24] = calloc(gp_ncu_n_sets, 24);
    char *lines = malloc(gp_ncu_n_sets * 2048 * 2);
    size_t used = 0;
    if (!cells || !text || !counts || !lines)
        goto out;
    cells[0] = "Identifier";
    cells[1] = "Sections";
    cells[2] = "Enabled";
    cells[3] = "Estimated Metrics";
    nrow = 1;
    for (size_t s = 0; s < gp_ncu_n_sets; s++) {
        const gp_ncu_set *set = &gp_ncu_sets[s];
        char *t = text + s * 2048;
        size_t n = 0, line = 0, o = 0;
        if (set->group[0]) {
            /* counters.def's rows of the set: the default ones too, but for
             * source, which keeps only the SASS pass's (sass in the name) */
            for (size_t i = 0; i < sizeof gp_ncu_counters / sizeof gp_ncu_counters[0]; i++) {
                int dflt = strcmp(gp_ncu_counters[i].set, "default") == 0;
                if (strcmp(set->id, "source") == 0)
                    n += dflt && strstr(gp_ncu_counters[i].name, "sass_") != NULL;
                else
                    n += dflt || strcmp(gp_ncu_counters[i].set, set->id) == 0;
            }
            snprintf(t, 2048, "(gpuprof's own) %s", set->description);
        } else {
            /* the set's sections in its own (Nsight Compute's) order */
            n = gp_ncu_collect(gp_ncu_set_mask((int)s), gp_ncu_count_name, NULL);
            t[0] = '\0';
            for (const char *p = set->sections; *p && o < 2000;) {
                size_t k = strcspn(p, " ");
                o += (size_t)snprintf(t + o, 2048 - o, "%s%.*s", o ? ", " : "", (int)k, p);
                p += k;
                while (*p == ' ')
                    p++;
            }
        }
        snprintf(counts[s], 24, "%zu", n);
        /* cut into lines of GP_NCU_WRAP characters, mid-word as ncu does:
         * each line a copy, the text kept whole for the next */
        for (size_t at = 0, len = strlen(t); at < len && nrow < cap; line++) {
            size_t k = len - at > GP_NCU_WRAP ? GP_NCU_WRAP : len - at;
            char *piece = lines + used;
            memcpy(piece, t + at, k);
            piece[k] = '\0';
            used += k + 1;
            at += k;
            cells[nrow * 4 + 0] = line ? NULL : set->id;
            cells[nrow * 4 + 2] = line ? NULL : (strcmp(set->id, "default") == 0 ? "yes" : "no");
            cells[nrow * 4 + 3] = line ? NULL : counts[s];
            cells[nrow * 4 + 1] = piece;
            nrow++;
        }
    }
    gp_ncu_table(f, cells, nrow, 4);
out:
    free(cells);
    free(text);
    free(counts);
    free(lines);
}

static const char *gp_ncu_how_text(const gp_ncu_row *r, char *buf, size_t len)
{
    switch (gp_ncu_row_how(r)) {
    case GP_NCU_PLAIN:
        snprintf(buf, len, "collected");
        break;
    case GP_NCU_FORMULA:
        snprintf(buf, len, "computed: %s", r->value + 1);
        break;
    default:
        snprintf(buf, len, "NOT COLLECTED: %s", r->value + 1);
    }
    return buf;
}

static int gp_ncu_by_id(const void *a, const void *b)
{
    return strcmp(gp_ncu_sections[*(const size_t *)a].id, gp_ncu_sections[*(const size_t *)b].id);
}

void gp_ncu_list_sections(FILE *f, int verbose)
{
    const char **cells = calloc((gp_ncu_n_sections + 1) * 4, sizeof *cells);
    char(*file)[48] = calloc(gp_ncu_n_sections, 48);
    size_t *order = calloc(gp_ncu_n_sections, sizeof *order);
    if (!cells || !file || !order)
        goto out;
    cells[0] = "Identifier";
    cells[1] = "Display Name";
    cells[2] = "Enabled";
    cells[3] = "Filename";
    /* by identifier, as Nsight Compute lists them */
    for (size_t i = 0; i < gp_ncu_n_sections; i++)
        order[i] = i;
    qsort(order, gp_ncu_n_sections, sizeof *order, gp_ncu_by_id);
    for (size_t k = 0; k < gp_ncu_n_sections; k++) {
        size_t i = order[k];
        snprintf(file[i], 48, "metrics/ncu/sections.def:%d", gp_ncu_sections[i].line);
        cells[(k + 1) * 4 + 0] = gp_ncu_sections[i].id;
        cells[(k + 1) * 4 + 1] = gp_ncu_sections[i].display;
        /* gpuprof's default set is its own: no section is collected whole
         * unless it is chosen */
        cells[(k + 1) * 4 + 2] = "no";
        cells[(k + 1) * 4 + 3] = file[i];
    }
    gp_ncu_table(f, cells, gp_ncu_n_sections + 1, 4);
    if (!verbose)
        goto out;
    for (size_t i = 0; i < gp_ncu_n_sections; i++) {
        const gp_ncu_section_def *s = &gp_ncu_sections[i];
        char how[600];
        fprintf(f, "\n%s (%s)%s%s%s\n", s->id, s->display, s->note[0] ? ": " : "", s->note,
                s->provisional ? " [provisional]" : "");
        for (size_t k = 0; k < gp_ncu_n_rows; k++) {
            const gp_ncu_row *r = &gp_ncu_rows[k];
            if (strcmp(r->section, s->id) != 0)
                continue;
            fprintf(f, "  %-7s %s%s%s [%s] %s%s\n",
                    r->place == GP_NCU_HEAD   ? "row"
                    : r->place == GP_NCU_BODY ? "body"
                                              : "chart",
                    r->label[0] ? r->label : "", r->label[0] ? ": " : "", r->metric,
                    r->unit[0] ? r->unit : "-", gp_ncu_how_text(r, how, sizeof how),
                    r->provisional ? " [provisional]" : "");
        }
    }
out:
    free(cells);
    free(file);
    free(order);
}
