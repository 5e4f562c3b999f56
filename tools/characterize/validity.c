/* validity.c - see validity.h. */
#define _GNU_SOURCE
#include "validity.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrics/records/json.h"
#include "util/num.h"

#define GPC_VALIDITY_KERNEL_MAX 512 /* bytes of a kernel name kept */
#define GPC_VALIDITY_REASON_MAX 1000
#define GPC_VALIDITY_HEAD (1L << 20) /* bytes of a file searched for a first record */

/* The last non-empty line of path, a regular file opened without following
 * a link or blocking, when it is at most GPC_VALIDITY_LINE_MAX bytes; NULL
 * otherwise (*oom set when out of memory). */
static char *gpc_validity_last_line(const char *path, size_t *len, int *oom)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    char *buf = NULL, *start, *line = NULL;
    size_t n, end;
    off_t at;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
        goto out;
    n = st.st_size > GPC_VALIDITY_LINE_MAX + 2 ? (size_t)GPC_VALIDITY_LINE_MAX + 2
                                               : (size_t)st.st_size;
    at = st.st_size - (off_t)n;
    if (!(buf = malloc(n + 1))) {
        *oom = 1;
        goto out;
    }
    if (pread(fd, buf, n, at) != (ssize_t)n)
        goto out;
    end = n;
    while (end > 0 && (buf[end - 1] == '\n' || buf[end - 1] == '\r' || buf[end - 1] == ' '))
        end--;
    buf[end] = 0;
    start = memrchr(buf, '\n', end);
    if (!start && at > 0)
        goto out; /* longer than the window: not a summary record we read */
    start = start ? start + 1 : buf;
    *len = end - (size_t)(start - buf);
    if (!(line = malloc(*len + 1))) {
        *oom = 1;
        goto out;
    }
    memcpy(line, start, *len);
    line[*len] = 0;
out:
    free(buf);
    close(fd);
    return line;
}

/* What one process's summary record says: -1 nothing (no record), 0 valid,
 * 1 broken (from, kernel, reason filled; the strings are the caller's);
 * *records the launch and variant_estimate records it counts. */
static int gpc_validity_record(const char *line, size_t len, long *from, char **kernel,
                               char **reason, long *records)
{
    gp_json *doc = gp_json_parse(line, len, NULL, 0);
    const gp_json *res, *ok;
    const char *type, *k, *why;
    double lne;
    int rc = -1;
    *from = -1;
    *kernel = *reason = NULL;
    *records = 0;
    if (!doc)
        return -1;
    type = gp_json_string(gp_json_get(doc, "type"));
    if (!type || strcmp(type, "summary") != 0)
        goto out;
    *records = gp_num_add_sat(
        gp_num_clamp(gp_json_number(gp_json_get(doc, "launches_profiled")), 0, LONG_MAX, 0),
        gp_num_clamp(gp_json_number(gp_json_get(doc, "launches_estimated")), 0, LONG_MAX, 0));
    res = gp_json_get(doc, "results");
    ok = gp_json_get(res, "valid");
    if (ok && ok->type == GP_JSON_BOOL) {
        /* the library's own judgement */
        rc = ok->num == 0;
        if (rc == 1) {
            if (gp_num_in_range(gp_json_number(gp_json_get(res, "from_launch")), 0, LONG_MAX,
                                from) < 0)
                *from = -1;
            k = gp_json_string(gp_json_get(res, "kernel"));
            why = gp_json_string(gp_json_get(res, "reason"));
            *kernel = k && k[0] ? gpc_excerpt(k, strlen(k), GPC_VALIDITY_KERNEL_MAX) : NULL;
            *reason = why && why[0]
                          ? gpc_excerpt(why, strlen(why), GPC_VALIDITY_REASON_MAX)
                          : strdup("the profiler reports the program's results invalid (no "
                                   "reason given)");
        }
        goto out;
    }
    /* a record from before "results": launches the GPU never ran */
    lne = gp_json_number(gp_json_get(doc, "launches_not_executed"));
    rc = 0;
    if (lne >= 1) {
        long n = gp_num_clamp(lne, 1, LONG_MAX, 1);
        rc = 1;
        if (asprintf(reason,
                     "%ld kernel launch%s the profiler intercepted never ran on the GPU "
                     "(launches_not_executed of its summary)",
                     n, n == 1 ? "" : "es") < 0)
            *reason = NULL;
    }
out:
    gp_json_free(doc);
    return rc;
}

/* Whether path (a file without a summary record: its process died before
 * the end) holds a launch or variant_estimate record in its first
 * GPC_VALIDITY_HEAD bytes, where the library writes its first records. */
static int gpc_validity_head_has_record(const char *path)
{
    static const char *const kinds[] = {"{\"type\":\"launch\"", "{\"type\":\"variant_estimate\""};
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), found = 0;
    struct stat st;
    char *buf = NULL;
    ssize_t got;
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !(buf = malloc(GPC_VALIDITY_HEAD + 1)))
        goto out;
    if ((got = pread(fd, buf, GPC_VALIDITY_HEAD, 0)) <= 0)
        goto out;
    buf[got] = 0;
    for (char *line = buf; line && !found; line = strchr(line, '\n')) {
        line += *line == '\n';
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            found |= strncmp(line, kinds[k], strlen(kinds[k])) == 0;
    }
out:
    free(buf);
    close(fd);
    return found;
}

int gpc_validity_read(gpc_validity *v, const char *dir, char *const *jsonl, size_t n)
{
    size_t i;
    memset(v, 0, sizeof *v);
    v->from_launch = -1;
    v->valid = 1;
    for (i = 0; i < n; i++) {
        char *path = NULL, *line, *kernel, *reason;
        size_t len = 0;
        long from, records = 0;
        int oom = 0, x;
        if (asprintf(&path, "%s/%s", dir, jsonl[i]) < 0)
            return -1;
        line = gpc_validity_last_line(path, &len, &oom);
        if (oom) {
            free(path);
            return -1;
        }
        x = line ? gpc_validity_record(line, len, &from, &kernel, &reason, &records) : -1;
        free(line);
        if (x < 0) {
            v->records = gp_num_add_sat(v->records, gpc_validity_head_has_record(path));
            free(path);
            continue;
        }
        free(path);
        v->records = gp_num_add_sat(v->records, records);
        v->known = 1;
        if (x == 0)
            continue;
        if (!reason) {
            free(kernel);
            return -1;
        }
        /* the first broken process (files in name order) is the one shown */
        if (v->n_invalid++ == 0) {
            v->valid = 0;
            v->from_launch = from;
            v->kernel = kernel;
            v->reason = reason;
            if (!(v->file = strdup(jsonl[i])))
                return -1;
        } else {
            free(kernel);
            free(reason);
        }
    }
    return 0;
}

int gpc_validity_stderr(gpc_validity *v, const char *path)
{
    static const char mark[] = "] THE PROGRAM'S RESULTS ARE NOT VALID from launch ";
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), rc = 0;
    struct stat st;
    char *buf = NULL, *at, *line, *end, *rest, *cut;
    size_t n;
    long from = -1;
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
        goto out;
    n = st.st_size > GPC_VALIDITY_STDERR_TAIL ? (size_t)GPC_VALIDITY_STDERR_TAIL
                                              : (size_t)st.st_size;
    if (!(buf = malloc(n + 1))) {
        rc = -1;
        goto out;
    }
    if (pread(fd, buf, n, st.st_size - (off_t)n) != (ssize_t)n)
        goto out;
    buf[n] = 0;
    for (at = memmem(buf, n, mark, sizeof mark - 1); at;
         at = memmem(at + 1, n - (size_t)(at + 1 - buf), mark, sizeof mark - 1)) {
        /* the library's own line: "[gpuprof PID] THE PROGRAM'S ..." */
        for (line = at; line > buf && line[-1] != '\n'; line--)
            ;
        if (strncmp(line, "[gpuprof ", 9) == 0)
            break;
    }
    if (!at)
        goto out;
    rest = at + sizeof mark - 1;
    end = memchr(rest, '\n', n - (size_t)(rest - buf));
    if (end)
        *end = 0;
    from = strtol(rest, &rest, 10);
    if (from < 1)
        from = -1;
    while (*rest == ' ')
        rest++;
    if (strncmp(rest, "on ", 3) == 0)
        rest += 3;
    v->known = 1;
    v->n_invalid = v->n_invalid > 0 ? v->n_invalid : 1;
    if (!v->valid)
        goto out; /* a summary record said so already, with more */
    v->valid = 0;
    v->from_launch = from;
    cut = gpc_excerpt(rest, strlen(rest), GPC_VALIDITY_REASON_MAX);
    if (!cut || asprintf(&v->reason, "the profiler said so on the profiled run's stderr: %s",
                         cut) < 0) {
        v->reason = NULL;
        rc = -1;
    }
    free(cut);
out:
    free(buf);
    close(fd);
    return rc;
}
