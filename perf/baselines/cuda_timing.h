/*
** cuda_timing.h: the timing protocol the CUDA baselines share (cublas_gemm, cudnn_conv, cudnn_ops), so
** that every baseline number comes from the same loop:
**   warm-up calls; batches of calls growing 4x until one takes at least first_ms (or max_n calls);
**   from that per-call estimate, the iteration count for which `reps` repetitions take about
**   target_ms (gemm_iters_for); `reps` repetitions of (event, iterations calls, event) on the
**   default stream; the result is the median per call.
*/
#ifndef CLDNN_PERF_CUDA_TIMING_H_
#define CLDNN_PERF_CUDA_TIMING_H_

#include <cuda_runtime.h>

/* One call of the measured operation on the default stream; returns 0, or nonzero after printing why. */
typedef int (*cuda_call_fn)(void* ctx);

typedef struct {
    int warmup;       /* calls before any timing */
    double first_ms;  /* a batch of the first estimate must take at least this long ... */
    long long max_n;  /* ... or hold this many calls */
    double target_ms; /* all repetitions together */
    int reps;         /* repetitions (their median is the result); at most 16 */
} cuda_timing;

/* Runs n calls between two events; returns the elapsed ms, or < 0 when a call or CUDA failed (printed
** with `tool` as prefix). */
double cuda_timed_calls(const char* tool, cuda_call_fn call, void* ctx, long long n, cudaEvent_t e0, cudaEvent_t e1);

/* The whole protocol above; returns the median ms per call (and the iterations per repetition in
** *iters), or < 0 on failure. */
double cuda_measure(const char* tool, cuda_call_fn call, void* ctx, const cuda_timing* t, cudaEvent_t e0,
                    cudaEvent_t e1, long long* iters);

#endif
