/* test_setup_cache.c - the set-up cache's entries (replay/setup_cache.c),
 * without CUPTI: a split written and read back the same; the directory made
 * private; every kind of entry that must not be trusted (another key, another
 * format version, truncated, corrupt, a link, not a regular file, another
 * user's, too large, a directory others may write) refused with its one
 * line; nothing written to stdout; writing into a directory that cannot be
 * made is not fatal. */
#include "replay/setup_cache.h"
#include "tests/unit/gp_test.h"
#include "tests/unit/log_capture.h"
#include "util/log.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];

enum { N = 12, G = 4 };
static int want_group[N] = {-2, -2, 0, 0, 1, -1, 1, 2, 3, 3, 2, 0};
static int want_carries[G] = {1, 1, 0, 0};

static gp_split make(int *group, int *carries)
{
    gp_split s = {N, group, G, 1, carries, 8};
    return s;
}

/* Loads key into fresh arrays: 1 when read and equal to the written split. */
static int loads_same(const char *key)
{
    int group[N], carries[8];
    memset(group, 0x7f, sizeof(group));
    gp_split s = {N, group, 0, 0, carries, 8};
    if (!gp_setup_cache_load(key, &s))
        return 0;
    return s.groups == G && s.stepped == 1 && memcmp(group, want_group, sizeof(group)) == 0 &&
           memcmp(carries, want_carries, sizeof(want_carries)) == 0;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *b = calloc(1, 1 << 16);
    size_t n = b ? fread(b, 1, (1 << 16) - 1, f) : 0;
    (void)n;
    fclose(f);
    return b;
}

/* Writes text as the entry of key, with a correct checksum. */
static void put_signed(const char *path, const char *body)
{
    char buf[4096];
    unsigned long long h = gp_setup_cache_hash(GP_HASH_INIT, body, strlen(body));
    snprintf(buf, sizeof(buf), "%ssum %016llx\n", body, h);
    put(path, buf);
}

/* A refused entry: load fails, and the log says why in one line. */
static void refused(const char *what, const char *key, const char *says)
{
    char last[1024] = "";
    int ok = loads_same(key);
    int lines = log_lines(last, sizeof(last));
    GP_CHECK_MSG(!ok && lines == 1 && strstr(last, says) && strstr(last, "split afresh"),
                 "%s: loaded %d, %d lines, last: %s", what, ok, lines, last);
}

int main(void)
{
    snprintf(dir, sizeof(dir), "/tmp/gp-setup-cache-%d", (int)getpid());
    log_capture_start(GP_LOG_INFO);
    int group[N], carries[8];
    memcpy(group, want_group, sizeof(group));
    memcpy(carries, want_carries, sizeof(want_carries));
    gp_split s = make(group, carries);
    const char *key = "chip=GH100 driver=1 cupti=2 mode=none list=abc/12";
    char path[1100];

    /* off: nothing read, nothing written */
    gp_setup_cache_set_dir("");
    GP_CHECK(!gp_setup_cache_on() && gp_setup_cache_store(key, &s) == -1 && !loads_same(key));

    /* written (the directory and its parents made, mode 0700), read back */
    char sub[300];
    snprintf(sub, sizeof(sub), "%s/a/b", dir);
    gp_setup_cache_set_dir(sub);
    GP_CHECK(gp_setup_cache_path(key, path, sizeof(path)) == 0);
    GP_CHECK(gp_setup_cache_store(key, &s) == 0);
    struct stat st;
    GP_CHECK(stat(sub, &st) == 0 && (st.st_mode & 0777) == 0700);
    GP_CHECK(stat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 077) == 0);
    GP_CHECK(loads_same(key));
    GP_CHECK(log_lines(NULL, 0) == 0);
    /* another key, whose file name is the same (a hash collision, or a
     * file copied): refused */
    char *good = slurp(path);
    GP_CHECK(good != NULL);
    const char *other = "chip=GH100 driver=1 cupti=3 mode=none list=abc/12";
    char opath[1100];
    gp_setup_cache_path(other, opath, sizeof(opath));
    GP_CHECK(strcmp(opath, path) != 0);
    GP_CHECK(!loads_same(other)); /* no file: a miss, silent */
    GP_CHECK(log_lines(NULL, 0) == 0);
    put(opath, good);
    refused("other key", other, "its key differs");
    /* a list of another length under the key's name: refused */
    {
        int g2[N + 1], c2[8];
        gp_split s2 = {N + 1, g2, 0, 0, c2, 8};
        GP_CHECK(!gp_setup_cache_load(key, &s2));
        char last[1024] = "";
        GP_CHECK(log_lines(last, sizeof(last)) == 1 && strstr(last, "not 13"));
    }
    /* truncated: the end missing */
    if (good) {
        char cut[4096];
        snprintf(cut, sizeof(cut), "%.*s", (int)(strlen(good) - 10), good);
        put(path, cut);
        refused("truncated", key, "truncated");
        /* one changed digit: the checksum catches it */
        snprintf(cut, sizeof(cut), "%s", good);
        char *g = strstr(cut, "group -2 -2 0");
        if (g)
            g[12] = '1';
        put(path, cut);
        refused("corrupt", key, "checksum does not match");
    }
    /* another format version, with a valid checksum */
    char body[2048];
    snprintf(body, sizeof(body),
             "gpuprof-setup-cache 2\nkey %s\nn 12\ngroups 4 stepped 1\ncarries 1 1 0 0\n"
             "group -2 -2 0 0 1 -1 1 2 3 3 2 0\n",
             key);
    put_signed(path, body);
    refused("version", key, "another format (version 2");
    /* well formed, checksum right, contents out of range: a configuration
     * named that does not exist, a configuration without a name, an
     * unknown value */
    const char *bad_bodies[] = {
        "group -2 -2 0 0 1 -1 1 2 3 3 2 4\n", /* configuration 4 of 4 */
        "group -2 -2 0 0 1 -1 1 1 3 3 1 0\n", /* configuration 2 empty */
        "group -2 -2 0 0 1 -3 1 2 3 3 2 0\n", /* -3 */
        "group -2 -2 0 0 1 -1 1 2 3 3 2\n",   /* a name short */
        "group -2 -2 0 0 1 -1 1 2 3 3 2 0 x\n",
    };
    for (size_t i = 0; i < sizeof(bad_bodies) / sizeof(bad_bodies[0]); i++) {
        snprintf(body, sizeof(body),
                 "gpuprof-setup-cache 1\nkey %s\nn 12\ngroups 4 stepped 1\ncarries 1 1 0 0\n%s",
                 key, bad_bodies[i]);
        put_signed(path, body);
        char last[1024] = "";
        int ok = loads_same(key);
        int lines = log_lines(last, sizeof(last));
        /* one line for the first, then the same kind again: silent */
        GP_CHECK_MSG(!ok && lines == (i == 0) && (i || strstr(last, "corrupt")),
                     "bad body %zu: loaded %d, %d lines: %s", i, ok, lines, last);
    }
    /* a link at the entry's name, even to a good entry: refused, and a
     * store replaces the link rather than writing through it */
    char target[1100];
    snprintf(target, sizeof(target), "%s/target", dir);
    unlink(path);
    if (good)
        put(target, good);
    GP_CHECK(symlink(target, path) == 0);
    refused("link", key, "symbolic link");
    GP_CHECK(gp_setup_cache_store(key, &s) == 0);
    GP_CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode));
    char *t = slurp(target);
    GP_CHECK(t && good && strcmp(t, good) == 0);
    free(t);
    GP_CHECK(loads_same(key));
    /* not a regular file */
    unlink(path);
    GP_CHECK(mkfifo(path, 0600) == 0);
    refused("fifo", key, "not a regular file");
    GP_CHECK(gp_setup_cache_store(key, &s) == 0 && loads_same(key)); /* replaced */
    /* too large */
    {
        FILE *f = fopen(path, "w");
        for (int i = 0; f && i < (1 << 20) / 64 + 2; i++)
            fputs("0123456789012345678901234567890123456789012345678901234567890123", f);
        if (f)
            fclose(f);
        refused("size", key, "larger than");
    }
    /* another user's (needs root to make one) */
    GP_CHECK(gp_setup_cache_store(key, &s) == 0);
    if (geteuid() == 0) {
        GP_CHECK(chown(path, 4242, 4242) == 0);
        refused("owner", key, "another user");
    } else {
        gp_test_skip("an entry of another user's", "needs root to make one");
    }
    GP_CHECK(gp_setup_cache_store(key, &s) == 0 && loads_same(key));
    /* a directory others may write: the cache is not used, one line */
    GP_CHECK(chmod(sub, 0777) == 0);
    {
        char last[1024] = "";
        GP_CHECK(!loads_same(key) && gp_setup_cache_store(key, &s) == -1);
        GP_CHECK_MSG(log_lines(last, sizeof(last)) == 1 && strstr(last, "written by other users"),
                     "%s", last);
    }
    chmod(sub, 0700);
    GP_CHECK(loads_same(key));
    /* a directory that cannot be made: the store fails, one line, no harm */
    gp_setup_cache_set_dir("/proc/gp-no-such-dir/x");
    GP_CHECK(gp_setup_cache_store(key, &s) == -1);
    gp_setup_cache_set_dir(sub);
    /* the check of the caller refused a configuration: said once */
    gp_setup_cache_refused(key, "config", "CUPTI refuses one of its configurations");
    {
        char last[1024] = "";
        GP_CHECK(log_lines(last, sizeof(last)) >= 1 && strstr(last, "CUPTI refuses"));
    }
    gp_setup_cache_count_use(1);
    gp_setup_cache_count_use(0);
    gp_setup_cache_stats cs = gp_setup_cache_counts();
    GP_CHECK_MSG(cs.hits == 1 && cs.misses == 1 && cs.refused >= 10 && cs.stored >= 5,
                 "hits %u misses %u refused %u stored %u", cs.hits, cs.misses, cs.refused,
                 cs.stored);
    free(good);
    char cmd[400];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return gp_test_finish("setup_cache");
}
