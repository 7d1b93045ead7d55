/*
** test_conv_onednn.c: the convolution calls against oneDNN (libdnnl, Debian's libdnnl-dev) as an
** independent reference, on real layer shapes (ResNet-50 and VGG-16 of perf/shapes/conv-nets.csv,
** MobileNet-v1 of conv-depthwise.csv, one ResNeXt-50 grouped 3x3) scaled down in batch, channels
** and spatial size.
**
** Black-box: public header, fixture and oneDNN's C API (dnnl.h, 2.x). Built only when CMake finds
** dnnl.h and libdnnl (tests/CMakeLists.txt). One test per layer, suite conv_onednn:
**   for forward, backward-data and backward-filter in turn, the inputs are uniform in [-1, 1)
**   from the test's seed; cldnn runs the heuristic algorithm (the first entry of
**   cldnnGetConvolution*Algorithm_v7, which must say SUCCESS) with a workspace of exactly the
**   entry's memory, alpha 1, beta 0, into a NaN-poisoned output; oneDNN runs the same direction
**   (f32, the same memory layout, dnnl_convolution_direct, CPU engine) on the same host data.
**   Every output element is compared.
**
** Tolerance, per element: |cldnn - oneDNN| <= 1e-6 + rtol * mag, mag = the sum of |terms| of the
** element's sum, which oneDNN itself computes by running the direction again on |inputs|.
** rtol = 2e-5: each side sums in float (C*R*S, K*R*S or N*P*Q terms, in its own order) and stays
** within 1e-5 mag of the exact sum, test_conv's bound against the double reference; 2e-4 when
** cldnn picks an FFT or Winograd algorithm. A term left out or counted twice is mag / terms on
** average, with at most 432 terms here far above the bound.
**
** Cost: the layers are small (C, K <= 64, H, W <= 32, N <= 2), so both libraries compute in
** milliseconds; the time is PoCL building cldnn's program variants, cached across the suites by
** PoCL (POCL_CACHE_DIR). A failure prints the seed:
**   CLDNN_TEST_SEED=<seed> ./test_conv_onednn --filter 'conv_onednn/resnet50_conv1'
*/
#include "fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onednn_check.h"

TestSuite(conv_onednn, .fini = fx_fini);

#define ATOL 1e-6
#define RTOL 2e-5
#define RTOL_TRANSFORM 2e-4 /* cldnn's FFT and Winograd algorithms */

/* ------------------------------------------------------------------------------- layers */

/* One scaled-down layer: x n x c x h x w, filter k x c/groups x r x s, square pad and stride. */
typedef struct {
    const char* layer; /* the row it scales down (perf/shapes/conv-nets.csv, conv-depthwise.csv) */
    int n, c, h, w, k, r, s, pad, stride, groups;
    int nhwc;          /* x, y NHWC with a KRSC filter, else NCHW with KCRS */
} layer_case;

/* Directions, in the order each test runs them. */
typedef enum { DIR_FWD = 0, DIR_BWD_DATA = 1, DIR_BWD_FILTER = 2 } conv_dir;
static const char* const k_dir_name[3] = {"forward", "backward-data", "backward-filter"};

/* ------------------------------------------------------------------------------- oneDNN */

/* The layer's three memory descriptors in its layout (weights 5-d goihw/gohwi when grouped). */
static void onednn_descs(const layer_case* c, int p, int q, dnnl_memory_desc_t* xd, dnnl_memory_desc_t* wd,
                         dnnl_memory_desc_t* yd) {
    dnnl_dims_t xdims = {c->n, c->c, c->h, c->w}, ydims = {c->n, c->k, p, q};
    dnnl_format_tag_t act = c->nhwc ? dnnl_nhwc : dnnl_nchw;
    DNNL_OK(dnnl_memory_desc_init_by_tag(xd, 4, xdims, dnnl_f32, act));
    DNNL_OK(dnnl_memory_desc_init_by_tag(yd, 4, ydims, dnnl_f32, act));
    if (c->groups == 1) {
        dnnl_dims_t wdims = {c->k, c->c, c->r, c->s};
        DNNL_OK(dnnl_memory_desc_init_by_tag(wd, 4, wdims, dnnl_f32, c->nhwc ? dnnl_ohwi : dnnl_oihw));
    } else {
        dnnl_dims_t wdims = {c->groups, c->k / c->groups, c->c / c->groups, c->r, c->s};
        DNNL_OK(dnnl_memory_desc_init_by_tag(wd, 5, wdims, dnnl_f32, c->nhwc ? dnnl_gohwi : dnnl_goihw));
    }
}

/* Runs direction dir of layer c with oneDNN on the CPU: forward y from (x, w), backward-data dx
** from (w, dy), backward-filter dw from (x, dy); in0, in1 are those inputs in that order and out
** the output, each packed in the layer's layout. */
static void onednn_run(const layer_case* c, conv_dir dir, int p, int q, const float* in0, const float* in1,
                       float* out) {
    dnnl_engine_t eng;
    dnnl_stream_t st;
    DNNL_OK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    DNNL_OK(dnnl_stream_create(&st, eng, dnnl_stream_default_flags));
    dnnl_memory_desc_t xd, wd, yd;
    onednn_descs(c, p, q, &xd, &wd, &yd);
    dnnl_dims_t strides = {c->stride, c->stride}, dil = {0, 0}, pad = {c->pad, c->pad};

    dnnl_convolution_desc_t fd, bd;
    dnnl_primitive_desc_t fpd, pd;
    DNNL_OK(dnnl_dilated_convolution_forward_desc_init(&fd, dnnl_forward_training, dnnl_convolution_direct, &xd, &wd,
                                                       NULL, &yd, strides, dil, pad, pad));
    DNNL_OK(dnnl_primitive_desc_create(&fpd, &fd, NULL, eng, NULL));
    if (dir == DIR_FWD) {
        pd = fpd;
        fpd = NULL;
    } else {
        if (dir == DIR_BWD_DATA)
            DNNL_OK(dnnl_dilated_convolution_backward_data_desc_init(&bd, dnnl_convolution_direct, &xd, &wd, &yd,
                                                                     strides, dil, pad, pad));
        else
            DNNL_OK(dnnl_dilated_convolution_backward_weights_desc_init(&bd, dnnl_convolution_direct, &xd, &wd, NULL,
                                                                        &yd, strides, dil, pad, pad));
        DNNL_OK(dnnl_primitive_desc_create(&pd, &bd, NULL, eng, fpd));
    }

    /* (argument, descriptor, data) of the two inputs and the output, per direction */
    const int args[3][3] = {{DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST},
                            {DNNL_ARG_WEIGHTS, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC},
                            {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_WEIGHTS}};
    const dnnl_memory_desc_t* mds[3][3] = {{&xd, &wd, &yd}, {&wd, &yd, &xd}, {&xd, &yd, &wd}};
    void* data[3] = {(void*)(uintptr_t)in0, (void*)(uintptr_t)in1, out};
    dnnl_memory_t mem[3];
    dnnl_exec_arg_t exec[3];
    for (int i = 0; i < 3; i++) {
        DNNL_OK(dnnl_memory_create(&mem[i], mds[dir][i], eng, data[i]));
        exec[i].arg = args[dir][i];
        exec[i].memory = mem[i];
    }
    dnnl_primitive_t prim;
    DNNL_OK(dnnl_primitive_create(&prim, pd));
    DNNL_OK(dnnl_primitive_execute(prim, st, 3, exec));
    DNNL_OK(dnnl_stream_wait(st));

    dnnl_primitive_destroy(prim);
    for (int i = 0; i < 3; i++)
        dnnl_memory_destroy(mem[i]);
    dnnl_primitive_desc_destroy(pd);
    if (fpd)
        dnnl_primitive_desc_destroy(fpd);
    dnnl_stream_destroy(st);
    dnnl_engine_destroy(eng);
}

/* ------------------------------------------------------------------------------ cldnn */

/* One layer on the device: x, w, y hold the three tensors of every direction (y is dy for the
** backward ones, x is dx and w is dw for their outputs); w is the filter's data as a
** K x C/groups x R x S tensor in the layer's layout, described to the library by wdesc. */
typedef struct {
    const layer_case* c;
    int p, q;
    cldnnConvolutionDescriptor_t conv;
    cldnnFilterDescriptor_t wdesc;
    fx_tensor x, w, y;
} layer;

/* Sets up layer c: descriptors, and x, w, y tensors (packed, offset 0) with the output dims the
** library gives, which must keep n and k. Fails the test on any error. */
static void layer_init(layer* L, const layer_case* c) {
    memset(L, 0, sizeof *L);
    L->c = c;
    cldnnTensorFormat_t fmt = c->nhwc ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW;
    int cg = c->c / c->groups;
    FX_OK(cldnnCreateFilterDescriptor(&L->wdesc));
    FX_OK(cldnnSetFilter4dDescriptor(L->wdesc, CLDNN_DATA_FLOAT, fmt, c->k, cg, c->r, c->s));
    FX_OK(cldnnCreateConvolutionDescriptor(&L->conv));
    FX_OK(cldnnSetConvolution2dDescriptor(L->conv, c->pad, c->pad, c->stride, c->stride, 1, 1,
                                          CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    FX_OK(cldnnSetConvolutionGroupCount(L->conv, c->groups));
    fx_tensor_4d(&L->x, fmt, CLDNN_DATA_FLOAT, c->n, c->c, c->h, c->w, 0);
    int on, ok;
    FX_OK(cldnnGetConvolution2dForwardOutputDim(L->conv, L->x.desc, L->wdesc, &on, &ok, &L->p, &L->q));
    FX_ASSERT(on == c->n && ok == c->k, "%s: output dims %d x %d, expected n %d, k %d", c->layer, on, ok, c->n,
              c->k);
    fx_tensor_4d(&L->w, fmt, CLDNN_DATA_FLOAT, c->k, cg, c->r, c->s, 0);
    fx_tensor_4d(&L->y, fmt, CLDNN_DATA_FLOAT, c->n, c->k, L->p, L->q, 0);
}

/* Releases L's tensors and descriptors; zeroes L. */
static void layer_free(layer* L) {
    fx_tensor_free(&L->x);
    fx_tensor_free(&L->w);
    fx_tensor_free(&L->y);
    cldnnDestroyFilterDescriptor(L->wdesc);
    cldnnDestroyConvolutionDescriptor(L->conv);
    memset(L, 0, sizeof *L);
}

/* The packed view of a host mirror (offset 0), as floats. */
static float* host_floats(fx_tensor* t) { return (float*)(void*)t->host; }

/* The heuristic's algorithm for direction dir (first Get_v7 entry, which must be SUCCESS) and its
** workspace in *ws_size; *transform says whether it is an FFT or Winograd one. */
static int heuristic_algo(const layer* L, conv_dir dir, size_t* ws_size, int* transform) {
    cldnnHandle_t h = fx_handle();
    int max = 0, got = 0, algo;
    cldnnStatus_t status;
    if (dir == DIR_FWD) {
        cldnnConvolutionFwdAlgoPerf_t perf[CLDNN_CONVOLUTION_FWD_ALGO_COUNT];
        FX_OK(cldnnGetConvolutionForwardAlgorithmMaxCount(h, &max));
        FX_OK(cldnnGetConvolutionForwardAlgorithm_v7(h, L->x.desc, L->wdesc, L->conv, L->y.desc,
                                                      CLDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf));
        algo = (int)perf[0].algo, status = perf[0].status, *ws_size = perf[0].memory;
        *transform = algo >= CLDNN_CONVOLUTION_FWD_ALGO_FFT;
    } else if (dir == DIR_BWD_DATA) {
        cldnnConvolutionBwdDataAlgoPerf_t perf[CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
        FX_OK(cldnnGetConvolutionBackwardDataAlgorithmMaxCount(h, &max));
        FX_OK(cldnnGetConvolutionBackwardDataAlgorithm_v7(h, L->wdesc, L->y.desc, L->conv, L->x.desc,
                                                           CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &got, perf));
        algo = (int)perf[0].algo, status = perf[0].status, *ws_size = perf[0].memory;
        *transform = algo >= CLDNN_CONVOLUTION_BWD_DATA_ALGO_FFT;
    } else {
        cldnnConvolutionBwdFilterAlgoPerf_t perf[CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
        FX_OK(cldnnGetConvolutionBackwardFilterAlgorithmMaxCount(h, &max));
        FX_OK(cldnnGetConvolutionBackwardFilterAlgorithm_v7(h, L->x.desc, L->y.desc, L->conv, L->wdesc,
                                                             CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &got, perf));
        algo = (int)perf[0].algo, status = perf[0].status, *ws_size = perf[0].memory;
        *transform = algo == CLDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT || algo >= CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD;
    }
    FX_ASSERT(got >= 1 && got <= max, "%s %s: Get_v7 returned %d entries (max count %d)", L->c->layer,
              k_dir_name[dir], got, max);
    FX_ASSERT(status == CLDNN_STATUS_SUCCESS, "%s %s: Get_v7's first entry (algo %d) says %s", L->c->layer,
              k_dir_name[dir], algo, cldnnGetErrorString(status));
    return algo;
}

/* Runs direction dir with algo and a workspace of ws_size bytes (NULL when 0). */
static void cldnn_run(const layer* L, conv_dir dir, int algo, size_t ws_size) {
    cldnnHandle_t h = fx_handle();
    cl_mem ws = ws_size ? fx_buffer(ws_size) : NULL;
    const float one = 1.0f, zero = 0.0f;
    const fx_tensor *x = &L->x, *w = &L->w, *y = &L->y;
    if (dir == DIR_FWD)
        FX_OK(cldnnConvolutionForward(h, &one, x->desc, x->mem, 0, L->wdesc, w->mem, 0, L->conv,
                                      (cldnnConvolutionFwdAlgo_t)algo, ws, 0, ws_size, &zero, y->desc, y->mem, 0));
    else if (dir == DIR_BWD_DATA)
        FX_OK(cldnnConvolutionBackwardData(h, &one, L->wdesc, w->mem, 0, y->desc, y->mem, 0, L->conv,
                                           (cldnnConvolutionBwdDataAlgo_t)algo, ws, 0, ws_size, &zero, x->desc,
                                           x->mem, 0));
    else
        FX_OK(cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, 0, y->desc, y->mem, 0, L->conv,
                                             (cldnnConvolutionBwdFilterAlgo_t)algo, ws, 0, ws_size, &zero, L->wdesc,
                                             w->mem, 0));
    fx_finish();
    fx_release(ws);
}

/* -------------------------------------------------------------------------------- check */

/* A copy of n floats with every value replaced by its magnitude (malloc'd). */
static float* abs_copy(const float* v, int64_t n) {
    float* a = malloc((size_t)n * sizeof *a);
    FX_ASSERT(a != NULL, "out of memory (%lld floats)", (long long)n);
    for (int64_t i = 0; i < n; i++)
        a[i] = fabsf(v[i]);
    return a;
}

/* Direction dir of layer L: fills the inputs, runs cldnn and oneDNN, compares every element. */
static void check_direction(layer* L, conv_dir dir) {
    const layer_case* c = L->c;
    fx_tensor* in[3][2] = {{&L->x, &L->w}, {&L->w, &L->y}, {&L->x, &L->y}};
    fx_tensor* out = dir == DIR_FWD ? &L->y : dir == DIR_BWD_DATA ? &L->x : &L->w;
    for (int i = 0; i < 2; i++) {
        fx_tensor_poison_nan(in[dir][i]);
        fx_tensor_fill_uniform(in[dir][i], -1.0, 1.0);
        fx_tensor_upload(in[dir][i]);
    }
    fx_poison_out(out, 0.0f);
    fx_tensor_upload(out);

    size_t ws_size = 0;
    int transform = 0;
    int algo = heuristic_algo(L, dir, &ws_size, &transform);
    cldnn_run(L, dir, algo, ws_size);
    fx_tensor_download(out);

    /* oneDNN's result and the magnitude of each sum, packed in the layer's layout */
    const int64_t n0 = in[dir][0]->count, n1 = in[dir][1]->count, n = out->count;
    float* res = malloc((size_t)n * sizeof *res);
    float* mag = malloc((size_t)n * sizeof *mag);
    double* want = malloc((size_t)n * sizeof *want);
    double* scale = malloc((size_t)n * sizeof *scale);
    FX_ASSERT(res && mag && want && scale, "out of memory (%lld outputs)", (long long)n);
    const float* a = host_floats(in[dir][0]);
    const float* b = host_floats(in[dir][1]);
    onednn_run(c, dir, L->p, L->q, a, b, res);
    float* abs_a = abs_copy(a, n0);
    float* abs_b = abs_copy(b, n1);
    onednn_run(c, dir, L->p, L->q, abs_a, abs_b, mag);
    free(abs_a);
    free(abs_b);

    /* want and scale in the view's logical order, as fx_compare reads them */
    int64_t idx[4];
    for (int64_t i = 0; i < n; i++) {
        fx_unravel(&out->view, i, idx);
        int64_t at = 0;
        for (int d = 0; d < 4; d++)
            at += idx[d] * out->view.strides[d];
        FX_ASSERT(isfinite(res[at]) && isfinite(mag[at]), "%s %s: oneDNN's output %lld is %g (magnitude %g)",
                  c->layer, k_dir_name[dir], (long long)i, (double)res[at], (double)mag[at]);
        want[i] = res[at];
        scale[i] = mag[at];
    }
    char msg[512];
    double worst = 0;
    int64_t bad = fx_compare(out, want, scale, ATOL, transform ? RTOL_TRANSFORM : RTOL, msg, sizeof msg, &worst);
    cr_log_info("%s %s: algo %d, workspace %zu bytes, worst error %.3g of the tolerance", c->layer, k_dir_name[dir],
                algo, ws_size, worst);
    FX_ASSERT(bad == 0,
              "%s %s (x %dx%dx%dx%d, w %dx%dx%dx%d, pad %d, stride %d, groups %d, %s), cldnn algo %d vs oneDNN: "
              "%lld of %lld elements differ; first: %s",
              c->layer, k_dir_name[dir], c->n, c->c, c->h, c->w, c->k, c->c / c->groups, c->r, c->s, c->pad,
              c->stride, c->groups, c->nhwc ? "NHWC/KRSC" : "NCHW/KCRS", algo, (long long)bad, (long long)n, msg);
    free(res);
    free(mag);
    free(want);
    free(scale);
}

/* All three directions of one layer. */
static void check_layer(const layer_case* c) {
    layer L;
    layer_init(&L, c);
    for (int d = 0; d < 3; d++)
        check_direction(&L, (conv_dir)d);
    layer_free(&L);
}

/* ------------------------------------------------------------------------------- layers */

/* The layers, each one test below. */
static const layer_case k_layers[] = {
    /* layer                              n  c   h   w   k  r  s  pad str  g nhwc */
    {"resnet50/conv1",                    1, 3,  32, 32, 16, 7, 7, 3,  2,  1, 0},
    {"resnet50/layer1.0.conv2",           2, 16, 14, 14, 16, 3, 3, 1,  1,  1, 0},
    {"resnet50/layer1.0.conv2 nhwc",      2, 16, 14, 14, 16, 3, 3, 1,  1,  1, 1},
    {"resnet50/layer2.0.conv2",           2, 32, 14, 14, 32, 3, 3, 1,  2,  1, 0},
    {"resnet50/layer1.0.conv3",           2, 16, 14, 14, 64, 1, 1, 0,  1,  1, 0},
    {"resnet50/layer2.0.downsample",      2, 32, 14, 14, 64, 1, 1, 0,  2,  1, 0},
    {"vgg16/conv3_1",                     1, 32, 16, 16, 48, 3, 3, 1,  1,  1, 0},
    {"mobilenet_v1/conv_dw_2",            2, 32, 14, 14, 32, 3, 3, 1,  2, 32, 0},
    {"resnext50_32x4d/layer1.0.conv2",    2, 32, 14, 14, 32, 3, 3, 1,  1,  8, 0},
};

/* ResNet-50's stem: 7x7 stride 2 from 3 channels (224x224x64 scaled to 32x32x16). */
Test(conv_onednn, resnet50_conv1) { check_layer(&k_layers[0]); }
/* A bottleneck's 3x3 stride 1 (64 channels at 56x56 scaled to 16 at 14x14), NCHW and NHWC. */
Test(conv_onednn, resnet50_3x3) { check_layer(&k_layers[1]); }
Test(conv_onednn, resnet50_3x3_nhwc) { check_layer(&k_layers[2]); }
/* The first 3x3 of stage 2: stride 2 (128 channels at 56x56 scaled to 32 at 14x14). */
Test(conv_onednn, resnet50_3x3_stride2) { check_layer(&k_layers[3]); }
/* A bottleneck's expanding 1x1 (64 -> 256 scaled to 16 -> 64). */
Test(conv_onednn, resnet50_1x1) { check_layer(&k_layers[4]); }
/* Stage 2's downsample: 1x1 stride 2 (256 -> 512 at 56x56 scaled to 32 -> 64 at 14x14). */
Test(conv_onednn, resnet50_1x1_stride2) { check_layer(&k_layers[5]); }
/* VGG-16's conv3_1 (128 -> 256 at 56x56 scaled to 32 -> 48 at 16x16; K not a tile multiple). */
Test(conv_onednn, vgg16_3x3) { check_layer(&k_layers[6]); }
/* MobileNet-v1's second depthwise 3x3, stride 2 (64 channels at 112x112 scaled to 32 at 14x14). */
Test(conv_onednn, mobilenet_depthwise_stride2) { check_layer(&k_layers[7]); }
/* ResNeXt-50 32x4d's grouped 3x3 (4 channels per group; 128 at 56x56 scaled to 32 in 8 groups). */
Test(conv_onednn, resnext50_grouped_3x3) { check_layer(&k_layers[8]); }
