/* no_cuda.c - a program that never touches CUDA: under LD_PRELOAD=libgpuprof.so
 * it must print exactly what it prints without it, and nothing on stderr. */
#include <stdio.h>

int main(void)
{
    unsigned long long s = 0;
    for (int i = 0; i < 1000; i++)
        s = s * 31 + (unsigned)i;
    printf("no_cuda %llu\n", s);
    return 0;
}
