/* textfile.c - see textfile.h. */
#include "metrics/records/textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/textio.h"

/* the first read-ahead; lines grow it up to their limit */
#define GP_TEXTFILE_CHUNK 65536

static const char *gp_textfile_kind(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

/* Opens path for reading.  strict: only a regular file or a pipe, a FIFO
 * opened without waiting for a writer, a regular file not over max_size.
 * Not strict (gp_textfile_read): anything but a directory, as fopen opens
 * it.  NULL with the reason in why and *at_open set when open itself
 * failed. */
static FILE *gp_textfile_fopen(const char *path, int strict, uint64_t max_size, char *why,
                               size_t whylen, int *at_open)
{
    struct stat st;
    FILE *f;
    /* O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer,
     * forever when there is none */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (strict ? O_NONBLOCK : 0));
    *at_open = fd < 0;
    if (fd < 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        goto bad;
    }
    if (S_ISDIR(st.st_mode) || (strict && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))) {
        snprintf(why, whylen, "it is %s%s", gp_textfile_kind(st.st_mode),
                 S_ISDIR(st.st_mode) ? "" : ", not a regular file or a pipe");
        goto bad;
    }
    if (strict && S_ISREG(st.st_mode) && (uint64_t)st.st_size > max_size) {
        snprintf(why, whylen, "it is larger than %llu bytes", (unsigned long long)max_size);
        goto bad;
    }
    /* reads wait for data again (a writer that is slow is not an end) */
    if (strict && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        goto bad;
    }
    if (!(f = fdopen(fd, "rb"))) {
        snprintf(why, whylen, "%s", strerror(errno));
        goto bad;
    }
    return f;
bad:
    close(fd);
    return NULL;
}

/* "cannot open|read WHAT PATH: why" into err, the path escaped. */
static void gp_textfile_say(char *err, size_t errlen, int at_open, const char *what,
                            const char *name, const char *why)
{
    snprintf(err, errlen, "cannot %s %s%s: %s", at_open ? "open" : "read", what ? what : "", name,
             why);
}

/* Reads all of f, at most max bytes (more: NULL with the reason). */
static char *gp_textfile_slurp(FILE *f, uint64_t max, size_t *len, char *why, size_t whylen)
{
    char *buf = NULL, *nb;
    size_t cap = 0, n = 0, got;
    errno = 0;
    for (;;) {
        if (cap - n < 4096) {
            cap = cap ? cap * 2 : GP_TEXTFILE_CHUNK;
            /* one byte beyond the limit tells "more" from "exactly max" */
            if (max < SIZE_MAX - 1 && cap > max + 1)
                cap = (size_t)max + 1;
            if (cap <= n) {
                snprintf(why, whylen, "it is larger than %llu bytes", (unsigned long long)max);
                goto bad;
            }
            if (!(nb = realloc(buf, cap + 1))) {
                snprintf(why, whylen, "out of memory");
                goto bad;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n > max) {
            snprintf(why, whylen, "it is larger than %llu bytes", (unsigned long long)max);
            goto bad;
        }
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        snprintf(why, whylen, "%s", errno ? strerror(errno) : "read error");
        goto bad;
    }
    buf[n] = 0;
    *len = n;
    return buf;
bad:
    free(buf);
    return NULL;
}

char *gp_textfile_read_max(const char *path, const char *what, uint64_t max_size, size_t *len,
                           char *err, size_t errlen)
{
    char why[160], name[320];
    int at_open;
    FILE *f = gp_textfile_fopen(path, 1, max_size, why, sizeof why, &at_open);
    char *text = NULL;
    gp_text_plain_buf(name, sizeof name, path);
    if (f) {
        text = gp_textfile_slurp(f, max_size, len, why, sizeof why);
        fclose(f);
    }
    /* "cannot read" whatever failed, as the whole-file readers always said */
    if (!text)
        gp_textfile_say(err, errlen, 0, what, name, why);
    return text;
}

char *gp_textfile_read(const char *path, size_t *len, char *err, size_t errlen)
{
    int at_open;
    FILE *f = gp_textfile_fopen(path, 0, UINT64_MAX, err, errlen, &at_open);
    char *text;
    if (!f)
        return NULL;
    text = gp_textfile_slurp(f, UINT64_MAX, len, err, errlen);
    fclose(f);
    return text;
}

void gp_textfile_stream(gp_textfile *t, FILE *f, const char *name, uint64_t max_size,
                        size_t max_line)
{
    memset(t, 0, sizeof *t);
    t->f = f;
    t->max_size = max_size;
    t->max_line = max_line;
    gp_text_plain_buf(t->name, sizeof t->name, name);
}

int gp_textfile_open(gp_textfile *t, const char *path, const char *what, uint64_t max_size,
                     size_t max_line, char *err, size_t errlen)
{
    char why[160];
    int at_open;
    FILE *f;
    if (strcmp(path, "-") == 0) {
        gp_textfile_stream(t, stdin, "<stdin>", max_size, max_line);
        return 0;
    }
    gp_textfile_stream(t, NULL, path, max_size, max_line);
    if (!(f = gp_textfile_fopen(path, 1, max_size, why, sizeof why, &at_open))) {
        gp_textfile_say(err, errlen, at_open, what, t->name, why);
        return -1;
    }
    t->f = f;
    t->own = 1;
    return 0;
}

/* Reads more into buf after end; 0, or -1 with err (read error, over the
 * size limit); sets eof at the end. */
static int gp_textfile_fill(gp_textfile *t, char *err, size_t errlen)
{
    size_t got;
    if (t->start > 0) { /* what is left of a line moves to the front */
        memmove(t->buf, t->buf + t->start, t->end - t->start);
        t->end -= t->start;
        t->start = 0;
    }
    if (t->cap - t->end < 2) {
        /* the line and its NUL fit within max_line + 2 */
        size_t want = t->cap ? t->cap * 2 : GP_TEXTFILE_CHUNK, most = t->max_line + 2;
        char *nb;
        if (want > most)
            want = most > t->cap ? most : t->cap;
        if (want <= t->cap || !(nb = realloc(t->buf, want))) {
            snprintf(err, errlen, "%s: out of memory", t->name);
            return -1;
        }
        t->buf = nb;
        t->cap = want;
    }
    errno = 0;
    got = fread(t->buf + t->end, 1, t->cap - t->end - 1, t->f);
    t->end += got;
    t->got += got;
    if (t->got > t->max_size) {
        snprintf(err, errlen, "cannot read %s: it is larger than %llu bytes", t->name,
                 (unsigned long long)t->max_size);
        return -1;
    }
    if (got == 0) {
        if (ferror(t->f)) {
            snprintf(err, errlen, "cannot read %s: %s", t->name,
                     errno ? strerror(errno) : "read error");
            return -1;
        }
        t->eof = 1;
    }
    return 0;
}

int gp_textfile_line(gp_textfile *t, char **line, size_t *len, char *err, size_t errlen)
{
    size_t scan = t->start;
    if (!t->f)
        return 0;
    for (;;) {
        char *nl = t->end > scan ? memchr(t->buf + scan, '\n', t->end - scan) : NULL;
        size_t n = nl ? (size_t)(nl - (t->buf + t->start)) : t->end - t->start;
        if (nl || (t->eof && (t->end > t->start || t->skipping))) {
            int skipped = t->skipping;
            t->skipping = 0;
            t->lineno++;
            *line = t->buf + t->start;
            *len = n;
            t->start += n + (nl != NULL);
            if (skipped) {
                snprintf(err, errlen, "line longer than %zu bytes; skipped", t->max_line);
                return -2;
            }
            (*line)[n] = 0; /* on the newline, or on the spare byte after the end */
            return 1;
        }
        if (t->eof)
            return 0;
        if (t->skipping || n > t->max_line) {
            /* dropped as it is read: only the line's end is looked for */
            t->skipping = 1;
            t->start = t->end;
        }
        if (gp_textfile_fill(t, err, errlen) < 0) {
            t->eof = 1;
            t->skipping = 0;
            t->start = t->end = 0;
            return -1;
        }
        /* the bytes kept are at the front now, already looked through */
        scan = t->skipping ? t->start : t->start + n;
    }
}

void gp_textfile_close(gp_textfile *t)
{
    if (t->own && t->f)
        fclose(t->f);
    free(t->buf);
    memset(t, 0, sizeof *t);
}
