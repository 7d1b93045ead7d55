/*
** common.c: device, buffer, timing, copy-bandwidth and reporting helpers of cldnn-bench.
**
** The device is always the library's: cldnnCreateDefault (CLDNN_DEVICE picks it) and the
** context and device of the handle's queue, so the bench measures exactly what a caller of
** cldnnCreateDefault gets. Everything here is single-threaded and blocking except the timed
** enqueues; host clocks are CLOCK_MONOTONIC.
*/
#include "common.h"
#include "gemm_shapes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------ flags */

/* Index of the last occurrence of flag name in args, or -1. */
static int arg_find(const bench_args* args, const char* name) {
    for (int i = args->count - 1; i >= 0; i--)
        if (strcmp(args->name[i], name) == 0) return i;
    return -1;
}

/* The default of name in table t (NULL-terminated), or NULL; *found tells whether it is there. */
static const char* table_default(const bench_flag* t, const char* name, int* found) {
    for (; t && t->name; t++)
        if (strcmp(t->name, name) == 0) {
            *found = 1;
            return t->defval;
        }
    return NULL;
}

const char* bench_arg_str(const bench_args* args, const char* name) {
    int i = arg_find(args, name);
    if (i >= 0) return args->value[i];
    int found = 0;
    const char* d = table_default(args->mode_flags, name, &found);
    if (found) return d;
    return table_default(bench_common_flags, name, &found);
}

int bench_arg_given(const bench_args* args, const char* name) { return arg_find(args, name) >= 0; }

double bench_arg_double(const bench_args* args, const char* name, double fallback) {
    const char* s = bench_arg_str(args, name);
    return s ? strtod(s, NULL) : fallback;
}

long long bench_arg_int(const bench_args* args, const char* name, long long fallback) {
    const char* s = bench_arg_str(args, name);
    return s ? strtoll(s, NULL, 10) : fallback;
}

/* ----------------------------------------------------------------- errors */

/* The name of an OpenCL error code (the common ones), else "CL error". */
static const char* cl_err_name(cl_int e) {
    switch (e) {
    case CL_SUCCESS: return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
    case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_OPERATION: return "CL_INVALID_OPERATION";
    case CL_MEM_COPY_OVERLAP: return "CL_MEM_COPY_OVERLAP";
    default: return "CL error";
    }
}

void bench_print_status(const char* what, cldnnStatus_t st) {
    char detail[1024];
    cldnnGetLastErrorString(detail, sizeof detail);
    fprintf(stderr, "cldnn-bench: %s: %s (%d)%s%s\n", what, cldnnGetErrorString(st), (int)st,
            detail[0] ? ": " : "", detail);
}

void bench_print_cl(const char* what, cl_int err) {
    fprintf(stderr, "cldnn-bench: %s: %s (%d)\n", what, cl_err_name(err), (int)err);
}

/* ----------------------------------------------------------------- device */

/* Reads a string device/platform info into buf (NUL-terminated), "?" on failure. */
static void dev_str(cl_device_id d, cl_device_info what, char* buf, size_t size) {
    if (clGetDeviceInfo(d, what, size, buf, NULL) != CL_SUCCESS) snprintf(buf, size, "?");
    buf[size - 1] = '\0';
}

int bench_ctx_open(bench_ctx* ctx) {
    memset(ctx, 0, sizeof *ctx);
    cldnnStatus_t st = cldnnCreateDefault(&ctx->handle);
    if (st != CLDNN_STATUS_SUCCESS) {
        bench_print_status("cldnnCreateDefault", st);
        ctx->handle = NULL;
        return 1;
    }
    st = cldnnGetQueue(ctx->handle, &ctx->queue);
    if (st != CLDNN_STATUS_SUCCESS) {
        bench_print_status("cldnnGetQueue", st);
        return 1;
    }
    cl_int e = clGetCommandQueueInfo(ctx->queue, CL_QUEUE_CONTEXT, sizeof ctx->context, &ctx->context, NULL);
    if (e == CL_SUCCESS)
        e = clGetCommandQueueInfo(ctx->queue, CL_QUEUE_DEVICE, sizeof ctx->device, &ctx->device, NULL);
    if (e != CL_SUCCESS) {
        bench_print_cl("clGetCommandQueueInfo", e);
        return 1;
    }
    dev_str(ctx->device, CL_DEVICE_NAME, ctx->device_name, sizeof ctx->device_name);
    dev_str(ctx->device, CL_DRIVER_VERSION, ctx->driver, sizeof ctx->driver);
    cl_platform_id plat = NULL;
    snprintf(ctx->platform, sizeof ctx->platform, "?");
    if (clGetDeviceInfo(ctx->device, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL) == CL_SUCCESS &&
        clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof ctx->platform, ctx->platform, NULL) != CL_SUCCESS)
        snprintf(ctx->platform, sizeof ctx->platform, "?");
    ctx->platform[sizeof ctx->platform - 1] = '\0';
    cl_uint cus = 0;
    cl_ulong gmem = 0;
    clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    clGetDeviceInfo(ctx->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gmem, &gmem, NULL);
    size_t v = cldnnGetVersion();
    printf("# device: %s\n# driver: %s\n# platform: %s (%u compute units, %.1f GiB)\n# cldnn: %zu.%zu.%zu\n",
           ctx->device_name, ctx->driver, ctx->platform, (unsigned)cus, (double)gmem / (1 << 30), v / 10000,
           v / 100 % 100, v % 100);
    return 0;
}

void bench_ctx_close(bench_ctx* ctx) {
    if (ctx->queue) clFinish(ctx->queue);
    if (ctx->handle) cldnnDestroy(ctx->handle);
    memset(ctx, 0, sizeof *ctx);
}

/* ---------------------------------------------------------------- buffers */

cl_mem bench_buffer(bench_ctx* ctx, size_t bytes) {
    cl_int e = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &e);
    if (e != CL_SUCCESS || !m) {
        char what[64];
        snprintf(what, sizeof what, "clCreateBuffer(%zu bytes)", bytes);
        bench_print_cl(what, e);
        return NULL;
    }
    return m;
}

void bench_release(cl_mem mem) {
    if (mem) clReleaseMemObject(mem);
}

void* bench_alloc(size_t n, size_t sz) {
    void* p = (n && sz) ? malloc(n * sz) : NULL;
    if (!p) fprintf(stderr, "cldnn-bench: out of host memory (%zu x %zu bytes)\n", n, sz);
    return p;
}

/* IEEE binary16 conversions: the baselines' shared ones (perf/baselines/gemm_shapes.c), so that
** cldnn-bench and cublas_gemm round the same data the same way. */
static uint16_t f2h(float f) { return gemm_float_to_half(f); }
static float h2f(uint16_t h) { return gemm_half_to_float(h); }

float bench_half_to_float(uint16_t h) { return h2f(h); }

/* bfloat16: a float's high half, rounded to nearest even (NaN kept quiet), as the kernels store. */
static uint16_t f2b(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
static float b2f(uint16_t b) {
    const uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The 16-bit encoding of f in dtype (HALF or BFLOAT16) and the float value of such bits. */
static uint16_t to16(cldnnDataType_t dtype, float f) { return dtype == CLDNN_DATA_HALF ? f2h(f) : f2b(f); }
static float from16(cldnnDataType_t dtype, uint16_t b) { return dtype == CLDNN_DATA_HALF ? h2f(b) : b2f(b); }

float bench_bits16_to_float(cldnnDataType_t dtype, uint16_t b) { return from16(dtype, b); }

double bench_round_tol(cldnnDataType_t dtype, double want) {
    return dtype == CLDNN_DATA_HALF       ? ldexp(fabs(want), -10) + ldexp(1.0, -24)
           : dtype == CLDNN_DATA_BFLOAT16 ? ldexp(fabs(want), -7)
                                          : 0.0;
}

void bench_round(cldnnDataType_t dtype, float* p, size_t n) {
    if (dtype != CLDNN_DATA_HALF && dtype != CLDNN_DATA_BFLOAT16) return;
    for (size_t i = 0; i < n; i++) p[i] = from16(dtype, to16(dtype, p[i]));
}

int bench_upload(bench_ctx* ctx, cl_mem mem, cldnnDataType_t dtype, const float* host, size_t n) {
    cl_int e;
    if (dtype == CLDNN_DATA_HALF || dtype == CLDNN_DATA_BFLOAT16) {
        uint16_t* h = bench_alloc(n, sizeof *h);
        if (!h) return 1;
        for (size_t i = 0; i < n; i++) h[i] = to16(dtype, host[i]);
        e = clEnqueueWriteBuffer(ctx->queue, mem, CL_TRUE, 0, n * sizeof *h, h, 0, NULL, NULL);
        free(h);
    } else {
        e = clEnqueueWriteBuffer(ctx->queue, mem, CL_TRUE, 0, n * sizeof *host, host, 0, NULL, NULL);
    }
    if (e != CL_SUCCESS) bench_print_cl("clEnqueueWriteBuffer", e);
    return e != CL_SUCCESS;
}

int bench_download(bench_ctx* ctx, cl_mem mem, cldnnDataType_t dtype, float* host, size_t n) {
    cl_int e;
    if (dtype == CLDNN_DATA_HALF || dtype == CLDNN_DATA_BFLOAT16) {
        uint16_t* h = bench_alloc(n, sizeof *h);
        if (!h) return 1;
        e = clEnqueueReadBuffer(ctx->queue, mem, CL_TRUE, 0, n * sizeof *h, h, 0, NULL, NULL);
        for (size_t i = 0; e == CL_SUCCESS && i < n; i++) host[i] = from16(dtype, h[i]);
        free(h);
    } else {
        e = clEnqueueReadBuffer(ctx->queue, mem, CL_TRUE, 0, n * sizeof *host, host, 0, NULL, NULL);
    }
    if (e != CL_SUCCESS) bench_print_cl("clEnqueueReadBuffer", e);
    return e != CL_SUCCESS;
}

/* ---------------------------------------------------------------- tensors */

ref_view bench_view(int nd, const int64_t* dims, cldnnTensorFormat_t layout) {
    ref_view v = ref_view_packed(nd, dims);
    if (layout == CLDNN_TENSOR_NHWC && nd >= 3) {
        /* memory order (slowest first): 0, 2, 3, ..., nd-1, 1 */
        int order[REF_DIM_MAX], k = 0;
        order[k++] = 0;
        for (int d = 2; d < nd; d++) order[k++] = d;
        order[k++] = 1;
        int64_t s = 1;
        for (int j = nd - 1; j >= 0; j--) {
            v.strides[order[j]] = s;
            s *= dims[order[j]];
        }
    }
    return v;
}

cldnnTensorDescriptor_t bench_desc(const ref_view* v, cldnnDataType_t dtype) {
    cldnnTensorDescriptor_t d = NULL;
    cldnnStatus_t st = cldnnCreateTensorDescriptor(&d);
    if (st != CLDNN_STATUS_SUCCESS) {
        bench_print_status("cldnnCreateTensorDescriptor", st);
        return NULL;
    }
    st = cldnnSetTensorNdDescriptor(d, dtype, v->nd, v->dims, v->strides);
    if (st != CLDNN_STATUS_SUCCESS) {
        bench_print_status("cldnnSetTensorNdDescriptor", st);
        cldnnDestroyTensorDescriptor(d);
        return NULL;
    }
    return d;
}

void bench_dims_str(int nd, const int64_t* dims, char* buf, size_t size) {
    size_t at = 0;
    buf[0] = '\0';
    for (int d = 0; d < nd && at < size; d++) {
        int k = snprintf(buf + at, size - at, d ? "x%lld" : "%lld", (long long)dims[d]);
        if (k < 0) break;
        at += (size_t)k;
    }
}

const char* bench_layout_name(cldnnTensorFormat_t layout) { return layout == CLDNN_TENSOR_NHWC ? "NHWC" : "NCHW"; }

const char* bench_dtype_name(cldnnDataType_t dtype) {
    return dtype == CLDNN_DATA_HALF ? "half" : dtype == CLDNN_DATA_BFLOAT16 ? "bfloat16" : "float";
}

int bench_parse_math(const char* mode, const char* name, cldnnMathType_t* out) {
    if (!strcmp(name, "default")) *out = CLDNN_DEFAULT_MATH;
    else if (!strcmp(name, "tensor")) *out = CLDNN_TENSOR_OP_MATH;
    else if (!strcmp(name, "fma")) *out = CLDNN_FMA_MATH;
    else {
        fprintf(stderr, "cldnn-bench %s: --math %s: expected default, tensor or fma\n", mode, name);
        return 2;
    }
    return 0;
}

void bench_walk_init(bench_walk* w, int nd, const int64_t* dims, int nv, const ref_view* const* views) {
    memset(w, 0, sizeof *w);
    w->nd = nd;
    w->nv = nv;
    for (int d = 0; d < nd; d++) w->dims[d] = dims[d];
    for (int k = 0; k < nv; k++)
        for (int d = 0; d < nd; d++)
            w->strides[k][d] = (views[k]->dims[d] == 1 && dims[d] != 1) ? 0 : views[k]->strides[d];
}

void bench_walk_next(bench_walk* w) {
    for (int d = w->nd - 1; d >= 0; d--) {
        if (++w->idx[d] < w->dims[d]) {
            for (int k = 0; k < w->nv; k++) w->off[k] += w->strides[k][d];
            return;
        }
        w->idx[d] = 0;
        for (int k = 0; k < w->nv; k++) w->off[k] -= w->strides[k][d] * (w->dims[d] - 1);
    }
}

/* ----------------------------------------------------------------- timing */

/* Seconds on the monotonic clock. */
static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* qsort comparator for doubles. */
static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

int bench_time_us(bench_ctx* ctx, const bench_opts* opts, bench_call_fn fn, void* user, double* us) {
    cldnnStatus_t st;
    for (int i = 0; i < opts->warmup; i++)
        if ((st = fn(user)) != CLDNN_STATUS_SUCCESS) goto failed;
    cl_int e = clFinish(ctx->queue);
    if (e != CL_SUCCESS) goto cl_failed;
    double t[BENCH_REPS];
    for (int r = 0; r < BENCH_REPS; r++) {
        double t0 = now_s();
        for (int i = 0; i < opts->iters; i++)
            if ((st = fn(user)) != CLDNN_STATUS_SUCCESS) goto failed;
        if ((e = clFinish(ctx->queue)) != CL_SUCCESS) goto cl_failed;
        t[r] = (now_s() - t0) / opts->iters;
    }
    qsort(t, BENCH_REPS, sizeof t[0], cmp_double);
    *us = 1e6 * t[BENCH_REPS / 2];
    return 0;
failed:
    bench_print_status("timed call", st);
    clFinish(ctx->queue);
    return 1;
cl_failed:
    bench_print_cl("clFinish", e);
    return 1;
}

int bench_note_status(bench_result* res, const char* what, cldnnStatus_t st) {
    bench_print_status(what, st);
    snprintf(res->note, sizeof res->note, "%s: %s", what, cldnnGetErrorString(st));
    return CLDNN_STATUS_CATEGORY(st) != CLDNN_STATUS_NOT_SUPPORTED;
}

int bench_time_result(bench_ctx* ctx, const bench_opts* opts, bench_call_fn fn, void* user, size_t copy_bytes,
                      bench_result* res) {
    if (bench_time_us(ctx, opts, fn, user, &res->us)) {
        res->us = -1;
        snprintf(res->note, sizeof res->note, "timed call failed");
        return 1;
    }
    if (bench_copy_gbs(ctx, opts, copy_bytes, &res->copy_gbs)) res->copy_gbs = -1;
    return 0;
}

/* What a timed copy needs. */
typedef struct {
    cl_command_queue q;
    cl_mem src, dst;
    size_t bytes;
} copy_call;

/* Enqueues one clEnqueueCopyBuffer; an OpenCL failure is printed and mapped to EXECUTION_FAILED_OPENCL. */
static cldnnStatus_t copy_once(void* user) {
    copy_call* c = user;
    cl_int e = clEnqueueCopyBuffer(c->q, c->src, c->dst, 0, 0, c->bytes, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        bench_print_cl("clEnqueueCopyBuffer", e);
        return CLDNN_STATUS_EXECUTION_FAILED_OPENCL;
    }
    return CLDNN_STATUS_SUCCESS;
}

int bench_copy_gbs(bench_ctx* ctx, const bench_opts* opts, size_t bytes, double* gbs) {
    if (ctx->copy_bytes == bytes && ctx->copy_gbs > 0) {
        *gbs = ctx->copy_gbs;
        return 0;
    }
    copy_call c = {ctx->queue, bench_buffer(ctx, bytes), NULL, bytes};
    int rc = 1;
    if (!c.src || !(c.dst = bench_buffer(ctx, bytes))) goto out;
    const unsigned char zero = 0;
    cl_int e = clEnqueueFillBuffer(ctx->queue, c.src, &zero, 1, 0, bytes, 0, NULL, NULL);
    if (e == CL_SUCCESS) e = clEnqueueFillBuffer(ctx->queue, c.dst, &zero, 1, 0, bytes, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        bench_print_cl("clEnqueueFillBuffer", e);
        goto out;
    }
    double us;
    if (bench_time_us(ctx, opts, copy_once, &c, &us)) goto out;
    ctx->copy_bytes = bytes;
    ctx->copy_gbs = *gbs = 2.0 * (double)bytes / (us * 1e3);
    rc = 0;
out:
    bench_release(c.src);
    bench_release(c.dst);
    return rc;
}

/* ---------------------------------------------------------------- results */

void bench_result_init(bench_result* r, const char* mode, const bench_opts* opts) {
    memset(r, 0, sizeof *r);
    r->mode = mode;
    bench_dims_str(opts->nd, opts->dims, r->dims, sizeof r->dims);
    r->layout = bench_layout_name(opts->layout);
    r->dtype = bench_dtype_name(opts->dtype);
    r->alpha = opts->alpha;
    r->beta = opts->beta;
    r->us = -1;
    r->copy_gbs = -1;
}

void bench_report_header(void) {
    printf("| mode | op | dims | layout | type | alpha | beta | MB moved | time (us) | GB/s | copy GB/s | "
           "ratio | verify (max rel err, max err/tol) |\n");
    printf("|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
}

void bench_report(const bench_opts* opts, const bench_result* r) {
    char t[32] = "-", g[32] = "-", c[32] = "-", q[32] = "-", v[224] = "-";
    double gbs = r->us > 0 ? r->bytes / (r->us * 1e3) : -1;
    if (r->us > 0) snprintf(t, sizeof t, "%.1f", r->us);
    if (gbs > 0) snprintf(g, sizeof g, "%.1f", gbs);
    if (r->copy_gbs > 0) snprintf(c, sizeof c, "%.1f", r->copy_gbs);
    if (gbs > 0 && r->copy_gbs > 0) snprintf(q, sizeof q, "%.3f", gbs / r->copy_gbs);
    if (r->check == BENCH_CHECK_PASS) snprintf(v, sizeof v, "PASS (%.2e, %.2f)", r->max_rel, r->tol_use);
    else if (r->check == BENCH_CHECK_FAIL)
        snprintf(v, sizeof v, "FAIL (%.2e, %.3g; %lld bad)", r->max_rel, r->tol_use, (long long)r->bad);
    if (r->note[0]) snprintf(v + strlen(v), sizeof v - strlen(v), " %s", r->note);
    if (opts->md)
        printf("| %s | %s | %s | %s | %s | %g | %g | %.2f | %s | %s | %s | %s | %s |\n", r->mode, r->op, r->dims,
               r->layout, r->dtype, r->alpha, r->beta, r->bytes / 1e6, t, g, c, q, v);
    else
        printf("%-6s %-26s %s %s %s A=%g B=%g  %.2f MB  %s us  %s GB/s  copy %s GB/s  ratio %s  verify %s\n",
               r->mode, r->op, r->dims, r->layout, r->dtype, r->alpha, r->beta, r->bytes / 1e6, t, g, c, q, v);
    fflush(stdout);
}

int64_t bench_check_scaled(const bench_opts* opts, const char* mode, const char* what, const float* got,
                           const ref_view* v, const double* want, const double* scale, int64_t n, double rfac,
                           bench_result* res) {
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < n; i++) {
        double g = got[v ? ref_view_offset(v, i) : i], err, tol = opts->atol + rfac * opts->rtol * scale[i];
        int ok = ref_close(g, want[i], tol, &err);
        double rel = want[i] != 0.0 ? err / fabs(want[i]) : err;
        if (rel > res->max_rel) res->max_rel = rel;
        if (err / tol > res->tol_use) res->tol_use = err / tol;
        if (!ok && bad++ == 0) first = i;
    }
    if (bad)
        fprintf(stderr, "cldnn-bench: %s %s: %s: %lld of %lld outside tolerance; first at %lld: got %.9g want %.9g\n",
                mode, res->op, what, (long long)bad, (long long)n, (long long)first,
                (double)got[v ? ref_view_offset(v, first) : first], want[first]);
    res->bad += bad;
    res->check = res->bad ? BENCH_CHECK_FAIL : BENCH_CHECK_PASS;
    return bad;
}

int bench_check_result(const bench_opts* opts, const ref_view* v, const float* got, const double* want,
                       bench_result* r) {
    int64_t first = -1;
    double max_rel = 0;
    /* a row-major packed view compares as one flat run (ref_compare divides per element) */
    ref_view flat = ref_view_packed(v->nd, v->dims);
    int packed = 1;
    for (int d = 0; d < v->nd; d++) packed &= flat.strides[d] == v->strides[d] || v->dims[d] == 1;
    if (packed) {
        int64_t count = ref_view_count(v);
        flat = ref_view_packed(1, &count);
    }
    int64_t bad = ref_compare(packed ? &flat : v, got, want, opts->atol, opts->rtol, &first, &max_rel);
    /* how much of the tolerance the worst element uses (the max relative error alone is
    ** dominated by elements whose reference is near zero, which the absolute part covers) */
    const ref_view* views[1] = {v};
    bench_walk w;
    bench_walk_init(&w, v->nd, v->dims, 1, views);
    double use = 0;
    int64_t count = ref_view_count(v);
    for (int64_t i = 0; i < count; i++, bench_walk_next(&w)) {
        double g = got[w.off[0]], e = fabs(g - want[i]) / (opts->atol + opts->rtol * fabs(want[i]));
        if (e > use && isfinite(e)) use = e;
    }
    r->tol_use = use;
    r->max_rel = max_rel;
    r->bad = bad;
    r->check = bad ? BENCH_CHECK_FAIL : BENCH_CHECK_PASS;
    if (bad && first >= 0)
        fprintf(stderr, "cldnn-bench: %s %s: %lld of %lld elements outside %.0e abs + %.0e rel; first at %lld: "
                        "got %.9g want %.9g\n",
                r->mode, r->op, (long long)bad, (long long)ref_view_count(v), opts->atol, opts->rtol,
                (long long)first, (double)got[ref_view_offset(v, first)], want[first]);
    return bad != 0;
}

int bench_io_setup(bench_ctx* ctx, const bench_opts* opts, ref_rng* rng, size_t bytes, size_t n, int bwd, double lo,
                   double hi, cl_mem* x, cl_mem* y, cl_mem* dy, cl_mem* dx, float** hx, float** hdy) {
    if (!(*x = bench_buffer(ctx, bytes)) || !(*y = bench_buffer(ctx, bytes)))
        return 1;
    if (bwd && (!(*dy = bench_buffer(ctx, bytes)) || !(*dx = bench_buffer(ctx, bytes))))
        return 1;
    if (!(*hx = bench_alloc(n, sizeof(float))) || (bwd && !(*hdy = bench_alloc(n, sizeof(float)))))
        return 1;
    ref_fill_uniform(rng, *hx, n, lo, hi);
    bench_round(opts->dtype, *hx, n);
    if (bench_upload(ctx, *x, opts->dtype, *hx, n))
        return 1;
    if (bwd) {
        ref_fill_uniform(rng, *hdy, n, -1.0, 1.0);
        bench_round(opts->dtype, *hdy, n);
        if (bench_upload(ctx, *dy, opts->dtype, *hdy, n))
            return 1;
    }
    return 0;
}
