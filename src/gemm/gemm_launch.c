/*
** gemm_launch.c: what every kernel with gemm_tiled's argument list shares after its parameters are
** chosen: the split-k decision, the arguments, the launch and the deterministic reduction of
** split partial sums (also the reduction of the convolution solvers' partial sums).
*/
#include "gemm/gemm.h"

/* C[off + b * cstride + j * ldc + i] = alpha * sum_s part[part_off + ((s * batch + b) * N + j) * M + i]
** + beta * C[...] (gemm_splitk_reduce of gemm.cl built with opts), then the fused epilogue epi
** (NULL: none; opts then carry its options): the partial sums summed in split order, so the
** result is deterministic. */
static cldnnStatus_t reduce_launch(cldnnHandle_t h, const char* opts, cl_mem part, cl_ulong part_off, cl_int nparts,
                                   cl_int M, cl_int N, cl_long batch, float alpha, float beta, cl_mem out,
                                   cl_ulong out_off, cl_int ldc, cl_long cstride, const cldnn_epilogue* epi) {
    cl_kernel r;
    CLDNN_TRY(cldnn_kernel_get(h, "gemm/gemm.cl", opts, "gemm_splitk_reduce", &r));
    /* gemm_splitk_reduce's list (kernels/gemm/gemm.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(r, 0, CLDNN_ARG(M), CLDNN_ARG(N), CLDNN_ARG(batch), CLDNN_ARG(nparts), CLDNN_ARG(alpha),
                                CLDNN_ARG(beta), CLDNN_ARG(part), CLDNN_ARG(part_off), CLDNN_ARG(out),
                                CLDNN_ARG(out_off), CLDNN_ARG(ldc), CLDNN_ARG(cstride)));
    CLDNN_TRY(cldnn_epilogue_args(r, epi));
    return cldnn_enqueue_1d(h, r, (uint64_t)M * (uint64_t)N * (uint64_t)batch, cldnn_free_group(&h->prof),
                            "gemm_splitk_reduce");
}

cldnnStatus_t cldnn_gemm_reduce_partials(cldnnHandle_t h, cl_mem part, uint64_t part_off, int nparts, int64_t total,
                                         float alpha, float beta, cl_mem out, uint64_t out_off,
                                         cldnnDataType_t out_dt) {
    return reduce_launch(h, cldnn_dtype_build_option(out_dt), part, part_off, nparts, (cl_int)total, 1, 1, alpha,
                         beta, out, out_off, (cl_int)total, 0, NULL);
}

/* Split-k (when the blocks of C cannot fill the device, k is cut into nsplit ranges whose partial
** products go through the handle's scratch and gemm_splitk_reduce), argument setting and the
** launch: shared by every kernel with gemm_tiled's argument list (gemm.cl, gemm_mma.cl). */
cldnnStatus_t cldnn_gemm_launch_run(cldnnHandle_t h, const cldnn_gemm_problem* pr, const cldnn_gemm_buffers* b,
                                    const cldnn_gemm_launch* L) {
    cl_kernel k = L->kernel;
    uint64_t blocks = (uint64_t)((pr->m + L->bm - 1) / L->bm) * (uint64_t)((pr->n + L->bn - 1) / L->bn) *
                      (uint64_t)pr->batch;
    int64_t nsplit = L->splitk;
    if (nsplit == 0) {
        uint64_t target = 2u * (uint64_t)(h->prof.compute_units ? h->prof.compute_units : 1);
        nsplit = blocks >= target ? 1 : (int64_t)((target + blocks - 1) / blocks);
        int64_t most = pr->k / (4 * L->bk); /* at least 4 k-tiles per split */
        if (nsplit > most)
            nsplit = most;
        if (nsplit > 32)
            nsplit = 32;
        if (nsplit < 1)
            nsplit = 1;
    }
    /* A loop-limited device (llvmpipe) must not run a work-group deeper than its loops allow. */
    const int64_t kmax = L->kmax > 0 ? L->kmax : cldnn_gemm_k_max(L->bk, &h->prof);
    const int64_t kneed = pr->k / kmax + (pr->k % kmax != 0); /* kmax may be INT64_MAX */
    if (nsplit < kneed)
        nsplit = kneed;
    int64_t ksplit = (pr->k + nsplit - 1) / nsplit;
    ksplit = (ksplit + L->bk - 1) / L->bk * L->bk;
    nsplit = (pr->k + ksplit - 1) / ksplit;
    cl_mem W = b->c;
    if (nsplit > 1) {
        uint64_t bytes = (uint64_t)nsplit * (uint64_t)pr->batch * (uint64_t)pr->m * (uint64_t)pr->n * 4u;
        if (bytes > CLDNN_SCRATCH_MAX || cldnn_scratch_get(h, (size_t)bytes, &W) != CLDNN_STATUS_SUCCESS) {
            if (pr->k > kmax) /* unsplit would cut its loops short */
                return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                                  "k = %lld needs %lld splits on %s (its loop limit) and their %llu bytes of partial "
                                  "sums exceed the GEMM scratch (%zu bytes)",
                                  (long long)pr->k, (long long)nsplit, h->prof.name, (unsigned long long)bytes,
                                  (size_t)CLDNN_SCRATCH_MAX);
            cldnn_error_clear(); /* no scratch: run unsplit */
            nsplit = 1;
            ksplit = pr->k;
            W = b->c;
        }
    }
    cl_int ks = (cl_int)ksplit, ns = (cl_int)nsplit;
    cl_int M = (cl_int)pr->m, N = (cl_int)pr->n, K = (cl_int)pr->k;
    cl_int lda = (cl_int)pr->lda, ldb = (cl_int)pr->ldb, ldc = (cl_int)pr->ldc;
    cl_ulong oa = pr->off_a, ob = pr->off_b, oc = pr->off_c;
    cl_long sa = pr->stride_a, sb = pr->stride_b, sc = pr->stride_c;
    /* gemm_tiled's list (kernels/gemm/gemm.cl; gemm_mma.cl's gemm_mma takes the same), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(M), CLDNN_ARG(N), CLDNN_ARG(K), CLDNN_ARG(pr->alpha),
                                CLDNN_ARG(pr->beta), CLDNN_ARG(b->a), CLDNN_ARG(oa), CLDNN_ARG(lda), CLDNN_ARG(sa),
                                CLDNN_ARG(b->b), CLDNN_ARG(ob), CLDNN_ARG(ldb), CLDNN_ARG(sb), CLDNN_ARG(b->c),
                                CLDNN_ARG(oc), CLDNN_ARG(ldc), CLDNN_ARG(sc), CLDNN_ARG(ks), CLDNN_ARG(ns),
                                CLDNN_ARG(W)));
    CLDNN_TRY(cldnn_epilogue_args(k, pr->epi));
    uint64_t global[3] = {(uint64_t)((pr->m + L->bm - 1) / L->bm) * (uint64_t)L->local[0],
                          (uint64_t)((pr->n + L->bn - 1) / L->bn) * (uint64_t)L->local[1],
                          (uint64_t)pr->batch * (uint64_t)nsplit};
    size_t local[3] = {L->local[0], L->local[1], L->local[2]};
    CLDNN_TRY(cldnn_enqueue_nd(h, k, 3, global, local, L->name));
    if (nsplit == 1)
        return CLDNN_STATUS_SUCCESS;

    return reduce_launch(h, L->reduce_opts, W, 0, ns, M, N, pr->batch, pr->alpha, pr->beta, b->c, oc, ldc, sc,
                         pr->epi);
}
