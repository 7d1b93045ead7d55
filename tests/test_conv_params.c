/*
** test_conv_params.c: the implicit-GEMM and fused-Winograd convolutions' parameter choice,
** white-box (includes internal.h), for devices this machine does not have.
**
** The defaults come from the conv table (conv_params.c), else the GEMM table, and backward-
** filter's split count from the problem and the device's compute units. A choice the kernel's
** constraints refuse shows up only at run time on that device (ResNet-50's 7x7 stem asked for 132
** splits on the H100's 132 compute units, past the limit of 64). This suite builds the problems of
** every ResNet-50 and VGG-16 layer at batch 32 (descriptors only, nothing runs) and checks the
** defaults on profiles copied from the handle's device and renamed: an H100 (132 compute units),
** an unknown GPU (16) and a CPU (2): valid tile parameters, 1 <= splits <= 64, and a workspace
** that is exactly splits * K * C/G * R * S floats when the reduction is split. On the 3x3
** stride-1 layers the fused Winograd solvers (forward, backward-data) must apply with valid
** defaults and a workspace of (m + 2)^2 * C * K floats, F(4x4) ranked first on the GPU profiles;
** and a few parameter sets of the fused kernel's tuning space (cldnn-tune's, the tuning db's)
** must compute right against the double reference (wino_fused_param_sets).
*/
#include "fixture.h"
#include "internal.h"
#include "conv/conv.h"
#include "whitebox.h"

#include <math.h>
#include <stdlib.h>
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

/* The fused Winograd solvers on a 3x3 stride-1 problem pr: applicable, valid defaults, workspace
** U alone; F(4x4) preferred on GPUs (channels >= 16 on both sides in every layer of the list). */
static void check_fused_wino(const cldnn_conv_problem* pr, const cldnn_device_profile* dev) {
    for (int wm = 2; wm <= 4; wm += 2) {
        cldnn_wino_params q;
        (wm == 4 ? cldnn_conv_winof4_defaults : cldnn_conv_winof2_defaults)(pr, dev, &q);
        char qs[64];
        cldnn_wino_params_format(&q, qs, sizeof qs);
        FX_ASSERT(cldnn_wino_params_valid(&q, wm, dev), "%s on %s: fused F(%dx%d) defaults %s are not valid", pr->key,
                  dev->name, wm, wm, qs);
        FX_ASSERT((wm == 4 ? cldnn_conv_winof4_applicable : cldnn_conv_winof2_applicable)(pr, dev),
                  "%s on %s: fused F(%dx%d) does not apply", pr->key, dev->name, wm, wm);
        const size_t ws = (wm == 4 ? cldnn_conv_winof4_workspace : cldnn_conv_winof2_workspace)(pr, NULL);
        const size_t want = (size_t)(wm + 2) * (size_t)(wm + 2) * (size_t)pr->c * (size_t)pr->k * 4u;
        FX_ASSERT(ws == want, "%s: fused F(%dx%d) workspace %zu, want %zu", pr->key, wm, wm, ws, want);
    }
    const int pref = cldnn_conv_wino4_preferred(pr, dev), gpu = !dev->is_cpu && pr->c >= 16 && pr->k >= 16;
    FX_ASSERT(pref == gpu, "%s on %s: fused F(4x4) preferred %d, want %d", pr->key, dev->name, pref, gpu);
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
                size_t ws = cldnn_conv_igemm_workspace(&pr, NULL);
                size_t want = prm.splitk > 1 ? (size_t)prm.splitk * (size_t)pr.k * (size_t)pr.cg * (size_t)pr.r *
                                                   (size_t)pr.s * 4u
                                             : 0;
                FX_ASSERT(ws == want, "%s on %s: workspace %zu, %d splits want %zu", pr.key, dev->name, ws,
                          prm.splitk, want);
                if (l[5] == 3 && l[8] == 1 && dir != CLDNN_CONV_BWD_FILTER)
                    check_fused_wino(&pr, dev);
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

/* A part of a tuned architecture with smaller limits (a MIG slice, a cut-down board): rows keyed by
** compute capability that do not fit it (the cc 9.0 128 x 128 tiles need 33 KiB of local memory)
** give way to sets that do. */
Test(conv_params, defaults_valid_on_small_sm90_profile) {
    cldnn_device_profile dev = fx_handle()->prof;
    snprintf(dev.name, sizeof dev.name, "NVIDIA H100 MIG 1g.10gb");
    dev.is_cpu = 0;
    dev.is_nvidia = 1;
    dev.nv_cc_major = 9;
    dev.nv_cc_minor = 0;
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

/* The output of direction dir (got, packed as the reference's strides) against the double
** reference; the worst error / tolerance into *worst. Returns the number of wrong outputs. */
static int64_t fused_wrong(const ref_conv* rc, int dir, const float* hx, const float* hw, const float* hy,
                           const float* got, int N, int OC, int H, int W, double* worst) {
    const int fwd = dir == CLDNN_CONV_FWD;
    const int64_t* st = fwd ? rc->ys : rc->xs;
    int64_t bad = 0;
    *worst = 0;
    for (int n = 0; n < N; ++n)
        for (int ch = 0; ch < OC; ++ch)
            for (int r = 0; r < H; ++r)
                for (int c2 = 0; c2 < W; ++c2) {
                    double mag = 0;
                    const double want = fwd ? ref_conv_fwd_at(rc, hx, hw, n, ch, r, c2, &mag)
                                            : ref_conv_bwd_data_at(rc, hw, hy, n, ch, r, c2, &mag);
                    const int64_t at = n * st[0] + ch * st[1] + r * st[2] + c2 * st[3];
                    const double err = fabs(got[at] - want), tol = 1e-6 + 1e-4 * mag;
                    bad += !(err <= tol);
                    *worst = fmax(*worst, err / tol);
                }
    return bad;
}

/* Whether the public WINOGRAD algorithm (wino 1) serves pr when the fused F(wm x wm) does not
** apply: it must exactly when the other tile size's fused solver applies (status of its workspace
** query st); the default algorithm (wino 0) always must. */
static int wino_served(int wino, cldnnStatus_t st, const cldnn_conv_problem* pr, int wm) {
    const cldnn_device_profile* dev = &fx_handle()->prof;
    const int other = (wm == 4 ? cldnn_conv_winof2_applicable : cldnn_conv_winof4_applicable)(pr, dev);
    if (!wino || other) {
        FX_ASSERT(st == CLDNN_STATUS_SUCCESS, "%s without a fused F(%dx%d): %s", wino ? "WINOGRAD" : "the default",
                  wm, wm, cldnnGetErrorString(st));
        return 1;
    }
    FX_ASSERT(st == CLDNN_STATUS_NOT_SUPPORTED, "WINOGRAD with no fused solver applying: %s", cldnnGetErrorString(st));
    return 0;
}

/* Parameter sets of the fused Winograd kernel beside the defaults (the GPU defaults, one position
** group, uneven micro-tiles, wide blocks, chunks of 16 channels) against the double reference:
** forward and backward-data on a problem with C, K and the tiles off every block size, NCHW (the
** second set also NHWC: channel-fastest patches and outputs, scalar local loads). Tuned sets come
** from the same space (cldnn_wino_param_space), so each kind of blocking is exercised. A set the
** device cannot hold (local memory beyond its own) is skipped with a note; where no listed set of
** a tile size fits, the solver's own defaults run instead, and where the solver does not apply at
** all (no fused F(4x4) fits OpenCL 1.2's 32 KiB), the problem must still be served: the public
** WINOGRAD call (F(2x2) then, where it fits) and the default algorithm, both against the reference. */
static void fused_sets_on(int nhwc) {
    static const cldnn_wino_params sets[2][3] = {
        {{32, 32, 8, 4, 4, 4}, {16, 32, 4, 2, 8, 1}, {64, 16, 16, 8, 2, 2}},
        {{32, 32, 4, 4, 4, 6}, {16, 16, 8, 2, 4, 3}, {32, 64, 2, 4, 8, 12}}};
    cldnnHandle_t h = fx_handle();
    const int N = 2, C = 19, K = 21, H = 11, W = 9;
    const cldnnTensorFormat_t fmt = nhwc ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW;
    ref_conv rc;
    FX_ASSERT(ref_conv_init(&rc, N, C, H, W, K, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, nhwc) == 0, "bad reference problem");
    const size_t nx = (size_t)ref_conv_x_span(&rc), nw = (size_t)ref_conv_w_span(&rc), ny = (size_t)ref_conv_y_span(&rc);
    float* hx = malloc(nx * 4);
    float* hw = malloc(nw * 4);
    float* hy = malloc(ny * 4);
    float* got = malloc((nx > ny ? nx : ny) * 4);
    FX_ASSERT(hx && hw && hy && got, "out of memory");
    for (size_t i = 0; i < nx; ++i)
        hx[i] = fx_uniform(-1.0, 1.0);
    for (size_t i = 0; i < nw; ++i)
        hw[i] = fx_uniform(-1.0, 1.0);
    for (size_t i = 0; i < ny; ++i)
        hy[i] = fx_uniform(-1.0, 1.0);
    cl_mem mx = fx_buffer(nx * 4), mw = fx_buffer(nw * 4), my = fx_buffer(ny * 4);
    fx_write_floats(mw, 0, hw, nw);
    conv_descs d;
    descs_create(&d);
    FX_OK(cldnnSetTensor4dDescriptor(d.x, fmt, CLDNN_DATA_FLOAT, N, C, H, W));
    FX_OK(cldnnSetFilter4dDescriptor(d.w, CLDNN_DATA_FLOAT, fmt, K, C, 3, 3));
    FX_OK(cldnnSetConvolution2dDescriptor(d.c, 1, 1, 1, 1, 1, 1, CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    FX_OK(cldnnSetTensor4dDescriptor(d.y, fmt, CLDNN_DATA_FLOAT, N, K, H, W));
    const size_t ws_size = (size_t)36 * C * K * 4;
    cl_mem ws = fx_buffer(ws_size);
    for (int dir = CLDNN_CONV_FWD; dir <= CLDNN_CONV_BWD_DATA; ++dir) {
        const int fwd = dir == CLDNN_CONV_FWD, OC = fwd ? K : C;
        cldnn_conv_problem pr;
        FX_OK(cldnn_conv_problem_init(h, (cldnn_conv_dir)dir, d.x, d.w, d.c, d.y, &pr));
        const cldnn_conv_buffers b = {mx, mw, my, ws, 0, ws_size};
        fx_write_floats(fwd ? mx : my, 0, fwd ? hx : hy, fwd ? nx : ny);
        const size_t nout = fwd ? ny : nx;
        for (int t = 0; t < 2; ++t) {
            const int wm = t ? 4 : 2;
            cldnn_wino_params run[4];
            int nrun = 0;
            for (int si = nhwc; si < (nhwc ? 2 : 3); ++si) {
                char qs[64];
                cldnn_wino_params_format(&sets[t][si], qs, sizeof qs);
                if (cldnn_wino_params_valid(&sets[t][si], wm, &h->prof))
                    run[nrun++] = sets[t][si];
                else /* e.g. local memory beyond this device's */
                    cr_log_info("fused F(%dx%d) set %s is not valid on %s: skipped", wm, wm, qs, h->prof.name);
            }
            if (nrun == 0 && (wm == 4 ? cldnn_conv_winof4_applicable : cldnn_conv_winof2_applicable)(&pr, &h->prof))
                (wm == 4 ? cldnn_conv_winof4_defaults : cldnn_conv_winof2_defaults)(&pr, &h->prof, &run[nrun++]);
            if (nrun == 0) {
                /* No fused F(wm x wm) fits this device: the library must not offer it, and the
                ** problem must be served anyway, checked through the public API. */
                cr_log_info("no fused F(%dx%d) set fits %s (local memory %llu bytes): the solver does not apply; "
                            "the public calls checked instead", wm, wm, h->prof.name,
                            (unsigned long long)h->prof.local_mem);
                const float one = 1.0f, zero = 0.0f;
                for (int algo = 0; algo < 2; ++algo) {
                    const int wino = algo == 0; /* WINOGRAD, then the default algorithm */
                    for (size_t i = 0; i < nout; ++i)
                        got[i] = NAN;
                    fx_write_floats(fwd ? my : mx, 0, got, nout);
                    size_t need = 0;
                    if (fwd) {
                        cldnnConvolutionFwdAlgoPerf_t pf;
                        int n = 0;
                        FX_OK(cldnnGetConvolutionForwardAlgorithm_v7(h, d.x, d.w, d.c, d.y, 1, &n, &pf));
                        const cldnnConvolutionFwdAlgo_t a = wino ? CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD : pf.algo;
                        if (!wino_served(wino, cldnnGetConvolutionForwardWorkspaceSize(h, d.x, d.w, d.c, d.y, a, &need),
                                         &pr, wm))
                            continue;
                        FX_ASSERT(need <= ws_size, "workspace %zu", need);
                        FX_OK(cldnnConvolutionForward(h, &one, d.x, mx, 0, d.w, mw, 0, d.c, a, ws, 0, ws_size, &zero,
                                                      d.y, my, 0));
                    } else {
                        cldnnConvolutionBwdDataAlgoPerf_t pf;
                        int n = 0;
                        FX_OK(cldnnGetConvolutionBackwardDataAlgorithm_v7(h, d.w, d.y, d.c, d.x, 1, &n, &pf));
                        const cldnnConvolutionBwdDataAlgo_t a = wino ? CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD
                                                                     : pf.algo;
                        if (!wino_served(wino,
                                         cldnnGetConvolutionBackwardDataWorkspaceSize(h, d.w, d.y, d.c, d.x, a, &need),
                                         &pr, wm))
                            continue;
                        FX_ASSERT(need <= ws_size, "workspace %zu", need);
                        FX_OK(cldnnConvolutionBackwardData(h, &one, d.w, mw, 0, d.y, my, 0, d.c, a, ws, 0, ws_size,
                                                           &zero, d.x, mx, 0));
                    }
                    fx_read_floats(fwd ? my : mx, 0, got, nout);
                    double worst;
                    const int64_t bad = fused_wrong(&rc, dir, hx, hw, hy, got, N, OC, H, W, &worst);
                    FX_ASSERT(bad == 0, "%s %s %s without a fused F(%dx%d): %lld outputs wrong (worst %.3g)",
                              wino ? "WINOGRAD" : "the default algorithm", fwd ? "forward" : "backward-data",
                              nhwc ? "NHWC" : "NCHW", wm, wm, (long long)bad, worst);
                }
                continue;
            }
            for (int i = 0; i < nrun; ++i) {
                char qs[64];
                cldnn_wino_params_format(&run[i], qs, sizeof qs);
                for (size_t e = 0; e < nout; ++e)
                    got[e] = NAN;
                fx_write_floats(fwd ? my : mx, 0, got, nout);
                FX_OK(cldnn_conv_wino_fused_run_params(h, &pr, wm, &run[i], &b));
                fx_read_floats(fwd ? my : mx, 0, got, nout);
                double worst;
                const int64_t bad = fused_wrong(&rc, dir, hx, hw, hy, got, N, OC, H, W, &worst);
                FX_ASSERT(bad == 0, "fused F(%dx%d) %s, %s %s: %lld outputs wrong (worst error / tolerance %.3g)", wm,
                          wm, qs, fwd ? "forward" : "backward-data", nhwc ? "NHWC" : "NCHW", (long long)bad, worst);
                cr_log_info("fused F(%dx%d) %s %s %s: worst error / tolerance %.3f", wm, wm, qs,
                            fwd ? "forward" : "backward-data", nhwc ? "NHWC" : "NCHW", worst);
            }
        }
    }
    descs_destroy(&d);
    fx_release(mx);
    fx_release(mw);
    fx_release(my);
    fx_release(ws);
    free(hx);
    free(hw);
    free(hy);
    free(got);
}

Test(conv_params, wino_fused_param_sets) { fused_sets_on(0); }
Test(conv_params, wino_fused_param_sets_nhwc) { fused_sets_on(1); }
