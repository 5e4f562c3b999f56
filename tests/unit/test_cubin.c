/* test_cubin.c - finds the __device__ variables of a real cubin (built by
 * nvcc from tests/unit/globals.cu) and survives malformed images. */
#include "preload/cubin.h"
#include "tests/unit/gp_test.h"

#include <stdint.h>
#include <stdlib.h>

int main(void)
{
    FILE *f = fopen("build/tests/globals.cubin", "rb");
    GP_CHECK(f != NULL);
    if (!f)
        return gp_test_finish("cubin");
    static unsigned char img[1 << 20];
    size_t n = fread(img, 1, sizeof(img), f);
    fclose(f);
    gp_cubin_global *g = NULL;
    int k = gp_cubin_globals(img, n, &g);
    GP_CHECK_MSG(k == 3, "found %d", k);
    int seen = 0;
    for (int i = 0; i < k; i++) {
        if (strcmp(g[i].name, "counter") == 0 && g[i].size == 4)
            seen |= 1;
        if (strcmp(g[i].name, "table") == 0 && g[i].size == 400)
            seen |= 2;
        if (strcmp(g[i].name, "pair") == 0 && g[i].size == 16)
            seen |= 4;
    }
    GP_CHECK(seen == 7);
    gp_cubin_globals_free(g, k);

    /* malformed: not ELF, truncated, section table out of bounds */
    GP_CHECK(gp_cubin_globals("hello", 5, &g) == -1);
    GP_CHECK(gp_cubin_globals(img, 40, &g) == -1);
    unsigned char *bad = malloc(n);
    memcpy(bad, img, n);
    bad[0x28] = 0xff; /* e_shoff low byte */
    bad[0x2f] = 0x7f; /* e_shoff high byte: far out */
    GP_CHECK(gp_cubin_globals(bad, n, &g) == -1);
    free(bad);
    for (size_t cut = 64; cut < n; cut += n / 7) { /* every truncation is refused or parsed safely */
        int r = gp_cubin_globals(img, cut, &g);
        if (r > 0)
            gp_cubin_globals_free(g, r);
        GP_CHECK(r <= 3);
    }

    /* a section table at an odd offset (as in images built at run time):
     * the same variables are found */
    uint64_t shoff;
    uint16_t shnum;
    memcpy(&shoff, img + 0x28, 8);
    memcpy(&shnum, img + 0x3c, 2);
    size_t table = (size_t)shnum * 64, at = n + 3;
    unsigned char *odd = calloc(1, at + table);
    GP_CHECK(odd != NULL && shoff + table <= n);
    if (odd && shoff + table <= n) {
        memcpy(odd, img, n);
        memcpy(odd + at, img + shoff, table);
        uint64_t o = at;
        memcpy(odd + 0x28, &o, 8);
        k = gp_cubin_globals(odd, at + table, &g);
        GP_CHECK_MSG(k == 3, "unaligned section table: found %d", k);
        if (k > 0)
            gp_cubin_globals_free(g, k);
    }
    free(odd);
    return gp_test_finish("cubin");
}
