/* strhash.c - see strhash.h. */
#define _GNU_SOURCE
#include "util/strhash.h"

#include <fcntl.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static uint64_t gp_strhash_key[2];
static pthread_once_t gp_strhash_once = PTHREAD_ONCE_INIT;

static inline uint64_t gp_rotl(uint64_t x, int b)
{
    return x << b | x >> (64 - b);
}

#define GP_SIPROUND                                                                                \
    do {                                                                                           \
        v0 += v1;                                                                                  \
        v1 = gp_rotl(v1, 13);                                                                      \
        v1 ^= v0;                                                                                  \
        v0 = gp_rotl(v0, 32);                                                                      \
        v2 += v3;                                                                                  \
        v3 = gp_rotl(v3, 16);                                                                      \
        v3 ^= v2;                                                                                  \
        v0 += v3;                                                                                  \
        v3 = gp_rotl(v3, 21);                                                                      \
        v3 ^= v0;                                                                                  \
        v2 += v1;                                                                                  \
        v1 = gp_rotl(v1, 17);                                                                      \
        v1 ^= v2;                                                                                  \
        v2 = gp_rotl(v2, 32);                                                                      \
    } while (0)

static uint64_t gp_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

uint64_t gp_siphash(const uint64_t key[2], const void *p, size_t len, int c, int d)
{
    const unsigned char *in = p;
    uint64_t v0 = key[0] ^ 0x736f6d6570736575ull, v1 = key[1] ^ 0x646f72616e646f6dull;
    uint64_t v2 = key[0] ^ 0x6c7967656e657261ull, v3 = key[1] ^ 0x7465646279746573ull;
    uint64_t b = (uint64_t)len << 56, m;
    size_t i, left = len & 7, whole = len - left;
    int r;
    for (i = 0; i < whole; i += 8) {
        m = gp_le64(in + i);
        v3 ^= m;
        for (r = 0; r < c; r++)
            GP_SIPROUND;
        v0 ^= m;
    }
    for (i = 0; i < left; i++)
        b |= (uint64_t)in[whole + i] << (8 * i);
    v3 ^= b;
    for (r = 0; r < c; r++)
        GP_SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    for (r = 0; r < d; r++)
        GP_SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

/* The key: getrandom() (never blocking), else /dev/urandom, else what this
 * process alone knows mixed together (time, pid, addresses under ASLR). */
static void gp_strhash_init(void)
{
    unsigned char k[16];
    int fd;
    if (getrandom(k, sizeof k, GRND_NONBLOCK) == (ssize_t)sizeof k)
        goto done;
    fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0) {
        ssize_t got = read(fd, k, sizeof k);
        close(fd);
        if (got == (ssize_t)sizeof k)
            goto done;
    }
    {
        struct timespec t[2];
        uint64_t fixed[2] = {0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull}, s[6], h0, h1;
        clock_gettime(CLOCK_REALTIME, &t[0]);
        clock_gettime(CLOCK_MONOTONIC, &t[1]);
        s[0] = (uint64_t)t[0].tv_sec ^ (uint64_t)t[0].tv_nsec << 20;
        s[1] = (uint64_t)t[1].tv_sec ^ (uint64_t)t[1].tv_nsec << 20;
        s[2] = (uint64_t)getpid();
        s[3] = (uint64_t)(uintptr_t)&t;
        s[4] = (uint64_t)(uintptr_t)&gp_strhash_init;
        s[5] = (uint64_t)(uintptr_t)&gp_strhash_key;
        h0 = gp_siphash(fixed, s, sizeof s, 2, 4);
        s[0] ^= h0;
        h1 = gp_siphash(fixed, s, sizeof s, 2, 4);
        memcpy(k, &h0, 8);
        memcpy(k + 8, &h1, 8);
    }
done:
    gp_strhash_key[0] = gp_le64(k);
    gp_strhash_key[1] = gp_le64(k + 8);
}

uint64_t gp_strhash(const void *p, size_t len)
{
    pthread_once(&gp_strhash_once, gp_strhash_init);
    return gp_siphash(gp_strhash_key, p, len, 1, 3);
}

/* Open addressing at most half full; 0 marks an empty slot, so the digest 0
 * is stored as 1 (one more collision in 2^64). */
static int gp_digestset_put(uint64_t *slot, size_t cap, uint64_t d)
{
    size_t at = (size_t)(d ^ d >> 32) & (cap - 1);
    for (; slot[at]; at = (at + 1) & (cap - 1))
        if (slot[at] == d)
            return 1;
    slot[at] = d;
    return 0;
}

int gp_digestset_add(gp_digestset *s, uint64_t d)
{
    d = d ? d : 1;
    if (2 * (s->n + 1) > s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 1024;
        uint64_t *ns = calloc(nc, sizeof *ns);
        if (!ns)
            return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i])
                gp_digestset_put(ns, nc, s->slot[i]);
        free(s->slot);
        s->slot = ns;
        s->cap = nc;
    }
    if (gp_digestset_put(s->slot, s->cap, d))
        return 1;
    s->n++;
    return 0;
}

void gp_digestset_free(gp_digestset *s)
{
    free(s->slot);
    s->slot = NULL;
    s->cap = s->n = 0;
}
