/*
** cldnn-tune: searches a solver's declared parameter space on the current device and prints
** the winners as rows of the library's parameter tables.
**
**   cldnn-tune gemm [--shapes FILE | -m M -n N -k K --transA 0|1 --transB 0|1]
**                   [--budget SECONDS] [--iters N] [--quiet]
**
** For each shape (column-major, cuBLAS semantics; FILE is a CSV with a header and columns
** m,n,k,a_t,b_t), the table's current choice runs first as the reference: it is verified against
** a double-precision dot product on a sample of C's elements, and every candidate of the space
** (cldnn_gemm_param_space) must then match the reference's C within 1e-5 * sqrt(k) of C's range
** or it is rejected. Candidates are timed with the host clock around clFinish (warm-up, then
** repetitions of enough calls to pass 20 ms; the median). The search for one shape stops at the
** budget (default 120 s) and reports the best so far. Tiles more than twice the problem's
** size (rounded up to a power of two) are skipped. Progress goes to stderr; the result lines
** go to stdout:
**     best <shape> class <class> <params> <TFLOP/s> (default <params> <TFLOP/s>, x<speedup>)
** The device is CLDNN_DEVICE's (see the README). Links the static library for the internal
** parameter API.
*/
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    long long m, n, k;
    int ta, tb;
} shape;

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static float frand(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)((double)(rng_state >> 11) / 9007199254740992.0) * 2.0f - 1.0f;
}

static int load_shapes(const char* path, shape* out, int max) {
    FILE* f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "cldnn-tune: cannot open %s\n", path);
        return -1;
    }
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        long long m, nn, k;
        char a, b;
        if (sscanf(line, "%lld,%lld,%lld,%c,%c", &m, &nn, &k, &a, &b) == 5) {
            out[n].m = m;
            out[n].n = nn;
            out[n].k = k;
            out[n].ta = a == 'T';
            out[n].tb = b == 'T';
            n++;
        }
    }
    fclose(f);
    return n;
}

/* Times params on the problem: median seconds per call, or a negative value on failure. */
static double time_params(cldnnHandle_t h, const cldnn_gemm_problem* pr, const cldnn_gemm_params* p,
                          const cldnn_gemm_buffers* b, int iters) {
    if (cldnn_gemm_run_params(h, pr, p, b) != CLDNN_STATUS_SUCCESS || clFinish(h->queue) != CL_SUCCESS)
        return -1.0;
    double t0 = now_s();
    if (cldnn_gemm_run_params(h, pr, p, b) != CLDNN_STATUS_SUCCESS || clFinish(h->queue) != CL_SUCCESS)
        return -1.0;
    double one = now_s() - t0;
    int reps = (int)(0.02 / (one > 1e-6 ? one : 1e-6)) + 1;
    if (reps > iters)
        reps = iters;
    double t[5];
    for (int r = 0; r < 5; ++r) {
        double s = now_s();
        for (int i = 0; i < reps; ++i)
            cldnn_gemm_run_params(h, pr, p, b);
        clFinish(h->queue);
        t[r] = (now_s() - s) / reps;
    }
    qsort(t, 5, sizeof t[0], cmp_double);
    return t[2];
}

static int tune_gemm(cldnnHandle_t h, const shape* s, double budget, int iters, int quiet) {
    cldnn_gemm_problem pr;
    memset(&pr, 0, sizeof pr);
    pr.m = s->m;
    pr.n = s->n;
    pr.k = s->k;
    pr.trans_a = s->ta;
    pr.trans_b = s->tb;
    pr.lda = s->ta ? s->k : s->m;
    pr.ldb = s->tb ? s->n : s->k;
    pr.ldc = s->m;
    pr.batch = 1;
    pr.alpha = 1.0f;
    pr.beta = 0.0f;
    size_t na = (size_t)(s->m * s->k), nb = (size_t)(s->k * s->n), nc = (size_t)(s->m * s->n);
    float* A = malloc(na * 4);
    float* B = malloc(nb * 4);
    float* Cref = malloc(nc * 4);
    float* C = malloc(nc * 4);
    if (!A || !B || !Cref || !C)
        return 1;
    for (size_t i = 0; i < na; ++i)
        A[i] = frand();
    for (size_t i = 0; i < nb; ++i)
        B[i] = frand();
    cl_int err;
    cldnn_gemm_buffers bufs;
    bufs.a = clCreateBuffer(h->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, na * 4, A, &err);
    bufs.b = clCreateBuffer(h->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nb * 4, B, &err);
    bufs.c = clCreateBuffer(h->context, CL_MEM_READ_WRITE, nc * 4, NULL, &err);
    if (!bufs.a || !bufs.b || !bufs.c) {
        fprintf(stderr, "cldnn-tune: buffer allocation failed\n");
        return 1;
    }
    cldnn_gemm_params def;
    cldnn_gemm_params_select(&pr, &h->prof, &def);
    char ds[96];
    cldnn_gemm_params_format(&def, ds, sizeof ds);
    if (cldnn_gemm_run_params(h, &pr, &def, &bufs) != CLDNN_STATUS_SUCCESS) {
        char e[2048];
        cldnnGetLastErrorString(e, sizeof e);
        fprintf(stderr, "cldnn-tune: the default %s fails: %s\n", ds, e);
        return 1;
    }
    clEnqueueReadBuffer(h->queue, bufs.c, CL_TRUE, 0, nc * 4, Cref, 0, NULL, NULL);
    /* Verify the reference on a sample against double dot products. */
    double cmax = 0.0;
    for (size_t i = 0; i < nc; ++i)
        cmax = fmax(cmax, fabs(Cref[i]));
    for (int t = 0; t < 256; ++t) {
        long long i = (long long)(((uint64_t)(frand() + 1.0f) * 0.5 * (double)s->m)) % s->m;
        long long j = (long long)(((double)(frand() + 1.0f) * 0.5 * (double)s->n)) % s->n;
        double acc = 0.0, mag = 0.0;
        for (long long p = 0; p < s->k; ++p) {
            double a = s->ta ? A[p + i * pr.lda] : A[i + p * pr.lda];
            double b = s->tb ? B[j + p * pr.ldb] : B[p + j * pr.ldb];
            acc += a * b;
            mag += fabs(a * b);
        }
        double got = Cref[i + j * pr.ldc];
        if (fabs(got - acc) > 4.0 * 5.96e-8 * sqrt((double)s->k) * mag + 1e-30) {
            fprintf(stderr, "cldnn-tune: the default parameters give C(%lld,%lld) = %.9g, want %.9g\n", i, j, got, acc);
            return 1;
        }
    }
    double t_def = time_params(h, &pr, &def, &bufs, iters);
    double flops = 2.0 * (double)s->m * (double)s->n * (double)s->k;

    static cldnn_gemm_params space[4096];
    size_t nspace = cldnn_gemm_param_space(&h->prof, space, 4096);
    if (nspace > 4096)
        nspace = 4096;
    cldnn_gemm_params best = def;
    double t_best = t_def;
    double start = now_s();
    size_t tried = 0, rejected = 0, failed = 0;
    /* Tiles more than twice the problem (rounded up to a power of two) only compute padding. */
    long long mcap = 16, ncap = 16;
    while (mcap < s->m)
        mcap *= 2;
    while (ncap < s->n)
        ncap *= 2;
    for (size_t c = 0; c < nspace; ++c) {
        if (space[c].mwg > 2 * mcap || space[c].nwg > 2 * ncap)
            continue;
        if (now_s() - start > budget) {
            fprintf(stderr, "  budget of %.0f s reached after %zu of %zu candidates\n", budget, c, nspace);
            break;
        }
        char ps[96];
        cldnn_gemm_params_format(&space[c], ps, sizeof ps);
        clEnqueueFillBuffer(h->queue, bufs.c, &(cl_float){NAN}, sizeof(cl_float), 0, nc * 4, 0, NULL, NULL);
        if (cldnn_gemm_run_params(h, &pr, &space[c], &bufs) != CLDNN_STATUS_SUCCESS) {
            failed++;
            if (!quiet)
                fprintf(stderr, "  [%zu/%zu] %-34s failed\n", c + 1, nspace, ps);
            continue;
        }
        clEnqueueReadBuffer(h->queue, bufs.c, CL_TRUE, 0, nc * 4, C, 0, NULL, NULL);
        double tol = 1e-5 * sqrt((double)s->k) * (cmax > 0 ? cmax : 1.0), worst = 0.0;
        for (size_t i = 0; i < nc; ++i) {
            double d = fabs((double)C[i] - (double)Cref[i]);
            if (!(d <= worst))
                worst = isnan(d) ? INFINITY : d;
        }
        tried++;
        if (!(worst <= tol)) {
            rejected++;
            fprintf(stderr, "  [%zu/%zu] %-34s REJECTED (max diff %.3g > %.3g)\n", c + 1, nspace, ps, worst, tol);
            continue;
        }
        double t = time_params(h, &pr, &space[c], &bufs, iters);
        if (t <= 0) {
            failed++;
            continue;
        }
        if (t < t_best) {
            t_best = t;
            best = space[c];
        }
        if (!quiet)
            fprintf(stderr, "  [%zu/%zu] %-34s %8.3f ms %7.2f TFLOP/s (best %.2f)\n", c + 1, nspace, ps, t * 1e3,
                    flops / t * 1e-12, flops / t_best * 1e-12);
    }
    char bs[96];
    cldnn_gemm_params_format(&best, bs, sizeof bs);
    printf("best %lldx%lldx%lld %c%c class %s %s %.2f TFLOP/s (default %s %.2f TFLOP/s, x%.2f) [%zu tried, %zu "
           "rejected, %zu failed]\n",
           s->m, s->n, s->k, s->ta ? 'T' : 'N', s->tb ? 'T' : 'N', cldnn_gemm_class_name(cldnn_gemm_classify(&pr)), bs,
           flops / t_best * 1e-12, ds, flops / t_def * 1e-12, t_def / t_best, tried, rejected, failed);
    printf("    table row: {%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d}\n", best.mwg, best.nwg, best.kwg, best.mdimc,
           best.ndimc, best.vwm, best.vwn, best.vwa, best.vwb, best.pada, best.padb);
    fflush(stdout);
    clReleaseMemObject(bufs.a);
    clReleaseMemObject(bufs.b);
    clReleaseMemObject(bufs.c);
    free(A);
    free(B);
    free(C);
    free(Cref);
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 2 || strcmp(argv[1], "gemm") != 0) {
        fprintf(stderr, "usage: cldnn-tune gemm [--shapes FILE | -m M -n N -k K --transA 0|1 --transB 0|1] "
                        "[--budget SECONDS] [--iters N] [--quiet]\n");
        return 2;
    }
    static shape shapes[1024];
    int nshapes = 0;
    shape one = {1024, 1024, 1024, 0, 0};
    double budget = 120.0;
    int iters = 50, quiet = 0;
    for (int i = 2; i < argc; ++i) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
            continue;
        }
        if (v == NULL) {
            fprintf(stderr, "cldnn-tune: %s needs a value\n", a);
            return 2;
        }
        ++i;
        if (strcmp(a, "--shapes") == 0) {
            nshapes = load_shapes(v, shapes, 1024);
            if (nshapes < 0)
                return 2;
        } else if (strcmp(a, "-m") == 0) {
            one.m = atoll(v);
        } else if (strcmp(a, "-n") == 0) {
            one.n = atoll(v);
        } else if (strcmp(a, "-k") == 0) {
            one.k = atoll(v);
        } else if (strcmp(a, "--transA") == 0) {
            one.ta = atoi(v);
        } else if (strcmp(a, "--transB") == 0) {
            one.tb = atoi(v);
        } else if (strcmp(a, "--budget") == 0) {
            budget = atof(v);
        } else if (strcmp(a, "--iters") == 0) {
            iters = atoi(v);
        } else {
            fprintf(stderr, "cldnn-tune: unknown flag %s\n", a);
            return 2;
        }
    }
    if (nshapes == 0)
        shapes[nshapes++] = one;
    cldnnHandle_t h;
    if (cldnnCreateDefault(&h) != CLDNN_STATUS_SUCCESS) {
        char e[1024];
        cldnnGetLastErrorString(e, sizeof e);
        fprintf(stderr, "cldnn-tune: %s\n", e);
        return 1;
    }
    cldnn_gemm_params tmp[1];
    printf("# cldnn-tune gemm on %s (driver %s, %u compute units); space of %zu candidates\n", h->prof.name,
           h->prof.driver, (unsigned)h->prof.compute_units, cldnn_gemm_param_space(&h->prof, tmp, 0));
    int status = 0;
    for (int i = 0; i < nshapes; ++i) {
        fprintf(stderr, "shape %d/%d: %lldx%lldx%lld %c%c\n", i + 1, nshapes, shapes[i].m, shapes[i].n, shapes[i].k,
                shapes[i].ta ? 'T' : 'N', shapes[i].tb ? 'T' : 'N');
        status |= tune_gemm(h, &shapes[i], budget, iters, quiet);
    }
    cldnnDestroy(h);
    return status;
}
