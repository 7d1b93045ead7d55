/*
** clblast_gemm.c: the CLBlast baseline of the GEMM benchmark: times CLBlastSgemm
** (CLBlastSgemmStridedBatched for batch > 1) on every row of a shape file
** (perf/baselines/gemm_shapes.h), through OpenCL on the same device cldnn would pick.
**
**   clblast_gemm SHAPES.csv [--ms T] [--warmup W]
**
** Device: CLDNN_DEVICE, read as cldnnCreateDefault reads it (see pick_device).
** Column-major, op(A), op(B) from a_t, b_t, minimum leading dimensions, packed batch strides,
** alpha 1, beta 0. A, B and C repeat a random block of GEMM_BLOCK floats in [-1, 1) (uploaded
** once, doubled on the device with clEnqueueCopyBuffer).
**
** Timing, as cldnn-bench's: W warm-up calls (3; the first one compiles CLBlast's kernels), a
** first estimate (batches of calls growing 4x until one takes 20 ms) that sets the iterations so
** that the 5 repetitions take about T ms (50), then 5 repetitions of (host clock, iterations
** calls, clFinish, host clock); the median of elapsed / iterations. Output: '#' header lines,
** then one line per shape: `clblast m n k a_t b_t batch ms tflops iters`. Exit status 0, 1 if
** any shape failed, 2 on a usage error.
*/
#include <clblast_c.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_shapes.h"

#define REPS 5
#define MAX_IDS 32

/* Prints a usage line and returns 2. */
static int usage(void) {
    fprintf(stderr, "usage: clblast_gemm SHAPES.csv [--ms T] [--warmup W]   (CLDNN_DEVICE picks the device)\n");
    return 2;
}

/* Whether hay contains needle, ignoring ASCII case. */
static int contains_nocase(const char* hay, const char* needle) {
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i])) i++;
        if (i == n) return 1;
    }
    return n == 0;
}

/* The device that CLDNN_DEVICE names, by cldnnCreateDefault's rule: unset, the first GPU else the
** first device; gpu / cpu (either case) the first of that type; P:D platform P, device D (as
** `cldnn-bench --devices` lists them); else the first whose name contains it (any case).
** NULL after printing why. */
static cl_device_id pick_device(void) {
    const char* want = getenv("CLDNN_DEVICE");
    cl_platform_id plats[MAX_IDS];
    cl_uint np = 0;
    if (clGetPlatformIDs(MAX_IDS, plats, &np) != CL_SUCCESS || np == 0) {
        fprintf(stderr, "clblast_gemm: no OpenCL platform\n");
        return NULL;
    }
    if (np > MAX_IDS) np = MAX_IDS;
    unsigned wp = 0, wd = 0;
    char tail = 0;
    int unset = !want || !*want;
    int by_index = !unset && sscanf(want, "%u:%u%c", &wp, &wd, &tail) == 2;
    cl_device_type type = unset ? CL_DEVICE_TYPE_GPU
                          : (!strcmp(want, "gpu") || !strcmp(want, "GPU")) ? CL_DEVICE_TYPE_GPU
                          : (!strcmp(want, "cpu") || !strcmp(want, "CPU")) ? CL_DEVICE_TYPE_CPU
                                                                           : 0;
    cl_device_id first = NULL;
    for (cl_uint p = 0; p < np; p++) {
        cl_device_id devs[MAX_IDS];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAX_IDS, devs, &nd) != CL_SUCCESS) continue;
        if (nd > MAX_IDS) nd = MAX_IDS;
        for (cl_uint d = 0; d < nd; d++) {
            cl_device_type t = 0;
            char name[256] = "";
            clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof t, &t, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof name, name, NULL);
            name[sizeof name - 1] = '\0';
            if (!first) first = devs[d];
            if (by_index ? (p == wp && d == wd) : type ? (t & type) != 0 : contains_nocase(name, want))
                return devs[d];
        }
    }
    if (unset && first) return first;
    fprintf(stderr, "clblast_gemm: no OpenCL device matches CLDNN_DEVICE=%s\n", unset ? "" : want);
    return NULL;
}

/* A buffer of n floats filled from blk (see the file comment), or NULL after printing why. */
static cl_mem make_buffer(cl_context ctx, cl_command_queue q, size_t n, const float* blk) {
    cl_int e = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &e);
    if (e != CL_SUCCESS) {
        fprintf(stderr, "clblast_gemm: clCreateBuffer(%zu bytes): %d\n", n * sizeof(float), (int)e);
        return NULL;
    }
    size_t done = n < GEMM_BLOCK ? n : GEMM_BLOCK;
    e = clEnqueueWriteBuffer(q, m, CL_TRUE, 0, done * sizeof(float), blk, 0, NULL, NULL);
    while (e == CL_SUCCESS && done < n) {
        size_t c = n - done < done ? n - done : done;
        e = clEnqueueCopyBuffer(q, m, m, 0, done * sizeof(float), c * sizeof(float), 0, NULL, NULL);
        done += c;
    }
    if (e == CL_SUCCESS) e = clFinish(q);
    if (e != CL_SUCCESS) {
        fprintf(stderr, "clblast_gemm: filling a buffer: %d\n", (int)e);
        clReleaseMemObject(m);
        return NULL;
    }
    return m;
}

/* One shape's operands. */
typedef struct {
    cl_command_queue q;
    const gemm_shape* s;
    size_t lda, ldb, ldc, sa, sb, sc;
    cl_mem a, b, c;
} call_args;

/* Enqueues one call; returns CLBlast's status. */
static CLBlastStatusCode call_once(call_args* x) {
    const gemm_shape* s = x->s;
    CLBlastTranspose ta = s->ta ? CLBlastTransposeYes : CLBlastTransposeNo;
    CLBlastTranspose tb = s->tb ? CLBlastTransposeYes : CLBlastTransposeNo;
    if (s->batch == 1)
        return CLBlastSgemm(CLBlastLayoutColMajor, ta, tb, (size_t)s->m, (size_t)s->n, (size_t)s->k, 1.0f, x->a, 0,
                            x->lda, x->b, 0, x->ldb, 0.0f, x->c, 0, x->ldc, &x->q, NULL);
    return CLBlastSgemmStridedBatched(CLBlastLayoutColMajor, ta, tb, (size_t)s->m, (size_t)s->n, (size_t)s->k, 1.0f,
                                      x->a, 0, x->lda, x->sa, x->b, 0, x->ldb, x->sb, 0.0f, x->c, 0, x->ldc, x->sc,
                                      (size_t)s->batch, &x->q, NULL);
}

/* Runs n calls and a clFinish; returns the elapsed seconds (< 0 after printing a failure). */
static double timed_calls(call_args* x, long long n) {
    double t0 = gemm_now_s();
    for (long long i = 0; i < n; i++) {
        CLBlastStatusCode st = call_once(x);
        if (st != CLBlastSuccess) {
            fprintf(stderr, "clblast_gemm: CLBlastSgemm: status %d\n", (int)st);
            clFinish(x->q);
            return -1;
        }
    }
    cl_int e = clFinish(x->q);
    if (e != CL_SUCCESS) {
        fprintf(stderr, "clblast_gemm: clFinish: %d\n", (int)e);
        return -1;
    }
    return gemm_now_s() - t0;
}

/* Measures shape s and prints its result line. Returns 0, or 1 when it failed. */
static int run_shape(cl_context ctx, cl_command_queue q, const gemm_shape* s, const float* const blk[3],
                     double target_ms, int warmup) {
    call_args x;
    memset(&x, 0, sizeof x);
    x.q = q;
    x.s = s;
    /* column-major stored shapes: A (ta ? k x m : m x k), B (tb ? n x k : k x n), C m x n */
    x.lda = (size_t)(s->ta ? s->k : s->m);
    x.ldb = (size_t)(s->tb ? s->n : s->k);
    x.ldc = (size_t)s->m;
    x.sa = (size_t)(s->m * s->k);
    x.sb = (size_t)(s->k * s->n);
    x.sc = (size_t)(s->m * s->n);
    int rc = 1;
    const char* why = "buffers";
    size_t nb = (size_t)s->batch;
    if (!(x.a = make_buffer(ctx, q, x.sa * nb, blk[0])) || !(x.b = make_buffer(ctx, q, x.sb * nb, blk[1])) ||
        !(x.c = make_buffer(ctx, q, x.sc * nb, blk[2])))
        goto out;
    why = "call";
    if (timed_calls(&x, warmup) < 0) goto out;
    double per = -1;
    for (long long n = 1;; n *= 4) {
        double el = timed_calls(&x, n);
        if (el < 0) goto out;
        per = el / (double)n;
        if (el >= 20e-3 || n >= 16384) break;
    }
    long long iters = gemm_iters_for(per, target_ms, REPS);
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        double el = timed_calls(&x, iters);
        if (el < 0) goto out;
        t[r] = el * 1e3 / (double)iters;
    }
    gemm_print_result("clblast", s, gemm_median(t, REPS), iters, NULL);
    rc = 0;
out:
    if (rc) gemm_print_result("clblast", s, -1, 0, why);
    if (x.a) clReleaseMemObject(x.a);
    if (x.b) clReleaseMemObject(x.b);
    if (x.c) clReleaseMemObject(x.c);
    return rc;
}

/* Parses the command line, opens the device, runs every shape. */
int main(int argc, char** argv) {
    const char* file = NULL;
    double target_ms = 50;
    int warmup = 3;
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
        fprintf(stderr, "clblast_gemm: %s\n", err);
        return 2;
    }
    cl_device_id dev = pick_device();
    if (!dev) {
        free(shapes);
        return 1;
    }
    cl_int e = CL_SUCCESS;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_command_queue q = e == CL_SUCCESS ? clCreateCommandQueue(ctx, dev, 0, &e) : NULL;
    if (e != CL_SUCCESS) {
        fprintf(stderr, "clblast_gemm: context / queue: %d\n", (int)e);
        free(shapes);
        return 1;
    }
    char name[256] = "?", drv[128] = "?";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof drv, drv, NULL);
    name[sizeof name - 1] = drv[sizeof drv - 1] = '\0';
    printf("# device: %s\n# driver: %s\n", name, drv);
    printf("# CLBlast (C API, CLBlastSgemm); column-major, minimum ld, alpha 1, beta 0\n");
    printf("# timing: host clock around clFinish, %d warm-up, 5 repetitions of ~%g ms in all, median\n", warmup,
           target_ms);
    printf("# tool m n k a_t b_t batch ms tflops iters\n");
    fflush(stdout);

    float* blk[3] = {malloc(GEMM_BLOCK * sizeof(float)), malloc(GEMM_BLOCK * sizeof(float)),
                     malloc(GEMM_BLOCK * sizeof(float))};
    if (!blk[0] || !blk[1] || !blk[2]) {
        fprintf(stderr, "clblast_gemm: out of host memory\n");
        return 1;
    }
    for (int i = 0; i < 3; i++) gemm_fill_block(blk[i], GEMM_BLOCK, 1000 + (uint64_t)i);
    const float* cblk[3] = {blk[0], blk[1], blk[2]};
    int fails = 0;
    for (int i = 0; i < count; i++) fails += run_shape(ctx, q, &shapes[i], cblk, target_ms, warmup);
    CLBlastClearCache();
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    for (int i = 0; i < 3; i++) free(blk[i]);
    free(shapes);
    return fails ? 1 : 0;
}
