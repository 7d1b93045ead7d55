/*
** test_conv_mma.c: the tensor-core implicit-GEMM convolution (src/conv/gemm/conv_igemm_mma.c,
** kernels/conv/conv_igemm_mma.cl), white-box (includes internal.h).
**
** The kernel runs only on NVIDIA tensor cores, so most of it is checked here without them:
**   conv_mma/selection     which device profiles (compute capability, vendor, CPU) and math types
**                          are offered the solver, per direction, FLOAT and HALF data alike; it is
**                          the first solver of its algorithm in the tables where offered (no
**                          workspace but backward-filter's split-k); narrow layers keep the
**                          portable kernels.
**   conv_mma/get_v7        Get_v7 on the handle with its profile turned into an H100's: under
**                          TENSOR_OP_MATH a 3x3 layer's first answer in each direction is the
**                          implicit GEMM with mathType TENSOR_OP_MATH and the workspace the query
**                          gives (none forward and backward-data); DEFAULT_MATH and FMA_MATH
**                          answer no TENSOR_OP_MATH entry.
**   conv_mma/defaults      the default parameters fit every ResNet-50 / VGG-16 layer, FLOAT and
**                          HALF, both layouts, every direction, on cc 9.0, 8.0 and 8.6 profiles;
**                          backward-filter's workspace is exactly its splits' float partial sums.
**   conv_mma/tuning_space  the tuners' candidates (cldnn_conv_igemm_mma_param_space) on every
**                          ResNet-50 / VGG-16 layer, FLOAT and HALF, cc 9.0 / 8.0 / 8.6: non-empty,
**                          each accepted by the run's check, from the GEMM's declared space of the
**                          data type (HALF: k-tiles 32 / 64, copies of 8), with the split count.
**   conv_mma/tuning_record a tuning-db record of the solver round-trips (another process's file
**                          record) on an H100 profile: workspace query and Get_v7 follow it, except
**                          in HEURISTIC, for an invalid set, or under CLDNN_SOLVER_PARAMS.
**   conv_mma/maps_*        the kernel's own index maps (kernels/conv/conv_igemm_mma.h, compiled
**                          here as C) on emulated local tiles: every work-item's copy stage for
**                          every k-tile of every block, then the tiles' product in double and
**                          the kernel's store. Checked: each cp.async reads inside its tensor
**                          (16-byte copies 16-byte aligned at both ends), each tile element is
**                          written exactly once per stage, and the output equals the double
**                          reference (alpha/beta, offsets, padding, stride, dilation, groups,
**                          CONVOLUTION mode, NCHW / NHWC, KCRS / KRSC, single-element and 16-byte
**                          copies, several tile shapes, backward-filter with 1 and 3 splits).
**                          maps_half_* run them with HALF's element size (runs of 8 halves, single
**                          halves, 16-byte row padding of 8 halves, k-tiles up to 64). What this
**                          leaves to the GPU: the fragments and the PTX, which the GEMM's TF32 and
**                          FP16 tests cover.
**   conv_mma/tensor_cores_tf32, tensor_cores_f16, tensor_cores_bf16  where the device has tensor
**                          cores (else an info line): the public calls under TENSOR_OP_MATH, FLOAT,
**                          HALF and BFLOAT16 data, against the double reference within the FP32
**                          tolerance plus the TF32 rounding of both inputs, or (16-bit) with
**                          truncating FP32 sums plus the output's rounding to its type.
*/
#include "fixture.h"
#include "internal.h"
#include "conv/conv.h"
#include "handle/engine.h"
#include "whitebox.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(conv_mma, .fini = fx_fini);

/* Descriptors of one problem (NCHW + KCRS or NHWC + KRSC), created and destroyed together. */
typedef struct {
    cldnnTensorDescriptor_t x, y;
    cldnnFilterDescriptor_t w;
    cldnnConvolutionDescriptor_t c;
} descs;

typedef struct {
    int n, c, h, w, k, r, s, ph, pw, u, v, dh, dw, g;
    int flip, nhwc;
} shape;

static void descs_make(descs* d, const shape* s, cldnnDataType_t dt, cldnnMathType_t math) {
    FX_OK(cldnnCreateTensorDescriptor(&d->x));
    FX_OK(cldnnCreateTensorDescriptor(&d->y));
    FX_OK(cldnnCreateFilterDescriptor(&d->w));
    FX_OK(cldnnCreateConvolutionDescriptor(&d->c));
    cldnnTensorFormat_t f = s->nhwc ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW;
    FX_OK(cldnnSetTensor4dDescriptor(d->x, f, dt, s->n, s->c, s->h, s->w));
    FX_OK(cldnnSetFilter4dDescriptor(d->w, dt, f, s->k, s->c / s->g, s->r, s->s));
    FX_OK(cldnnSetConvolution2dDescriptor(d->c, s->ph, s->pw, s->u, s->v, s->dh, s->dw,
                                          s->flip ? CLDNN_CONVOLUTION : CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    FX_OK(cldnnSetConvolutionGroupCount(d->c, s->g));
    FX_OK(cldnnSetConvolutionMathType(d->c, math));
    int n, k, p, q;
    FX_OK(cldnnGetConvolution2dForwardOutputDim(d->c, d->x, d->w, &n, &k, &p, &q));
    FX_OK(cldnnSetTensor4dDescriptor(d->y, f, dt, n, k, p, q));
}

static void descs_free(descs* d) {
    cldnnDestroyTensorDescriptor(d->x);
    cldnnDestroyTensorDescriptor(d->y);
    cldnnDestroyFilterDescriptor(d->w);
    cldnnDestroyConvolutionDescriptor(d->c);
}

static void problem(const descs* d, cldnn_conv_dir dir, const cldnn_device_profile* dev, cldnn_conv_problem* p) {
    FX_OK(cldnn_conv_problem_init(fx_handle(), dir, d->x, d->w, d->c, d->y, p));
    p->dev = dev;
}

/* The solver of p's direction table that runs algorithm algo (the engine's heuristic order). */
static const cldnn_solver* first_solver(const cldnn_conv_problem* p, int algo) {
    const cldnn_solver* t = p->dir == CLDNN_CONV_FWD        ? cldnn_conv_fwd_solvers
                            : p->dir == CLDNN_CONV_BWD_DATA ? cldnn_conv_bwd_data_solvers
                                                            : cldnn_conv_bwd_filter_solvers;
    size_t n = p->dir == CLDNN_CONV_FWD        ? cldnn_conv_fwd_solver_count
               : p->dir == CLDNN_CONV_BWD_DATA ? cldnn_conv_bwd_data_solver_count
                                               : cldnn_conv_bwd_filter_solver_count;
    const cldnn_family fam = {.solvers = t, .count = n, .tune_algo = -1};
    return cldnn_engine_pick(&fam, p, p->dev, algo);
}

static const int k_igemm_algo[3] = {CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, CLDNN_CONVOLUTION_BWD_DATA_ALGO_1,
                                    CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1};

Test(conv_mma, selection) {
    const char* saved = getenv("CLDNN_TENSOR_CORES");
    FX_ASSERT(saved == NULL || strcmp(saved, "0") != 0, "run this test without CLDNN_TENSOR_CORES=0");
    const struct {
        int major, minor, cpu, nvidia, want;
    } devs[] = {{9, 0, 0, 1, 1}, {8, 0, 0, 1, 1}, {8, 6, 0, 1, 1}, {8, 9, 0, 1, 1},
                {7, 5, 0, 1, 0}, {0, 0, 0, 1, 0}, {9, 0, 0, 0, 0}, {9, 0, 1, 1, 0}};
    const cldnnMathType_t maths[3] = {CLDNN_DEFAULT_MATH, CLDNN_TENSOR_OP_MATH, CLDNN_FMA_MATH};
    /* a 3x3 layer (offered), a 3-channel stem (forward's reduction too narrow, backward-data's N;
    ** backward-filter's M = K and N = C*R*S are wide), a 4-output-channel layer (forward's N,
    ** backward-data's reduction, backward-filter's M) */
    const shape layers[3] = {{2, 64, 14, 14, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 0},
                             {2, 3, 32, 32, 64, 7, 7, 3, 3, 2, 2, 1, 1, 1, 0, 1},
                             {2, 32, 8, 8, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 0}};
    const int wide[3][3] = {{1, 1, 1}, {0, 0, 1}, {0, 0, 0}};
    for (int l = 0; l < 3; ++l)
        for (int m = 0; m < 3; ++m)
            for (int dt = 0; dt < 2; ++dt) {
                descs d;
                descs_make(&d, &layers[l], dt ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT, maths[m]);
                for (size_t i = 0; i < sizeof devs / sizeof devs[0]; ++i) {
                    cldnn_device_profile dev = wb_nv_profile(devs[i].major, devs[i].minor);
                    dev.is_nvidia = devs[i].nvidia;
                    dev.vendor_id = devs[i].nvidia ? 0x10de : 0x1002;
                    dev.is_cpu = devs[i].cpu;
                    dev.type = devs[i].cpu ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
                    for (int dir = 0; dir < 3; ++dir) {
                        cldnn_conv_problem p;
                        problem(&d, (cldnn_conv_dir)dir, &dev, &p);
                        int want = devs[i].want && maths[m] == CLDNN_TENSOR_OP_MATH && wide[l][dir];
                        int got = cldnn_conv_igemm_mma_applicable(&p, &dev);
                        FX_ASSERT(got == want, "%s on %s (cpu %d, nvidia %d): offered %d, want %d", p.key, dev.name,
                                  dev.is_cpu, dev.is_nvidia, got, want);
                        const cldnn_solver* s = first_solver(&p, k_igemm_algo[dir]);
                        FX_ASSERT(s != NULL, "%s: no solver for the implicit-GEMM algorithm", p.key);
                        FX_ASSERT((strcmp(s->name, cldnn_conv_igemm_mma_solver_name(p.dir)) == 0) == want,
                                  "%s on %s: the implicit-GEMM algorithm runs %s", p.key, dev.name, s->name);
                        if (want && dir != CLDNN_CONV_BWD_FILTER)
                            FX_ASSERT(s->workspace(&p, NULL) == 0, "%s: %s asks for %zu bytes of workspace",
                                      p.key, s->name, s->workspace(&p, NULL));
                    }
                }
                descs_free(&d);
            }
}

/* Get_v7 answers from the handle's profile: turned into an H100's (nothing runs), the answer for a
** 3x3 stride-2 NHWC layer (FLOAT and HALF) lists the tensor-core implicit GEMM first under TENSOR_OP_MATH (a stride-1 one
** takes Winograd non-fused, whose products then run on tensor cores too; NCHW backward-data at
** stride 2 the GEMM and col2im, the implicit GEMM later), and never a tensor-op entry under
** DEFAULT_MATH or FMA_MATH. */
Test(conv_mma, get_v7) {
    cldnnHandle_t h = fx_handle();
    const cldnn_device_profile saved = h->prof;
    cldnn_device_profile nv = wb_nv_profile(9, 0);
    memcpy(h->prof.name, nv.name, sizeof nv.name);
    h->prof.is_nvidia = 1;
    h->prof.is_cpu = 0;
    h->prof.nv_cc_major = 9;
    h->prof.nv_cc_minor = 0;
    const shape l = {2, 32, 9, 9, 48, 3, 3, 1, 1, 2, 2, 1, 1, 1, 0, 1};
    {
        const shape l1 = {2, 32, 9, 9, 48, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 1};
        descs d;
        descs_make(&d, &l1, CLDNN_DATA_FLOAT, CLDNN_TENSOR_OP_MATH);
        cldnnConvolutionFwdAlgoPerf_t fp[CLDNN_CONVOLUTION_FWD_ALGO_COUNT];
        cldnnConvolutionBwdDataAlgoPerf_t bp[CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
        int nf = 0, nb = 0;
        FX_OK(cldnnGetConvolutionForwardAlgorithm_v7(h, d.x, d.w, d.c, d.y, CLDNN_CONVOLUTION_FWD_ALGO_COUNT, &nf,
                                                      fp));
        FX_OK(cldnnGetConvolutionBackwardDataAlgorithm_v7(h, d.w, d.y, d.c, d.x,
                                                           CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &nb, bp));
        FX_ASSERT(nf > 1 && fp[0].algo == CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED &&
                      fp[0].mathType == CLDNN_TENSOR_OP_MATH && fp[1].algo == CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM &&
                      fp[1].mathType == CLDNN_TENSOR_OP_MATH,
                  "stride 1 forward: answers algo %d math %d, algo %d math %d", (int)fp[0].algo,
                  (int)fp[0].mathType, (int)fp[1].algo, (int)fp[1].mathType);
        FX_ASSERT(nb > 1 && bp[0].algo == CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED &&
                      bp[0].mathType == CLDNN_TENSOR_OP_MATH && bp[1].algo == CLDNN_CONVOLUTION_BWD_DATA_ALGO_1 &&
                      bp[1].mathType == CLDNN_TENSOR_OP_MATH,
                  "stride 1 backward-data: answers algo %d math %d, algo %d math %d", (int)bp[0].algo,
                  (int)bp[0].mathType, (int)bp[1].algo, (int)bp[1].mathType);
        descs_free(&d);
    }
    for (int dt = 0; dt < 2; ++dt) { /* the stride-2 layer in NCHW: backward-data's GEMM and col2im first */
        shape l2 = l;
        l2.nhwc = 0;
        descs d;
        descs_make(&d, &l2, dt ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT, CLDNN_TENSOR_OP_MATH);
        cldnnConvolutionBwdDataAlgoPerf_t bp[CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
        int nb = 0, at = -1;
        FX_OK(cldnnGetConvolutionBackwardDataAlgorithm_v7(h, d.w, d.y, d.c, d.x,
                                                           CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &nb, bp));
        for (int i = 0; i < nb; ++i)
            if (bp[i].algo == CLDNN_CONVOLUTION_BWD_DATA_ALGO_1 && bp[i].mathType == CLDNN_TENSOR_OP_MATH)
                at = i;
        FX_ASSERT(nb > 1 && bp[0].algo == CLDNN_CONVOLUTION_BWD_DATA_ALGO_0 && bp[0].status == 0 && at > 0,
                  "%s NCHW stride 2 backward-data: first answer algo %d status %d, the tensor-core implicit GEMM at "
                  "%d",
                  dt ? "HALF" : "FLOAT", (int)bp[0].algo, (int)bp[0].status, at);
        descs_free(&d);
    }
    const cldnnMathType_t maths[3] = {CLDNN_DEFAULT_MATH, CLDNN_TENSOR_OP_MATH, CLDNN_FMA_MATH};
    for (int m = 0; m < 6; ++m) { /* FLOAT, then HALF, in each math type */
        const cldnnMathType_t math = maths[m % 3];
        const char* dn = m < 3 ? "FLOAT" : "HALF";
        descs d;
        descs_make(&d, &l, m < 3 ? CLDNN_DATA_FLOAT : CLDNN_DATA_HALF, math);
        cldnnConvolutionFwdAlgoPerf_t fp[CLDNN_CONVOLUTION_FWD_ALGO_COUNT];
        cldnnConvolutionBwdDataAlgoPerf_t bp[CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
        cldnnConvolutionBwdFilterAlgoPerf_t wp[CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
        int nf = 0, nb = 0, nw = 0;
        FX_OK(cldnnGetConvolutionForwardAlgorithm_v7(h, d.x, d.w, d.c, d.y, CLDNN_CONVOLUTION_FWD_ALGO_COUNT, &nf,
                                                      fp));
        FX_OK(cldnnGetConvolutionBackwardDataAlgorithm_v7(h, d.w, d.y, d.c, d.x,
                                                           CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &nb, bp));
        FX_OK(cldnnGetConvolutionBackwardFilterAlgorithm_v7(h, d.x, d.y, d.c, d.w,
                                                             CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &nw, wp));
        if (math == CLDNN_TENSOR_OP_MATH) {
            FX_ASSERT(nf > 0 && fp[0].algo == CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM && fp[0].status == 0 &&
                          fp[0].mathType == CLDNN_TENSOR_OP_MATH && fp[0].memory == 0,
                      "%s forward: first answer algo %d status %d math %d memory %zu", dn, (int)fp[0].algo,
                      (int)fp[0].status, (int)fp[0].mathType, fp[0].memory);
            FX_ASSERT(nb > 0 && bp[0].algo == CLDNN_CONVOLUTION_BWD_DATA_ALGO_1 && bp[0].status == 0 &&
                          bp[0].mathType == CLDNN_TENSOR_OP_MATH && bp[0].memory == 0,
                      "%s backward-data: first answer algo %d status %d math %d memory %zu", dn, (int)bp[0].algo,
                      (int)bp[0].status, (int)bp[0].mathType, bp[0].memory);
            size_t ws = 1;
            FX_OK(cldnnGetConvolutionForwardWorkspaceSize(h, d.x, d.w, d.c, d.y,
                                                          CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, &ws));
            FX_ASSERT(ws == 0, "forward implicit GEMM workspace %zu", ws);
            ws = 1;
            FX_OK(cldnnGetConvolutionBackwardDataWorkspaceSize(h, d.w, d.y, d.c, d.x, CLDNN_CONVOLUTION_BWD_DATA_ALGO_1,
                                                               &ws));
            FX_ASSERT(ws == 0, "backward-data ALGO_1 workspace %zu", ws);
            FX_OK(cldnnGetConvolutionBackwardFilterWorkspaceSize(h, d.x, d.y, d.c, d.w,
                                                                 CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1, &ws));
            FX_ASSERT(nw > 0 && wp[0].algo == CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1 && wp[0].status == 0 &&
                          wp[0].mathType == CLDNN_TENSOR_OP_MATH && wp[0].memory == ws,
                      "%s backward-filter: first answer algo %d status %d math %d memory %zu (workspace query %zu)",
                      dn, (int)wp[0].algo, (int)wp[0].status, (int)wp[0].mathType, wp[0].memory, ws);
        } else {
            for (int i = 0; i < nf; ++i)
                FX_ASSERT(fp[i].mathType != CLDNN_TENSOR_OP_MATH, "%s math %d: forward algo %d answers TENSOR_OP_MATH",
                          dn, (int)math, (int)fp[i].algo);
            for (int i = 0; i < nb; ++i)
                FX_ASSERT(bp[i].mathType != CLDNN_TENSOR_OP_MATH,
                          "%s math %d: backward-data algo %d answers TENSOR_OP_MATH", dn, (int)math,
                          (int)bp[i].algo);
            for (int i = 0; i < nw; ++i)
                FX_ASSERT(wp[i].mathType != CLDNN_TENSOR_OP_MATH,
                          "%s math %d: backward-filter algo %d answers TENSOR_OP_MATH", dn, (int)math,
                          (int)wp[i].algo);
        }
        descs_free(&d);
    }
    h->prof = saved;
}

/* Calls check(p, dev) for every problem of data type dt the solver takes among the ResNet-50 /
** VGG-16 layers, both layouts (nhwc), every direction, on cc 9.0, 8.0 and 8.6 profiles; returns
** their count. */
static size_t each_net_problem(void (*check)(const cldnn_conv_problem* p, const cldnn_device_profile* dev, int nhwc),
                               cldnnDataType_t dt) {
    const cldnn_device_profile devs[3] = {wb_nv_profile(9, 0), wb_nv_profile(8, 0), wb_nv_profile(8, 6)};
    size_t count = 0;
    for (size_t i = 0; i < sizeof wb_net_layers / sizeof wb_net_layers[0]; ++i)
        for (int nhwc = 0; nhwc < 2; ++nhwc) {
            const int* l = wb_net_layers[i];
            shape s = {l[0], l[1], l[2], l[3], l[4], l[5], l[6], l[7], l[7], l[8], l[8], 1, 1, 1, 0, nhwc};
            descs d;
            descs_make(&d, &s, dt, CLDNN_TENSOR_OP_MATH);
            for (int dv = 0; dv < 3; ++dv)
                for (int dir = 0; dir < 3; ++dir) {
                    cldnn_conv_problem p;
                    problem(&d, (cldnn_conv_dir)dir, &devs[dv], &p);
                    if (!cldnn_conv_igemm_mma_applicable(&p, &devs[dv]))
                        continue;
                    check(&p, &devs[dv], nhwc);
                    count++;
                }
            descs_free(&d);
        }
    return count;
}

static void check_defaults(const cldnn_conv_problem* p, const cldnn_device_profile* dev, int nhwc) {
    cldnn_gemm_mma_params q;
    cldnn_conv_igemm_mma_defaults(p, dev, &q);
    cldnn_conv_mma_plan pl;
    cldnn_conv_igemm_mma_plan(p, q.bk, &pl);
    q.vw = pl.avw > pl.bvw ? pl.avw : pl.bvw;
    char ps[96];
    cldnn_gemm_mma_params_format(&q, ps, sizeof ps);
    FX_ASSERT(cldnn_gemm_mma_params_fit(&q, dev, p->dtype, pl.a_trans, pl.b_trans),
              "%s on %s: parameters %s do not fit", p->key, dev->name, ps);
    const int run16 = (int)(16 / cldnn_dtype_size(p->dtype)); /* elements of a 16-byte copy */
    FX_ASSERT(pl.avw == (nhwc ? run16 : 1), "%s: A copies of %d elements", p->key, pl.avw);
    size_t ws = cldnn_conv_igemm_mma_workspace(p, NULL);
    if (p->dir == CLDNN_CONV_BWD_FILTER) {
        size_t want = q.splitk > 1 ? (size_t)q.splitk * (size_t)p->k * (size_t)p->cg * (size_t)p->r * (size_t)p->s * 4u
                                   : 0;
        FX_ASSERT(q.splitk >= 1 && q.splitk <= 64 && ws == want, "%s on %s: %d splits, workspace %zu, want %zu",
                  p->key, dev->name, q.splitk, ws, want);
        return;
    }
    FX_ASSERT(ws == 0 && q.splitk == 1, "%s: workspace %zu, %d splits", p->key, ws, q.splitk);
    /* no split: HALF's blocks fill the compute units, or the tile is the smallest */
    const uint64_t blocks = (uint64_t)((pl.m + q.bm - 1) / q.bm) * (uint64_t)((pl.n + q.bn - 1) / q.bn);
    FX_ASSERT(p->dtype != CLDNN_DATA_HALF || blocks >= dev->compute_units ||
                  (q.bm == 64 && q.bn == 64 && q.wm == 32 && q.wn == 32),
              "%s on %s: %llu blocks of %s for %u compute units", p->key, dev->name, (unsigned long long)blocks, ps,
              (unsigned)dev->compute_units);
    FX_ASSERT(pl.cpad % q.bk == 0 && pl.cpad >= pl.ch && (pl.cpad - pl.ch) * 2 <= pl.cpad,
              "%s: channel run %d padded to %d with k-tile %d", p->key, pl.ch, pl.cpad, q.bk);
}

Test(conv_mma, defaults) {
    for (int h = 0; h < 2; ++h) {
        size_t n = each_net_problem(check_defaults, h ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT);
        FX_ASSERT(n >= 3 * 3 * 2 * 20, "only %zu %s problems took the solver", n, h ? "HALF" : "FLOAT");
    }
}

/* The tuners' space (cldnn-tune conv -S igemm_mma, TUNE mode): for every ResNet-50 / VGG-16 layer
** the solver takes, FLOAT and HALF, both layouts, every direction, on cc 9.0, 8.0 and 8.6
** profiles, at least one candidate, each one the run accepts (cldnn_conv_igemm_mma_params_fit), a
** set of the GEMM's declared space of the data type for the plan's transposes (HALF: k-tiles 32
** and 64, copies of 8 halves; FLOAT: 16 and 32, copies of 4 floats), with the problem's split
** count; the defaults pass the same check. */
static void check_space(const cldnn_conv_problem* p, const cldnn_device_profile* dev, int nhwc) {
    (void)nhwc;
    static cldnn_gemm_mma_params space[1024], gspace[1024];
    cldnn_gemm_mma_params def;
    cldnn_conv_igemm_mma_defaults(p, dev, &def);
    FX_ASSERT(cldnn_conv_igemm_mma_params_fit(p, &def, dev), "%s on %s: the defaults do not fit", p->key, dev->name);
    size_t n = cldnn_conv_igemm_mma_param_space(p, dev, space, 1024);
    FX_ASSERT(n >= 1 && n <= 1024, "%s on %s: %zu candidates", p->key, dev->name, n);
    cldnn_conv_mma_plan pl;
    cldnn_conv_igemm_mma_plan(p, 32, &pl);
    size_t ng = cldnn_gemm_mma_param_space(dev, p->dtype, pl.a_trans, pl.b_trans, gspace, 1024);
    const int half = p->dtype == CLDNN_DATA_HALF;
    FX_ASSERT(ng <= 1024 && n <= ng, "%s: %zu candidates of a GEMM space of %zu", p->key, n, ng);
    for (size_t c = 0; c < n; ++c) {
        char ps[96];
        cldnn_gemm_mma_params_format(&space[c], ps, sizeof ps);
        FX_ASSERT(cldnn_conv_igemm_mma_params_fit(p, &space[c], dev), "%s on %s: candidate %s does not fit", p->key,
                  dev->name, ps);
        FX_ASSERT(space[c].splitk == cldnn_conv_igemm_mma_splits(p, &space[c]) &&
                      (p->dir == CLDNN_CONV_BWD_FILTER || space[c].splitk == 1),
                  "%s: candidate %s splits %d ways", p->key, ps, space[c].splitk);
        int in_gemm = 0;
        for (size_t g = 0; g < ng && !in_gemm; ++g)
            in_gemm = gspace[g].bm == space[c].bm && gspace[g].bn == space[c].bn && gspace[g].bk == space[c].bk &&
                      gspace[g].wm == space[c].wm && gspace[g].wn == space[c].wn &&
                      gspace[g].stages == space[c].stages;
        FX_ASSERT(in_gemm, "%s: candidate %s is not in the GEMM's declared space", p->key, ps);
        FX_ASSERT(space[c].vw == (half ? 8 : 4) && (space[c].bk == (half ? 64 : 16) || space[c].bk == 32),
                  "%s: candidate %s is not a %s set", p->key, ps, cldnn_dtype_name(p->dtype));
    }
}

Test(conv_mma, tuning_space) {
    for (int h = 0; h < 2; ++h) {
        size_t n = each_net_problem(check_space, h ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT);
        FX_ASSERT(n >= 3 * 3 * 2 * 20, "only %zu %s problems took the solver", n, h ? "HALF" : "FLOAT");
    }
}

/* A tuning record of the tensor-core implicit GEMM (solver conv_bwd_filter_igemm_mma, the
** problem's key; FLOAT and HALF problems) round-trips through the tuning db on the handle turned
** into an H100 (nothing runs): backward-filter's workspace query and Get_v7 follow the record's
** split count, HEURISTIC and a record that is not a valid set keep the defaults', and
** CLDNN_SOLVER_PARAMS's set for the solver wins over the record. */
Test(conv_mma, tuning_record) {
    unsetenv("CLDNN_SOLVER_PARAMS");
    cldnnHandle_t h = fx_handle();
    const cldnn_device_profile nv = wb_nv_profile(9, 0);
    memcpy(h->prof.name, nv.name, sizeof nv.name);
    h->prof.is_nvidia = 1;
    h->prof.is_cpu = 0;
    h->prof.nv_cc_major = 9;
    h->prof.nv_cc_minor = 0;
    h->prof.compute_units = nv.compute_units;
    char dir[64] = "/tmp/cldnn-convmma-XXXXXX";
    FX_ASSERT(mkdtemp(dir) != NULL, "mkdtemp failed");
    FX_OK(cldnnSetDatabasePath(h, dir));
    for (int hf = 0; hf < 2; ++hf) { /* FLOAT, then HALF: records under each problem's own key */
        const shape l = {8, 32, 32, 32, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 1};
        descs d;
        descs_make(&d, &l, hf ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT, CLDNN_TENSOR_OP_MATH);
        cldnn_conv_problem p;
        problem(&d, CLDNN_CONV_BWD_FILTER, &h->prof, &p);
        FX_ASSERT(cldnn_conv_igemm_mma_applicable(&p, &h->prof), "%s: the solver does not apply", p.key);
        cldnn_gemm_mma_params def;
        cldnn_conv_igemm_mma_defaults(&p, &h->prof, &def);
        const size_t ws_def = cldnn_conv_partials_bytes(&p, def.splitk);
        static cldnn_gemm_mma_params space[1024];
        size_t n = cldnn_conv_igemm_mma_param_space(&p, &h->prof, space, 1024), pick = n;
        for (size_t i = 0; i < n && pick == n; ++i)
            if (cldnn_conv_partials_bytes(&p, space[i].splitk) != ws_def)
                pick = i;
        FX_ASSERT(pick < n, "%s: no candidate splits otherwise than the defaults (%d ways)", p.key, def.splitk);
        const size_t ws_rec = cldnn_conv_partials_bytes(&p, space[pick].splitk);
        char rec[96], def_s[96];
        cldnn_gemm_mma_params_format(&space[pick], rec, sizeof rec);
        cldnn_gemm_mma_params_format(&def, def_s, sizeof def_s);
        const char* solver = cldnn_conv_igemm_mma_solver_name(CLDNN_CONV_BWD_FILTER);
        FX_ASSERT(strcmp(solver, "conv_bwd_filter_igemm_mma") == 0, "solver name %s", solver);

        const struct {
            const char* record; /* NULL: none */
            cldnnFindMode_t mode;
            const char* env;
            size_t want;
        } cases[] = {{NULL, CLDNN_FIND_MODE_DB_OR_HEURISTIC, NULL, ws_def},
                     {rec, CLDNN_FIND_MODE_DB_OR_HEURISTIC, NULL, ws_rec},
                     {rec, CLDNN_FIND_MODE_BENCHMARK, NULL, ws_rec},
                     {rec, CLDNN_FIND_MODE_HEURISTIC, NULL, ws_def},
                     {rec, CLDNN_FIND_MODE_DB_OR_HEURISTIC, def_s, ws_def},
                     {"128x128x32-48x64-s3-v4-k0", CLDNN_FIND_MODE_DB_OR_HEURISTIC, NULL, ws_def}};
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            if (cases[c].record) {
                cldnn_tunedb_put(h, p.key, solver, cases[c].record);
                cldnn_db_reset(); /* read back from the file, as another process would */
            }
            if (cases[c].env) {
                char env[160];
                snprintf(env, sizeof env, "%s:%s", solver, cases[c].env);
                setenv("CLDNN_SOLVER_PARAMS", env, 1);
            }
            FX_OK(cldnnSetFindMode(h, cases[c].mode));
            size_t ws = 1;
            FX_OK(cldnnGetConvolutionBackwardFilterWorkspaceSize(h, d.x, d.y, d.c, d.w,
                                                                 CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1, &ws));
            cldnnConvolutionBwdFilterAlgoPerf_t wp[CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
            int nw = 0;
            FX_OK(cldnnGetConvolutionBackwardFilterAlgorithm_v7(h, d.x, d.y, d.c, d.w,
                                                                 CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &nw, wp));
            size_t got_v7 = 0;
            for (int i = 0; i < nw; ++i)
                if (wp[i].algo == CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1 && wp[i].mathType == CLDNN_TENSOR_OP_MATH)
                    got_v7 = wp[i].memory;
            FX_ASSERT(ws == cases[c].want && got_v7 == cases[c].want,
                      "%s case %zu (record %s, mode %d, env %s): workspace %zu, Get_v7 %zu, want %zu (defaults %s: "
                      "%zu, record %s: %zu)",
                      hf ? "HALF" : "FLOAT", c, cases[c].record ? cases[c].record : "none", (int)cases[c].mode,
                      cases[c].env ? cases[c].env : "-", ws, got_v7, cases[c].want, def_s, ws_def, rec, ws_rec);
            unsetenv("CLDNN_SOLVER_PARAMS");
        }
        descs_free(&d);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    FX_ASSERT(system(cmd) == 0, "could not remove %s", dir);
}

/* ------------------------------------------------------ the kernel's maps, emulated on the host */

/* OpenCL C's types and built-ins the maps use, for the host. */
typedef uint32_t uint;
typedef struct {
    int s0, s1, s2, s3;
} emu_int4;
typedef struct {
    uint32_t x, y, z, w;
} emu_uint4;
#define uint4 emu_uint4
static inline uint mul_hi(uint a, uint b) {
    return (uint)(((uint64_t)a * b) >> 32);
}
static inline int min(int a, int b) {
    return a < b ? a : b;
}
static inline int max(int a, int b) {
    return a > b ? a : b;
}
static inline int clamp(int v, int lo, int hi) {
    return v < lo ? lo : v > hi ? hi : v;
}
static size_t e_gid[3];
static size_t get_group_id(int d) {
    return e_gid[d];
}

/* The build options, as variables of the emulation; e_es is the element size of the data type
** (MMA_ES: 4 FLOAT, 2 HALF). The emulated tensors and tiles hold floats whatever the type: the
** maps count elements, and only the copies' bytes, alignment and the tiles' row padding depend on
** the element size. */
static int e_dir, e_kord, e_a_trans, e_b_trans, e_avw, e_bvw, e_bm, e_bn, e_bk, e_nt, e_es;
#define DIR e_dir
#define KORD e_kord
#define A_TRANS e_a_trans
#define B_TRANS e_b_trans
#define CONV_AVW e_avw
#define CONV_BVW e_bvw
#define MMA_BM e_bm
#define MMA_BN e_bn
#define MMA_BK e_bk
#define MMA_NT e_nt
#define MMA_ES e_es
#define MMA_ET float
#define MMA_UNROLL
#define __global
/* gemm_mma.cl's local layouts: m- (n-) contiguous rows of BM (BN) elements plus 16 bytes, or
** k-contiguous rows of BK + 8. */
#define AS(m, k) (e_a_trans ? (m) * (e_bk + 8) + (k) : (k) * (e_bm + 16 / e_es) + (m))
#define BS(n, k) (e_b_trans ? (k) * (e_bn + 16 / e_es) + (n) : (n) * (e_bk + 8) + (k))
#define A_TILE_FLOATS (e_a_trans ? e_bm * (e_bk + 8) : e_bk * (e_bm + 16 / e_es))
#define B_TILE_FLOATS (e_b_trans ? e_bk * (e_bn + 16 / e_es) : e_bn * (e_bk + 8))

#define inline static inline
#include "common/helpers.h"
#include "conv/conv_igemm_mma.h"
#undef inline

/* What the emulated cp.async checks: the tiles it may write and the buffers it may read. */
static struct {
    float *a, *b;          /* the tiles */
    int na, nb;            /* their floats */
    unsigned char *ha, *hb; /* writes per element this stage */
    const float* buf[3];   /* x, w, y */
    size_t len[3];
    int bad;
    char msg[512];
} e_rec;

static void emu_fail(const char* fmt, long long a, long long b) {
    if (e_rec.bad++)
        return;
    snprintf(e_rec.msg, sizeof e_rec.msg, fmt, a, b);
}

/* gemm_mma.cl's mma_copy_vw: vw elements of e_es bytes, the first `bytes` read from src, the
** rest zero. Checked: a width the kernel copies (16 bytes, or one element: a 4-byte cp.async or a
** plain 2-byte copy), whole elements read, the destination inside a tile and the source inside a
** tensor (an element of one even when nothing is read), both aligned to the copy's size. */
static void mma_copy_vw(float* dst, const float* src, int bytes, int vw) {
    float* tile = dst >= e_rec.a && dst < e_rec.a + e_rec.na ? e_rec.a : e_rec.b;
    unsigned char* hits = tile == e_rec.a ? e_rec.ha : e_rec.hb;
    int n = tile == e_rec.a ? e_rec.na : e_rec.nb;
    long long at = dst - tile;
    if (vw != 1 && vw * e_es != 16) {
        emu_fail("a copy of %lld elements of %lld bytes", vw, e_es);
        return;
    }
    if (at < 0 || at + vw > n) {
        emu_fail("a copy writes outside the local tiles (element %lld of %lld)", at, n);
        return;
    }
    if (at % vw) {
        emu_fail("a 16-byte copy to local element %lld of %lld (not 16-byte aligned)", at, n);
        return;
    }
    if (bytes < 0 || bytes > e_es * vw || bytes % e_es) {
        emu_fail("a copy of %lld bytes with width %lld", bytes, vw);
        return;
    }
    const int got = bytes / e_es; /* elements read */
    /* src must be readable even for 0 bytes: a single half is loaded unconditionally */
    int which = -1;
    for (int i = 0; i < 3; ++i)
        if (src >= e_rec.buf[i] && src + (got > 0 ? got : 1) <= e_rec.buf[i] + e_rec.len[i])
            which = i;
    if (which < 0) {
        emu_fail("a copy of %lld bytes reads outside every tensor (tile element %lld)", bytes, at);
        return;
    }
    if (got > 0 && (src - e_rec.buf[which]) % vw) {
        emu_fail("a 16-byte copy from element %lld of tensor %lld (not 16-byte aligned)",
                 (long long)(src - e_rec.buf[which]), which);
        return;
    }
    for (int j = 0; j < vw; ++j) {
        dst[j] = j < got ? src[j] : 0.0f;
        hits[at + j]++;
    }
}

/* The kernel's arguments, under the names the maps read. */
typedef struct {
    int M, N, KR;
    float alpha, beta;
    float *X, *Wt, *Y, *Part;
    uint64_t x_off, w_off, y_off, part_off;
    int H, Wd, P, Q, R, S, Cg, Kg, pad_h, pad_w, su, sv, dil_h, dil_w, flip;
    emu_int4 xs, ys;
    emu_uint4 dv_plane, dv_row, dv_tap, dv_s, dv_u, dv_v;
    int groups, ksplit, nsplit;
} emu_args;

#define EMU_ARGS(a)                                                                                 \
    const int M = (a)->M, N = (a)->N, KR = (a)->KR, H = (a)->H, Wd = (a)->Wd, P = (a)->P, Q = (a)->Q; \
    const int R = (a)->R, S = (a)->S, Cg = (a)->Cg, Kg = (a)->Kg, pad_h = (a)->pad_h, pad_w = (a)->pad_w; \
    const int su = (a)->su, sv = (a)->sv, dil_h = (a)->dil_h, dil_w = (a)->dil_w, flip = (a)->flip;  \
    const int groups = (a)->groups, ksplit = (a)->ksplit, nsplit = (a)->nsplit;                     \
    const float alpha = (a)->alpha, beta = (a)->beta;                                               \
    float *X = (a)->X, *Wt = (a)->Wt, *Y = (a)->Y, *Part = (a)->Part;                               \
    const uint64_t x_off = (a)->x_off, w_off = (a)->w_off, y_off = (a)->y_off, part_off = (a)->part_off; \
    const emu_int4 xs = (a)->xs, ys = (a)->ys;                                                      \
    const emu_uint4 dv_plane = (a)->dv_plane, dv_row = (a)->dv_row, dv_tap = (a)->dv_tap;           \
    const emu_uint4 dv_s = (a)->dv_s, dv_u = (a)->dv_u, dv_v = (a)->dv_v;                           \
    (void)M, (void)N, (void)KR, (void)H, (void)Wd, (void)P, (void)Q, (void)alpha, (void)beta, (void)dv_u, \
        (void)dv_v, (void)su, (void)sv, (void)pad_h, (void)pad_w, (void)nsplit

/* Work-item tid's copy stage for the k-tile at k0 of the block the group ids name. */
static void emu_copy(const emu_args* a, int tid, int k0, float* as, float* bs) {
    EMU_ARGS(a);
    MMA_BLOCK_SETUP();
    (void)split, (void)ke, (void)m0, (void)a_h0, (void)b_tb;
    MMA_COPY_STAGE(as, bs, k0);
}

/* The kernel's store of C(m, n) = sum in the block the group ids name. */
static void emu_store(const emu_args* a, float sum, int m, int n) {
    EMU_ARGS(a);
    const int tid = 0;
    MMA_BLOCK_SETUP();
    (void)split, (void)ke, (void)kb, (void)n0, (void)Bp, (void)a_pb, (void)a_h0, (void)a_w0, (void)dv_s, (void)dv_tap;
    (void)b_tb, (void)b_rd, (void)b_sd;
    (void)flip, (void)dil_h, (void)dil_w;
    MMA_STORE(sum, m, n);
}

static emu_uint4 fastdiv(uint32_t d) {
    cl_uint4 v = cldnn_fastdiv(d);
    emu_uint4 e = {v.s[0], v.s[1], v.s[2], v.s[3]};
    return e;
}

/* Runs p's kernel on the host with parameters q: every block, every k-tile, every work-item.
** x, w, y are whole buffers (p's element offsets inside), lengths nx, nw, ny; backward-filter
** runs nsplit splits whose partial sums go to part (then added here as gemm_splitk_reduce does).
** Returns the number of failed checks (the first described in e_rec.msg). */
static int emulate(const cldnn_conv_problem* p, const cldnn_gemm_mma_params* q, float* x, size_t nx, float* w,
                   size_t nw, float* y, size_t ny, int nsplit, float* part) {
    cldnn_conv_mma_plan pl;
    cldnn_conv_igemm_mma_plan(p, q->bk, &pl);
    e_dir = (int)p->dir;
    e_kord = p->kord;
    e_a_trans = pl.a_trans;
    e_b_trans = pl.b_trans;
    e_avw = pl.avw;
    e_bvw = pl.bvw;
    e_bm = q->bm;
    e_bn = q->bn;
    e_bk = q->bk;
    e_nt = 32 * (q->bm / q->wm) * (q->bn / q->wn);
    e_es = (int)cldnn_dtype_size(p->dtype);
    emu_args a;
    memset(&a, 0, sizeof a);
    a.M = (int)pl.m;
    a.N = (int)pl.n;
    a.KR = (int)pl.kr;
    a.alpha = p->alpha;
    a.beta = p->beta;
    a.X = x;
    a.Wt = w;
    a.Y = y;
    a.x_off = p->off_x;
    a.w_off = p->off_w;
    a.y_off = p->off_y;
    a.H = p->h;
    a.Wd = p->w;
    a.P = p->p;
    a.Q = p->q;
    a.R = p->r;
    a.S = p->s;
    a.Cg = p->cg;
    a.Kg = p->kg;
    a.pad_h = p->pad_h;
    a.pad_w = p->pad_w;
    a.su = p->u;
    a.sv = p->v;
    a.dil_h = p->dil_h;
    a.dil_w = p->dil_w;
    a.flip = p->flip;
    emu_int4 xs = {(int)p->xs[0], (int)p->xs[1], (int)p->xs[2], (int)p->xs[3]};
    emu_int4 ys = {(int)p->ys[0], (int)p->ys[1], (int)p->ys[2], (int)p->ys[3]};
    a.xs = xs;
    a.ys = ys;
    const int bwd_data = p->dir == CLDNN_CONV_BWD_DATA, bwf = p->dir == CLDNN_CONV_BWD_FILTER;
    a.dv_plane = fastdiv((uint32_t)(bwd_data ? p->h * p->w : p->p * p->q));
    a.dv_row = fastdiv((uint32_t)(bwd_data ? p->w : p->q));
    a.dv_tap = fastdiv((uint32_t)(!bwf ? pl.cpad : p->kord == 0 ? p->r * p->s : p->cg));
    a.dv_s = fastdiv((uint32_t)p->s);
    a.dv_u = fastdiv((uint32_t)p->u);
    a.dv_v = fastdiv((uint32_t)p->v);
    a.groups = p->groups;
    int64_t ks = (pl.kr + nsplit - 1) / nsplit;
    a.ksplit = (int)((ks + q->bk - 1) / q->bk * q->bk);
    a.nsplit = nsplit;
    a.Part = part;

    memset(&e_rec, 0, sizeof e_rec);
    e_rec.na = A_TILE_FLOATS;
    e_rec.nb = B_TILE_FLOATS;
    e_rec.a = calloc((size_t)e_rec.na, sizeof(float));
    e_rec.b = calloc((size_t)e_rec.nb, sizeof(float));
    e_rec.ha = calloc((size_t)e_rec.na, 1);
    e_rec.hb = calloc((size_t)e_rec.nb, 1);
    double* acc = calloc((size_t)q->bm * (size_t)q->bn, sizeof(double));
    e_rec.buf[0] = x;
    e_rec.len[0] = nx;
    e_rec.buf[1] = w;
    e_rec.len[1] = nw;
    e_rec.buf[2] = y;
    e_rec.len[2] = ny;
    /* the activations are read, the output is written: x is dx for backward-data */
    const int gx = (int)((pl.m + q->bm - 1) / q->bm), gy = (int)((pl.n + q->bn - 1) / q->bn);
    for (int gz = 0; gz < p->groups * nsplit && !e_rec.bad; ++gz)
        for (int by = 0; by < gy && !e_rec.bad; ++by)
            for (int bx = 0; bx < gx && !e_rec.bad; ++bx) {
                e_gid[0] = (size_t)bx;
                e_gid[1] = (size_t)by;
                e_gid[2] = (size_t)gz;
                memset(acc, 0, (size_t)q->bm * (size_t)q->bn * sizeof(double));
                const int kb = gz / p->groups * a.ksplit;
                const int ke = kb + (int)(pl.kr - kb < a.ksplit ? pl.kr - kb : a.ksplit);
                for (int k0 = kb; k0 < ke && !e_rec.bad; k0 += q->bk) {
                    memset(e_rec.ha, 0, (size_t)e_rec.na);
                    memset(e_rec.hb, 0, (size_t)e_rec.nb);
                    for (int t = 0; t < e_nt; ++t)
                        emu_copy(&a, t, k0, e_rec.a, e_rec.b);
                    long long wa = 0, wb = 0;
                    for (int i = 0; i < e_rec.na; ++i)
                        wa += e_rec.ha[i];
                    for (int i = 0; i < e_rec.nb; ++i)
                        wb += e_rec.hb[i];
                    if (wa != (long long)q->bm * q->bk || wb != (long long)q->bn * q->bk)
                        emu_fail("a stage writes %lld A and %lld B elements (one per tile element expected)", wa,
                                 wb);
                    for (int m = 0; m < q->bm && !e_rec.bad; ++m)
                        for (int k = 0; k < q->bk; ++k)
                            if (e_rec.ha[AS(m, k)] != 1)
                                emu_fail("A tile element (%lld, %lld) written other than once", m, k);
                    for (int n = 0; n < q->bn && !e_rec.bad; ++n)
                        for (int k = 0; k < q->bk; ++k)
                            if (e_rec.hb[BS(n, k)] != 1)
                                emu_fail("B tile element (%lld, %lld) written other than once", n, k);
                    for (int m = 0; m < q->bm; ++m)
                        for (int n = 0; n < q->bn; ++n) {
                            double s = 0.0;
                            for (int k = 0; k < q->bk; ++k)
                                s += (double)e_rec.a[AS(m, k)] * (double)e_rec.b[BS(n, k)];
                            acc[(size_t)m * (size_t)q->bn + (size_t)n] += s;
                        }
                }
                for (int m = 0; m < q->bm && !e_rec.bad; ++m)
                    for (int n = 0; n < q->bn; ++n) {
                        int gm = bx * q->bm + m, gn = by * q->bn + n;
                        if (gm < pl.m && gn < pl.n)
                            emu_store(&a, (float)acc[(size_t)m * (size_t)q->bn + (size_t)n], gm, gn);
                    }
            }
    const int64_t total = (int64_t)p->k * p->cg * p->r * p->s;
    for (int64_t i = 0; nsplit > 1 && i < total; ++i) { /* gemm_splitk_reduce */
        double sum = 0.0;
        for (int sp = 0; sp < nsplit; ++sp)
            sum += (double)part[(size_t)sp * (size_t)total + (size_t)i];
        float* o = w + p->off_w + i;
        *o = (float)((double)p->alpha * sum + (p->beta != 0.0f ? (double)p->beta * (double)*o : 0.0));
    }
    free(e_rec.a);
    free(e_rec.b);
    free(e_rec.ha);
    free(e_rec.hb);
    free(acc);
    return e_rec.bad;
}

/* Index of x(n, c, h, w) etc. in a buffer laid out by p's strides (element offsets excluded). */
static int64_t at4(const int64_t* st, int64_t a, int64_t b, int64_t c, int64_t d) {
    return a * st[0] + b * st[1] + c * st[2] + d * st[3];
}

typedef struct {
    shape s;
    int off_x, off_w, off_y;
    float alpha, beta;
} map_case;

/* One case in one direction and data type (the copies' widths and the tiles' padding) over
** several tile shapes: the emulated kernel's output against the double reference. Returns which
** operands took 16-byte copies (bit 0: A, bit 1: B). */
static int check_maps(const map_case* c, cldnn_conv_dir dir, cldnnDataType_t dt) {
    static const cldnn_gemm_mma_params sets[] = {
        {64, 64, 16, 32, 32, 3, 4, 1},  {128, 128, 32, 64, 64, 3, 4, 1}, {128, 64, 16, 64, 32, 3, 4, 1},
        {64, 128, 32, 32, 64, 2, 4, 1}, {256, 128, 32, 64, 64, 3, 4, 1}, {32, 32, 16, 32, 32, 2, 4, 1},
        /* one warp for a tile row longer than 32: chunks of a work-item on several rows */
        {32, 64, 16, 32, 64, 2, 4, 1},  {64, 32, 16, 64, 32, 2, 4, 1},
        /* HALF's deepest k-tile */
        {64, 64, 64, 32, 32, 3, 8, 1},  {128, 64, 64, 64, 32, 2, 8, 1},
    };
    descs d;
    descs_make(&d, &c->s, dt, CLDNN_TENSOR_OP_MATH);
    cldnn_device_profile dev = wb_nv_profile(9, 0);
    cldnn_conv_problem p;
    problem(&d, dir, &dev, &p);
    p.off_x = (uint64_t)c->off_x;
    p.off_w = (uint64_t)c->off_w;
    p.off_y = (uint64_t)c->off_y;
    p.alpha = c->alpha;
    p.beta = c->beta;
    FX_ASSERT(cldnn_conv_igemm_mma_applicable(&p, &dev), "%s: not offered", p.key);
    cldnn_conv_mma_plan pl;
    cldnn_conv_igemm_mma_plan(&p, 32, &pl);
    const int wide = (pl.avw > 1) | (pl.bvw > 1) << 1;
    ref_conv rc;
    FX_ASSERT(ref_conv_init(&rc, c->s.n, c->s.c, c->s.h, c->s.w, c->s.k, c->s.r, c->s.s, c->s.ph, c->s.pw, c->s.u,
                            c->s.v, c->s.dh, c->s.dw, c->s.g, c->s.flip, c->s.nhwc) == 0,
              "reference shape");
    for (int i = 0; i < 4; ++i)
        FX_ASSERT(rc.xs[i] == p.xs[i] && rc.ys[i] == p.ys[i], "strides of the reference and the problem differ");
    size_t nx = (size_t)c->off_x + (size_t)ref_conv_x_span(&rc), nw = (size_t)c->off_w + (size_t)ref_conv_w_span(&rc);
    size_t ny = (size_t)c->off_y + (size_t)ref_conv_y_span(&rc);
    float* bufs[3] = {malloc(nx * sizeof(float)), malloc(nw * sizeof(float)), malloc(ny * sizeof(float))};
    const size_t lens[3] = {nx, nw, ny}, offs[3] = {(size_t)c->off_x, (size_t)c->off_w, (size_t)c->off_y};
    float *x = bufs[0], *w = bufs[1], *y = bufs[2];
    const int o = dir == CLDNN_CONV_FWD ? 2 : dir == CLDNN_CONV_BWD_DATA ? 0 : 1; /* the output */
    float* out = bufs[o];
    const size_t nout = lens[o], oo = offs[o];
    float* out0 = malloc(nout * sizeof(float));
    const size_t total = (size_t)c->s.k * (size_t)(c->s.c / c->s.g) * (size_t)c->s.r * (size_t)c->s.s;
    float* part = malloc(3 * total * sizeof(float));
    ref_rng* rng = fx_rng();
    /* the output's dims and strides (y, dx, or dw with C/G channels) */
    const int64_t* os = o == 2 ? rc.ys : o == 0 ? rc.xs : rc.ws;
    const int64_t od[4] = {o == 1 ? rc.k : rc.n, o == 2 ? rc.k : o == 0 ? rc.c : rc.c / rc.groups,
                           o == 2 ? rc.p : o == 0 ? rc.h : rc.r, o == 2 ? rc.q : o == 0 ? rc.w : rc.s};
    for (size_t si = 0; si < sizeof sets / sizeof sets[0]; ++si)
        for (int nsplit = 1; nsplit <= (dir == CLDNN_CONV_BWD_FILTER ? 3 : 1); nsplit += 2) {
            const cldnn_gemm_mma_params* q = &sets[si];
            if (q->bk > 32 && dt != CLDNN_DATA_HALF)
                continue;
            for (int b = 0; b < 3; ++b) {
                ref_fill_nan(bufs[b], lens[b]);
                if (b != o || c->beta != 0.0f)
                    ref_fill_uniform(rng, bufs[b] + offs[b], lens[b] - offs[b], -1.0, 1.0);
            }
            memcpy(out0, out, nout * sizeof(float));
            char ps[96];
            cldnn_gemm_mma_params_format(q, ps, sizeof ps);
            int bad = emulate(&p, q, x, nx, w, nw, y, ny, nsplit, part);
            FX_ASSERT(bad == 0, "%s, parameters %s, %d splits: %s", p.key, ps, nsplit, e_rec.msg);
            for (size_t i = 0; i < oo; ++i)
                FX_ASSERT(isnan(out[i]), "%s, %s: element %zu before the output's offset was written", p.key, ps, i);
            for (int64_t i0 = 0; i0 < od[0]; ++i0)
                for (int64_t i1 = 0; i1 < od[1]; ++i1)
                    for (int64_t i2 = 0; i2 < od[2]; ++i2)
                        for (int64_t i3 = 0; i3 < od[3]; ++i3) {
                            double mag;
                            double ref =
                                o == 2   ? ref_conv_fwd_at(&rc, x + c->off_x, w + c->off_w, i0, i1, i2, i3, &mag)
                                : o == 0 ? ref_conv_bwd_data_at(&rc, w + c->off_w, y + c->off_y, i0, i1, i2, i3, &mag)
                                         : ref_conv_bwd_filter_at(&rc, x + c->off_x, y + c->off_y, i0, i1, i2, i3,
                                                                  &mag);
                            size_t at = oo + (size_t)at4(os, i0, i1, i2, i3);
                            double prior = c->beta != 0.0f ? (double)out0[at] : 0.0;
                            double want = (double)c->alpha * ref + (double)c->beta * prior;
                            double tol = 1e-6 * (fabs((double)c->alpha) * mag + fabs((double)c->beta * prior)) + 1e-9;
                            FX_ASSERT(fabs((double)out[at] - want) <= tol,
                                      "%s, parameters %s, %d splits: (%lld, %lld, %lld, %lld) = %.9g, want %.9g "
                                      "(tolerance %.3g)",
                                      p.key, ps, nsplit, (long long)i0, (long long)i1, (long long)i2, (long long)i3,
                                      (double)out[at], want, tol);
                        }
        }
    for (int b = 0; b < 3; ++b)
        free(bufs[b]);
    free(out0);
    free(part);
    descs_free(&d);
    return wide;
}

/* n c h w k r s ph pw u v dh dw g flip nhwc; element offsets x w y; alpha beta. Channel counts
** divisible by 4 with aligned offsets take the 16-byte copies (NHWC activations, KRSC filters). */
static const map_case k_map_cases[] = {
    {{2, 16, 9, 7, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 0}, 3, 1, 2, 1.0f, 0.0f},
    {{2, 32, 7, 9, 20, 3, 3, 1, 1, 2, 2, 1, 1, 1, 1, 1}, 4, 8, 12, 0.5f, 0.25f},
    {{1, 20, 10, 9, 16, 3, 3, 2, 2, 1, 1, 2, 2, 2, 0, 1}, 1, 2, 3, 2.0f, -1.0f},
    {{1, 24, 11, 8, 24, 5, 3, 0, 1, 2, 1, 1, 1, 3, 1, 1}, 8, 4, 0, 1.0f, 0.0f},
    {{2, 8, 9, 9, 16, 1, 1, 0, 0, 2, 2, 1, 1, 1, 0, 0}, 0, 0, 0, 0.5f, 0.25f},
    {{1, 40, 12, 12, 72, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 1}, 4, 4, 4, 1.0f, 0.0f},
    {{1, 40, 12, 12, 72, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 1}, 2, 1, 3, 1.0f, 0.5f},
    {{2, 20, 6, 13, 12, 4, 2, 3, 0, 3, 2, 1, 2, 1, 1, 0}, 5, 7, 9, 2.0f, -1.0f},
};

/* HALF's 16-byte copies take runs of 8 halves: channel counts and offsets multiples of 8 (every
** operand, or some: x, w, dy aligned or not in turn), besides the cases above (single halves). */
static const map_case k_map_cases_half[] = {
    {{2, 32, 7, 9, 24, 3, 3, 1, 1, 2, 2, 1, 1, 1, 1, 1}, 8, 16, 24, 0.5f, 0.25f},
    {{1, 48, 10, 9, 16, 3, 3, 2, 2, 1, 1, 2, 2, 2, 0, 1}, 0, 8, 8, 2.0f, -1.0f},
    {{1, 40, 12, 12, 72, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 1}, 8, 4, 16, 1.0f, 0.0f},
    {{1, 24, 11, 8, 24, 5, 3, 0, 1, 2, 1, 1, 1, 3, 1, 1}, 3, 8, 0, 1.0f, 0.5f},
    {{2, 16, 9, 9, 32, 1, 1, 0, 0, 2, 2, 1, 1, 1, 0, 1}, 16, 0, 5, 0.5f, 0.0f},
};

/* Every case of the data type in direction dir; both operands must have taken 16-byte copies in
** some case, and single elements in another. */
static void maps_dir(cldnn_conv_dir dir, cldnnDataType_t dt) {
    int wide = 0, narrow = 0;
    for (size_t i = 0; i < sizeof k_map_cases / sizeof k_map_cases[0]; ++i) {
        const int w = check_maps(&k_map_cases[i], dir, dt);
        wide |= w;
        narrow |= ~w & 3;
    }
    for (size_t i = 0; dt == CLDNN_DATA_HALF && i < sizeof k_map_cases_half / sizeof k_map_cases_half[0]; ++i) {
        const int w = check_maps(&k_map_cases_half[i], dir, dt);
        wide |= w;
        narrow |= ~w & 3;
    }
    FX_ASSERT(wide == 3 && narrow == 3, "%s cases: 16-byte copies of A %d, B %d; single elements of A %d, B %d",
              cldnn_dtype_name(dt), wide & 1, wide >> 1, narrow & 1, narrow >> 1);
}

Test(conv_mma, maps_forward) { maps_dir(CLDNN_CONV_FWD, CLDNN_DATA_FLOAT); }
Test(conv_mma, maps_backward_data) { maps_dir(CLDNN_CONV_BWD_DATA, CLDNN_DATA_FLOAT); }
Test(conv_mma, maps_backward_filter) { maps_dir(CLDNN_CONV_BWD_FILTER, CLDNN_DATA_FLOAT); }
Test(conv_mma, maps_half_forward) { maps_dir(CLDNN_CONV_FWD, CLDNN_DATA_HALF); }
Test(conv_mma, maps_half_backward_data) { maps_dir(CLDNN_CONV_BWD_DATA, CLDNN_DATA_HALF); }
Test(conv_mma, maps_half_backward_filter) { maps_dir(CLDNN_CONV_BWD_FILTER, CLDNN_DATA_HALF); }

/* ---------------------------------------------------- on TF32 and FP16 tensor cores (NVIDIA) */

/* The whole buffer of t's host mirror as floats (halves widened), malloc'd. */
static float* host_buffer_floats(const fx_tensor* t) {
    float* f = malloc(t->nbuf * sizeof(float));
    FX_ASSERT(f != NULL, "out of host memory");
    for (size_t i = 0; i < t->nbuf; ++i) {
        if (t->dtype != CLDNN_DATA_FLOAT) {
            uint16_t hb;
            memcpy(&hb, t->host + 2 * i, 2);
            f[i] = t->dtype == CLDNN_DATA_HALF ? fx_half_to_float(hb) : fx_bf16_to_float(hb);
        } else {
            memcpy(&f[i], t->host + 4 * i, 4);
        }
    }
    return f;
}

#define HALF_REL (1.0 / 2048.0)     /* a half output's rounding: 0.5 ulp, relative (2^-11) */
#define HALF_ABS (1.0 / 33554432.0) /* ... and absolute near 0 (half the subnormal spacing, 2^-25) */
#define BF16_REL (1.0 / 256.0)      /* a bfloat16 output's rounding: 0.5 ulp, relative (2^-8) */

/* Case c in direction dir and data type dt through the public call with the implicit-GEMM
** algorithm under TENSOR_OP_MATH (which the tables give to the tensor-core solver where it
** applies; backward-filter with its exact workspace at a 64-byte offset), against the double
** reference of the inputs the device was given, with S = |alpha| mag + |beta prior|:
**   FLOAT (TF32): |got - want| <= 1e-6 + (1e-5 + 2^-10) S, the FP32 tolerance plus the TF32
**     rounding (2^-11 relative) of both inputs of every product;
**   HALF (FP16): the products are exact (half inputs), the FP32 sums truncate (at most one ulp,
**     2^-23, per m16n8k16 step, biased: (reduction / 16) 2^-23 <= 4e-5 for reductions up to
**     5000), so tol = 1e-6 + 4e-5 S, plus the output's one rounding to half:
**     2^-11 (|want| + tol) + 2^-25 (as test_gemm.c's tensor_cores_f16);
**   BFLOAT16 (BF16): the same with the output's rounding to bfloat16, 2^-8 (|want| + tol).
** The inputs must come back unchanged. */
static void check_mma(const map_case* c, cldnn_conv_dir dir, cldnnDataType_t dt) {
    cldnnHandle_t h = fx_handle();
    const shape* s = &c->s;
    const int half = dt != CLDNN_DATA_FLOAT; /* 16-bit: HALF or BFLOAT16 */
    const double out_rel = dt == CLDNN_DATA_HALF ? HALF_REL : BF16_REL;
    const size_t es = half ? 2 : 4;
    descs d;
    descs_make(&d, s, dt, CLDNN_TENSOR_OP_MATH);
    cldnn_conv_problem p;
    problem(&d, dir, &h->prof, &p);
    FX_ASSERT(cldnn_conv_igemm_mma_applicable(&p, &h->prof), "%s: the tensor-core solver is not offered", p.key);
    ref_conv rc;
    FX_ASSERT(ref_conv_init(&rc, s->n, s->c, s->h, s->w, s->k, s->r, s->s, s->ph, s->pw, s->u, s->v, s->dh, s->dw,
                            s->g, s->flip, s->nhwc) == 0,
              "reference shape");
    cldnnTensorFormat_t fmt = s->nhwc ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW;
    fx_tensor x, w, y;
    fx_tensor_4d(&x, fmt, dt, s->n, s->c, s->h, s->w, (size_t)c->off_x * es);
    fx_tensor_4d(&w, fmt, dt, s->k, s->c / s->g, s->r, s->s, (size_t)c->off_w * es);
    fx_tensor_4d(&y, fmt, dt, s->n, s->k, (int)rc.p, (int)rc.q, (size_t)c->off_y * es);
    const int fwd = dir == CLDNN_CONV_FWD, bwf = dir == CLDNN_CONV_BWD_FILTER;
    fx_tensor* out = fwd ? &y : bwf ? &w : &x;
    fx_tensor* ins[2] = {fwd ? &x : &y, fwd ? &w : bwf ? &x : &w};
    for (int i = 0; i < 2; ++i) {
        fx_tensor_poison_nan(ins[i]);
        fx_tensor_fill_uniform(ins[i], -1.0, 1.0);
        fx_tensor_upload(ins[i]);
    }
    fx_poison_out(out, c->beta);
    fx_tensor_upload(out);
    size_t wsz = 0;
    cl_mem ws = NULL;
    if (bwf) {
        FX_OK(cldnnGetConvolutionBackwardFilterWorkspaceSize(h, d.x, d.y, d.c, d.w, CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1,
                                                             &wsz));
        if (wsz > 0)
            ws = fx_buffer(wsz + 64);
    }
    if (fwd)
        FX_OK(cldnnConvolutionForward(h, &c->alpha, d.x, x.mem, x.offset, d.w, w.mem, w.offset, d.c,
                                      CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, NULL, 0, 0, &c->beta, d.y, y.mem,
                                      y.offset));
    else if (bwf)
        FX_OK(cldnnConvolutionBackwardFilter(h, &c->alpha, d.x, x.mem, x.offset, d.y, y.mem, y.offset, d.c,
                                             CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1, ws, ws ? 64 : 0, wsz, &c->beta,
                                             d.w, w.mem, w.offset));
    else
        FX_OK(cldnnConvolutionBackwardData(h, &c->alpha, d.w, w.mem, w.offset, d.y, y.mem, y.offset, d.c,
                                           CLDNN_CONVOLUTION_BWD_DATA_ALGO_1, NULL, 0, 0, &c->beta, d.x, x.mem,
                                           x.offset));
    fx_tensor_download(out);
    double* want = malloc((size_t)out->count * sizeof(double));
    double* scale = malloc((size_t)out->count * sizeof(double));
    float* bx = host_buffer_floats(&x);
    float* bw = host_buffer_floats(&w);
    float* by = host_buffer_floats(&y);
    const float *hx = bx + x.offset / es, *hw = bw + w.offset / es, *hy = by + y.offset / es;
    int64_t idx[4];
    for (int64_t i = 0; i < out->count; ++i) {
        fx_unravel(&out->view, i, idx);
        double mag = 0.0;
        double v = fwd   ? ref_conv_fwd_at(&rc, hx, hw, idx[0], idx[1], idx[2], idx[3], &mag)
                   : bwf ? ref_conv_bwd_filter_at(&rc, hx, hy, idx[0], idx[1], idx[2], idx[3], &mag)
                         : ref_conv_bwd_data_at(&rc, hw, hy, idx[0], idx[1], idx[2], idx[3], &mag);
        double prior = c->beta != 0.0f ? (double)c->beta * fx_tensor_host(out, i) : 0.0;
        want[i] = (double)c->alpha * v + prior;
        const double sc = fabs((double)c->alpha) * mag + fabs(prior);
        const double tol = half ? 1e-6 + 4e-5 * sc : 1e-6 + (1e-5 + 2.0 / 2048.0) * sc;
        scale[i] = half ? tol + out_rel * (fabs(want[i]) + tol) + HALF_ABS : tol;
    }
    char msg[512];
    double worst = 0.0;
    int64_t bad = fx_compare(out, want, scale, 0.0, 1.0, msg, sizeof msg, &worst);
    FX_ASSERT(bad == 0, "%s: %lld of %lld elements outside the %s tolerance; %s", p.key, (long long)bad,
              (long long)out->count, cldnn_dtype_name(dt), msg);
    FX_ASSERT(fx_tensor_gaps_changed(out) == 0, "%s: the output's buffer changed outside its view", p.key);
    fx_expect_untouched(ins[0], fwd ? "x" : "dy", p.key);
    fx_expect_untouched(ins[1], fwd || !bwf ? "w" : "x", p.key);
    if (ws)
        fx_release(ws);
    cr_log_info("%s: worst error / tolerance %.3g", p.key, worst);
    free(bx);
    free(bw);
    free(by);
    free(want);
    free(scale);
    fx_tensor_free(&x);
    fx_tensor_free(&w);
    fx_tensor_free(&y);
    descs_free(&d);
}

/* Beyond the map cases: several blocks in m and n (edges inside the last ones), and 16-byte
** copies at 64+ channels. */
static const map_case k_tf32_cases[] = {
    {{2, 64, 17, 19, 136, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 0}, 1, 2, 3, 1.0f, 0.0f},
    {{2, 64, 17, 19, 136, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 1}, 4, 8, 12, 0.5f, 0.25f},
    {{3, 96, 15, 15, 72, 5, 5, 2, 2, 2, 2, 1, 1, 1, 1, 1}, 0, 0, 0, 1.0f, 0.0f},
    {{1, 48, 20, 21, 64, 3, 3, 2, 2, 1, 1, 2, 2, 2, 0, 0}, 3, 0, 1, 2.0f, -1.0f},
};

/* HALF beyond those: 16-byte copies of 8 halves at 64+ channels (offsets multiples of 8), and
** the 3x3 stride-2 layers of ResNet-50 in both layouts (small batch). */
static const map_case k_f16_cases[] = {
    {{2, 64, 17, 19, 136, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 1}, 8, 16, 24, 0.5f, 0.25f},
    {{2, 128, 15, 15, 64, 3, 3, 1, 1, 2, 2, 1, 1, 1, 0, 1}, 0, 0, 0, 1.0f, 0.0f},
    {{2, 64, 14, 14, 128, 3, 3, 1, 1, 2, 2, 1, 1, 1, 0, 0}, 0, 0, 0, 1.0f, 0.0f},
};

Test(conv_mma, tensor_cores_tf32) {
    cldnnHandle_t h = fx_handle();
    if (!cldnn_mma_available(&h->prof)) {
        cr_log_info("%s has no TF32 tensor cores: nothing to test here", h->prof.name);
        return;
    }
    for (int dir = 0; dir < 3; ++dir) {
        for (size_t i = 0; i < sizeof k_map_cases / sizeof k_map_cases[0]; ++i)
            check_mma(&k_map_cases[i], (cldnn_conv_dir)dir, CLDNN_DATA_FLOAT);
        for (size_t i = 0; i < sizeof k_tf32_cases / sizeof k_tf32_cases[0]; ++i)
            check_mma(&k_tf32_cases[i], (cldnn_conv_dir)dir, CLDNN_DATA_FLOAT);
    }
}

/* HALF (BFLOAT16) data on FP16 (BF16) tensor cores: the map cases (single elements and 8-element
** runs), the TF32 cases and k_f16_cases, every direction. */
static void tensor_cores_16bit(cldnnDataType_t dt) {
    cldnnHandle_t h = fx_handle();
    if (!cldnn_mma_available(&h->prof)) {
        cr_log_info("%s has no tensor cores: nothing to test here", h->prof.name);
        return;
    }
    const struct {
        const map_case* cases;
        size_t n;
    } sets[] = {{k_map_cases, sizeof k_map_cases / sizeof k_map_cases[0]},
                {k_map_cases_half, sizeof k_map_cases_half / sizeof k_map_cases_half[0]},
                {k_tf32_cases, sizeof k_tf32_cases / sizeof k_tf32_cases[0]},
                {k_f16_cases, sizeof k_f16_cases / sizeof k_f16_cases[0]}};
    for (int dir = 0; dir < 3; ++dir)
        for (size_t s = 0; s < sizeof sets / sizeof sets[0]; ++s)
            for (size_t i = 0; i < sets[s].n; ++i)
                check_mma(&sets[s].cases[i], (cldnn_conv_dir)dir, dt);
}
Test(conv_mma, tensor_cores_f16) { tensor_cores_16bit(CLDNN_DATA_HALF); }
Test(conv_mma, tensor_cores_bf16) { tensor_cores_16bit(CLDNN_DATA_BFLOAT16); }
