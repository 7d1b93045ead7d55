/*
** consumer.c: a program outside the project, built against an installed cldnn (tests/consumer/run.sh
** builds it through find_package(cldnn) and through pkg-config). It checks the version it compiled
** against is the one it runs with, creates the default handle, runs one ReLU on 1000 values and
** checks the result on the host. Exit status 0 on success.
*/
#include <cldnn.h>

#include <stdio.h>

int main(void) {
    if (cldnnGetVersion() != (size_t)CLDNN_VERSION) {
        fprintf(stderr, "consumer: header %zu, library %zu\n", (size_t)CLDNN_VERSION, cldnnGetVersion());
        return 1;
    }
    enum { N = 1000 };
    float host[N], out[N];
    for (int i = 0; i < N; ++i) host[i] = (float)(i - N / 2) / 7.0f;
    cldnnHandle_t h = NULL;
    cldnnTensorDescriptor_t t = NULL;
    cldnnActivationDescriptor_t a = NULL;
    cl_command_queue q;
    cl_context ctx;
    cl_mem buf = NULL;
    cl_int err;
    int bad = -1;
    const float one = 1.0f, zero = 0.0f;
    if (cldnnCreateDefault(&h) || cldnnGetQueue(h, &q) ||
        clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL) != CL_SUCCESS)
        goto out;
    buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    if (err != CL_SUCCESS || cldnnCreateTensorDescriptor(&t) ||
        cldnnSetTensor4dDescriptor(t, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 1, N) ||
        cldnnCreateActivationDescriptor(&a) ||
        cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0) ||
        cldnnActivationForward(h, a, &one, t, buf, 0, &zero, t, buf, 0) ||
        clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL) != CL_SUCCESS)
        goto out;
    bad = 0;
    for (int i = 0; i < N; ++i) bad += out[i] != (host[i] > 0 ? host[i] : 0.0f);
out:
    if (bad) {
        char msg[512];
        cldnnGetLastErrorString(msg, sizeof msg);
        fprintf(stderr, "consumer: %s\n", bad < 0 ? msg : "wrong ReLU result");
    } else {
        printf("consumer: cldnn %zu, ReLU of %d values correct\n", cldnnGetVersion(), N);
    }
    if (buf) clReleaseMemObject(buf);
    cldnnDestroyActivationDescriptor(a);
    cldnnDestroyTensorDescriptor(t);
    cldnnDestroy(h);
    return bad != 0;
}
