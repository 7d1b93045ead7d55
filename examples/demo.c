/*
** demo.c: the main demo. Runs on the embedded default device (CLDNN_DEVICE, else the first GPU,
** else PoCL on the CPU): ReLU forward and backward and an NCHW -> NHWC transform of a small
** batch, checked on the host, with the time of the first call of the process (handle creation,
** program build or cache load, the first kernel) printed, so a cold and a warm program cache can
** be compared:
**     CLDNN_CACHE_DIR=$(mktemp -d) ./build/examples/cldnn-demo    # cold
**     ./build/examples/cldnn-demo                                 # warm
*/
#define _POSIX_C_SOURCE 200809L
#include <cldnn.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                                     \
    do {                                                                                \
        cldnnStatus_t s_ = (call);                                                      \
        if (s_ != CLDNN_STATUS_SUCCESS) {                                               \
            char msg_[1024];                                                            \
            cldnnGetLastErrorString(msg_, sizeof msg_);                                 \
            fprintf(stderr, "%s failed: %s\n  %s\n", #call, cldnnGetErrorString(s_), msg_); \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(void) {
    enum { N = 2, C = 3, H = 4, W = 5, COUNT = N * C * H * W };
    float x[COUNT], y[COUNT], dy[COUNT], dx[COUNT], t[COUNT];
    srand(1);
    for (int i = 0; i < COUNT; ++i) {
        x[i] = (float)rand() / RAND_MAX * 2.0f - 1.0f;
        dy[i] = (float)rand() / RAND_MAX;
    }

    double t0 = now_ms();
    cldnnHandle_t h;
    CHECK(cldnnCreateDefault(&h));
    double t1 = now_ms();
    cl_command_queue q;
    CHECK(cldnnGetQueue(h, &q));
    cl_context ctx;
    cl_device_id dev;
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
    char name[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);

    cl_int err;
    size_t bytes = sizeof x;
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, x, &err);
    cl_mem bdy = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, dy, &err);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem bdx = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem bt = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);

    cldnnTensorDescriptor_t nchw, nhwc;
    CHECK(cldnnCreateTensorDescriptor(&nchw));
    CHECK(cldnnCreateTensorDescriptor(&nhwc));
    CHECK(cldnnSetTensor4dDescriptor(nchw, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, N, C, H, W));
    CHECK(cldnnSetTensor4dDescriptor(nhwc, CLDNN_TENSOR_NHWC, CLDNN_DATA_FLOAT, N, C, H, W));
    cldnnActivationDescriptor_t relu;
    CHECK(cldnnCreateActivationDescriptor(&relu));
    CHECK(cldnnSetActivationDescriptor(relu, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0));

    const float one = 1.0f, zero = 0.0f;
    double t2 = now_ms();
    CHECK(cldnnActivationForward(h, relu, &one, nchw, bx, 0, &zero, nchw, by, 0));
    clFinish(q);
    double t3 = now_ms();
    CHECK(cldnnActivationBackward(h, relu, &one, nchw, by, 0, nchw, bdy, 0, nchw, bx, 0, &zero, nchw, bdx, 0));
    CHECK(cldnnTransformTensor(h, &one, nchw, bx, 0, &zero, nhwc, bt, 0));
    clEnqueueReadBuffer(q, by, CL_TRUE, 0, bytes, y, 0, NULL, NULL);
    clEnqueueReadBuffer(q, bdx, CL_TRUE, 0, bytes, dx, 0, NULL, NULL);
    clEnqueueReadBuffer(q, bt, CL_TRUE, 0, bytes, t, 0, NULL, NULL);

    int bad = 0;
    for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c)
            for (int hh = 0; hh < H; ++hh)
                for (int w = 0; w < W; ++w) {
                    int i = ((n * C + c) * H + hh) * W + w;
                    int j = ((n * H + hh) * W + w) * C + c;
                    bad += y[i] != fmaxf(x[i], 0.0f);
                    bad += dx[i] != (x[i] > 0.0f ? dy[i] : 0.0f);
                    bad += t[j] != x[i];
                }

    printf("cldnn %zu on %s\n", cldnnGetVersion(), name);
    printf("relu forward, relu backward, NCHW->NHWC transform of %dx%dx%dx%d: %s\n", N, C, H, W,
           bad ? "MISMATCH" : "all results match the host");
    printf("first call of the process: %.1f ms (handle %.1f ms, first relu forward incl. program %.1f ms)\n",
           t3 - t0, t1 - t0, t3 - t2);

    cldnnDestroyActivationDescriptor(relu);
    cldnnDestroyTensorDescriptor(nchw);
    cldnnDestroyTensorDescriptor(nhwc);
    clReleaseMemObject(bx);
    clReleaseMemObject(bdy);
    clReleaseMemObject(by);
    clReleaseMemObject(bdx);
    clReleaseMemObject(bt);
    CHECK(cldnnDestroy(h));
    return bad ? 1 : 0;
}
