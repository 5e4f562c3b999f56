/* gpk_dev_xsm.cu - the cross-SM family: the one-way latency of an
 * atomicCAS ping-pong between the blocks on every pair of SMs. */
#include "gpk_dev.cuh"

/* Full grid, one block per SM (forced by a large shared-memory request); only
 * thread 0 of the two blocks on SMs sa and sb works.  res[0] one-way ns x 2 x
 * rounds, res[1] cycles, res[2] set on timeout. */
__global__ void gpk_pingpong(unsigned *flag, int sa, int sb, int warm, int rounds,
                             unsigned long long *res)
{
    extern __shared__ char gpk_pad[];
    if (threadIdx.x != 0)
        return;
    const int sm = (int)gpk_smid();
    if (sm != sa && sm != sb)
        return;
    gpk_pad[0] = 0;
    const unsigned side = (sm == sa) ? 0 : 1;
    unsigned long long t0 = 0, c0 = 0, tstart = gpk_gtime();
    for (int r = 0; r < warm + rounds; r++) {
        if (r == warm) {
            t0 = gpk_gtime();
            c0 = clock64();
        }
        const unsigned want = 2u * r + side;
        int spins = 0;
        while (atomicCAS(flag, want, want + 1) != want) {
            if (++spins == 1024) {
                spins = 0;
                if (gpk_gtime() - tstart > 20000000ull) { /* 20 ms: partner absent */
                    res[2] = 1;
                    return;
                }
            }
        }
    }
    if (side == 0) {
        res[0] = gpk_gtime() - t0;
        res[1] = clock64() - c0;
    }
}

__global__ void gpk_smids(int *out)
{
    extern __shared__ char gpk_pad2[];
    if (threadIdx.x == 0) {
        gpk_pad2[0] = 0;
        out[blockIdx.x] = (int)gpk_smid();
    }
}

extern "C" int gpk_dev_pingpong_matrix(int rounds, int nmax, double *ns, double *cyc, int *n_out)
{
    const int g = gpk_dev.sm_count;
    unsigned *flag = NULL;
    unsigned long long *res = NULL, h[3];
    int *ids_d = NULL, *ids = NULL, rc = -1, n = 0;
    const int smem = gpk_dev.smem_optin; /* one block per SM */
    ids = (int *)calloc(g, sizeof(int));
    if (!ids)
        return -1;
    GPK_CU(cudaFuncSetAttribute(gpk_pingpong, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
           out);
    GPK_CU(cudaFuncSetAttribute(gpk_smids, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
           out);
    GPK_CU(cudaMalloc(&flag, sizeof(unsigned)), out);
    GPK_CU(cudaMalloc(&res, 3 * sizeof(unsigned long long)), out);
    GPK_CU(cudaMalloc(&ids_d, g * sizeof(int)), out);
    gpk_smids<<<g, 32, smem>>>(ids_d);
    GPK_CU(cudaGetLastError(), out);
    GPK_CU(cudaMemcpy(ids, ids_d, g * sizeof(int), cudaMemcpyDeviceToHost), out);
    for (int i = 0; i < g; i++)
        if (ids[i] >= 0 && ids[i] < nmax && ids[i] + 1 > n)
            n = ids[i] + 1;
    for (int i = 0; i < n * n; i++)
        ns[i] = cyc[i] = NAN;
    {
        char *seen = (char *)calloc(n > 0 ? n : 1, 1);
        if (!seen)
            goto out;
        int met = 0, missed = 0;
        for (int i = 0; i < g; i++)
            if (ids[i] >= 0 && ids[i] < n)
                seen[ids[i]] = 1;
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n && seen[a]; b++) {
                if (!seen[b])
                    continue;
                GPK_CU(cudaMemsetAsync(flag, 0, sizeof(unsigned)), out_seen);
                GPK_CU(cudaMemsetAsync(res, 0, 3 * sizeof(unsigned long long)), out_seen);
                gpk_pingpong<<<g, 32, smem>>>(flag, a, b, 8, rounds, res);
                GPK_CU(cudaGetLastError(), out_seen);
                GPK_CU(cudaMemcpy(h, res, sizeof h, cudaMemcpyDeviceToHost), out_seen);
                if (h[2] == 0 && h[0] > 0) {
                    ns[a * n + b] = ns[b * n + a] = (double)h[0] / (2.0 * rounds);
                    cyc[a * n + b] = cyc[b * n + a] = (double)h[1] / (2.0 * rounds);
                    met++;
                } else if (++missed > 32 && met == 0) {
                    /* the pair blocks are not co-resident here (another job on
                     * the GPU?): stop rather than spend 20 ms on every pair */
                    fprintf(stderr, "gpupeak: cross-SM pairs never met; matrix abandoned\n");
                    goto out_seen;
                }
            }
        }
        rc = 0;
    out_seen:
        free(seen);
    }
    *n_out = n;
out:
    free(ids);
    cudaFree(flag);
    cudaFree(res);
    cudaFree(ids_d);
    return rc;
}
