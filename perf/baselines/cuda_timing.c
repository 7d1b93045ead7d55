/*
** cuda_timing.c: the timing protocol of the CUDA baselines (cuda_timing.h).
*/
#include "cuda_timing.h"

#include <stdio.h>

#include "gemm_shapes.h"

double cuda_timed_calls(const char* tool, cuda_call_fn call, void* ctx, long long n, cudaEvent_t e0, cudaEvent_t e1) {
    cudaEventRecord(e0, 0);
    for (long long i = 0; i < n; i++)
        if (call(ctx)) return -1;
    cudaEventRecord(e1, 0);
    cudaError_t e = cudaEventSynchronize(e1);
    float ms = 0;
    if (e == cudaSuccess) e = cudaEventElapsedTime(&ms, e0, e1);
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", tool, cudaGetErrorString(e));
        return -1;
    }
    return ms;
}

double cuda_measure(const char* tool, cuda_call_fn call, void* ctx, const cuda_timing* t, cudaEvent_t e0,
                    cudaEvent_t e1, long long* iters) {
    if (t->warmup > 0 && cuda_timed_calls(tool, call, ctx, t->warmup, e0, e1) < 0) return -1;
    double per = -1;
    for (long long n = 1;; n *= 4) {
        double ms = cuda_timed_calls(tool, call, ctx, n, e0, e1);
        if (ms < 0) return -1;
        per = ms * 1e-3 / (double)n;
        if (ms >= t->first_ms || n >= t->max_n) break;
    }
    int reps = t->reps < 1 ? 1 : t->reps > 16 ? 16 : t->reps;
    *iters = gemm_iters_for(per, t->target_ms, reps);
    double v[16];
    for (int r = 0; r < reps; r++) {
        double ms = cuda_timed_calls(tool, call, ctx, *iters, e0, e1);
        if (ms < 0) return -1;
        v[r] = ms / (double)*iters;
    }
    return gemm_median(v, reps);
}
