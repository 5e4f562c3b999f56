/* safefile.c - see safefile.h. */
#define _GNU_SOURCE
#include "util/safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Six characters no one can guess, for the temporary name. */
static void safefile_suffix(char out[7])
{
    static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static unsigned counter;
    unsigned char r[6];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20) ^ (uint64_t)++counter << 40;
        for (int i = 0; i < 6; i++, x >>= 8)
            r[i] = (unsigned char)x;
    }
    for (int i = 0; i < 6; i++)
        out[i] = set[r[i] % (sizeof set - 1)];
    out[6] = 0;
}

/* Creates the temporary file next to target (the final name). */
static int safefile_temp(gp_safefile *sf, const char *target, const char *shown, char *err,
                         size_t errlen)
{
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    size_t dirlen = (size_t)(base - target), baselen = strlen(base);
    int fd = -1;
    /* ".<base>.XXXXXX" must stay within a file name's 255 bytes */
    if (baselen > 200)
        baselen = 200;
    sf->path = strdup(target);
    sf->tmp = malloc(dirlen + baselen + 10);
    if (!sf->path || !sf->tmp) {
        snprintf(err, errlen, "cannot write %s: out of memory", shown);
        return -1;
    }
    for (int tries = 0; tries < 100; tries++) {
        char sfx[7];
        safefile_suffix(sfx);
        snprintf(sf->tmp, dirlen + baselen + 10, "%.*s.%.*s.%s", (int)dirlen, target, (int)baselen,
                 base, sfx);
        fd = open(sf->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0 || errno != EEXIST)
            break;
    }
    if (fd < 0) {
        snprintf(err, errlen, "cannot write %s: %s", shown, strerror(errno));
        return -1;
    }
    if (!(sf->f = fdopen(fd, "w"))) {
        snprintf(err, errlen, "cannot write %s: %s", shown, strerror(errno));
        close(fd);
        unlink(sf->tmp);
        return -1;
    }
    return 0;
}

/* A pipe, socket, terminal or /dev/null: written where it is. */
static int safefile_direct(gp_safefile *sf, const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0 || !(sf->f = fdopen(fd, "w"))) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    sf->path = strdup(path);
    return 0;
}

int gp_safefile_open(gp_safefile *sf, const char *path, char *err, size_t errlen)
{
    struct stat lst, st;
    char *real = NULL;
    int rc;
    memset(sf, 0, sizeof *sf);
    if (!*path || path[strlen(path) - 1] == '/') {
        snprintf(err, errlen, "cannot write %s: it names a directory", path);
        return -1;
    }
    if (lstat(path, &lst) != 0) {
        if (errno != ENOENT) {
            snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
        rc = safefile_temp(sf, path, path, err, errlen);
        goto out;
    }
    if (S_ISLNK(lst.st_mode)) {
        /* a link someone else made (in a shared directory) may point at any
         * file of ours: never followed.  Our own links and the system's
         * (/dev/stdout) are. */
        if (lst.st_uid != geteuid() && lst.st_uid != 0) {
            snprintf(err, errlen,
                     "cannot write %s: it is a symbolic link owned by another user; not "
                     "writing through it",
                     path);
            return -1;
        }
        if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) &&
            !S_ISBLK(st.st_mode)) {
            rc = safefile_direct(sf, path, err, errlen);
            goto out;
        }
        if (!(real = realpath(path, NULL))) {
            snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
        rc = safefile_temp(sf, real, path, err, errlen);
        free(real);
        goto out;
    }
    if (S_ISDIR(lst.st_mode) || S_ISBLK(lst.st_mode)) {
        snprintf(err, errlen, "cannot write %s: it is a %s", path,
                 S_ISDIR(lst.st_mode) ? "directory" : "block device");
        return -1;
    }
    if (!S_ISREG(lst.st_mode)) {
        rc = safefile_direct(sf, path, err, errlen);
        goto out;
    }
    rc = safefile_temp(sf, path, path, err, errlen);
out:
    if (rc < 0) {
        free(sf->path);
        free(sf->tmp);
        memset(sf, 0, sizeof *sf);
    }
    return rc;
}

int gp_safefile_create(gp_safefile *sf, const char *path, char *err, size_t errlen)
{
    struct stat lst;
    memset(sf, 0, sizeof *sf);
    if (!*path || path[strlen(path) - 1] == '/' ||
        (lstat(path, &lst) == 0 && S_ISDIR(lst.st_mode))) {
        snprintf(err, errlen, "cannot write %s: it names a directory", path);
        return -1;
    }
    if (safefile_temp(sf, path, path, err, errlen) < 0) {
        if (sf->f)
            fclose(sf->f);
        free(sf->path);
        free(sf->tmp);
        memset(sf, 0, sizeof *sf);
        return -1;
    }
    return 0;
}

int gp_safefile_commit(gp_safefile *sf, char *err, size_t errlen)
{
    int rc = 0;
    if (!sf->f)
        return -1;
    int bad = ferror(sf->f);
    if (fclose(sf->f) != 0 || bad) {
        snprintf(err, errlen, "cannot write %s: %s", sf->path,
                 bad ? "write error" : strerror(errno));
        if (sf->tmp)
            unlink(sf->tmp);
        rc = -1;
    } else if (sf->tmp && rename(sf->tmp, sf->path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", sf->path, strerror(errno));
        unlink(sf->tmp);
        rc = -1;
    }
    free(sf->path);
    free(sf->tmp);
    memset(sf, 0, sizeof *sf);
    return rc;
}

int gp_safefile_publish(gp_safefile *sf, char *err, size_t errlen)
{
    if (!sf->f || !sf->tmp)
        return 0;
    if (rename(sf->tmp, sf->path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", sf->path, strerror(errno));
        gp_safefile_discard(sf);
        return -1;
    }
    free(sf->tmp);
    sf->tmp = NULL;
    return 0;
}

void gp_safefile_discard(gp_safefile *sf)
{
    if (sf->f) {
        fclose(sf->f);
        if (sf->tmp)
            unlink(sf->tmp);
    }
    free(sf->path);
    free(sf->tmp);
    memset(sf, 0, sizeof *sf);
}

FILE *gp_safefile_append(const char *path, char *err, size_t errlen)
{
    struct stat st;
    FILE *f;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "%s", errno == ELOOP ? "it is a symbolic link" : strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "it is not a regular file");
        close(fd);
        return NULL;
    }
    if (!(f = fdopen(fd, "a"))) {
        snprintf(err, errlen, "%s", strerror(errno));
        close(fd);
    }
    return f;
}

int gp_safedir(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (mkdir(path, 0755) == 0)
        return 0;
    if (errno != EEXIST) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    if (lstat(path, &st) != 0) {
        snprintf(err, errlen, "cannot use %s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode)) {
        snprintf(err, errlen, "%s is a symbolic link; not writing through it", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "cannot create %s: a file of that name exists", path);
        return -1;
    }
    return 0;
}
