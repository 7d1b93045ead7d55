/*
** conv.c: the convolution family's public face: the convolution descriptor, the validation that
** turns (descriptors, buffers) into a cldnn_conv_problem, the family records (one per direction)
** through which the selection engine (handle/engine.h) serves every entry point: run (the solver
** that runs the requested algorithm), workspace size, Get_v7, Find, the Prepare warm-ups (build a
** run's programs, enqueue nothing) and MaxCount. The parameters a solver runs with (defaults, the
** tuning db's record for that solver, CLDNN_SOLVER_PARAMS) come from the engine at each use, so
** the workspace query, the run and Find agree on them. cldnnConvolutionBiasActivationForward runs
** the forward's solver with the problem's fused epilogue (bias, z, activation: conv.h's epi) built
** into the kernels that write y.
**
** Solvers live with their kernels' families: src/conv/gemm/ (implicit GEMM, explicit
** im2col + GEMM, 1x1 as a plain GEMM), src/conv/winograd/ and src/conv/direct/ (depthwise,
** bias); their tables and ranks are in solvers.c.
**
** Invariants: a problem that validates has every size and index product below 2^31 (kernels
** index with int), dims consistent across x, w, y and the descriptor, one data type for x, w
** and y (FLOAT, or HALF or BFLOAT16 as storage: solvers that cannot load or store them are not
** applicable to it), and buffers that hold their views. Nothing here enqueues work except through a solver.
*/
#include "conv/conv.h"
#include "handle/engine.h"

#include <math.h>
#include <pthread.h>
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
    if (x->dtype != CLDNN_DATA_FLOAT && x->dtype != CLDNN_DATA_HALF && x->dtype != CLDNN_DATA_BFLOAT16)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                          "convolutions take float, half or bfloat16 data (computing in float); %s, %s and %s are %s",
                          xn, fn, yn, cldnn_dtype_name(x->dtype));
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

/* ------------------------------------------------------------------ the family records */

static const char* const fwd_algo_names[] = {"implicit_gemm", "implicit_precomp_gemm", "gemm",     "direct",
                                             "fft",           "fft_tiling",            "winograd", "winograd_nonfused"};
static const char* const bwd_data_algo_names[] = {"algo_0",     "algo_1",   "fft",
                                                  "fft_tiling", "winograd", "winograd_nonfused"};
static const char* const bwd_filter_algo_names[] = {"algo_0",   "algo_1",            "fft",       "algo_3",
                                                    "winograd", "winograd_nonfused", "fft_tiling"};

/* Whether the GEMM family runs p's products on tensor cores: under TENSOR_OP_MATH the TF32 kernel
** for FLOAT data and the FP16 (BF16) one for HALF (BFLOAT16) data on devices that have them (their C, 16-bit or a float
** workspace, does not change that; Winograd's transformed operands are float and take the TF32
** one). */
static int conv_gemm_tensor_ops(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    cldnn_gemm_problem g; /* what the GEMM family decides from: math and data types */
    memset(&g, 0, sizeof g);
    g.math = p->math;
    g.dtype = g.dtype_c = p->dtype;
    return cldnn_gemm_mma_applicable(&g, dev);
}

/* The output buffer of p's direction and its type (x, w, y share it), for Tune's comparison. */
static cl_mem conv_out(const void* problem, const void* buffers, cldnnDataType_t* dtype) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    const cldnn_conv_buffers* b = (const cldnn_conv_buffers*)buffers;
    *dtype = p->dtype;
    return p->dir == CLDNN_CONV_FWD ? b->y : p->dir == CLDNN_CONV_BWD_DATA ? b->x : b->w;
}

/* Tune's tolerance: 1e-5 * sqrt(reduction) of the output's range (the tensor-core candidates round
** their inputs to TF32 alike, so they differ only in the order of the sums), plus one ulp of it for
** HALF or BFLOAT16 data: sums that differ in their last bits may round the output to neighbours. */
static double conv_tolerance(const void* problem) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    int64_t gm, gn, gk;
    cldnn_conv_gemm_dims(p, &gm, &gn, &gk);
    return 1e-5 * sqrt((double)gk) + cldnn_dtype_storage_ulp(p->dtype);
}

static cldnnStatus_t conv_run_algo(cldnnHandle_t h, const void* problem, int algo, const void* buffers);

/* Direction dir's family record; a TUNE-mode Find searches the implicit-GEMM algorithm's
** solver. */
static cldnn_family family(cldnn_conv_dir dir) {
    cldnn_family f = {.gemm_tensor_ops = conv_gemm_tensor_ops, .run_algo = conv_run_algo, .output = conv_out,
                      .tolerance = conv_tolerance};
    if (dir == CLDNN_CONV_FWD) {
        f.name = "conv-fwd";
        f.solvers = cldnn_conv_fwd_solvers;
        f.count = cldnn_conv_fwd_solver_count;
        f.algo_count = CLDNN_CONVOLUTION_FWD_ALGO_COUNT;
        f.algo_names = fwd_algo_names;
        f.tune_algo = CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    } else if (dir == CLDNN_CONV_BWD_DATA) {
        f.name = "conv-bwd-data";
        f.solvers = cldnn_conv_bwd_data_solvers;
        f.count = cldnn_conv_bwd_data_solver_count;
        f.algo_count = CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT;
        f.algo_names = bwd_data_algo_names;
        f.tune_algo = CLDNN_CONVOLUTION_BWD_DATA_ALGO_1;
    } else {
        f.name = "conv-bwd-filter";
        f.solvers = cldnn_conv_bwd_filter_solvers;
        f.count = cldnn_conv_bwd_filter_solver_count;
        f.algo_count = CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT;
        f.algo_names = bwd_filter_algo_names;
        f.tune_algo = CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1;
    }
    return f;
}

/* The three records, made once: a table's size is a link-time constant (solvers.c), so they
** cannot be static initializers. */
static cldnn_family families[3];
static pthread_once_t families_once = PTHREAD_ONCE_INIT;

static void families_init(void) {
    for (int d = 0; d < 3; ++d)
        families[d] = family((cldnn_conv_dir)d);
}

const cldnn_family* cldnn_conv_family(cldnn_conv_dir dir) {
    pthread_once(&families_once, families_init);
    return &families[dir];
}

/* The solver that runs algo for p into *out; BAD_PARAM_OUT_OF_BOUND for a value outside the enum,
** NOT_SUPPORTED when no solver of algo applies, NOT_SUPPORTED_DATA_TYPE when one would apply to
** the same problem in FLOAT but none takes its HALF data. */
static cldnnStatus_t solver_for(const cldnn_family* fam, const cldnn_conv_problem* p, int algo,
                                const cldnn_solver** out) {
    if (algo < 0 || algo >= fam->algo_count)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "algo %d is not a value of the %s algorithm enum", algo,
                          dir_name(p->dir));
    if ((*out = cldnn_engine_pick(fam, p, p->dev, algo)) != NULL)
        return CLDNN_STATUS_SUCCESS;
    if (p->dtype != CLDNN_DATA_FLOAT) {
        cldnn_conv_problem f = *p;
        f.dtype = CLDNN_DATA_FLOAT;
        if (cldnn_engine_pick(fam, &f, f.dev, algo) != NULL)
            return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, "algorithm %s does not take %s data (%s on %s)",
                              fam->algo_names[algo], cldnn_dtype_name(p->dtype), p->key, p->dev->name);
    }
    return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED, "algorithm %s does not apply to %s on %s", fam->algo_names[algo],
                      p->key, p->dev->name);
}

/* cldnn-bench's --act names of the activation modes (perf/bench/conv.c parses the same). */
static const char* act_name(int mode) {
    switch (mode) {
    case CLDNN_ACTIVATION_SIGMOID: return "sigmoid";
    case CLDNN_ACTIVATION_RELU: return "relu";
    case CLDNN_ACTIVATION_TANH: return "tanh";
    case CLDNN_ACTIVATION_CLIPPED_RELU: return "clipped_relu";
    case CLDNN_ACTIVATION_ELU: return "elu";
    case CLDNN_ACTIVATION_IDENTITY: return "identity";
    case CLDNN_ACTIVATION_SWISH: return "swish";
    case CLDNN_ACTIVATION_LEAKY_RELU: return "leaky_relu";
    case CLDNN_ACTIVATION_SOFTPLUS: return "softplus";
    case CLDNN_ACTIVATION_ABS: return "abs";
    default: return "gelu";
    }
}

/* Bench-line logging (CLDNN_LOG_CMD=1): the cldnn-bench conv command that reproduces a call, or
** the convbiasact one of a fused call (its epilogue's flags after the convolution's). */
static void log_cmd(const cldnn_conv_problem* p, int algo) {
    if (!cldnn_log_cmd_enabled())
        return;
    static const int mask[3] = {1, 2, 4};
    char epi[96] = "";
    if (p->epi)
        snprintf(epi, sizeof epi, " --act %s --z %d --A2 %g --coef %g --swish-beta %g", act_name(p->epi->act),
                 p->epi->use_z, (double)p->epi->alpha2, (double)p->epi->coef, (double)p->epi->swish);
    cldnn_log_cmd("%s -n %d -c %d -H %d -W %d -k %d -y %d -x %d -p %d -q %d -u %d -v %d -l %d -j %d -g %d -F %d "
                  "-a %d -L %s -A %g -B %g --mode %s%s%s%s%s",
                  p->epi ? "convbiasact" : "conv", p->n, p->c, p->h, p->w, p->k, p->r, p->s, p->pad_h, p->pad_w, p->u,
                  p->v, p->dil_h, p->dil_w, p->groups, mask[p->dir], algo, p->xlayout ? p->xlayout : "NCHW",
                  (double)p->alpha, (double)p->beta, p->flip ? "conv" : "xcorr",
                  p->dtype == CLDNN_DATA_FLOAT ? "" : " -d ",
                  p->dtype == CLDNN_DATA_FLOAT ? "" : cldnn_dtype_name(p->dtype), epi,
                  p->xlayout && p->ylayout && !strcmp(p->xlayout, p->ylayout) ? ""
                                                                             : "  # tensors are strided");
}

/* Runs algo on p: its solver with the parameters the engine gives it (the tuning db's record for
** that solver alone), after the workspace checks. */
static cldnnStatus_t conv_run(cldnnHandle_t h, const cldnn_conv_problem* p, int algo, const cldnn_conv_buffers* b) {
    const cldnn_family* fam = cldnn_conv_family(p->dir);
    const cldnn_solver* s = NULL;
    CLDNN_TRY(solver_for(fam, p, algo, &s));
    _Alignas(16) unsigned char params[CLDNN_PARAMS_MAX];
    cldnn_engine_params(h, s, p, p->key, params);
    const size_t need = cldnn_engine_workspace(s, p, params);
    if (need > 0) {
        if (b->ws_size < need)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                              "algorithm %s needs %zu bytes of workspace for %s; workSpaceSizeInBytes is %zu",
                              fam->algo_names[algo], need, p->key, b->ws_size);
        CLDNN_TRY(cldnn_check_buffer(h, b->ws, b->ws_off, 4, need, "workSpace"));
    }
    log_cmd(p, algo);
    cldnn_log(CLDNN_LOG_DEBUG, "%s: algo %s, solver %s, workspace %zu", p->key, fam->algo_names[algo], s->name, need);
    return s->run(h, p, params, b);
}

static cldnnStatus_t conv_run_algo(cldnnHandle_t h, const void* problem, int algo, const void* buffers) {
    return conv_run(h, (const cldnn_conv_problem*)problem, algo, (const cldnn_conv_buffers*)buffers);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
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
    return conv_problem(h, dir, d->x, xn, d->f, fn, cd, d->y, yn, p);
}

static cldnnStatus_t get_call(cldnnHandle_t h, cldnn_conv_dir dir, const conv_descs* d,
                              const struct cldnnConvolutionStruct* cd, int requested, int* returned, const void* perf,
                              cldnn_perf* e, int* n) {
    cldnn_conv_problem p;
    CLDNN_TRY(problem_of(h, dir, d, cd, &p));
    CLDNN_TRY(check_request(requested, returned, perf));
    const cldnn_family* fam = cldnn_conv_family(dir);
    *n = cldnn_engine_get(h, fam, &p, p.key, e);
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
    const cldnn_family* fam = cldnn_conv_family(p.dir);
    const cldnn_solver* s = NULL;
    CLDNN_TRY(solver_for(fam, &p, algo, &s));
    _Alignas(16) unsigned char params[CLDNN_PARAMS_MAX];
    cldnn_engine_params(h, s, &p, p.key, params);
    *size = cldnn_engine_workspace(s, &p, params);
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
                               size_t wso, size_t wss, cldnn_perf* e, int* n) {
    cldnn_conv_problem p;
    CLDNN_TRY(problem_of(h, dir, d, cd, &p));
    CLDNN_TRY(check_request(requested, returned, perf));
    CLDNN_TRY(conv_buffers(h, &p, d->x, xm, xo, d->xn, d->f, wm, wo, d->fn, d->y, ym, yo, d->yn));
    p.alpha = 1.0f;
    p.beta = 0.0f;
    cldnn_conv_buffers b = {xm, wm, ym, ws, wso, ws ? wss : 0};
    const cldnn_family* fam = cldnn_conv_family(dir);
    CLDNN_TRY(cldnn_engine_find(h, fam, &p, p.key, &b, b.ws_size, e, n));
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
    const cldnn_family* fam = cldnn_conv_family(p.dir);
    const cldnn_solver* s = NULL;
    CLDNN_TRY(solver_for(fam, &p, algo, &s));
    _Alignas(16) unsigned char params[CLDNN_PARAMS_MAX];
    cldnn_engine_params(h, s, &p, p.key, params);
    cldnn_conv_buffers b;
    memset(&b, 0, sizeof b);
    b.ws_size = cldnn_engine_workspace(s, &p, params);
    const double t0 = now_ms();
    cldnnStatus_t st = cldnn_engine_prebuild(h, &p, p.key, &s, 1, &b);
    if (st == CLDNN_STATUS_SUCCESS) {
        h->prepare_only = 1;
        st = s->run(h, &p, params, &b);
        h->prepare_only = 0;
    }
    cldnn_log(CLDNN_LOG_INFO, "prepare %s: algo %s, solver %s: %s in %.1f ms", p.key, fam->algo_names[algo], s->name,
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
    cldnn_perf e[CLDNN_PERF_MAX];
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
    cldnn_perf e[CLDNN_PERF_MAX];
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

/* ------------------------------------------------------------------ public: fused forward */

/* Checks bias (1 x K x 1 x 1, unit channel stride) and z (y's dims and strides), both of y's data
** type, with their buffers, and fills e from them and the activation descriptor. */
static cldnnStatus_t epilogue_of(cldnnHandle_t h, const struct cldnnTensorStruct* y, float alpha2,
                                 const struct cldnnTensorStruct* zd, cl_mem z, size_t zo,
                                 const struct cldnnTensorStruct* bd, cl_mem bias, size_t bo,
                                 const cldnnActivationDescriptor_t act, cldnn_epilogue* e) {
    if (act == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "activationDesc is NULL");
    cldnnActivationMode_t mode;
    cldnnNanPropagation_t nan;
    double coef, swish;
    CLDNN_TRY(cldnnGetActivationDescriptor(act, &mode, &nan, &coef));
    CLDNN_TRY(cldnnGetActivationDescriptorSwishBeta(act, &swish));
    CLDNN_TRY(cldnn_check_tensor(zd, "zDesc"));
    CLDNN_TRY(cldnn_check_tensor(bd, "biasDesc"));
    if (zd->dtype != y->dtype || bd->dtype != y->dtype)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "z and bias hold y's data type (%s); %s is %s",
                          cldnn_dtype_name(y->dtype), zd->dtype != y->dtype ? "z" : "bias",
                          cldnn_dtype_name(zd->dtype != y->dtype ? zd->dtype : bd->dtype));
    int same = zd->nd == y->nd;
    for (int i = 0; same && i < y->nd; ++i)
        same = zd->dims[i] == y->dims[i];
    if (!same) {
        char got[64], want[64];
        cldnn_format_dims(got, sizeof got, zd->nd, zd->dims);
        cldnn_format_dims(want, sizeof want, y->nd, y->dims);
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, "zDesc is %s but y is %s", got, want);
    }
    for (int i = 0; i < y->nd; ++i)
        if (zd->strides[i] != y->strides[i] && y->dims[i] > 1)
            return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_LAYOUT, "z must have y's strides (dim %d: %lld, y %lld)", i,
                              (long long)zd->strides[i], (long long)y->strides[i]);
    if (bd->nd != 4 || bd->dims[0] != 1 || bd->dims[1] != y->dims[1] || bd->dims[2] != 1 || bd->dims[3] != 1) {
        char got[64];
        cldnn_format_dims(got, sizeof got, bd->nd, bd->dims);
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, "biasDesc is %s but must be 1x%lldx1x1", got,
                          (long long)y->dims[1]);
    }
    if (bd->strides[1] != 1 && bd->dims[1] > 1)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_LAYOUT, "the bias must be packed (channel stride 1, got %lld)",
                          (long long)bd->strides[1]);
    if (bias == NULL || z == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", bias == NULL ? "bias" : "z");
    CLDNN_TRY(cldnn_check_tensor_buffer(h, zd, z, zo, "z"));
    CLDNN_TRY(cldnn_check_tensor_buffer(h, bd, bias, bo, "bias"));
    const size_t es = cldnn_dtype_size(y->dtype);
    memset(e, 0, sizeof *e);
    e->act = (int)mode;
    e->use_z = alpha2 != 0.0f;
    e->alpha2 = alpha2;
    e->coef = (float)coef;
    e->swish = (float)swish;
    e->nanprop = nan == CLDNN_PROPAGATE_NAN;
    e->bias = bias;
    e->z = z;
    e->bias_off = bo / es;
    e->z_off = zo / es;
    return CLDNN_STATUS_SUCCESS;
}

/* The plain forward's solver for algo (the same selection, tuning-db parameters and workspace),
** its kernels built with the epilogue (kernels/common/epilogue.h) in the store of y, or in the
** last pass that writes y: split-k's reduction, non-fused Winograd's output transform. */
cldnnStatus_t cldnnConvolutionBiasActivationForward(
    cldnnHandle_t handle, const void* alpha1, const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
    const cldnnFilterDescriptor_t wDesc, cl_mem w, size_t wOffset, const cldnnConvolutionDescriptor_t convDesc,
    cldnnConvolutionFwdAlgo_t algo, cl_mem workSpace, size_t workSpaceOffset, size_t workSpaceSizeInBytes,
    const void* alpha2, const cldnnTensorDescriptor_t zDesc, cl_mem z, size_t zOffset,
    const cldnnTensorDescriptor_t biasDesc, cl_mem bias, size_t biasOffset,
    const cldnnActivationDescriptor_t activationDesc, const cldnnTensorDescriptor_t yDesc, cl_mem y,
    size_t yOffset) {
    cldnn_error_clear();
    conv_descs d = FWD_DESCS;
    cldnn_conv_problem p;
    CLDNN_TRY(problem_of(handle, CLDNN_CONV_FWD, &d, convDesc, &p));
    if (alpha1 == NULL || alpha2 == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", alpha1 == NULL ? "alpha1" : "alpha2");
    p.alpha = *(const float*)alpha1;
    p.beta = 0.0f;
    cldnn_epilogue e;
    CLDNN_TRY(epilogue_of(handle, yDesc, *(const float*)alpha2, zDesc, z, zOffset, biasDesc, bias, biasOffset,
                          activationDesc, &e));
    CLDNN_TRY(conv_buffers(handle, &p, xDesc, x, xOffset, "x", wDesc, w, wOffset, "w", yDesc, y, yOffset, "y"));
    p.epi = &e;
    cldnn_conv_buffers b = {x, w, y, workSpace, workSpaceOffset, workSpaceSizeInBytes};
    return conv_run(handle, &p, (int)algo, &b);
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
    cldnn_perf e[CLDNN_PERF_MAX];
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
    cldnn_perf e[CLDNN_PERF_MAX];
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
    cldnn_perf e[CLDNN_PERF_MAX];
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
    cldnn_perf e[CLDNN_PERF_MAX];
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
    if (dyDesc->dtype != CLDNN_DATA_FLOAT && dyDesc->dtype != CLDNN_DATA_HALF &&
        dyDesc->dtype != CLDNN_DATA_BFLOAT16)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                          "the bias gradient takes float, half or bfloat16 data (summing in float); got %s",
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
        cldnn_log_cmd("conv -n %lld -c %lld -H %lld -W %lld -k %lld -y 1 -x 1 -p 0 -q 0 -F 8 -L %s -A %g -B %g%s%s",
                      (long long)dyDesc->dims[0], (long long)dyDesc->dims[1], (long long)dyDesc->dims[2],
                      (long long)dyDesc->dims[3], (long long)dyDesc->dims[1],
                      cldnn_tensor_layout(dyDesc) ? cldnn_tensor_layout(dyDesc) : "NCHW",
                      (double)*(const float*)alpha, (double)*(const float*)beta,
                      dyDesc->dtype == CLDNN_DATA_FLOAT ? "" : " -d ",
                      dyDesc->dtype == CLDNN_DATA_FLOAT ? "" : cldnn_dtype_name(dyDesc->dtype));
    const size_t es = cldnn_dtype_size(dyDesc->dtype);
    return cldnn_conv_bias_run(handle, dyDesc, dy, dyOffset / es, dbDesc, db, dbOffset / es, *(const float*)alpha,
                               *(const float*)beta);
}
