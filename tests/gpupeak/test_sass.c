/* test_sass.c - reads the SASS of the built gpupeak binary (cuobjdump -sass)
 * and checks that each kernel runs the instruction it is meant to measure,
 * in the number its source unrolls: N per loop trip, so the count must be a
 * multiple of N give or take a few (the compiler may unroll the loop again or
 * peel an epilogue).  Needs no GPU; skipped where cuobjdump is missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gp_test.h"

typedef struct gpk_sass_rule {
    const char *kernel; /* substring of the mangled name */
    const char *op;     /* opcode; with a '.', a prefix of the full opcode */
    int per_trip;       /* instructions per loop trip in the source */
    int slack;          /* extra ones allowed outside the loop */
    const char *operand; /* NULL, or text the operands must contain to count */
} gpk_sass_rule;

static const gpk_sass_rule gpk_rules[] = {
    {"gpk_tputI6OpFfma", "FFMA", 128, 8},
    {"gpk_tputI6OpDfma", "DFMA", 128, 8},
    {"gpk_tputI7OpHfma2", "HFMA2", 128, 8},
    /* ptxas splits HFMA2 between the FMA pipe and the MMA pipe (HFMA2.MMA) */
    {"gpk_tputI7OpBfma2", "HFMA2*BF16_V2", 128, 8},
    {"gpk_tputI6OpIadd", "IADD3|IMAD.IADD|LEA", 128, 16},
    {"gpk_tputI6OpImad", "IMAD", 128, 24},
    {"gpk_tputI5OpRsq", "MUFU.RSQ", 128, 0},
    {"gpk_tputI5OpSin", "MUFU.SIN", 128, 0},
    {"gpk_tputI5OpSin", "FMUL.RZ", 128, 0},
    {"gpk_tputI5OpEx2", "MUFU.EX2", 128, 0},
    {"gpk_tputI8OpMmaF16", "HMMA.16816.F32", 64, 0},
    {"gpk_tputI9OpMmaBf16", "HMMA.16816.F32.BF16", 64, 0},
    {"gpk_tputI9OpMmaTf32", "HMMA.1688.F32.TF32", 64, 0},
    {"gpk_tputI9OpMmaInt8", "IMMA.16832", 64, 0},
    {"gpk_wgmma_kernelILi14E", "HGMMA.64x256x16.F32", 4, 0},
    {"gpk_wgmma_kernelILi15E", "HGMMA.64x256x16.F32.BF16", 4, 0},
    {"gpk_wgmma_kernelILi16E", "HGMMA.64x256x8.F32.TF32", 4, 0},
    {"gpk_wgmma_kernelILi17E", "QGMMA.64x256x32.F32.E4M3.E4M3", 4, 0},
    {"gpk_latI6OpFfma", "FFMA", 256, 4},
    {"gpk_latI6OpDfma", "DFMA", 256, 4},
    {"gpk_latI8LatHfma2", "HFMA2", 256, 4},
    {"gpk_latI6OpImad", "IMAD", 256, 12},
    {"gpk_latI7LatImul", "IMAD", 256, 12},
    {"gpk_latI6LatShl", "SHF", 256, 4},
    {"gpk_latI6LatCvt", "F2I", 256, 0},
    {"gpk_latI6LatCvt", "I2F*", 256, 2}, /* one more in the chain's init */
    {"gpk_latI5OpRsq", "MUFU.RSQ", 256, 0},
    {"gpk_latI5OpSin", "MUFU.SIN", 256, 0},
    {"gpk_latI5OpEx2", "MUFU.EX2", 256, 0},
    {"gpk_mem_l1", "LDG*128", 8, 0},
    {"gpk_mem_sharedIfLi2048ELi16E", "LDS", 16, 0},
    {"gpk_mem_sharedI6float4Li512ELi8E", "LDS.128", 8, 0},
    {"gpk_mem_read", "LDG*128", 4, 0},
    {"gpk_mem_l2", "LDG*128", 4, 0},
    {"gpk_mem_copy", "STG*128", 4, 0},
    {"gpk_mem_write", "STG*128", 4, 0},
    {"gpk_copyvILi8ELb1E", "STG*128", 8, 0},
    {"gpk_copyvILi8ELb1E", "LDG*128", 8, 0},
    {"gpk_copyvILi2ELb1E", "STG*128", 2, 0},
    {"gpk_tlb_chase", "LDG*64", 8, 0},
    /* constant chase: 16 LDC with a register index into the __constant__
     * bank per trip (parameter loads, c[0x0][...], do not count) */
    {"gpk_cchase", "LDC", 16, 0, "c[0x3][R"},
    /* chunked copy: U loads then U stores per trip, the trip not unrolled */
    {"gpk_copychunkILi8ELb1ELi4E", "LDG*128", 8, 0},
    {"gpk_copychunkILi8ELb1ELi4E", "STG*128", 8, 0},
    {"gpk_copychunkILi16ELb1ELi2E", "LDG*128", 16, 0},
    {"gpk_copychunkILi16ELb1ELi2E", "STG*128", 16, 0},
    {"gpk_copychunkILi2ELb1ELi8E", "LDG*128", 2, 0},
    {"gpk_copychunkILi2ELb1ELi8E", "STG*128", 2, 0},
    {"gpk_copychunkILi8ELb0ELi4E", "LDG*128", 8, 0},
    {"gpk_copychunkILi8ELb0ELi4E", "STG*128", 8, 0},
    /* batched non-coherent copy: U loads, then U stores, per trip */
    {"gpk_copyncILi8ELb0E", "LDG*128", 8, 0},
    {"gpk_copyncILi8ELb0E", "STG*128", 8, 0},
    {"gpk_copyncILi8ELb1E", "LDG*128", 8, 0},
    {"gpk_copyncILi8ELb1E", "STG*128", 8, 0},
    {"gpk_copyncILi16ELb0E", "LDG*128", 16, 0},
    {"gpk_copyncILi16ELb0E", "STG*128", 16, 0},
    {"gpk_copyncILi4ELb0E", "LDG*128", 4, 0},
    {"gpk_copyncILi4ELb0E", "STG*128", 4, 0},
    /* bulk copy: the copies are the bulk-copy engine's (UBLKCP), at least one */
    {"gpk_copybulk", "UBLKCP", 1, 0},
};
#define GPK_NRULES ((int)(sizeof gpk_rules / sizeof gpk_rules[0]))

/* op forms: "FFMA" (base opcode, any modifiers), "HFMA2.BF16_V2" (prefix up to
 * a '.' boundary), "LDG*128" (prefix, then the text after '*' somewhere),
 * "A|B" (either). */
static int gpk_t_match(const char *opcode, const char *op)
{
    const char *bar = strchr(op, '|');
    if (bar) {
        char first[64];
        snprintf(first, sizeof first, "%.*s", (int)(bar - op), op);
        return gpk_t_match(opcode, first) || gpk_t_match(opcode, bar + 1);
    }
    const char *star = strchr(op, '*');
    if (star)
        return strncmp(opcode, op, (size_t)(star - op)) == 0 &&
               (star[1] == 0 || strstr(opcode + (star - op), star + 1) != NULL);
    size_t n = strlen(op);
    if (strchr(op, '.'))
        return strncmp(opcode, op, n) == 0 && (opcode[n] == 0 || opcode[n] == '.');
    const char *dot = strchr(opcode, '.');
    size_t m = dot ? (size_t)(dot - opcode) : strlen(opcode);
    return m == n && strncmp(opcode, op, n) == 0;
}

int main(int argc, char **argv)
{
    const char *bin = argc > 1 ? argv[1] : GPK_BINARY;
    const char *tool = GPK_CUOBJDUMP;
    char cmd[1024], line[1024], cur[512] = "";
    int counts[GPK_NRULES] = {0}, seen[GPK_NRULES] = {0};
    int verbose = getenv("GPK_SASS_VERBOSE") != NULL;
    if (access(tool, X_OK) != 0)
        tool = "cuobjdump";
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
    if (system(cmd) != 0) {
        gp_test_skip("SASS check", "cuobjdump not found (CUDA toolkit without binary utilities)");
        return gp_test_finish("gpupeak-sass");
    }
    if (access(bin, R_OK) != 0) {
        GP_CHECK_MSG(0, "%s not built", bin);
        return gp_test_finish("gpupeak-sass");
    }
    snprintf(cmd, sizeof cmd, "%s -sass %s 2>&1", tool, bin);
    FILE *p = popen(cmd, "r");
    if (!p) {
        GP_CHECK_MSG(0, "cannot run %s", cmd);
        return gp_test_finish("gpupeak-sass");
    }
    while (fgets(line, sizeof line, p)) {
        char *s = strstr(line, "Function : ");
        if (s) {
            snprintf(cur, sizeof cur, "%s", s + 11);
            cur[strcspn(cur, " \r\n")] = 0;
            for (int i = 0; i < GPK_NRULES; i++)
                if (strstr(cur, gpk_rules[i].kernel))
                    seen[i] = 1;
            continue;
        }
        /* instruction lines: an address comment, an optional predicate, the opcode */
        s = strstr(line, "/*");
        if (!s || !cur[0])
            continue;
        {
            /* the address comment: hex digits only, e.g. 1a40 */
            const char *h = s + 2;
            size_t nh = strspn(h, "0123456789abcdef");
            if (nh < 4 || strncmp(h + nh, "*/", 2) != 0)
                continue;
            s = (char *)h + nh + 2;
        }
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '@')
            s += strcspn(s, " \t");
        while (*s == ' ' || *s == '\t')
            s++;
        char opcode[64];
        size_t k = strcspn(s, " \t;");
        if (k == 0 || k >= sizeof opcode)
            continue;
        memcpy(opcode, s, k);
        opcode[k] = 0;
        for (int i = 0; i < GPK_NRULES; i++)
            if (strstr(cur, gpk_rules[i].kernel) && gpk_t_match(opcode, gpk_rules[i].op) &&
                (!gpk_rules[i].operand || strstr(s + k, gpk_rules[i].operand)))
                counts[i]++;
    }
    int st = pclose(p);
    GP_CHECK_MSG(st == 0, "%s exited with %d", cmd, st);
    for (int i = 0; i < GPK_NRULES; i++) {
        const gpk_sass_rule *r = &gpk_rules[i];
        int c = counts[i], rem = c % r->per_trip;
        int ok = seen[i] && c >= r->per_trip && rem <= r->slack;
        if (verbose || !ok)
            fprintf(stderr, "sass %-34s %-30s %5d (want k x %d + at most %d)%s%s%s\n", r->kernel,
                    r->op, c, r->per_trip, r->slack, r->operand ? " with " : "",
                    r->operand ? r->operand : "", ok ? "" : "  <-- FAIL");
        GP_CHECK_MSG(ok, "%s: %d x %s", r->kernel, c, r->op);
    }
    return gp_test_finish("gpupeak-sass");
}
