/* sets.c - see sets.h. */
#include "sets.h"

#include <stdio.h>
#include <string.h>

#include "metrics/ncu/sections.h"
#include "util/textio.h"

#define GPL "gpuprof"

/* A message that quotes the option's value: escaped whole (gp_text_plain),
 * so that the value cannot move the cursor or reverse the line. */
static void gpl_sets_say(const char *msg)
{
    fputs(GPL ": ", stderr);
    gp_text_plain(stderr, msg);
    fputc('\n', stderr);
}

static int gpl_sets_append(char *buf, size_t len, const char *item)
{
    size_t used = strlen(buf);
    int n = snprintf(buf + used, len - used, "%s%s", used ? "," : "", item);
    if (n < 0 || (size_t)n >= len - used) {
        buf[used] = '\0';
        fprintf(stderr, GPL ": --set/--section: too many sets and sections\n");
        return 2;
    }
    return 0;
}

int gpl_set_option(const char *value, char *buf, size_t len)
{
    char err[2048], item[256];
    const char *group = NULL;
    gp_ncu_mask m = 0;
    if (gp_ncu_select_set(value, &m, &group, err, sizeof err) != 0) {
        gpl_sets_say(err);
        return 2;
    }
    if (group)
        return gpl_sets_append(buf, len, group);
    snprintf(item, sizeof item, "@set:%s", value);
    return gpl_sets_append(buf, len, item);
}

int gpl_section_option(const char *value, char *buf, size_t len)
{
    char err[2048], item[256];
    const char *group = NULL;
    gp_ncu_mask m = 0;
    int s = gp_ncu_set_find(value);
    /* gpuprof's own sets were taken by --section before Nsight Compute's
     * sections were: still so */
    if (s >= 0 && gp_ncu_sets[s].group[0] &&
        gp_ncu_select_set(value, &m, &group, err, sizeof err) == 0 && group)
        return gpl_sets_append(buf, len, group);
    if (gp_ncu_select_section(value, &m, err, sizeof err) != 0) {
        gpl_sets_say(err);
        return 2;
    }
    for (size_t i = 0; i < gp_ncu_n_sections; i++) {
        if (!(m >> i & 1))
            continue;
        snprintf(item, sizeof item, "@section:%s", gp_ncu_sections[i].id);
        if (gpl_sets_append(buf, len, item))
            return 2;
    }
    return 0;
}
