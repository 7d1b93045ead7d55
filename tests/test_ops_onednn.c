/*
** test_ops_onednn.c: pooling, batch normalization and LRN against oneDNN (libdnnl, Debian's
** libdnnl-dev) as an independent reference, on real layer shapes of perf/shapes/ops-nets.csv
** (ResNet-50, VGG-16, Inception-v3, AlexNet) scaled down in batch, channels and spatial size.
**
** Black-box: public header, fixture and oneDNN's C API (dnnl.h, 2.x). Built only when CMake finds
** dnnl.h and libdnnl (tests/CMakeLists.txt). One test per layer and layout, suite ops_onednn:
** the inputs come from the test's seed; cldnn runs with alpha 1, beta 0 into NaN-poisoned
** outputs; oneDNN runs the same operation (f32, the same NCHW or NHWC layout, CPU engine) on the
** same host data; every element of every output is compared.
**   pool_*   forward and backward of max 3x3 s2 p1 (ResNet-50 pool1), max 2x2 s2 (VGG-16 pool5),
**            the global average 7x7 (ResNet-50; including and excluding padding, the same
**            without padding) and average 3x3 s1 p1 (Inception-v3's branch_pool) including and
**            excluding padding, which differ at the borders; NCHW and NHWC (dnnl_nchw, dnnl_nhwc).
**            oneDNN's max backward routes dy through the workspace of its training forward (on the
**            same x); cldnn finds the argmax again from x and its own forward's y. x is uniform in
**            [-1, 1) (continuous): two taps tie for a window's maximum with a probability of about
**            1e-6 per test, so the two libraries' tie rules (cldnn: the first tap in window order;
**            oneDNN's may differ) are not compared; test_pool covers ties.
**   bn_*     SPATIAL only (oneDNN's batch norm is per channel), eps 1e-5: the training forward
**            (dnnl_use_scale | dnnl_use_shift) gives y, mean and biased variance; cldnn's saved
**            mean is compared with the mean, its saved inverse std with 1 / sqrt(var + eps), and
**            its running mean and variance (factor 1, NaN priors) with the mean and var * M / (M -
**            1). Inference (dnnl_use_global_stats) from random statistics. Backward (dnnl_backward)
**            dx, dScale, dBias, oneDNN from the mean and variance of its own training forward,
**            cldnn once from the statistics its training forward saved and once recomputing them.
**            bn_mean_1e4: the training forward on x of mean 1e4 and unit variance.
**   lrn_*    forward and backward, across channels (AlexNet's norm1: n 5, alpha 1e-4, beta 0.75,
**            k 2, on x uniform in [-200, 200) as after conv1's ReLU, so that alpha / n * sum x^2
**            is comparable to k and the window matters) and within a channel (n 5, and n 3 with
**            beta 1.25, which takes oneDNN's powf path rather than its beta = 0.75 one).
**            Parameters go to both unchanged: oneDNN's dev guide writes alpha / n for both
**            algorithms, but 2.6.3 divides by n across channels and by n * n within a channel
**            (checked against a direct evaluation), as cldnn does. Odd n only: oneDNN accepts an
**            even n but sums the symmetric window [i - (n-1)/2, i + (n-1)/2] of n - 1 taps while
**            dividing by n, where cldnn's window [i - (n-1)/2, i + n-1 - (n-1)/2] has n taps; no
**            choice of parameters makes the two the same function.
**
** Tolerance, per element: |cldnn - oneDNN| <= 1e-6 + rtol * mag, mag the size of the terms the
** element is made of, so neither side is asked to cancel exactly. Each rtol is twice the bound
** the op's own suite holds cldnn to against its double reference (each library within it, so
** their difference within twice), with the same mag:
**   pooling  rtol 2e-5 (test_pool 1e-5); mag = oneDNN run again on |x| (forward) or on x and
**            |dy| (backward, the same workspace): the sum of |terms| of an average, a bound on
**            |y| for max (exact on both sides), the sum of the |dy| a max input gathers.
**   bn       rtol 8e-6 g for the training forward and its statistics, 2e-5 inference, 2e-5 g
**            backward, g = max(1, sqrt(M) / 32), M = N*H*W (test_batchnorm 4e-6 g, 1e-5, 1e-5 g);
**            mag as test_batchnorm's, from oneDNN's mean and variance: y |s| (|x^| + 1 +
**            |x| invstd) + |b|; mean |mean| + sqrt(var); inverse std and running variance
**            themselves; dx |s| invstd (|dy| + (sum|dy| + x' sum|dy x^|) / M); dScale and dBias
**            the sums of |terms|. bn_mean_1e4: inverse std and running variance 2e-4, twice
**            bn_stable's 1e-4 (a float sum of values near 1e4 rounds at 1e-3 absolute, against a
**            spread of 1); E[x^2] - E[x]^2 in float would be off by orders of magnitude.
**   lrn      rtol 4e-5 max(1, sqrt(taps) / 2), taps n or n * n (test_lrn 2e-5 ...); forward mag
**            |y| (a sum of squares, no cancellation), backward mag |dy| s^-beta + 2 alpha beta / n^d
**            |x| sum over the window of |dy y| / s, in double here.
** Every comparison fails when a single element moves by 1e-3 of its mag; so do a 1% change of
** LRN's k, exclude-padding averaged as include-padding, a max gradient routed to another tap, the
** running variance left biased, and an even LRN n (the window convention above).
**
** Not covered (no oneDNN counterpart, or not the same function): PER_ACTIVATION batch norm,
** running averages with a factor other than 1, alpha / beta other than (1, 0), NaN propagation
** (nanOpt), MAX_DETERMINISTIC (the same as MAX here), strided or padded (4dEx) and 5-d tensors,
** HALF storage, even LRN n, and pooling ties; the op suites check those against the double
** references.
**
** Cost: the layers are small (N 2, C <= 64, H, W <= 28), both libraries compute in milliseconds;
** the time is PoCL building cldnn's program variants, cached across the suites by PoCL
** (POCL_CACHE_DIR). A failure prints the seed:
**   CLDNN_TEST_SEED=<seed> ./test_ops_onednn --filter 'ops_onednn/bn_resnet50_train'
*/
#include "fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onednn_check.h"

#define ATOL 1e-6
#define POOL_RTOL 2e-5
#define BN_TRAIN_RTOL 8e-6 /* times g */
#define BN_INFER_RTOL 2e-5
#define BN_BWD_RTOL 2e-5 /* times g */
#define BN_STABLE_RTOL 2e-4
#define LRN_RTOL 4e-5 /* times max(1, sqrt(taps) / 2) */
#define BN_EPS 1e-5

/* ------------------------------------------------------------------------------- oneDNN */

/* The process's CPU engine and stream (each test runs in its own process), made on first use. */
static dnnl_engine_t g_eng;
static dnnl_stream_t g_st;

static dnnl_engine_t engine(void) {
    if (!g_eng) {
        DNNL_OK(dnnl_engine_create(&g_eng, dnnl_cpu, 0));
        DNNL_OK(dnnl_stream_create(&g_st, g_eng, dnnl_stream_default_flags));
    }
    return g_eng;
}

static void suite_fini(void) {
    if (g_st)
        dnnl_stream_destroy(g_st);
    if (g_eng)
        dnnl_engine_destroy(g_eng);
    g_st = NULL;
    g_eng = NULL;
    fx_fini();
}

TestSuite(ops_onednn, .fini = suite_fini);

/* An execution argument: oneDNN's argument index, its descriptor and the host data. */
typedef struct {
    int arg;
    const dnnl_memory_desc_t* md;
    const void* data;
} onednn_arg;

#define ONEDNN_MAX_ARGS 9

/* The primitive descriptor of op descriptor d (hint: the forward's, for a backward). */
static dnnl_primitive_desc_t onednn_pd(const_dnnl_op_desc_t d, const_dnnl_primitive_desc_t hint) {
    dnnl_primitive_desc_t pd;
    DNNL_OK(dnnl_primitive_desc_create(&pd, d, NULL, engine(), hint));
    return pd;
}

/* Runs pd once on the n arguments (host memory wrapped as is) and waits. */
static void onednn_exec(const_dnnl_primitive_desc_t pd, int n, const onednn_arg* a) {
    dnnl_memory_t mem[ONEDNN_MAX_ARGS];
    dnnl_exec_arg_t ex[ONEDNN_MAX_ARGS];
    FX_ASSERT(n <= ONEDNN_MAX_ARGS, "%d arguments", n);
    for (int i = 0; i < n; i++) {
        DNNL_OK(dnnl_memory_create(&mem[i], a[i].md, engine(), (void*)(uintptr_t)a[i].data));
        ex[i].arg = a[i].arg;
        ex[i].memory = mem[i];
    }
    dnnl_primitive_t prim;
    DNNL_OK(dnnl_primitive_create(&prim, pd));
    DNNL_OK(dnnl_primitive_execute(prim, g_st, n, ex));
    DNNL_OK(dnnl_stream_wait(g_st));
    dnnl_primitive_destroy(prim);
    for (int i = 0; i < n; i++)
        dnnl_memory_destroy(mem[i]);
}

/* The implementation oneDNN picked (for the log). */
static const char* onednn_impl(const_dnnl_primitive_desc_t pd) {
    const char* s = "?";
    if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &s) != dnnl_success)
        s = "?";
    return s;
}

/* A training forward's workspace: its descriptor in *md and a zeroed buffer (NULL when it has
** none; the caller frees). */
static void* onednn_workspace(const_dnnl_primitive_desc_t pd, const dnnl_memory_desc_t** md) {
    *md = dnnl_primitive_desc_query_md(pd, dnnl_query_workspace_md, 0);
    size_t size = *md ? dnnl_memory_desc_get_size(*md) : 0;
    if (size == 0)
        return NULL;
    void* ws = calloc(1, size);
    FX_ASSERT(ws != NULL, "out of memory (workspace of %zu bytes)", size);
    return ws;
}

/* Runs the training forward fp (x -> y) and, when bp is set, the backward bp on its nb
** arguments, the forward's workspace added to both when it has one; logs the implementations and
** destroys fp and bp. */
static void onednn_fwd_bwd(const char* layer, dnnl_primitive_desc_t fp, const dnnl_memory_desc_t* xd, const float* x,
                           const dnnl_memory_desc_t* yd, float* y, dnnl_primitive_desc_t bp, int nb,
                           const onednn_arg* b) {
    const dnnl_memory_desc_t* wsd;
    void* ws = onednn_workspace(fp, &wsd);
    const onednn_arg wa = {DNNL_ARG_WORKSPACE, wsd, ws};
    const onednn_arg fa[] = {{DNNL_ARG_SRC, xd, x}, {DNNL_ARG_DST, yd, y}, wa};
    onednn_exec(fp, ws ? 3 : 2, fa);
    if (bp) {
        onednn_arg ba[ONEDNN_MAX_ARGS];
        FX_ASSERT(nb < ONEDNN_MAX_ARGS, "%d arguments", nb);
        memcpy(ba, b, (size_t)nb * sizeof *b);
        ba[nb] = wa;
        onednn_exec(bp, ws ? nb + 1 : nb, ba);
        cr_log_info("%s: oneDNN %s / %s", layer, onednn_impl(fp), onednn_impl(bp));
        dnnl_primitive_desc_destroy(bp);
    }
    free(ws);
    dnnl_primitive_desc_destroy(fp);
}

/* An n x c x h x w f32 descriptor in NCHW or NHWC, and a 1-d one of c elements. */
static dnnl_memory_desc_t act_md(int n, int c, int h, int w, int nhwc) {
    dnnl_memory_desc_t md;
    dnnl_dims_t dims = {n, c, h, w};
    DNNL_OK(dnnl_memory_desc_init_by_tag(&md, 4, dims, dnnl_f32, nhwc ? dnnl_nhwc : dnnl_nchw));
    return md;
}

static dnnl_memory_desc_t chan_md(int c) {
    dnnl_memory_desc_t md;
    dnnl_dims_t dims = {c};
    DNNL_OK(dnnl_memory_desc_init_by_tag(&md, 1, dims, dnnl_f32, dnnl_a));
    return md;
}

/* --------------------------------------------------------------------------- host helpers */

static void* xmalloc(size_t bytes) {
    void* p = malloc(bytes ? bytes : 1);
    FX_ASSERT(p != NULL, "out of memory (%zu bytes)", bytes);
    return p;
}

static float* falloc(int64_t n) { return xmalloc((size_t)n * sizeof(float)); }
static double* dalloc(int64_t n) { return xmalloc((size_t)n * sizeof(double)); }

/* The packed host mirror of a tensor (offset 0), as floats: what was last uploaded. */
static float* host_floats(fx_tensor* t) { return (float*)(void*)t->host; }

/* A copy of n floats with every value replaced by its magnitude (malloc'd). */
static float* abs_copy(const float* v, int64_t n) {
    float* a = falloc(n);
    for (int64_t i = 0; i < n; i++)
        a[i] = fabsf(v[i]);
    return a;
}

/* n floats widened to double (malloc'd). */
static double* widen(const float* v, int64_t n) {
    double* d = dalloc(n);
    for (int64_t i = 0; i < n; i++)
        d[i] = v[i];
    return d;
}

/* Frees every pointer listed: FREE_ALL(a, b, ...). */
static void free_all(void* const* p, size_t n) {
    for (size_t i = 0; i < n; i++)
        free(p[i]);
}
#define FREE_ALL(...) free_all((void* const[]){__VA_ARGS__}, sizeof((void* const[]){__VA_ARGS__}) / sizeof(void*))

static double dmax(double a, double b) { return a > b ? a : b; }

/* A 4-d tensor in NCHW or NHWC (packed, offset 0), filled uniformly in [lo, hi) and uploaded
** (lo == hi: NaN-poisoned, an output). */
static void make_tensor(fx_tensor* t, int nhwc, int n, int c, int h, int w, double lo, double hi) {
    fx_tensor_4d(t, nhwc ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, n, c, h, w, 0);
    fx_tensor_poison_nan(t);
    if (lo != hi)
        fx_tensor_fill_uniform(t, lo, hi);
    fx_tensor_upload(t);
}

/* The tensors of a forward-and-backward test: x uniform in [lo, hi) and dx n x c x h x w, y and
** dy (uniform in [-1, 1)) n x c x p x q, in NCHW or NHWC; y and dx NaN-poisoned. */
typedef struct {
    fx_tensor x, y, dy, dx;
} fb_tensors;

static void fb_init(fb_tensors* t, int nhwc, int n, int c, int h, int w, int p, int q, double lo, double hi) {
    make_tensor(&t->x, nhwc, n, c, h, w, lo, hi);
    make_tensor(&t->y, nhwc, n, c, p, q, 0, 0);
    make_tensor(&t->dy, nhwc, n, c, p, q, -1.0, 1.0);
    make_tensor(&t->dx, nhwc, n, c, h, w, 0, 0);
}

static void fb_free(fb_tensors* t) {
    fx_tensor_free(&t->x);
    fx_tensor_free(&t->y);
    fx_tensor_free(&t->dy);
    fx_tensor_free(&t->dx);
}

/* Downloads t (its output view, packed, offset 0) and compares every element with oneDNN's res
** (packed in t's layout): |got - res| <= ATOL + rtol * mag (mag packed likewise; NULL: |res|).
** The buffer's tail past the view must be left as it was. */
static void expect_close(fx_tensor* t, const float* res, const double* mag, double rtol, const char* what,
                           const char* ctx) {
    fx_tensor_download(t);
    const int64_t n = t->count;
    double* want = dalloc(n);
    double* scale = dalloc(n);
    int64_t idx[REF_DIM_MAX];
    for (int64_t i = 0; i < n; i++) {
        fx_unravel(&t->view, i, idx);
        int64_t at = 0;
        for (int d = 0; d < t->view.nd; d++)
            at += idx[d] * t->view.strides[d];
        want[i] = res[at];
        scale[i] = mag ? mag[at] : fabs(want[i]);
        FX_ASSERT(isfinite(want[i]) && isfinite(scale[i]), "%s: %s: oneDNN's element %lld is %g (magnitude %g)",
                  ctx, what, (long long)i, want[i], scale[i]);
    }
    char msg[512];
    double worst = 0;
    int64_t bad = fx_compare(t, want, scale, ATOL, rtol, msg, sizeof msg, &worst);
    cr_log_info("%s: %s: worst error %.3g of the tolerance", ctx, what, worst);
    FX_ASSERT(bad == 0, "%s: %s, cldnn vs oneDNN: %lld of %lld elements differ (atol %g, rtol %g); first: %s", ctx,
              what, (long long)bad, (long long)n, ATOL, rtol, msg);
    int64_t tail = fx_tensor_gaps_changed(t);
    FX_ASSERT(tail == 0, "%s: %s: %lld elements past the view changed", ctx, what, (long long)tail);
    free(want);
    free(scale);
}

/* ------------------------------------------------------------------------------ pooling */

/* One scaled-down pooling layer: square window, padding and stride. */
typedef struct {
    const char* layer;
    int n, c, h, w, win, pad, stride;
    cldnnPoolingMode_t mode;
    int nhwc;
} pool_case;

/* oneDNN's pooling of c (output p x q): forward y from x, and when dy is set backward dx from dy
** with the forward's workspace. */
static void onednn_pool(const pool_case* c, int p, int q, const float* x, float* y, const float* dy, float* dx) {
    dnnl_memory_desc_t xd = act_md(c->n, c->c, c->h, c->w, c->nhwc), yd = act_md(c->n, c->c, p, q, c->nhwc);
    dnnl_dims_t strides = {c->stride, c->stride}, kernel = {c->win, c->win}, pad = {c->pad, c->pad};
    dnnl_alg_kind_t alg = c->mode == CLDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING   ? dnnl_pooling_avg_include_padding
                          : c->mode == CLDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING ? dnnl_pooling_avg_exclude_padding
                                                                                   : dnnl_pooling_max;
    dnnl_pooling_desc_t fd, bd;
    DNNL_OK(dnnl_pooling_forward_desc_init(&fd, dnnl_forward_training, alg, &xd, &yd, strides, kernel, pad, pad));
    DNNL_OK(dnnl_pooling_backward_desc_init(&bd, alg, &xd, &yd, strides, kernel, pad, pad));
    dnnl_primitive_desc_t fp = onednn_pd(&fd, NULL), bp = dy ? onednn_pd(&bd, fp) : NULL;
    const onednn_arg ba[] = {{DNNL_ARG_DIFF_DST, &yd, dy}, {DNNL_ARG_DIFF_SRC, &xd, dx}};
    onednn_fwd_bwd(c->layer, fp, &xd, x, &yd, y, bp, 2, ba);
}

/* Forward and backward of one pooling layer. */
static void check_pool(const pool_case* c) {
    cldnnHandle_t h = fx_handle();
    const float one = 1.0f, zero = 0.0f;
    cldnnPoolingDescriptor_t pd;
    FX_OK(cldnnCreatePoolingDescriptor(&pd));
    FX_OK(cldnnSetPooling2dDescriptor(pd, c->mode, CLDNN_NOT_PROPAGATE_NAN, c->win, c->win, c->pad, c->pad,
                                      c->stride, c->stride));
    const int p = 1 + (c->h + 2 * c->pad - c->win) / c->stride, q = 1 + (c->w + 2 * c->pad - c->win) / c->stride;
    fb_tensors t;
    fb_init(&t, c->nhwc, c->n, c->c, c->h, c->w, p, q, -1.0, 1.0);
    fx_tensor *x = &t.x, *y = &t.y, *dy = &t.dy, *dx = &t.dx;
    int on, oc, op, oq;
    FX_OK(cldnnGetPooling2dForwardOutputDim(pd, x->desc, &on, &oc, &op, &oq));
    FX_ASSERT(on == c->n && oc == c->c && op == p && oq == q, "%s: output dims %d x %d x %d x %d, expected %d x %d",
              c->layer, on, oc, op, oq, p, q);
    FX_OK(cldnnPoolingForward(h, pd, &one, x->desc, x->mem, 0, &zero, y->desc, y->mem, 0));
    FX_OK(cldnnPoolingBackward(h, pd, &one, y->desc, y->mem, 0, dy->desc, dy->mem, 0, x->desc, x->mem, 0, &zero,
                               dx->desc, dx->mem, 0));
    fx_finish();

    /* oneDNN's y and dx, then the magnitudes: y on |x|, dx on x and |dy| */
    const int64_t nx = x->count, ny = y->count;
    float *ry = falloc(ny), *rdx = falloc(nx), *my = falloc(ny), *mdx = falloc(nx), *scratch = falloc(ny);
    float *ax = abs_copy(host_floats(x), nx), *ady = abs_copy(host_floats(dy), ny);
    onednn_pool(c, p, q, host_floats(x), ry, host_floats(dy), rdx);
    onednn_pool(c, p, q, ax, my, NULL, NULL);
    onednn_pool(c, p, q, host_floats(x), scratch, ady, mdx);
    double *dmy = widen(my, ny), *dmdx = widen(mdx, nx);

    char ctx[256];
    snprintf(ctx, sizeof ctx, "%s (x %dx%dx%dx%d %s, window %d pad %d stride %d, mode %d)", c->layer, c->n, c->c,
             c->h, c->w, c->nhwc ? "NHWC" : "NCHW", c->win, c->pad, c->stride, (int)c->mode);
    expect_close(y, ry, dmy, POOL_RTOL, "forward y", ctx);
    expect_close(dx, rdx, dmdx, POOL_RTOL, "backward dx", ctx);

    FREE_ALL(ry, rdx, my, mdx, scratch, ax, ady, dmy, dmdx);
    fb_free(&t);
    cldnnDestroyPoolingDescriptor(pd);
}

#define P_MAX CLDNN_POOLING_MAX
#define P_INC CLDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
#define P_EXC CLDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING

static const pool_case k_pools[] = {
    /* layer                               n  c   h   w  win pad str mode   nhwc */
    {"resnet50/pool1 max 3x3 s2 p1",       2, 16, 28, 28, 3, 1,  2,  P_MAX, 0},
    {"resnet50/pool1 max 3x3 s2 p1 nhwc",  2, 16, 28, 28, 3, 1,  2,  P_MAX, 1},
    {"vgg16/pool5 max 2x2 s2",             2, 32, 14, 14, 2, 0,  2,  P_MAX, 0},
    {"vgg16/pool5 max 2x2 s2 nhwc",        2, 32, 14, 14, 2, 0,  2,  P_MAX, 1},
    {"resnet50/gap avg 7x7 include",       2, 64, 7,  7,  7, 0,  1,  P_INC, 0},
    {"resnet50/gap avg 7x7 exclude nhwc",  2, 64, 7,  7,  7, 0,  1,  P_EXC, 1},
    {"inception_v3/branch_pool avg 3x3 s1 p1 include",      2, 16, 17, 17, 3, 1, 1, P_INC, 0},
    {"inception_v3/branch_pool avg 3x3 s1 p1 exclude",      2, 16, 17, 17, 3, 1, 1, P_EXC, 0},
    {"inception_v3/branch_pool avg 3x3 s1 p1 include nhwc", 2, 16, 17, 17, 3, 1, 1, P_INC, 1},
    {"inception_v3/branch_pool avg 3x3 s1 p1 exclude nhwc", 2, 16, 17, 17, 3, 1, 1, P_EXC, 1},
};

/* ResNet-50's pool1 (64 channels at 112x112 scaled to 16 at 28x28). */
Test(ops_onednn, pool_resnet50_max3x3s2) { check_pool(&k_pools[0]); }
Test(ops_onednn, pool_resnet50_max3x3s2_nhwc) { check_pool(&k_pools[1]); }
/* VGG-16's pool5 (512 channels at 14x14 scaled to 32). */
Test(ops_onednn, pool_vgg16_max2x2s2) { check_pool(&k_pools[2]); }
Test(ops_onednn, pool_vgg16_max2x2s2_nhwc) { check_pool(&k_pools[3]); }
/* ResNet-50's global average pool (2048 channels scaled to 64). */
Test(ops_onednn, pool_resnet50_gap_include) { check_pool(&k_pools[4]); }
Test(ops_onednn, pool_resnet50_gap_exclude_nhwc) { check_pool(&k_pools[5]); }
/* Inception-v3's branch_pool average 3x3 s1 p1 (192 channels at 35x35 scaled to 16 at 17x17). */
Test(ops_onednn, pool_inception_avg3x3_include) { check_pool(&k_pools[6]); }
Test(ops_onednn, pool_inception_avg3x3_exclude) { check_pool(&k_pools[7]); }
Test(ops_onednn, pool_inception_avg3x3_include_nhwc) { check_pool(&k_pools[8]); }
Test(ops_onednn, pool_inception_avg3x3_exclude_nhwc) { check_pool(&k_pools[9]); }

/* -------------------------------------------------------------------- batch normalization */

/* One scaled-down batch-norm layer (SPATIAL), x uniform in [lo, hi). */
typedef struct {
    const char* layer;
    int n, c, h, w, nhwc;
    double lo, hi;
} bn_case;

/* Everything a batch-norm test uses on the device: x, y (dx in the backward), dy, and the
** 1 x C x 1 x 1 parameters (scale, bias, mean, variance or inverse std, running mean and
** variance, dScale, dBias). */
typedef struct {
    const bn_case* c;
    int64_t m; /* values per statistic: N*H*W */
    fx_tensor x, y, dy, sc, bi, mean, var, rmean, rvar, dsc, dbi;
} bn_layer;

#define BN_NPARAMS 8

static fx_tensor* bn_param(bn_layer* L, int i) {
    fx_tensor* p[BN_NPARAMS] = {&L->sc, &L->bi, &L->mean, &L->var, &L->rmean, &L->rvar, &L->dsc, &L->dbi};
    return p[i];
}

/* x, dy, scale and bias filled, every other tensor NaN-poisoned, all uploaded. */
static void bn_init(bn_layer* L, const bn_case* c) {
    memset(L, 0, sizeof *L);
    L->c = c;
    L->m = (int64_t)c->n * c->h * c->w;
    make_tensor(&L->x, c->nhwc, c->n, c->c, c->h, c->w, c->lo, c->hi);
    make_tensor(&L->y, c->nhwc, c->n, c->c, c->h, c->w, 0, 0);
    make_tensor(&L->dy, c->nhwc, c->n, c->c, c->h, c->w, -1.0, 1.0);
    for (int i = 0; i < BN_NPARAMS; i++) {
        double lo = i == 0 ? -2.0 : i == 1 ? -1.0 : 0, hi = i == 0 ? 2.0 : i == 1 ? 1.0 : 0;
        make_tensor(bn_param(L, i), 0, 1, c->c, 1, 1, lo, hi);
    }
}

static void bn_free(bn_layer* L) {
    fx_tensor_free(&L->x);
    fx_tensor_free(&L->y);
    fx_tensor_free(&L->dy);
    for (int i = 0; i < BN_NPARAMS; i++)
        fx_tensor_free(bn_param(L, i));
}

/* The channel of packed element j. */
static int bn_chan(const bn_case* c, int64_t j) {
    return c->nhwc ? (int)(j % c->c) : (int)(j / ((int64_t)c->h * c->w) % c->c);
}

static double bn_growth(const bn_layer* L) { return dmax(1.0, sqrt((double)L->m) / 32.0); }

/* cldnn's training forward of L: y, saved mean and inverse std, running statistics (factor 1,
** the priors NaN and not read). */
static void cldnn_bn_train(bn_layer* L) {
    const float one = 1.0f, zero = 0.0f;
    FX_OK(cldnnBatchNormalizationForwardTraining(fx_handle(), CLDNN_BATCHNORM_SPATIAL, &one, &zero, L->x.desc,
                                                 L->x.mem, 0, L->y.desc, L->y.mem, 0, L->sc.desc, L->sc.mem, 0,
                                                 L->bi.mem, 0, 1.0, L->rmean.mem, 0, L->rvar.mem, 0, BN_EPS,
                                                 L->mean.mem, 0, L->var.mem, 0));
    fx_finish();
}

/* oneDNN's forward of L on host data: training (mean, var out) or inference (mean, var in). */
static void onednn_bn_forward(const bn_case* c, int training, const float* x, const float* sc, const float* bi,
                              float* mean, float* var, float* y) {
    dnnl_memory_desc_t xd = act_md(c->n, c->c, c->h, c->w, c->nhwc), pd = chan_md(c->c);
    unsigned flags = dnnl_use_scale | dnnl_use_shift | (training ? 0u : (unsigned)dnnl_use_global_stats);
    dnnl_batch_normalization_desc_t d;
    DNNL_OK(dnnl_batch_normalization_forward_desc_init(&d, training ? dnnl_forward_training : dnnl_forward_inference,
                                                       &xd, (float)BN_EPS, flags));
    dnnl_primitive_desc_t p = onednn_pd(&d, NULL);
    const onednn_arg a[] = {{DNNL_ARG_SRC, &xd, x},       {DNNL_ARG_DST, &xd, y},
                            {DNNL_ARG_SCALE, &pd, sc},    {DNNL_ARG_SHIFT, &pd, bi},
                            {DNNL_ARG_MEAN, &pd, mean},   {DNNL_ARG_VARIANCE, &pd, var}};
    onednn_exec(p, 6, a);
    cr_log_info("%s: oneDNN %s", c->layer, onednn_impl(p));
    dnnl_primitive_desc_destroy(p);
}

/* oneDNN's backward of L: dx, dScale, dShift from x, dy, scale and the statistics of a training
** forward (computed here first). */
static void onednn_bn_backward(const bn_case* c, const float* x, const float* dy, const float* sc, float* mean,
                               float* var, float* dx, float* dsc, float* dbi) {
    dnnl_memory_desc_t xd = act_md(c->n, c->c, c->h, c->w, c->nhwc), pd = chan_md(c->c);
    const unsigned flags = dnnl_use_scale | dnnl_use_shift;
    float* y = falloc((int64_t)c->n * c->c * c->h * c->w);
    float* bi = calloc((size_t)c->c, sizeof *bi);
    FX_ASSERT(bi != NULL, "out of memory");
    onednn_bn_forward(c, 1, x, sc, bi, mean, var, y);
    dnnl_batch_normalization_desc_t fd, bd;
    DNNL_OK(dnnl_batch_normalization_forward_desc_init(&fd, dnnl_forward_training, &xd, (float)BN_EPS, flags));
    DNNL_OK(dnnl_batch_normalization_backward_desc_init(&bd, dnnl_backward, &xd, &xd, (float)BN_EPS, flags));
    dnnl_primitive_desc_t fp = onednn_pd(&fd, NULL), bp = onednn_pd(&bd, fp);
    /* the shift is an argument of the backward too (2.6.3), though no gradient depends on it */
    const onednn_arg a[] = {{DNNL_ARG_SRC, &xd, x},          {DNNL_ARG_DIFF_DST, &xd, dy},
                            {DNNL_ARG_SCALE, &pd, sc},       {DNNL_ARG_SHIFT, &pd, bi},
                            {DNNL_ARG_MEAN, &pd, mean},      {DNNL_ARG_VARIANCE, &pd, var},
                            {DNNL_ARG_DIFF_SRC, &xd, dx},    {DNNL_ARG_DIFF_SCALE, &pd, dsc},
                            {DNNL_ARG_DIFF_SHIFT, &pd, dbi}};
    onednn_exec(bp, 9, a);
    cr_log_info("%s: oneDNN backward %s", c->layer, onednn_impl(bp));
    dnnl_primitive_desc_destroy(bp);
    dnnl_primitive_desc_destroy(fp);
    free(y);
    free(bi);
}

/* Training forward: y, saved mean and inverse std, running mean and variance. */
static void check_bn_train(const bn_case* c, double stat_rtol) {
    bn_layer L;
    bn_init(&L, c);
    cldnn_bn_train(&L);
    const int64_t n = L.x.count, C = c->c;
    const float *x = host_floats(&L.x), *s = host_floats(&L.sc), *b = host_floats(&L.bi);
    float *ry = falloc(n), *rmean = falloc(C), *rvar = falloc(C), *rinv = falloc(C), *runvar = falloc(C);
    double *ymag = dalloc(n), *mmag = dalloc(C);
    onednn_bn_forward(c, 1, x, s, b, rmean, rvar, ry);
    for (int64_t k = 0; k < C; k++) {
        rinv[k] = (float)(1.0 / sqrt((double)rvar[k] + BN_EPS));
        runvar[k] = (float)((double)rvar[k] * (double)L.m / (double)(L.m - 1));
        mmag[k] = fabs(rmean[k]) + sqrt(rvar[k]);
    }
    for (int64_t j = 0; j < n; j++) {
        int k = bn_chan(c, j);
        double inv = 1.0 / sqrt((double)rvar[k] + BN_EPS), xh = fabs(x[j] - (double)rmean[k]) * inv;
        ymag[j] = fabs(s[k]) * (xh + 1.0 + fabs(x[j]) * inv) + fabs(b[k]);
    }
    const double rtol = BN_TRAIN_RTOL * bn_growth(&L), srtol = dmax(rtol, stat_rtol);
    char ctx[256];
    snprintf(ctx, sizeof ctx, "%s training forward (x %dx%dx%dx%d %s in [%g, %g))", c->layer, c->n, c->c, c->h, c->w,
             c->nhwc ? "NHWC" : "NCHW", c->lo, c->hi);
    expect_close(&L.y, ry, ymag, rtol, "y", ctx);
    expect_close(&L.mean, rmean, mmag, rtol, "saved mean", ctx);
    expect_close(&L.var, rinv, NULL, srtol, "saved inverse std vs 1 / sqrt(var + eps)", ctx);
    expect_close(&L.rmean, rmean, mmag, rtol, "running mean (factor 1)", ctx);
    expect_close(&L.rvar, runvar, NULL, srtol, "running variance (factor 1) vs var * M / (M - 1)", ctx);
    FREE_ALL(ry, rmean, rvar, rinv, runvar, ymag, mmag);
    bn_free(&L);
}

/* Inference from given statistics (mean uniform in [-1, 1), variance in [0.05, 4)). */
static void check_bn_infer(const bn_case* c) {
    bn_layer L;
    bn_init(&L, c);
    fx_tensor_fill_uniform(&L.mean, -1.0, 1.0);
    fx_tensor_fill_uniform(&L.var, 0.05, 4.0);
    fx_tensor_upload(&L.mean);
    fx_tensor_upload(&L.var);
    const float one = 1.0f, zero = 0.0f;
    FX_OK(cldnnBatchNormalizationForwardInference(fx_handle(), CLDNN_BATCHNORM_SPATIAL, &one, &zero, L.x.desc,
                                                  L.x.mem, 0, L.y.desc, L.y.mem, 0, L.sc.desc, L.sc.mem, 0, L.bi.mem,
                                                  0, L.mean.mem, 0, L.var.mem, 0, BN_EPS));
    fx_finish();
    const int64_t n = L.x.count;
    const float *x = host_floats(&L.x), *s = host_floats(&L.sc), *b = host_floats(&L.bi);
    float *m = host_floats(&L.mean), *v = host_floats(&L.var);
    float* ry = falloc(n);
    double* ymag = dalloc(n);
    onednn_bn_forward(c, 0, x, s, b, m, v, ry);
    for (int64_t j = 0; j < n; j++) {
        int k = bn_chan(c, j);
        double inv = 1.0 / sqrt((double)v[k] + BN_EPS);
        ymag[j] = fabs(s[k]) * inv * (fabs(x[j]) + fabs(m[k])) + fabs(b[k]);
    }
    char ctx[256];
    snprintf(ctx, sizeof ctx, "%s inference (x %dx%dx%dx%d %s)", c->layer, c->n, c->c, c->h, c->w,
             c->nhwc ? "NHWC" : "NCHW");
    expect_close(&L.y, ry, ymag, BN_INFER_RTOL, "y", ctx);
    free(ry);
    free(ymag);
    bn_free(&L);
}

/* Backward: dx, dScale, dBias, cldnn with the statistics its training forward saved, then with
** none (recomputed from x). */
static void check_bn_backward(const bn_case* c) {
    bn_layer L;
    bn_init(&L, c);
    cldnn_bn_train(&L); /* saved mean and inverse std; y is overwritten by dx below */
    const int64_t n = L.x.count, C = c->c, M = L.m;
    const float *x = host_floats(&L.x), *dy = host_floats(&L.dy), *s = host_floats(&L.sc);
    float *rmean = falloc(C), *rvar = falloc(C), *rdx = falloc(n), *rds = falloc(C), *rdb = falloc(C);
    onednn_bn_backward(c, x, dy, s, rmean, rvar, rdx, rds, rdb);

    /* magnitudes from oneDNN's statistics: asum = sum |dy|, xsum = sum |dy x^| per channel */
    double *asum = calloc((size_t)C, sizeof(double)), *xsum = calloc((size_t)C, sizeof(double));
    FX_ASSERT(asum && xsum, "out of memory");
    double *dxmag = dalloc(n), *dsmag = dalloc(C), *inv = dalloc(C);
    for (int64_t k = 0; k < C; k++)
        inv[k] = 1.0 / sqrt((double)rvar[k] + BN_EPS);
    for (int64_t j = 0; j < n; j++) {
        int k = bn_chan(c, j);
        asum[k] += fabs(dy[j]);
        xsum[k] += fabs(dy[j] * (x[j] - (double)rmean[k]) * inv[k]);
    }
    for (int64_t j = 0; j < n; j++) {
        int k = bn_chan(c, j);
        double xh = fabs(x[j] - (double)rmean[k]) * inv[k] + fabs(x[j]) * inv[k] * 1e-2;
        dxmag[j] = fabs(s[k]) * inv[k] * (fabs(dy[j]) + (asum[k] + xh * xsum[k]) / (double)M);
    }
    for (int64_t k = 0; k < C; k++)
        dsmag[k] = xsum[k] + 1e-2 * asum[k] * fabs(rmean[k]) * inv[k];

    const float one = 1.0f, zero = 0.0f;
    const double rtol = BN_BWD_RTOL * bn_growth(&L);
    for (int saved = 1; saved >= 0; saved--) {
        fx_tensor* outs[] = {&L.y, &L.dsc, &L.dbi};
        for (int i = 0; i < 3; i++) {
            fx_tensor_poison_nan(outs[i]);
            fx_tensor_upload(outs[i]);
        }
        FX_OK(cldnnBatchNormalizationBackward(fx_handle(), CLDNN_BATCHNORM_SPATIAL, &one, &zero, &one, &zero,
                                              L.x.desc, L.x.mem, 0, L.dy.desc, L.dy.mem, 0, L.y.desc, L.y.mem, 0,
                                              L.sc.desc, L.sc.mem, 0, L.dsc.mem, 0, L.dbi.mem, 0, BN_EPS,
                                              saved ? L.mean.mem : NULL, 0, saved ? L.var.mem : NULL, 0));
        fx_finish();
        char ctx[256];
        snprintf(ctx, sizeof ctx, "%s backward (x %dx%dx%dx%d %s, statistics %s)", c->layer, c->n, c->c, c->h, c->w,
                 c->nhwc ? "NHWC" : "NCHW", saved ? "saved by cldnn's training forward" : "recomputed");
        expect_close(&L.y, rdx, dxmag, rtol, "dx", ctx);
        expect_close(&L.dsc, rds, dsmag, rtol, "dScale", ctx);
        expect_close(&L.dbi, rdb, asum, rtol, "dBias", ctx);
    }
    FREE_ALL(rmean, rvar, rdx, rds, rdb, asum, xsum, dxmag, dsmag, inv);
    bn_free(&L);
}

static const bn_case k_bns[] = {
    /* layer                        n  c   h   w  nhwc lo   hi */
    {"resnet50/bn1",                2, 16, 28, 28, 0, -3.0, 5.0},
    {"resnet50/layer1.0.bn3 nhwc",  2, 32, 14, 14, 1, -3.0, 5.0},
    /* mean 1e4, unit variance: uniform over 1e4 -+ sqrt(3) */
    {"resnet50/bn1 mean 1e4",       2, 16, 28, 28, 0, 1e4 - 1.7320508075688772, 1e4 + 1.7320508075688772},
};

/* ResNet-50's bn1 (64 channels at 112x112 scaled to 16 at 28x28) and a stage-1 bn3 in NHWC (256
** at 56x56 scaled to 32 at 14x14). */
Test(ops_onednn, bn_resnet50_train) { check_bn_train(&k_bns[0], 0); }
Test(ops_onednn, bn_resnet50_train_nhwc) { check_bn_train(&k_bns[1], 0); }
Test(ops_onednn, bn_resnet50_infer) { check_bn_infer(&k_bns[0]); }
Test(ops_onednn, bn_resnet50_infer_nhwc) { check_bn_infer(&k_bns[1]); }
Test(ops_onednn, bn_resnet50_backward) { check_bn_backward(&k_bns[0]); }
Test(ops_onednn, bn_resnet50_backward_nhwc) { check_bn_backward(&k_bns[1]); }
/* Values near 1e4 with unit variance: E[x^2] - E[x]^2 in float would lose the variance. */
Test(ops_onednn, bn_mean_1e4) { check_bn_train(&k_bns[2], BN_STABLE_RTOL); }

/* -------------------------------------------------------------------------------------- LRN */

/* One scaled-down LRN layer (odd n only: see the header), x uniform in [-200, 200). */
typedef struct {
    const char* layer;
    int n, c, h, w, nhwc;
    cldnnLRNMode_t mode;
    unsigned ln;
    double alpha, beta, k;
} lrn_case;

/* The packed offset of element (n, ch, h, w) in c's layout. */
static int64_t lrn_off(const lrn_case* c, int n, int ch, int h, int w) {
    if (c->nhwc)
        return (((int64_t)n * c->h + h) * c->w + w) * c->c + ch;
    return (((int64_t)n * c->c + ch) * c->h + h) * c->w + w;
}

/* The sum of v (packed in c's layout) over the window of element (n, ch, h, w): cldnn's
** [i - (n-1)/2, i + n-1 - (n-1)/2] along C, or along H and W, cut at the edges. */
static double lrn_window_sum(const lrn_case* c, const double* v, int n, int ch, int h, int w) {
    const int lo = ((int)c->ln - 1) / 2, hi = (int)c->ln - 1 - lo;
    double s = 0;
    if (c->mode == CLDNN_LRN_CROSS_CHANNEL) {
        for (int j = ch - lo; j <= ch + hi; j++)
            if (j >= 0 && j < c->c)
                s += v[lrn_off(c, n, j, h, w)];
    } else {
        for (int i = h - lo; i <= h + hi; i++)
            for (int j = w - lo; j <= w + hi; j++)
                if (i >= 0 && i < c->h && j >= 0 && j < c->w)
                    s += v[lrn_off(c, n, ch, i, j)];
    }
    return s;
}

/* oneDNN's LRN of c: forward y from x, backward dx from x and dy (with the forward's workspace). */
static void onednn_lrn(const lrn_case* c, const float* x, float* y, const float* dy, float* dx) {
    dnnl_memory_desc_t xd = act_md(c->n, c->c, c->h, c->w, c->nhwc);
    dnnl_alg_kind_t alg = c->mode == CLDNN_LRN_CROSS_CHANNEL ? dnnl_lrn_across_channels : dnnl_lrn_within_channel;
    dnnl_lrn_desc_t fd, bd;
    DNNL_OK(dnnl_lrn_forward_desc_init(&fd, dnnl_forward_training, alg, &xd, c->ln, (float)c->alpha, (float)c->beta,
                                       (float)c->k));
    DNNL_OK(dnnl_lrn_backward_desc_init(&bd, alg, &xd, &xd, c->ln, (float)c->alpha, (float)c->beta, (float)c->k));
    dnnl_primitive_desc_t fp = onednn_pd(&fd, NULL), bp = onednn_pd(&bd, fp);
    const onednn_arg ba[] = {{DNNL_ARG_SRC, &xd, x}, {DNNL_ARG_DIFF_DST, &xd, dy}, {DNNL_ARG_DIFF_SRC, &xd, dx}};
    onednn_fwd_bwd(c->layer, fp, &xd, x, &xd, y, bp, 3, ba);
}

/* Forward and backward of one LRN layer. */
static void check_lrn(const lrn_case* c) {
    cldnnHandle_t h = fx_handle();
    const float one = 1.0f, zero = 0.0f;
    cldnnLRNDescriptor_t d;
    FX_OK(cldnnCreateLRNDescriptor(&d));
    FX_OK(cldnnSetLRNDescriptor(d, c->ln, c->alpha, c->beta, c->k));
    fb_tensors ts;
    fb_init(&ts, c->nhwc, c->n, c->c, c->h, c->w, c->h, c->w, -200.0, 200.0);
    fx_tensor *x = &ts.x, *y = &ts.y, *dy = &ts.dy, *dx = &ts.dx;
    FX_OK(cldnnLRNForward(h, d, c->mode, &one, x->desc, x->mem, 0, &zero, y->desc, y->mem, 0));
    FX_OK(cldnnLRNBackward(h, d, c->mode, &one, y->desc, y->mem, 0, dy->desc, dy->mem, 0, x->desc, x->mem, 0, &zero,
                           dx->desc, dx->mem, 0));
    fx_finish();

    const int64_t n = x->count;
    const float *xf = host_floats(x), *dyf = host_floats(dy);
    float *ry = falloc(n), *rdx = falloc(n);
    onednn_lrn(c, xf, ry, dyf, rdx);

    /* backward magnitude: |dy| s^-beta + 2 alpha beta / n^d |x| sum over the window of |dy y| / s
    ** (odd n: the windows holding i are i's window) */
    const int d2 = c->mode == CLDNN_LRN_WITHIN_CHANNEL;
    const double taps = d2 ? (double)c->ln * c->ln : (double)c->ln, an = c->alpha / taps;
    double *sq = dalloc(n), *s = dalloc(n), *t = dalloc(n), *mag = dalloc(n);
    for (int64_t j = 0; j < n; j++)
        sq[j] = (double)xf[j] * xf[j];
    for (int in = 0; in < c->n; in++)
        for (int ch = 0; ch < c->c; ch++)
            for (int ih = 0; ih < c->h; ih++)
                for (int iw = 0; iw < c->w; iw++)
                    s[lrn_off(c, in, ch, ih, iw)] = c->k + an * lrn_window_sum(c, sq, in, ch, ih, iw);
    for (int64_t j = 0; j < n; j++)
        t[j] = fabs(dyf[j] * xf[j] * pow(s[j], -c->beta)) / s[j];
    for (int in = 0; in < c->n; in++)
        for (int ch = 0; ch < c->c; ch++)
            for (int ih = 0; ih < c->h; ih++)
                for (int iw = 0; iw < c->w; iw++) {
                    int64_t j = lrn_off(c, in, ch, ih, iw);
                    mag[j] = fabs(dyf[j]) * pow(s[j], -c->beta) +
                             2.0 * an * c->beta * fabs(xf[j]) * lrn_window_sum(c, t, in, ch, ih, iw);
                }

    const double rtol = LRN_RTOL * dmax(1.0, sqrt(taps) / 2.0);
    char ctx[256];
    snprintf(ctx, sizeof ctx, "%s (x %dx%dx%dx%d %s, %s n %u alpha %g beta %g k %g)", c->layer, c->n, c->c, c->h,
             c->w, c->nhwc ? "NHWC" : "NCHW", d2 ? "within a channel" : "across channels", c->ln, c->alpha, c->beta,
             c->k);
    expect_close(y, ry, NULL, rtol, "forward y", ctx);
    expect_close(dx, rdx, mag, rtol, "backward dx", ctx);

    FREE_ALL(ry, rdx, sq, s, t, mag);
    fb_free(&ts);
    cldnnDestroyLRNDescriptor(d);
}

#define L_ACROSS CLDNN_LRN_CROSS_CHANNEL
#define L_WITHIN CLDNN_LRN_WITHIN_CHANNEL

static const lrn_case k_lrns[] = {
    /* layer                      n  c   h   w  nhwc mode      n  alpha  beta  k */
    {"alexnet/norm1",             2, 16, 13, 13, 0, L_ACROSS, 5, 1e-4, 0.75, 2.0},
    {"alexnet/norm1 nhwc",        2, 16, 13, 13, 1, L_ACROSS, 5, 1e-4, 0.75, 2.0},
    {"big-lrn-within n5",         2, 8,  13, 13, 0, L_WITHIN, 5, 1e-4, 0.75, 2.0},
    {"lrn-within n3 beta 1.25 nhwc", 2, 8, 13, 13, 1, L_WITHIN, 3, 2e-4, 1.25, 1.0},
};

/* AlexNet's norm1 (96 channels at 55x55 scaled to 16 at 13x13), NCHW and NHWC. */
Test(ops_onednn, lrn_alexnet_across_n5) { check_lrn(&k_lrns[0]); }
Test(ops_onednn, lrn_alexnet_across_n5_nhwc) { check_lrn(&k_lrns[1]); }
/* Within a channel: ops-nets.csv's big-lrn-within parameters, and n 3 on the powf path. */
Test(ops_onednn, lrn_within_n5) { check_lrn(&k_lrns[2]); }
Test(ops_onednn, lrn_within_n3_nhwc) { check_lrn(&k_lrns[3]); }
