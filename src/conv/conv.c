/*
** conv.c: the convolution family's public face: the convolution descriptor, the validation that
** turns (descriptors, buffers) into a cldnn_conv_problem, and the loops over the solver tables
** that serve every entry point: run (the first applicable solver of the requested algorithm),
** workspace size, Get_v7 (the find-db's record, then the table order: runs nothing), Find (times
** every applicable algorithm on the caller's buffers, under the handle's find mode: db.c), the
** Prepare warm-ups (build a run's programs, enqueue nothing) and MaxCount. The tuning db's
** parameters for a problem (the implicit GEMM's, the tensor-core implicit GEMM's, the fused
** Winograd's) travel in the problem (has_tuned, has_mtuned, has_wtuned), so the workspace query,
** the run and Find agree on them.
**
** Solvers live with their kernels' families: src/conv/gemm/ (implicit GEMM, explicit
** im2col + GEMM, 1x1 as a plain GEMM) and src/conv/direct/ (depthwise, bias). Each direction's
** table lists them in preference order; an algorithm's position in Get's answer is the position
** of its first applicable solver.
**
** Invariants: a problem that validates has every size and index product below 2^31 (kernels
** index with int), dims consistent across x, w, y and the descriptor, one data type for x, w
** and y (FLOAT, or HALF as storage: solvers that cannot load or store halves are not
** applicable to it), and buffers that hold their views. Nothing here enqueues work except through a solver.
*/
#include "conv/conv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CONV_INT_MAX 0x7fffffffLL

/* ------------------------------------------------------------------ descriptor */

cldnnStatus_t cldnnCreateConvolutionDescriptor(cldnnConvolutionDescriptor_t* convDesc) {
    cldnn_error_clear();
    CLDNN_DESC_NEW(convDesc, "convDesc", "convolution");
    (*convDesc)->groups = 1;
    (*convDesc)->math = CLDNN_DEFAULT_MATH;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDestroyConvolutionDescriptor(cldnnConvolutionDescriptor_t convDesc) {
    cldnn_error_clear();
    free(convDesc);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetConvolutionNdDescriptor(cldnnConvolutionDescriptor_t d, int arrayLength, const int pad[],
                                              const int stride[], const int dilation[], cldnnConvolutionMode_t mode,
                                              cldnnDataType_t computeType) {
    cldnn_error_clear();
    if (d == NULL || pad == NULL || stride == NULL || dilation == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL",
                          d == NULL ? "convDesc" : pad == NULL ? "pad" : stride == NULL ? "stride" : "dilation");
    if (arrayLength < 1 || arrayLength > CLDNN_DIM_MAX - 2)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "arrayLength = %d is outside [1, %d]", arrayLength,
                          CLDNN_DIM_MAX - 2);
    for (int i = 0; i < arrayLength; ++i) {
        if (pad[i] < 0)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "pad[%d] = %d is negative", i, pad[i]);
        if (stride[i] < 1)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "stride[%d] = %d must be >= 1", i, stride[i]);
        if (dilation[i] < 1)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "dilation[%d] = %d must be >= 1", i,
                              dilation[i]);
    }
    if (mode != CLDNN_CONVOLUTION && mode != CLDNN_CROSS_CORRELATION)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "mode %d is not a cldnnConvolutionMode_t value",
                          (int)mode);
    if (cldnn_dtype_size(computeType) == 0)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "computeType %d is not a cldnnDataType_t value",
                          (int)computeType);
    if (computeType != CLDNN_DATA_FLOAT)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, "convolutions compute in float; got %s",
                          cldnn_dtype_name(computeType));
    d->nd = arrayLength;
    for (int i = 0; i < arrayLength; ++i) {
        d->pad[i] = pad[i];
        d->stride[i] = stride[i];
        d->dilation[i] = dilation[i];
    }
    d->mode = mode;
    d->compute = computeType;
    d->is_set = 1;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetConvolution2dDescriptor(cldnnConvolutionDescriptor_t d, int pad_h, int pad_w, int u, int v,
                                              int dilation_h, int dilation_w, cldnnConvolutionMode_t mode,
                                              cldnnDataType_t computeType) {
    const int pad[2] = {pad_h, pad_w}, stride[2] = {u, v}, dil[2] = {dilation_h, dilation_w};
    return cldnnSetConvolutionNdDescriptor(d, 2, pad, stride, dil, mode, computeType);
}

static cldnnStatus_t check_conv_desc(const struct cldnnConvolutionStruct* d, const char* what) {
    if (d == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", what);
    if (!d->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s was never set", what);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetConvolution2dDescriptor(const cldnnConvolutionDescriptor_t d, int* pad_h, int* pad_w, int* u,
                                              int* v, int* dilation_h, int* dilation_w, cldnnConvolutionMode_t* mode,
                                              cldnnDataType_t* computeType) {
    cldnn_error_clear();
    CLDNN_TRY(check_conv_desc(d, "convDesc"));
    if (!pad_h || !pad_w || !u || !v || !dilation_h || !dilation_w || !mode || !computeType)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "an output pointer is NULL");
    if (d->nd != 2)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "convDesc has %d spatial dims, not 2", d->nd);
    *pad_h = d->pad[0];
    *pad_w = d->pad[1];
    *u = d->stride[0];
    *v = d->stride[1];
    *dilation_h = d->dilation[0];
    *dilation_w = d->dilation[1];
    *mode = d->mode;
    *computeType = d->compute;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetConvolutionGroupCount(cldnnConvolutionDescriptor_t d, int groupCount) {
    cldnn_error_clear();
    if (d == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "convDesc is NULL");
    if (groupCount < 1)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "groupCount = %d must be >= 1", groupCount);
    d->groups = groupCount;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetConvolutionGroupCount(const cldnnConvolutionDescriptor_t d, int* groupCount) {
    cldnn_error_clear();
    if (d == NULL || groupCount == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", d == NULL ? "convDesc" : "groupCount");
    *groupCount = d->groups;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetConvolutionMathType(cldnnConvolutionDescriptor_t d, cldnnMathType_t mathType) {
    cldnn_error_clear();
    if (d == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "convDesc is NULL");
    if (mathType != CLDNN_DEFAULT_MATH && mathType != CLDNN_TENSOR_OP_MATH && mathType != CLDNN_FMA_MATH)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "mathType %d is not a cldnnMathType_t value",
                          (int)mathType);
    d->math = mathType;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetConvolutionMathType(const cldnnConvolutionDescriptor_t d, cldnnMathType_t* mathType) {
    cldnn_error_clear();
    if (d == NULL || mathType == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", d == NULL ? "convDesc" : "mathType");
    *mathType = d->math;
    return CLDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ shapes */

/* The 4-d shapes of a convolution from its three descriptors, checked for consistency: x's C
** equals the filter's C times the groups, the filter's K divides by the groups, the dilated
** window fits the padded input. Writes the output dims to out[4] (n, k, p, q). */
static cldnnStatus_t conv_shapes(const struct cldnnConvolutionStruct* cd, const struct cldnnTensorStruct* x,
                                 const struct cldnnFilterStruct* f, int64_t out[4]) {
    CLDNN_TRY(check_conv_desc(cd, "convDesc"));
    if (f == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "the filter descriptor is NULL");
    if (!f->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "the filter descriptor was never set");
    if (cd->nd != 2 || x->nd != 4 || f->nd != 4)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                          "2-d convolutions only: the convolution has %d spatial dims, x %d dims, the filter %d",
                          cd->nd, x->nd, f->nd);
    int64_t fc;
    if (__builtin_mul_overflow(f->dims[1], (int64_t)cd->groups, &fc) || x->dims[1] != fc)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                          "x has %lld channels but the filter's %lld input channels times %d groups is %lld",
                          (long long)x->dims[1], (long long)f->dims[1], cd->groups,
                          (long long)(f->dims[1] * cd->groups));
    if (f->dims[0] % cd->groups)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                          "the filter's %lld output channels do not divide into %d groups", (long long)f->dims[0],
                          cd->groups);
    out[0] = x->dims[0];
    out[1] = f->dims[0];
    for (int i = 0; i < 2; ++i) {
        int64_t window, padded;
        /* a dim of a 1-byte tensor may reach 2^63 - 1: the padding must not wrap it */
        if (__builtin_add_overflow(x->dims[2 + i], 2 * (int64_t)cd->pad[i], &padded))
            return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                              "the padded input of spatial dim %d (%lld + 2 x %d) exceeds 2^63 - 1", i,
                              (long long)x->dims[2 + i], cd->pad[i]);
        if (__builtin_mul_overflow(f->dims[2 + i] - 1, (int64_t)cd->dilation[i], &window) || window >= INT64_MAX / 2 ||
            ++window > padded)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                              "the dilated window (%lld) is larger than the padded input (%lld) in spatial dim %d",
                              (long long)window, (long long)padded, i);
        out[2 + i] = 1 + (padded - window) / cd->stride[i];
    }
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetConvolution2dForwardOutputDim(const cldnnConvolutionDescriptor_t convDesc,
                                                    const cldnnTensorDescriptor_t xDesc,
                                                    const cldnnFilterDescriptor_t wDesc, int* n, int* c, int* h,
                                                    int* w) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_tensor(xDesc, "inputTensorDesc"));
    if (!n || !c || !h || !w)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "an output pointer is NULL");
    int64_t out[4];
    CLDNN_TRY(conv_shapes(convDesc, xDesc, wDesc, out));
    for (int i = 0; i < 4; ++i)
        if (out[i] > CONV_INT_MAX)
            return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, "an output dim exceeds 2^31 - 1");
    *n = (int)out[0];
    *c = (int)out[1];
    *h = (int)out[2];
    *w = (int)out[3];
    return CLDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ problems */

static const char* dir_name(cldnn_conv_dir d) {
    return d == CLDNN_CONV_FWD ? "fwd" : d == CLDNN_CONV_BWD_DATA ? "bwd-data" : "bwd-filter";
}

/* Builds p from the descriptors (x is dx, y is dy for the backwards), validating shapes and,
** when check_buffers, the buffers. Buffers may be NULL when !check_buffers (Get, workspace). */
static cldnnStatus_t conv_problem(cldnnHandle_t h, cldnn_conv_dir dir, const struct cldnnTensorStruct* x,
                                  const char* xn, const struct cldnnFilterStruct* f, const char* fn,
                                  const struct cldnnConvolutionStruct* cd, const struct cldnnTensorStruct* y,
                                  const char* yn, cldnn_conv_problem* p) {
    CLDNN_TRY(cldnn_check_handle(h));
    CLDNN_TRY(cldnn_check_tensor(x, xn));
    CLDNN_TRY(cldnn_check_tensor(y, yn));
    if (f == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", fn);
    if (!f->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s was never set", fn);
    CLDNN_TRY(check_conv_desc(cd, "convDesc"));
    if (x->dtype != y->dtype || x->dtype != f->dtype)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "a convolution's tensors share one data type; %s is %s, %s %s, %s %s",
                          xn, cldnn_dtype_name(x->dtype), fn, cldnn_dtype_name(f->dtype), yn,
                          cldnn_dtype_name(y->dtype));
    if (x->dtype != CLDNN_DATA_FLOAT && x->dtype != CLDNN_DATA_HALF)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                          "convolutions take float or half data (computing in float); %s, %s and %s are %s", xn, fn,
                          yn, cldnn_dtype_name(x->dtype));
    int64_t out[4];
    CLDNN_TRY(conv_shapes(cd, x, f, out));
    if (y->nd != 4 || y->dims[0] != out[0] || y->dims[1] != out[1] || y->dims[2] != out[2] ||
        y->dims[3] != out[3]) {
        char got[64], want[64];
        cldnn_format_dims(got, sizeof got, y->nd, y->dims);
        cldnn_format_dims(want, sizeof want, 4, out);
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, "%s is %s but the convolution's output is %s", yn,
                          got, want);
    }
    /* Every size and every index product the kernels form stays below 2^31. */
    int64_t nhw = x->dims[0] * x->dims[2] * x->dims[3], npq = out[0] * out[2] * out[3];
    int64_t taps = f->dims[1] * f->dims[2] * f->dims[3];
    int64_t fsize = f->dims[0] * taps;
    int64_t xc = x->dims[0] * x->dims[1] * x->dims[2] * x->dims[3];
    int64_t yc = out[0] * out[1] * out[2] * out[3];
    if (nhw > CONV_INT_MAX || npq > CONV_INT_MAX || fsize > CONV_INT_MAX || xc > CONV_INT_MAX ||
        yc > CONV_INT_MAX || f->dims[0] * f->dims[2] * f->dims[3] > CONV_INT_MAX || x->span > CONV_INT_MAX ||
        y->span > CONV_INT_MAX)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                          "the convolution's tensors must each span fewer than 2^31 elements");
    /* The kernels mark out-of-range rows with positions near -2^30 and index in 32 bits: the padded
    ** input, the window and every GEMM dimension stay well inside that. */
    for (int i = 0; i < 2; ++i)
        if (x->dims[2 + i] + 2 * (int64_t)cd->pad[i] >= ((int64_t)1 << 29))
            return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                              "the padded input (%lld in spatial dim %d) must be below 2^29",
                              (long long)(x->dims[2 + i] + 2 * (int64_t)cd->pad[i]), i);
    if (nhw > CONV_INT_MAX - 1024 || npq > CONV_INT_MAX - 1024)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, "N*H*W and N*P*Q must be below 2^31 - 1024");
    memset(p, 0, sizeof *p);
    p->dir = dir;
    p->n = (int)x->dims[0];
    p->c = (int)x->dims[1];
    p->h = (int)x->dims[2];
    p->w = (int)x->dims[3];
    p->k = (int)f->dims[0];
    p->r = (int)f->dims[2];
    p->s = (int)f->dims[3];
    p->p = (int)out[2];
    p->q = (int)out[3];
    p->pad_h = cd->pad[0];
    p->pad_w = cd->pad[1];
    p->u = cd->stride[0];
    p->v = cd->stride[1];
    p->dil_h = cd->dilation[0];
    p->dil_w = cd->dilation[1];
    p->groups = cd->groups;
    p->flip = cd->mode == CLDNN_CONVOLUTION;
    p->cg = p->c / p->groups;
    p->kg = p->k / p->groups;
    p->kord = f->format == CLDNN_TENSOR_NHWC;
    p->math = cd->math;
    p->dtype = x->dtype;
    for (int i = 0; i < 4; ++i) {
        p->xs[i] = x->strides[i];
        p->ys[i] = y->strides[i];
    }
    p->xlayout = cldnn_tensor_layout(x);
    p->ylayout = cldnn_tensor_layout(y);
    p->dev = &h->prof;
    snprintf(p->key, sizeof p->key,
             "conv-%s:n%d-c%d-h%d-w%d-k%d-r%d-s%d-p%dx%d-u%dx%d-d%dx%d-g%d-%s-%s-%s-%s-%s-math%d", dir_name(dir), p->n,
             p->c, p->h, p->w, p->k, p->r, p->s, p->pad_h, p->pad_w, p->u, p->v, p->dil_h, p->dil_w, p->groups,
             p->xlayout ? p->xlayout : "strided", p->ylayout ? p->ylayout : "strided", p->kord ? "KRSC" : "KCRS",
             p->flip ? "conv" : "xcorr", cldnn_dtype_key(p->dtype), (int)p->math);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnn_conv_problem_init(cldnnHandle_t h, cldnn_conv_dir dir, const struct cldnnTensorStruct* x,
                                      const struct cldnnFilterStruct* f, const struct cldnnConvolutionStruct* cd,
                                      const struct cldnnTensorStruct* y, cldnn_conv_problem* p) {
    CLDNN_TRY(conv_problem(h, dir, x, "x", f, "w", cd, y, "y", p));
    p->alpha = 1.0f;
    return CLDNN_STATUS_SUCCESS;
}

/* Checks the three data buffers of p (x, w, y views) and records their offsets. */
static cldnnStatus_t conv_buffers(cldnnHandle_t h, cldnn_conv_problem* p, const struct cldnnTensorStruct* x,
                                  cl_mem xm, size_t xoff, const char* xn, const struct cldnnFilterStruct* f, cl_mem wm,
                                  size_t woff, const char* fn, const struct cldnnTensorStruct* y, cl_mem ym,
                                  size_t yoff, const char* yn) {
    CLDNN_TRY(cldnn_check_tensor_buffer(h, x, xm, xoff, xn));
    const size_t es = cldnn_dtype_size(p->dtype);
    CLDNN_TRY(cldnn_check_buffer(h, wm, woff, es, (uint64_t)f->count * es, fn));
    CLDNN_TRY(cldnn_check_tensor_buffer(h, y, ym, yoff, yn));
    p->off_x = xoff / es;
    p->off_w = woff / es;
    p->off_y = yoff / es;
    return CLDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ solver loops */

typedef struct {
    const cldnn_solver* table;
    size_t count;
    int algo_count;
    const char* const* algo_names;
} conv_family;

static const char* const fwd_algo_names[] = {"implicit_gemm", "implicit_precomp_gemm", "gemm",     "direct",
                                             "fft",           "fft_tiling",            "winograd", "winograd_nonfused"};
static const char* const bwd_data_algo_names[] = {"algo_0",     "algo_1",   "fft",
                                                  "fft_tiling", "winograd", "winograd_nonfused"};
static const char* const bwd_filter_algo_names[] = {"algo_0",   "algo_1",            "fft",       "algo_3",
                                                    "winograd", "winograd_nonfused", "fft_tiling"};

static conv_family family(cldnn_conv_dir dir) {
    conv_family f;
    if (dir == CLDNN_CONV_FWD) {
        f.table = cldnn_conv_fwd_solvers;
        f.count = cldnn_conv_fwd_solver_count;
        f.algo_count = CLDNN_CONVOLUTION_FWD_ALGO_COUNT;
        f.algo_names = fwd_algo_names;
    } else if (dir == CLDNN_CONV_BWD_DATA) {
        f.table = cldnn_conv_bwd_data_solvers;
        f.count = cldnn_conv_bwd_data_solver_count;
        f.algo_count = CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT;
        f.algo_names = bwd_data_algo_names;
    } else {
        f.table = cldnn_conv_bwd_filter_solvers;
        f.count = cldnn_conv_bwd_filter_solver_count;
        f.algo_count = CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT;
        f.algo_names = bwd_filter_algo_names;
    }
    return f;
}

/* The first applicable solver serving algo into *out; BAD_PARAM_OUT_OF_BOUND for a value outside
** the enum, NOT_SUPPORTED when no solver of algo applies, NOT_SUPPORTED_DATA_TYPE when one would
** apply to the same problem in FLOAT but none takes its HALF data. */
static cldnnStatus_t solver_for(const conv_family* fam, const cldnn_conv_problem* p, int algo,
                                const cldnn_solver** out) {
    if (algo < 0 || algo >= fam->algo_count)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "algo %d is not a value of the %s algorithm enum", algo,
                          dir_name(p->dir));
    for (size_t i = 0; i < fam->count; ++i)
        if (fam->table[i].algo == algo && fam->table[i].applicable(p, p->dev)) {
            *out = &fam->table[i];
            return CLDNN_STATUS_SUCCESS;
        }
    if (p->dtype != CLDNN_DATA_FLOAT) {
        cldnn_conv_problem f = *p;
        f.dtype = CLDNN_DATA_FLOAT;
        for (size_t i = 0; i < fam->count; ++i)
            if (fam->table[i].algo == algo && fam->table[i].applicable(&f, f.dev))
                return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                                  "algorithm %s does not take %s data (%s on %s)", fam->algo_names[algo],
                                  cldnn_dtype_name(p->dtype), p->key, p->dev->name);
    }
    return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED, "algorithm %s does not apply to %s on %s", fam->algo_names[algo],
                      p->key, p->dev->name);
}

static size_t solver_workspace(const cldnn_solver* s, const cldnn_conv_problem* p) {
    return s->workspace ? s->workspace(p) : 0;
}

/* Fills params (256 bytes) with s's parameters for p: its defaults, which for the implicit GEMM
** are the tuning db's record when p carries one. */
static void solver_params(const cldnn_solver* s, const cldnn_conv_problem* p, unsigned char* params) {
    memset(params, 0, 256);
    if (s->default_params)
        s->default_params(p, p->dev, params);
}

/* Bench-line logging (CLDNN_LOG_CMD=1): the cldnn-bench conv command that reproduces a call. */
static void log_cmd(const cldnn_conv_problem* p, int algo) {
    if (!cldnn_log_cmd_enabled())
        return;
    static const int mask[3] = {1, 2, 4};
    cldnn_log_cmd("conv -n %d -c %d -H %d -W %d -k %d -y %d -x %d -p %d -q %d -u %d -v %d -l %d -j %d -g %d -F %d "
                  "-a %d -L %s -A %g -B %g --mode %s%s%s",
                  p->n, p->c, p->h, p->w, p->k, p->r, p->s, p->pad_h, p->pad_w, p->u, p->v, p->dil_h, p->dil_w,
                  p->groups, mask[p->dir], algo, p->xlayout ? p->xlayout : "NCHW", (double)p->alpha,
                  (double)p->beta, p->flip ? "conv" : "xcorr", p->dtype == CLDNN_DATA_HALF ? " -d half" : "",
                  p->xlayout && p->ylayout && !strcmp(p->xlayout, p->ylayout) ? ""
                                                                             : "  # tensors are strided");
}

/* Runs algo on p: the first applicable solver of algo, with its default parameters, after the
** workspace checks. */
static cldnnStatus_t conv_run(cldnnHandle_t h, cldnn_conv_problem* p, int algo, const cldnn_conv_buffers* b) {
    conv_family fam = family(p->dir);
    const cldnn_solver* s = NULL;
    CLDNN_TRY(solver_for(&fam, p, algo, &s));
    size_t need = solver_workspace(s, p);
    if (need > 0) {
        if (b->ws_size < need)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                              "algorithm %s needs %zu bytes of workspace for %s; workSpaceSizeInBytes is %zu",
                              fam.algo_names[algo], need, p->key, b->ws_size);
        CLDNN_TRY(cldnn_check_buffer(h, b->ws, b->ws_off, 4, need, "workSpace"));
    }
    log_cmd(p, algo);
    _Alignas(16) unsigned char params[256];
    solver_params(s, p, params);
    cldnn_log(CLDNN_LOG_DEBUG, "%s: algo %s, solver %s, workspace %zu", p->key, fam.algo_names[algo], s->name, need);
    return s->run(h, p, params, b);
}

/* One entry of a Get or Find answer, direction-neutral. */
typedef struct {
    int algo;
    cldnnStatus_t status;
    float time;
    size_t memory;
    int deterministic;
    int tensor_ops; /* runs on tensor cores (mathType TENSOR_OP_MATH in the answer) */
} perf_entry;

/* Whether solver s runs p on tensor cores: the tensor-core implicit GEMM always; the GEMM-based
** solvers (1x1, explicit im2col) and the non-fused Winograd ones take their products through
** cldnn_gemm_run_any, which under TENSOR_OP_MATH runs the TF32 kernel for FLOAT data and the FP16
** one for HALF data on devices that have tensor cores (their C, half or a float workspace, does not
** change that; Winograd's transformed operands are float and take the TF32 one); the others
** compute in FP32. */
static int solver_tensor_ops(const cldnn_solver* s, const cldnn_conv_problem* p) {
    if (s->run == cldnn_conv_igemm_mma_run) /* applicable only where it runs on tensor cores */
        return 1;
    if (s->run != cldnn_conv_gemm1x1_run && s->run != cldnn_conv_im2col_run && s->run != cldnn_conv_wino2_run &&
        s->run != cldnn_conv_wino4_run)
        return 0;
    cldnn_gemm_problem g; /* what the GEMM family decides from: math and data types */
    memset(&g, 0, sizeof g);
    g.math = p->math;
    g.dtype = g.dtype_c = p->dtype;
    return cldnn_gemm_mma_applicable(&g, p->dev);
}

/* Get_v7's answer: algorithms in the order their first applicable solver appears in the table,
** then the rest NOT_SUPPORTED. Returns the count (the enum's size). */
static int conv_get(const cldnn_conv_problem* p, perf_entry* out) {
    conv_family fam = family(p->dir);
    int listed[16] = {0}, n = 0;
    for (size_t i = 0; i < fam.count; ++i) {
        const cldnn_solver* s = &fam.table[i];
        if (listed[s->algo] || !s->applicable(p, p->dev))
            continue;
        listed[s->algo] = 1;
        out[n].algo = s->algo;
        out[n].status = CLDNN_STATUS_SUCCESS;
        out[n].time = -1.0f;
        out[n].memory = solver_workspace(s, p);
        out[n].deterministic = 1; /* every solver of the tables sums in a fixed order */
        out[n].tensor_ops = solver_tensor_ops(s, p);
        ++n;
    }
    for (int a = 0; a < fam.algo_count; ++a)
        if (!listed[a]) {
            out[n].algo = a;
            out[n].status = CLDNN_STATUS_NOT_SUPPORTED;
            out[n].time = -1.0f;
            out[n].memory = 0;
            out[n].deterministic = 1;
            out[n].tensor_ops = 0;
            ++n;
        }
    return n;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int perf_cmp(const void* a, const void* b) {
    const perf_entry* x = (const perf_entry*)a;
    const perf_entry* y = (const perf_entry*)b;
    int rx = x->status == CLDNN_STATUS_SUCCESS ? 0 : x->status == CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT ? 1 : 2;
    int ry = y->status == CLDNN_STATUS_SUCCESS ? 0 : y->status == CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT ? 1 : 2;
    if (rx != ry)
        return rx - ry;
    if (rx == 0 && x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->algo - y->algo;
}

/* Builds the programs solvers s[0..n) need for p together (cache.c's parallel builds): each solver
** runs once in prepare-only mode while the handle collects the programs it lacks, then the list is
** built on the build threads. Returns the build's status; a solver that fails while collecting is
** left for its real run to report. */
static cldnnStatus_t prebuild(cldnnHandle_t h, cldnn_conv_problem* p, const cldnn_solver* const* s, int n,
                              const cldnn_conv_buffers* b) {
    CLDNN_TRY(cldnn_program_collect_begin(h));
    const int was = h->prepare_only;
    h->prepare_only = 1;
    for (int i = 0; i < n; ++i) {
        _Alignas(16) unsigned char params[256];
        solver_params(s[i], p, params);
        if (s[i]->run(h, p, params, b) != CLDNN_STATUS_SUCCESS)
            cldnn_error_clear();
    }
    h->prepare_only = was;
    return cldnn_program_collect_end(h);
}

/* Find: the programs of every algorithm Get lists as applicable (and the workspace fits) are built
** together, then each algorithm is run once (binding its kernels) and timed as the best of a few
** runs (host clock around enqueue + clFinish); sorted fastest first. */
static cldnnStatus_t conv_find(cldnnHandle_t h, cldnn_conv_problem* p, const cldnn_conv_buffers* b, perf_entry* out,
                               int* count) {
    int n = conv_get(p, out);
    cl_int e = clFinish(h->queue);
    if (e != CL_SUCCESS)
        return CLDNN_CL_FAIL(e, "clFinish");
    conv_family fam = family(p->dir);
    const cldnn_solver* cand[16];
    int ncand = 0;
    for (int i = 0; i < n && ncand < 16; ++i)
        if (out[i].status == CLDNN_STATUS_SUCCESS && out[i].memory <= b->ws_size &&
            solver_for(&fam, p, out[i].algo, &cand[ncand]) == CLDNN_STATUS_SUCCESS)
            ncand++;
    if (prebuild(h, p, cand, ncand, b) != CLDNN_STATUS_SUCCESS)
        cldnn_error_clear(); /* each algorithm's own run below reports its failure */
    for (int i = 0; i < n; ++i) {
        if (out[i].status != CLDNN_STATUS_SUCCESS)
            continue;
        if (out[i].memory > b->ws_size) {
            out[i].status = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
            continue;
        }
        cldnnStatus_t st = conv_run(h, p, out[i].algo, b);
        if (st == CLDNN_STATUS_SUCCESS) {
            e = clFinish(h->queue);
            if (e != CL_SUCCESS)
                st = CLDNN_CL_FAIL(e, "clFinish");
        }
        double best = INFINITY, spent = 0.0;
        for (int rep = 0; st == CLDNN_STATUS_SUCCESS && rep < 10 && (rep < 3 || spent < 50.0); ++rep) {
            double t0 = now_ms();
            st = conv_run(h, p, out[i].algo, b);
            if (st == CLDNN_STATUS_SUCCESS) {
                e = clFinish(h->queue);
                if (e != CL_SUCCESS)
                    st = CLDNN_CL_FAIL(e, "clFinish");
            }
            double dt = now_ms() - t0;
            spent += dt;
            if (dt < best)
                best = dt;
        }
        out[i].status = st;
        out[i].time = st == CLDNN_STATUS_SUCCESS ? (float)best : -1.0f;
        cldnn_error_clear();
    }
    qsort(out, (size_t)n, sizeof *out, perf_cmp);
    *count = n;
    return CLDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ find-db, tuning, find modes */

/* The solver of fam's table that runs with run (NULL: none). */
static const cldnn_solver* solver_running(const conv_family* fam,
                                          cldnnStatus_t (*run)(cldnnHandle_t, const void*, const void*, const void*)) {
    for (size_t i = 0; i < fam->count; ++i)
        if (fam->table[i].run == run)
            return &fam->table[i];
    return NULL;
}

/* The implicit-GEMM solver of p's direction (tunable, as the tensor-core one is). */
static const cldnn_solver* igemm_solver(const conv_family* fam) {
    return solver_running(fam, cldnn_conv_igemm_run);
}

/* Logs whether p takes the tuning db's record v of solver name (ok) or ignores it. */
static void tuned_note(const cldnn_conv_problem* p, const char* name, const char* v, int ok) {
    if (ok)
        cldnn_log(CLDNN_LOG_DEBUG, "%s: %s parameters %s (tuning db)", p->key, name, v);
    else
        cldnn_log(CLDNN_LOG_INFO, "tune-db: the %s record \"%s\" for %s is not valid here: ignored", name, v, p->key);
}

/* Loads the tuning db's parameters for p (unless the find mode is HEURISTIC): the implicit GEMM's
** into p->tuned, the tensor-core implicit GEMM's into p->mtuned, the fused Winograd kernel's of
** each tile size into p->wtuned; a record that does not parse or is not valid on the device is
** ignored. */
static void tuned_lookup(cldnnHandle_t h, cldnn_conv_problem* p) {
    p->has_tuned = 0;
    p->has_mtuned = 0;
    p->has_wtuned[0] = p->has_wtuned[1] = 0;
    conv_family fam = family(p->dir);
    const cldnn_solver* s = igemm_solver(&fam);
    char v[128];
    const char* mname = cldnn_conv_igemm_mma_solver_name(p->dir);
    /* Only the records a solver that applies here could use: a lookup is a formatted key and a
    ** table search on every call. */
    if (cldnn_conv_igemm_mma_applicable(p, p->dev) && cldnn_tunedb_get(h, p->key, mname, v, sizeof v)) {
        p->has_mtuned =
            cldnn_gemm_mma_params_parse(v, &p->mtuned) && cldnn_conv_igemm_mma_params_fit(p, &p->mtuned, p->dev);
        tuned_note(p, mname, v, p->has_mtuned);
    }
    if (s != NULL && cldnn_tunedb_get(h, p->key, s->name, v, sizeof v)) {
        cldnn_gemm_params q;
        if (cldnn_gemm_params_parse(v, &q) && cldnn_gemm_params_valid(&q, p->dev)) {
            p->tuned = q;
            p->has_tuned = 1;
            cldnn_log(CLDNN_LOG_DEBUG, "%s: tuned parameters %s (tuning db)", p->key, v);
        } else {
            cldnn_log(CLDNN_LOG_INFO, "tune-db: the record \"%s\" for %s is not valid here: ignored", v, p->key);
        }
    }
    for (int i = 0; i < 2; ++i) {
        const int wm = i ? 4 : 2;
        const char* name = cldnn_wino_fused_solver_name(wm);
        if (p->dir == CLDNN_CONV_BWD_FILTER ||
            !(wm == 2 ? cldnn_conv_wino2_applicable(p, p->dev) : cldnn_conv_wino4_applicable(p, p->dev)) ||
            !cldnn_tunedb_get(h, p->key, name, v, sizeof v))
            continue;
        p->has_wtuned[i] =
            cldnn_wino_params_parse(v, &p->wtuned[i]) && cldnn_wino_params_valid(&p->wtuned[i], wm, p->dev);
        tuned_note(p, name, v, p->has_wtuned[i]);
    }
}

/* The find-db's answer for p, still valid: each recorded algorithm whose first applicable solver is
** the recorded one (a record made before the tables changed is dropped), fastest first, with its
** recorded time and today's workspace. Returns the count (0: no record). Never runs anything. */
static int finddb_read(cldnnHandle_t h, const cldnn_conv_problem* p, perf_entry* out) {
    char v[2048];
    if (!cldnn_db_lookup(h, CLDNN_DB_FIND, p->key, v, sizeof v))
        return 0;
    conv_family fam = family(p->dir);
    int n = 0, seen[16] = {0}, bad = 0;
    char* save = NULL;
    for (char* tok = strtok_r(v, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        char name[64], tail;
        int algo, det;
        float t;
        size_t mem;
        if (sscanf(tok, "%63[^,],%d,%f,%zu,%d%c", name, &algo, &t, &mem, &det, &tail) != 5 || algo < 0 ||
            algo >= fam.algo_count || seen[algo] || !(t >= 0.0f)) {
            bad++;
            continue;
        }
        const cldnn_solver* s = NULL;
        int ok = 0;
        for (size_t i = 0; i < fam.count && !ok; ++i)
            if (fam.table[i].algo == algo && fam.table[i].applicable(p, p->dev)) {
                s = &fam.table[i];
                ok = 1;
            }
        if (!ok || strcmp(s->name, name) != 0) {
            bad++;
            continue;
        }
        seen[algo] = 1;
        out[n].algo = algo;
        out[n].status = CLDNN_STATUS_SUCCESS;
        out[n].time = t;
        out[n].memory = solver_workspace(s, p);
        out[n].deterministic = det != 0;
        out[n].tensor_ops = solver_tensor_ops(s, p);
        ++n;
    }
    if (bad)
        cldnn_log(CLDNN_LOG_INFO, "find-db: %d stale or damaged entries for %s ignored", bad, p->key);
    qsort(out, (size_t)n, sizeof *out, perf_cmp);
    return n;
}

/* Records a Find answer (SUCCESS entries) merged with the record's entries for algorithms this
** Find could not time (workspace too small), fastest first. */
static void finddb_record(cldnnHandle_t h, const cldnn_conv_problem* p, const perf_entry* e, int n) {
    perf_entry all[32];
    int m = 0, have[16] = {0};
    for (int i = 0; i < n; ++i)
        if (e[i].status == CLDNN_STATUS_SUCCESS && e[i].time >= 0.0f) {
            all[m++] = e[i];
            have[e[i].algo] = 1;
        }
    if (m == 0)
        return;
    perf_entry old[16];
    int no = finddb_read(h, p, old);
    for (int i = 0; i < no; ++i)
        for (int j = 0; j < n; ++j)
            if (e[j].algo == old[i].algo && e[j].status == CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT &&
                !have[old[i].algo]) {
                all[m++] = old[i];
                have[old[i].algo] = 1;
            }
    qsort(all, (size_t)m, sizeof *all, perf_cmp);
    conv_family fam = family(p->dir);
    char v[2048];
    size_t at = 0;
    for (int i = 0; i < m; ++i) {
        const cldnn_solver* s = NULL;
        if (solver_for(&fam, p, all[i].algo, &s) != CLDNN_STATUS_SUCCESS) {
            cldnn_error_clear();
            continue;
        }
        at = cldnn_appendf(v, sizeof v, at, "%s%s,%d,%.6g,%zu,%d", at ? ";" : "", s->name, all[i].algo,
                           (double)all[i].time, all[i].memory, all[i].deterministic);
    }
    if (at > 0) {
        cldnn_db_put(h->db_dir, h->prof.key, CLDNN_DB_FIND, p->key, v);
        cldnn_log(CLDNN_LOG_INFO, "find-db: recorded %s -> %s", p->key, v);
    }
}

/* Get_v7's answer: the find-db's entries first, fastest first (unless the mode is HEURISTIC),
** then the heuristic's remaining algorithms in table order, then the inapplicable ones. Times
** are -1 (Get times nothing); the log says when the find-db ranked the answer. */
static int conv_get_ranked(cldnnHandle_t h, const cldnn_conv_problem* p, perf_entry* out) {
    perf_entry heur[16];
    int nh = conv_get(p, heur);
    int n = finddb_read(h, p, out);
    if (n > 0)
        cldnn_log(CLDNN_LOG_INFO, "find-db: %s answered from the find-db (%d algorithms, best %d at %.4g ms)", p->key,
                  n, out[0].algo, (double)out[0].time);
    int listed[16] = {0};
    for (int i = 0; i < n; ++i) {
        listed[out[i].algo] = 1;
        out[i].time = -1.0f; /* Get runs nothing: its times are -1 whatever ranked them */
    }
    for (int i = 0; i < nh; ++i)
        if (!listed[heur[i].algo])
            out[n++] = heur[i];
    return n;
}

/* Orders entries: SUCCESS first, then SIZE_INSUFFICIENT, then the rest, each group keeping its order. */
static void partition_by_status(perf_entry* e, int n) {
    perf_entry tmp[16];
    int m = 0;
    for (int pass = 0; pass < 3; ++pass)
        for (int i = 0; i < n; ++i) {
            int r = e[i].status == CLDNN_STATUS_SUCCESS ? 0 : e[i].status == CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT ? 1 : 2;
            if (r == pass)
                tmp[m++] = e[i];
        }
    memcpy(e, tmp, (size_t)n * sizeof *e);
}

/* Runs the first entry once and waits (Find leaves a correct output, whichever way it answered). */
static cldnnStatus_t run_best_once(cldnnHandle_t h, cldnn_conv_problem* p, const cldnn_conv_buffers* b,
                                   const perf_entry* e, int n) {
    if (n < 1 || e[0].status != CLDNN_STATUS_SUCCESS)
        return CLDNN_STATUS_SUCCESS;
    CLDNN_TRY(conv_run(h, p, e[0].algo, b));
    cl_int err = clFinish(h->queue);
    return err == CL_SUCCESS ? CLDNN_STATUS_SUCCESS : CLDNN_CL_FAIL(err, "clFinish");
}

/* The output buffer of p's direction and its bytes (the whole cl_mem). */
static cl_mem conv_out(const cldnn_conv_problem* p, const cldnn_conv_buffers* b) {
    return p->dir == CLDNN_CONV_FWD ? b->y : p->dir == CLDNN_CONV_BWD_DATA ? b->x : b->w;
}

/* A parameter set of the solver TUNE searches: the implicit GEMM's (cldnn_gemm_params) or the
** tensor-core implicit GEMM's (cldnn_gemm_mma_params). */
typedef union {
    cldnn_gemm_params tiled;
    cldnn_gemm_mma_params mma;
} tune_params;

/* One run of the searched solver (mma: the tensor-core one) with q. */
static cldnnStatus_t tune_run(cldnnHandle_t h, const cldnn_conv_problem* p, int mma, const tune_params* q,
                              const cldnn_conv_buffers* b) {
    return mma ? cldnn_conv_igemm_mma_run(h, p, &q->mma, b) : cldnn_conv_igemm_run(h, p, &q->tiled, b);
}

static void tune_format(int mma, const tune_params* q, char* buf, size_t size) {
    if (mma)
        cldnn_gemm_mma_params_format(&q->mma, buf, size);
    else
        cldnn_gemm_params_format(&q->tiled, buf, size);
}

/* The searched solver's candidates for p, with p's split count (at most cap into space; returns the
** count written): the tensor-core solver's cldnn_conv_igemm_mma_param_space, or the declared GEMM
** space (cldnn_gemm_param_space) with the implicit GEMM's one-element loads of gathered operands. */
static size_t tune_space(const cldnn_conv_problem* p, int mma, tune_params* space, size_t cap) {
    size_t n = 0;
    if (mma) {
        cldnn_gemm_mma_params* m = (cldnn_gemm_mma_params*)malloc(cap * sizeof *m);
        n = m ? cldnn_conv_igemm_mma_param_space(p, p->dev, m, cap) : 0;
        for (size_t i = 0; i < n && i < cap; ++i)
            space[i].mma = m[i];
        free(m);
    } else {
        cldnn_gemm_params* t = (cldnn_gemm_params*)malloc(cap * sizeof *t);
        n = t ? cldnn_gemm_param_space(p->dev, t, cap) : 0;
        for (size_t i = 0; i < n && i < cap; ++i) {
            t[i].vwa = 1;
            if (p->dir == CLDNN_CONV_BWD_FILTER)
                t[i].vwb = 1;
            t[i].splitk = cldnn_conv_igemm_splits(p, &t[i]);
            space[i].tiled = t[i];
        }
        free(t);
    }
    return n < cap ? n : cap;
}

/* Best of 3 timed runs of the searched solver with parameters q (ms), after one untimed run; -1 on
** failure. */
static double time_tuned(cldnnHandle_t h, const cldnn_conv_problem* p, int mma, const tune_params* q,
                         const cldnn_conv_buffers* b) {
    double best = -1.0;
    for (int rep = 0; rep < 4; ++rep) {
        double t0 = now_ms();
        if (tune_run(h, p, mma, q, b) != CLDNN_STATUS_SUCCESS || clFinish(h->queue) != CL_SUCCESS)
            return -1.0;
        double dt = now_ms() - t0;
        if (rep > 0 && (best < 0 || dt < best))
            best = dt;
    }
    return best;
}

/* TUNE mode: searches the parameters of the solver p's implicit-GEMM algorithm runs, the implicit
** GEMM over the declared GEMM space (cldnn_gemm_param_space) or, under TENSOR_OP_MATH on devices
** with TF32 tensor cores, the tensor-core implicit GEMM over cldnn_conv_igemm_mma_param_space,
** within CLDNN_TUNE_BUDGET seconds (default 60), the current parameters first as the reference: a
** candidate whose output differs from the reference's by more than 1e-5 * sqrt(reduction) of the
** output's range is rejected (the tensor-core candidates round their inputs to TF32 alike, so they
** differ only in the order of the sums), and so is one whose split partial sums do not fit the
** workspace. The fastest is recorded in the tuning db under the solver's name and set on p. When
** the algorithm runs neither, logs that Find benchmarks as in BENCHMARK mode. */
static cldnnStatus_t conv_tune(cldnnHandle_t h, cldnn_conv_problem* p, const cldnn_conv_buffers* b) {
    conv_family fam = family(p->dir);
    const cldnn_solver* s = igemm_solver(&fam);
    if (p->dtype != CLDNN_DATA_FLOAT) { /* the reference comparison below reads floats */
        cldnn_log(CLDNN_LOG_INFO, "find mode TUNE: tunes float problems only; benchmarking %s as BENCHMARK", p->key);
        return CLDNN_STATUS_SUCCESS;
    }
    const cldnn_solver* runs = NULL; /* what the implicit-GEMM algorithm runs (the tensor-core solver first) */
    if (s == NULL || !s->applicable(p, p->dev) || solver_for(&fam, p, s->algo, &runs) != CLDNN_STATUS_SUCCESS ||
        (runs != s && runs->run != cldnn_conv_igemm_mma_run)) {
        cldnn_error_clear();
        cldnn_log(CLDNN_LOG_INFO, "find mode TUNE: no solver with a tuning space runs %s; benchmarking as "
                  "BENCHMARK", p->key);
        return CLDNN_STATUS_SUCCESS;
    }
    const int mma = runs->run == cldnn_conv_igemm_mma_run;
    cl_mem out = conv_out(p, b);
    size_t bytes = 0;
    cl_int err = clGetMemObjectInfo(out, CL_MEM_SIZE, sizeof bytes, &bytes, NULL);
    if (err != CL_SUCCESS)
        return CLDNN_CL_FAIL(err, "clGetMemObjectInfo(CL_MEM_SIZE)");
    size_t nf = bytes / 4, cap = 4096;
    float* ref = (float*)malloc(nf * 4);
    float* got = (float*)malloc(nf * 4);
    tune_params* space = (tune_params*)malloc(cap * sizeof *space);
    cldnnStatus_t st = CLDNN_STATUS_SUCCESS;
    if (ref == NULL || got == NULL || space == NULL) {
        st = CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "TUNE buffers of %zu bytes", bytes);
        goto out;
    }
    tune_params def, best;
    _Alignas(16) unsigned char pbuf[256];
    solver_params(runs, p, pbuf);
    memcpy(&def, pbuf, sizeof def);
    double t_def = time_tuned(h, p, mma, &def, b), t_best = t_def;
    if (t_def < 0) {
        cldnn_error_clear();
        cldnn_log(CLDNN_LOG_INFO, "find mode TUNE: the current parameters of %s fail on %s; not tuning", runs->name,
                  p->key);
        goto out;
    }
    err = clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, nf * 4, ref, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        st = CLDNN_CL_FAIL(err, "clEnqueueReadBuffer");
        goto out;
    }
    best = def;
    double range = 0.0;
    for (size_t i = 0; i < nf; ++i)
        range = fmax(range, fabs((double)ref[i]));
    int64_t gm, gn, gk;
    cldnn_conv_gemm_dims(p, &gm, &gn, &gk);
    const double tol = 1e-5 * sqrt((double)gk) * (range > 0.0 ? range : 1.0);
    int64_t mcap = 16, ncap = 16;
    while (mcap < gm)
        mcap *= 2;
    while (ncap < gn)
        ncap *= 2;
    const size_t ns = tune_space(p, mma, space, cap);
    const double budget = cldnn_env_int("CLDNN_TUNE_BUDGET", 60), start = now_ms();
    size_t tried = 0, rejected = 0;
    for (size_t c = 0; c < ns && now_ms() - start < budget * 1e3; ++c) {
        const tune_params* q = &space[c];
        const int bm = mma ? q->mma.bm : q->tiled.mwg, bn = mma ? q->mma.bn : q->tiled.nwg;
        if (bm > 2 * mcap || bn > 2 * ncap ||
            cldnn_conv_partials_bytes(p, mma ? q->mma.splitk : q->tiled.splitk) > b->ws_size)
            continue;
        tried++;
        if (tune_run(h, p, mma, q, b) != CLDNN_STATUS_SUCCESS ||
            clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, nf * 4, got, 0, NULL, NULL) != CL_SUCCESS) {
            cldnn_error_clear();
            rejected++;
            continue;
        }
        double worst = 0.0;
        for (size_t i = 0; i < nf && worst <= tol; ++i) {
            double d = fabs((double)got[i] - (double)ref[i]);
            worst = d == d ? fmax(worst, d) : INFINITY;
        }
        double t = worst <= tol ? time_tuned(h, p, mma, q, b) : -1.0;
        if (t < 0) {
            cldnn_error_clear();
            rejected++;
            continue;
        }
        if (t < t_best) {
            t_best = t;
            best = *q;
        }
    }
    char bs[96], ds[96];
    tune_format(mma, &best, bs, sizeof bs);
    tune_format(mma, &def, ds, sizeof ds);
    cldnn_log(CLDNN_LOG_INFO, "find mode TUNE: %s %s: %zu candidates in %.1f s (%zu rejected), best %s %.4g ms, "
              "previous %s %.4g ms", p->key, runs->name, tried, (now_ms() - start) * 1e-3, rejected, bs, t_best, ds,
              t_def);
    cldnn_tunedb_put(h, p->key, runs->name, bs);
    if (mma) {
        p->mtuned = best.mma;
        p->has_mtuned = 1;
    } else {
        p->tuned = best.tiled;
        p->has_tuned = 1;
    }
out:
    free(ref);
    free(got);
    free(space);
    return st;
}

/* Find under the handle's mode: HEURISTIC answers with the heuristic's order and times nothing;
** DB_OR_BENCHMARK answers from the find-db when its record covers every applicable algorithm
** that fits the workspace; TUNE tunes first; every benchmark is recorded. Whichever way it
** answers, the best entry has run once on the buffers. */
static cldnnStatus_t conv_find_mode(cldnnHandle_t h, cldnn_conv_problem* p, const cldnn_conv_buffers* b,
                                    perf_entry* out, int* count) {
    const cldnnFindMode_t mode = h->find_mode;
    if (mode == CLDNN_FIND_MODE_HEURISTIC) {
        int n = conv_get(p, out);
        for (int i = 0; i < n; ++i)
            if (out[i].status == CLDNN_STATUS_SUCCESS && out[i].memory > b->ws_size)
                out[i].status = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
        partition_by_status(out, n);
        cldnn_log(CLDNN_LOG_INFO, "find mode HEURISTIC: %s not benchmarked; heuristic choice %d", p->key, out[0].algo);
        *count = n;
        return run_best_once(h, p, b, out, n);
    }
    if (mode == CLDNN_FIND_MODE_DB_OR_BENCHMARK) {
        perf_entry db[16], heur[16];
        int nd = finddb_read(h, p, db), nh = conv_get(p, heur), covered = nd > 0, n = 0, listed[16] = {0};
        for (int i = 0; i < nh && covered; ++i)
            if (heur[i].status == CLDNN_STATUS_SUCCESS && heur[i].memory <= b->ws_size) {
                int found = 0;
                for (int j = 0; j < nd; ++j)
                    found |= db[j].algo == heur[i].algo;
                covered = found;
            }
        if (covered) {
            for (int j = 0; j < nd; ++j)
                if (db[j].memory <= b->ws_size) {
                    out[n++] = db[j];
                    listed[db[j].algo] = 1;
                }
            for (int i = 0; i < nh; ++i)
                if (!listed[heur[i].algo]) {
                    out[n] = heur[i];
                    if (out[n].status == CLDNN_STATUS_SUCCESS)
                        out[n].status = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
                    ++n;
                }
            partition_by_status(out, n);
            cldnn_log(CLDNN_LOG_INFO, "find-db: %s answered from the find-db without benchmarking (best %d at %.4g ms)",
                      p->key, out[0].algo, (double)out[0].time);
            *count = n;
            return run_best_once(h, p, b, out, n);
        }
        cldnn_log(CLDNN_LOG_INFO, "find-db: no complete record for %s; benchmarking", p->key);
    }
    if (mode == CLDNN_FIND_MODE_TUNE)
        CLDNN_TRY(conv_tune(h, p, b));
    CLDNN_TRY(conv_find(h, p, b, out, count));
    cldnn_log(CLDNN_LOG_INFO, "find mode %s: %s benchmarked, best %d at %.4g ms", cldnn_find_mode_name(mode), p->key,
              out[0].algo, (double)out[0].time);
    finddb_record(h, p, out, *count);
    return CLDNN_STATUS_SUCCESS; /* the output holds the last timed algorithm's (correct) result */
}

/* Copies entries into a direction's perf struct array. */
#define COPY_PERF(dst, src, n, T)                                                   \
    do {                                                                            \
        for (int i_ = 0; i_ < (n); ++i_) {                                          \
            memset(&(dst)[i_], 0, sizeof((dst)[i_]));                               \
            (dst)[i_].algo = (T)(src)[i_].algo;                                     \
            (dst)[i_].status = (src)[i_].status;                                    \
            (dst)[i_].time = (src)[i_].time;                                        \
            (dst)[i_].memory = (src)[i_].memory;                                    \
            (dst)[i_].determinism = (src)[i_].deterministic ? CLDNN_DETERMINISTIC   \
                                                            : CLDNN_NON_DETERMINISTIC; \
            (dst)[i_].mathType = (src)[i_].tensor_ops ? CLDNN_TENSOR_OP_MATH : CLDNN_FMA_MATH; \
        }                                                                           \
    } while (0)

static cldnnStatus_t check_request(int requested, int* returned, const void* perf) {
    if (returned == NULL || perf == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL",
                          returned == NULL ? "returnedAlgoCount" : "perfResults");
    if (requested < 1)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "requestedAlgoCount = %d must be >= 1", requested);
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t check_scalars(const void* alpha, const void* beta, cldnn_conv_problem* p) {
    if (alpha == NULL || beta == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", alpha == NULL ? "alpha" : "beta");
    p->alpha = *(const float*)alpha;
    p->beta = *(const float*)beta;
    return CLDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ public: counts */

cldnnStatus_t cldnnGetConvolutionForwardAlgorithmMaxCount(cldnnHandle_t handle, int* count) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (count == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "count is NULL");
    *count = CLDNN_CONVOLUTION_FWD_ALGO_COUNT;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetConvolutionBackwardDataAlgorithmMaxCount(cldnnHandle_t handle, int* count) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (count == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "count is NULL");
    *count = CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetConvolutionBackwardFilterAlgorithmMaxCount(cldnnHandle_t handle, int* count) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (count == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "count is NULL");
    *count = CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT;
    return CLDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ the calls, direction-neutral */

/* A call's descriptors in the forward's names (x is dx, y is dy, f is dw where they apply), with
** the caller's argument names for messages. */
typedef struct {
    const struct cldnnTensorStruct* x;
    const struct cldnnFilterStruct* f;
    const struct cldnnTensorStruct* y;
    const char *xn, *fn, *yn;
} conv_descs;

static cldnnStatus_t problem_of(cldnnHandle_t h, cldnn_conv_dir dir, const conv_descs* d,
                                const struct cldnnConvolutionStruct* cd, cldnn_conv_problem* p) {
    char xn[16], fn[16], yn[16]; /* descriptor names: "xDesc", ... */
    snprintf(xn, sizeof xn, "%sDesc", d->xn);
    snprintf(fn, sizeof fn, "%sDesc", d->fn);
    snprintf(yn, sizeof yn, "%sDesc", d->yn);
    CLDNN_TRY(conv_problem(h, dir, d->x, xn, d->f, fn, cd, d->y, yn, p));
    tuned_lookup(h, p);
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t get_call(cldnnHandle_t h, cldnn_conv_dir dir, const conv_descs* d,
                              const struct cldnnConvolutionStruct* cd, int requested, int* returned, const void* perf,
                              perf_entry* e, int* n) {
    cldnn_conv_problem p;
    CLDNN_TRY(problem_of(h, dir, d, cd, &p));
    CLDNN_TRY(check_request(requested, returned, perf));
    *n = conv_get_ranked(h, &p, e);
    if (*n > requested)
        *n = requested;
    *returned = *n;
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t workspace_call(cldnnHandle_t h, cldnn_conv_dir dir, const conv_descs* d,
                                    const struct cldnnConvolutionStruct* cd, int algo, size_t* size) {
    cldnn_conv_problem p;
    CLDNN_TRY(problem_of(h, dir, d, cd, &p));
    if (size == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "sizeInBytes is NULL");
    conv_family fam = family(p.dir);
    const cldnn_solver* s = NULL;
    CLDNN_TRY(solver_for(&fam, &p, algo, &s));
    *size = solver_workspace(s, &p);
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t run_call(cldnnHandle_t h, cldnn_conv_dir dir, const conv_descs* d,
                              const struct cldnnConvolutionStruct* cd, const void* alpha, const void* beta, cl_mem xm,
                              size_t xo, cl_mem wm, size_t wo, cl_mem ym, size_t yo, int algo, cl_mem ws, size_t wso,
                              size_t wss) {
    cldnn_conv_problem p;
    CLDNN_TRY(problem_of(h, dir, d, cd, &p));
    CLDNN_TRY(check_scalars(alpha, beta, &p));
    CLDNN_TRY(conv_buffers(h, &p, d->x, xm, xo, d->xn, d->f, wm, wo, d->fn,
                           d->y, ym, yo, d->yn));
    cldnn_conv_buffers b = {xm, wm, ym, ws, wso, wss};
    return conv_run(h, &p, algo, &b);
}

static cldnnStatus_t find_call(cldnnHandle_t h, cldnn_conv_dir dir, const conv_descs* d,
                               const struct cldnnConvolutionStruct* cd, cl_mem xm, size_t xo, cl_mem wm, size_t wo,
                               cl_mem ym, size_t yo, int requested, int* returned, const void* perf, cl_mem ws,
                               size_t wso, size_t wss, perf_entry* e, int* n) {
    cldnn_conv_problem p;
    CLDNN_TRY(problem_of(h, dir, d, cd, &p));
    CLDNN_TRY(check_request(requested, returned, perf));
    CLDNN_TRY(conv_buffers(h, &p, d->x, xm, xo, d->xn, d->f, wm, wo, d->fn, d->y, ym, yo, d->yn));
    p.alpha = 1.0f;
    p.beta = 0.0f;
    cldnn_conv_buffers b = {xm, wm, ym, ws, wso, ws ? wss : 0};
    CLDNN_TRY(conv_find_mode(h, &p, &b, e, n));
    if (*n > requested)
        *n = requested;
    *returned = *n;
    return CLDNN_STATUS_SUCCESS;
}

/* Prepare: the run call's problem and solver with no buffers; the solver runs with the handle in
** prepare-only mode twice: first naming the programs it needs, which are then built or loaded
** together (prebuild: CLDNN_BUILD_THREADS), then binding its kernels. Nothing is enqueued. */
static cldnnStatus_t prepare_call(cldnnHandle_t h, cldnn_conv_dir dir, const conv_descs* d,
                                  const struct cldnnConvolutionStruct* cd, int algo) {
    cldnn_conv_problem p;
    CLDNN_TRY(problem_of(h, dir, d, cd, &p));
    p.alpha = 1.0f;
    conv_family fam = family(p.dir);
    const cldnn_solver* s = NULL;
    CLDNN_TRY(solver_for(&fam, &p, algo, &s));
    cldnn_conv_buffers b;
    memset(&b, 0, sizeof b);
    b.ws_size = solver_workspace(s, &p);
    _Alignas(16) unsigned char params[256];
    solver_params(s, &p, params);
    const double t0 = now_ms();
    cldnnStatus_t st = prebuild(h, &p, &s, 1, &b);
    if (st == CLDNN_STATUS_SUCCESS) {
        h->prepare_only = 1;
        st = s->run(h, &p, params, &b);
        h->prepare_only = 0;
    }
    cldnn_log(CLDNN_LOG_INFO, "prepare %s: algo %s, solver %s: %s in %.1f ms", p.key, fam.algo_names[algo], s->name,
              st == CLDNN_STATUS_SUCCESS ? "programs ready" : cldnnGetErrorString(st), now_ms() - t0);
    return st;
}

/* ------------------------------------------------------------------ public: forward */

#define FWD_DESCS {xDesc, wDesc, yDesc, "x", "w", "y"}

cldnnStatus_t cldnnGetConvolutionForwardAlgorithm_v7(cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc,
                                                     const cldnnFilterDescriptor_t wDesc,
                                                     const cldnnConvolutionDescriptor_t convDesc,
                                                     const cldnnTensorDescriptor_t yDesc, int requestedAlgoCount,
                                                     int* returnedAlgoCount,
                                                     cldnnConvolutionFwdAlgoPerf_t* perfResults) {
    cldnn_error_clear();
    conv_descs d = FWD_DESCS;
    perf_entry e[16];
    int n;
    CLDNN_TRY(get_call(handle, CLDNN_CONV_FWD, &d, convDesc, requestedAlgoCount, returnedAlgoCount, perfResults, e, &n));
    COPY_PERF(perfResults, e, n, cldnnConvolutionFwdAlgo_t);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetConvolutionForwardWorkspaceSize(cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc,
                                                      const cldnnFilterDescriptor_t wDesc,
                                                      const cldnnConvolutionDescriptor_t convDesc,
                                                      const cldnnTensorDescriptor_t yDesc,
                                                      cldnnConvolutionFwdAlgo_t algo, size_t* sizeInBytes) {
    cldnn_error_clear();
    conv_descs d = FWD_DESCS;
    return workspace_call(handle, CLDNN_CONV_FWD, &d, convDesc, (int)algo, sizeInBytes);
}

cldnnStatus_t cldnnConvolutionForward(cldnnHandle_t handle, const void* alpha, const cldnnTensorDescriptor_t xDesc,
                                      cl_mem x, size_t xOffset, const cldnnFilterDescriptor_t wDesc, cl_mem w,
                                      size_t wOffset, const cldnnConvolutionDescriptor_t convDesc,
                                      cldnnConvolutionFwdAlgo_t algo, cl_mem workSpace, size_t workSpaceOffset,
                                      size_t workSpaceSizeInBytes, const void* beta,
                                      const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset) {
    cldnn_error_clear();
    conv_descs d = FWD_DESCS;
    return run_call(handle, CLDNN_CONV_FWD, &d, convDesc, alpha, beta, x, xOffset, w, wOffset, y, yOffset, (int)algo,
                    workSpace, workSpaceOffset, workSpaceSizeInBytes);
}

cldnnStatus_t cldnnFindConvolutionForwardAlgorithmEx(
    cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
    const cldnnFilterDescriptor_t wDesc, cl_mem w, size_t wOffset, const cldnnConvolutionDescriptor_t convDesc,
    const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset, int requestedAlgoCount, int* returnedAlgoCount,
    cldnnConvolutionFwdAlgoPerf_t* perfResults, cl_mem workSpace, size_t workSpaceOffset,
    size_t workSpaceSizeInBytes) {
    cldnn_error_clear();
    conv_descs d = FWD_DESCS;
    perf_entry e[16];
    int n;
    CLDNN_TRY(find_call(handle, CLDNN_CONV_FWD, &d, convDesc, x, xOffset, w, wOffset, y, yOffset, requestedAlgoCount,
                        returnedAlgoCount, perfResults, workSpace, workSpaceOffset, workSpaceSizeInBytes, e, &n));
    COPY_PERF(perfResults, e, n, cldnnConvolutionFwdAlgo_t);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnConvolutionForwardPrepare(cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc,
                                             const cldnnFilterDescriptor_t wDesc,
                                             const cldnnConvolutionDescriptor_t convDesc,
                                             cldnnConvolutionFwdAlgo_t algo, const cldnnTensorDescriptor_t yDesc) {
    cldnn_error_clear();
    conv_descs d = FWD_DESCS;
    return prepare_call(handle, CLDNN_CONV_FWD, &d, convDesc, (int)algo);
}

/* ------------------------------------------------------------------ public: backward data */

#define BWD_DATA_DESCS {dxDesc, wDesc, dyDesc, "dx", "w", "dy"}

cldnnStatus_t cldnnGetConvolutionBackwardDataAlgorithm_v7(cldnnHandle_t handle, const cldnnFilterDescriptor_t wDesc,
                                                          const cldnnTensorDescriptor_t dyDesc,
                                                          const cldnnConvolutionDescriptor_t convDesc,
                                                          const cldnnTensorDescriptor_t dxDesc,
                                                          int requestedAlgoCount, int* returnedAlgoCount,
                                                          cldnnConvolutionBwdDataAlgoPerf_t* perfResults) {
    cldnn_error_clear();
    conv_descs d = BWD_DATA_DESCS;
    perf_entry e[16];
    int n;
    CLDNN_TRY(get_call(handle, CLDNN_CONV_BWD_DATA, &d, convDesc, requestedAlgoCount, returnedAlgoCount, perfResults,
                       e, &n));
    COPY_PERF(perfResults, e, n, cldnnConvolutionBwdDataAlgo_t);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetConvolutionBackwardDataWorkspaceSize(cldnnHandle_t handle, const cldnnFilterDescriptor_t wDesc,
                                                           const cldnnTensorDescriptor_t dyDesc,
                                                           const cldnnConvolutionDescriptor_t convDesc,
                                                           const cldnnTensorDescriptor_t dxDesc,
                                                           cldnnConvolutionBwdDataAlgo_t algo, size_t* sizeInBytes) {
    cldnn_error_clear();
    conv_descs d = BWD_DATA_DESCS;
    return workspace_call(handle, CLDNN_CONV_BWD_DATA, &d, convDesc, (int)algo, sizeInBytes);
}

cldnnStatus_t cldnnConvolutionBackwardData(cldnnHandle_t handle, const void* alpha, const cldnnFilterDescriptor_t wDesc,
                                           cl_mem w, size_t wOffset, const cldnnTensorDescriptor_t dyDesc, cl_mem dy,
                                           size_t dyOffset, const cldnnConvolutionDescriptor_t convDesc,
                                           cldnnConvolutionBwdDataAlgo_t algo, cl_mem workSpace,
                                           size_t workSpaceOffset, size_t workSpaceSizeInBytes, const void* beta,
                                           const cldnnTensorDescriptor_t dxDesc, cl_mem dx, size_t dxOffset) {
    cldnn_error_clear();
    conv_descs d = BWD_DATA_DESCS;
    return run_call(handle, CLDNN_CONV_BWD_DATA, &d, convDesc, alpha, beta, dx, dxOffset, w, wOffset, dy, dyOffset,
                    (int)algo, workSpace, workSpaceOffset, workSpaceSizeInBytes);
}

cldnnStatus_t cldnnFindConvolutionBackwardDataAlgorithmEx(
    cldnnHandle_t handle, const cldnnFilterDescriptor_t wDesc, cl_mem w, size_t wOffset,
    const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset, const cldnnConvolutionDescriptor_t convDesc,
    const cldnnTensorDescriptor_t dxDesc, cl_mem dx, size_t dxOffset, int requestedAlgoCount, int* returnedAlgoCount,
    cldnnConvolutionBwdDataAlgoPerf_t* perfResults, cl_mem workSpace, size_t workSpaceOffset,
    size_t workSpaceSizeInBytes) {
    cldnn_error_clear();
    conv_descs d = BWD_DATA_DESCS;
    perf_entry e[16];
    int n;
    CLDNN_TRY(find_call(handle, CLDNN_CONV_BWD_DATA, &d, convDesc, dx, dxOffset, w, wOffset, dy, dyOffset,
                        requestedAlgoCount, returnedAlgoCount, perfResults, workSpace, workSpaceOffset,
                        workSpaceSizeInBytes, e, &n));
    COPY_PERF(perfResults, e, n, cldnnConvolutionBwdDataAlgo_t);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnConvolutionBackwardDataPrepare(cldnnHandle_t handle, const cldnnFilterDescriptor_t wDesc,
                                                  const cldnnTensorDescriptor_t dyDesc,
                                                  const cldnnConvolutionDescriptor_t convDesc,
                                                  cldnnConvolutionBwdDataAlgo_t algo,
                                                  const cldnnTensorDescriptor_t dxDesc) {
    cldnn_error_clear();
    conv_descs d = BWD_DATA_DESCS;
    return prepare_call(handle, CLDNN_CONV_BWD_DATA, &d, convDesc, (int)algo);
}

/* ------------------------------------------------------------------ public: backward filter */

#define BWD_FILTER_DESCS {xDesc, dwDesc, dyDesc, "x", "dw", "dy"}

cldnnStatus_t cldnnGetConvolutionBackwardFilterAlgorithm_v7(cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc,
                                                            const cldnnTensorDescriptor_t dyDesc,
                                                            const cldnnConvolutionDescriptor_t convDesc,
                                                            const cldnnFilterDescriptor_t dwDesc,
                                                            int requestedAlgoCount, int* returnedAlgoCount,
                                                            cldnnConvolutionBwdFilterAlgoPerf_t* perfResults) {
    cldnn_error_clear();
    conv_descs d = BWD_FILTER_DESCS;
    perf_entry e[16];
    int n;
    CLDNN_TRY(get_call(handle, CLDNN_CONV_BWD_FILTER, &d, convDesc, requestedAlgoCount, returnedAlgoCount,
                       perfResults, e, &n));
    COPY_PERF(perfResults, e, n, cldnnConvolutionBwdFilterAlgo_t);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetConvolutionBackwardFilterWorkspaceSize(cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc,
                                                             const cldnnTensorDescriptor_t dyDesc,
                                                             const cldnnConvolutionDescriptor_t convDesc,
                                                             const cldnnFilterDescriptor_t dwDesc,
                                                             cldnnConvolutionBwdFilterAlgo_t algo,
                                                             size_t* sizeInBytes) {
    cldnn_error_clear();
    conv_descs d = BWD_FILTER_DESCS;
    return workspace_call(handle, CLDNN_CONV_BWD_FILTER, &d, convDesc, (int)algo, sizeInBytes);
}

cldnnStatus_t cldnnConvolutionBackwardFilter(cldnnHandle_t handle, const void* alpha,
                                             const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
                                             const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset,
                                             const cldnnConvolutionDescriptor_t convDesc,
                                             cldnnConvolutionBwdFilterAlgo_t algo, cl_mem workSpace,
                                             size_t workSpaceOffset, size_t workSpaceSizeInBytes, const void* beta,
                                             const cldnnFilterDescriptor_t dwDesc, cl_mem dw, size_t dwOffset) {
    cldnn_error_clear();
    conv_descs d = BWD_FILTER_DESCS;
    return run_call(handle, CLDNN_CONV_BWD_FILTER, &d, convDesc, alpha, beta, x, xOffset, dw, dwOffset, dy, dyOffset,
                    (int)algo, workSpace, workSpaceOffset, workSpaceSizeInBytes);
}

cldnnStatus_t cldnnFindConvolutionBackwardFilterAlgorithmEx(
    cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
    const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset, const cldnnConvolutionDescriptor_t convDesc,
    const cldnnFilterDescriptor_t dwDesc, cl_mem dw, size_t dwOffset, int requestedAlgoCount, int* returnedAlgoCount,
    cldnnConvolutionBwdFilterAlgoPerf_t* perfResults, cl_mem workSpace, size_t workSpaceOffset,
    size_t workSpaceSizeInBytes) {
    cldnn_error_clear();
    conv_descs d = BWD_FILTER_DESCS;
    perf_entry e[16];
    int n;
    CLDNN_TRY(find_call(handle, CLDNN_CONV_BWD_FILTER, &d, convDesc, x, xOffset, dw, dwOffset, dy, dyOffset,
                        requestedAlgoCount, returnedAlgoCount, perfResults, workSpace, workSpaceOffset,
                        workSpaceSizeInBytes, e, &n));
    COPY_PERF(perfResults, e, n, cldnnConvolutionBwdFilterAlgo_t);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnConvolutionBackwardFilterPrepare(cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc,
                                                    const cldnnTensorDescriptor_t dyDesc,
                                                    const cldnnConvolutionDescriptor_t convDesc,
                                                    cldnnConvolutionBwdFilterAlgo_t algo,
                                                    const cldnnFilterDescriptor_t dwDesc) {
    cldnn_error_clear();
    conv_descs d = BWD_FILTER_DESCS;
    return prepare_call(handle, CLDNN_CONV_BWD_FILTER, &d, convDesc, (int)algo);
}

/* ------------------------------------------------------------------ public: bias */

cldnnStatus_t cldnnConvolutionBackwardBias(cldnnHandle_t handle, const void* alpha, const cldnnTensorDescriptor_t dyDesc,
                                           cl_mem dy, size_t dyOffset, const void* beta,
                                           const cldnnTensorDescriptor_t dbDesc, cl_mem db, size_t dbOffset) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    CLDNN_TRY(cldnn_check_tensor(dyDesc, "dyDesc"));
    CLDNN_TRY(cldnn_check_tensor(dbDesc, "dbDesc"));
    if (alpha == NULL || beta == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", alpha == NULL ? "alpha" : "beta");
    if (dyDesc->dtype != dbDesc->dtype)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "dy holds %s but db holds %s", cldnn_dtype_name(dyDesc->dtype),
                          cldnn_dtype_name(dbDesc->dtype));
    if (dyDesc->dtype != CLDNN_DATA_FLOAT && dyDesc->dtype != CLDNN_DATA_HALF)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                          "the bias gradient takes float or half data (summing in float); got %s",
                          cldnn_dtype_name(dyDesc->dtype));
    if (dyDesc->nd != 4)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, "dyDesc must have 4 dims, has %d", dyDesc->nd);
    if (dbDesc->nd != 4 || dbDesc->dims[0] != 1 || dbDesc->dims[1] != dyDesc->dims[1] || dbDesc->dims[2] != 1 ||
        dbDesc->dims[3] != 1) {
        char got[64];
        cldnn_format_dims(got, sizeof got, dbDesc->nd, dbDesc->dims);
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, "dbDesc is %s but must be 1x%lldx1x1", got,
                          (long long)dyDesc->dims[1]);
    }
    if (dyDesc->count > CONV_INT_MAX)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, "dy must hold fewer than 2^31 elements");
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, dyDesc, dy, dyOffset, "dy"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, dbDesc, db, dbOffset, "db"));
    if (cldnn_log_cmd_enabled())
        cldnn_log_cmd("conv -n %lld -c %lld -H %lld -W %lld -k %lld -y 1 -x 1 -p 0 -q 0 -F 8 -L %s -A %g -B %g%s",
                      (long long)dyDesc->dims[0], (long long)dyDesc->dims[1], (long long)dyDesc->dims[2],
                      (long long)dyDesc->dims[3], (long long)dyDesc->dims[1],
                      cldnn_tensor_layout(dyDesc) ? cldnn_tensor_layout(dyDesc) : "NCHW",
                      (double)*(const float*)alpha, (double)*(const float*)beta,
                      dyDesc->dtype == CLDNN_DATA_HALF ? " -d half" : "");
    const size_t es = cldnn_dtype_size(dyDesc->dtype);
    return cldnn_conv_bias_run(handle, dyDesc, dy, dyOffset / es, dbDesc, db, dbOffset / es, *(const float*)alpha,
                               *(const float*)beta);
}
