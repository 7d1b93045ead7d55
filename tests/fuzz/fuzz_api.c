/*
** fuzz_api.c: the libFuzzer target over cldnn's public entry points (issue 9).
**
** Each input is a little program of bytes: the first picks an entry point, the rest fill its
** descriptors (dims and strides in [-3, 45], formats, data types and enum values, some of them
** out of range), its byte offsets (aligned or not) and the sizes of its buffers. The call runs on
** the default device (PoCL on the CPU) with a handle made once per process. What must hold:
**   - the call returns a status (a crash or a sanitizer report is a finding);
**   - a failing status comes with a non-empty cldnnGetLastErrorString;
**   - nothing is written outside the buffers: each buffer is a sub-buffer in the middle of a
**     parent filled with a canary pattern, and the parent's bytes around it are compared after
**     the call (a changed byte aborts).
** Build (clang, the fuzz tree of .ci/run): cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang
**   -DCLDNN_FUZZ=ON -DCLDNN_BUILD_PERF=OFF; run: build-fuzz/tests/fuzz_api tests/fuzz/corpus
**   -max_total_time=120 (the corpus folder holds the committed seeds).
*/
#include <cldnn.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------ input reader */

typedef struct {
    const uint8_t* p;
    size_t n;
} reader;

static unsigned u8(reader* r) {
    if (r->n == 0) return 0;
    r->n--;
    return *r->p++;
}

/* A dimension or stride in [-3, 45], small values most likely. */
static int small(reader* r) {
    unsigned v = u8(r);
    return v < 200 ? (int)(v % 12) + 1 : (int)(v % 49) - 3;
}

static size_t offset(reader* r) {
    unsigned v = u8(r);
    return v < 192 ? (size_t)(v % 8) * 4 : (size_t)(v % 64); /* mostly aligned floats, some not */
}

/* --------------------------------------------------------------------- guarded buffers */

#define GUARD 4096 /* bytes of canary on each side (a multiple of every base-address alignment) */
#define CANARY 0xA5
#define NBUF 4

typedef struct {
    cl_mem parent, sub;
    size_t size;
} guarded;

static cldnnHandle_t h;
static cl_context ctx;
static cl_command_queue q;

static void setup(void) {
    if (h) return;
    if (cldnnCreateDefault(&h) != CLDNN_STATUS_SUCCESS || cldnnGetQueue(h, &q) != CLDNN_STATUS_SUCCESS ||
        clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL) != CL_SUCCESS) {
        fprintf(stderr, "fuzz_api: no default device\n");
        abort();
    }
}

/* A buffer of `size` bytes (1..65536) inside a canary-filled parent. */
static void guarded_make(guarded* g, size_t size) {
    cl_int err;
    g->size = size;
    g->parent = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size + 2 * GUARD, NULL, &err);
    if (err != CL_SUCCESS) abort();
    unsigned char pat = CANARY;
    clEnqueueFillBuffer(q, g->parent, &pat, 1, 0, size + 2 * GUARD, 0, NULL, NULL);
    cl_buffer_region reg = {GUARD, size};
    g->sub = clCreateSubBuffer(g->parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
    if (err != CL_SUCCESS) abort();
}

/* Checks both guards, then releases. */
static void guarded_check_free(guarded* g, const char* what) {
    static unsigned char host[GUARD];
    for (int side = 0; side < 2; ++side) {
        size_t at = side ? GUARD + g->size : 0;
        if (clEnqueueReadBuffer(q, g->parent, CL_TRUE, at, GUARD, host, 0, NULL, NULL) != CL_SUCCESS) abort();
        for (size_t i = 0; i < GUARD; ++i)
            if (host[i] != CANARY) {
                fprintf(stderr, "fuzz_api: %s wrote %zu bytes %s its buffer of %zu\n", what,
                        side ? i + 1 : GUARD - i, side ? "past the end of" : "before", g->size);
                abort();
            }
    }
    clReleaseMemObject(g->sub);
    clReleaseMemObject(g->parent);
}

/* ------------------------------------------------------------------------------ descriptors */

static cldnnDataType_t dtype(reader* r) {
    unsigned v = u8(r);
    return v < 224 ? CLDNN_DATA_FLOAT : v < 240 ? CLDNN_DATA_HALF : (cldnnDataType_t)(v % 12);
}

/* Sets t from the input: 4-d packed in a format, 4-d with strides, or Nd. */
static void tensor(reader* r, cldnnTensorDescriptor_t t) {
    unsigned kind = u8(r) % 4;
    cldnnDataType_t dt = dtype(r);
    if (kind <= 1) {
        cldnnSetTensor4dDescriptor(t, kind ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW, dt, small(r), small(r), small(r),
                                   small(r));
    } else if (kind == 2) {
        int n = small(r), c = small(r), hh = small(r), w = small(r);
        cldnnSetTensor4dDescriptorEx(t, dt, n, c, hh, w, small(r) * 40, small(r) * 8, small(r) * 2, small(r));
    } else {
        int nd = (int)(u8(r) % 10);
        int64_t dims[10], strides[10];
        for (int i = 0; i < nd; ++i) {
            dims[i] = small(r);
            strides[i] = small(r) * (int64_t)(u8(r) % 4 + 1);
        }
        cldnnSetTensorNdDescriptor(t, dt, nd, dims, strides);
    }
}

/* ------------------------------------------------------------------------------ the target */

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    setup();
    reader r = {data, size};
    const unsigned op = u8(&r) % 10;
    cldnnTensorDescriptor_t a = NULL, b = NULL, p = NULL;
    cldnnFilterDescriptor_t f = NULL;
    cldnnConvolutionDescriptor_t cd = NULL;
    cldnnPoolingDescriptor_t pd = NULL;
    cldnnLRNDescriptor_t ld = NULL;
    cldnnActivationDescriptor_t ad = NULL;
    cldnnCreateTensorDescriptor(&a);
    cldnnCreateTensorDescriptor(&b);
    cldnnCreateTensorDescriptor(&p);
    cldnnCreateFilterDescriptor(&f);
    cldnnCreateConvolutionDescriptor(&cd);
    cldnnCreatePoolingDescriptor(&pd);
    cldnnCreateLRNDescriptor(&ld);
    cldnnCreateActivationDescriptor(&ad);
    tensor(&r, a);
    tensor(&r, b);
    guarded g[NBUF];
    size_t off[NBUF];
    for (int i = 0; i < NBUF; ++i) {
        size_t bytes = ((size_t)u8(&r) << 8 | u8(&r)) + 1;
        guarded_make(&g[i], bytes);
        off[i] = offset(&r);
    }
    const float alpha = (u8(&r) & 1) ? 1.0f : 0.5f, beta = (u8(&r) & 1) ? 0.0f : 1.0f;
    const void* al = u8(&r) == 255 ? NULL : &alpha; /* a NULL scaling pointer now and then */
    cldnnStatus_t st = CLDNN_STATUS_SUCCESS;
    const char* what = "?";
    switch (op) {
    case 0: {
        what = "activation";
        cldnnSetActivationDescriptor(ad, (cldnnActivationMode_t)(u8(&r) % 8), (cldnnNanPropagation_t)(u8(&r) % 3),
                                     (double)small(&r));
        st = (u8(&r) & 1) ? cldnnActivationForward(h, ad, al, a, g[0].sub, off[0], &beta, b, g[1].sub, off[1])
                          : cldnnActivationBackward(h, ad, al, a, g[0].sub, off[0], a, g[1].sub, off[1], b, g[2].sub,
                                                    off[2], &beta, b, g[3].sub, off[3]);
        break;
    }
    case 1:
        what = "softmax";
        st = cldnnSoftmaxForward(h, (cldnnSoftmaxAlgorithm_t)(u8(&r) % 4), (cldnnSoftmaxMode_t)(u8(&r) % 3), al, a,
                                 g[0].sub, off[0], &beta, b, g[1].sub, off[1]);
        break;
    case 2:
        what = "add/transform";
        st = (u8(&r) & 1) ? cldnnAddTensor(h, al, a, g[0].sub, off[0], &beta, b, g[1].sub, off[1])
                          : cldnnTransformTensor(h, al, a, g[0].sub, off[0], &beta, b, g[1].sub, off[1]);
        break;
    case 3: {
        what = "pooling";
        cldnnSetPooling2dDescriptor(pd, (cldnnPoolingMode_t)(u8(&r) % 5), (cldnnNanPropagation_t)(u8(&r) % 2),
                                    small(&r), small(&r), small(&r) - 1, small(&r) - 1, small(&r), small(&r));
        int n, c, hh, w;
        cldnnGetPooling2dForwardOutputDim(pd, a, &n, &c, &hh, &w);
        st = (u8(&r) & 1) ? cldnnPoolingForward(h, pd, al, a, g[0].sub, off[0], &beta, b, g[1].sub, off[1])
                          : cldnnPoolingBackward(h, pd, al, b, g[0].sub, off[0], b, g[1].sub, off[1], a, g[2].sub,
                                                 off[2], &beta, a, g[3].sub, off[3]);
        break;
    }
    case 4:
        what = "lrn";
        cldnnSetLRNDescriptor(ld, u8(&r) % 20, 1e-4, 0.75 * (u8(&r) % 3), 2.0);
        st = cldnnLRNForward(h, ld, (cldnnLRNMode_t)(u8(&r) % 3), al, a, g[0].sub, off[0], &beta, b, g[1].sub, off[1]);
        break;
    case 5: {
        what = "batchnorm inference";
        cldnnBatchNormMode_t m = (cldnnBatchNormMode_t)(u8(&r) % 3);
        cldnnDeriveBNTensorDescriptor(p, a, m);
        st = cldnnBatchNormalizationForwardInference(h, m, al, &beta, a, g[0].sub, off[0], b, g[1].sub, off[1], p,
                                                     g[2].sub, off[2], g[2].sub, off[2], g[3].sub, off[3], g[3].sub,
                                                     off[3], 1e-5 * (u8(&r) % 3));
        break;
    }
    case 6: {
        what = "batchnorm training";
        cldnnBatchNormMode_t m = (cldnnBatchNormMode_t)(u8(&r) % 3);
        cldnnDeriveBNTensorDescriptor(p, a, m);
        st = cldnnBatchNormalizationForwardTraining(h, m, al, &beta, a, g[0].sub, off[0], b, g[1].sub, off[1], p,
                                                    g[2].sub, off[2], g[2].sub, off[2], 0.1, g[3].sub, off[3],
                                                    g[3].sub, off[3] + 64, 1e-5, NULL, 0, NULL, 0);
        break;
    }
    case 7:
    case 8: {
        what = "convolution";
        cldnnSetFilter4dDescriptor(f, dtype(&r), (cldnnTensorFormat_t)(u8(&r) % 3), small(&r), small(&r), small(&r),
                                   small(&r));
        cldnnSetConvolution2dDescriptor(cd, small(&r) - 1, small(&r) - 1, small(&r), small(&r), small(&r), small(&r),
                                        (cldnnConvolutionMode_t)(u8(&r) % 3), CLDNN_DATA_FLOAT);
        cldnnSetConvolutionGroupCount(cd, small(&r));
        int n, c, hh, w, got = 0;
        cldnnGetConvolution2dForwardOutputDim(cd, a, f, &n, &c, &hh, &w);
        cldnnConvolutionFwdAlgoPerf_t perf[8];
        cldnnGetConvolutionForwardAlgorithm_v7(h, a, f, cd, b, 8, &got, perf);
        cldnnConvolutionFwdAlgo_t algo = (cldnnConvolutionFwdAlgo_t)(u8(&r) % 9);
        size_t ws = 0;
        cldnnGetConvolutionForwardWorkspaceSize(h, a, f, cd, b, algo, &ws);
        st = cldnnConvolutionForward(h, al, a, g[0].sub, off[0], f, g[1].sub, off[1], cd, algo, g[3].sub, off[3],
                                     g[3].size, &beta, b, g[2].sub, off[2]);
        break;
    }
    default:
        what = "gemm";
        st = cldnnGemm(h, (cldnnLayout_t)(u8(&r) % 3), (cldnnOperation_t)(u8(&r) % 3), (cldnnOperation_t)(u8(&r) % 2),
                       small(&r), small(&r), small(&r), al, g[0].sub, off[0], small(&r), g[1].sub, off[1], small(&r),
                       &beta, g[2].sub, off[2], small(&r), CLDNN_DATA_FLOAT);
        break;
    }
    if (st != CLDNN_STATUS_SUCCESS) {
        char msg[256];
        cldnnGetLastErrorString(msg, sizeof msg);
        if (msg[0] == '\0') {
            fprintf(stderr, "fuzz_api: %s returned %s with no last-error string\n", what, cldnnGetErrorString(st));
            abort();
        }
    }
    clFinish(q);
    for (int i = 0; i < NBUF; ++i) guarded_check_free(&g[i], what);
    cldnnDestroyTensorDescriptor(a);
    cldnnDestroyTensorDescriptor(b);
    cldnnDestroyTensorDescriptor(p);
    cldnnDestroyFilterDescriptor(f);
    cldnnDestroyConvolutionDescriptor(cd);
    cldnnDestroyPoolingDescriptor(pd);
    cldnnDestroyLRNDescriptor(ld);
    cldnnDestroyActivationDescriptor(ad);
    return 0;
}
