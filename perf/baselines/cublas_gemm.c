/*
** cublas_gemm.c: the cuBLAS baseline of the GEMM benchmark: times cublasSgemm (cublasSgemmStridedBatched
** for batch > 1) on every row of a shape file (perf/baselines/gemm_shapes.h), FP32 strict; or, with
** --fp16 (--bf16), cublasGemmEx (cublasGemmStridedBatchedEx) on half (bfloat16) data.
**
**   cublas_gemm SHAPES.csv [--ms T] [--warmup W] [--pedantic | --tf32 | --fp16 | --bf16] [--device D] [--verify S]
**
** Column-major, op(A), op(B) from a_t, b_t, minimum leading dimensions, packed batch strides,
** alpha 1, beta 0. Math mode CUBLAS_DEFAULT_MATH (plain FP32: cuBLAS uses TF32 only under
** CUBLAS_TF32_TENSOR_OP_MATH or NVIDIA_TF32_OVERRIDE=1, which this program refuses), or
** CUBLAS_PEDANTIC_MATH with --pedantic, or CUBLAS_TF32_TENSOR_OP_MATH with --tf32 (the baseline of
** cldnn's TENSOR_OP_MATH GEMM on FLOAT data); the header lines say which. --fp16 is the baseline
** of cldnn's TENSOR_OP_MATH GEMM on HALF data: A, B and C CUDA_R_16F, CUBLAS_COMPUTE_32F (FP32
** accumulation, float alpha and beta), CUBLAS_GEMM_DEFAULT_TENSOR_OP (tensor cores); --bf16 the
** same with CUDA_R_16BF, the baseline of cldnn's TENSOR_OP_MATH GEMM on BFLOAT16 data. A, B and C
** repeat a random block of GEMM_BLOCK floats in [-1, 1) (rounded to half or bfloat16 for --fp16 or
** --bf16, as cldnn-bench -d half / bfloat16 does; uploaded once, doubled on the device with cudaMemcpy), so the power
** draw is that of real data.
**
** --verify S: after timing, S random elements of C (plus the corners) are read back and compared
** with a double dot product exactly as cldnn-bench gemm -V does: the printed figure is the
** largest |got - want| / tol, tol = (2 u_in + e_sum (sqrt(k) + 1)) S_abs with S_abs = sum |a b|,
** u_in = 2^-11 under --tf32 (inputs rounded or truncated to TF32), else 0, and e_sum =
** 2 eps_float, or 4 eps_float under --fp16 (the tensor core truncates its FP32 additions); --fp16
** adds C's rounding to half, 2^-10 |want| + 2^-24, --bf16 to bfloat16, 2^-7 |want|. So the two tools' error figures compare
** directly (a '#' line per shape, before its result line).
**
** Timing: W warm-up calls (3), a first estimate (batches of calls growing 4x until one takes
** 20 ms) that sets the iterations so that the 5 repetitions take about T ms (50), then 5
** repetitions of (event, iterations calls, event) on the handle's stream; the median of elapsed
** / iterations. Output: '#' header lines, then one result line per shape:
** `cublas m n k a_t b_t batch ms tflops iters`. Exit status 0, 1 if any shape failed, 2 on a
** usage error.
*/
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_timing.h"
#include "gemm_shapes.h"

#define REPS 5

/* Prints a usage line and returns 2. */
static int usage(void) {
    fprintf(stderr, "usage: cublas_gemm SHAPES.csv [--ms T] [--warmup W] [--pedantic | --tf32 | --fp16 | --bf16] "
                    "[--device D] [--verify S]\n");
    return 2;
}

/* A device buffer of n elements of es bytes (4: float, 2: half) filled from blk (the block as
** stored: floats, or half bits; see the file comment), or NULL after printing why. */
static void* make_buffer(size_t n, size_t es, const void* blk) {
    char* d = NULL;
    cudaError_t e = cudaMalloc((void**)&d, n * es);
    if (e != cudaSuccess) {
        fprintf(stderr, "cublas_gemm: cudaMalloc(%zu bytes): %s\n", n * es, cudaGetErrorString(e));
        return NULL;
    }
    size_t done = n < GEMM_BLOCK ? n : GEMM_BLOCK;
    e = cudaMemcpy(d, blk, done * es, cudaMemcpyHostToDevice);
    while (e == cudaSuccess && done < n) {
        size_t c = n - done < done ? n - done : done;
        e = cudaMemcpy(d + done * es, d, c * es, cudaMemcpyDeviceToDevice);
        done += c;
    }
    if (e != cudaSuccess) {
        fprintf(stderr, "cublas_gemm: filling a buffer: %s\n", cudaGetErrorString(e));
        cudaFree(d);
        return NULL;
    }
    return d;
}

/* One shape's operands (half: 1 A, B and C hold halves, 2 bfloat16, 0 floats). */
typedef struct {
    cublasHandle_t h;
    const gemm_shape* s;
    int lda, ldb, ldc;
    long long sa, sb, sc;
    void *a, *b, *c;
    int half;
} call_args;

/* Enqueues one call; returns the cuBLAS status. */
static cublasStatus_t call_once(const call_args* x) {
    const float one = 1.0f, zero = 0.0f;
    const gemm_shape* s = x->s;
    cublasOperation_t ta = s->ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb = s->tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cudaDataType_t t16 = x->half == 2 ? CUDA_R_16BF : CUDA_R_16F;
    if (x->half && s->batch == 1)
        return cublasGemmEx(x->h, ta, tb, (int)s->m, (int)s->n, (int)s->k, &one, x->a, t16, x->lda, x->b, t16, x->ldb,
                            &zero, x->c, t16, x->ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
    if (x->half)
        return cublasGemmStridedBatchedEx(x->h, ta, tb, (int)s->m, (int)s->n, (int)s->k, &one, x->a, t16, x->lda,
                                          x->sa, x->b, t16, x->ldb, x->sb, &zero, x->c, t16, x->ldc, x->sc,
                                          (int)s->batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
    if (s->batch == 1)
        return cublasSgemm(x->h, ta, tb, (int)s->m, (int)s->n, (int)s->k, &one, x->a, x->lda, x->b, x->ldb, &zero,
                           x->c, x->ldc);
    return cublasSgemmStridedBatched(x->h, ta, tb, (int)s->m, (int)s->n, (int)s->k, &one, x->a, x->lda, x->sa, x->b,
                                     x->ldb, x->sb, &zero, x->c, x->ldc, x->sc, (int)s->batch);
}

/* cuda_call_fn of the timing protocol: one product. */
static int timed_call(void* ctx) {
    cublasStatus_t st = call_once(ctx);
    if (st == CUBLAS_STATUS_SUCCESS) return 0;
    fprintf(stderr, "cublas_gemm: %s: status %d\n", ((const call_args*)ctx)->half ? "cublasGemmEx" : "cublasSgemm",
            (int)st);
    return 1;
}

/* Element (i, j) of product b against the double reference (file comment; blk: the blocks as
** float values, half-rounded for half data); returns err / tol, or -1 when the read-back failed. */
static double check_elem(const call_args* x, const float* const blk[3], long long b, long long i, long long j,
                         double u_in) {
    const gemm_shape* s = x->s;
    const size_t es = x->half ? 2 : 4;
    const long long at = b * x->sc + i + j * (long long)x->ldc;
    float got;
    uint16_t got16;
    if (cudaMemcpy(x->half ? (void*)&got16 : (void*)&got, (const char*)x->c + (size_t)at * es, es,
                   cudaMemcpyDeviceToHost) != cudaSuccess)
        return -1;
    if (x->half)
        got = x->half == 2 ? gemm_bf16_to_float(got16) : gemm_half_to_float(got16);
    double sum = 0, sabs = 0;
    for (long long q = 0; q < s->k; q++) {
        long long oa = b * x->sa + (s->ta ? q + i * (long long)x->lda : i + q * (long long)x->lda);
        long long ob = b * x->sb + (s->tb ? j + q * (long long)x->ldb : q + j * (long long)x->ldb);
        double v = (double)blk[0][oa % GEMM_BLOCK] * (double)blk[1][ob % GEMM_BLOCK];
        sum += v;
        sabs += fabs(v);
    }
    const double e_sum = (x->half ? 4.0 : 2.0) * FLT_EPSILON;
    double tol = (2.0 * u_in + e_sum * (sqrt((double)s->k) + 1.0)) * sabs + FLT_MIN;
    if (x->half)
        tol += x->half == 2 ? ldexp(fabs(sum), -7) : ldexp(fabs(sum), -10) + ldexp(1.0, -24);
    return fabs((double)got - sum) / tol;
}

/* Measures shape s and prints its result line. Returns 0, or 1 when it failed. */
/* blk: the blocks as float values; up: as uploaded (floats, or half bits with half). */
static int run_shape(cublasHandle_t h, const gemm_shape* s, const float* const blk[3], const void* const up[3],
                     int half, double target_ms, int warmup, cudaEvent_t e0, cudaEvent_t e1, int verify, double u_in) {
    call_args x = {h, s, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, half};
    const size_t es = half ? 2 : 4;
    /* column-major stored shapes: A (ta ? k x m : m x k), B (tb ? n x k : k x n), C m x n */
    x.lda = (int)(s->ta ? s->k : s->m);
    x.ldb = (int)(s->tb ? s->n : s->k);
    x.ldc = (int)s->m;
    x.sa = (long long)s->m * s->k;
    x.sb = (long long)s->k * s->n;
    x.sc = (long long)s->m * s->n;
    int rc = 1;
    const char* why = "buffers";
    if (!(x.a = make_buffer((size_t)(x.sa * s->batch), es, up[0])) ||
        !(x.b = make_buffer((size_t)(x.sb * s->batch), es, up[1])) ||
        !(x.c = make_buffer((size_t)(x.sc * s->batch), es, up[2])))
        goto out;
    why = "call";
    cuda_timing t = {warmup, 20.0, 16384, target_ms, REPS};
    long long iters = 0;
    double per = cuda_measure("cublas_gemm", timed_call, &x, &t, e0, e1, &iters);
    if (per < 0) goto out;
    if (verify > 0) {
        uint64_t st = 0x9e3779b97f4a7c15ull ^ (uint64_t)(s->m * 31 + s->n * 17 + s->k);
        double worst = 0;
        long long done = 0;
        for (int v = 0; v < verify + 4; v++) {
            long long i, j, b;
            if (v < 4) {
                i = (v & 1) ? s->m - 1 : 0;
                j = (v & 2) ? s->n - 1 : 0;
                b = s->batch - 1;
            } else {
                st = st * 6364136223846793005ull + 1442695040888963407ull;
                i = (long long)((st >> 33) % (uint64_t)s->m);
                st = st * 6364136223846793005ull + 1442695040888963407ull;
                j = (long long)((st >> 33) % (uint64_t)s->n);
                b = (long long)((st >> 17) % (uint64_t)s->batch);
            }
            double r = check_elem(&x, blk, b, i, j, u_in);
            if (r < 0) {
                why = "verify read-back";
                goto out;
            }
            if (r > worst) worst = r;
            done++;
        }
        printf("# verify %lld %lld %lld: max err/tol %.3g over %lld sampled elements (%s)\n", (long long)s->m,
               (long long)s->n, (long long)s->k, worst, done, worst <= 1.0 ? "PASS" : "FAIL");
    }
    gemm_print_result("cublas", s, per, iters, NULL);
    rc = 0;
out:
    if (rc) gemm_print_result("cublas", s, -1, 0, why);
    cudaFree(x.a);
    cudaFree(x.b);
    cudaFree(x.c);
    return rc;
}

/* Parses the command line, sets up the device and handle, runs every shape. */
int main(int argc, char** argv) {
    const char* file = NULL;
    double target_ms = 50;
    int warmup = 3, pedantic = 0, tf32 = 0, fp16 = 0, bf16 = 0, dev = 0, verify = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--ms") && i + 1 < argc) target_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) warmup = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--device") && i + 1 < argc) dev = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--pedantic")) pedantic = 1;
        else if (!strcmp(argv[i], "--tf32")) tf32 = 1;
        else if (!strcmp(argv[i], "--fp16")) fp16 = 1;
        else if (!strcmp(argv[i], "--bf16")) bf16 = 1;
        else if (!strcmp(argv[i], "--verify") && i + 1 < argc) verify = atoi(argv[++i]);
        else if (argv[i][0] != '-' && !file) file = argv[i];
        else return usage();
    }
    if (!file || !(target_ms > 0) || warmup < 0 || pedantic + tf32 + fp16 + bf16 > 1) return usage();
    const int h16 = fp16 ? 1 : bf16 ? 2 : 0; /* storage of A, B and C: 0 float, 1 half, 2 bfloat16 */
    const char* ovr = getenv("NVIDIA_TF32_OVERRIDE");
    if (ovr && strcmp(ovr, "0") != 0) {
        fprintf(stderr, "cublas_gemm: NVIDIA_TF32_OVERRIDE=%s would allow TF32; unset it\n", ovr);
        return 2;
    }
    gemm_shape* shapes = NULL;
    int count = 0;
    char err[512];
    if (gemm_shapes_read(file, &shapes, &count, err, sizeof err)) {
        fprintf(stderr, "cublas_gemm: %s\n", err);
        return 2;
    }
    cudaError_t ce = cudaSetDevice(dev);
    struct cudaDeviceProp prop;
    if (ce == cudaSuccess) ce = cudaGetDeviceProperties(&prop, dev);
    if (ce != cudaSuccess) {
        fprintf(stderr, "cublas_gemm: device %d: %s\n", dev, cudaGetErrorString(ce));
        free(shapes);
        return 1;
    }
    cublasHandle_t h;
    cublasStatus_t st = cublasCreate(&h);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasSetMathMode(h, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : pedantic ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublas_gemm: cublasCreate / cublasSetMathMode: status %d\n", (int)st);
        free(shapes);
        return 1;
    }
    int ver = 0, drv = 0, rt = 0;
    cublasGetVersion(h, &ver);
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    printf("# device: %s (%d SMs, cc %d.%d)\n", prop.name, prop.multiProcessorCount, prop.major, prop.minor);
    printf("# cuBLAS %d, CUDA runtime %d, driver API %d\n", ver, rt, drv);
    printf("# math mode: %s; column-major, minimum ld, alpha 1, beta 0\n",
           tf32       ? "CUBLAS_TF32_TENSOR_OP_MATH (TF32 tensor cores)"
           : fp16     ? "FP16: cublasGemmEx, A B C CUDA_R_16F, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP"
           : bf16     ? "BF16: cublasGemmEx, A B C CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP"
           : pedantic ? "CUBLAS_PEDANTIC_MATH (FP32, no TF32)"
                      : "CUBLAS_DEFAULT_MATH (FP32, no TF32)");
    printf("# timing: CUDA events, %d warm-up, 5 repetitions of ~%g ms in all, median\n", warmup, target_ms);
    printf("# tool m n k a_t b_t batch ms tflops iters\n");
    fflush(stdout);

    float* blk[3] = {malloc(GEMM_BLOCK * sizeof(float)), malloc(GEMM_BLOCK * sizeof(float)),
                     malloc(GEMM_BLOCK * sizeof(float))};
    if (!blk[0] || !blk[1] || !blk[2]) {
        fprintf(stderr, "cublas_gemm: out of host memory\n");
        return 1;
    }
    uint16_t* hblk[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) {
        gemm_fill_block(blk[i], GEMM_BLOCK, 1000 + (uint64_t)i);
        if (!h16) continue;
        if (!(hblk[i] = malloc(GEMM_BLOCK * sizeof(uint16_t)))) {
            fprintf(stderr, "cublas_gemm: out of host memory\n");
            return 1;
        }
        for (size_t e = 0; e < GEMM_BLOCK; e++) { /* what the device holds, for the reference too */
            hblk[i][e] = h16 == 2 ? gemm_float_to_bf16(blk[i][e]) : gemm_float_to_half(blk[i][e]);
            blk[i][e] = h16 == 2 ? gemm_bf16_to_float(hblk[i][e]) : gemm_half_to_float(hblk[i][e]);
        }
    }
    const float* cblk[3] = {blk[0], blk[1], blk[2]};
    const void* up[3] = {h16 ? (const void*)hblk[0] : blk[0], h16 ? (const void*)hblk[1] : blk[1],
                         h16 ? (const void*)hblk[2] : blk[2]};
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cublasSetStream(h, 0);
    int fails = 0;
    for (int i = 0; i < count; i++)
        fails += run_shape(h, &shapes[i], cblk, up, h16, target_ms, warmup, e0, e1, verify, tf32 ? 1.0 / 2048.0 : 0.0);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cublasDestroy(h);
    for (int i = 0; i < 3; i++) {
        free(blk[i]);
        free(hblk[i]);
    }
    free(shapes);
    return fails ? 1 : 0;
}
