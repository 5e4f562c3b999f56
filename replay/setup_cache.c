/* setup_cache.c - see setup_cache.h.
 *
 * An entry (text, one item per line):
 *   gpuprof-setup-cache 1
 *   key <the key line>
 *   n <names>
 *   groups <configurations> stepped <of them, several passes>
 *   carries <0|1 per configuration>
 *   group <configuration per name>
 *   sum <FNV-1a 64 of every byte before this line, 16 hex digits>
 * A missing last line is a truncated entry; a wrong sum a corrupt one. */
#define _GNU_SOURCE
#include "replay/setup_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"

#define GP_CACHE_FORMAT 1
#define GP_CACHE_MAX_BYTES (1u << 20)

static char cache_dir[1024];
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static gp_setup_cache_stats stats;

static void count(unsigned *field)
{
    pthread_mutex_lock(&stats_lock);
    (*field)++;
    pthread_mutex_unlock(&stats_lock);
}

gp_setup_cache_stats gp_setup_cache_counts(void)
{
    pthread_mutex_lock(&stats_lock);
    gp_setup_cache_stats s = stats;
    pthread_mutex_unlock(&stats_lock);
    return s;
}

void gp_setup_cache_set_dir(const char *dir)
{
    snprintf(cache_dir, sizeof(cache_dir), "%s", dir && strlen(dir) < sizeof(cache_dir) ? dir : "");
}

int gp_setup_cache_on(void)
{
    return cache_dir[0] != '\0';
}

uint64_t gp_setup_cache_hash(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

int gp_setup_cache_path(const char *key, char *buf, size_t len)
{
    if (!cache_dir[0])
        return -1;
    uint64_t h = gp_setup_cache_hash(GP_HASH_INIT, key, strlen(key));
    int w = snprintf(buf, len, "%s/split-%016llx", cache_dir, (unsigned long long)h);
    return w > 0 && (size_t)w < len ? 0 : -1;
}

/* One line per kind of refusal (kind: a short key for gp_log_once). */
static void refuse(const char *kind, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void refuse(const char *kind, const char *path, const char *fmt, ...)
{
    char why[300], key[48];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    snprintf(key, sizeof(key), "setup-cache-%s", kind);
    gp_log_once(GP_LOG_WARN, key,
                "set-up cache: %s %s; it is ignored and the metric list is "
                "split afresh",
                path, why);
    count(&stats.refused);
}

void gp_setup_cache_refused(const char *key, const char *kind, const char *why)
{
    char path[1100], k[40];
    if (gp_setup_cache_path(key, path, sizeof(path)) != 0)
        return;
    snprintf(k, sizeof(k), "check-%s", kind);
    refuse(k, path, "%s", why);
}

void gp_setup_cache_count_use(int from_cache)
{
    count(from_cache ? &stats.hits : &stats.misses);
}

/* 0 when dir is a directory of this user's that nobody else may write (not
 * a link); with create, missing components are made (mode 0700).  -1 with
 * one line otherwise. */
static int dir_private(int create)
{
    char path[sizeof(cache_dir)];
    snprintf(path, sizeof(path), "%s", cache_dir);
    if (create)
        for (char *p = path + 1; *p; p++)
            if (*p == '/') {
                *p = '\0';
                if (mkdir(path, 0700) != 0 && errno != EEXIST) /* the parents: as XDG asks */
                    break;
                *p = '/';
            }
    struct stat st;
    if (lstat(cache_dir, &st) != 0 && create && mkdir(cache_dir, 0700) == 0)
        lstat(cache_dir, &st);
    const char *why = NULL;
    if (lstat(cache_dir, &st) != 0)
        why = create ? strerror(errno) : NULL; /* nothing to read yet: not a problem */
    else if (S_ISLNK(st.st_mode))
        why = "is a symbolic link";
    else if (!S_ISDIR(st.st_mode))
        why = "is not a directory";
    else if (st.st_uid != geteuid())
        why = "belongs to another user";
    else if (st.st_mode & 022)
        why = "may be written by other users";
    else
        return 0;
    if (why)
        gp_log_once(GP_LOG_WARN, "setup-cache-dir",
                    "set-up cache: the directory %s %s; the cache is not used (GPUPROF_CACHE_DIR)",
                    cache_dir, why);
    return -1;
}

/* ---- reading ------------------------------------------------------------ */

/* The file's bytes (NUL-terminated) into *out, or NULL: absent (silent) or
 * refused (one line). */
static char *read_entry(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ELOOP)
            refuse("link", path, "is a symbolic link");
        else if (errno != ENOENT)
            refuse("open", path, "cannot be read (%s)", strerror(errno));
        return NULL;
    }
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) != 0) {
        refuse("open", path, "cannot be read (%s)", strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        refuse("notfile", path, "is not a regular file");
    } else if (st.st_uid != geteuid()) {
        refuse("owner", path, "belongs to another user");
    } else if (st.st_size > (off_t)GP_CACHE_MAX_BYTES) {
        refuse("size", path, "is larger than %u bytes", GP_CACHE_MAX_BYTES);
    } else if ((buf = malloc((size_t)st.st_size + 1))) {
        size_t got = 0;
        while (got < (size_t)st.st_size) {
            ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        buf[got] = '\0';
        *size = got;
    }
    close(fd);
    return buf;
}

/* Whole-number fields of one line after its name: up to max of them into v
 * (NULL: none wanted).  The count, or -1 when the line is not `name` or a
 * field is not a number in [lo, hi]. */
static long line_ints(char **cursor, const char *name, long lo, long hi, int *v, size_t max)
{
    char *line = *cursor, *end = strchr(line, '\n');
    if (!end)
        return -1;
    *end = '\0';
    *cursor = end + 1;
    size_t nl = strlen(name);
    if (strncmp(line, name, nl) != 0 || (line[nl] != ' ' && line[nl] != '\0'))
        return -1;
    long k = 0;
    for (char *p = line + nl; *p;) {
        if (*p++ != ' ')
            return -1;
        char *e;
        errno = 0;
        long x = strtol(p, &e, 10);
        if (e == p || errno || x < lo || x > hi || (size_t)k >= max)
            return -1;
        if (v)
            v[k] = (int)x;
        k++;
        p = e;
    }
    return k;
}

/* Parses buf (checksum already checked) for key into s: 1, or 0 with one
 * line. */
static int parse_entry(char *buf, const char *path, const char *key, gp_split *s)
{
    int version = 0, header = 0;
    char *cur = buf, *nl = strchr(cur, '\n');
    if (nl && sscanf(cur, "gpuprof-setup-cache %d", &version) == 1)
        header = 1;
    if (!header) {
        refuse("corrupt", path, "is not a set-up cache entry");
        return 0;
    }
    if (version != GP_CACHE_FORMAT) {
        refuse("version", path, "was written in another format (version %d, this is %d)", version,
               GP_CACHE_FORMAT);
        return 0;
    }
    cur = nl + 1;
    nl = strchr(cur, '\n');
    size_t kl = strlen(key);
    if (!nl || strncmp(cur, "key ", 4) != 0 || (size_t)(nl - cur - 4) != kl ||
        strncmp(cur + 4, key, kl) != 0) {
        refuse("key", path,
               "is another chip's, driver's, CUPTI's, mode's or list's (its key "
               "differs)");
        return 0;
    }
    cur = nl + 1;
    int nn[1] = {0}, gs[3] = {0, 0, 0};
    int *group = calloc(s->n ? s->n : 1, sizeof(int));
    int *carries = calloc(s->max_groups ? s->max_groups : 1, sizeof(int));
    int ok = group && carries;
    long got_n = ok ? line_ints(&cur, "n", 0, 1 << 30, nn, 1) : -1;
    if (got_n == 1 && (size_t)nn[0] != s->n) {
        free(group);
        free(carries);
        refuse("length", path, "is for a list of %d names, not %zu", nn[0], s->n);
        return 0;
    }
    /* "groups G stepped S" read as three fields: G, the word, S */
    long g_fields = -1;
    if (got_n == 1) {
        char *line = cur, *end = strchr(line, '\n');
        unsigned long g = 0, st = 0;
        int used = 0;
        if (end && sscanf(line, "groups %lu stepped %lu%n", &g, &st, &used) == 2 &&
            line + used == end && g >= 1 && g <= s->max_groups && st <= g) {
            gs[0] = (int)g;
            gs[1] = (int)st;
            g_fields = 2;
            cur = end + 1;
        }
    }
    long nc = g_fields == 2 ? line_ints(&cur, "carries", 0, 1, carries, s->max_groups) : -1;
    long ng = nc == gs[0] ? line_ints(&cur, "group", -2, gs[0] - 1, group, s->n) : -1;
    ok = ok && ng == (long)s->n && strncmp(cur, "sum ", 4) == 0;
    for (int g = 0; ok && g < gs[0]; g++) { /* every configuration has a name of its own */
        int has = 0;
        for (size_t i = 0; i < s->n && !has; i++)
            has = group[i] == g;
        ok = has && (s->carries || !carries[g]);
    }
    if (ok) {
        memcpy(s->group, group, s->n * sizeof(int));
        if (s->carries)
            memcpy(s->carries, carries, (size_t)gs[0] * sizeof(int));
        s->groups = (size_t)gs[0];
        s->stepped = (size_t)gs[1];
    } else {
        refuse("corrupt", path, "is corrupt (a line is malformed or out of range)");
    }
    free(group);
    free(carries);
    return ok;
}

int gp_setup_cache_load(const char *key, gp_split *s)
{
    char path[1100];
    if (gp_setup_cache_path(key, path, sizeof(path)) != 0 || dir_private(0) != 0)
        return 0;
    size_t size = 0;
    char *buf = read_entry(path, &size);
    int ok = 0;
    if (buf) {
        /* the last line: "sum " and 16 hex digits */
        char *sum = size >= 22 && buf[size - 1] == '\n' ? buf + size - 21 : NULL;
        unsigned long long want = 0;
        int n = 0;
        if (!sum || strncmp(sum, "sum ", 4) != 0 || sscanf(sum + 4, "%16llx%n", &want, &n) != 1 ||
            n != 16 || (sum > buf && sum[-1] != '\n'))
            refuse("truncated", path, "is truncated (no checksum at its end)");
        else if (gp_setup_cache_hash(GP_HASH_INIT, buf, (size_t)(sum - buf)) != want)
            refuse("checksum", path, "is corrupt (its checksum does not match)");
        else
            ok = parse_entry(buf, path, key, s);
    }
    free(buf);
    return ok;
}

/* ---- writing ------------------------------------------------------------ */

typedef struct {
    char *p;
    size_t n, cap;
    int failed;
} text;

static void text_add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(text *t, const char *fmt, ...)
{
    for (int tries = 0; tries < 2 && !t->failed; tries++) {
        va_list ap;
        va_start(ap, fmt);
        int w = vsnprintf(t->p ? t->p + t->n : NULL, t->p ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (w < 0) {
            t->failed = 1;
            return;
        }
        if (t->p && (size_t)w < t->cap - t->n) {
            t->n += (size_t)w;
            return;
        }
        size_t cap = 2 * (t->cap + (size_t)w + 64);
        char *np = realloc(t->p, cap);
        if (!np) {
            t->failed = 1;
            return;
        }
        t->p = np;
        t->cap = cap;
    }
}

int gp_setup_cache_store(const char *key, const gp_split *s)
{
    char path[1100], tmp[1100];
    if (gp_setup_cache_path(key, path, sizeof(path)) != 0 || dir_private(1) != 0)
        return -1;
    text t = {0};
    text_add(&t, "gpuprof-setup-cache %d\nkey %s\nn %zu\ngroups %zu stepped %zu\ncarries",
             GP_CACHE_FORMAT, key, s->n, s->groups, s->stepped);
    for (size_t g = 0; g < s->groups; g++)
        text_add(&t, " %d", s->carries ? s->carries[g] != 0 : 0);
    text_add(&t, "\ngroup");
    for (size_t i = 0; i < s->n; i++)
        text_add(&t, " %d", s->group[i]);
    text_add(&t, "\n");
    if (!t.failed)
        text_add(&t, "sum %016llx\n",
                 (unsigned long long)gp_setup_cache_hash(GP_HASH_INIT, t.p, t.n));
    const char *why = t.failed ? "out of memory" : NULL;
    int fd = -1;
    if (!why) {
        snprintf(tmp, sizeof(tmp), "%s/.split-XXXXXX", cache_dir);
        fd = mkostemp(tmp, O_CLOEXEC); /* O_EXCL, mode 0600: nothing planted is followed */
        if (fd < 0)
            why = strerror(errno);
    }
    size_t put = 0;
    while (!why && put < t.n) {
        ssize_t w = write(fd, t.p + put, t.n - put);
        if (w <= 0)
            why = strerror(errno ? errno : EIO);
        else
            put += (size_t)w;
    }
    if (fd >= 0 && close(fd) != 0 && !why)
        why = strerror(errno);
    /* rename replaces a link planted at the final name instead of following it */
    if (!why && rename(tmp, path) != 0)
        why = strerror(errno);
    if (why && fd >= 0)
        unlink(tmp);
    free(t.p);
    if (why) {
        gp_log_once(GP_LOG_INFO, "setup-cache-write",
                    "set-up cache: cannot write %s (%s); the split is made again next run", path,
                    why);
        return -1;
    }
    count(&stats.stored);
    return 0;
}
