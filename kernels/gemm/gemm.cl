/*
 * gemm.cl: tiled GEMM and strided-batched GEMM, C = alpha * A' B' + beta * C, C column-major.
 *
 * One kernel body; every variant is a build option of common/gemm_tile.h (tile sizes, register
 * block, vector widths, padding, A_TRANS / B_TRANS). Sizes, leading dimensions, offsets and
 * batch strides are arguments (elements), so a new shape never needs a new build.
 *
 * gemm_tiled: work-group (MDIMC, NDIMC, 1); grid (ceil(M / MWG) * MDIMC, ceil(N / NWG) * NDIMC,
 * batch). Each work-group computes one MWG x NWG block of C: k-tiles of depth KWG go global ->
 * registers -> local memory, double-buffered (the next tile is fetched into registers while the
 * current one is multiplied; one barrier per k-tile). Edge blocks load through the guarded path
 * (zeros outside A and B) and store only inside C. With beta == 0, C is not read.
 *
 * Split-k (skinny products with few blocks of C): grid dimension 2 runs batch x nsplit groups;
 * split s covers k in [s * ksplit, min(K, (s + 1) * ksplit)) and, when nsplit > 1, writes its
 * raw sums to W[(s * batch + b) * M * N + n * M + m]; gemm_splitk_reduce then forms
 * C = alpha * sum_s W + beta * C. With nsplit == 1, W is not touched.
 *
 * Storage (common/helpers.h): -DDATA_HALF=1 or -DDATA_BF16=1 makes A, B and C half or bfloat16
 * (loads widen to float, C is rounded once when stored); A_HALF / B_HALF / C_HALF (storage flags
 * H: 0 float, 1 half, 2 bfloat16; default DATA_H) set one operand, for callers whose C is a float
 * workspace of partial sums. Sums, alpha, beta and the split-k
 * workspace W are float whatever the storage.
 *
 * Fused epilogue (common/epilogue.h: -DEPI_ACT=<mode>, EPI_Z, EPI_BIAS_M of common/gemm_tile.h):
 * the convolutions that are GEMMs (1x1, im2col) finish y = act(alpha * AB + alpha2 * z + bias)
 * in the store, or in gemm_splitk_reduce when k is split; z has C's ldc and batch stride.
 */
#include "common/helpers.h"
#include "common/gemm_tile.h"
#include "gemm/gemm_operands.h"

#if A_TRANS
#define A_SM lda
#define A_SK 1
#else
#define A_SM 1
#define A_SK lda
#endif
#if B_TRANS
#define B_SK ldb
#define B_SN 1
#else
#define B_SK 1
#define B_SN ldb
#endif

__kernel __attribute__((reqd_work_group_size(MDIMC, NDIMC, 1)))
void gemm_tiled(int M, int N, int K, float alpha, float beta,
                __global const STORAGE_OF(A_HALF)* A, ulong a_off, int lda, long a_stride,
                __global const STORAGE_OF(B_HALF)* B, ulong b_off, int ldb, long b_stride,
                __global STORAGE_OF(C_HALF)* C, ulong c_off, int ldc, long c_stride, int ksplit, int nsplit,
                __global float* W EPI_PARAMS) {
    __local float As[2][KWG * LDA_LOCAL] __attribute__((aligned(16)));
    __local float Bs[2][KWG * LDB_LOCAL] __attribute__((aligned(16)));
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    const int tid = ty * MDIMC + tx;
    GEMM_BLOCK_SETUP();
    const int m0 = (int)get_group_id(0) * MWG, n0 = (int)get_group_id(1) * NWG;

    float acc[MWI][NWI];
    for (int i = 0; i < MWI; ++i)
        for (int j = 0; j < NWI; ++j)
            acc[i][j] = 0.0f;

    float ra[TILE_CHUNKS(MWG, VWA) * VWA], rb[TILE_CHUNKS(NWG, VWB) * VWB];
    const int ntiles = (ke - kb + KWG - 1) / KWG;
    TILE_LOAD(A_HALF, A, A_SM, A_SK, !A_TRANS, MWG, VWA, m0, kb, M, ke, tid, ra);
    TILE_LOAD(B_HALF, B, B_SN, B_SK, B_TRANS, NWG, VWB, n0, kb, N, ke, tid, rb);
    TILE_STORE(As[0], LDA_LOCAL, !A_TRANS, MWG, VWA, tid, ra);
    TILE_STORE(Bs[0], LDB_LOCAL, B_TRANS, NWG, VWB, tid, rb);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int t = 0; t < ntiles; ++t) {
        const int cur = t & 1;
        const int more = t + 1 < ntiles;
        if (more) {
            const int k1 = kb + (t + 1) * KWG;
            TILE_LOAD(A_HALF, A, A_SM, A_SK, !A_TRANS, MWG, VWA, m0, k1, M, ke, tid, ra);
            TILE_LOAD(B_HALF, B, B_SN, B_SK, B_TRANS, NWG, VWB, n0, k1, N, ke, tid, rb);
        }
        __local const float* as = As[cur];
        __local const float* bs = Bs[cur];
#pragma unroll
        for (int kk = 0; kk < KWG; ++kk)
            MICRO_TILE_UPDATE(as + kk * LDA_LOCAL, bs + kk * LDB_LOCAL, tx, ty, acc);
        if (more) {
            TILE_STORE(As[cur ^ 1], LDA_LOCAL, !A_TRANS, MWG, VWA, tid, ra);
            TILE_STORE(Bs[cur ^ 1], LDB_LOCAL, B_TRANS, NWG, VWB, tid, rb);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    GEMM_SPLIT_W();
    /* Unrolled by force: a fused epilogue (RELU) made NVIDIA's compiler keep these loops, which
     * indexes acc at run time and moves it to local memory (a 256-byte stack frame, 1.3x time). */
UNROLL_GPU
    for (int i = 0; i < MWI / VWM; ++i)
UNROLL_GPU
        for (int v = 0; v < VWM; ++v) {
            const int m = m0 + (i * MDIMC + tx) * VWM + v;
            if (m >= M)
                continue;
UNROLL_GPU
            for (int j = 0; j < NWI / VWN; ++j)
UNROLL_GPU
                for (int w = 0; w < VWN; ++w) {
                    const int n = n0 + (j * NDIMC + ty) * VWN + w;
                    if (n >= N)
                        continue;
                    GEMM_STORE_SUM(acc[i * VWM + v][j * VWN + w], m, n, M, ldc, alpha, beta, nsplit, C, W, C_HALF);
                }
        }
}

/* C = alpha * sum over nsplit partial products (from W + w_off) + beta * C; one work-item per
 * element of C (m fastest), global size M * N * batch. Also adds the split-k partial sums of
 * conv/conv_igemm.cl's backward-filter. With the fused epilogue (common/epilogue.h) the split
 * GEMM's outputs get it here, where they are finished. */
__kernel void gemm_splitk_reduce(int M, int N, long batch, int nsplit, float alpha, float beta, __global const float* W,
                                 ulong w_off, __global STORAGE_OF(C_HALF)* C, ulong c_off, int ldc,
                                 long c_stride EPI_PARAMS) {
    const long gid = (long)get_global_id(0);
    const long mn = (long)M * N;
    if (gid >= mn * batch)
        return;
    const long b = gid / mn, r = gid - b * mn;
    const int n = (int)(r / M), m = (int)(r - (long)n * M);
    float sum = 0.0f;
    for (int s = 0; s < nsplit; ++s)
        sum += W[w_off + ((long)s * batch + b) * mn + r];
    const long idx = (long)c_off + b * c_stride + (long)n * ldc + m;
    float out = alpha * sum;
    if (beta != 0.0f)
        out = fma(beta, LOAD_OF(C_HALF, C, idx), out);
    EPI_SETUP(0);
    EPI_APPLY(out, EPI_BIAS_M ? m : n, idx - (long)c_off);
    STORE_OF(C_HALF, C, idx, out);
}
