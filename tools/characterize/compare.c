/* compare.c - see compare.h. */
#define _GNU_SOURCE
#include "compare.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/regex_safe.h"
#include "util/safefile.h"

#define GPC_LINE_SHOWN 300   /* bytes of a differing line kept in the result */
#define GPC_CHUNK (1 << 20)  /* bytes read between two looks at the bound */
#define GPC_LINES_CHECK 4096 /* lines compared between two looks at the bound */

double gpc_compare_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* 0, or why the work must stop now. */
static int gpc_bound_hit(const gpc_bound *b)
{
    if (!b)
        return 0;
    if (b->stop && *b->stop)
        return GPC_CMP_STOPPED;
    if (b->deadline > 0 && gpc_compare_now() > b->deadline)
        return GPC_CMP_LATE;
    return 0;
}

static const char *gpc_kind_name(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISLNK(m)  ? "a symbolic link"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

/* o from a file's status: regular within the limit, too big, or another kind. */
static void gpc_out_from_stat(const struct stat *st, gpc_out *o)
{
    o->size = (long long)st->st_size;
    if (!S_ISREG(st->st_mode)) {
        o->kind = GPC_OUT_NOT_REGULAR;
        o->what = gpc_kind_name(st->st_mode);
    } else {
        o->kind = st->st_size > GPC_COMPARE_MAX ? GPC_OUT_TOO_BIG : GPC_OUT_FILE;
    }
}

const char *gpc_out_describe(const gpc_out *o, char *buf, size_t len)
{
    switch (o->kind) {
    case GPC_OUT_FILE:
        snprintf(buf, len, "a regular file of %lld bytes", o->size);
        break;
    case GPC_OUT_ABSENT:
        snprintf(buf, len, "not written");
        break;
    case GPC_OUT_NOT_REGULAR:
        snprintf(buf, len, "%s, not a regular file (characterize compares only regular files)",
                 o->what);
        break;
    case GPC_OUT_TOO_BIG:
        snprintf(buf, len, "%lld bytes, over the %d MiB limit of a compared output", o->size,
                 GPC_COMPARE_MAX_MIB);
        break;
    default:
        snprintf(buf, len, "not readable (%s)", o->what ? o->what : "?");
    }
    return buf;
}

/* Opens the directory holding rel inside dir one component at a time,
 * following no symbolic link (a command that makes "sub" a link to another
 * directory must not get characterize to move a file out of it); *base
 * gets rel's last component.  Returns the descriptor, or -1 with o filled
 * (absent, reached through a link, unreadable). */
static int gpc_compare_parent(const char *dir, const char *rel, const char **base, gpc_out *o)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), next, bad;
    const char *c = rel, *slash;
    char comp[NAME_MAX + 1];
    struct stat st;
    memset(o, 0, sizeof *o);
    o->kind = GPC_OUT_UNREADABLE;
    if (fd < 0) {
        o->what = strerror(errno);
        return -1;
    }
    while ((slash = strchr(c, '/'))) {
        size_t n = (size_t)(slash - c);
        if (n > NAME_MAX) {
            o->kind = GPC_OUT_ABSENT;
            close(fd);
            return -1;
        }
        memcpy(comp, c, n);
        comp[n] = 0;
        bad = 1;
        if (fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) < 0) {
            o->kind = errno == ENOENT || errno == ENOTDIR ? GPC_OUT_ABSENT : GPC_OUT_UNREADABLE;
            o->what = strerror(errno);
        } else if (S_ISLNK(st.st_mode)) {
            o->kind = GPC_OUT_NOT_REGULAR;
            o->what = "reached through a symbolic link";
        } else if (!S_ISDIR(st.st_mode)) {
            o->kind = GPC_OUT_ABSENT; /* a file where a directory would be */
        } else {
            bad = 0;
        }
        if (bad) {
            close(fd);
            return -1;
        }
        next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(fd);
        if (next < 0) {
            o->what = strerror(errno);
            return -1;
        }
        fd = next;
        c = slash + 1;
    }
    *base = c;
    return fd;
}

int gpc_compare_present(const gpc_program *p, size_t i, char *buf, size_t len)
{
    const char *base;
    struct stat st;
    gpc_out o;
    int fd = gpc_compare_parent(p->dir, p->compare[i], &base, &o), rc = 1;
    if (fd < 0) {
        if (o.kind == GPC_OUT_ABSENT)
            return 0;
        snprintf(buf, len, "is %s", o.kind == GPC_OUT_NOT_REGULAR ? o.what : "not readable");
        return 1;
    }
    if (fstatat(fd, base, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
        rc = 0;
    else
        snprintf(buf, len, "exists");
    close(fd);
    return rc;
}

/* Copies the regular file base (in dirfd) to dst, at most GPC_COMPARE_MAX
 * bytes: the fallback of a rename across file systems. */
static void gpc_compare_copy(int dirfd, const char *base, const char *dst)
{
    int fd = openat(dirfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    char buf[65536], why[256];
    long long total = 0;
    struct stat st;
    gp_safefile f;
    ssize_t got;
    if (fd < 0)
        return;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        gp_safefile_create(&f, dst, why, sizeof why) == 0) {
        while (total <= GPC_COMPARE_MAX && (got = read(fd, buf, sizeof buf)) > 0) {
            fwrite(buf, 1, (size_t)got, f.f);
            total += got;
        }
        gp_safefile_commit(&f, why, sizeof why);
    }
    close(fd);
}

int gpc_compare_collect(const gpc_program *p, size_t i, const char *prog_dir, const char *which,
                        gpc_out *o)
{
    const char *base, *slash = strrchr(p->compare[i], '/');
    char *dst = NULL;
    struct stat st;
    int fd = gpc_compare_parent(p->dir, p->compare[i], &base, o);
    if (fd < 0)
        return 0;
    if (fstatat(fd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
        o->kind = errno == ENOENT ? GPC_OUT_ABSENT : GPC_OUT_UNREADABLE;
        o->what = strerror(errno);
        close(fd);
        return 0;
    }
    gpc_out_from_stat(&st, o);
    if (S_ISDIR(st.st_mode)) { /* not an output file; never removed */
        close(fd);
        return 0;
    }
    if (asprintf(&dst, "%s/%s.%zu.%s", prog_dir, which, i + 1, slash ? slash + 1 : p->compare[i]) <
        0) {
        close(fd);
        return -1;
    }
    /* rename moves a link or a FIFO itself, never what it points to */
    if (renameat(fd, base, AT_FDCWD, dst) < 0) {
        if (errno == EXDEV && o->kind == GPC_OUT_FILE)
            gpc_compare_copy(fd, base, dst);
        unlinkat(fd, base, 0);
    }
    free(dst);
    close(fd);
    return 0;
}

int gpc_compare_read(const char *path, const gpc_bound *b, char **text, size_t *len, gpc_out *o)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), rc = 1;
    struct stat st;
    size_t cap, n = 0;
    char *buf = NULL, *nb;
    *text = NULL;
    *len = 0;
    memset(o, 0, sizeof *o);
    if (fd < 0) {
        o->kind = errno == ENOENT  ? GPC_OUT_ABSENT
                  : errno == ELOOP ? GPC_OUT_NOT_REGULAR
                                   : GPC_OUT_UNREADABLE;
        o->what = o->kind == GPC_OUT_NOT_REGULAR ? "a symbolic link" : strerror(errno);
        return 1;
    }
    if (fstat(fd, &st) < 0) {
        o->kind = GPC_OUT_UNREADABLE;
        o->what = strerror(errno);
        goto out;
    }
    gpc_out_from_stat(&st, o);
    if (o->kind != GPC_OUT_FILE)
        goto out;
    /* the size may still change (a background process the command left):
     * never more than the limit is read */
    cap = (size_t)st.st_size + 1;
    if (!(buf = malloc(cap + 1))) {
        rc = GPC_CMP_NOMEM;
        goto out;
    }
    for (;;) {
        ssize_t got;
        size_t want;
        if ((rc = gpc_bound_hit(b)))
            goto out;
        rc = 1;
        if (n == cap) {
            if ((long long)cap > GPC_COMPARE_MAX) {
                o->kind = GPC_OUT_TOO_BIG;
                o->size = (long long)n;
                goto out;
            }
            cap = cap * 2 > (size_t)GPC_COMPARE_MAX + 1 ? (size_t)GPC_COMPARE_MAX + 1 : cap * 2;
            if (!(nb = realloc(buf, cap + 1))) {
                rc = GPC_CMP_NOMEM;
                goto out;
            }
            buf = nb;
        }
        want = cap - n < GPC_CHUNK ? cap - n : GPC_CHUNK;
        got = read(fd, buf + n, want);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            o->kind = GPC_OUT_UNREADABLE;
            o->what = strerror(errno);
            goto out;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    buf[n] = 0;
    o->size = (long long)n;
    *text = buf;
    *len = n;
    buf = NULL;
    rc = 0;
out:
    free(buf);
    close(fd);
    return rc;
}

/* The next line of buf[*pos..len) not matched by an ignore rule: its start
 * and length (no newline), its 1-based number in *lineno.  0 at the end,
 * -1 when out of memory. */
static int gpc_next_line(const gpc_program *p, const char *buf, size_t len, size_t *pos,
                         long *lineno, const char **start, size_t *llen)
{
    while (*pos < len) {
        const char *s = buf + *pos, *nl = memchr(s, '\n', len - *pos);
        size_t n = nl ? (size_t)(nl - s) : len - *pos;
        int skip = 0;
        size_t i;
        *pos += n + (nl ? 1 : 0);
        (*lineno)++;
        if (p && p->n_ignore) {
            /* the rules see the first GP_REGEX_TEXT_MAX bytes: glibc's search
             * time grows with the square of the text */
            char *tmp = strndup(s, n < GP_REGEX_TEXT_MAX ? n : GP_REGEX_TEXT_MAX);
            if (!tmp)
                return -1;
            for (i = 0; i < p->n_ignore && !skip; i++)
                skip = regexec(&p->ignore_re[i], tmp, 0, NULL, 0) == 0;
            free(tmp);
        }
        if (!skip) {
            *start = s;
            *llen = n;
            return 1;
        }
    }
    return 0;
}

int gpc_compare_text(const gpc_program *p, const char *what, const char *native, size_t nlen,
                     const char *profiled, size_t plen, const gpc_bound *b, gpc_result *r)
{
    size_t np = 0, pp = 0, nl = 0, pl = 0;
    long nno = 0, pno = 0, differ = 0, first_n = 0, first_p = 0, steps = 0;
    char *fn = NULL, *fp = NULL;
    int have_first = 0, rc;
    for (;;) {
        const char *ns = NULL, *ps = NULL;
        int hn, hp;
        if (++steps % GPC_LINES_CHECK == 0 && (rc = gpc_bound_hit(b)))
            goto out;
        hn = gpc_next_line(p, native, nlen, &np, &nno, &ns, &nl);
        hp = gpc_next_line(p, profiled, plen, &pp, &pno, &ps, &pl);
        rc = GPC_CMP_NOMEM;
        if (hn < 0 || hp < 0)
            goto out;
        if (!hn && !hp)
            break;
        if (hn && hp && nl == pl && memcmp(ns, ps, nl) == 0)
            continue;
        differ++;
        if (!have_first) {
            have_first = 1;
            first_n = hn ? nno : nno + 1;
            first_p = hp ? pno : pno + 1;
            if ((hn && !(fn = gpc_excerpt(ns, nl, GPC_LINE_SHOWN))) ||
                (hp && !(fp = gpc_excerpt(ps, pl, GPC_LINE_SHOWN))))
                goto out;
        }
    }
    rc = 0;
    if (differ)
        rc = gpc_result_add_diff(r, what, first_n, first_p, fn, fp, differ) < 0 ? GPC_CMP_NOMEM : 1;
out:
    free(fn);
    free(fp);
    return rc;
}
