/* report_missing.c - see report_missing.h. */
#include "metrics/report/report_missing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Every counter with its set (counters.def). */
static const struct {
    const char *name, *set;
} gp_missing_counters[] = {
#define GP_COUNTER(n, u, c, s, d) {n, s},
#include "metrics/catalog/counters.def"
#undef GP_COUNTER
};

/* How a user asks for each set of counters.def (the launcher's --set and
 * --section names), in the order the line lists ties. */
static const struct {
    const char *set, *phrase;
} gp_missing_sets[] = {
    /* clang-format off */
    {"default", "the default set (--set default)"},
    {"extended", "--set extended"},
    {"warpstate", "--section WarpStateStats"},
    {"basic", "--set basic (Speed Of Light)"},
    {"full", "--set full (memory chart)"},
    /* clang-format on */
};
#define GP_MISSING_NSETS (sizeof gp_missing_sets / sizeof gp_missing_sets[0])

static const char gp_missing_suffix[] = " not collected";

int gp_report_not_collected(const char *why)
{
    size_t n = why ? strlen(why) : 0, s = sizeof gp_missing_suffix - 1;
    /* "<counter> not collected": one word before the suffix, no other text */
    return n > s && strcmp(why + n - s, gp_missing_suffix) == 0 && !memchr(why, ' ', n - s);
}

int gp_report_has(double v, const char *why)
{
    if (isfinite(v))
        return 1;
    /* a measured ceiling without a peaks file: the header says so once */
    if (why && strncmp(why, "peak.", 5) == 0)
        return 0;
    return gp_report_not_collected(why) ? 0 : -1;
}

static int gp_missing_set_index(const char *counter, size_t len)
{
    size_t i, k;
    for (i = 0; i < sizeof gp_missing_counters / sizeof gp_missing_counters[0]; i++) {
        if (strncmp(gp_missing_counters[i].name, counter, len) != 0 ||
            gp_missing_counters[i].name[len])
            continue;
        for (k = 0; k < GP_MISSING_NSETS; k++)
            if (strcmp(gp_missing_sets[k].set, gp_missing_counters[i].set) == 0)
                return (int)k;
        return -1;
    }
    return -1;
}

const char *gp_report_set_phrase(const char *counter, size_t len)
{
    int k = gp_missing_set_index(counter, len);
    return k < 0 ? NULL : gp_missing_sets[k].phrase;
}

size_t gp_report_missing_line(const gp_report *r, char *buf, size_t len)
{
    /* per set, the metrics counted; the last slot: a counter of no set */
    size_t count[GP_MISSING_NSETS + 1] = {0}, total = 0, i, m, o = 0;
    unsigned char seen[GP_DERIVED_COUNT] = {0};
    int done[GP_MISSING_NSETS + 1] = {0};
    buf[0] = 0;
    for (i = 0; i < r->n; i++)
        for (m = 0; m < GP_DERIVED_COUNT; m++) {
            const char *why = r->kernels[i].agg.row.why[m];
            int k;
            if (seen[m] || isfinite(r->kernels[i].agg.row.v[m]) || !gp_report_not_collected(why))
                continue;
            seen[m] = 1;
            k = gp_missing_set_index(why, strlen(why) - (sizeof gp_missing_suffix - 1));
            count[k < 0 ? GP_MISSING_NSETS : (size_t)k]++;
            total++;
        }
    /* largest first; ties in the table's order */
    for (;;) {
        size_t best = GP_MISSING_NSETS + 1, k;
        int wrote;
        for (k = 0; k <= GP_MISSING_NSETS; k++)
            if (!done[k] && count[k] && (best > GP_MISSING_NSETS || count[k] > count[best]))
                best = k;
        if (best > GP_MISSING_NSETS || o >= len)
            break;
        done[best] = 1;
        wrote = snprintf(buf + o, len - o, "%s%zu%s of %s", o ? ", " : "", count[best],
                         o ? "" : (count[best] == 1 ? " metric" : " metrics"),
                         best < GP_MISSING_NSETS ? gp_missing_sets[best].phrase
                                                 : "no set of gpuprof's");
        if (wrote < 0)
            break;
        o += (size_t)wrote;
    }
    return total;
}
