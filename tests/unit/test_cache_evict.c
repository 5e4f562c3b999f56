/* test_cache_evict.c - the PTX of the GPC cache eviction kernel: its bounds,
 * its shape (one multiply-add per requested instruction, each with its own
 * constant; a load per 64-byte line of the constant array), and, where
 * ptxas exists, that sm_90 machine code of at least 16 bytes per requested
 * instruction comes out of it (nothing folded or deleted). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp_test.h"
#include "preload/cubin.h"
#include "replay/cache_evict.h"

#ifndef GP_CUDA_HOME
#define GP_CUDA_HOME "/usr/local/cuda"
#endif

static char *gen(unsigned n, size_t *len)
{
    size_t cap = gp_cache_evict_ptx_size(n);
    char *b = cap ? malloc(cap) : NULL;
    *len = b ? gp_cache_evict_ptx(b, cap, n) : 0;
    return b;
}

static int cmp_u32(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

static void test_bounds(void)
{
    char b[64] = "x";
    GP_CHECK(gp_cache_evict_ptx_size(0) == 0);
    GP_CHECK(gp_cache_evict_ptx_size(GP_EVICT_MIN_INSNS - 1) == 0);
    GP_CHECK(gp_cache_evict_ptx_size(GP_EVICT_MAX_INSNS + 1u) == 0);
    GP_CHECK(gp_cache_evict_ptx(b, sizeof(b), 0) == 0 && b[0] == '\0');
    GP_CHECK(gp_cache_evict_ptx(NULL, 100, 64) == 0);
    /* too small a buffer: nothing, and an empty string, never a cut text */
    size_t len;
    char *t = gen(64, &len);
    GP_CHECK(t && len > 0 && len == strlen(t) && len < gp_cache_evict_ptx_size(64));
    char *small = malloc(len + 1);
    memset(small, 'x', len + 1);
    GP_CHECK(gp_cache_evict_ptx(small, len, 64) == 0 && small[0] == '\0');
    GP_CHECK(gp_cache_evict_ptx(small, len + 1, 64) == len && strcmp(small, t) == 0);
    free(small);
    free(t);
    /* the size bound holds across the range */
    unsigned ns[] = {GP_EVICT_MIN_INSNS, 9, 1000, GP_EVICT_DEFAULT_INSNS, 1u << 17};
    for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
        t = gen(ns[i], &len);
        GP_CHECK_MSG(t && len > 0 && len + 1 <= gp_cache_evict_ptx_size(ns[i]), "n %u", ns[i]);
        free(t);
    }
}

/* Counts the body's multiply-adds (each on one chain, with its constant),
 * the constant loads and their offsets; checks every line's form. */
static void test_shape(unsigned n)
{
    size_t len;
    char *t = gen(n, &len);
    GP_CHECK(t != NULL);
    if (!t)
        return;
    GP_CHECK(strncmp(t, ".version 8.0\n.target sm_90\n.address_size 64\n", 44) == 0);
    GP_CHECK(strstr(t, ".const .align 16 .b8 gp_evict_const[65536];\n") != NULL);
    GP_CHECK(strstr(t, ".visible .entry " GP_EVICT_ENTRY "(.param .u64 p_sink)\n{\n") != NULL);
    GP_CHECK(len >= 2 && strcmp(t + len - 2, "}\n") == 0);
    unsigned *k = malloc(sizeof(unsigned) * n);
    unsigned mads = 0, loads = 0, open = 0, close = 0, bad = 0, off_chain = 0;
    unsigned char seen[GP_EVICT_CONST_BYTES / 2048] = {0};
    for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
        unsigned a, b, c, v, off;
        char tail;
        size_t l = strlen(line);
        if (strcmp(line, "{") == 0)
            open++;
        else if (strcmp(line, "}") == 0)
            close++;
        else if (line[0] == ' ' && line[l - 1] != ';')
            bad++; /* every instruction ends with ';' */
        if (sscanf(line, "  mad.lo.u32 %%c%u, %%c%u, %%c%u, %u%c", &a, &b, &c, &v, &tail) == 5 &&
            tail == ';') {
            off_chain += !(a == b && b == c && a == mads % GP_EVICT_CHAINS);
            if (mads < n)
                k[mads] = v;
            mads++;
        }
        if (sscanf(line, "  ld.const.u32 %%k%u, [%%rd4+%u]%c", &a, &off, &tail) == 3 &&
            tail == ';') {
            GP_CHECK(a < 32 && off % 2048 == 0 && off / 2048 < sizeof(seen));
            if (off / 2048 < sizeof(seen))
                seen[off / 2048]++;
            loads++;
        }
    }
    GP_CHECK_MSG(mads == n, "%u multiply-adds for %u", mads, n);
    GP_CHECK(open == 1 && close == 1 && bad == 0 && off_chain == 0);
    GP_CHECK(loads == sizeof(seen));
    for (size_t i = 0; i < sizeof(seen); i++)
        GP_CHECK_MSG(seen[i] == 1, "2 KB block %zu read %u times", i, seen[i]);
    if (mads == n) { /* no two alike */
        qsort(k, n, sizeof(unsigned), cmp_u32);
        unsigned dup = 0;
        for (unsigned i = 1; i < n; i++)
            dup += k[i] == k[i - 1];
        GP_CHECK_MSG(dup == 0, "%u repeated constants", dup);
    }
    free(k);
    free(t);
}

typedef struct text_size {
    size_t bytes;
    int found;
} text_size;

static void on_function(const char *name, const uint8_t *code, size_t size, void *arg)
{
    text_size *ts = arg;
    if (strcmp(name, GP_EVICT_ENTRY) == 0) {
        ts->bytes = size;
        ts->found++;
    }
}

/* Machine code bytes of the kernel ptxas makes of the text for n; 0 when
 * ptxas failed. */
static size_t sass_bytes(const char *ptxas, const char *dir, unsigned n)
{
    char ptx[512], cubin[512], cmd[2048];
    snprintf(ptx, sizeof(ptx), "%s/evict.ptx", dir);
    snprintf(cubin, sizeof(cubin), "%s/evict.cubin", dir);
    size_t len;
    char *t = gen(n, &len);
    FILE *f = fopen(ptx, "w");
    int wrote = t && f && fwrite(t, 1, len, f) == len;
    if (f)
        fclose(f);
    free(t);
    if (!wrote)
        return 0;
    snprintf(cmd, sizeof(cmd), "'%s' -arch=sm_90 -o '%s' '%s'", ptxas, cubin, ptx);
    if (system(cmd) != 0)
        return 0;
    text_size ts = {0, 0};
    f = fopen(cubin, "rb");
    uint8_t *img = NULL;
    long sz = 0;
    if (f && fseek(f, 0, SEEK_END) == 0 && (sz = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (img = malloc((size_t)sz)) && fread(img, 1, (size_t)sz, f) == (size_t)sz) {
        gp_cubin_each_function(img, (size_t)sz, on_function, &ts);
        GP_CHECK(gp_cubin_sm(img, (size_t)sz) == 90);
        GP_CHECK(gp_cubin_has_section(img, (size_t)sz, ".nv.constant3"));
    }
    if (f)
        fclose(f);
    free(img);
    unlink(ptx);
    unlink(cubin);
    return ts.found == 1 ? ts.bytes : 0;
}

static void test_ptxas(void)
{
    const char *home = getenv("CUDA_HOME") ? getenv("CUDA_HOME") : GP_CUDA_HOME;
    char ptxas[1024];
    snprintf(ptxas, sizeof(ptxas), "%s/bin/ptxas", home);
    if (access(ptxas, X_OK) != 0) {
        gp_test_skip("ptxas on the eviction kernel", "no ptxas in $CUDA_HOME/bin");
        return;
    }
    char dir[] = "/tmp/gp_evict_XXXXXX";
    if (!mkdtemp(dir)) {
        gp_test_skip("ptxas on the eviction kernel", "cannot make a temporary directory");
        return;
    }
    /* each requested instruction is one 16-byte instruction or more: ptxas
     * neither folded nor deleted any; the code is larger than the caches */
    size_t big = sass_bytes(ptxas, dir, GP_EVICT_DEFAULT_INSNS);
    GP_CHECK_MSG(big >= 16u * GP_EVICT_DEFAULT_INSNS, "%zu bytes of code", big);
    GP_CHECK(big >= 256u * 1024);
    /* and it grows with the body (a quarter of it: about a quarter the code) */
    size_t quarter = sass_bytes(ptxas, dir, GP_EVICT_DEFAULT_INSNS / 4);
    GP_CHECK_MSG(quarter >= 16u * (GP_EVICT_DEFAULT_INSNS / 4) && quarter < big / 3,
                 "%zu bytes of code for a quarter, %zu for all", quarter, big);
    rmdir(dir);
}

int main(void)
{
    test_bounds();
    test_shape(GP_EVICT_MIN_INSNS);
    test_shape(1001);
    test_shape(GP_EVICT_DEFAULT_INSNS);
    test_ptxas();
    return gp_test_finish("cache_evict");
}
