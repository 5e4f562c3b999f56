/* test_lineinfo.c - the cubins kept for source lines (preload/lineinfo.c) and
 * the ELF helpers behind them (preload/cubin.c): which modules have line
 * information, fat binaries with one cubin per SM version, and the line of
 * each instruction as CUPTI's correlation gives it (no GPU needed).
 *
 *   test_lineinfo LINES.cubin PLAIN.cubin FAT.fatbin   (the unit test)
 *   test_lineinfo --lines CUBIN FUNCTION               (pc and line, for
 *                                                       test_lineinfo.sh) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preload/cubin.h"
#include "preload/lineinfo.h"
#include "replay/pc_sampling.h"
#include "tests/unit/gp_test.h"

static void *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    void *b = NULL;
    long n;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (b = malloc((size_t)n)) && fread(b, 1, (size_t)n, f) == (size_t)n)
        *size = (size_t)n;
    else {
        free(b);
        b = NULL;
    }
    if (f)
        fclose(f);
    return b;
}

static void count_elf(const uint8_t *elf, size_t size, void *arg)
{
    int *sms = arg;
    int sm = gp_cubin_sm(elf, size);
    sms[sm == 80 ? 0 : sm == 90 ? 1 : 2]++;
}

typedef struct code_size {
    const char *name;
    size_t size;
} code_size;

static void size_of(const char *name, const uint8_t *code, size_t size, void *arg)
{
    (void)code;
    code_size *c = arg;
    if (strcmp(name, c->name) == 0)
        c->size = size;
}

/* Prints "pc line" for each instruction of function (line 0: none), for the
 * readelf check. */
static int print_lines(const char *path, const char *function)
{
    size_t size = 0;
    void *img = read_all(path, &size);
    if (!img)
        return 2;
    gp_lineinfo_module_loaded(img, size);
    gp_lineinfo_module m;
    const char *why;
    if (gp_lineinfo_find(function, 90, &m, &why) != 1) {
        fprintf(stderr, "no lines: %s\n", why ? why : "?");
        return 1;
    }
    code_size cs = {function, 0};
    gp_cubin_each_function(m.elf, m.size, size_of, &cs);
    for (uint64_t pc = 0; pc < cs.size; pc += 16) {
        char *file = NULL;
        uint32_t line = 0;
        gp_pcs_source_line(m.elf, m.size, function, pc, &file, &line);
        printf("%llu %u\n", (unsigned long long)pc, line);
        free(file);
    }
    gp_lineinfo_free();
    free(img);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--lines") == 0)
        return print_lines(argv[2], argv[3]);
    if (argc != 1 && argc != 4) {
        fprintf(stderr, "usage: test_lineinfo [LINES.cubin PLAIN.cubin FAT.fatbin]\n");
        return 2;
    }
    const char *paths[3] = {GP_BUILD_DIR "/tests/lines.cubin", GP_BUILD_DIR "/tests/plain.cubin",
                            GP_BUILD_DIR "/tests/lines.fatbin"};
    for (int i = 0; argc == 4 && i < 3; i++)
        paths[i] = argv[i + 1];
    size_t nl = 0, np = 0, nf = 0;
    void *lines = read_all(paths[0], &nl), *plain = read_all(paths[1], &np),
         *fat = read_all(paths[2], &nf);
    GP_CHECK(lines && plain && fat);
    if (!lines || !plain || !fat)
        return gp_test_finish("lineinfo");

    GP_CHECK(gp_cubin_has_section(lines, nl, ".debug_line"));
    GP_CHECK(!gp_cubin_has_section(plain, np, ".debug_line"));
    GP_CHECK(gp_cubin_sm(lines, nl) == 90);
    GP_CHECK(gp_cubin_sm("not an ELF", 10) == 0);

    /* a fat binary: one cubin per SM version, each visited with its extent */
    int sms[3] = {0, 0, 0};
    GP_CHECK_MSG(gp_cubin_each_elf(fat, nf, count_elf, sms) == 2 && sms[0] == 1 && sms[1] == 1,
                 "%d %d %d", sms[0], sms[1], sms[2]);
    int one[3] = {0, 0, 0};
    GP_CHECK(gp_cubin_each_elf(lines, nl, count_elf, one) == 1 && one[1] == 1);
    GP_CHECK(gp_cubin_each_elf("garbage garbage garbage", 24, count_elf, one) == 0);

    /* the tables: lines kept for the module built with them, the reason otherwise */
    gp_lineinfo_module_loaded(lines, nl);
    gp_lineinfo_module_loaded(lines, nl); /* loaded again: kept once */
    gp_lineinfo_module_loaded(plain, np);
    gp_lineinfo_module m;
    const char *why = NULL;
    GP_CHECK(gp_lineinfo_find("_Z11lines_saxpyfPKfPfi", 90, &m, &why) == 1 && m.elf && m.size);
    GP_CHECK(gp_lineinfo_find("_Z12plain_kernelPi", 90, &m, &why) == 0 && why &&
             strstr(why, "-lineinfo"));
    GP_CHECK(gp_lineinfo_find("no_such_function", 90, &m, &why) == -1 && why);

    /* CUPTI's correlation: the helper's line for its inlined instructions,
     * the kernel's own lines elsewhere, within the file */
    GP_CHECK(gp_lineinfo_find("_Z11lines_saxpyfPKfPfi", 90, &m, &why) == 1);
    int seen_inline = 0, seen_body = 0, bad = 0;
    for (uint64_t pc = 0; pc < 0x400; pc += 16) {
        char *file;
        uint32_t line;
        if (gp_pcs_source_line(m.elf, m.size, "_Z11lines_saxpyfPKfPfi", pc, &file, &line) != 0)
            break;
        bad |= !strstr(file, "lines.cu") || line < 4 || line > 14;
        seen_inline |= line == 6;
        seen_body |= line == 13;
        free(file);
    }
    GP_CHECK(!bad && seen_inline && seen_body);

    /* a fat binary's functions: the cubin of the GPU's SM version is picked */
    gp_lineinfo_free();
    gp_lineinfo_module_loaded(fat, nf);
    GP_CHECK(gp_lineinfo_find("_Z11lines_saxpyfPKfPfi", 90, &m, &why) == 1 &&
             gp_cubin_sm(m.elf, m.size) == 90);
    GP_CHECK(gp_lineinfo_find("_Z11lines_saxpyfPKfPfi", 80, &m, &why) == 1 &&
             gp_cubin_sm(m.elf, m.size) == 80);
    gp_lineinfo_free();
    free(lines);
    free(plain);
    free(fat);
    return gp_test_finish("lineinfo");
}
