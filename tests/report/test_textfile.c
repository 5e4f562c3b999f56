/* test_textfile.c - the one reader of input files (metrics/records/textfile.c):
 * lines split whatever the read-ahead, a line over its limit skipped
 * without being held, a file over its size limit refused (a regular file
 * before it is read, a stream when it passes the limit), devices and
 * directories refused, a FIFO nobody writes read as empty instead of
 * waiting, and the older unlimited reader unchanged. */
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp_test.h"
#include "metrics/records/textfile.h"

static char tmpdir[] = "/tmp/gp-textfile-XXXXXX";

static const char *path_of(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    return p;
}

static void put(const char *name, const char *text, size_t len)
{
    FILE *f = fopen(path_of(name), "wb");
    fwrite(text, 1, len, f);
    fclose(f);
}

/* Every result of reading text line by line with the limits, as one string:
 * "L:<line>|" for a line, "S|" for a skipped one, "E|" for an error. */
static void lines_of(const char *text, size_t len, uint64_t max_size, size_t max_line, char *out,
                     size_t outlen)
{
    FILE *f = fmemopen((void *)text, len, "r");
    gp_textfile t;
    char *line, err[200];
    size_t n, o = 0;
    int got;
    gp_textfile_stream(&t, f, "mem", max_size, max_line);
    out[0] = 0;
    while ((got = gp_textfile_line(&t, &line, &n, err, sizeof err)) != 0 && o < outlen) {
        if (got == 1)
            o += (size_t)snprintf(out + o, outlen - o, "L:%.*s|", (int)n, line);
        else
            o += (size_t)snprintf(out + o, outlen - o, "%s|", got == -2 ? "S" : "E");
        if (got == -1)
            break;
    }
    gp_textfile_close(&t);
    fclose(f);
}

static void test_lines(void)
{
    char out[4096], *big;
    size_t i;
    lines_of("a\nbb\n\nccc", 9, 100, 100, out, sizeof out);
    GP_CHECK_STR(out, "L:a|L:bb|L:|L:ccc|");
    lines_of("", 0, 100, 100, out, sizeof out);
    GP_CHECK_STR(out, "");
    /* exactly at the limit is a line; one byte over is skipped, the next read */
    lines_of("1234\n12345\nok\n", 14, 100, 4, out, sizeof out);
    GP_CHECK_STR(out, "L:1234|S|L:ok|");
    /* a long line at the end without a newline is still reported */
    lines_of("ok\n123456789", 12, 100, 4, out, sizeof out);
    GP_CHECK_STR(out, "L:ok|S|");
    /* more than the size limit: an error and nothing after it */
    lines_of("a\nb\nc\nd\n", 8, 5, 100, out, sizeof out);
    GP_CHECK_MSG(strstr(out, "E|") != NULL && !strstr(out, "L:d"), "%s", out);
    /* lines longer than the first read-ahead (64 KiB) come back whole, and a
     * skipped line of several read-aheads costs no more than the limit */
    big = malloc(300001);
    for (i = 0; i < 300000; i++)
        big[i] = i == 150000 ? '\n' : 'x';
    big[300000] = 0;
    {
        FILE *f = fmemopen(big, 300000, "r");
        gp_textfile t;
        char *line, err[200];
        size_t n;
        gp_textfile_stream(&t, f, "mem", 1000000, 200000);
        GP_CHECK(gp_textfile_line(&t, &line, &n, err, sizeof err) == 1 && n == 150000);
        GP_CHECK(gp_textfile_line(&t, &line, &n, err, sizeof err) == 1 && n == 149999);
        GP_CHECK(gp_textfile_line(&t, &line, &n, err, sizeof err) == 0);
        gp_textfile_close(&t);
        fclose(f);
        f = fmemopen(big, 300000, "r");
        gp_textfile_stream(&t, f, "mem", 1000000, 1000);
        GP_CHECK(gp_textfile_line(&t, &line, &n, err, sizeof err) == -2);
        GP_CHECK_MSG(t.cap <= 65536 && t.lineno == 1, "buffer %zu", t.cap);
        GP_CHECK(strstr(err, "line longer than 1000 bytes") != NULL);
        GP_CHECK(gp_textfile_line(&t, &line, &n, err, sizeof err) == -2 && t.lineno == 2);
        GP_CHECK(gp_textfile_line(&t, &line, &n, err, sizeof err) == 0);
        gp_textfile_close(&t);
        fclose(f);
    }
    free(big);
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL test_textfile: reading a FIFO without a writer blocked\n";
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(1);
    _exit(1);
}

static void test_files(void)
{
    char err[300], *text;
    size_t len;
    gp_textfile t;
    put("small", "{}\n", 3);
    put("ten", "0123456789", 10);
    text = gp_textfile_read_max(path_of("ten"), "peaks file ", 10, &len, err, sizeof err);
    GP_CHECK(text && len == 10);
    free(text);
    /* over the limit: refused, naming the limit and what the file is */
    text = gp_textfile_read_max(path_of("ten"), "peaks file ", 9, &len, err, sizeof err);
    GP_CHECK(!text && strstr(err, "cannot read peaks file ") && strstr(err, "larger than 9 bytes"));
    GP_CHECK(gp_textfile_open(&t, path_of("ten"), NULL, 9, 100, err, sizeof err) < 0 &&
             strstr(err, "larger than 9 bytes"));
    /* devices and directories */
    text = gp_textfile_read_max("/dev/zero", NULL, 1 << 20, &len, err, sizeof err);
    GP_CHECK_MSG(!text && strstr(err, "cannot read /dev/zero: it is a character device"), "%s",
                 err);
    GP_CHECK(gp_textfile_open(&t, "/dev/zero", NULL, 100, 100, err, sizeof err) < 0);
    GP_CHECK(gp_textfile_open(&t, tmpdir, NULL, 100, 100, err, sizeof err) < 0 &&
             strstr(err, "it is a directory"));
    GP_CHECK(gp_textfile_open(&t, path_of("none"), NULL, 100, 100, err, sizeof err) < 0 &&
             strstr(err, "cannot open "));
    /* a FIFO that nobody writes: empty, at once */
    GP_CHECK(mkfifo(path_of("fifo"), 0600) == 0);
    signal(SIGALRM, on_alarm);
    alarm(10);
    text = gp_textfile_read_max(path_of("fifo"), NULL, 100, &len, err, sizeof err);
    GP_CHECK(text && len == 0);
    free(text);
    if (gp_textfile_open(&t, path_of("fifo"), NULL, 100, 100, err, sizeof err) == 0) {
        char *line;
        GP_CHECK(gp_textfile_line(&t, &line, &len, err, sizeof err) == 0);
        gp_textfile_close(&t);
    } else {
        GP_CHECK_MSG(0, "%s", err);
    }
    alarm(0);
    /* the unlimited reader of older callers: as before */
    text = gp_textfile_read(path_of("small"), &len, err, sizeof err);
    GP_CHECK(text && len == 3 && strcmp(text, "{}\n") == 0);
    free(text);
    GP_CHECK(!gp_textfile_read(tmpdir, &len, err, sizeof err) &&
             strcmp(err, "it is a directory") == 0);
    unlink(path_of("fifo"));
    unlink(path_of("ten"));
    unlink(path_of("small"));
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_lines();
    test_files();
    rmdir(tmpdir);
    return gp_test_finish("textfile");
}
