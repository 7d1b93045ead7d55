/*
** openblas_gemm.c: the CPU baseline of the GEMM benchmark: times OpenBLAS's cblas_sgemm on every
** row of a shape file (perf/baselines/gemm_shapes.h), for comparison with cldnn on PoCL.
**
**   openblas_gemm SHAPES.csv [--ms T] [--warmup W]
**
** Column-major, op(A), op(B) from a_t, b_t, minimum leading dimensions; batch > 1 runs the
** products one after the other (packed strides); alpha 1, beta 0. OpenBLAS's own thread count
** (OPENBLAS_NUM_THREADS, default every core) is printed. A, B and C repeat a random block of
** GEMM_BLOCK floats in [-1, 1).
**
** Timing: W warm-up calls (1), a first estimate (batches of calls growing 4x until one takes
** 20 ms) that sets the iterations so that the 5 repetitions take about T ms (200), then 5
** repetitions of (host clock, iterations calls, host clock); the median of elapsed / iterations.
** Output: '#' header lines, then one line per shape: `openblas m n k a_t b_t batch ms tflops
** iters`. Exit status 0, 1 if any shape failed, 2 on a usage error.
*/
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_shapes.h"

#define REPS 5

/* OpenBLAS extensions (declared by its cblas.h; repeated for a generic one). */
int openblas_get_num_threads(void);
char* openblas_get_config(void);

/* Prints a usage line and returns 2. */
static int usage(void) {
    fprintf(stderr, "usage: openblas_gemm SHAPES.csv [--ms T] [--warmup W]\n");
    return 2;
}

/* n floats repeating blk, or NULL after printing why. */
static float* make_buffer(size_t n, const float* blk) {
    float* p = malloc(n * sizeof *p);
    if (!p) {
        fprintf(stderr, "openblas_gemm: out of host memory (%zu floats)\n", n);
        return NULL;
    }
    for (size_t done = 0; done < n; done += GEMM_BLOCK)
        memcpy(p + done, blk, (n - done < GEMM_BLOCK ? n - done : GEMM_BLOCK) * sizeof *p);
    return p;
}

/* Runs n products (each of batch matrices) of shape s; returns the elapsed seconds. */
static double timed_calls(const gemm_shape* s, const float* a, const float* b, float* c, long long n) {
    int m = (int)s->m, nn = (int)s->n, k = (int)s->k;
    int lda = s->ta ? k : m, ldb = s->tb ? nn : k;
    size_t sa = (size_t)m * k, sb = (size_t)k * nn, sc = (size_t)m * nn;
    double t0 = gemm_now_s();
    for (long long i = 0; i < n; i++)
        for (int64_t q = 0; q < s->batch; q++)
            cblas_sgemm(CblasColMajor, s->ta ? CblasTrans : CblasNoTrans, s->tb ? CblasTrans : CblasNoTrans, m, nn, k,
                        1.0f, a + q * sa, lda, b + q * sb, ldb, 0.0f, c + q * sc, m);
    return gemm_now_s() - t0;
}

/* Measures shape s and prints its result line. Returns 0, or 1 when it failed. */
static int run_shape(const gemm_shape* s, const float* const blk[3], double target_ms, int warmup) {
    size_t nb = (size_t)s->batch;
    float* a = make_buffer((size_t)(s->m * s->k) * nb, blk[0]);
    float* b = a ? make_buffer((size_t)(s->k * s->n) * nb, blk[1]) : NULL;
    float* c = b ? make_buffer((size_t)(s->m * s->n) * nb, blk[2]) : NULL;
    if (!c) {
        gemm_print_result("openblas", s, -1, 0, "memory");
        free(a);
        free(b);
        return 1;
    }
    timed_calls(s, a, b, c, warmup);
    double per = -1;
    for (long long n = 1;; n *= 4) {
        double el = timed_calls(s, a, b, c, n);
        per = el / (double)n;
        if (el >= 20e-3 || n >= 16384) break;
    }
    long long iters = gemm_iters_for(per, target_ms, REPS);
    double t[REPS];
    for (int r = 0; r < REPS; r++) t[r] = timed_calls(s, a, b, c, iters) * 1e3 / (double)iters;
    gemm_print_result("openblas", s, gemm_median(t, REPS), iters, NULL);
    free(a);
    free(b);
    free(c);
    return 0;
}

/* Parses the command line and runs every shape. */
int main(int argc, char** argv) {
    const char* file = NULL;
    double target_ms = 200;
    int warmup = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--ms") && i + 1 < argc) target_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) warmup = atoi(argv[++i]);
        else if (argv[i][0] != '-' && !file) file = argv[i];
        else return usage();
    }
    if (!file || !(target_ms > 0) || warmup < 0) return usage();
    gemm_shape* shapes = NULL;
    int count = 0;
    char err[512];
    if (gemm_shapes_read(file, &shapes, &count, err, sizeof err)) {
        fprintf(stderr, "openblas_gemm: %s\n", err);
        return 2;
    }
    printf("# device: host CPU, OpenBLAS %s, %d threads\n", openblas_get_config(), openblas_get_num_threads());
    printf("# cblas_sgemm; column-major, minimum ld, alpha 1, beta 0\n");
    printf("# timing: host clock, %d warm-up, 5 repetitions of ~%g ms in all, median\n", warmup, target_ms);
    printf("# tool m n k a_t b_t batch ms tflops iters\n");
    fflush(stdout);
    float* blk[3] = {malloc(GEMM_BLOCK * sizeof(float)), malloc(GEMM_BLOCK * sizeof(float)),
                     malloc(GEMM_BLOCK * sizeof(float))};
    if (!blk[0] || !blk[1] || !blk[2]) {
        fprintf(stderr, "openblas_gemm: out of host memory\n");
        return 1;
    }
    for (int i = 0; i < 3; i++) gemm_fill_block(blk[i], GEMM_BLOCK, 1000 + (uint64_t)i);
    const float* cblk[3] = {blk[0], blk[1], blk[2]};
    int fails = 0;
    for (int i = 0; i < count; i++) fails += run_shape(&shapes[i], cblk, target_ms, warmup);
    for (int i = 0; i < 3; i++) free(blk[i]);
    free(shapes);
    return fails ? 1 : 0;
}
