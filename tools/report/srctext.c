/* srctext.c - see srctext.h. */
#define _GNU_SOURCE
#include "srctext.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* What compilers record as source files of GPU code. */
static const char *const gp_srctext_exts[] = {".cu",  ".cuh", ".c",   ".cc",  ".cpp", ".cxx",
                                              ".c++", ".h",   ".hh",  ".hpp", ".hxx", ".inl",
                                              ".inc", ".py",  ".ptx", ".cl",  ".f90", ".cuf"};

static int gp_srctext_is_source(const char *name)
{
    size_t i, n = strlen(name);
    for (i = 0; i < sizeof gp_srctext_exts / sizeof gp_srctext_exts[0]; i++) {
        size_t e = strlen(gp_srctext_exts[i]);
        if (n > e && strcasecmp(name + n - e, gp_srctext_exts[i]) == 0)
            return 1;
    }
    return 0;
}

/* The whole file, or NULL with the reason.  Opened without blocking (a
 * FIFO would hang the report) and without following a link (a record that
 * names kernel.cu, a link to /etc/passwd, must not put that file in the
 * report), and checked to be a regular file of at most max bytes before
 * anything is read. */
static char *gp_srctext_load(const char *path, long max, size_t *len, char *why, size_t wlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    char *buf = NULL;
    size_t n = 0;
    if (fd < 0) {
        snprintf(why, wlen, "%s", errno == ELOOP ? "not read: a symbolic link" : strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, wlen, "not a regular file");
        goto fail;
    }
    if (st.st_size > max) {
        snprintf(why, wlen, "over %ld bytes", max);
        goto fail;
    }
    if (!(buf = malloc((size_t)st.st_size + 1))) {
        snprintf(why, wlen, "out of memory");
        goto fail;
    }
    while (n < (size_t)st.st_size) { /* a file that grows while read is cut */
        ssize_t got = read(fd, buf + n, (size_t)st.st_size - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(why, wlen, "%s", strerror(errno));
            goto fail;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    if (memchr(buf, 0, n)) {
        snprintf(why, wlen, "not text (it holds NUL bytes)");
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
fail:
    free(buf);
    close(fd);
    return NULL;
}

int gp_srctext_read(gp_source *s, char *const *folders, size_t n_folders)
{
    long total = 0;
    size_t i, j;
    int done = 0;
    for (i = 0; s && i < s->n_files; i++) {
        const char *name = s->files[i].name, *base = strrchr(name, '/');
        char why[256] = "", path[8192];
        char *text = NULL;
        size_t len = 0;
        if (!gp_srctext_is_source(name)) {
            gp_source_text_set_file(s, (int)i, NULL, 0,
                                    "not read: not a source file's name (.cu, .cuh, .c, .cpp, "
                                    ".h, .py, ...)");
            continue;
        }
        if (total >= GP_SRCTEXT_MAX_TOTAL) {
            gp_source_text_set_file(s, (int)i, NULL, 0,
                                    "not read: the report's source text "
                                    "budget is spent");
            continue;
        }
        text = gp_srctext_load(name, GP_SRCTEXT_MAX_FILE, &len, why, sizeof why);
        for (j = 0; !text && j < n_folders; j++) {
            char w2[256];
            if (name[0] != '/') {
                snprintf(path, sizeof path, "%s/%s", folders[j], name);
                if ((text = gp_srctext_load(path, GP_SRCTEXT_MAX_FILE, &len, w2, sizeof w2)))
                    break;
            }
            snprintf(path, sizeof path, "%s/%s", folders[j], base ? base + 1 : name);
            text = gp_srctext_load(path, GP_SRCTEXT_MAX_FILE, &len, w2, sizeof w2);
        }
        if (!text) {
            gp_source_text_set_file(s, (int)i, NULL, 0, why);
            continue;
        }
        total += (long)len;
        gp_source_text_set_file(s, (int)i, text, len, NULL);
        done++;
    }
    return done;
}
