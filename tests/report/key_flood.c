/* key_flood.c - writes one launch record whose N metric names all have the
 * same low K bits of FNV-1a (64-bit), the hash the JSON reader's repeated-key
 * check and the record's name index once used: the input a flood of chosen
 * keys is made of (each name is 7 characters of a counter and 3 chosen by
 * running FNV-1a backwards from the target state).  Built and run by
 * test_report_scale.sh.
 *
 *   key_flood N K > record.jsonl */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char cs[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
#define L 62

int main(int argc, char **argv)
{
    long n = argc > 2 ? atol(argv[1]) : 0, got = 0;
    int k = argc > 2 ? atoi(argv[2]) : 0;
    uint64_t mask, prime = 1099511628211ull, inv = 1, target = 12345;
    int32_t *tab;
    if (n <= 0 || k < 8 || k > 24) {
        fprintf(stderr, "usage: key_flood N K (8 <= K <= 24)\n");
        return 2;
    }
    mask = (1ull << k) - 1;
    target &= mask;
    for (int i = 0; i < 7; i++) /* Newton: the inverse of the prime mod 2^64 */
        inv *= 2 - prime * inv;
    if (!(tab = malloc((mask + 1) * sizeof *tab)))
        return 1;
    memset(tab, 0xff, (mask + 1) * sizeof *tab);
    /* tab[state] = the 3 characters that take state to target (low bits) */
    for (int a = 0; a < L; a++)
        for (int b = 0; b < L; b++)
            for (int c = 0; c < L; c++) {
                uint64_t s = target;
                s = ((s * inv) ^ (unsigned char)cs[c]) & mask;
                s = ((s * inv) ^ (unsigned char)cs[b]) & mask;
                s = ((s * inv) ^ (unsigned char)cs[a]) & mask;
                tab[s] = (a * L + b) * L + c;
            }
    printf("{\"type\":\"launch\",\"kernel\":\"k\",\"block\":[128,1,1],\"metrics\":{");
    for (uint64_t ctr = 0; got < n; ctr++) {
        char pre[8];
        uint64_t x = ctr, h = 1469598103934665603ull;
        for (int i = 0; i < 7; i++, x /= L)
            pre[i] = cs[x % L];
        pre[7] = 0;
        for (int i = 0; i < 7; i++)
            h = (h ^ (unsigned char)pre[i]) * prime;
        int32_t sfx = tab[h & mask];
        if (sfx < 0)
            continue;
        printf("%s\"%s%c%c%c\":%ld", got ? "," : "", pre, cs[sfx / (L * L)], cs[(sfx / L) % L],
               cs[sfx % L], got);
        got++;
    }
    printf("}}\n");
    free(tab);
    return 0;
}
