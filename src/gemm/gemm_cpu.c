/*
** gemm_cpu.c: the GEMM family's solver for CPU devices (kernels/gemm/gemm_cpu.cl), BLIS's shape:
** a register block per work-item with explicit vectors, no local memory, no barrier.
**
** Chosen by the device profile: it applies on CPU devices only and ranks before gemm_tiled. A run
** decides, per problem, which operand is read as vectors ("X": the parameters' swap) and which
** operands go through panels that gemm_cpu_pack writes into the handle's scratch in the
** micro-kernel's order: those the parameters ask to pack, X when it is not unit-stride along its
** rows, and any operand smaller than its register block. Packing costs a read and a write of the
** operand; it pays where the unpacked reads would stride through memory (a new page and a cache set
** per k). Panels past the scratch's cap are made for a batch chunk, then a range of X's rows, at a
** time. Launches per piece: one pack per packed operand and one gemm_cpu.
**
** Parameters come from the device table below (rows found by cldnn-tune gemm on each runtime,
** keyed by platform, device name and native vector width, per shape class of gemm_params.c), else
** from the register file the native vector width implies.
*/
#include "gemm/gemm.h"
#include "handle/engine.h"

#include <stdio.h>
#include <string.h>

/* ---- what a run does with a parameter set */

typedef struct {
    int64_t xt, yt;       /* extents along the vector and the broadcast dimension */
    int packx, packy;     /* panels in the scratch */
    int64_t xrows;        /* rows of X per piece: xt, or fewer when one product's X panels exceed the cap */
    int64_t batch;        /* products per piece */
    int64_t kmax;         /* the deepest k range of one work-item (cpu_k_max) */
    int64_t nsplit;       /* k ranges of at most kmax, their partial sums in the scratch before the panels */
} cpu_plan;

static int64_t round_up(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

/* The device table's size of C per product from which each product of a batch gets a launch of its
** own (0: never); below, with the table. */
static int64_t product_launch_min(const cldnn_device_profile* dev);

/* Floats of scratch the panels of one piece may take: CLDNN_SCRATCH_MAX's, or the tests' cap. */
static size_t test_cap;
void cldnn_gemm_cpu_test_scratch_cap(size_t bytes) { test_cap = bytes; }
static uint64_t cap_floats(void) { return (test_cap ? test_cap : CLDNN_SCRATCH_MAX) / sizeof(float); }

/* The deepest k one work-item may run on a loop-limited device (llvmpipe; device.c), INT64_MAX
** elsewhere. Mesa 22.3 keeps the micro-kernel's unrolled loops as loops, and its limiter counts
** every pass of a loop's header: per k and register block, (MV + 1)(NR + 1) + 3 of them (the k
** unroll's, X's loads, the columns and each column's FMAs), and with YB > 1, MV + 2 more for the
** copy of X's chunk. Measured there: 24 x 7 (MV 3) with YB 2 right at k = 768, wrong from 1024;
** 16 x 6 (MV 2) right at 2000, wrong from 2500, as the count predicts. Half the limit leaves room
** for the stores and whatever else the count leaves out. */
static int64_t test_k_max;
void cldnn_gemm_cpu_test_k_max(int64_t k) { test_k_max = k; }
static int64_t cpu_k_max(const cldnn_gemm_cpu_params* p, const cldnn_device_profile* dev) {
    if (test_k_max > 0)
        return test_k_max;
    if (dev->loop_limit == 0)
        return INT64_MAX;
    const int64_t mv = p->mr / p->vw;
    const int64_t per_k = p->yb * ((mv + 1) * (p->nr + 1) + 3) + (p->yb > 1 ? mv + 2 : 0);
    const int64_t k = (int64_t)(dev->loop_limit / 2) / per_k;
    return k > 1 ? k : 1;
}

/* How p runs pr on dev: which operands are packed, the k ranges (deeper than cpu_k_max: split, the
** partial sums reduced by gemm_launch.c) and the pieces the panels and partial sums are made in.
** An operand that is not unit-stride along its rows, or has fewer rows than its register block,
** is packed whatever p says. Where they exceed the scratch's cap, products are taken a batch
** chunk at a time, then a range of X's rows at a time (one product per piece, Y's panels made once
** per chunk); Y's optional panels give way when they and one X panel exceed the cap. 0 when
** nothing fits (a k so deep that one panel exceeds the cap). */
static int plan(const cldnn_gemm_problem* pr, const cldnn_gemm_cpu_params* p, const cldnn_device_profile* dev,
                cpu_plan* o) {
    o->xt = p->swap ? pr->n : pr->m;
    o->yt = p->swap ? pr->m : pr->n;
    const int x_unit = p->swap ? pr->trans_b : !pr->trans_a;
    const int need_x = !x_unit || o->xt < p->mr, need_y = o->yt < p->nr;
    o->packx = p->packx || need_x;
    o->packy = p->packy || need_y;
    const uint64_t cap = cap_floats(), k = (uint64_t)pr->k, panel = (uint64_t)p->mr * k;
    const uint64_t fx = (uint64_t)round_up(o->xt, p->mr) * k, fy = (uint64_t)round_up(o->yt, p->nr) * k;
    if (o->packy && !need_y && (o->packx ? panel : 0) + fy > cap)
        o->packy = 0;
    o->kmax = cpu_k_max(p, dev);
    o->nsplit = pr->k > o->kmax ? (pr->k + o->kmax - 1) / o->kmax : 1;
    /* Partial sums per row of X: nsplit per element of C. */
    const uint64_t ws = o->nsplit > 1 ? (uint64_t)o->nsplit * (uint64_t)o->yt : 0;
    const uint64_t y = o->packy ? fy : 0, x = o->packx ? fx : 0, w = ws * (uint64_t)o->xt;
    o->xrows = o->xt;
    o->batch = pr->batch;
    if (x + y + w <= cap) {
        if (x + y + w > 0 && (uint64_t)o->batch * (x + y + w) > cap)
            o->batch = (int64_t)(cap / (x + y + w));
        const int64_t own = product_launch_min(dev);
        if (own > 0 && pr->m * pr->n >= own)
            o->batch = 1;
        return 1;
    }
    o->batch = 1;
    const uint64_t unit = (o->packx ? panel : 0) + ws * (uint64_t)p->mr; /* per MR rows of X */
    o->xrows = unit > 0 && y + unit <= cap ? (int64_t)((cap - y) / unit) * p->mr : 0;
    return o->xrows > 0;
}

/* Floats of partial sums one piece of pl needs (they come first in the scratch), and of panels. */
static uint64_t plan_split_floats(const cpu_plan* pl) {
    return pl->nsplit > 1 ? (uint64_t)pl->nsplit * (uint64_t)pl->batch * (uint64_t)pl->xrows * (uint64_t)pl->yt : 0;
}
static uint64_t plan_floats(const cpu_plan* pl, const cldnn_gemm_cpu_params* p, int64_t k) {
    return (uint64_t)pl->batch * (uint64_t)k *
           ((pl->packx ? (uint64_t)round_up(pl->xrows, p->mr) : 0) + (pl->packy ? (uint64_t)round_up(pl->yt, p->nr) : 0));
}

/* ---- parameters */

static int pow2_in(int v, int lo, int hi) { return v >= lo && v <= hi && (v & (v - 1)) == 0; }

int cldnn_gemm_cpu_params_valid(const cldnn_gemm_cpu_params* p) {
    if (!pow2_in(p->vw, 4, 16) || !pow2_in(p->ku, 1, 8))
        return 0;
    if (p->mr < p->vw || p->mr % p->vw || p->mr / p->vw > 4 || p->nr < 1 || p->nr > 16)
        return 0;
    if ((p->mr / p->vw) * p->nr > 32) /* accumulators: more only spills */
        return 0;
    return p->mcb >= 0 && p->mcb <= 4096 && p->yb >= 1 && p->yb <= 16 && (p->packx & ~1) == 0 &&
           (p->packy & ~1) == 0 && (p->swap & ~1) == 0;
}

void cldnn_gemm_cpu_params_format(const cldnn_gemm_cpu_params* p, char* buf, size_t size) {
    cldnn_params_format(CLDNN_GEMM_CPU_PARAMS_TEXT, p, buf, size);
}

int cldnn_gemm_cpu_params_parse(const char* s, cldnn_gemm_cpu_params* p) {
    cldnn_gemm_cpu_params q;
    if (!cldnn_params_parse(CLDNN_GEMM_CPU_PARAMS_TEXT, s, &q, sizeof q))
        return 0;
    *p = q;
    return 1;
}

/* Vector registers of the ISA a native float width implies (x86: 4 SSE and 8 AVX2 have 16, 16
** AVX-512 has 32), and the width itself (8 when the device does not say). */
static int native_width(const cldnn_device_profile* dev) {
    int w = (int)dev->native_vec_float;
    return w == 4 || w == 8 || w == 16 ? w : 8;
}
static int vector_registers(const cldnn_device_profile* dev) { return native_width(dev) >= 16 ? 32 : 16; }

/* The layout rule, for the fields a table set leaves to it (-1). The vector operand X is the one
** unit-stride along C's rows or columns (A for NN and NT, B for TT from k = CPU_TT_SWAP_K on, A
** below); for TN, where neither is, the
** smaller; for SMALL_N and SMALL_M products of a deep k the narrow side's, so that X's panels are
** small and reused from cache by every block of the wide side (2048 x 64 x 2048 NN: +10-20%, one
** PoCL core; cldnn-tune's choice on PoCL and Intel's runtime), where the wide side's panels fit
** half the scratch. From k = CPU_DEEP_K on, operands read in place would run the k loop through
** a new page and cache set per step at a stride that defeats the prefetcher (4096 x 16 x 4096 NN:
** 2.5x slower, 1000^3 1.3x): X is packed, in pieces where it exceeds the scratch, and the other
** operand Y too unless it is unit-stride along k, where its rows are NR streams. Below it both are
** read in place, a launch and a copy fewer (the products of ResNet-50's convolutions at batch 1,
** 3136 x 64 x 64 to 784 x 128 x 1152: 1.1-1.5x). perf/results/cpu-gemm.md. */
#define CPU_DEEP_K 1000
/* TT products take B as X (swap) only from this k on: below it the swapped kernel ran 2-4x slower
** (1024 x 1024 x 49 TT, 64 x 6 blocks, AVX-512: PoCL 0.041 against 0.176 TFLOP/s unswapped, Intel
** 0.043 against 0.173; k 98 and 128 2.4x; k 196 about even; k 256 PoCL 0.165 swapped against 0.140,
** k 784 0.150 against 0.092). perf/results/cpu-gemm-avx512.md. */
#define CPU_TT_SWAP_K 256
void cldnn_gemm_cpu_params_layout(const cldnn_gemm_problem* pr, cldnn_gemm_cpu_params* p) {
    const cldnn_gemm_class c = cldnn_gemm_classify(pr);
    const uint64_t half = cap_floats() / 2, k = (uint64_t)pr->k;
    const int deep = pr->k >= CPU_DEEP_K;
    if (p->swap < 0)
        p->swap = pr->trans_a && !pr->trans_b                                      ? pr->n < pr->m
                  : deep && c == CLDNN_GEMM_SMALL_N && (uint64_t)pr->m * k <= half ? 1
                  : deep && c == CLDNN_GEMM_SMALL_M && (uint64_t)pr->n * k <= half ? 0
                                                                                   : pr->trans_a && pr->trans_b &&
                                                                                         pr->k >= CPU_TT_SWAP_K;
    /* A thin side of C (THIN_N along y with X = A unit along m, THIN_M along y with X = B' unit
    ** along n) is one group of blocks per work-item, X copied chunk by chunk into the work-item's
    ** buffer instead of packed (1760 x 16 x 1760 NN: 0.45 of OpenBLAS packed, both PoCL cores). */
    const int64_t ythin = c == CLDNN_GEMM_THIN_N && !p->swap && !pr->trans_a  ? pr->n
                          : c == CLDNN_GEMM_THIN_M && p->swap && pr->trans_b ? pr->m
                                                                              : 0;
    const int group = deep && ythin > 0 && p->nr > 0 && (ythin + p->nr - 1) / p->nr <= 16;
    if (p->yb < 0)
        p->yb = group ? (int)((ythin + p->nr - 1) / p->nr) : 1;
    if (p->packx < 0)
        p->packx = deep && !(group && p->yb > 1);
    if (p->packy < 0) /* Y = A'^T (unit along k: TN) or B' (NN) */
        p->packy = deep && (p->swap ? !pr->trans_a : pr->trans_b);
}

/* The device table: rows found by cldnn-tune gemm (perf/results/cpu-gemm.md), keyed by a platform
** name substring, a device name substring ("" any) and the native float vector width (0 any),
** one register block per shape class (cldnn_gemm_classify); the fields a row leaves -1 (yb,
** packing, orientation) come from the layout rule, the others are measured choices. */
typedef struct {
    const char* platform;
    const char* device;
    int native;
    cldnn_gemm_cpu_params p[CLDNN_GEMM_CLASSES];
    int64_t product_launch_min; /* elements of C per product from which each product is one launch (0: never) */
} cpu_table_row;

/* mr nr vw ku mcb yb packx packy swap. The AVX2 rows from cldnn-tune gemm with CLDNN_TUNE_CLOCK=cpu over
** perf/shapes/gemm-cpu-tune.csv (perf/results/cpu-gemm.md): the 16 x 6 block of 8-wide vectors (12
** of AVX2's 16 registers as accumulators) won or came within 3% on every shape but the thin ones,
** where blocks of 4 columns fit n = 16 exactly (1760 x 16 x 1760 on both cores: PoCL 16 x 4 and
** 24 x 4 within 3%, 16 x 6 1.2x slower; Intel 16 x 4 3.0 ms, 16 x 6 4.0; 24 x 4 loses 1.5x on the
** thin TN products, whose vector dimension is the 32 columns); the wins of direct operands were
** single shapes within the load's noise (the layout rule decides those). */
static const cpu_table_row cpu_table[] = {
    /* PoCL 3.1, pthread-haswell (AMD EPYC, 2 cores, AVX2). */
    {"Portable Computing Language", "", 8,
     {{16, 6, 8, 4, 8, -1, -1, -1, -1},
      {16, 6, 8, 4, 8, -1, -1, -1, -1},
      {16, 6, 8, 4, 8, -1, -1, -1, -1},
      {16, 6, 8, 4, 8, -1, -1, -1, -1},
      {16, 4, 8, 4, 8, -1, -1, -1, -1},
      {16, 6, 8, 4, 8, -1, -1, -1, -1}},
     0},
    /* Intel's CPU runtime 2026.22 on the same AMD EPYC. It runs a batch's grid (products along
    ** dimension 2) slower than the same products launched one by one once they are large:
    ** 3136 x 64 x 64 at batch 8 (ResNet-50's 1x1 convolutions at batch 8) 8.3-12.2 ms as one grid,
    ** 5.35 ms as 8 launches (batch 1: 0.54 ms); 784 x 128 x 128 x 8: 4.9 against 4.3; but 256 x 64
    ** x 64 x 16: 0.59 against 1.06 (a launch costs about 15 us there). PoCL runs the grid faster
    ** (3136 x 64 x 64 x 8: 3.8 ms, 4.2 one by one). */
    {"Intel", "", 8,
     {{16, 6, 8, 4, 8, -1, -1, -1, -1},
      {16, 6, 8, 4, 8, -1, -1, -1, -1},
      {16, 6, 8, 4, 8, -1, -1, -1, -1},
      {16, 6, 8, 4, 8, -1, -1, -1, -1},
      {16, 4, 8, 4, 8, -1, -1, -1, -1},
      {16, 6, 8, 4, 8, -1, -1, -1, -1}},
     65536},
    /* AVX-512 (native width 16; PoCL pthread-skylake-avx512 and Intel's runtime on a 2-core AMD
    ** EPYC with AVX-512). cldnn-tune gemm (CLDNN_TUNE_CLOCK=cpu, 20 s a shape, gemm-cpu-tune.csv)
    ** proposed 64 x 6 for the large squares, and 16 x 16 (one vector, 16 accumulators) for most
    ** small ones; 16 x 16 then ran ResNet-50's batch-1 products with k below 1000 1.3-1.7x faster
    ** than the 32 x 12 fallback (n = 64 in 12-column blocks wastes a sixth) but the packed deep
    ** ones 1.3-2x slower (one vector load per 16 broadcasts). 32 x 8 was within 8 % of the best
    ** block on the shallow products and the best or within 12 % on the deep ones on both runtimes
    ** (196 x 256 x 1024: PoCL 0.60 ms, 16 x 16 1.33, 32 x 12 0.66), so it holds every class but the
    ** large squares and the thin-n products, where the tuner's picks stay (Intel 48 x 8: 1760 x 16
    ** x 1760 2.8x over the fallback). perf/results/cpu-avx512.md. Against OpenBLAS (same cores,
    ** perf/results/cpu-gemm-avx512.md) the layout rule's packed X lost on deep narrow products: PoCL's
    ** thin-n 16 x 16 packed A for n = 16 (one block of columns: 1760 x 16 x 1760 NN 0.33 of
    ** OpenBLAS), so that class takes 32 x 8 with one block per work-item and A in place (0.05 ->
    ** 0.17-0.19 TFLOP/s; 16 x 16 in place fell to 0.08 at 2048 x 16 x 2048); Intel's small-n and
    ** small-m products ran 1.1-2.4x faster with neither packed and no m bands (4096 x 64 x 4096
    ** NN 0.058 -> 0.12-0.15 TFLOP/s, 1760 x 64 x 1760 NN 0.108 -> 0.19-0.21, 784 x 128 x 1152
    ** 0.128 -> 0.215, 3136 x 64 x 576 0.20 -> 0.215; where the rule then swaps a deep product,
    ** plan() still packs the new X if it is not unit-stride along C). */
    {"Portable Computing Language", "", 16,
     {{64, 6, 16, 4, 8, -1, -1, -1, -1},
      {32, 8, 16, 4, 8, -1, -1, -1, -1},
      {32, 8, 16, 4, 8, -1, -1, -1, -1},
      {32, 8, 16, 4, 8, -1, -1, -1, -1},
      {32, 8, 16, 4, 8, 1, 0, -1, -1},
      {32, 8, 16, 4, 8, -1, -1, -1, -1}},
     0},
    {"Intel", "", 16,
     {{64, 6, 16, 4, 8, -1, -1, -1, -1},
      {32, 8, 16, 4, 8, -1, -1, -1, -1},
      {32, 8, 16, 4, 0, -1, 0, 0, -1},
      {32, 8, 16, 4, 0, -1, 0, 0, -1},
      {48, 8, 16, 4, 8, -1, -1, -1, -1},
      {32, 8, 16, 4, 8, -1, -1, -1, -1}},
     65536},
};

/* The defaults where no row matches: the register block the ISA's registers hold (MR / VW * NR
** accumulators, four registers left for the operands), 8-block bands, the layout rule. */
static void cpu_fallback(const cldnn_device_profile* dev, cldnn_gemm_cpu_params* p) {
    const int w = native_width(dev);
    cldnn_gemm_cpu_params d = {2 * w, vector_registers(dev) >= 32 ? 12 : 6, w, 4, 8, -1, -1, -1, -1};
    *p = d;
}

static int row_matches(const cpu_table_row* r, const cldnn_device_profile* dev) {
    return strstr(dev->platform_name, r->platform) != NULL && strstr(dev->name, r->device) != NULL &&
           (r->native == 0 || r->native == native_width(dev));
}

/* The first row of the table that matches dev, or NULL. */
static const cpu_table_row* table_row(const cldnn_device_profile* dev) {
    for (size_t i = 0; i < sizeof cpu_table / sizeof cpu_table[0]; ++i)
        if (row_matches(&cpu_table[i], dev))
            return &cpu_table[i];
    return NULL;
}

static int64_t product_launch_min(const cldnn_device_profile* dev) {
    const cpu_table_row* r = table_row(dev);
    return r ? r->product_launch_min : 0;
}

void cldnn_gemm_cpu_params_select(const cldnn_gemm_problem* pr, const cldnn_device_profile* dev,
                                  cldnn_gemm_cpu_params* out) {
    const cldnn_gemm_class c = cldnn_gemm_classify(pr);
    const cpu_table_row* r = table_row(dev);
    if (r)
        *out = r->p[c];
    else
        cpu_fallback(dev, out);
    cldnn_gemm_cpu_params_layout(pr, out);
}

size_t cldnn_gemm_cpu_table_params(cldnn_gemm_cpu_params* out, size_t max) {
    size_t n = 0;
    for (size_t i = 0; i < sizeof cpu_table / sizeof cpu_table[0]; ++i)
        for (int c = 0; c < CLDNN_GEMM_CLASSES; ++c)
            if (n < max)
                out[n++] = cpu_table[i].p[c];
    return n;
}

/* ---- run */

static cldnnStatus_t pack(cldnnHandle_t h, cl_kernel k, cl_mem x, uint64_t x_off, int64_t x_stride, int64_t sr,
                          int64_t sk, int64_t rows, int rb, int64_t kk, int64_t batch, cl_mem P, uint64_t p_off) {
    cl_int R = (cl_int)rows, K = (cl_int)kk, RB = rb, SR = (cl_int)sr, SK = (cl_int)sk;
    cl_ulong xo = x_off, po = p_off;
    cl_long xs = x_stride;
    /* gemm_cpu_pack's list (kernels/gemm/gemm_cpu.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(R), CLDNN_ARG(K), CLDNN_ARG(RB), CLDNN_ARG(x), CLDNN_ARG(xo),
                                CLDNN_ARG(SR), CLDNN_ARG(SK), CLDNN_ARG(xs), CLDNN_ARG(P), CLDNN_ARG(po)));
    uint64_t global[3] = {(uint64_t)((rows + rb - 1) / rb), (uint64_t)((kk + 63) / 64), (uint64_t)batch};
    size_t local[3] = {1, 1, 1};
    return cldnn_enqueue_nd(h, k, 3, global, local, "gemm_cpu_pack");
}

/* The piece of pr at products [b0, b0 + nb) and rows [x0, x0 + nx) of X (C's rows m, or its
** columns n with swap), as a problem of its own: operands, C and the epilogue's z and bias moved
** there. */
static void piece(const cldnn_gemm_problem* pr, int swap, int64_t b0, int64_t nb, int64_t x0, int64_t nx,
                  cldnn_gemm_problem* q, cldnn_epilogue* e) {
    *q = *pr;
    q->batch = nb;
    uint64_t c_shift = (uint64_t)(b0 * pr->stride_c);
    q->off_a += (uint64_t)(b0 * pr->stride_a);
    q->off_b += (uint64_t)(b0 * pr->stride_b);
    if (swap) {
        q->n = nx;
        q->off_b += (uint64_t)(x0 * (pr->trans_b ? 1 : pr->ldb));
        c_shift += (uint64_t)(x0 * pr->ldc);
    } else {
        q->m = nx;
        q->off_a += (uint64_t)(x0 * (pr->trans_a ? pr->lda : 1));
        c_shift += (uint64_t)x0;
    }
    q->off_c += c_shift;
    if (pr->epi) {
        *e = *pr->epi;
        e->z_off += c_shift;
        if (e->bias_m == !swap) /* the bias runs along the chunked dimension */
            e->bias_off += (uint64_t)x0;
        q->epi = e;
    }
}

cldnnStatus_t cldnn_gemm_cpu_run_params(cldnnHandle_t h, const cldnn_gemm_problem* pr,
                                        const cldnn_gemm_cpu_params* params, const cldnn_gemm_buffers* b) {
    char ps[96];
    cldnn_gemm_cpu_params_format(params, ps, sizeof ps);
    cpu_plan pl;
    if (!cldnn_gemm_cpu_params_valid(params))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "CPU GEMM parameters %s are not valid", ps);
    if (!plan(pr, params, &h->prof, &pl))
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                          "CPU GEMM parameters %s: one panel of k = %lld%s exceeds the %zu MiB scratch", ps,
                          (long long)pr->k, pl.nsplit > 1 ? " or the partial sums of its k ranges" : "",
                          CLDNN_SCRATCH_MAX >> 20);
    const cldnn_gemm_cpu_params* p = params;
    /* The storage options, shared by gemm_cpu and gemm.cl's split-k reduction (same C, same epilogue). */
    char reduce_opts[112];
    snprintf(reduce_opts, sizeof reduce_opts, "%s%s", cldnn_dtype_build_option(pr->dtype),
             pr->dtype != CLDNN_DATA_FLOAT && pr->dtype_c == CLDNN_DATA_FLOAT ? " -DC_HALF=0" : "");
    char opts[400];
    snprintf(opts, sizeof opts,
             "-DVW=%d -DMR=%d -DNR=%d -DKU=%d -DMCB=%d -DYB=%d -DPACK_X=%d -DPACK_Y=%d -DSWAP=%d -DA_TRANS=%d "
             "-DB_TRANS=%d%s",
             p->vw, p->mr, p->nr, p->ku, p->mcb, p->yb, pl.packx, pl.packy, p->swap, pr->trans_a, pr->trans_b,
             reduce_opts);
    cldnn_epilogue_options(pr->epi, opts, sizeof opts);
    cldnn_epilogue_options(pr->epi, reduce_opts, sizeof reduce_opts);
    cl_kernel k, kp = NULL;
    CLDNN_TRY(cldnn_kernel_get(h, "gemm/gemm_cpu.cl", opts, "gemm_cpu", &k));
    cl_mem P = b->a;
    const uint64_t wfloats = plan_split_floats(&pl);
    if (pl.packx || pl.packy) {
        CLDNN_TRY(cldnn_kernel_get(h, "gemm/gemm_cpu.cl", opts, "gemm_cpu_pack", &kp));
        if (!h->prepare_only)
            CLDNN_TRY(cldnn_scratch_get(h, (size_t)((wfloats + plan_floats(&pl, p, pr->k)) * sizeof(float)), &P));
    }
    /* Strides of A'(m, k) and B'(k, n), as rows (m, n) and k. */
    const int64_t a_sm = pr->trans_a ? pr->lda : 1, a_sk = pr->trans_a ? 1 : pr->lda;
    const int64_t b_sn = pr->trans_b ? 1 : pr->ldb, b_sk = pr->trans_b ? pr->ldb : 1;
    const int ny = p->yb * p->nr; /* C's extent along y per work-item */
    cldnn_gemm_launch L = {k, "gemm_cpu", p->swap ? ny : p->mr, p->swap ? p->mr : ny, 1, (int)pl.nsplit, {1, 1, 1},
                           reduce_opts, pl.kmax};
    for (int64_t b0 = 0; b0 < pr->batch; b0 += pl.batch)
        for (int64_t x0 = 0; x0 < pl.xt; x0 += pl.xrows) {
            cldnn_gemm_problem q;
            cldnn_epilogue e;
            const int64_t nb = pr->batch - b0 < pl.batch ? pr->batch - b0 : pl.batch;
            piece(pr, p->swap, b0, nb, x0, pl.xt - x0 < pl.xrows ? pl.xt - x0 : pl.xrows, &q, &e);
            const int64_t xt = p->swap ? q.n : q.m, yt = p->swap ? q.m : q.n;
            /* The split's partial sums (gemm_launch.c puts them at the scratch's start), X's panels
            ** for the largest piece, then Y's, made once per batch chunk. */
            cl_ulong px_off = wfloats;
            cl_ulong py_off = px_off + (pl.packx ? (cl_ulong)((uint64_t)pl.batch * (uint64_t)round_up(pl.xrows, p->mr) * (uint64_t)q.k) : 0);
            /* X: rows along the vector dimension (A' by m, or B'^T by n with swap); Y the other. */
            if (pl.packx)
                CLDNN_TRY(p->swap ? pack(h, kp, b->b, q.off_b, q.stride_b, b_sn, b_sk, xt, p->mr, q.k, nb, P, px_off)
                                  : pack(h, kp, b->a, q.off_a, q.stride_a, a_sm, a_sk, xt, p->mr, q.k, nb, P, px_off));
            if (pl.packy && x0 == 0)
                CLDNN_TRY(p->swap ? pack(h, kp, b->a, q.off_a, q.stride_a, a_sm, a_sk, yt, p->nr, q.k, nb, P, py_off)
                                  : pack(h, kp, b->b, q.off_b, q.stride_b, b_sn, b_sk, yt, p->nr, q.k, nb, P, py_off));
            /* gemm_cpu's arguments after gemm_tiled's list (kernels/gemm/gemm_cpu.cl), in its order. */
            CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 20, CLDNN_ARG(P), CLDNN_ARG(px_off), CLDNN_ARG(py_off)));
            CLDNN_TRY(cldnn_gemm_launch_run(h, &q, b, &L));
        }
    return CLDNN_STATUS_SUCCESS;
}

/* ---- the solver record's hooks (gemm.c's table) */

int cldnn_gemm_cpu_applicable(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_gemm_problem* pr = (const cldnn_gemm_problem*)problem;
    if (!dev->is_cpu)
        return 0;
    cldnn_gemm_cpu_params p;
    cpu_plan pl;
    cldnn_gemm_cpu_params_select(pr, dev, &p);
    return plan(pr, &p, dev, &pl);
}

void cldnn_gemm_cpu_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    cldnn_gemm_cpu_params_select((const cldnn_gemm_problem*)problem, dev, (cldnn_gemm_cpu_params*)params);
}

cldnnStatus_t cldnn_gemm_cpu_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    return cldnn_gemm_cpu_run_params(h, (const cldnn_gemm_problem*)problem, (const cldnn_gemm_cpu_params*)params,
                                     (const cldnn_gemm_buffers*)buffers);
}

int cldnn_gemm_cpu_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    cpu_plan pl;
    return cldnn_gemm_cpu_params_valid((const cldnn_gemm_cpu_params*)params) &&
           plan((const cldnn_gemm_problem*)problem, (const cldnn_gemm_cpu_params*)params, dev, &pl);
}

/* The declared space for a problem on dev: register blocks of native vectors that the ISA's
** registers hold (between 6 and all but four of them as accumulators; the most accumulators
** first), bands of 8 blocks or none, k unrolled 4 times; first every block with the layout rule,
** then every other packing choice and orientation (those the plan runs differently). */
size_t cldnn_gemm_cpu_enumerate(const void* problem, const cldnn_device_profile* dev, void* out, size_t max) {
    const cldnn_gemm_problem* pr = (const cldnn_gemm_problem*)problem;
    cldnn_gemm_cpu_params* q = (cldnn_gemm_cpu_params*)out;
    const int w = native_width(dev), regs = vector_registers(dev);
    static const int nrs[] = {16, 14, 12, 8, 6, 4, 3, 2};
    static const int mcbs[] = {8, 0};
    cldnn_gemm_cpu_params rule = {0, 0, 0, 0, 0, -1, -1, -1, -1};
    cldnn_gemm_cpu_params_layout(pr, &rule);
    size_t n = 0;
    for (int phase = 0; phase < 2; ++phase)
        for (int acc = regs - 4; acc >= 6; --acc)
            for (int mv = 1; mv <= 4; ++mv)
                for (size_t a = 0; a < sizeof nrs / sizeof nrs[0]; ++a)
                    for (size_t d = 0; d < 2; ++d)
                        for (int lay = 0; lay < 8; ++lay) {
                            cldnn_gemm_cpu_params p = {mv * w, nrs[a], w, 4, mcbs[d], rule.yb, lay & 1,
                                                       (lay >> 1) & 1, lay >> 2};
                            const int is_rule = p.packx == rule.packx && p.packy == rule.packy && p.swap == rule.swap;
                            if (mv * p.nr != acc || is_rule != (phase == 0) || !cldnn_gemm_cpu_valid(pr, dev, &p))
                                continue;
                            cpu_plan pl;
                            plan(pr, &p, dev, &pl);
                            if (pl.packx != p.packx || pl.packy != p.packy) /* the same run as another set */
                                continue;
                            if (n < max)
                                q[n] = p;
                            n++;
                        }
    return n;
}
