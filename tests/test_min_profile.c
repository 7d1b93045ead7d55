/*
** test_min_profile.c: every family still runs on the smallest device OpenCL 1.2 allows.
**
** The full profile's minima (OpenCL 1.2, clGetDeviceInfo): CL_DEVICE_LOCAL_MEM_SIZE 32 KiB,
** CL_DEVICE_MAX_WORK_GROUP_SIZE 1 and CL_DEVICE_MAX_WORK_ITEM_SIZES (1, 1, 1) (the spec's
** words: "The minimum value is 1"), CL_DEVICE_MAX_MEM_ALLOC_SIZE 128 MiB, CL_DEVICE_MEM_BASE_ADDR_ALIGN
** the size of long16 (1024 bits), no cl_khr_fp16 or cl_khr_fp64, one compute unit. Those are the
** limits cldnn's device profile holds (internal.h); the rest of the table (constant arguments,
** parameter bytes, images) cldnn does not read. The profile is made up twice, as a GPU and as a
** CPU (solvers branch on the device type), and swapped into the fixture's handle.
**
** Each test then calls the public entry points of one family on representative problems in a dry
** run: the handle collects the programs a call would build instead of building them (the parallel
** build's collection, cache.c) and enqueues nothing (prepare-only), so no kernel is compiled and
** the test takes well under a second. What a call still does is everything that chooses: the
** checks, the engine's pick of a solver under this profile, its parameters, its workspace, and
** every launch's work-group size, which cldnn_enqueue_nd compares with the profile's limit. A call
** must return SUCCESS: some solver serves the problem and launches within the limits. Convolution
** asks Get_v7 per direction and runs every algorithm it calls runnable, so each algorithm family
** that claims the problem is held to its claim.
*/
#include "fixture.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

TestSuite(min_profile, .fini = fx_fini);

/* ------------------------------------------------------------------ the profile and the dry run */

static cldnn_device_profile min_profile(int cpu) {
    cldnn_device_profile d = fx_handle()->prof; /* platform and device ids stay the real ones */
    snprintf(d.name, sizeof d.name, "OpenCL 1.2 minimum %s", cpu ? "CPU" : "GPU");
    snprintf(d.vendor, sizeof d.vendor, "none");
    snprintf(d.platform_name, sizeof d.platform_name, "none");
    snprintf(d.key, sizeof d.key, "min-opencl-1.2-%s", cpu ? "cpu" : "gpu");
    d.type = cpu ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
    d.is_cpu = cpu;
    d.vendor_id = 0;
    d.is_nvidia = 0;
    d.nv_cc_major = d.nv_cc_minor = 0;
    d.compute_units = 1;
    d.max_wg_size = 1;
    d.local_mem = 32768;
    d.global_mem = d.max_alloc = (cl_ulong)128 << 20;
    d.base_align_bytes = 128;
    d.pref_vec_float = 1;
    d.has_fp16 = d.has_fp64 = 0;
    d.loop_limit = 0; /* a driver's quirk, not the spec's */
    return d;
}

static cldnn_device_profile real_profile;

/* From here to dry_end, the fixture's handle is the device dev in a dry run. */
static void dry_begin(const cldnn_device_profile* dev) {
    cldnnHandle_t h = fx_handle();
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_HEURISTIC));
    real_profile = h->prof;
    h->prof = *dev;
    FX_OK(cldnn_program_collect_begin(h));
    h->prepare_only = 1;
}

static void dry_end(void) {
    cldnnHandle_t h = fx_handle();
    h->prepare_only = 0;
    cldnn_program_collect_discard(h);
    h->prof = real_profile;
}

/* Buffers and descriptors of one test, released together. */
#define KEEP_MAX 256
#define PERF_LIST 8 /* the longest algorithm enum (forward's) */
static cl_mem kept_mem[KEEP_MAX];
static cldnnTensorDescriptor_t kept_desc[KEEP_MAX];
static int nmem, ndesc;

static cl_mem buf(size_t bytes) {
    FX_ASSERT(nmem < KEEP_MAX, "too many buffers");
    return kept_mem[nmem++] = fx_buffer(bytes ? bytes : 4);
}

static void release_all(void) {
    for (int i = 0; i < nmem; ++i)
        fx_release(kept_mem[i]);
    for (int i = 0; i < ndesc; ++i)
        cldnnDestroyTensorDescriptor(kept_desc[i]);
    nmem = ndesc = 0;
}

/* A tensor: descriptor and a buffer of its size. nd 4 with nhwc 0/1 takes the 4-d formats,
** anything else packed row-major. */
typedef struct {
    cldnnTensorDescriptor_t d;
    cl_mem m;
} tens;

static cldnnTensorDescriptor_t desc_nd(cldnnDataType_t dt, int nd, const int64_t* dims, int nhwc) {
    cldnnTensorDescriptor_t d;
    FX_OK(cldnnCreateTensorDescriptor(&d));
    FX_ASSERT(ndesc < KEEP_MAX, "too many descriptors");
    kept_desc[ndesc++] = d;
    if (nd == 4 && nhwc) {
        FX_OK(cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NHWC, dt, (int)dims[0], (int)dims[1], (int)dims[2],
                                         (int)dims[3]));
    } else {
        int64_t st[CLDNN_DIM_MAX];
        int64_t s = 1;
        for (int i = nd - 1; i >= 0; --i) {
            st[i] = s;
            s *= dims[i];
        }
        FX_OK(cldnnSetTensorNdDescriptor(d, dt, nd, dims, st));
    }
    return d;
}

static tens tensor_of(cldnnTensorDescriptor_t d) {
    size_t bytes = 0;
    FX_OK(cldnnGetTensorSizeInBytes(d, &bytes));
    return (tens){d, buf(bytes)};
}

static tens tensor(cldnnDataType_t dt, int nd, const int64_t* dims, int nhwc) {
    return tensor_of(desc_nd(dt, nd, dims, nhwc));
}

#define T4(dt, n, c, h, w, nhwc) tensor((dt), 4, (const int64_t[]){(n), (c), (h), (w)}, (nhwc))

static const float one = 1.0f, zero = 0.0f, half_ = 0.5f;

/* The call must be served on dev: SUCCESS, else the failure names the profile and the case. */
#define SERVED(dev, what, call)                                                                        \
    do {                                                                                               \
        const cldnnStatus_t s_ = (call);                                                               \
        char e_[512];                                                                                  \
        cldnnGetLastErrorString(e_, sizeof e_);                                                        \
        FX_ASSERT(s_ == CLDNN_STATUS_SUCCESS, "%s on the %s: %s (%s)", (what), (dev)->name,           \
                  cldnnGetErrorString(s_), e_);                                                        \
    } while (0)

/* Runs body(dev) on both minimum profiles. */
static void on_both(void (*body)(const cldnn_device_profile* dev)) {
    for (int cpu = 0; cpu < 2; ++cpu) {
        const cldnn_device_profile dev = min_profile(cpu);
        dry_begin(&dev);
        body(&dev);
        dry_end();
        release_all();
    }
}

/* ------------------------------------------------------------------------------ convolution */

typedef struct {
    const char* name;
    int n, c, h, w, k, r, s, pad, stride, dil, groups, nhwc;
    cldnnDataType_t dt;
} conv_layer;

static const conv_layer k_layers[] = {
    {"3x3 stride 1, 16 -> 32 channels", 2, 16, 14, 14, 32, 3, 3, 1, 1, 1, 1, 0, CLDNN_DATA_FLOAT},
    {"3x3 stride 1 NHWC", 2, 16, 14, 14, 32, 3, 3, 1, 1, 1, 1, 1, CLDNN_DATA_FLOAT},
    {"3x3 stride 1 half", 2, 16, 14, 14, 32, 3, 3, 1, 1, 1, 1, 0, CLDNN_DATA_HALF},
    {"3x3 wide, 256 -> 256 channels", 1, 256, 14, 14, 256, 3, 3, 1, 1, 1, 1, 0, CLDNN_DATA_FLOAT},
    {"1x1, 64 -> 128", 2, 64, 14, 14, 128, 1, 1, 0, 1, 1, 1, 0, CLDNN_DATA_FLOAT},
    {"1x1 stride 2 NHWC", 2, 64, 14, 14, 128, 1, 1, 0, 2, 1, 1, 1, CLDNN_DATA_FLOAT},
    {"7x7 stride 2 stem, 3 channels", 2, 3, 32, 32, 16, 7, 7, 3, 2, 1, 1, 0, CLDNN_DATA_FLOAT},
    {"3x3 stride 2", 2, 32, 15, 15, 32, 3, 3, 1, 2, 1, 1, 0, CLDNN_DATA_FLOAT},
    {"depthwise 3x3", 2, 32, 28, 28, 32, 3, 3, 1, 1, 1, 32, 0, CLDNN_DATA_FLOAT},
    {"depthwise 3x3 NHWC stride 2", 2, 32, 28, 28, 32, 3, 3, 1, 2, 1, 32, 1, CLDNN_DATA_FLOAT},
    {"grouped 3x3, 4 groups", 2, 32, 14, 14, 64, 3, 3, 1, 1, 1, 4, 0, CLDNN_DATA_FLOAT},
    {"dilated 3x3", 2, 16, 20, 20, 16, 3, 3, 2, 1, 2, 1, 0, CLDNN_DATA_FLOAT},
    {"5x5 on 300 channels", 1, 300, 9, 9, 20, 5, 5, 2, 1, 1, 1, 0, CLDNN_DATA_FLOAT},
};

typedef struct {
    cldnnTensorDescriptor_t x, y;
    cldnnFilterDescriptor_t w;
    cldnnConvolutionDescriptor_t c;
    cl_mem mx, my, mw;
} conv_set;

static void conv_set_up(const conv_layer* l, conv_set* cs) {
    FX_OK(cldnnCreateFilterDescriptor(&cs->w));
    FX_OK(cldnnCreateConvolutionDescriptor(&cs->c));
    const tens x = T4(l->dt, l->n, l->c, l->h, l->w, l->nhwc);
    cs->x = x.d;
    cs->mx = x.m;
    FX_OK(cldnnSetFilter4dDescriptor(cs->w, l->dt, l->nhwc ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW, l->k,
                                     l->c / l->groups, l->r, l->s));
    FX_OK(cldnnSetConvolution2dDescriptor(cs->c, l->pad, l->pad, l->stride, l->stride, l->dil, l->dil,
                                          CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    FX_OK(cldnnSetConvolutionGroupCount(cs->c, l->groups));
    int n, k, p, q;
    FX_OK(cldnnGetConvolution2dForwardOutputDim(cs->c, cs->x, cs->w, &n, &k, &p, &q));
    const tens y = T4(l->dt, n, k, p, q, l->nhwc);
    cs->y = y.d;
    cs->my = y.m;
    size_t wb = 0;
    FX_OK(cldnnGetFilterSizeInBytes(cs->w, &wb));
    cs->mw = buf(wb);
}

static void conv_set_free(conv_set* cs) {
    cldnnDestroyFilterDescriptor(cs->w);
    cldnnDestroyConvolutionDescriptor(cs->c);
}

/* One direction's run of algorithm algo with workspace ws of ws_size bytes. */
typedef cldnnStatus_t (*conv_run_fn)(const conv_set* cs, int algo, cl_mem ws, size_t ws_size);

static cldnnStatus_t run_fwd(const conv_set* cs, int algo, cl_mem ws, size_t ws_size) {
    return cldnnConvolutionForward(fx_handle(), &one, cs->x, cs->mx, 0, cs->w, cs->mw, 0, cs->c,
                                   (cldnnConvolutionFwdAlgo_t)algo, ws, 0, ws_size, &zero, cs->y, cs->my, 0);
}

static cldnnStatus_t run_bwd_data(const conv_set* cs, int algo, cl_mem ws, size_t ws_size) {
    return cldnnConvolutionBackwardData(fx_handle(), &one, cs->w, cs->mw, 0, cs->y, cs->my, 0, cs->c,
                                        (cldnnConvolutionBwdDataAlgo_t)algo, ws, 0, ws_size, &zero, cs->x, cs->mx, 0);
}

static cldnnStatus_t run_bwd_filter(const conv_set* cs, int algo, cl_mem ws, size_t ws_size) {
    return cldnnConvolutionBackwardFilter(fx_handle(), &one, cs->x, cs->mx, 0, cs->y, cs->my, 0, cs->c,
                                          (cldnnConvolutionBwdFilterAlgo_t)algo, ws, 0, ws_size, &zero, cs->w, cs->mw,
                                          0);
}

/* Get_v7's answer of one direction, whatever its entry type. */
typedef struct {
    int n, algo[PERF_LIST];
    cldnnStatus_t status[PERF_LIST];
    size_t memory[PERF_LIST];
} conv_answer;

#define ANSWER_OF(perf, count, out)                                                                    \
    do {                                                                                               \
        (out)->n = (count);                                                                            \
        for (int i_ = 0; i_ < (count); ++i_) {                                                         \
            (out)->algo[i_] = (int)(perf)[i_].algo;                                                    \
            (out)->status[i_] = (perf)[i_].status;                                                     \
            (out)->memory[i_] = (perf)[i_].memory;                                                     \
        }                                                                                              \
    } while (0)

/* Runs every algorithm of the answer that Get_v7 called runnable; each must then run. Returns how
** many there were and lists them into names. */
static int run_answer(const cldnn_device_profile* dev, const conv_layer* l, const char* dir, const conv_set* cs,
                      const conv_answer* a, conv_run_fn run, char* names, size_t size) {
    int served = 0;
    names[0] = '\0';
    for (int i = 0; i < a->n; ++i) {
        if (a->status[i] != CLDNN_STATUS_SUCCESS)
            continue;
        char what[160];
        snprintf(what, sizeof what, "%s algo %d of %s", dir, a->algo[i], l->name);
        SERVED(dev, what, run(cs, a->algo[i], a->memory[i] ? buf(a->memory[i]) : NULL, a->memory[i]));
        snprintf(names + strlen(names), size - strlen(names), " %d", a->algo[i]);
        served++;
    }
    return served;
}

static void conv_body(const cldnn_device_profile* dev) {
    cldnnHandle_t h = fx_handle();
    for (size_t i = 0; i < sizeof k_layers / sizeof k_layers[0]; ++i) {
        const conv_layer* l = &k_layers[i];
        conv_set cs;
        conv_set_up(l, &cs);
        char what[160];
        int n = 0, served[3];
        char algos[3][64];
        conv_answer ans;
        cldnnConvolutionFwdAlgoPerf_t fp[CLDNN_CONVOLUTION_FWD_ALGO_COUNT];
        FX_OK(cldnnGetConvolutionForwardAlgorithm_v7(h, cs.x, cs.w, cs.c, cs.y, CLDNN_CONVOLUTION_FWD_ALGO_COUNT, &n, fp));
        ANSWER_OF(fp, n, &ans);
        served[0] = run_answer(dev, l, "forward", &cs, &ans, run_fwd, algos[0], sizeof algos[0]);
        cldnnConvolutionBwdDataAlgoPerf_t dp[CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
        FX_OK(cldnnGetConvolutionBackwardDataAlgorithm_v7(h, cs.w, cs.y, cs.c, cs.x,
                                                          CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &n, dp));
        ANSWER_OF(dp, n, &ans);
        served[1] = run_answer(dev, l, "backward-data", &cs, &ans, run_bwd_data, algos[1], sizeof algos[1]);
        cldnnConvolutionBwdFilterAlgoPerf_t wp[CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
        FX_OK(cldnnGetConvolutionBackwardFilterAlgorithm_v7(h, cs.x, cs.y, cs.c, cs.w,
                                                            CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &n, wp));
        ANSWER_OF(wp, n, &ans);
        served[2] = run_answer(dev, l, "backward-filter", &cs, &ans, run_bwd_filter, algos[2], sizeof algos[2]);
        FX_ASSERT(served[0] > 0 && served[1] > 0 && served[2] > 0,
                  "%s on the %s: algorithms serving forward %d, backward-data %d, backward-filter %d", l->name,
                  dev->name, served[0], served[1], served[2]);
        cr_log_info("%s, %s: forward algos%s; backward-data%s; backward-filter%s", dev->name, l->name, algos[0],
                    algos[1], algos[2]);

        /* The bias gradient and the fused forward (default algorithm, bias and ReLU). */
        const tens dbt = T4(l->dt, 1, l->k, 1, 1, 0);
        snprintf(what, sizeof what, "bias gradient of %s", l->name);
        SERVED(dev, what, cldnnConvolutionBackwardBias(h, &one, cs.y, cs.my, 0, &zero, dbt.d, dbt.m, 0));
        cldnnActivationDescriptor_t act;
        FX_OK(cldnnCreateActivationDescriptor(&act));
        FX_OK(cldnnSetActivationDescriptor(act, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0));
        size_t ws_size = 0;
        FX_OK(cldnnGetConvolutionForwardWorkspaceSize(h, cs.x, cs.w, cs.c, cs.y, fp[0].algo, &ws_size));
        cl_mem ws = ws_size ? buf(ws_size) : NULL;
        snprintf(what, sizeof what, "convolution + bias + activation of %s", l->name);
        SERVED(dev, what,
               cldnnConvolutionBiasActivationForward(h, &one, cs.x, cs.mx, 0, cs.w, cs.mw, 0, cs.c, fp[0].algo, ws, 0,
                                                     ws_size, &zero, cs.y, cs.my, 0, dbt.d, dbt.m, 0, act, cs.y,
                                                     cs.my, 0));
        cldnnDestroyActivationDescriptor(act);
        conv_set_free(&cs);
    }
}

Test(min_profile, convolution) { on_both(conv_body); }

/* ------------------------------------------------------------------------------------- GEMM */

static void gemm_body(const cldnn_device_profile* dev) {
    cldnnHandle_t h = fx_handle();
    /* One shape per class of the parameter tables, transposes, row-major, a long k (split) and a
    ** batch; float and half. */
    static const struct {
        int64_t m, n, k, batch;
        int ta, tb, row;
    } shapes[] = {{1024, 1024, 512, 1, 0, 0, 0}, {300, 260, 200, 1, 1, 0, 0}, {2048, 128, 256, 1, 0, 1, 1},
                  {128, 1024, 256, 1, 1, 1, 0},  {1000, 16, 300, 1, 0, 0, 0}, {35, 1024, 512, 1, 0, 0, 1},
                  {5, 7, 100000, 1, 0, 0, 0},     {33, 65, 70, 6, 1, 0, 0}};
    for (int dt = 0; dt < 2; ++dt) {
        const cldnnDataType_t t = dt ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT;
        const size_t es = dt ? 2 : 4;
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
            const int64_t m = shapes[i].m, n = shapes[i].n, k = shapes[i].k, b = shapes[i].batch;
            const int row = shapes[i].row, ta = shapes[i].ta, tb = shapes[i].tb;
            /* Leading dimensions of the stored (row- or column-major) operands. */
            const int64_t ar = row ? (ta ? k : m) : (ta ? k : m), ac = row ? (ta ? m : k) : (ta ? m : k);
            const int64_t br = row ? (tb ? n : k) : (tb ? n : k), bc = row ? (tb ? k : n) : (tb ? k : n);
            const int64_t lda = row ? ac : ar, ldb = row ? bc : br, ldc = row ? n : m;
            cl_mem A = buf((size_t)(ar * ac * b) * es), B = buf((size_t)(br * bc * b) * es),
                   C = buf((size_t)(m * n * b) * es);
            char what[128];
            snprintf(what, sizeof what, "%s gemm %lldx%lldx%lld%s%s%s batch %lld", dt ? "half" : "float",
                     (long long)m, (long long)n, (long long)k, ta ? " A^T" : "", tb ? " B^T" : "",
                     row ? " row-major" : "", (long long)b);
            const cldnnLayout_t lay = row ? CLDNN_ROW_MAJOR : CLDNN_COL_MAJOR;
            const cldnnOperation_t opa = ta ? CLDNN_OP_T : CLDNN_OP_N, opb = tb ? CLDNN_OP_T : CLDNN_OP_N;
            if (b == 1)
                SERVED(dev, what,
                       cldnnGemm(h, lay, opa, opb, m, n, k, &one, A, 0, lda, B, 0, ldb, &zero, C, 0, ldc, t));
            else
                SERVED(dev, what,
                       cldnnGemmStridedBatched(h, lay, opa, opb, m, n, k, &one, A, 0, lda, ar * ac, B, 0, ldb,
                                               br * bc, &zero, C, 0, ldc, m * n, b, t));
        }
    }
}

Test(min_profile, gemm) { on_both(gemm_body); }

/* ------------------------------------------------------------------------------------ pooling */

static void pool_body(const cldnn_device_profile* dev) {
    cldnnHandle_t h = fx_handle();
    static const struct {
        cldnnPoolingMode_t mode;
        int win, pad, stride, nhwc;
        const char* name;
    } cases[] = {{CLDNN_POOLING_MAX, 3, 1, 2, 0, "max 3x3 stride 2"},
                 {CLDNN_POOLING_MAX, 2, 0, 2, 1, "max 2x2 NHWC"},
                 {CLDNN_POOLING_MAX_DETERMINISTIC, 3, 1, 1, 0, "max 3x3 stride 1 (overlapping)"},
                 {CLDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, 3, 1, 2, 0, "average with padding"},
                 {CLDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, 3, 1, 1, 1, "average without padding NHWC"},
                 {CLDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, 14, 0, 1, 0, "global average 14x14"}};
    cldnnPoolingDescriptor_t pd;
    FX_OK(cldnnCreatePoolingDescriptor(&pd));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        for (int dt = 0; dt < 2; ++dt) {
            const cldnnDataType_t t = dt ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT;
            FX_OK(cldnnSetPooling2dDescriptor(pd, cases[i].mode, CLDNN_NOT_PROPAGATE_NAN, cases[i].win, cases[i].win,
                                              cases[i].pad, cases[i].pad, cases[i].stride, cases[i].stride));
            const tens x = T4(t, 2, 24, 14, 14, cases[i].nhwc), dx = T4(t, 2, 24, 14, 14, cases[i].nhwc);
            int n, c, ph, pw;
            FX_OK(cldnnGetPooling2dForwardOutputDim(pd, x.d, &n, &c, &ph, &pw));
            const tens y = T4(t, n, c, ph, pw, cases[i].nhwc), dy = T4(t, n, c, ph, pw, cases[i].nhwc);
            char what[128];
            snprintf(what, sizeof what, "pooling forward, %s, %s", cases[i].name, fx_dtype_name(t));
            SERVED(dev, what, cldnnPoolingForward(h, pd, &one, x.d, x.m, 0, &zero, y.d, y.m, 0));
            snprintf(what, sizeof what, "pooling backward, %s, %s", cases[i].name, fx_dtype_name(t));
            SERVED(dev, what,
                   cldnnPoolingBackward(h, pd, &one, y.d, y.m, 0, dy.d, dy.m, 0, x.d, x.m, 0, &zero, dx.d, dx.m, 0));
        }
    }
    cldnnDestroyPoolingDescriptor(pd);
}

Test(min_profile, pooling) { on_both(pool_body); }

/* ------------------------------------------------------------------------------------ softmax */

static void softmax_body(const cldnn_device_profile* dev) {
    cldnnHandle_t h = fx_handle();
    /* Short, long, very long (split) rows, CHANNEL on NCHW and NHWC, INSTANCE. */
    static const struct {
        int n, c, hh, w, nhwc, mode;
    } cases[] = {{4, 10, 7, 7, 0, CLDNN_SOFTMAX_MODE_CHANNEL}, {2, 700, 5, 7, 0, CLDNN_SOFTMAX_MODE_CHANNEL},
                 {2, 4096, 1, 2, 0, CLDNN_SOFTMAX_MODE_CHANNEL}, {2, 100, 3, 3, 1, CLDNN_SOFTMAX_MODE_CHANNEL},
                 {2, 3, 64, 64, 0, CLDNN_SOFTMAX_MODE_INSTANCE}, {1, 100000, 1, 1, 0, CLDNN_SOFTMAX_MODE_CHANNEL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (int algo = 0; algo < 3; ++algo) {
            const cldnnDataType_t t = algo == 1 ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT;
            const tens x = T4(t, cases[i].n, cases[i].c, cases[i].hh, cases[i].w, cases[i].nhwc);
            const tens y = T4(t, cases[i].n, cases[i].c, cases[i].hh, cases[i].w, cases[i].nhwc);
            const tens dx = T4(t, cases[i].n, cases[i].c, cases[i].hh, cases[i].w, cases[i].nhwc);
            char what[128];
            snprintf(what, sizeof what, "softmax algo %d mode %d on %dx%dx%dx%d%s", algo, cases[i].mode, cases[i].n,
                     cases[i].c, cases[i].hh, cases[i].w, cases[i].nhwc ? " NHWC" : "");
            SERVED(dev, what,
                   cldnnSoftmaxForward(h, (cldnnSoftmaxAlgorithm_t)algo, (cldnnSoftmaxMode_t)cases[i].mode, &one, x.d,
                                       x.m, 0, &zero, y.d, y.m, 0));
            SERVED(dev, what,
                   cldnnSoftmaxBackward(h, (cldnnSoftmaxAlgorithm_t)algo, (cldnnSoftmaxMode_t)cases[i].mode, &one,
                                        y.d, y.m, 0, x.d, x.m, 0, &zero, dx.d, dx.m, 0));
        }
}

Test(min_profile, softmax) { on_both(softmax_body); }

/* --------------------------------------------------------------------------- batch normalization */

static void bn_body(const cldnn_device_profile* dev) {
    cldnnHandle_t h = fx_handle();
    static const struct {
        int n, c, hh, w, nhwc;
    } shapes[] = {{8, 16, 14, 14, 0}, {2, 64, 7, 7, 1}, {64, 4, 32, 32, 0}, {2, 3, 1, 1, 0}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        for (int mode = 0; mode < 2; ++mode) {
            const cldnnDataType_t t = i == 1 ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT;
            const tens x = T4(t, shapes[i].n, shapes[i].c, shapes[i].hh, shapes[i].w, shapes[i].nhwc);
            const tens y = T4(t, shapes[i].n, shapes[i].c, shapes[i].hh, shapes[i].w, shapes[i].nhwc);
            const tens dx = T4(t, shapes[i].n, shapes[i].c, shapes[i].hh, shapes[i].w, shapes[i].nhwc);
            cldnnTensorDescriptor_t pdesc = desc_nd(CLDNN_DATA_FLOAT, 4, (const int64_t[]){1, 1, 1, 1}, 0);
            FX_OK(cldnnDeriveBNTensorDescriptor(pdesc, x.d, (cldnnBatchNormMode_t)mode));
            const tens sc = tensor_of(pdesc), bi = tensor_of(pdesc), rm = tensor_of(pdesc), rv = tensor_of(pdesc),
                       sm = tensor_of(pdesc), si = tensor_of(pdesc), ds = tensor_of(pdesc), dbias = tensor_of(pdesc);
            char what[128];
            snprintf(what, sizeof what, "batch normalization mode %d on %dx%dx%dx%d%s", mode, shapes[i].n,
                     shapes[i].c, shapes[i].hh, shapes[i].w, shapes[i].nhwc ? " NHWC" : "");
            SERVED(dev, what,
                   cldnnBatchNormalizationForwardTraining(h, (cldnnBatchNormMode_t)mode, &one, &zero, x.d, x.m, 0,
                                                          y.d, y.m, 0, pdesc, sc.m, 0, bi.m, 0, 0.1, rm.m, 0, rv.m,
                                                          0, 1e-5, sm.m, 0, si.m, 0));
            SERVED(dev, what,
                   cldnnBatchNormalizationForwardInference(h, (cldnnBatchNormMode_t)mode, &one, &zero, x.d, x.m, 0,
                                                           y.d, y.m, 0, pdesc, sc.m, 0, bi.m, 0, rm.m, 0, rv.m, 0,
                                                           1e-5));
            SERVED(dev, what,
                   cldnnBatchNormalizationBackward(h, (cldnnBatchNormMode_t)mode, &one, &zero, &one, &zero, x.d, x.m,
                                                   0, y.d, y.m, 0, dx.d, dx.m, 0, pdesc, sc.m, 0, ds.m, 0,
                                                   dbias.m, 0, 1e-5, sm.m, 0, si.m, 0));
        }
}

Test(min_profile, batchnorm) { on_both(bn_body); }

/* ---------------------------------------------------------------------------------------- LRN */

static void lrn_body(const cldnn_device_profile* dev) {
    cldnnHandle_t h = fx_handle();
    static const struct {
        int n, c, hh, w, nhwc;
    } shapes[] = {{2, 16, 13, 13, 0}, {2, 96, 27, 27, 0}, {1, 2000, 3, 3, 0}, {2, 32, 9, 9, 1}};
    cldnnLRNDescriptor_t ld;
    FX_OK(cldnnCreateLRNDescriptor(&ld));
    FX_OK(cldnnSetLRNDescriptor(ld, 5, 1e-4, 0.75, 2.0));
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        for (int mode = 0; mode < 2; ++mode) {
            const cldnnDataType_t t = i == 3 ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT;
            const tens x = T4(t, shapes[i].n, shapes[i].c, shapes[i].hh, shapes[i].w, shapes[i].nhwc);
            const tens y = T4(t, shapes[i].n, shapes[i].c, shapes[i].hh, shapes[i].w, shapes[i].nhwc);
            const tens dy = T4(t, shapes[i].n, shapes[i].c, shapes[i].hh, shapes[i].w, shapes[i].nhwc);
            const tens dx = T4(t, shapes[i].n, shapes[i].c, shapes[i].hh, shapes[i].w, shapes[i].nhwc);
            char what[128];
            snprintf(what, sizeof what, "LRN mode %d on %dx%dx%dx%d", mode, shapes[i].n, shapes[i].c, shapes[i].hh,
                     shapes[i].w);
            SERVED(dev, what, cldnnLRNForward(h, ld, (cldnnLRNMode_t)mode, &one, x.d, x.m, 0, &zero, y.d, y.m, 0));
            SERVED(dev, what,
                   cldnnLRNBackward(h, ld, (cldnnLRNMode_t)mode, &one, y.d, y.m, 0, dy.d, dy.m, 0, x.d, x.m, 0, &zero,
                                    dx.d, dx.m, 0));
        }
    cldnnDestroyLRNDescriptor(ld);
}

Test(min_profile, lrn) { on_both(lrn_body); }

/* ----------------------------------------------------- element-wise: activations, tensor ops */

static void eltwise_body(const cldnn_device_profile* dev) {
    cldnnHandle_t h = fx_handle();
    cldnnActivationDescriptor_t act;
    FX_OK(cldnnCreateActivationDescriptor(&act));
    for (int dt = 0; dt < 3; ++dt) {
        const cldnnDataType_t t = dt == 0 ? CLDNN_DATA_FLOAT : dt == 1 ? CLDNN_DATA_HALF : CLDNN_DATA_BFLOAT16;
        const tens x = T4(t, 2, 16, 9, 11, 0), y = T4(t, 2, 16, 9, 11, 0), dx = T4(t, 2, 16, 9, 11, 0);
        const tens xn = T4(t, 2, 16, 9, 11, 1), big = T4(t, 1, 1, 1, 1 << 20, 0), big2 = T4(t, 1, 1, 1, 1 << 20, 0);
        const tens bias = T4(t, 1, 16, 1, 1, 0);
        char what[128];
        static const cldnnActivationMode_t modes[] = {CLDNN_ACTIVATION_RELU, CLDNN_ACTIVATION_GELU,
                                                      CLDNN_ACTIVATION_SWISH};
        for (size_t m = 0; m < 3; ++m) {
            FX_OK(cldnnSetActivationDescriptor(act, modes[m], CLDNN_NOT_PROPAGATE_NAN, 0.0));
            snprintf(what, sizeof what, "activation %d, %s", (int)modes[m], fx_dtype_name(t));
            SERVED(dev, what, cldnnActivationForward(h, act, &one, x.d, x.m, 0, &zero, y.d, y.m, 0));
            SERVED(dev, what, cldnnActivationForward(h, act, &one, x.d, x.m, 0, &half_, xn.d, xn.m, 0));
            SERVED(dev, what, cldnnActivationForward(h, act, &one, big.d, big.m, 0, &zero, big2.d, big2.m, 0));
            SERVED(dev, what,
                   cldnnActivationBackward(h, act, &one, y.d, y.m, 0, y.d, y.m, 0, x.d, x.m, 0, &zero, dx.d, dx.m, 0));
        }
        snprintf(what, sizeof what, "tensor ops, %s", fx_dtype_name(t));
        SERVED(dev, what, cldnnAddTensor(h, &one, bias.d, bias.m, 0, &one, y.d, y.m, 0));
        SERVED(dev, what, cldnnAddTensor(h, &one, x.d, x.m, 0, &half_, xn.d, xn.m, 0));
        SERVED(dev, what, cldnnSetTensor(h, y.d, y.m, 0, &half_));
        SERVED(dev, what, cldnnScaleTensor(h, xn.d, xn.m, 0, &half_));
        SERVED(dev, what, cldnnTransformTensor(h, &one, x.d, x.m, 0, &zero, xn.d, xn.m, 0));
        SERVED(dev, what, cldnnTransformTensor(h, &one, xn.d, xn.m, 0, &zero, x.d, x.m, 0));
        const tens wide = T4(t, 1, 256, 64, 64, 0), wide_t = T4(t, 1, 256, 64, 64, 1);
        SERVED(dev, what, cldnnTransformTensor(h, &one, wide.d, wide.m, 0, &zero, wide_t.d, wide_t.m, 0));

        cldnnOpTensorDescriptor_t od;
        FX_OK(cldnnCreateOpTensorDescriptor(&od));
        static const cldnnOpTensorOp_t ops[] = {CLDNN_OP_TENSOR_ADD, CLDNN_OP_TENSOR_MAX, CLDNN_OP_TENSOR_SQRT,
                                                CLDNN_OP_TENSOR_DIV};
        for (size_t o = 0; o < 4; ++o) {
            FX_OK(cldnnSetOpTensorDescriptor(od, ops[o], CLDNN_DATA_FLOAT, CLDNN_NOT_PROPAGATE_NAN));
            snprintf(what, sizeof what, "op tensor %d, %s", (int)ops[o], fx_dtype_name(t));
            SERVED(dev, what, cldnnOpTensor(h, od, &one, x.d, x.m, 0, &one, bias.d, bias.m, 0, &zero, y.d, y.m, 0));
            SERVED(dev, what, cldnnOpTensor(h, od, &one, x.d, x.m, 0, &one, xn.d, xn.m, 0, &zero, dx.d, dx.m, 0));
        }
        cldnnDestroyOpTensorDescriptor(od);
    }
    cldnnDestroyActivationDescriptor(act);
}

Test(min_profile, elementwise) { on_both(eltwise_body); }

/* ------------------------------------------------------------------------ reduction, dropout */

static void reduce_body(const cldnn_device_profile* dev) {
    cldnnHandle_t h = fx_handle();
    cldnnReduceTensorDescriptor_t rd;
    FX_OK(cldnnCreateReduceTensorDescriptor(&rd));
    /* A of 8 x 64 x 32 x 32 (NCHW and NHWC) reduced to each C shape: all, over W (rows), over N
    ** (columns on NHWC), over everything but C (few outputs, long: split), nothing. */
    static const int64_t cshapes[][4] = {{1, 1, 1, 1}, {8, 64, 32, 1}, {1, 64, 32, 32}, {1, 64, 1, 1}, {8, 64, 32, 32}};
    static const cldnnReduceTensorOp_t ops[] = {CLDNN_REDUCE_TENSOR_ADD, CLDNN_REDUCE_TENSOR_MAX,
                                                CLDNN_REDUCE_TENSOR_NORM2};
    for (int nhwc = 0; nhwc < 2; ++nhwc)
        for (size_t s = 0; s < sizeof cshapes / sizeof cshapes[0]; ++s)
            for (size_t o = 0; o < 3; ++o) {
                const int idx = ops[o] == CLDNN_REDUCE_TENSOR_MAX;
                FX_OK(cldnnSetReduceTensorDescriptor(rd, ops[o], CLDNN_DATA_FLOAT, CLDNN_NOT_PROPAGATE_NAN,
                                                     idx ? CLDNN_REDUCE_TENSOR_FLATTENED_INDICES
                                                         : CLDNN_REDUCE_TENSOR_NO_INDICES,
                                                     CLDNN_32BIT_INDICES));
                const tens a = T4(CLDNN_DATA_FLOAT, 8, 64, 32, 32, nhwc);
                const tens c = tensor(CLDNN_DATA_FLOAT, 4, cshapes[s], nhwc);
                size_t ws = 0, is = 0;
                FX_OK(cldnnGetReductionWorkspaceSize(h, rd, a.d, c.d, &ws));
                FX_OK(cldnnGetReductionIndicesSize(h, rd, a.d, c.d, &is));
                cl_mem wsm = ws ? buf(ws) : NULL, ism = is ? buf(is) : NULL;
                char what[128];
                snprintf(what, sizeof what, "reduction %d to %lldx%lldx%lldx%lld%s", (int)ops[o],
                         (long long)cshapes[s][0], (long long)cshapes[s][1], (long long)cshapes[s][2],
                         (long long)cshapes[s][3], nhwc ? " NHWC" : "");
                SERVED(dev, what,
                       cldnnReduceTensor(h, rd, ism, 0, is, wsm, 0, ws, &one, a.d, a.m, 0, &zero, c.d, c.m, 0));
            }
    cldnnDestroyReduceTensorDescriptor(rd);

    cldnnDropoutDescriptor_t dd;
    FX_OK(cldnnCreateDropoutDescriptor(&dd));
    FX_OK(cldnnSetDropoutDescriptor(dd, 0.3f, 1234, 0));
    for (int nhwc = 0; nhwc < 2; ++nhwc) {
        const tens x = T4(CLDNN_DATA_FLOAT, 2, 16, 9, 11, nhwc), y = T4(CLDNN_DATA_FLOAT, 2, 16, 9, 11, nhwc);
        size_t rs = 0;
        FX_OK(cldnnDropoutGetReserveSpaceSize(x.d, &rs));
        cl_mem r = buf(rs);
        SERVED(dev, "dropout forward", cldnnDropoutForward(h, dd, x.d, x.m, 0, y.d, y.m, 0, r, 0, rs));
        SERVED(dev, "dropout forward without reserve", cldnnDropoutForward(h, dd, x.d, x.m, 0, y.d, y.m, 0, NULL, 0, 0));
        SERVED(dev, "dropout backward", cldnnDropoutBackward(h, dd, y.d, y.m, 0, x.d, x.m, 0, r, 0, rs));
    }
    cldnnDestroyDropoutDescriptor(dd);
}

Test(min_profile, reduction_and_dropout) { on_both(reduce_body); }

/* ---------------------------------------------------------------- layer, group and RMS norm */

static void norm_body(const cldnn_device_profile* dev) {
    cldnnHandle_t h = fx_handle();
    cldnnNormDescriptor_t nd;
    FX_OK(cldnnCreateNormDescriptor(&nd));
    static const struct {
        cldnnNormMode_t mode;
        int param;
        int64_t dims[4];
        int nhwc;
    } cases[] = {{CLDNN_NORM_LAYER, 1, {4, 8, 16, 768}, 0},  {CLDNN_NORM_LAYER, 3, {2, 64, 32, 32}, 0},
                 {CLDNN_NORM_RMS, 1, {2, 4, 1, 100000}, 0},   {CLDNN_NORM_GROUP, 8, {2, 32, 16, 16}, 0},
                 {CLDNN_NORM_GROUP, 32, {2, 32, 16, 16}, 1}, {CLDNN_NORM_LAYER, 1, {64, 1, 1, 8}, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const cldnnDataType_t t = i == 1 ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT;
        FX_OK(cldnnSetNormDescriptor(nd, cases[i].mode, cases[i].param, 1e-5));
        const tens x = tensor(t, 4, cases[i].dims, cases[i].nhwc), y = tensor(t, 4, cases[i].dims, cases[i].nhwc),
                   dx = tensor(t, 4, cases[i].dims, cases[i].nhwc);
        cldnnTensorDescriptor_t pd = desc_nd(CLDNN_DATA_FLOAT, 4, (const int64_t[]){1, 1, 1, 1}, 0),
                                sd = desc_nd(CLDNN_DATA_FLOAT, 4, (const int64_t[]){1, 1, 1, 1}, 0);
        FX_OK(cldnnDeriveNormTensorDescriptors(nd, x.d, pd, sd));
        const tens sc = tensor_of(pd), bi = tensor_of(pd), ds = tensor_of(pd), db = tensor_of(pd),
                   mean = tensor_of(sd), inv = tensor_of(sd);
        char what[128];
        snprintf(what, sizeof what, "normalization mode %d param %d on %lldx%lldx%lldx%lld", (int)cases[i].mode,
                 cases[i].param, (long long)cases[i].dims[0], (long long)cases[i].dims[1],
                 (long long)cases[i].dims[2], (long long)cases[i].dims[3]);
        cl_mem mm = cases[i].mode == CLDNN_NORM_RMS ? NULL : mean.m; /* RMS has no mean */
        SERVED(dev, what,
               cldnnNormalizationForward(h, nd, &one, &zero, x.d, x.m, 0, pd, sc.m, 0, bi.m, 0, sd, mm, 0, inv.m, 0,
                                         y.d, y.m, 0));
        SERVED(dev, what,
               cldnnNormalizationBackward(h, nd, &one, &zero, &one, &zero, x.d, x.m, 0, y.d, y.m, 0, pd, sc.m, 0,
                                          ds.m, 0, db.m, 0, sd, mm, 0, inv.m, 0, dx.d, dx.m, 0));
    }
    cldnnDestroyNormDescriptor(nd);
}

Test(min_profile, normalization) { on_both(norm_body); }

/* ------------------------------------------------------------------------------------ attention */

static void attn_body(const cldnn_device_profile* dev) {
    cldnnHandle_t h = fx_handle();
    cldnnAttentionDescriptor_t ad;
    FX_OK(cldnnCreateAttentionDescriptor(&ad));
    static const struct {
        int b, hq, hkv, sq, sk, d, causal;
        float drop;
    } cases[] = {{2, 4, 4, 128, 128, 64, 0, 0.0f}, {1, 8, 2, 100, 300, 128, 1, 0.0f},
                 {1, 2, 2, 64, 64, 256, 0, 0.1f},  {2, 2, 1, 1, 500, 32, 0, 0.0f}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const cldnnDataType_t t = i == 1 ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT;
        FX_OK(cldnnSetAttentionDescriptor(ad, 0.125f, cases[i].causal, cases[i].drop, 7, 0, CLDNN_DEFAULT_MATH));
        const int64_t qd[4] = {cases[i].b, cases[i].hq, cases[i].sq, cases[i].d};
        const int64_t kd[4] = {cases[i].b, cases[i].hkv, cases[i].sk, cases[i].d};
        const int64_t sd[4] = {cases[i].b, cases[i].hq, cases[i].sq, 1};
        const tens q = tensor(t, 4, qd, 0), k = tensor(t, 4, kd, 0), v = tensor(t, 4, kd, 0), o = tensor(t, 4, qd, 0);
        const tens dO = tensor(t, 4, qd, 0), dq = tensor(t, 4, qd, 0), dk = tensor(t, 4, kd, 0),
                   dv = tensor(t, 4, kd, 0), st = tensor(CLDNN_DATA_FLOAT, 4, sd, 0);
        size_t fws = 0, bws = 0;
        FX_OK(cldnnGetAttentionWorkspaceSize(h, ad, q.d, k.d, v.d, o.d, &fws, &bws));
        cl_mem fw = fws ? buf(fws) : NULL, bw = bws ? buf(bws) : NULL;
        char what[128];
        snprintf(what, sizeof what, "attention B%d H%d/%d Sq%d Sk%d D%d%s", cases[i].b, cases[i].hq, cases[i].hkv,
                 cases[i].sq, cases[i].sk, cases[i].d, cases[i].causal ? " causal" : "");
        SERVED(dev, what,
               cldnnAttentionForward(h, ad, q.d, q.m, 0, k.d, k.m, 0, v.d, v.m, 0, o.d, o.m, 0, st.d, st.m, 0, fw, 0,
                                     fws));
        SERVED(dev, what,
               cldnnAttentionBackward(h, ad, q.d, q.m, 0, k.d, k.m, 0, v.d, v.m, 0, o.d, o.m, 0, dO.d, dO.m, 0, st.d,
                                      st.m, 0, dq.d, dq.m, 0, dk.d, dk.m, 0, dv.d, dv.m, 0, bw, 0, bws));
    }
    cldnnDestroyAttentionDescriptor(ad);
}

Test(min_profile, attention) { on_both(attn_body); }

/* The dry run itself can fail: a launch larger than the profile allows is refused before the
** driver sees it (cldnn_enqueue_nd), so a solver that ignored the limit would fail these tests. */
Test(min_profile, oversized_launch_refused) {
    cldnn_device_profile dev = min_profile(0);
    dry_begin(&dev);
    const uint64_t global[1] = {64};
    const size_t local[1] = {2};
    FX_EXPECT_STATUS(CLDNN_STATUS_INTERNAL_ERROR, cldnn_enqueue_nd(fx_handle(), NULL, 1, global, local, "a test launch"));
    dry_end();
}
