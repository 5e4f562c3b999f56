/* sqlite_db.c - see sqlite_db.h.  The only file that knows SQLite's C API:
 * the prototypes it needs are declared here, from SQLite's stable ABI
 * (https://sqlite.org/c3ref/), and looked up in libsqlite3.so.0 at run time. */
#define _GNU_SOURCE
#include "sqlite_db.h"

#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;

/* SQLite's result codes and flags (fixed by its ABI). */
#define GP_SQLITE_OK 0
#define GP_SQLITE_ROW 100
#define GP_SQLITE_DONE 101
#define GP_SQLITE_OPEN_READONLY 0x01
#define GP_SQLITE_OPEN_READWRITE 0x02
#define GP_SQLITE_OPEN_NOMUTEX 0x00008000
#define GP_SQLITE_OPEN_NOFOLLOW 0x01000000
#define GP_SQLITE_TRANSIENT ((void (*)(void *)) - 1)
/* WITHOUT ROWID tables came with 3.8.2 */
#define GP_SQLITE_MIN_VERSION 3008002

/* The functions used, with their prototypes: one table, looked up by name. */
#define GP_SQLITE_FUNCS(X)                                                                         \
    X(int, sqlite3_libversion_number, (void))                                                      \
    X(int, sqlite3_open_v2, (const char *, sqlite3 **, int, const char *))                         \
    X(int, sqlite3_close, (sqlite3 *))                                                             \
    X(int, sqlite3_exec, (sqlite3 *, const char *, void *, void *, char **))                       \
    X(void, sqlite3_free, (void *))                                                                \
    X(int, sqlite3_prepare_v2, (sqlite3 *, const char *, int, sqlite3_stmt **, const char **))     \
    X(int, sqlite3_finalize, (sqlite3_stmt *))                                                     \
    X(int, sqlite3_bind_int64, (sqlite3_stmt *, int, long long))                                   \
    X(int, sqlite3_bind_double, (sqlite3_stmt *, int, double))                                     \
    X(int, sqlite3_bind_text, (sqlite3_stmt *, int, const char *, int, void (*)(void *)))          \
    X(int, sqlite3_bind_null, (sqlite3_stmt *, int))                                               \
    X(int, sqlite3_bind_blob, (sqlite3_stmt *, int, const void *, int, void (*)(void *)))          \
    X(int, sqlite3_step, (sqlite3_stmt *))                                                         \
    X(int, sqlite3_reset, (sqlite3_stmt *))                                                        \
    X(int, sqlite3_column_type, (sqlite3_stmt *, int))                                             \
    X(long long, sqlite3_column_int64, (sqlite3_stmt *, int))                                      \
    X(double, sqlite3_column_double, (sqlite3_stmt *, int))                                        \
    X(const unsigned char *, sqlite3_column_text, (sqlite3_stmt *, int))                           \
    X(long long, sqlite3_last_insert_rowid, (sqlite3 *))                                           \
    X(const char *, sqlite3_errmsg, (sqlite3 *))                                                   \
    X(const char *, sqlite3_errstr, (int))

static struct {
#define GP_SQLITE_MEMBER(ret, name, args) ret(*name) args;
    GP_SQLITE_FUNCS(GP_SQLITE_MEMBER)
#undef GP_SQLITE_MEMBER
    void *handle;
    char why[512]; /* why loading failed, once it has */
} S;

/* Where each function goes. */
static const struct {
    const char *name;
    void **slot;
} gp_sqlite_syms[] = {
#define GP_SQLITE_SLOT(ret, name, args) {#name, (void **)&S.name},
    GP_SQLITE_FUNCS(GP_SQLITE_SLOT)
#undef GP_SQLITE_SLOT
};

struct gp_db {
    sqlite3 *h;
    char *name; /* for messages */
    int readonly;
    char err[1024]; /* the first failure */
};

struct gp_db_stmt {
    sqlite3_stmt *s;
    gp_db *db;
};

int gp_db_load(char *err, size_t errlen)
{
    const char *lib = getenv("GPUPROF_SQLITE");
    size_t i;
    if (!lib || !*lib)
        lib = "libsqlite3.so.0";
    if (S.handle)
        return 0;
    if (S.why[0]) {
        snprintf(err, errlen, "%s", S.why);
        return -1;
    }
    if (!(S.handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL))) {
        snprintf(S.why, sizeof S.why,
                 "SQLite is not installed: cannot load %s (%s); a database needs it, the other "
                 "formats do not (Debian/Ubuntu: apt-get install libsqlite3-0)",
                 lib, dlerror());
        goto fail;
    }
    for (i = 0; i < sizeof gp_sqlite_syms / sizeof gp_sqlite_syms[0]; i++)
        if (!(*gp_sqlite_syms[i].slot = dlsym(S.handle, gp_sqlite_syms[i].name))) {
            snprintf(S.why, sizeof S.why, "%s is not SQLite 3: it has no %s", lib,
                     gp_sqlite_syms[i].name);
            goto fail;
        }
    if (S.sqlite3_libversion_number() < GP_SQLITE_MIN_VERSION) {
        snprintf(S.why, sizeof S.why, "%s is SQLite %d, older than 3.8.2 (needed)", lib,
                 S.sqlite3_libversion_number());
        goto fail;
    }
    return 0;
fail:
    if (S.handle)
        dlclose(S.handle);
    S.handle = NULL;
    snprintf(err, errlen, "%s", S.why);
    return -1;
}

/* The checked call: rc is what a call of SQLite returned; one that is not
 * OK, ROW or DONE records the first failure as "NAME: SQLite's message (the
 * call)" and gives -1.  Every call below goes through it. */
static int gp_db_check(gp_db *db, int rc, const char *call)
{
    const char *msg;
    if (rc == GP_SQLITE_OK || rc == GP_SQLITE_ROW || rc == GP_SQLITE_DONE)
        return rc;
    if (db->err[0])
        return -1;
    msg = db->h ? S.sqlite3_errmsg(db->h) : S.sqlite3_errstr(rc);
    if (strncmp(call, "S.", 2) == 0) /* the function table's prefix: SQLite's own name */
        call += 2;
    snprintf(db->err, sizeof db->err, "%s: %s (%.*s, status %d)", db->name,
             msg && *msg ? msg : S.sqlite3_errstr(rc), (int)strcspn(call, "("), call, rc);
    return -1;
}
#define GP_SQL(db, call) gp_db_check((db), (call), #call)

const char *gp_db_error(const gp_db *db)
{
    return db->err;
}

gp_db *gp_db_open(const char *path, const char *name, int readonly, char *err, size_t errlen)
{
    gp_db *db;
    /* no mutex: one thread at a time uses a connection (the writer thread
     * and the reader hand it over under their own lock) */
    int flags = (readonly ? GP_SQLITE_OPEN_READONLY : GP_SQLITE_OPEN_READWRITE) |
                GP_SQLITE_OPEN_NOFOLLOW | GP_SQLITE_OPEN_NOMUTEX;
    if (gp_db_load(err, errlen) < 0)
        return NULL;
    if (!(db = calloc(1, sizeof *db)) || !(db->name = strdup(name ? name : path))) {
        free(db);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    db->readonly = readonly;
    if (GP_SQL(db, S.sqlite3_open_v2(path, &db->h, flags, NULL)) < 0) {
        snprintf(err, errlen, "%s", db->err);
        gp_db_close(db, NULL, 0);
        return NULL;
    }
    return db;
}

int gp_db_close(gp_db *db, char *err, size_t errlen)
{
    int rc = 0;
    if (!db)
        return 0;
    if (db->h && GP_SQL(db, S.sqlite3_close(db->h)) < 0) {
        rc = -1;
        if (err)
            snprintf(err, errlen, "%s", db->err);
    }
    free(db->name);
    free(db);
    return rc;
}

int gp_db_exec(gp_db *db, const char *sql)
{
    char *msg = NULL;
    int rc = S.sqlite3_exec(db->h, sql, NULL, NULL, &msg);
    S.sqlite3_free(msg); /* errmsg says the same */
    return GP_SQL(db, rc) < 0 ? -1 : 0;
}

gp_db_stmt *gp_db_prepare(gp_db *db, const char *sql)
{
    gp_db_stmt *st = calloc(1, sizeof *st);
    if (!st) {
        if (!db->err[0])
            snprintf(db->err, sizeof db->err, "%s: out of memory", db->name);
        return NULL;
    }
    st->db = db;
    if (GP_SQL(db, S.sqlite3_prepare_v2(db->h, sql, -1, &st->s, NULL)) < 0) {
        free(st);
        return NULL;
    }
    return st;
}

void gp_db_finalize(gp_db_stmt *st)
{
    if (!st)
        return;
    S.sqlite3_finalize(st->s); /* repeats the last step's status, already checked */
    free(st);
}

int gp_db_bind_int(gp_db_stmt *st, int i, int64_t v)
{
    return GP_SQL(st->db, S.sqlite3_bind_int64(st->s, i, (long long)v)) < 0 ? -1 : 0;
}

int gp_db_bind_double(gp_db_stmt *st, int i, double v)
{
    if (isnan(v))
        return gp_db_bind_null(st, i);
    return GP_SQL(st->db, S.sqlite3_bind_double(st->s, i, v)) < 0 ? -1 : 0;
}

/* 1 when s[0..n) is UTF-8 as RFC 3629 has it (no overlong form, no
 * surrogate, nothing above U+10FFFF): what SQLite's TEXT must hold for its
 * readers (Python decodes it strictly). */
static int gp_db_utf8(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i], len, cp, k;
        if (c < 0x80) {
            i++;
            continue;
        }
        len = c >= 0xC2 && c <= 0xDF   ? 2
              : c >= 0xE0 && c <= 0xEF ? 3
              : c >= 0xF0 && c <= 0xF4 ? 4
                                       : 0;
        if (!len || i + len > n)
            return 0;
        cp = c & (0x7F >> len);
        for (k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
            return 0;
        i += len;
    }
    return 1;
}

int gp_db_bind_text(gp_db_stmt *st, int i, const char *s)
{
    size_t n;
    if (!s)
        return gp_db_bind_null(st, i);
    n = strlen(s);
    if (n > 0x7fffffff) {
        if (!st->db->err[0])
            snprintf(st->db->err, sizeof st->db->err, "%s: a text of %zu bytes", st->db->name, n);
        return -1;
    }
    /* bytes that are not UTF-8 (a kernel name as a program had it) are
     * kept as they are, as a BLOB */
    if (!gp_db_utf8((const unsigned char *)s, n))
        return GP_SQL(st->db, S.sqlite3_bind_blob(st->s, i, s, (int)n, GP_SQLITE_TRANSIENT)) < 0
                   ? -1
                   : 0;
    return GP_SQL(st->db, S.sqlite3_bind_text(st->s, i, s, (int)n, GP_SQLITE_TRANSIENT)) < 0 ? -1
                                                                                             : 0;
}

int gp_db_bind_null(gp_db_stmt *st, int i)
{
    return GP_SQL(st->db, S.sqlite3_bind_null(st->s, i)) < 0 ? -1 : 0;
}

int gp_db_step(gp_db_stmt *st)
{
    int rc = GP_SQL(st->db, S.sqlite3_step(st->s));
    if (rc == GP_SQLITE_ROW)
        return 1;
    S.sqlite3_reset(st->s); /* ready for the next use; its status repeats the step's */
    return rc < 0 ? -1 : 0;
}

void gp_db_reset(gp_db_stmt *st)
{
    S.sqlite3_reset(st->s);
}

int gp_db_column_type(gp_db_stmt *st, int i)
{
    return S.sqlite3_column_type(st->s, i);
}

int64_t gp_db_column_int(gp_db_stmt *st, int i)
{
    return (int64_t)S.sqlite3_column_int64(st->s, i);
}

double gp_db_column_double(gp_db_stmt *st, int i)
{
    return S.sqlite3_column_type(st->s, i) == GP_DB_NULL ? NAN : S.sqlite3_column_double(st->s, i);
}

const char *gp_db_column_text(gp_db_stmt *st, int i)
{
    return (const char *)S.sqlite3_column_text(st->s, i);
}

int64_t gp_db_last_id(gp_db *db)
{
    return (int64_t)S.sqlite3_last_insert_rowid(db->h);
}
