/* test_cubin.c - finds the __device__ variables of a real cubin (built by
 * nvcc from tests/unit/globals.cu) and survives malformed images. */
#include "preload/cubin.h"
#include "tests/unit/gp_test.h"

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
    return gp_test_finish("cubin");
}
