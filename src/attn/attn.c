/*
** attn.c: scaled dot-product attention (cldnnAttentionForward / Backward), its descriptor and
** workspace query.
**
** A call is B x H query heads of Sq rows against B x Hkv key/value heads of Sk keys (grouped-query
** attention when Hkv < H). The kernels (kernels/attn/attn.cl, whose header gives the work split)
** follow FlashAttention-2: the forward streams K and V blocks past a block of query rows with an
** online softmax and saves each row's log-sum-exp; the backward recomputes the probabilities from
** it: Di = rowsum(dO * O) into the workspace (B*H*Sq floats), then one kernel per kv-head key block
** for dK and dV (looping over the query heads of its group and every query block, so no two
** work-groups write one element: no atomics) and one per query block for dQ. (attn_mma may instead
** sum dQ in the dK / dV kernel by atomic adds where the descriptor is not DETERMINISTIC.)
** Passes over memory: forward reads Q once and K, V once per query block; backward reads Q, dO
** once per key block and K, V once per query block.
**
** Solvers: attn_tiled, the portable kernels (every OpenCL device). Its parameters (block rows BR,
** block keys BC, the work-group WG_R x WG_C, the chunks KC and RC, Q kept in local memory) are a
** declared space (Find / Tune through the engine, CLDNN_SOLVER_PARAMS), with defaults per device
** type: the first of a preference list that fits the device's local memory. attn_mma, the
** tensor-core kernels (kernels/attn/attn_mma.cl), goes in front of it where it applies.
**
** Contract choices: all data of one type (FLOAT, HALF, BFLOAT16), statistics FLOAT; D, Dv <= 256;
** B*H*Sq and B*Hkv*Sk below 2^31; outputs must not overlap inputs (checked on byte ranges of the
** same buffer).
*/
#include "attn/attn.h"
#include "gemm/gemm.h" /* cldnn_mma_available, cldnn_mma_16bit, cldnn_mma_local_limit */
#include "handle/engine.h"
#include "tensor/tensor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ATTN_HEAD_MAX 256

struct cldnnAttentionStruct {
    int is_set;
    float scale;
    int causal;
    float dropout;
    uint64_t seed, offset;
    cldnnMathType_t math;
    cldnnDeterminism_t determinism;
};

/* Operands, in the kernels' argument order. */
enum { AT_Q = 0, AT_K, AT_V, AT_O, AT_DO, AT_ST, AT_DQ, AT_DK, AT_DV, AT_N };

typedef struct {
    int dir; /* 0 forward, 1 backward */
    cldnnDataType_t dtype;
    int B, H, Hkv, Sq, Sk, D, Dv;
    int causal, has_stats, drop;
    int det;               /* the backward must sum in a fixed order (no atomic adds) */
    int vec;               /* 4: the inputs allow 4-vector loads (attn.cl's VEC) */
    float scale, dropout;
    uint32_t gen[4], thresh;
    float rscale;
    int64_t st[AT_N][4];   /* strides in elements */
    uint64_t off[AT_N];    /* offsets in elements */
    int math;
} at_problem;

typedef struct {
    cl_mem m[AT_N];
    cl_mem ws;
    uint64_t ws_off; /* floats */
} at_buffers;

/* The kernels' build parameters (attn.cl's options). */
typedef struct {
    int br, bc, wgr, wgc, kc, rc, ql;
} at_params;

#define AT_PARAMS_TEXT "br%d-bc%d-wg%dx%d-kc%d-rc%d-q%d"
#define AT_PARAMS_NAMES "br bc wg_r wg_c kc rc ql"

static int round_up(int x, int m) { return (x + m - 1) / m * m; }

/* Local memory bytes of the kernel a problem of direction dir runs with q (attn.cl's arrays). */
static size_t at_local_bytes(const at_problem* p, const at_params* q) {
    size_t pr = (size_t)q->br + 1, pc = (size_t)q->bc + 1;
    size_t dw = (size_t)round_up(p->D, q->wgc), dvw = (size_t)round_up(p->Dv, q->wgc);
    size_t dk = (size_t)round_up(p->D, q->kc), kc = (size_t)q->kc, rc = (size_t)q->rc;
    size_t chunks = kc * (pr + pc), n;
    if (p->dir == 0) {
        size_t qb = q->ql ? dk * pr : 0, a = q->ql ? qb + kc * pc : chunks, b = qb + rc * dvw;
        n = (a > b ? a : b) + (size_t)q->bc * pr + (size_t)q->br * (size_t)q->wgc;
    } else {
        size_t rows = rc * (dw + dvw), dkdv = (chunks > rows ? chunks : rows) + 2u * (size_t)q->br * pc;
        size_t dqr = rc * dw, dq = (chunks > dqr ? chunks : dqr) + (size_t)q->bc * pr;
        n = (dkdv > dq ? dkdv : dq) + 2u * (size_t)q->br;
    }
    return n * sizeof(float);
}

/* Accumulators a lane holds (registers), the largest of the kernels the direction runs. */
static int at_registers(const at_problem* p, const at_params* q) {
    int tm = q->br / q->wgr, tn = q->bc / q->wgc, td = round_up(p->D, q->wgc) / q->wgc;
    int tdv = round_up(p->Dv, q->wgc) / q->wgc;
    if (p->dir == 0)
        return tm * (tdv + tn);
    int ta = q->bc / q->wgr, tb = q->br / q->wgc, dkdv = ta * (td + tdv) + 2 * ta * tb, dq = tm * td + 2 * tm * tn;
    return dkdv > dq ? dkdv : dq;
}

#define AT_REGS_MAX 160

static int is_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

/* The constraints: powers of two, blocks that split evenly over the lanes both ways (the backward
** transposes the tile), the work-group and local memory within the device's limits, at most
** AT_REGS_MAX accumulators per lane on a GPU where spill_ok is 0 (more spill: slower, still right). */
static int at_fits(const void* problem, const cldnn_device_profile* dev, const void* params, int spill_ok) {
    const at_problem* p = (const at_problem*)problem;
    const at_params* q = (const at_params*)params;
    if (!is_pow2(q->br) || !is_pow2(q->bc) || !is_pow2(q->wgr) || !is_pow2(q->wgc) || !is_pow2(q->kc) ||
        !is_pow2(q->rc) || (q->ql != 0 && q->ql != 1))
        return 0;
    if (q->br > 128 || q->bc > 128 || q->kc > 64 || q->rc > 64 || q->br % q->wgr || q->bc % q->wgc ||
        q->bc % q->wgr || q->br % q->wgc || q->bc % q->rc || q->br % q->rc)
        return 0;
    if ((size_t)(q->wgr * q->wgc) > dev->max_wg_size || q->wgr * q->wgc > 1024)
        return 0;
    if (at_local_bytes(p, q) > dev->local_mem)
        return 0;
    return dev->is_cpu || spill_ok || at_registers(p, q) <= AT_REGS_MAX; /* a CPU keeps tiles in memory */
}

static int at_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    return at_fits(problem, dev, params, 0);
}

/* Preference lists. GPUs: 64 x 64 blocks; 8 x 8 lanes where the registers allow (8 x 8 score and
** output tiles: as many local loads as FMA issue slots, where 4 x 4 tiles leave the FMAs half idle),
** else 8 x 16 or 16 x 16 lanes (D = 128, the backward's two accumulators); Q kept in local memory
** where it fits (D <= 64 in 48 KiB); smaller blocks as the head grows and local memory runs short.
** CPUs (PoCL): one lane per work-group, whose tiles PoCL compiles in about half the time of a
** group's (its work-item loops around every barrier cost seconds per kernel) and runs as fast
** (work-groups run on the cores). */
static const at_params gpu_prefs[] = {
    {64, 64, 8, 8, 16, 16, 1},   {64, 64, 8, 16, 16, 16, 1}, {64, 64, 8, 16, 16, 8, 0},
    {64, 64, 16, 16, 16, 8, 0},  {64, 32, 16, 16, 16, 8, 0}, {32, 64, 16, 16, 16, 8, 0},
    {32, 32, 16, 16, 16, 8, 0},  {32, 32, 8, 8, 8, 8, 0},    {16, 16, 4, 4, 8, 8, 0},
    {16, 16, 4, 4, 4, 4, 0},
};
static const at_params cpu_prefs[] = {
    {16, 16, 1, 1, 16, 16, 0}, {16, 16, 1, 1, 8, 8, 0}, {8, 8, 1, 1, 8, 8, 0}, {8, 8, 1, 1, 4, 4, 0},
};

/* The first valid set of the device type's list, else of the other list: a GPU whose work-groups
** are too small for its list (OpenCL allows one work-item) takes the one-lane sets, spilling
** accumulators; 0 when neither list fits (the head too large for the device's local memory). */
static int at_pick(const void* problem, const cldnn_device_profile* dev, at_params* out) {
    static const size_t ncpu = sizeof cpu_prefs / sizeof cpu_prefs[0], ngpu = sizeof gpu_prefs / sizeof gpu_prefs[0];
    for (int other = 0; other < 2; ++other) {
        const int cpu = dev->is_cpu != other;
        const at_params* list = cpu ? cpu_prefs : gpu_prefs;
        for (size_t i = 0; i < (cpu ? ncpu : ngpu); ++i)
            if (at_fits(problem, dev, &list[i], other)) {
                *out = list[i];
                return 1;
            }
    }
    *out = cpu_prefs[ncpu - 1]; /* the smallest; never run (the solver does not apply) */
    return 0;
}

static void at_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    at_pick(problem, dev, (at_params*)params);
}

/* The space a tuner walks: blocks 16..128, lanes 1..32 per side (64..256 per group on GPUs, 1..64
** on CPUs), chunks 8..32, Q in local memory or not; only the valid sets. */
static size_t at_enumerate(const void* problem, const cldnn_device_profile* dev, void* out, size_t max) {
    static const int blocks[] = {64, 32, 128, 16};
    static const int lanes[] = {16, 8, 32, 4, 2, 1};
    static const int chunks[] = {16, 8, 32};
    const int tmin = dev->is_cpu ? 1 : 64, tmax = dev->is_cpu ? 64 : 256;
    at_params* o = (at_params*)out;
    size_t n = 0;
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            for (int c = 0; c < 6; ++c)
                for (int d = 0; d < 6; ++d)
                    for (int e = 0; e < 3; ++e)
                        for (int f = 0; f < 3; ++f)
                            for (int ql = 0; ql < 2; ++ql) {
                                at_params q = {blocks[a], blocks[b], lanes[c], lanes[d], chunks[e], chunks[f], ql};
                                int t = q.wgr * q.wgc;
                                if (t < tmin || t > tmax || !at_valid(problem, dev, &q))
                                    continue;
                                if (ql && ((const at_problem*)problem)->dir != 0)
                                    continue; /* the backward ignores it */
                                if (n < max)
                                    o[n] = q;
                                n++;
                            }
    return n;
}

static const cldnn_param_space at_space = {
    .text = AT_PARAMS_TEXT, .names = AT_PARAMS_NAMES, .valid = at_valid, .enumerate = at_enumerate};

static size_t at_workspace(const void* problem, const void* params) {
    const at_problem* p = (const at_problem*)problem;
    (void)params;
    return p->dir ? (size_t)p->B * (size_t)p->H * (size_t)p->Sq * sizeof(float) : 0;
}

static int tiled_applicable(const void* problem, const cldnn_device_profile* dev) {
    at_params q;
    return at_pick(problem, dev, &q);
}

/* Enqueues kernel `name` of program (file, opts) over `groups` work-groups of `local` lanes with
** ATTN_ARGS (attn_common.h), in its order. */
static cldnnStatus_t at_launch(cldnnHandle_t h, const at_problem* p, const char* file, const char* opts,
                               const at_buffers* b, const char* name, uint64_t groups, size_t local) {
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, file, opts, name, &k));
    cl_long4 st[AT_N];
    cl_ulong off[AT_N];
    for (int i = 0; i < AT_N; ++i) {
        memcpy(st[i].s, p->st[i], sizeof st[i].s);
        off[i] = p->off[i];
    }
    cl_int B = p->B, H = p->H, Hkv = p->Hkv, Sq = p->Sq, Sk = p->Sk, causal = p->causal, has = p->has_stats;
    cl_float scale = p->scale, sc2 = (cl_float)((double)p->scale * 1.4426950408889634), rs = p->rscale;
    cl_ulong wso = b->ws_off;
    cl_uint4 gen = {{p->gen[0], p->gen[1], p->gen[2], p->gen[3]}};
    cl_uint thresh = p->thresh;
    CLDNN_TRY(CLDNN_KERNEL_ARGS(
        k, 0, CLDNN_ARG(B), CLDNN_ARG(H), CLDNN_ARG(Hkv), CLDNN_ARG(Sq), CLDNN_ARG(Sk), CLDNN_ARG(causal),
        CLDNN_ARG(scale), CLDNN_ARG(sc2), CLDNN_ARG(has), CLDNN_ARG(b->m[AT_Q]), CLDNN_ARG(off[AT_Q]),
        CLDNN_ARG(st[AT_Q]), CLDNN_ARG(b->m[AT_K]), CLDNN_ARG(off[AT_K]), CLDNN_ARG(st[AT_K]), CLDNN_ARG(b->m[AT_V]),
        CLDNN_ARG(off[AT_V]), CLDNN_ARG(st[AT_V]), CLDNN_ARG(b->m[AT_O]), CLDNN_ARG(off[AT_O]), CLDNN_ARG(st[AT_O]),
        CLDNN_ARG(b->m[AT_DO]), CLDNN_ARG(off[AT_DO]), CLDNN_ARG(st[AT_DO]), CLDNN_ARG(b->m[AT_ST]),
        CLDNN_ARG(off[AT_ST]), CLDNN_ARG(st[AT_ST]), CLDNN_ARG(b->m[AT_DQ]), CLDNN_ARG(off[AT_DQ]),
        CLDNN_ARG(st[AT_DQ]), CLDNN_ARG(b->m[AT_DK]), CLDNN_ARG(off[AT_DK]), CLDNN_ARG(st[AT_DK]),
        CLDNN_ARG(b->m[AT_DV]), CLDNN_ARG(off[AT_DV]), CLDNN_ARG(st[AT_DV]), CLDNN_ARG(b->ws), CLDNN_ARG(wso),
        CLDNN_ARG(gen), CLDNN_ARG(thresh), CLDNN_ARG(rs)));
    return cldnn_enqueue_1d(h, k, groups * local, local, name);
}

static cldnnStatus_t tiled_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const at_problem* p = (const at_problem*)problem;
    const at_params* q = (const at_params*)params;
    const at_buffers* b = (const at_buffers*)buffers;
    const size_t wg = (size_t)(q->wgr * q->wgc);
    char opts[200];
    snprintf(opts, sizeof opts, "-DHEAD_D=%d -DHEAD_DV=%d -DBR=%d -DBC=%d -DWG_R=%d -DWG_C=%d -DKC=%d -DRC=%d -DQL=%d -DDROPOUT=%d -DVEC=%d%s",
             p->D, p->Dv, q->br, q->bc, q->wgr, q->wgc, q->kc, q->rc, q->ql, p->drop, p->vec,
             cldnn_dtype_build_option(p->dtype));
    const char* f = "attn/attn.cl";
    const uint64_t qgroups = (uint64_t)p->B * (uint64_t)p->H * (uint64_t)((p->Sq + q->br - 1) / q->br);
    if (p->dir == 0)
        return at_launch(h, p, f, opts, b, "attn_fwd", qgroups, wg);
    const uint64_t rows = (uint64_t)p->B * (uint64_t)p->H * (uint64_t)p->Sq;
    const size_t dot = cldnn_free_group(&h->prof);
    CLDNN_TRY(at_launch(h, p, f, opts, b, "attn_bwd_dot", (rows + dot - 1) / dot, dot));
    const uint64_t kgroups = (uint64_t)p->B * (uint64_t)p->Hkv * (uint64_t)((p->Sk + q->bc - 1) / q->bc);
    CLDNN_TRY(at_launch(h, p, f, opts, b, "attn_bwd_dkdv", kgroups, wg));
    return at_launch(h, p, f, opts, b, "attn_bwd_dq", qgroups, wg);
}

/* ------------------------------------------------------------------ tensor-core solver */

/* attn_mma (kernels/attn/attn_mma.cl): forward and backward on tensor cores, on NVIDIA devices of
** compute capability 8.0 or higher:
**   HALF, BFLOAT16 under TENSOR_OP_MATH: mma.sync m16n8k16, the probabilities and dS rounded to the
**     data type before their products, as FlashAttention does (a reduced-precision path);
**   FLOAT under TENSOR_OP_MATH: TF32 m16n8k8, inputs, probabilities and dS rounded to TF32 once;
**   FLOAT under DEFAULT_MATH: each product as three TF32 ones (3xTF32, big and small halves of each
**     input: close to FP32's accuracy, within the FLOAT tolerances of tests/test_attn.c), which is what
**     PyTorch's FP32 scaled_dot_product_attention runs on these devices (its memory-efficient
**     kernel's OpMultiplyAddFastF32). FMA_MATH keeps attn_tiled's FP32 FMAs.
** Its parameters: query rows per block (the forward's and dQ's work-group, 16 per warp), keys per
** block (dK / dV's work-group), the buffers per streamed block (1 or 2; 2 overlap the next
** block's copies and take one barrier a block, in the forward too), the order of
** the work-groups (0: each head's blocks in turn; 1: the heaviest causal blocks of every head
** first) and where dQ is summed (0: its own kernel, fixed order; 1: in the dK / dV kernel by atomic
** adds into FP32 sums in the workspace, FlashAttention-2's five block products per key/query pair
** against seven, not deterministic: valid only for descriptors that allow it). The statistics are
** attn_tiled's, so either solver's backward reads either's forward. */
typedef struct {
    int br, bc, st, ord, dq;
} at_mma_params;

#define AT_MMA_TEXT "br%d-bc%d-st%d-o%d[-q%d]" /* dq optional on reading (0) */
#define AT_MMA_NAMES "br bc st ord dq"
#define AT_MMA_HEAD_MAX 128
#define AT_MMA_REGS_MAX 180 /* accumulators and fragments per lane; 16-bit data spilled beyond ~200 */

static int round16(int x) { return round_up(x, 16); }

/* Head dims per dQ tile of the fused backward (attn_mma.cl's DQN): all of them up to 64, else the
** largest of 64, 32, 16 that divides the padded head. (Tiles of fewer dims, enough of them for every
** warp of a 32 x 128 group, ran no faster: HALF D 128 18.5 ms either way, H200.) */
static int at_mma_dqn(int d) {
    const int dp = round16(d);
    return dp <= 64 ? dp : dp % 64 == 0 ? 64 : dp % 32 == 0 ? 32 : 16;
}

/* Static local memory of the direction's kernels: rows of 2-byte elements padded by 8, of 4-byte
** (FLOAT) ones by 4. */
static size_t at_mma_local(const at_problem* p, const at_mma_params* q) {
    const size_t es = p->dtype == CLDNN_DATA_FLOAT ? 4u : 2u, pad = 16u / es;
    const size_t kp = (size_t)round16(p->D) + pad, vp = (size_t)round16(p->Dv) + pad, br = (size_t)q->br;
    const size_t bc = (size_t)q->bc;
    const size_t st = (size_t)q->st;
    if (p->dir == 0)
        return (br * kp + st * bc * (kp + vp)) * es;
    const size_t dkdv = (bc + st * br) * (kp + vp) + (q->dq ? (st > 1 ? 2u : 1u) * bc * (br + pad) : 0);
    const size_t dq = q->dq ? 0 : (br + st * bc) * (kp + vp);
    return (dkdv > dq ? dkdv : dq) * es;
}

/* 32-bit registers a lane holds in accumulators and fragments, the largest kernel's. FLOAT: a
** fragment takes twice the registers of a 16-bit one (Q's stay in local memory past D 64, dQ's Q
** and dO always) and the probabilities are their own fragments; the extra half tile of the
** backward's count is no register model but a bound fitted to the H200's measurements: it keeps
** the measured-fastest sets (D 64 64 x 64, whose dK / dV kernel spills 144 bytes; D 128 32 x 64 at
** one buffer) and rules out the 64-row D 128 backward (344 bytes of spills, slower). */
static int at_mma_registers(const at_problem* p, const at_mma_params* q) {
    const int d = round16(p->D), dv = round16(p->Dv);
    if (p->dtype == CLDNN_DATA_FLOAT) {
        if (p->dir == 0)
            return (d <= 64 ? d / 2 : 4) + dv / 2 + q->bc;
        const int sdp = q->br + q->br / 2, dqt = q->dq ? at_mma_dqn(p->D) / 2 + 8 : 0;
        const int dkdv = d / 2 + dv / 2 + (sdp > dqt ? sdp : dqt), dq = q->dq ? 0 : 4 + d / 2 + q->bc + q->bc / 2;
        return dkdv > dq ? dkdv : dq;
    }
    if (p->dir == 0)
        return d / 4 + dv / 2 + q->bc / 2 + q->bc / 4;
    const int sdp = q->br + q->br / 4, dqt = q->dq ? at_mma_dqn(p->D) / 2 + 8 : 0;
    const int dkdv = d / 2 + dv / 2 + (sdp > dqt ? sdp : dqt);
    const int dq = q->dq ? 0 : d / 4 + dv / 4 + d / 2 + q->bc + q->bc / 4;
    return dkdv > dq ? dkdv : dq;
}

/* Whether operand t allows attn_mma's 16-byte accesses: a unit-stride head dim, the other strides
** and the offset in multiples of 16 bytes (the data type's element count per 16 bytes). */
static int at_mma_aligned(const at_problem* p, int t) {
    const int64_t e = p->dtype == CLDNN_DATA_FLOAT ? 4 : 8;
    const int64_t* st = p->st[t];
    return st[3] == 1 && st[0] % e == 0 && st[1] % e == 0 && st[2] % e == 0 && p->off[t] % (uint64_t)e == 0;
}

static int at_mma_applicable(const void* problem, const cldnn_device_profile* dev) {
    const at_problem* p = (const at_problem*)problem;
    const int tf32 = p->dtype == CLDNN_DATA_FLOAT && p->math != CLDNN_FMA_MATH;
    if (!(tf32 || (p->math == CLDNN_TENSOR_OP_MATH && cldnn_mma_16bit(p->dtype))) || !cldnn_mma_available(dev))
        return 0;
    if (p->D % 8 || p->Dv % 8 || p->D > AT_MMA_HEAD_MAX || p->Dv > AT_MMA_HEAD_MAX)
        return 0;
    /* 16-byte copies and pair stores: unit-stride head dims, the rest in multiples of 16 bytes */
    static const int fwd[] = {AT_Q, AT_K, AT_V, AT_O}, bwd[] = {AT_Q, AT_K, AT_V, AT_DO, AT_DQ, AT_DK, AT_DV};
    const int* ops = p->dir ? bwd : fwd;
    const int n = p->dir ? 7 : 4;
    for (int i = 0; i < n; ++i)
        if (!at_mma_aligned(p, ops[i]))
            return 0;
    return 1;
}

static int at_mma_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    const at_problem* p = (const at_problem*)problem;
    const at_mma_params* q = (const at_mma_params*)params;
    /* FLOAT blocks up to 64: its 128-row D 128 forward did not run on the H200 (not looked into) */
    const int most = p->dtype == CLDNN_DATA_FLOAT ? 64 : 128;
    if (q->br < 16 || q->br > most || q->br % 16 || q->bc < 16 || q->bc > most || q->bc % 16 || q->st < 1 ||
        q->st > 2 || q->ord < 0 || q->ord > 1 || q->dq < 0 || q->dq > 1 || (q->dq && p->dir && p->det))
        return 0; /* the forward ignores dq, so one set names a forward and a backward */
    const size_t wg = (size_t)(2 * (q->br > q->bc ? q->br : q->bc));
    return at_mma_registers(p, q) <= AT_MMA_REGS_MAX && at_mma_local(p, q) <= cldnn_mma_local_limit(dev) &&
           wg <= dev->max_wg_size;
}

/* Defaults: the first set of prefs that fits (4-warp work-groups where the registers allow, the
** streamed blocks double-buffered: one barrier a block; one buffer where two do not fit), each
** head's blocks in turn. Measured on the H200 (B 8, H 16, S 4096; perf/results/attention-h200.md):
**   - dQ by atomic adds (dq = 1) where the descriptor allows it: HALF / BFLOAT16 on compute
**     capability 9.0 (two-float reductions) at 64 x 64 up to D = 64 and 8-warp 32 x 128 groups past
**     it (D 128 backward 20.0 -> 16.7 ms against the split at 32 x 32, causal 10.5 -> 9.1, D 64
**     11.4 -> 10.1, causal 6.0 -> 5.4; with the spread order and the deferred dS K of attn_mma.cl),
**     and the FLOAT 3xTF32 backward past D = 64 (90.4 -> 62.1 ms, causal 50.6 -> 35.6; single TF32
**     under TENSOR_OP_MATH not measured, so split). Elsewhere the split: FLOAT D 64 loses by atomics
**     (39.8 -> 47.8 ms), and before the spread order and the deferred dS K, 16-bit data lost with
**     one-float reductions (HALF D 64 11.4 -> 13.7 ms) and in 32 x 32 groups (D 128 20.0 -> 41.8),
**     which is what a device without wide16's local memory would get: the atomic traffic, B H Sq D
**     per key block, outweighs the two products it saves where the products are cheap;
**   - FLOAT's backward past D = 64 buffers its streamed blocks once, which leaves room for 64-key
**     dK / dV groups, two per SM: D 128 90.9 ms against 113.8 at 32 / 32 double-buffered (split);
**     FLOAT's forward keeps one buffer too (3xTF32 D 128 21.7 ms against 27.9 with two; the others
**     not measured);
**   - FLOAT causal backward problems, and causal forward ones past D = 64, take the heaviest blocks
**     of every head first (ORDER): D 128 forward 14.2 -> 12.0 ms, backward 81.6 -> 58.6, D 64
**     backward 24.6 -> 20.8 (its forward 5.87 -> 5.99: left at 0). The same order slows the
**     non-causal FLOAT cases (D 128 forward 21.8 -> 23.7 ms, D 64 backward 39.8 -> 42.1) and HALF's
**     causal ones (D 128 forward 2.49 -> 2.67-2.82 ms, backward 10.4 -> 11.0).
** D 64's FLOAT backward stays at 64 / 64 although its dK / dV kernel spills 144 bytes: 39.9 ms
** against 42.8-52.8 for 32-row or 32-key blocks. A DETERMINISTIC descriptor takes the split. */
static void at_mma_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    static const at_mma_params prefs[] = {
        {64, 64, 2, 0, 0}, {64, 64, 1, 0, 0}, {64, 32, 2, 0, 0}, {64, 32, 1, 0, 0}, {32, 32, 2, 0, 0},
        {32, 32, 1, 0, 0}, {32, 16, 2, 0, 0}, {16, 16, 2, 0, 0},
    };
    static const at_mma_params wide = {32, 64, 1, 0, 0}, wide16 = {32, 128, 2, 0, 1};
    const at_problem* p = (const at_problem*)problem;
    at_mma_params* q = (at_mma_params*)params;
    const int f32 = p->dtype == CLDNN_DATA_FLOAT, big = p->D > 64 || p->Dv > 64, atomics = p->dir && !p->det;
    *q = prefs[sizeof prefs / sizeof prefs[0] - 1];
    if (f32 && p->dir && big && at_mma_valid(problem, dev, &wide))
        *q = wide;
    else if (!f32 && atomics && big && dev->nv_cc_major >= 9 && at_mma_valid(problem, dev, &wide16))
        *q = wide16;
    else
        for (size_t i = 0; i < sizeof prefs / sizeof prefs[0]; ++i)
            if (at_mma_valid(problem, dev, &prefs[i])) {
                *q = prefs[i];
                break;
            }
    if (f32 && !p->dir) /* the FLOAT forward's tiles are twice the bytes: two buffers cost occupancy */
        q->st = 1;
    q->ord = f32 && p->causal && (p->dir || big);
    /* 16-bit data by atomics only as measured: two-float reductions (compute capability 9.0) and
    ** the sets above (64 x 64 up to D = 64, wide16 past it) */
    const int sixteen =
        dev->nv_cc_major >= 9 && q->br == (big ? wide16.br : 64) && q->bc == (big ? wide16.bc : 64);
    q->dq = atomics && (f32 ? big && p->math != CLDNN_TENSOR_OP_MATH : sixteen);
    q->dq = q->dq && at_mma_valid(problem, dev, q); /* its dS^T tile needs local memory */
}

static size_t at_mma_enumerate(const void* problem, const cldnn_device_profile* dev, void* out, size_t max) {
    static const int sizes[] = {64, 32, 128, 16, 48, 96};
    at_mma_params* o = (at_mma_params*)out;
    size_t n = 0;
    const int dir = ((const at_problem*)problem)->dir;
    for (int a = 0; a < 6; ++a)
        for (int c = 0; c < 6; ++c)
            for (int st = 2; st >= 1; --st)
                for (int ord = 0; ord < 2; ++ord)
                    for (int dq = 0; dq <= dir; ++dq) { /* the forward has no dQ */
                        at_mma_params q = {sizes[a], sizes[c], st, ord, dq};
                        if (!at_mma_valid(problem, dev, &q))
                            continue;
                        if (n < max)
                            o[n] = q;
                        n++;
                    }
    return n;
}

/* Di (B*H*Sq floats, rounded up to 4) and, with dQ in the dK / dV kernel, its FP32 sums (B*H*Sq rows
** of the head dims padded to 16; attn_common.h's DQ_BASE and DQ_PITCH). NULL params: the larger. */
static size_t at_mma_workspace(const void* problem, const void* params) {
    const at_problem* p = (const at_problem*)problem;
    const at_mma_params* q = (const at_mma_params*)params;
    if (!p->dir)
        return 0;
    const size_t rows = (size_t)p->B * (size_t)p->H * (size_t)p->Sq;
    if (q != NULL && !q->dq)
        return rows * sizeof(float);
    return ((rows + 3u) / 4u * 4u + rows * (size_t)round16(p->D)) * sizeof(float);
}

static const cldnn_param_space at_mma_space = {
    .text = AT_MMA_TEXT, .names = AT_MMA_NAMES, .valid = at_mma_valid, .enumerate = at_mma_enumerate};

/* attn_mma.cl's build options for p with q, atomic being DQ_ATOMIC. */
static void mma_options(char* opts, size_t size, const at_problem* p, const at_mma_params* q, int atomic) {
    snprintf(opts, size,
             "-DHEAD_D=%d -DHEAD_DV=%d -DBR=%d -DBC=%d -DSTAGES=%d -DORDER=%d -DDROPOUT=%d -DTF32X3=%d "
             "-DDQ_ATOMIC=%d -DDQN=%d%s",
             p->D, p->Dv, q->br, q->bc, q->st, q->ord, p->drop,
             p->dtype == CLDNN_DATA_FLOAT && p->math != CLDNN_TENSOR_OP_MATH, atomic, at_mma_dqn(p->D),
             cldnn_dtype_build_option(p->dtype));
}

static cldnnStatus_t mma_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const at_problem* p = (const at_problem*)problem;
    const at_mma_params* q = (const at_mma_params*)params;
    const at_buffers* b = (const at_buffers*)buffers;
    const char* f = "attn/attn_mma.cl";
    /* dQ's reductions (backward, dq = 1): two floats at a time on compute capability 9.0 with an
    ** 8-byte aligned workspace, which takes PTX ISA 8.1 */
    const int red2 = h->prof.nv_cc_major >= 9 && b->ws_off % 2 == 0 && !h->attn_no_red2;
    int atomic = p->dir && q->dq ? (red2 ? 2 : 1) : 0;
    char opts[200];
    mma_options(opts, sizeof opts, p, q, atomic);
    const uint64_t qgroups = (uint64_t)p->B * (uint64_t)p->H * (uint64_t)((p->Sq + q->br - 1) / q->br);
    if (p->dir == 0)
        return at_launch(h, p, f, opts, b, "attn_fwd_mma", qgroups, (size_t)(2 * q->br));
    const uint64_t rows = (uint64_t)p->B * (uint64_t)p->H * (uint64_t)p->Sq;
    const size_t dot = cldnn_free_group(&h->prof);
    /* Di by four lanes a row where O's rows allow 16-byte loads (dO's always do here) */
    const int dot4 = at_mma_aligned(p, AT_O);
    const char* dk = dot4 ? "attn_bwd_dot_mma" : "attn_bwd_dot";
    const uint64_t dg = dot4 ? (4u * rows + 255u) / 256u : (rows + dot - 1) / dot;
    const size_t dwg = dot4 ? 256u : dot; /* whole warps for its shuffles */
    cldnnStatus_t st = at_launch(h, p, f, opts, b, dk, dg, dwg);
    if (st == CLDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED && atomic == 2) {
        /* a driver whose compiler emits PTX older than 8.1 fails that build (the whole program's,
        ** attn_bwd_dot's included): failed builds are not cached, so the handle keeps one-float
        ** reductions from then on */
        cldnn_error_clear();
        h->attn_no_red2 = 1;
        atomic = 1;
        mma_options(opts, sizeof opts, p, q, atomic);
        st = at_launch(h, p, f, opts, b, dk, dg, dwg);
    }
    CLDNN_TRY(st);
    const uint64_t kgroups = (uint64_t)p->B * (uint64_t)p->Hkv * (uint64_t)((p->Sk + q->bc - 1) / q->bc);
    CLDNN_TRY(at_launch(h, p, f, opts, b, "attn_bwd_dkdv_mma", kgroups, (size_t)(2 * q->bc)));
    if (atomic) {
        const uint64_t pairs = rows * (uint64_t)(p->D / 2);
        return at_launch(h, p, f, opts, b, "attn_bwd_dq_store", (pairs + dot - 1) / dot, dot);
    }
    return at_launch(h, p, f, opts, b, "attn_bwd_dq_mma", qgroups, (size_t)(2 * q->br));
}

/* The tensor-core solver goes in front of attn_tiled (a lower rank where it applies). */
static const cldnn_solver at_solvers[] = {
    {.name = "attn_mma", .algo = -1, .applicable = at_mma_applicable, .workspace = at_mma_workspace,
     .default_params = at_mma_defaults, .params_size = sizeof(at_mma_params), .run = mma_run,
     /* not flagged deterministic: dq = 1 adds by atomics (a DETERMINISTIC descriptor rules it out) */
     .flags = CLDNN_SOLVER_TENSOR_OPS, .rank = 10, .space = &at_mma_space},
    {.name = "attn_tiled", .algo = -1, .applicable = tiled_applicable, .workspace = at_workspace,
     .default_params = at_defaults, .params_size = sizeof(at_params), .run = tiled_run,
     .flags = CLDNN_SOLVER_DETERMINISTIC, .rank = 50, .space = &at_space},
};

/* A tuner compares O (forward) or dQ (backward; dK and dV come from the same tiles). */
static cl_mem at_output(const void* problem, const void* buffers, cldnnDataType_t* dtype) {
    const at_problem* p = (const at_problem*)problem;
    *dtype = p->dtype;
    return ((const at_buffers*)buffers)->m[p->dir ? AT_DQ : AT_O];
}

/* Sums over Sk keys (and D head dims) in a different order, plus one rounding of 16-bit outputs;
** under TENSOR_OP_MATH FLOAT's probabilities round to TF32 (10 bits, as HALF's) where the block
** boundaries put each row's running maximum. */
static double at_tolerance(const void* problem) {
    const at_problem* p = (const at_problem*)problem;
    const int tf32 = p->dtype == CLDNN_DATA_FLOAT && p->math == CLDNN_TENSOR_OP_MATH;
    const cldnnDataType_t r = tf32 ? CLDNN_DATA_HALF : p->dtype;
    return 1e-5 * sqrt((double)p->Sk + (double)p->D) * (p->dir ? 4.0 : 1.0) + cldnn_dtype_storage_ulp(r);
}

static const cldnn_family at_family = {
    .name = "attn",
    .solvers = at_solvers,
    .count = sizeof at_solvers / sizeof at_solvers[0],
    .output = at_output,
    .tolerance = at_tolerance,
    .tune_algo = -1,
};

const cldnn_family* cldnn_attn_family(void) {
    return &at_family;
}

/* ----------------------------------------------------------------------------- checks */

static cldnnStatus_t check_attn_desc(const struct cldnnAttentionStruct* d) {
    if (d == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "attnDesc is NULL");
    if (!d->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "attnDesc was never set (cldnnSetAttentionDescriptor)");
    return CLDNN_STATUS_SUCCESS;
}

/* A 4-d data descriptor of the call's data type. */
static cldnnStatus_t check_4d(const struct cldnnTensorStruct* t, const char* what, cldnnDataType_t dt) {
    CLDNN_TRY(cldnn_check_tensor(t, what));
    if (t->nd != 4)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s has %d dims; attention tensors are 4-d", what, t->nd);
    if (t->dtype != dt)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s holds %s but qDesc holds %s: one data type per call", what,
                          cldnn_dtype_name(t->dtype), cldnn_dtype_name(dt));
    return CLDNN_STATUS_SUCCESS;
}

/* t must be want0 x want1 x want2 x want3. */
static cldnnStatus_t check_dims(const struct cldnnTensorStruct* t, const char* what, int64_t w0, int64_t w1,
                                int64_t w2, int64_t w3, const char* shape) {
    if (t->dims[0] != w0 || t->dims[1] != w1 || t->dims[2] != w2 || t->dims[3] != w3)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                          "%s is %lldx%lldx%lldx%lld; it must be %s = %lldx%lldx%lldx%lld", what,
                          (long long)t->dims[0], (long long)t->dims[1], (long long)t->dims[2], (long long)t->dims[3],
                          shape, (long long)w0, (long long)w1, (long long)w2, (long long)w3);
    return CLDNN_STATUS_SUCCESS;
}

/* Descriptor and shape checks shared by every entry; fills p's sizes, type and scalars. */
static cldnnStatus_t at_describe(cldnnHandle_t h, const struct cldnnAttentionStruct* ad,
                                 const struct cldnnTensorStruct* q, const struct cldnnTensorStruct* k,
                                 const struct cldnnTensorStruct* v, const struct cldnnTensorStruct* o, int dir,
                                 at_problem* p) {
    CLDNN_TRY(cldnn_check_handle(h));
    CLDNN_TRY(check_attn_desc(ad));
    CLDNN_TRY(cldnn_check_tensor(q, "qDesc"));
    CLDNN_TRY(cldnn_check_compute_dtype(q->dtype, "qDesc"));
    CLDNN_TRY(check_4d(q, "qDesc", q->dtype));
    CLDNN_TRY(check_4d(k, "kDesc", q->dtype));
    CLDNN_TRY(check_4d(v, "vDesc", q->dtype));
    CLDNN_TRY(check_4d(o, "oDesc", q->dtype));
    const int64_t B = q->dims[0], H = q->dims[1], Sq = q->dims[2], D = q->dims[3];
    const int64_t Hkv = k->dims[1], Sk = k->dims[2], Dv = v->dims[3];
    CLDNN_TRY(check_dims(k, "kDesc", B, Hkv, Sk, D, "B x Hkv x Sk x D (B and D of qDesc)"));
    CLDNN_TRY(check_dims(v, "vDesc", B, Hkv, Sk, Dv, "B x Hkv x Sk x Dv (B, Hkv and Sk of kDesc)"));
    CLDNN_TRY(check_dims(o, "oDesc", B, H, Sq, Dv, "B x H x Sq x Dv (of qDesc and vDesc)"));
    if (H % Hkv != 0)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM,
                          "qDesc has %lld heads, kDesc %lld: the query heads must be a multiple of the kv heads",
                          (long long)H, (long long)Hkv);
    if (D > ATTN_HEAD_MAX || Dv > ATTN_HEAD_MAX)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, "head sizes D = %lld, Dv = %lld: at most %d are supported",
                          (long long)D, (long long)Dv, ATTN_HEAD_MAX);
    if (B * H * Sq >= (1ll << 31) || B * Hkv * Sk >= (1ll << 31))
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, "B*H*Sq = %lld, B*Hkv*Sk = %lld: both must stay below 2^31",
                          (long long)(B * H * Sq), (long long)(B * Hkv * Sk));
    memset(p, 0, sizeof *p);
    p->dir = dir;
    p->dtype = q->dtype;
    p->B = (int)B;
    p->H = (int)H;
    p->Hkv = (int)Hkv;
    p->Sq = (int)Sq;
    p->Sk = (int)Sk;
    p->D = (int)D;
    p->Dv = (int)Dv;
    p->causal = ad->causal;
    p->scale = ad->scale;
    p->dropout = ad->dropout;
    p->drop = ad->dropout > 0.0f;
    p->math = (int)ad->math;
    p->det = ad->determinism == CLDNN_DETERMINISTIC;
    p->gen[0] = (uint32_t)ad->seed;
    p->gen[1] = (uint32_t)(ad->seed >> 32);
    p->gen[2] = (uint32_t)ad->offset;
    p->gen[3] = (uint32_t)(ad->offset >> 32);
    /* cldnnDropout's threshold and scale, exactly (src/tensor/dropout.c) */
    p->thresh = (uint32_t)floor((double)ad->dropout * 4294967296.0);
    p->rscale = (float)(1.0 / (1.0 - (double)ad->dropout));
    return CLDNN_STATUS_SUCCESS;
}

/* The statistics descriptor: B x H x Sq x 1 FLOAT. */
static cldnnStatus_t check_stats_desc(const struct cldnnTensorStruct* s, const at_problem* p) {
    CLDNN_TRY(cldnn_check_tensor(s, "statsDesc"));
    if (s->nd != 4)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "statsDesc has %d dims; it is 4-d B x H x Sq x 1", s->nd);
    if (s->dtype != CLDNN_DATA_FLOAT)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "statsDesc holds %s; the statistics are FLOAT",
                          cldnn_dtype_name(s->dtype));
    return check_dims(s, "statsDesc", p->B, p->H, p->Sq, 1, "B x H x Sq x 1");
}

/* One operand of a call: its descriptor, buffer and byte offset (mem NULL: absent). */
typedef struct {
    const struct cldnnTensorStruct* desc;
    cl_mem mem;
    size_t off;
} at_operand;

static const char* const at_names[AT_N] = {"q", "k", "v", "o", "dO", "stats", "dq", "dk", "dv"};

/* Byte range [lo, hi) of operand a in its buffer. */
static size_t at_end(const at_operand* a) {
    return a->off + (size_t)a->desc->span * cldnn_dtype_size(a->desc->dtype);
}

/* Checks every present operand's buffer, then that no output (index >= first_out, and the
** workspace's used bytes) overlaps another operand in the same buffer (the kernels read inputs
** after other work-groups wrote outputs); takes their views into p. */
static cldnnStatus_t at_bind(cldnnHandle_t h, at_problem* p, const at_operand* ops, int first_out, cl_mem ws,
                             size_t ws_off, size_t ws_need) {
    for (int i = 0; i < AT_N; ++i) {
        if (ops[i].desc == NULL)
            continue;
        CLDNN_TRY(cldnn_check_tensor_buffer(h, ops[i].desc, ops[i].mem, ops[i].off, at_names[i]));
        for (int d = 0; d < 4; ++d)
            p->st[i][d] = ops[i].desc->strides[d];
        p->off[i] = ops[i].off / cldnn_dtype_size(ops[i].desc->dtype);
    }
    /* 4-vector loads of the inputs the kernels stream (Q, K, V, dO): unit head stride, the other
    ** strides and the offset multiples of 4, and so are the head sizes */
    p->vec = p->D % 4 == 0 && p->Dv % 4 == 0 ? 4 : 1;
    const int loaded[4] = {AT_Q, AT_K, AT_V, AT_DO};
    for (int t = 0; t < 4; ++t) {
        const int i = loaded[t];
        if (ops[i].desc == NULL)
            continue;
        if (p->st[i][3] != 1 || p->st[i][0] % 4 || p->st[i][1] % 4 || p->st[i][2] % 4 || p->off[i] % 4)
            p->vec = 1;
    }
    for (int a = 0; a <= AT_N; ++a) {
        int is_ws = a == AT_N;
        if (!is_ws && (ops[a].desc == NULL || a < first_out))
            continue;
        cl_mem m = is_ws ? ws : ops[a].mem;
        size_t lo = is_ws ? ws_off : ops[a].off, hi = is_ws ? ws_off + ws_need : at_end(&ops[a]);
        for (int b = 0; b < AT_N; ++b)
            if (b != a && ops[b].desc != NULL && ops[b].mem == m && lo < at_end(&ops[b]) && ops[b].off < hi)
                return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s overlaps %s in the same buffer: outputs must not overlap",
                                  is_ws ? "workspace" : at_names[a], at_names[b]);
    }
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t check_workspace(cldnnHandle_t h, cl_mem ws, size_t off, size_t size, size_t need) {
    return cldnn_check_scratch(h, ws, off, size, need, sizeof(float), "workspace", "workspaceSizeInBytes",
                               "cldnnGetAttentionWorkspaceSize");
}

/* The key names the problem in logs and the tuning db. */
static void at_key(char* buf, size_t size, const at_problem* p) {
    /* the memory order (B,S,H,D when Q's heads are closer than its rows) and the math type change
    ** which solver and parameters win */
    const char* lay = p->st[AT_Q][1] < p->st[AT_Q][2] ? "bshd" : "bhsd";
    snprintf(buf, size, "attn-%s:b%d-h%d-hkv%d-sq%d-sk%d-d%d-dv%d-c%d-p%d-%s-%s%s%s", p->dir ? "bwd" : "fwd", p->B,
             p->H, p->Hkv, p->Sq, p->Sk, p->D, p->Dv, p->causal, p->drop, lay, cldnn_dtype_key(p->dtype),
             p->math == CLDNN_TENSOR_OP_MATH ? "-tc" : "", p->dir && p->det ? "-det" : "");
}

static void at_log_cmd(const at_problem* p, const struct cldnnAttentionStruct* ad, const struct cldnnTensorStruct* q) {
    if (!cldnn_log_cmd_enabled())
        return;
    /* B,S,H,D when the heads stride is smaller than the rows' */
    const char* layout = q->strides[1] < q->strides[2] ? "bshd" : "bhsd";
    cldnn_log_cmd("attn -b %d --heads %d --hkv %d --sq %d --sk %d --hd %d --dv %d --causal %d --dropout %.9g "
                  "--drop-seed %llu --drop-offset %llu --scale %.9g --dir %s --layout %s -d %s --math %s",
                  p->B, p->H, p->Hkv, p->Sq, p->Sk, p->D, p->Dv, p->causal, (double)p->dropout,
                  (unsigned long long)ad->seed, (unsigned long long)ad->offset, (double)p->scale,
                  p->dir ? "bwd" : "fwd", layout, cldnn_dtype_name(p->dtype),
                  p->math == CLDNN_TENSOR_OP_MATH ? "tensor" : p->math == CLDNN_FMA_MATH ? "fma" : "default");
}

/* The solver and parameters the run of p (its views taken) takes, in *s and params
** (CLDNN_PARAMS_MAX bytes), and the workspace bytes they need in *need. */
static cldnnStatus_t at_select(cldnnHandle_t h, const at_problem* p, const cldnn_solver** s, void* params,
                               size_t* need) {
    char key[200];
    at_key(key, sizeof key, p);
    CLDNN_TRY(cldnn_engine_select(h, &at_family, p, key, key, s, params));
    *need = cldnn_engine_workspace(*s, p, params);
    return CLDNN_STATUS_SUCCESS;
}

/* Picks the solver and its parameters (CLDNN_SOLVER, CLDNN_SOLVER_PARAMS, the tuning db), and
** runs it. */
static cldnnStatus_t at_run(cldnnHandle_t h, const at_problem* p, const at_buffers* b) {
    char key[200];
    at_key(key, sizeof key, p);
    return cldnn_engine_run(h, &at_family, p, b, key, key);
}

/* ----------------------------------------------------------------------------- public */

cldnnStatus_t cldnnCreateAttentionDescriptor(cldnnAttentionDescriptor_t* desc) {
    cldnn_error_clear();
    CLDNN_DESC_NEW(desc, "desc", "attention");
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDestroyAttentionDescriptor(cldnnAttentionDescriptor_t desc) {
    cldnn_error_clear();
    free(desc);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetAttentionDescriptor(cldnnAttentionDescriptor_t desc, float scale, int causal, float dropout,
                                          uint64_t seed, uint64_t offset, cldnnMathType_t mathType) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (!isfinite(scale))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "scale %g is not finite", (double)scale);
    if (causal != 0 && causal != 1)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "causal %d is not 0 or 1", causal);
    if (!(dropout >= 0.0f && dropout < 1.0f))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "dropout %g is outside [0, 1)", (double)dropout);
    if (mathType != CLDNN_DEFAULT_MATH && mathType != CLDNN_TENSOR_OP_MATH && mathType != CLDNN_FMA_MATH)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "mathType %d is not a cldnnMathType_t value",
                          (int)mathType);
    desc->scale = scale;
    desc->causal = causal;
    desc->dropout = dropout;
    desc->seed = seed;
    desc->offset = offset;
    desc->math = mathType;
    desc->is_set = 1;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetAttentionDescriptor(const cldnnAttentionDescriptor_t desc, float* scale, int* causal,
                                          float* dropout, uint64_t* seed, uint64_t* offset,
                                          cldnnMathType_t* mathType) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    CLDNN_TRY(check_attn_desc(desc));
    if (scale)
        *scale = desc->scale;
    if (causal)
        *causal = desc->causal;
    if (dropout)
        *dropout = desc->dropout;
    if (seed)
        *seed = desc->seed;
    if (offset)
        *offset = desc->offset;
    if (mathType)
        *mathType = desc->math;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetAttentionDescriptorDeterminism(cldnnAttentionDescriptor_t desc, cldnnDeterminism_t determinism) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (determinism != CLDNN_NON_DETERMINISTIC && determinism != CLDNN_DETERMINISTIC)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "determinism %d is not a cldnnDeterminism_t value",
                          (int)determinism);
    desc->determinism = determinism;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetAttentionDescriptorDeterminism(const cldnnAttentionDescriptor_t desc,
                                                     cldnnDeterminism_t* determinism) {
    cldnn_error_clear();
    if (desc == NULL || determinism == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", desc == NULL ? "desc" : "determinism");
    *determinism = desc->determinism;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetAttentionWorkspaceSize(cldnnHandle_t handle, const cldnnAttentionDescriptor_t attnDesc,
                                             const cldnnTensorDescriptor_t qDesc, const cldnnTensorDescriptor_t kDesc,
                                             const cldnnTensorDescriptor_t vDesc, const cldnnTensorDescriptor_t oDesc,
                                             size_t* fwdSize, size_t* bwdSize) {
    cldnn_error_clear();
    at_problem p;
    CLDNN_TRY(at_describe(handle, attnDesc, qDesc, kDesc, vDesc, oDesc, 1, &p));
    /* the views a backward on these descriptors takes, with gradients laid out as their tensors and
    ** offsets of 0: the solver that applies to them needs the most workspace */
    const struct cldnnTensorStruct* like[AT_N] = {qDesc, kDesc, vDesc, oDesc, oDesc, NULL, qDesc, kDesc, vDesc};
    for (int i = 0; i < AT_N; ++i)
        if (like[i] != NULL)
            memcpy(p.st[i], like[i]->strides, sizeof p.st[i]);
    const cldnn_solver* s;
    _Alignas(16) unsigned char params[CLDNN_PARAMS_MAX];
    size_t need;
    if (at_select(handle, &p, &s, params, &need) != CLDNN_STATUS_SUCCESS) { /* the call will say so */
        cldnn_error_clear();
        need = at_workspace(&p, NULL);
    }
    if (fwdSize)
        *fwdSize = 0;
    if (bwdSize)
        *bwdSize = need;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnAttentionForward(cldnnHandle_t handle, const cldnnAttentionDescriptor_t attnDesc,
                                    const cldnnTensorDescriptor_t qDesc, cl_mem q, size_t qOffset,
                                    const cldnnTensorDescriptor_t kDesc, cl_mem k, size_t kOffset,
                                    const cldnnTensorDescriptor_t vDesc, cl_mem v, size_t vOffset,
                                    const cldnnTensorDescriptor_t oDesc, cl_mem o, size_t oOffset,
                                    const cldnnTensorDescriptor_t statsDesc, cl_mem stats, size_t statsOffset,
                                    cl_mem workspace, size_t workspaceOffset, size_t workspaceSizeInBytes) {
    cldnn_error_clear();
    at_problem p;
    CLDNN_TRY(at_describe(handle, attnDesc, qDesc, kDesc, vDesc, oDesc, 0, &p));
    if (stats != NULL) {
        CLDNN_TRY(check_stats_desc(statsDesc, &p));
        p.has_stats = 1;
    }
    CLDNN_TRY(check_workspace(handle, workspace, workspaceOffset, workspaceSizeInBytes, 0));
    const at_operand ops[AT_N] = {{qDesc, q, qOffset},
                                  {kDesc, k, kOffset},
                                  {vDesc, v, vOffset},
                                  {oDesc, o, oOffset},
                                  {NULL, NULL, 0},
                                  {stats ? statsDesc : NULL, stats, statsOffset}};
    CLDNN_TRY(at_bind(handle, &p, ops, AT_O, NULL, 0, 0));
    at_log_cmd(&p, attnDesc, qDesc);
    at_buffers b = {{q, k, v, o, NULL, stats, NULL, NULL, NULL}, NULL, 0};
    return at_run(handle, &p, &b);
}

cldnnStatus_t cldnnAttentionBackward(cldnnHandle_t handle, const cldnnAttentionDescriptor_t attnDesc,
                                     const cldnnTensorDescriptor_t qDesc, cl_mem q, size_t qOffset,
                                     const cldnnTensorDescriptor_t kDesc, cl_mem k, size_t kOffset,
                                     const cldnnTensorDescriptor_t vDesc, cl_mem v, size_t vOffset,
                                     const cldnnTensorDescriptor_t oDesc, cl_mem o, size_t oOffset,
                                     const cldnnTensorDescriptor_t doDesc, cl_mem dO, size_t dOOffset,
                                     const cldnnTensorDescriptor_t statsDesc, cl_mem stats, size_t statsOffset,
                                     const cldnnTensorDescriptor_t dqDesc, cl_mem dq, size_t dqOffset,
                                     const cldnnTensorDescriptor_t dkDesc, cl_mem dk, size_t dkOffset,
                                     const cldnnTensorDescriptor_t dvDesc, cl_mem dv, size_t dvOffset,
                                     cl_mem workspace, size_t workspaceOffset, size_t workspaceSizeInBytes) {
    cldnn_error_clear();
    at_problem p;
    CLDNN_TRY(at_describe(handle, attnDesc, qDesc, kDesc, vDesc, oDesc, 1, &p));
    CLDNN_TRY(check_4d(doDesc, "doDesc", qDesc->dtype));
    CLDNN_TRY(cldnn_check_same_dims(oDesc, "oDesc", doDesc, "doDesc"));
    CLDNN_TRY(check_4d(dqDesc, "dqDesc", qDesc->dtype));
    CLDNN_TRY(cldnn_check_same_dims(qDesc, "qDesc", dqDesc, "dqDesc"));
    CLDNN_TRY(check_4d(dkDesc, "dkDesc", qDesc->dtype));
    CLDNN_TRY(cldnn_check_same_dims(kDesc, "kDesc", dkDesc, "dkDesc"));
    CLDNN_TRY(check_4d(dvDesc, "dvDesc", qDesc->dtype));
    CLDNN_TRY(cldnn_check_same_dims(vDesc, "vDesc", dvDesc, "dvDesc"));
    if (stats == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "stats is NULL: the backward needs the forward's statistics");
    CLDNN_TRY(check_stats_desc(statsDesc, &p));
    /* the least any solver takes, then what the one that runs on these views takes */
    const size_t least = at_workspace(&p, NULL);
    CLDNN_TRY(check_workspace(handle, workspace, workspaceOffset, workspaceSizeInBytes, least));
    const at_operand ops[AT_N] = {{qDesc, q, qOffset},          {kDesc, k, kOffset},
                                  {vDesc, v, vOffset},          {oDesc, o, oOffset},
                                  {doDesc, dO, dOOffset},       {statsDesc, stats, statsOffset},
                                  {dqDesc, dq, dqOffset},       {dkDesc, dk, dkOffset},
                                  {dvDesc, dv, dvOffset}};
    CLDNN_TRY(at_bind(handle, &p, ops, AT_DQ, workspace, workspaceOffset, least));
    p.has_stats = 1;
    const cldnn_solver* s;
    _Alignas(16) unsigned char params[CLDNN_PARAMS_MAX];
    size_t need;
    CLDNN_TRY(at_select(handle, &p, &s, params, &need)); /* once: the run takes the same */
    if (need > least) {
        CLDNN_TRY(check_workspace(handle, workspace, workspaceOffset, workspaceSizeInBytes, need));
        CLDNN_TRY(at_bind(handle, &p, ops, AT_DQ, workspace, workspaceOffset, need));
    }
    at_log_cmd(&p, attnDesc, qDesc);
    at_buffers b = {{q, k, v, o, dO, stats, dq, dk, dv}, workspace, workspaceOffset / sizeof(float)};
    return s->run(handle, &p, params, &b);
}
