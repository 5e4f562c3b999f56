/* test_util.c - the helpers every reader and writer relies on: the clamped
 * number-to-integer conversion and saturating arithmetic, output files that
 * cannot be redirected (planted links, modes, temporary names), text escapes
 * for terminals and spreadsheets, the regular expression checks, the name
 * index and the keyed hash every table of outside names uses. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/gp_test.h"
#include "util/num.h"
#include "util/regex_safe.h"
#include "util/safefile.h"
#include "util/gp_uthash.h"
#include "util/strhash.h"
#include "util/strindex.h"
#include "util/strutil.h"
#include "util/textio.h"

static void test_num(void)
{
    long x;
    GP_CHECK(gp_num_clamp(NAN, 0, 10, 7) == 7);
    GP_CHECK(gp_num_clamp(1e300, 0, 10, 7) == 10 && gp_num_clamp(-1e300, 0, 10, 7) == 0);
    GP_CHECK(gp_num_clamp(INFINITY, LONG_MIN, LONG_MAX, 0) == LONG_MAX);
    GP_CHECK(gp_num_clamp(-INFINITY, LONG_MIN, LONG_MAX, 0) == LONG_MIN);
    GP_CHECK(gp_num_clamp(9.3e18, LONG_MIN, LONG_MAX, 0) == LONG_MAX); /* above 2^63 */
    GP_CHECK(gp_num_clamp(3.9, 0, 10, 0) == 3 && gp_num_clamp(-3.9, -10, 10, 0) == -3);
    GP_CHECK(gp_num_in_range(32, 1, 1024, &x) == 0 && x == 32);
    GP_CHECK(gp_num_in_range(2147483647.0, 1, 1024, &x) < 0 && x == 1024);
    GP_CHECK(gp_num_in_range(NAN, 1, 1024, &x) < 0 && x == 1);
    GP_CHECK(gp_num_in_range(-1024, 0, 10, &x) < 0 && x == 0);
    GP_CHECK(gp_num_mul_sat(LONG_MAX / 2, 3) == LONG_MAX &&
             gp_num_mul_sat(-LONG_MAX, 2) == LONG_MIN);
    GP_CHECK(gp_num_mul_sat(1L << 31, 1L << 31) == 1L << 62);
    GP_CHECK(gp_num_add_sat(LONG_MAX, 1) == LONG_MAX && gp_num_add_sat(LONG_MIN, -1) == LONG_MIN);
}

static int file_is(const char *path, const char *text)
{
    char buf[256] = "";
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    return f && strcmp(buf, text) == 0;
}

static void test_safefile(void)
{
    char dir[] = "/tmp/gp-test-util.XXXXXX", path[512], victim[512], link[512], err[512];
    gp_safefile sf;
    struct stat st;
    FILE *f;
    if (!mkdtemp(dir)) {
        gp_test_skip("safefile", "no temporary directory");
        return;
    }
    snprintf(path, sizeof path, "%s/out.txt", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    snprintf(link, sizeof link, "%s/planted", dir);
    /* written under a temporary name, renamed at commit, mode 0644 whatever the umask */
    mode_t old = umask(0);
    GP_CHECK(gp_safefile_open(&sf, path, err, sizeof err) == 0);
    umask(old);
    if (sf.f) {
        fputs("new\n", sf.f);
        GP_CHECK(access(path, F_OK) != 0 && sf.tmp && access(sf.tmp, F_OK) == 0);
        GP_CHECK(gp_safefile_commit(&sf, err, sizeof err) == 0);
    }
    GP_CHECK(file_is(path, "new\n") && stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
    /* an existing file is replaced whole; a discarded one leaves no trace */
    GP_CHECK(gp_safefile_open(&sf, path, err, sizeof err) == 0);
    if (sf.f) {
        fputs("half", sf.f);
        gp_safefile_discard(&sf);
    }
    GP_CHECK(file_is(path, "new\n"));
    /* published: under its final name at once, still open for the records to come */
    GP_CHECK(gp_safefile_open(&sf, path, err, sizeof err) == 0);
    if (sf.f) {
        GP_CHECK(gp_safefile_publish(&sf, err, sizeof err) == 0 && sf.tmp == NULL);
        fputs("rec1\n", sf.f);
        fflush(sf.f);
        GP_CHECK(file_is(path, "rec1\n"));
        fputs("rec2\n", sf.f);
        GP_CHECK(gp_safefile_commit(&sf, err, sizeof err) == 0);
    }
    GP_CHECK(file_is(path, "rec1\nrec2\n"));
    /* a link another user planted is refused, the file it points at untouched */
    f = fopen(victim, "w");
    if (f) {
        fputs("victim\n", f);
        fclose(f);
    }
    if (symlink(victim, link) == 0 && geteuid() == 0 && lchown(link, 12345, 12345) == 0) {
        GP_CHECK(gp_safefile_open(&sf, link, err, sizeof err) < 0 &&
                 strstr(err, "owned by another user"));
        GP_CHECK(file_is(victim, "victim\n"));
    } else {
        gp_test_skip("planted link of another user", "needs root to plant it");
    }
    /* the user's own link is followed: the file it names is replaced */
    unlink(link);
    if (symlink(victim, link) == 0 && gp_safefile_open(&sf, link, err, sizeof err) == 0) {
        fputs("through\n", sf.f);
        GP_CHECK(gp_safefile_commit(&sf, err, sizeof err) == 0);
        GP_CHECK(file_is(victim, "through\n") && lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    }
    /* in a folder others write to (gp_safefile_create): the user's own link,
     * root's link and a FIFO are replaced, never written through or opened */
    GP_CHECK(file_is(victim, "through\n"));
    for (int kind = 0; kind < 3; kind++) {
        unlink(link);
        if (kind < 2 ? symlink(victim, link) != 0 : mkfifo(link, 0600) != 0)
            continue;
        if (kind == 1 && (geteuid() != 0 || lchown(link, 0, 0) != 0))
            continue;
        GP_CHECK(gp_safefile_create(&sf, link, err, sizeof err) == 0);
        if (!sf.f)
            continue;
        fputs("replaced\n", sf.f);
        GP_CHECK(gp_safefile_commit(&sf, err, sizeof err) == 0);
        GP_CHECK_MSG(file_is(victim, "through\n") && lstat(link, &st) == 0 &&
                         S_ISREG(st.st_mode) && file_is(link, "replaced\n"),
                     "gp_safefile_create wrote through a %s", kind == 2 ? "FIFO" : "link");
    }
    GP_CHECK(gp_safefile_create(&sf, dir, err, sizeof err) < 0 && strstr(err, "directory"));
    /* a device is written where it is; a directory is refused */
    GP_CHECK(gp_safefile_open(&sf, "/dev/null", err, sizeof err) == 0 && sf.tmp == NULL);
    if (sf.f)
        GP_CHECK(gp_safefile_commit(&sf, err, sizeof err) == 0);
    GP_CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    GP_CHECK(gp_safefile_open(&sf, dir, err, sizeof err) < 0 && strstr(err, "directory"));
    /* the append mode of logs: no link followed, no FIFO */
    unlink(link);
    GP_CHECK(symlink(victim, link) == 0 && gp_safefile_append(link, err, sizeof err) == NULL &&
             strstr(err, "symbolic link"));
    snprintf(path, sizeof path, "%s/fifo", dir);
    GP_CHECK(mkfifo(path, 0600) == 0 && gp_safefile_append(path, err, sizeof err) == NULL);
    snprintf(path, sizeof path, "%s/log", dir);
    f = gp_safefile_append(path, err, sizeof err);
    GP_CHECK(f != NULL);
    if (f)
        fclose(f);
    GP_CHECK(stat(path, &st) == 0 && (st.st_mode & 0022) == 0);
    /* directories: created 0755, a link to one refused */
    snprintf(path, sizeof path, "%s/sub", dir);
    GP_CHECK(gp_safedir(path, err, sizeof err) == 0 && gp_safedir(path, err, sizeof err) == 0);
    snprintf(link, sizeof link, "%s/linkdir", dir);
    GP_CHECK(symlink(path, link) == 0 && gp_safedir(link, err, sizeof err) < 0 &&
             strstr(err, "symbolic link"));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    GP_CHECK(system(cmd) == 0);
}

static void test_text(void)
{
    char buf[128], *out = NULL;
    size_t len = 0;
    FILE *f;
    GP_CHECK_STR(gp_text_plain_buf(buf, sizeof buf, "k<float>(int*)"), "k<float>(int*)");
    GP_CHECK_STR(gp_text_plain_buf(buf, sizeof buf, "a\nb\x1b[2J\tc\x7f"),
                 "a\\x0ab\\x1b[2J\\x09c\\x7f");
    GP_CHECK_STR(gp_text_plain_buf(buf, sizeof buf, "caf\xc3\xa9 \xe2\x80\xae x \xc2\x9b \xff"),
                 "caf\xc3\xa9 \\u{202e} x \\x9b \\xff");
    GP_CHECK_STR(gp_text_plain_buf(buf, 6, "ab\ncd"), "ab"); /* cut before a whole escape */
    GP_CHECK_STR(gp_text_plain_buf(buf, 4, "\xc3\xa9\xc3\xa9"), "\xc3\xa9");
    f = open_memstream(&out, &len);
    gp_text_csv_field(f, "=cmd|' /C calc'!A0");
    fputc('|', f);
    gp_text_csv_field(f, "+1");
    fputc('|', f);
    gp_text_csv_field(f, "plain name");
    fputc('|', f);
    gp_text_csv_field(f, "a,\"b\"");
    fclose(f);
    GP_CHECK_STR(out, "\"'=cmd|' /C calc'!A0\"|\"'+1\"|plain name|\"a,\"\"b\"\"\"");
    free(out);
    /* no raw control character, override or stray byte in a CSV cell either;
     * tabs stay; a SASS predicate is not a formula, anything else is */
    out = NULL;
    f = open_memstream(&out, &len);
    gp_text_csv_field(f, "k\x1b[2J\xe2\x80\xaex\ty\xff");
    fputc('|', f);
    gp_text_csv_quoted(f, "a\nb\r\"\xc2\x9b");
    fputc('|', f);
    gp_text_csv_quoted_sass(f, "@P0 BRA 0x40");
    fputc('|', f);
    gp_text_csv_quoted_sass(f, "@!UPT LDG");
    fputc('|', f);
    gp_text_csv_quoted_sass(f, "@SUM(A1)");
    fputc('|', f);
    gp_text_csv_quoted_sass(f, "=HYPERLINK(1)");
    fclose(f);
    GP_CHECK_STR(out, "k\\x1b[2J\\u{202e}x\ty\\xff|\"a\\x0ab\\x0d\"\"\\x9b\"|\"@P0 BRA 0x40\"|"
                      "\"@!UPT LDG\"|\"'@SUM(A1)\"|\"'=HYPERLINK(1)\"");
    free(out);
    out = NULL;
    f = open_memstream(&out, &len);
    gp_text_html(f, "<b a=\"1\">x&y</b> caf\xc3\xa9 'q'");
    gp_text_html(f, NULL); /* nothing */
    fclose(f);
    GP_CHECK_STR(out, "&lt;b a=&quot;1&quot;&gt;x&amp;y&lt;/b&gt; caf\xc3\xa9 'q'");
    free(out);
    /* no raw control character, override or stray byte in HTML: shown as in
     * a text report; a source line's tabs and line ends stay */
    out = NULL;
    f = open_memstream(&out, &len);
    gp_text_html(f, "\x1b[31mE<\xe2\x80\xaeV\xff\tL\r\n");
    fclose(f);
    GP_CHECK_STR(out, "\\x1b[31mE&lt;\\u{202e}V\\xff\tL\\x0d\n");
    free(out);
    /* JSON strings stay JSON whatever the bytes: not UTF-8 becomes \ufffd
     * (a stray continuation byte, a cut sequence, an overlong form, a
     * surrogate), controls and the JavaScript line separators \uNNNN */
    out = NULL;
    f = open_memstream(&out, &len);
    gp_text_json_string(
        f, "ok caf\xc3\xa9 \xff\xfe|\xe2\x82|\xc0\xaf|\xed\xa0\x80|\x1b\"\\\xe2\x80\xa8");
    fputc('|', f);
    gp_text_json_string(f, NULL);
    fclose(f);
    GP_CHECK_STR(out, "\"ok caf\xc3\xa9 \\ufffd\\ufffd|\\ufffd\\ufffd|\\ufffd\\ufffd|"
                      "\\ufffd\\ufffd\\ufffd|\\u001b\\\"\\\\\\u2028\"|null");
    free(out);
    /* bidirectional overrides and isolates, C1 controls: escaped too */
    out = NULL;
    f = open_memstream(&out, &len);
    gp_text_json_string(f, "a\xe2\x80\xae" "b\xe2\x81\xa6" "c\xc2\x9b" "d\xc3\xa9");
    fclose(f);
    GP_CHECK_STR(out, "\"a\\u202eb\\u2066c\\u009bd\xc3\xa9\"");
    free(out);
    /* always quoted (Nsight Compute's layouts), with the formula guard */
    out = NULL;
    f = open_memstream(&out, &len);
    gp_text_csv_quoted(f, "=HYPERLINK(\"x\")");
    gp_text_csv_quoted(f, "-1");
    gp_text_csv_quoted(f, "plain");
    gp_text_csv_quoted(f, NULL);
    fclose(f);
    GP_CHECK_STR(out, "\"'=HYPERLINK(\"\"x\"\")\"\"'-1\"\"plain\"\"\"");
    free(out);
}

static void test_regex(void)
{
    static const char *const refused[] = {"a+++++++++++++++++++++",
                                          "((a{50}){50}){50}",
                                          "((){50}*){50}",
                                          "((()|()){15}*){15}",
                                          "(a*)*",
                                          "(x?){9}",
                                          "(a)\\1",
                                          "a{2001}"};
    static const char *const accepted[] = {"^gemm",
                                           "small$",
                                           "^(gemm|conv)_[a-z0-9_]+(<.*>)?$",
                                           "[0-9.]+ ms$",
                                           "(_[a-z]+)+",
                                           "^$",
                                           "a{1000}",
                                           "[[:alpha:]]{1,100}x",
                                           "\\bword\\b"};
    char why[400];
    regex_t re;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        int rc = gp_regex_compile(&re, refused[i], REG_EXTENDED | REG_NOSUB, why, sizeof why);
        GP_CHECK_MSG(rc < 0 && strncmp(why, "not accepted", 12) == 0, "%s: %s", refused[i],
                     rc ? why : "accepted");
        if (rc == 0)
            regfree(&re);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    GP_CHECK((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9 < 1.0);
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        int rc = gp_regex_compile(&re, accepted[i], REG_EXTENDED | REG_NOSUB, why, sizeof why);
        GP_CHECK_MSG(rc == 0, "%s: %s", accepted[i], why);
        if (rc == 0)
            regfree(&re);
    }
    GP_CHECK(gp_regex_compile(&re, "([", REG_EXTENDED, why, sizeof why) < 0 &&
             strstr(why, "not a POSIX extended regular expression"));
    char longpat[GP_REGEX_MAX_LEN + 2];
    memset(longpat, 'a', sizeof longpat - 1);
    longpat[sizeof longpat - 1] = 0;
    GP_CHECK(gp_regex_compile(&re, longpat, REG_EXTENDED, why, sizeof why) < 0 &&
             strstr(why, "longer than"));
}

static void test_strindex(void)
{
    gp_strindex *ix = NULL;
    char key[32];
    int ok = 1;
    for (size_t i = 0; i < 100000; i++) {
        snprintf(key, sizeof key, "kernel_%zu", i);
        ok &= gp_strindex_add(&ix, key, strlen(key), i) == 0;
    }
    GP_CHECK(ok);
    GP_CHECK(gp_strindex_find(ix, "kernel_77777", 12) == 77777);
    GP_CHECK(gp_strindex_find(ix, "kernel_100000", 13) == -1);
    GP_CHECK(gp_strindex_add(&ix, "kernel_5", 8, 9) == 0 &&
             gp_strindex_find(ix, "kernel_5", 8) == 5);
    GP_CHECK(gp_strindex_add(&ix, "", 0, 42) == 0 && gp_strindex_find(ix, "", 0) == 42);
    gp_strindex_free(&ix);
    GP_CHECK(ix == NULL && gp_strindex_find(ix, "kernel_5", 8) == -1);
}

/* SipHash-2-4 against the paper's vectors (key 00..0f, message 00..len-1) */
static void test_siphash(void)
{
    const uint64_t key[2] = {0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull};
    unsigned char msg[16];
    for (int i = 0; i < 16; i++)
        msg[i] = (unsigned char)i;
    GP_CHECK(gp_siphash(key, msg, 0, 2, 4) == 0x726fdb47dd0e0e31ull);
    GP_CHECK(gp_siphash(key, msg, 1, 2, 4) == 0x74f839c593dc67fdull);
    GP_CHECK(gp_siphash(key, msg, 15, 2, 4) == 0xa129ca6149be45e5ull);
    GP_CHECK(gp_strhash("kernel", 6) == gp_strhash("kernel", 6) &&
             gp_strhash("kernel", 6) != gp_strhash("kernel", 5));
}

/* Keys of 36 bytes that all have one Jenkins hash (uthash's own HASH_JEN):
 * the third block of each is chosen to bring every key to one state. */
#define JEN_MIX(a, b, c)                                                                           \
    do {                                                                                           \
        a -= b, a -= c, a ^= (c >> 13), b -= c, b -= a, b ^= (a << 8), c -= a, c -= b,             \
            c ^= (b >> 13);                                                                        \
        a -= b, a -= c, a ^= (c >> 12), b -= c, b -= a, b ^= (a << 16), c -= a, c -= b,            \
            c ^= (b >> 5);                                                                         \
        a -= b, a -= c, a ^= (c >> 3), b -= c, b -= a, b ^= (a << 10), c -= a, c -= b,             \
            c ^= (b >> 15);                                                                        \
    } while (0)

static uint32_t le32(const unsigned char *k)
{
    return k[0] | (uint32_t)k[1] << 8 | (uint32_t)k[2] << 16 | (uint32_t)k[3] << 24;
}

static void jen_colliding_key(unsigned char key[36], unsigned long n)
{
    uint32_t a = 0x9e3779b9u, b = 0x9e3779b9u, c = 0xfeedbeefu, x, y, z;
    memset(key, 'k', 24);
    memcpy(key, &n, sizeof n);
    a += le32(key), b += le32(key + 4), c += le32(key + 8);
    JEN_MIX(a, b, c);
    a += le32(key + 12), b += le32(key + 16), c += le32(key + 20);
    JEN_MIX(a, b, c);
    x = 0x41414141u - a, y = 0x42424242u - b, z = 0x43434343u - c;
    memcpy(key + 24, &x, 4), memcpy(key + 28, &y, 4), memcpy(key + 32, &z, 4);
}

typedef struct {
    UT_hash_handle hh;
    unsigned char key[36];
} flood_item;

/* Names chosen to collide under a fixed hash spread over the buckets of
 * every uthash table (gp_uthash.h's HASH_FUNCTION): the longest chain stays
 * short and the table keeps growing.  Under HASH_JEN they all share one
 * bucket, a lookup walks 20,000 keys, and the table stops expanding. */
static void test_hash_flood(void)
{
    enum { N = 20000 };
    flood_item *items = calloc(N, sizeof *items), *head = NULL, *found;
    unsigned longest = 0, same = 1, h0 = 0;
    if (!items) {
        GP_CHECK(!"out of memory");
        return;
    }
    for (unsigned long i = 0; i < N; i++) {
        unsigned h;
        jen_colliding_key(items[i].key, i);
        HASH_JEN(items[i].key, 36, h);
        same &= i == 0 || h == h0;
        h0 = i == 0 ? h : h0;
        HASH_ADD(hh, head, key, 36, &items[i]);
    }
    GP_CHECK_MSG(same, "the test keys do not collide under HASH_JEN");
    for (unsigned b = 0; b < head->hh.tbl->num_buckets; b++)
        if (head->hh.tbl->buckets[b].count > longest)
            longest = head->hh.tbl->buckets[b].count;
    GP_CHECK_MSG(longest < 16 && !head->hh.tbl->noexpand,
                 "longest chain %u of %d keys (noexpand %u)", longest, N, head->hh.tbl->noexpand);
    HASH_FIND(hh, head, items[N / 2].key, 36, found);
    GP_CHECK(found == &items[N / 2]);
    HASH_CLEAR(hh, head);
    free(items);
}

/* gp_strndup copies exactly len bytes (NULs too) and ends them */
static void test_strndup(void)
{
    char *d = gp_strndup("kernel(int)x", 6);
    GP_CHECK(d && strcmp(d, "kernel") == 0);
    free(d);
    d = gp_strndup("a\0b", 3);
    GP_CHECK(d && d[0] == 'a' && d[1] == 0 && d[2] == 'b' && d[3] == 0);
    free(d);
    d = gp_strndup("", 0);
    GP_CHECK(d && d[0] == 0);
    free(d);
}

int main(void)
{
    test_num();
    test_safefile();
    test_text();
    test_siphash();
    test_hash_flood();
    test_regex();
    test_strindex();
    test_strndup();
    return gp_test_finish("util");
}
