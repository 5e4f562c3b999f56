/* ncu_names.c - see ncu_names.h. */
#include "metrics/ncu/ncu_names.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/catalog/derived.h"
#include "util/strutil.h"

/* ---- the suffix grammar of `ncu --query-metrics-mode all` ---------------- */

#define GP_NCUN_ROLLUPS(s)                                                                         \
    "." #s, "." #s ".pct_of_peak_sustained_active", "." #s ".pct_of_peak_sustained_elapsed",       \
        "." #s ".peak_sustained", "." #s ".peak_sustained_active",                                 \
        "." #s ".peak_sustained_active.per_second", "." #s ".peak_sustained_elapsed",              \
        "." #s ".peak_sustained_elapsed.per_second", "." #s ".per_cycle_active",                   \
        "." #s ".per_cycle_elapsed", "." #s ".per_second"
#define GP_NCUN_TPUT(s)                                                                            \
    "." #s ".pct_of_peak_sustained_active", "." #s ".pct_of_peak_sustained_elapsed"

static const char *const gp_ncun_counter_sfx[] = {GP_NCUN_ROLLUPS(avg), GP_NCUN_ROLLUPS(max),
                                                  GP_NCUN_ROLLUPS(min), GP_NCUN_ROLLUPS(sum), NULL};
static const char *const gp_ncun_ratio_sfx[] = {".max_rate", ".pct", ".ratio", NULL};
static const char *const gp_ncun_tput_sfx[] = {GP_NCUN_TPUT(avg), GP_NCUN_TPUT(max),
                                               GP_NCUN_TPUT(min), GP_NCUN_TPUT(sum), NULL};
/* the suffix offered for a name without one */
static const char *const gp_ncun_default_sfx[] = {".sum", ".ratio",
                                                  ".avg.pct_of_peak_sustained_elapsed"};
static const char *const gp_ncun_type_names[] = {"counter", "ratio", "throughput"};

static const char *const *gp_ncun_sfx_of(int type)
{
    switch (type) {
    case GP_NCUN_COUNTER:
        return gp_ncun_counter_sfx;
    case GP_NCUN_RATIO:
        return gp_ncun_ratio_sfx;
    case GP_NCUN_THROUGHPUT:
        return gp_ncun_tput_sfx;
    }
    return NULL;
}

const char *gp_ncun_suffix(int type, size_t n)
{
    const char *const *s = gp_ncun_sfx_of(type);
    size_t i;
    for (i = 0; s && s[i]; i++)
        if (i == n)
            return s[i];
    return NULL;
}

int gp_ncun_suffix_ok(int type, const char *suffix)
{
    const char *const *s = gp_ncun_sfx_of(type);
    size_t i;
    for (i = 0; s && s[i]; i++)
        if (strcmp(s[i], suffix) == 0)
            return 1;
    return 0;
}

/* ---- the chip's base metrics ---------------------------------------------- */

typedef struct {
    char *name;
    int type;
} gp_ncun_base;

struct gp_ncun_list {
    gp_ncun_base *v;
    size_t n, cap;
};

gp_ncun_list *gp_ncun_list_new(void)
{
    return calloc(1, sizeof(gp_ncun_list));
}

int gp_ncun_list_add(gp_ncun_list *l, const char *name, int type)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 1024;
        gp_ncun_base *nv = realloc(l->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = nc;
    }
    if (!(l->v[l->n].name = strdup(name)))
        return -1;
    l->v[l->n++].type = type;
    return 0;
}

static int gp_ncun_cmp(const void *a, const void *b)
{
    return strcmp(((const gp_ncun_base *)a)->name, ((const gp_ncun_base *)b)->name);
}

void gp_ncun_list_done(gp_ncun_list *l)
{
    if (l->n)
        qsort(l->v, l->n, sizeof *l->v, gp_ncun_cmp);
}

void gp_ncun_list_free(gp_ncun_list *l)
{
    size_t i;
    if (!l)
        return;
    for (i = 0; i < l->n; i++)
        free(l->v[i].name);
    free(l->v);
    free(l);
}

size_t gp_ncun_list_count(const gp_ncun_list *l)
{
    return l ? l->n : 0;
}

int gp_ncun_base_type(const gp_ncun_list *l, const char *name, size_t len)
{
    size_t lo = 0, hi = l ? l->n : 0;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strncmp(l->v[mid].name, name, len);
        if (c == 0 && l->v[mid].name[len])
            c = 1;
        if (c == 0)
            return l->v[mid].type;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return GP_NCUN_NONE;
}

/* ---- the verdict ---------------------------------------------------------- */

static const struct {
    const char *match;
    int prefix;
    gp_ncun_kind kind;
    const char *reason, *instead;
} gp_ncun_table[] = {
#define LAUNCH GP_NCUN_ACCEPT_LAUNCH
#define REFUSED GP_NCUN_REFUSED
#define GP_NCU_NAME(m, p, k, r, i) {m, p, k, r, i},
#include "metrics/ncu/ncu_names.def"
#undef GP_NCU_NAME
#undef LAUNCH
#undef REFUSED
};

/* Where the suffix of a metric name starts: the first '.' after the unit's
 * "__" (a base may itself hold dots: SM_A.TriageCompute.l1tex__...). */
static size_t gp_ncun_base_len(const char *name)
{
    const char *u = strstr(name, "__");
    const char *dot = strchr(u ? u : name, '.');
    return dot ? (size_t)(dot - name) : strlen(name);
}

/* Appends "base<suffix>" to v->instead (", " between names). */
static void gp_ncun_offer(gp_ncun_verdict *v, const char *base, size_t blen, const char *suffix)
{
    size_t used = strlen(v->instead);
    snprintf(v->instead + used, sizeof v->instead - used, "%s%.*s%s", used ? ", " : "", (int)blen,
             base, suffix);
}

/* The unit of a name: what comes before its "__" ("sm", "l1tex"), after any
 * "X.Config." prefix. */
static size_t gp_ncun_unit(const char *name, const char **start)
{
    const char *u = strstr(name, "__"), *s = name, *d;
    while (u && (d = memchr(s, '.', (size_t)(u - s))))
        s = d + 1;
    *start = s;
    return u ? (size_t)(u - s) : 0;
}

/* Up to 3 bases of the chip closest in spelling to base[0..blen) (of the
 * same unit when the chip has one), each offered with suffix when its type
 * has it, else with its type's default. */
static void gp_ncun_nearest(const gp_ncun_list *chip, const char *base, size_t blen,
                            const char *suffix, gp_ncun_verdict *v)
{
    char want[256];
    const char *ustart, *cs;
    size_t ulen, best_d[3] = {(size_t)-1, (size_t)-1, (size_t)-1}, i, k, pass;
    long best[3] = {-1, -1, -1};
    if (!chip || !chip->n)
        return;
    snprintf(want, sizeof want, "%.*s", (int)blen, base);
    ulen = gp_ncun_unit(want, &ustart);
    /* pass 0: the same unit only; pass 1: all, when that found nothing */
    for (pass = 0; pass < 2 && best[0] < 0; pass++)
        for (i = 0; i < chip->n; i++) {
            const char *n = chip->v[i].name;
            size_t d, cl = gp_ncun_unit(n, &cs);
            if (pass == 0 && (!ulen || cl != ulen || strncmp(cs, ustart, ulen) != 0))
                continue;
            if (strcmp(n, want) == 0)
                continue;
            d = gp_edit_distance(want, n);
            for (k = 0; k < 3; k++)
                if (d < best_d[k]) {
                    memmove(&best_d[k + 1], &best_d[k], (2 - k) * sizeof best_d[0]);
                    memmove(&best[k + 1], &best[k], (2 - k) * sizeof best[0]);
                    best_d[k] = d;
                    best[k] = (long)i;
                    break;
                }
        }
    for (k = 0; k < 3 && best[k] >= 0; k++) {
        const gp_ncun_base *b = &chip->v[best[k]];
        gp_ncun_offer(v, b->name, strlen(b->name),
                      suffix[0] && gp_ncun_suffix_ok(b->type, suffix)
                          ? suffix
                          : gp_ncun_default_sfx[b->type]);
    }
}

/* A collectable name for what name means: itself with a valid suffix when
 * the chip has its base, else the nearest. */
static void gp_ncun_offer_for(const gp_ncun_list *chip, const char *name, gp_ncun_verdict *v)
{
    size_t bl = gp_ncun_base_len(name);
    int t = gp_ncun_base_type(chip, name, bl);
    if (t != GP_NCUN_NONE)
        gp_ncun_offer(v, name, bl,
                      gp_ncun_suffix_ok(t, name + bl) ? name + bl : gp_ncun_default_sfx[t]);
    else
        gp_ncun_nearest(chip, name, bl, name + bl, v);
}

/* "@strip": derived__X_x4 -> X; "@pcsamp": smsp__pcsamp_warps_issue_stalled_R
 * [_not_issued] -> smsp__average_warps_issue_stalled_R_per_issue_active. */
static void gp_ncun_rule(const gp_ncun_list *chip, const char *rule, const char *name,
                         gp_ncun_verdict *v)
{
    char buf[256];
    if (strcmp(rule, "@strip") == 0) {
        const char *rest = name + strlen("derived__");
        size_t bl = gp_ncun_base_len(rest), e = bl;
        while (e > 0 && isdigit((unsigned char)rest[e - 1]))
            e--;
        if (e >= 2 && e < bl && rest[e - 1] == 'x' && rest[e - 2] == '_')
            e -= 2;
        else
            e = bl;
        snprintf(buf, sizeof buf, "%.*s%s", (int)e, rest, rest + bl);
    } else {
        const char *r = strstr(name, "warps_issue_stalled_");
        size_t len;
        if (!r) {
            gp_ncun_nearest(chip, name, gp_ncun_base_len(name), "", v);
            return;
        }
        r += strlen("warps_issue_stalled_");
        len = strlen(r);
        if (len > 11 && strcmp(r + len - 11, "_not_issued") == 0)
            len -= 11;
        snprintf(buf, sizeof buf, "smsp__average_warps_issue_stalled_%.*s_per_issue_active.ratio",
                 (int)len, r);
    }
    gp_ncun_offer_for(chip, buf, v);
}

int gp_ncun_known(const char *name)
{
    size_t i;
    if (strstr(name, "__") && gp_derived_index(name) >= 0)
        return 1;
    for (i = 0; i < sizeof gp_ncun_table / sizeof gp_ncun_table[0]; i++)
        if (gp_ncun_table[i].prefix
                ? strncmp(name, gp_ncun_table[i].match, strlen(gp_ncun_table[i].match)) == 0
                : strcmp(name, gp_ncun_table[i].match) == 0)
            return 1;
    return 0;
}

void gp_ncun_check(const gp_ncun_list *chip, const char *chip_name, const char *name,
                   gp_ncun_verdict *v)
{
    size_t i, bl;
    int d, t;
    v->reason[0] = v->instead[0] = 0;
    v->kind = GP_NCUN_REFUSED;
    /* Nsight Compute's own derived names that derived.def computes */
    if (strstr(name, "__") && (d = gp_derived_index(name)) >= 0) {
        v->kind = GP_NCUN_ACCEPT_DERIVED;
        snprintf(v->reason, sizeof v->reason, "computed by gpuprof-report from %s (%s)",
                 gp_derived_defs[d].formula, gp_derived_defs[d].description);
        return;
    }
    for (i = 0; i < sizeof gp_ncun_table / sizeof gp_ncun_table[0]; i++) {
        size_t ml = strlen(gp_ncun_table[i].match);
        if (gp_ncun_table[i].prefix ? strncmp(name, gp_ncun_table[i].match, ml) != 0
                                    : strcmp(name, gp_ncun_table[i].match) != 0)
            continue;
        v->kind = gp_ncun_table[i].kind;
        snprintf(v->reason, sizeof v->reason, "%s", gp_ncun_table[i].reason);
        if (gp_ncun_table[i].instead[0] == '@')
            gp_ncun_rule(chip, gp_ncun_table[i].instead, name, v);
        else
            snprintf(v->instead, sizeof v->instead, "%s", gp_ncun_table[i].instead);
        return;
    }
    bl = gp_ncun_base_len(name);
    t = gp_ncun_base_type(chip, name, bl);
    if (t == GP_NCUN_NONE) {
        snprintf(v->reason, sizeof v->reason, "not a metric of %s", chip_name);
        gp_ncun_nearest(chip, name, bl, name + bl, v);
    } else if (!name[bl]) {
        snprintf(v->reason, sizeof v->reason,
                 "a base %s name: Nsight Compute and CUPTI collect it with a roll-up suffix "
                 "(%s, ...; ncu --query-metrics-mode suffix lists them)",
                 gp_ncun_type_names[t], gp_ncun_default_sfx[t]);
        gp_ncun_offer(v, name, bl, gp_ncun_default_sfx[t]);
    } else if (!gp_ncun_suffix_ok(t, name + bl)) {
        snprintf(v->reason, sizeof v->reason, "'%s' is not a suffix a %s metric has", name + bl,
                 gp_ncun_type_names[t]);
        gp_ncun_offer(v, name, bl, gp_ncun_default_sfx[t]);
    } else {
        v->kind = GP_NCUN_ACCEPT_CUPTI;
    }
    if (v->kind == GP_NCUN_REFUSED && !v->instead[0])
        snprintf(v->instead, sizeof v->instead, "none close (ncu --query-metrics lists them)");
}
