/*
** test_conv_params.c: the implicit-GEMM convolution's parameter choice, white-box (includes
** internal.h), for devices this machine does not have.
**
** The defaults come from the conv table (conv_params.c), else the GEMM table, and backward-
** filter's split count from the problem and the device's compute units. A choice the kernel's
** constraints refuse shows up only at run time on that device (ResNet-50's 7x7 stem asked for 132
** splits on the H100's 132 compute units, past the limit of 64). This suite builds the problems of
** every ResNet-50 and VGG-16 layer at batch 32 (descriptors only, nothing runs) and checks the
** defaults on profiles copied from the handle's device and renamed: an H100 (132 compute units),
** an unknown GPU (16) and a CPU (2): valid tile parameters, 1 <= splits <= 64, and a workspace
** that is exactly splits * K * C/G * R * S floats when the reduction is split.
*/
#include "fixture.h"
#include "internal.h"
#include "whitebox.h"

#include <string.h>

TestSuite(conv_params, .fini = fx_fini);


/* The four descriptors of a convolution, created together. */
typedef struct {
    cldnnTensorDescriptor_t x, y;
    cldnnFilterDescriptor_t w;
    cldnnConvolutionDescriptor_t c;
} conv_descs;

static void descs_create(conv_descs* d) {
    FX_EXPECT_STATUS(cldnnCreateTensorDescriptor(&d->x), CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnCreateTensorDescriptor(&d->y), CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnCreateFilterDescriptor(&d->w), CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnCreateConvolutionDescriptor(&d->c), CLDNN_STATUS_SUCCESS);
}

static void descs_destroy(conv_descs* d) {
    cldnnDestroyTensorDescriptor(d->x);
    cldnnDestroyTensorDescriptor(d->y);
    cldnnDestroyFilterDescriptor(d->w);
    cldnnDestroyConvolutionDescriptor(d->c);
}

static void check_profile(const cldnn_device_profile* dev) {
    cldnnHandle_t h = fx_handle();
    conv_descs d;
    descs_create(&d);
    cldnnTensorDescriptor_t xd = d.x, yd = d.y;
    cldnnFilterDescriptor_t wd = d.w;
    cldnnConvolutionDescriptor_t cd = d.c;
    for (size_t i = 0; i < sizeof wb_net_layers / sizeof wb_net_layers[0]; ++i) {
        const int* l = wb_net_layers[i];
        for (int nhwc = 0; nhwc < 2; ++nhwc) {
            cldnnTensorFormat_t f = nhwc ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW;
            FX_EXPECT_STATUS(cldnnSetTensor4dDescriptor(xd, f, CLDNN_DATA_FLOAT, l[0], l[1], l[2], l[3]),
                             CLDNN_STATUS_SUCCESS);
            FX_EXPECT_STATUS(cldnnSetFilter4dDescriptor(wd, CLDNN_DATA_FLOAT, f, l[4], l[1], l[5], l[6]),
                             CLDNN_STATUS_SUCCESS);
            FX_EXPECT_STATUS(cldnnSetConvolution2dDescriptor(cd, l[7], l[7], l[8], l[8], 1, 1,
                                                             CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT),
                             CLDNN_STATUS_SUCCESS);
            int n, k, p, q;
            FX_EXPECT_STATUS(cldnnGetConvolution2dForwardOutputDim(cd, xd, wd, &n, &k, &p, &q), CLDNN_STATUS_SUCCESS);
            FX_EXPECT_STATUS(cldnnSetTensor4dDescriptor(yd, f, CLDNN_DATA_FLOAT, n, k, p, q), CLDNN_STATUS_SUCCESS);
            for (int dir = 0; dir < 3; ++dir) {
                cldnn_conv_problem pr;
                FX_EXPECT_STATUS(cldnn_conv_problem_init(h, (cldnn_conv_dir)dir, xd, wd, cd, yd, &pr),
                                 CLDNN_STATUS_SUCCESS);
                pr.dev = dev;
                cldnn_gemm_params prm;
                cldnn_conv_igemm_defaults(&pr, dev, &prm);
                char ps[96];
                cldnn_gemm_params_format(&prm, ps, sizeof ps);
                FX_ASSERT(cldnn_gemm_params_valid(&prm, dev), "%s on %s (%u CUs): parameters %s are not valid",
                          pr.key, dev->name, (unsigned)dev->compute_units, ps);
                FX_ASSERT(prm.splitk >= 1 && prm.splitk <= 64, "%s on %s: %d splits", pr.key, dev->name, prm.splitk);
                size_t ws = cldnn_conv_igemm_workspace(&pr);
                size_t want = prm.splitk > 1 ? (size_t)prm.splitk * (size_t)pr.k * (size_t)pr.cg * (size_t)pr.r *
                                                   (size_t)pr.s * 4u
                                             : 0;
                FX_ASSERT(ws == want, "%s on %s: workspace %zu, %d splits want %zu", pr.key, dev->name, ws,
                          prm.splitk, want);
            }
        }
    }
    descs_destroy(&d);
}

Test(conv_params, defaults_valid_on_h100_profile) {
    cldnn_device_profile dev = fx_handle()->prof;
    snprintf(dev.name, sizeof dev.name, "NVIDIA H100 80GB HBM3");
    dev.is_cpu = 0;
    dev.is_nvidia = 1;
    dev.compute_units = 132;
    dev.max_wg_size = 1024;
    dev.local_mem = 49152;
    check_profile(&dev);
}

Test(conv_params, defaults_valid_on_unknown_gpu_profile) {
    cldnn_device_profile dev = fx_handle()->prof;
    snprintf(dev.name, sizeof dev.name, "Some GPU");
    dev.is_cpu = 0;
    dev.compute_units = 16;
    dev.max_wg_size = 256;
    dev.local_mem = 32768;
    check_profile(&dev);
}

Test(conv_params, defaults_valid_on_this_device) {
    check_profile(&fx_handle()->prof);
}

/* Sizes at the edges of the kernels' 32-bit index arithmetic are refused up front: a window
** whose extent overflows 64 bits when dilated, and a padded input of 2^29 or more (the kernels
** mark out-of-range rows with positions near -2^30). */
Test(conv_params, extreme_sizes_refused) {
    cldnnHandle_t h = fx_handle();
    conv_descs d;
    descs_create(&d);
    cldnnTensorDescriptor_t xd = d.x, yd = d.y;
    cldnnFilterDescriptor_t wd = d.w;
    cldnnConvolutionDescriptor_t cd = d.c;
    FX_EXPECT_STATUS(cldnnSetTensor4dDescriptor(xd, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 8, 8),
                     CLDNN_STATUS_SUCCESS);
    const int64_t fdims[4] = {1, 1, ((int64_t)1 << 34) + 1, 1};
    FX_EXPECT_STATUS(cldnnSetFilterNdDescriptor(wd, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 4, fdims),
                     CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1 << 30, 1, CLDNN_CROSS_CORRELATION,
                                                     CLDNN_DATA_FLOAT),
                     CLDNN_STATUS_SUCCESS);
    int n, k, p, q;
    FX_EXPECT_STATUS(cldnnGetConvolution2dForwardOutputDim(cd, xd, wd, &n, &k, &p, &q),
                     CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH);

    /* A 2x1 filter dilated by 2^30 inside a padding of 2^29: every tap lands in the padding. */
    FX_EXPECT_STATUS(cldnnSetTensor4dDescriptor(xd, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 2, 4, 3),
                     CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnSetFilter4dDescriptor(wd, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 1, 2, 2, 1),
                     CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnSetConvolution2dDescriptor(cd, 1 << 29, 0, 1, 1, 1 << 30, 1, CLDNN_CROSS_CORRELATION,
                                                     CLDNN_DATA_FLOAT),
                     CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnGetConvolution2dForwardOutputDim(cd, xd, wd, &n, &k, &p, &q), CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnSetTensor4dDescriptor(yd, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, n, k, p, q),
                     CLDNN_STATUS_SUCCESS);
    size_t ws;
    FX_EXPECT_STATUS(cldnnGetConvolutionBackwardFilterWorkspaceSize(h, xd, yd, cd, wd,
                                                                    CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1, &ws),
                     CLDNN_STATUS_NOT_SUPPORTED_SHAPE);
    char msg[256];
    cldnnGetLastErrorString(msg, sizeof msg);
    FX_ASSERT(strstr(msg, "2^29") != NULL, "message: %s", msg);
    descs_destroy(&d);
}
