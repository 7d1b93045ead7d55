/*
** test_sizes.c: 64-bit size handling (issue 9's size audit). Descriptors whose element counts pass
** 2^31 (past 32-bit indexing) or approach 2^63 (past what int64 products of dims may reach) go
** through every compute entry point with small buffers, and through the calls that need no buffer
** (output dims, workspace sizes, Get). Each must answer with a BAD_PARAM or NOT_SUPPORTED status and
** a message, never SUCCESS over a too-small buffer, a wrapped size or a crash; the ASan + UBSan
** tree of .ci/run also catches any signed overflow on the way. Sizes that are legal and merely
** large (a workspace of more than 4 GiB) must come back exact.
*/
#include <string.h>

#include "fixture.h"

TestSuite(sizes, .fini = fx_fini);

#define E(n) ((int64_t)1 << (n))

/* Requires a BAD_PARAM (2xxx) or NOT_SUPPORTED (3xxx) status with a non-empty last-error string. */
#define FX_REJECTED(call)                                                                                    \
    do {                                                                                                     \
        cldnnStatus_t fx_s_ = (call);                                                                        \
        char fx_e_[2048];                                                                                    \
        fx_last_error(fx_e_, sizeof fx_e_);                                                                  \
        FX_ASSERT(fx_s_ / 1000 == 2 || fx_s_ / 1000 == 3,                                                    \
                  "%s:%d: %s\n  returned %s (%d), expected a BAD_PARAM or NOT_SUPPORTED status; last error: \"%s\"", \
                  __FILE__, __LINE__, #call, cldnnGetErrorString(fx_s_), (int)fx_s_, fx_e_);                 \
        FX_ASSERT(fx_e_[0] != '\0', "%s:%d: %s\n  returned %s with an empty last-error string", __FILE__,    \
                  __LINE__, #call, cldnnGetErrorString(fx_s_));                                              \
    } while (0)

/* A packed Nd tensor descriptor of data type t (a failure fails the test). */
static cldnnTensorDescriptor_t tensor(cldnnDataType_t t, int nd, const int64_t* dims) {
    int64_t strides[8];
    int64_t s = 1;
    for (int i = nd - 1; i >= 0; --i) {
        strides[i] = s;
        s *= dims[i];
    }
    cldnnTensorDescriptor_t d = NULL;
    FX_OK(cldnnCreateTensorDescriptor(&d));
    FX_OK(cldnnSetTensorNdDescriptor(d, t, nd, dims, strides));
    return d;
}

static cldnnFilterDescriptor_t filter(int64_t k, int64_t c, int64_t r, int64_t s) {
    cldnnFilterDescriptor_t f = NULL;
    FX_OK(cldnnCreateFilterDescriptor(&f));
    FX_OK(cldnnSetFilterNdDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 4, (const int64_t[]){k, c, r, s}));
    return f;
}

static cldnnConvolutionDescriptor_t conv(int pad) {
    cldnnConvolutionDescriptor_t cd = NULL;
    FX_OK(cldnnCreateConvolutionDescriptor(&cd));
    FX_OK(cldnnSetConvolution2dDescriptor(cd, pad, pad, 1, 1, 1, 1, CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    return cd;
}

/* The 4-d shapes every element-wise, pooling and normalization entry point gets: 2^31 elements
** (one past 32-bit indexing), 2^31 + 1 elements with odd dims, and 2^60 elements (2^62 bytes). */
static const int64_t big_shapes[][4] = {
    {2, 1024, 1024, 1024}, {3, 5, 143165577, 1}, {E(15), E(15), E(15), E(15)}};
#define NBIG (sizeof big_shapes / sizeof big_shapes[0])

/* Every compute entry point over tensors of these shapes with 4 KiB buffers. */
Test(sizes, ops_over_small_buffers) {
    cldnnHandle_t h = fx_handle();
    cl_mem small = fx_buffer(4096), small2 = fx_buffer(4096);
    const float one = 1.0f, zero = 0.0f;
    cldnnActivationDescriptor_t act = NULL;
    FX_OK(cldnnCreateActivationDescriptor(&act));
    FX_OK(cldnnSetActivationDescriptor(act, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0));
    cldnnPoolingDescriptor_t pd = NULL;
    FX_OK(cldnnCreatePoolingDescriptor(&pd));
    FX_OK(cldnnSetPooling2dDescriptor(pd, CLDNN_POOLING_MAX, CLDNN_NOT_PROPAGATE_NAN, 1, 1, 0, 0, 1, 1));
    cldnnLRNDescriptor_t ld = NULL;
    FX_OK(cldnnCreateLRNDescriptor(&ld));
    FX_OK(cldnnSetLRNDescriptor(ld, 5, 1e-4, 0.75, 2.0));
    for (size_t i = 0; i < NBIG; ++i) {
        cldnnTensorDescriptor_t t = tensor(CLDNN_DATA_FLOAT, 4, big_shapes[i]);
        FX_REJECTED(cldnnActivationForward(h, act, &one, t, small, 0, &zero, t, small2, 0));
        FX_REJECTED(cldnnActivationBackward(h, act, &one, t, small, 0, t, small, 0, t, small, 0, &zero, t, small2, 0));
        FX_REJECTED(cldnnAddTensor(h, &one, t, small, 0, &one, t, small2, 0));
        FX_REJECTED(cldnnSetTensor(h, t, small, 0, &one));
        FX_REJECTED(cldnnScaleTensor(h, t, small, 0, &one));
        FX_REJECTED(cldnnTransformTensor(h, &one, t, small, 0, &zero, t, small2, 0));
        for (int mode = 0; mode < 2; ++mode) {
            FX_REJECTED(cldnnSoftmaxForward(h, CLDNN_SOFTMAX_ACCURATE, (cldnnSoftmaxMode_t)mode, &one, t, small, 0,
                                            &zero, t, small2, 0));
            FX_REJECTED(cldnnSoftmaxBackward(h, CLDNN_SOFTMAX_ACCURATE, (cldnnSoftmaxMode_t)mode, &one, t, small, 0,
                                             t, small, 0, &zero, t, small2, 0));
        }
        int n, c, ph, pw;
        cldnnStatus_t s = cldnnGetPooling2dForwardOutputDim(pd, t, &n, &c, &ph, &pw);
        if (s != CLDNN_STATUS_SUCCESS)
            FX_REJECTED(s);
        else
            FX_ASSERT(n == big_shapes[i][0] && c == big_shapes[i][1] && ph == big_shapes[i][2] &&
                          pw == big_shapes[i][3],
                      "1x1 pooling output dims %dx%dx%dx%d", n, c, ph, pw);
        FX_REJECTED(cldnnPoolingForward(h, pd, &one, t, small, 0, &zero, t, small2, 0));
        FX_REJECTED(cldnnPoolingBackward(h, pd, &one, t, small, 0, t, small, 0, t, small, 0, &zero, t, small2, 0));
        for (int mode = 0; mode < 2; ++mode) {
            FX_REJECTED(cldnnLRNForward(h, ld, (cldnnLRNMode_t)mode, &one, t, small, 0, &zero, t, small2, 0));
            FX_REJECTED(cldnnLRNBackward(h, ld, (cldnnLRNMode_t)mode, &one, t, small, 0, t, small, 0, t, small, 0,
                                         &zero, t, small2, 0));
            cldnnTensorDescriptor_t bn = NULL;
            FX_OK(cldnnCreateTensorDescriptor(&bn));
            s = cldnnDeriveBNTensorDescriptor(bn, t, (cldnnBatchNormMode_t)mode);
            if (s == CLDNN_STATUS_SUCCESS)
                FX_REJECTED(cldnnBatchNormalizationForwardInference(h, (cldnnBatchNormMode_t)mode, &one, &zero, t,
                                                                    small, 0, t, small2, 0, bn, small, 0, small, 0,
                                                                    small, 0, small, 0, 1e-5));
            else
                FX_REJECTED(s);
            cldnnDestroyTensorDescriptor(bn);
        }
        cldnnDestroyTensorDescriptor(t);
    }
    cldnnDestroyLRNDescriptor(ld);
    cldnnDestroyPoolingDescriptor(pd);
    cldnnDestroyActivationDescriptor(act);
    fx_release(small);
    fx_release(small2);
}

/* Output dims of inputs whose padded extent passes 2^63 (int8 data lets a dim reach 2^63 - 1):
** rejected, not wrapped. */
Test(sizes, conv_output_dims_near_2_63) {
    const int64_t dims[4] = {1, 1, INT64_MAX, 1};
    cldnnTensorDescriptor_t x = tensor(CLDNN_DATA_INT8, 4, dims);
    cldnnFilterDescriptor_t f = filter(1, 1, 1, 1);
    cldnnConvolutionDescriptor_t cd = conv(1 << 30);
    int n, c, ph, pw;
    FX_REJECTED(cldnnGetConvolution2dForwardOutputDim(cd, x, f, &n, &c, &ph, &pw));
    cldnnDestroyTensorDescriptor(x);
    /* 2^40 images of one pixel padded to 2^29 + 1 squared: the output has 2^98 elements */
    x = tensor(CLDNN_DATA_FLOAT, 4, (const int64_t[]){E(40), 1, 1, 1});
    cldnnDestroyConvolutionDescriptor(cd);
    cd = conv(1 << 28);
    FX_REJECTED(cldnnGetConvolution2dForwardOutputDim(cd, x, f, &n, &c, &ph, &pw));
    cldnnDestroyTensorDescriptor(x);
    cldnnDestroyFilterDescriptor(f);
    cldnnDestroyConvolutionDescriptor(cd);
}

/* Algorithms per direction (forward, backward data, backward filter). */
static const int algo_count[3] = {8, 6, 7};

/* The workspace query of direction dir for x, f, y (dx, dw and dy in the backwards). */
static cldnnStatus_t workspace_size(cldnnHandle_t h, int dir, int algo, cldnnTensorDescriptor_t x,
                                    cldnnFilterDescriptor_t f, cldnnConvolutionDescriptor_t cd,
                                    cldnnTensorDescriptor_t y, size_t* ws) {
    switch (dir) {
    case 0:
        return cldnnGetConvolutionForwardWorkspaceSize(h, x, f, cd, y, (cldnnConvolutionFwdAlgo_t)algo, ws);
    case 1:
        return cldnnGetConvolutionBackwardDataWorkspaceSize(h, f, y, cd, x, (cldnnConvolutionBwdDataAlgo_t)algo, ws);
    default:
        return cldnnGetConvolutionBackwardFilterWorkspaceSize(h, x, y, cd, f, (cldnnConvolutionBwdFilterAlgo_t)algo,
                                                              ws);
    }
}

/* A convolution whose every tensor is below 2^31 elements but whose im2col column matrix has
** about 2^61 elements (2^63 bytes): C = 2^31 - 1 channels of one pixel, 1x1 filter, padding 2^14,
** so P x Q = (2^15 + 1)^2. Get, the workspace sizes and the runs must reject the column path or
** report its exact size; nothing may wrap. */
Test(sizes, conv_workspace_past_2_63_bytes) {
    cldnnHandle_t h = fx_handle();
    const int64_t C = E(31) - 1, P = E(15) + 1;
    cldnnTensorDescriptor_t x = tensor(CLDNN_DATA_FLOAT, 4, (const int64_t[]){1, C, 1, 1});
    cldnnTensorDescriptor_t y = tensor(CLDNN_DATA_FLOAT, 4, (const int64_t[]){1, 1, P, P});
    cldnnFilterDescriptor_t f = filter(1, C, 1, 1);
    cldnnConvolutionDescriptor_t cd = conv(1 << 14);
    int n, c, ph, pw;
    FX_OK(cldnnGetConvolution2dForwardOutputDim(cd, x, f, &n, &c, &ph, &pw));
    FX_ASSERT(n == 1 && c == 1 && ph == P && pw == P, "output %dx%dx%dx%d", n, c, ph, pw);
    /* 2^63 bytes or more cannot be a size_t answer that means what it says: no algorithm may claim it */
    const uint64_t col_bytes = (uint64_t)C * (uint64_t)(P * P) * 4u;
    static const char* const dirs[3] = {"forward", "backward-data", "backward-filter"};
    for (int dir = 0; dir < 3; ++dir)
        for (int algo = 0; algo < algo_count[dir]; ++algo) {
            size_t ws = 0;
            cldnnStatus_t s = workspace_size(h, dir, algo, x, f, cd, y, &ws);
            if (s != CLDNN_STATUS_SUCCESS)
                FX_REJECTED(s);
            else
                FX_ASSERT((uint64_t)ws < col_bytes / 4, "%s algo %d claims the problem with %zu workspace bytes",
                          dirs[dir], algo, ws);
        }
    /* Get ranks every solver (each applicability test sees the shape) and runs nothing */
    cldnnConvolutionFwdAlgoPerf_t perf[8];
    int got = 0;
    cldnnStatus_t s = cldnnGetConvolutionForwardAlgorithm_v7(h, x, f, cd, y, 8, &got, perf);
    if (s != CLDNN_STATUS_SUCCESS)
        FX_REJECTED(s);
    for (int i = 0; i < got; ++i)
        if (perf[i].status == CLDNN_STATUS_SUCCESS)
            FX_ASSERT((uint64_t)perf[i].memory < col_bytes / 4, "Get: algo %d needs %zu bytes", (int)perf[i].algo,
                      perf[i].memory);
    /* runs on small buffers: rejected before anything is enqueued */
    cl_mem small = fx_buffer(4096), ws = fx_buffer(4096);
    const float one = 1.0f, zero = 0.0f;
    for (int algo = 0; algo < algo_count[0]; ++algo)
        FX_REJECTED(cldnnConvolutionForward(h, &one, x, small, 0, f, small, 0, cd, (cldnnConvolutionFwdAlgo_t)algo, ws,
                                            0, 4096, &zero, y, small, 0));
    fx_release(small);
    fx_release(ws);
    cldnnDestroyTensorDescriptor(x);
    cldnnDestroyTensorDescriptor(y);
    cldnnDestroyFilterDescriptor(f);
    cldnnDestroyConvolutionDescriptor(cd);
}

/* Convolutions whose tensors pass 2^31 elements: NOT_SUPPORTED_SHAPE from Get, the workspace
** query and the run alike (the kernels index in 32 bits). */
Test(sizes, conv_tensors_past_2_31) {
    cldnnHandle_t h = fx_handle();
    cldnnTensorDescriptor_t x = tensor(CLDNN_DATA_FLOAT, 4, (const int64_t[]){2, 1024, 1024, 1024});
    cldnnFilterDescriptor_t f = filter(1024, 1024, 1, 1);
    cldnnConvolutionDescriptor_t cd = conv(0);
    cl_mem small = fx_buffer(4096);
    const float one = 1.0f, zero = 0.0f;
    size_t ws = 0;
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                     cldnnGetConvolutionForwardWorkspaceSize(h, x, f, cd, x, CLDNN_CONVOLUTION_FWD_ALGO_GEMM, &ws));
    cldnnConvolutionFwdAlgoPerf_t perf[8];
    int got = 0;
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                     cldnnGetConvolutionForwardAlgorithm_v7(h, x, f, cd, x, 8, &got, perf));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                     cldnnConvolutionForward(h, &one, x, small, 0, f, small, 0, cd,
                                             CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, NULL, 0, 0, &zero, x, small, 0));
    cldnnTensorDescriptor_t bias = tensor(CLDNN_DATA_FLOAT, 4, (const int64_t[]){1, 1024, 1, 1});
    FX_REJECTED(cldnnConvolutionBackwardBias(h, &one, x, small, 0, &zero, bias, small, 0));
    fx_release(small);
    cldnnDestroyTensorDescriptor(bias);
    cldnnDestroyTensorDescriptor(x);
    cldnnDestroyFilterDescriptor(f);
    cldnnDestroyConvolutionDescriptor(cd);
}

/* Sizes that are legal and large come back exact: a 2^31-element tensor is 2^33 bytes, a filter
** of 2^40 elements 2^42 bytes. */
Test(sizes, large_legal_sizes_exact) {
    cldnnTensorDescriptor_t t = tensor(CLDNN_DATA_FLOAT, 4, big_shapes[0]);
    size_t sz = 0;
    FX_OK(cldnnGetTensorSizeInBytes(t, &sz));
    FX_ASSERT((uint64_t)sz == (uint64_t)E(33), "tensor of 2^31 floats: %zu bytes", sz);
    cldnnDestroyTensorDescriptor(t);
    cldnnFilterDescriptor_t f = filter(E(20), E(20), 1, 1);
    FX_OK(cldnnGetFilterSizeInBytes(f, &sz));
    FX_ASSERT((uint64_t)sz == (uint64_t)E(42), "filter of 2^40 floats: %zu bytes", sz);
    cldnnDestroyFilterDescriptor(f);
}
