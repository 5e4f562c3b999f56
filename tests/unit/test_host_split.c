/* test_host_split.c - the splits of a metric list kept between runs
 * (replay/host_split.c with the set-up cache), offline for GH100 with CUPTI's
 * host side: the first split of replay mode none's 250-metric list writes its
 * entry, the second reads it and gives the same configurations faster (both
 * times printed); a changed list, order, chip or driver misses; a truncated
 * entry and one CUPTI refuses are ignored with one line each and the split
 * is made again, the same as before; kernel replay's split keeps the names
 * CUPTI refuses, and an entry that leaves out a name CUPTI takes is refused;
 * with the cache off nothing is written. */
#include "replay/cupti_host.h"
#include "replay/host_group.h"
#include "replay/host_split.h"
#include "tests/unit/gp_test.h"
#include "tests/unit/log_capture.h"
#include "util/clock.h"
#include "util/log.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAXN = 400, MAXG = 48 };

/* The check the library makes (rp_rotation.c, range_profiler.c): a CUPTI
 * host configuration of each configuration, one pass unless stepped. */
typedef struct tcheck {
    const gp_split_in *in;
    const gp_split *s;
    int checked, resets;
} tcheck;

static int tconfig(void *arg, size_t g, int stepped)
{
    tcheck *c = arg;
    const char *names[MAXN] = {NULL};
    size_t k = 0;
    for (size_t i = 0; i < c->in->n; i++)
        if (c->s->group[i] == (int)g ||
            (c->s->carries && c->s->carries[g] && c->s->group[i] == GP_HOST_EVERY))
            names[k++] = c->in->names[i];
    char err[512];
    gp_host_config *cfg = gp_host_config_create(c->in->chip, c->in->avail, c->in->avail_size, names,
                                                k, err, sizeof(err));
    int ok = cfg && k > 0 && (stepped || gp_host_config_passes(cfg) == 1);
    gp_host_config_destroy(cfg);
    c->checked++;
    return ok ? 0 : -1;
}

static void treset(void *arg)
{
    ((tcheck *)arg)->resets++;
}

typedef struct run {
    int group[MAXN], carries[MAXG];
    size_t groups, stepped;
    int cached;
    double s;
} run;

static void rotation(const gp_split_in *in, run *r)
{
    memset(r, 0, sizeof(*r));
    gp_split s = {in->n, r->group, 0, 0, r->carries, MAXG};
    tcheck c = {in, &s, 0, 0};
    gp_split_check chk = {tconfig, treset, &c};
    double t = gp_now_s();
    r->groups = gp_host_split_rotation(in, &s, &chk, &r->cached);
    r->s = gp_now_s() - t;
    r->stepped = s.stepped;
    GP_CHECK_MSG((size_t)c.checked >= r->groups, "%d checks for %zu configurations", c.checked,
                 r->groups);
}

static int same(const run *a, const run *b, size_t n)
{
    return a->groups == b->groups && a->stepped == b->stepped &&
           memcmp(a->group, b->group, n * sizeof(int)) == 0 &&
           memcmp(a->carries, b->carries, a->groups * sizeof(int)) == 0;
}

static size_t read_250(const char *names[MAXN], int every[MAXN])
{
    static const char *const spread[] = {"gpu__time_duration.sum", "smsp__inst_executed.sum",
                                         "sm__cycles_elapsed.avg", "sm__cycles_elapsed.max"};
    static char buf[300 * 128];
    size_t n = 0, len = 0;
    for (size_t i = 0; i < 4; i++) { /* first, as the library puts them */
        names[n] = spread[i];
        every[n++] = 1;
    }
    FILE *f = fopen("tests/data/gh100-250-counters.txt", "r");
    if (!f)
        return 0;
    while (n < MAXN && len + 128 < sizeof(buf) && fgets(buf + len, 128, f)) {
        char *line = buf + len;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || !line[0])
            continue;
        int dup = 0;
        for (size_t s = 0; s < 4; s++)
            dup |= strcmp(line, spread[s]) == 0;
        if (dup)
            continue;
        names[n] = line;
        every[n++] = 0;
        len += strlen(line) + 1;
    }
    fclose(f);
    return n;
}

static char dir[200];

static int entries(void)
{
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "ls %s 2>/dev/null | grep -c '^split-'", dir);
    FILE *p = popen(cmd, "r");
    int n = 0;
    if (p) {
        if (fscanf(p, "%d", &n) != 1)
            n = 0;
        pclose(p);
    }
    return n;
}

static void kernel_split(void)
{
    const char *names[] = {"gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_raed.sum",
                           "smsp__inst_executed.sum"};
    gp_split_in in = {"GH100", NULL, 0, names, 4, NULL, 17};
    int group[4], again[4];
    gp_split s = {4, group, 0, 0, NULL, 17};
    tcheck c = {&in, &s, 0, 0};
    gp_split_check chk = {tconfig, treset, &c};
    GP_CHECK(gp_host_split_kernel_cached(&in, &s, &chk) == 0); /* nothing kept yet */
    GP_CHECK(gp_host_split_kernel_fresh(&in, &s, &chk) == 1 && group[2] == -1 && group[0] == 0);
    gp_split s2 = {4, again, 0, 0, NULL, 17};
    c.s = &s2;
    memset(again, 0x55, sizeof(again));
    GP_CHECK(gp_host_split_kernel_cached(&in, &s2, &chk) == 1 &&
             memcmp(group, again, sizeof(group)) == 0);
    /* an entry leaving out a name CUPTI takes: refused with its line */
    char key[1024];
    gp_host_split_key(&in, "kernel", key, sizeof(key));
    int wrong[4] = {0, -1, -1, 0};
    gp_split w = {4, wrong, 1, 0, NULL, 17};
    GP_CHECK(gp_setup_cache_store(key, &w) == 0);
    log_lines(NULL, 0);
    char last[1024] = "";
    GP_CHECK(gp_host_split_kernel_cached(&in, &s2, &chk) == 0);
    GP_CHECK_MSG(log_lines(last, sizeof(last)) == 1 && strstr(last, "now takes a name"), "%s",
                 last);
}

int main(void)
{
    snprintf(dir, sizeof(dir), "/tmp/gp-host-split-%d", (int)getpid());
    log_capture_start(GP_LOG_WARN);
    const char *names[MAXN];
    int every[MAXN];
    size_t n = read_250(names, every);
    GP_CHECK_MSG(n == 254, "%zu names", n);
    if (n < 10)
        return gp_test_finish("host_split");
    gp_split_in in = {"GH100", NULL, 0, names, n, every, MAXG};
    gp_host_split_set_platform("580.test/1");
    gp_setup_cache_set_dir(dir);

    /* first run: made and kept; second: read, the same, faster */
    static run first, second, r;
    rotation(&in, &first);
    GP_CHECK(first.groups > 1 && !first.cached && entries() == 1);
    rotation(&in, &second);
    GP_CHECK_MSG(second.cached && same(&first, &second, n), "cached %d, %zu against %zu",
                 second.cached, second.groups, first.groups);
    GP_CHECK_MSG(second.s < first.s, "cached %.3f s, made %.3f s", second.s, first.s);
    printf("    254 names, replay mode none: %zu configurations (%zu stepped); split and checked "
           "in %.0f ms the first run, from the cache and checked in %.0f ms the second\n",
           first.groups, first.stepped, first.s * 1e3, second.s * 1e3);
    GP_CHECK(log_lines(NULL, 0) == 0);

    /* what the key holds: a changed list, order, chip or driver misses */
    const char *swapped[MAXN];
    memcpy(swapped, names, n * sizeof(char *));
    swapped[10] = names[11];
    swapped[11] = names[10];
    gp_split_in v = in;
    v.names = swapped;
    rotation(&v, &r);
    GP_CHECK(!r.cached && r.groups > 1);
    v = in;
    v.n = n - 1;
    rotation(&v, &r);
    GP_CHECK(!r.cached && r.groups > 1);
    /* another chip (a short list: GA100 lacks some of the long one's
     * names, which PerfWorks' scheduler then cannot take: the slow way) */
    v = in;
    v.n = 12;
    rotation(&v, &r);
    rotation(&v, &r);
    GP_CHECK(r.cached);
    v.chip = "GA100";
    rotation(&v, &r);
    GP_CHECK(!r.cached);
    gp_host_split_set_platform("580.test/2");
    rotation(&in, &r);
    GP_CHECK(!r.cached && same(&first, &r, n));
    printf("    the same list for another driver: made and checked in %.0f ms (CUPTI's host "
           "library loaded by then)\n",
           r.s * 1e3);
    rotation(&in, &r); /* and now kept for this driver */
    GP_CHECK(r.cached && same(&first, &r, n));
    log_lines(NULL, 0);

    /* a truncated entry: one line, made again, the same, kept again */
    char key[1024], path[1100];
    gp_host_split_key(&in, "none", key, sizeof(key));
    GP_CHECK(gp_setup_cache_path(key, path, sizeof(path)) == 0);
    GP_CHECK(truncate(path, 40) == 0);
    rotation(&in, &r);
    char last[1024] = "";
    GP_CHECK_MSG(!r.cached && same(&first, &r, n) && log_lines(last, sizeof(last)) == 1 &&
                     strstr(last, "truncated"),
                 "%s", last);
    rotation(&in, &r);
    GP_CHECK(r.cached);

    /* well formed but wrong: configurations 0 and 1 made one (more than one
     * pass), stored with a right checksum; CUPTI's check refuses it */
    run bad = first;
    for (size_t i = 0; i < n; i++)
        if (bad.group[i] >= 1)
            bad.group[i]--;
    for (size_t g = 1; g < bad.groups; g++)
        bad.carries[g - 1] = bad.carries[g];
    bad.groups--;
    gp_split b = {n, bad.group, bad.groups, bad.stepped, bad.carries, MAXG};
    GP_CHECK(gp_setup_cache_store(key, &b) == 0);
    log_lines(NULL, 0);
    rotation(&in, &r);
    GP_CHECK_MSG(!r.cached && same(&first, &r, n) && log_lines(last, sizeof(last)) == 1 &&
                     strstr(last, "CUPTI refuses"),
                 "cached %d, %s", r.cached, last);

    kernel_split();

    /* off: made every time, nothing written */
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    gp_setup_cache_set_dir("");
    rotation(&in, &r);
    GP_CHECK(!r.cached && same(&first, &r, n));
    struct stat st;
    GP_CHECK(stat(dir, &st) != 0);
    return gp_test_finish("host_split");
}
