/*
** gemm_cpu.c: the GEMM family's solver for CPU devices (kernels/gemm/gemm_cpu.cl), BLIS's shape:
** a register block per work-item with explicit vectors, no local memory, no barrier.
**
** Chosen by the device profile: it applies on CPU devices only and ranks before gemm_tiled. A run
** decides, per problem, which operand is read as vectors (the one unit-stride along C's rows or
** columns: the parameters' swap says which when both are) and which operands go through panels
** that gemm_cpu_pack writes into the handle's scratch in the micro-kernel's order: an operand the
** parameters ask to pack, the vector operand when it is not unit-stride along its rows (TN), and
** any operand smaller than its register block. Packing costs a read and a write of the operand;
** it pays where the unpacked reads would stride through memory (power-of-two leading dimensions
** alias in the caches, a new page per k) and loses on thin products whose large operand is read
** once (perf/results/cpu-gemm.md). Batches of products whose panels exceed the scratch's cap run
** in chunks; one product's panels that exceed it run unpacked where the layout allows.
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
    int swap;          /* vector dimension along n */
    int64_t xt, yt;    /* extents along the vector and the broadcast dimension */
    int packx, packy;  /* panels in the scratch */
    uint64_t per_product; /* floats of panels per product */
} cpu_plan;

static int64_t round_up(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

/* 1 when the plan's packing fits the scratch for at least one product. */
static int plan(const cldnn_gemm_problem* pr, const cldnn_gemm_cpu_params* p, cpu_plan* o) {
    o->swap = p->swap;
    o->xt = p->swap ? pr->n : pr->m;
    o->yt = p->swap ? pr->m : pr->n;
    const int x_unit = p->swap ? pr->trans_b : !pr->trans_a;
    const int need_x = !x_unit || o->xt < p->mr, need_y = o->yt < p->nr;
    o->packx = p->packx || need_x;
    o->packy = p->packy || need_y;
    const uint64_t cap = CLDNN_SCRATCH_MAX / sizeof(float);
    const uint64_t fx = (uint64_t)round_up(o->xt, p->mr) * (uint64_t)pr->k;
    const uint64_t fy = (uint64_t)round_up(o->yt, p->nr) * (uint64_t)pr->k;
    /* Optional packing gives way first, the larger operand's first. */
    for (int tries = 0; tries < 3; ++tries) {
        o->per_product = (o->packx ? fx : 0) + (o->packy ? fy : 0);
        if (o->per_product <= cap)
            return 1;
        if (o->packx && !need_x && (fx >= fy || !o->packy || need_y))
            o->packx = 0;
        else if (o->packy && !need_y)
            o->packy = 0;
    }
    return 0;
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
    return p->mcb >= 0 && p->mcb <= 4096 && (p->packx & ~1) == 0 && (p->packy & ~1) == 0 && (p->swap & ~1) == 0;
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

/* The device table: rows found by cldnn-tune gemm (perf/results/cpu-gemm.md), keyed by a platform
** name substring, a device name substring ("" any) and the native float vector width (0 any), one
** set per shape class (cldnn_gemm_classify), applied after the problem's transposes decide swap. */
typedef struct {
    const char* platform;
    const char* device;
    int native;
    cldnn_gemm_cpu_params p[CLDNN_GEMM_CLASSES];
} cpu_table_row;

/* mr nr vw ku mcb packx packy swap */
static const cpu_table_row cpu_table[] = {
    {"", "", 8,
     {{16, 6, 8, 4, 8, 1, 1, 0},
      {16, 6, 8, 4, 8, 1, 1, 0},
      {16, 6, 8, 4, 8, 1, 1, 0},
      {16, 6, 8, 4, 8, 1, 1, 0},
      {16, 6, 8, 4, 0, 0, 1, 0},
      {16, 6, 8, 4, 8, 1, 1, 0}}},
};

/* The defaults where no row matches: the register block the ISA's registers hold (MR / VW * NR
** accumulators, four registers left for the operands), both operands packed, 8-block bands. */
static void cpu_fallback(const cldnn_device_profile* dev, cldnn_gemm_cpu_params* p) {
    const int w = native_width(dev);
    cldnn_gemm_cpu_params d = {2 * w, vector_registers(dev) >= 32 ? 12 : 6, w, 4, 8, 1, 1, 0};
    *p = d;
}

static int row_matches(const cpu_table_row* r, const cldnn_device_profile* dev) {
    return strstr(dev->platform_name, r->platform) != NULL && strstr(dev->name, r->device) != NULL &&
           (r->native == 0 || r->native == native_width(dev));
}

/* Where the transposes leave one operand unit-stride along C's rows or columns, it is the vector
** operand: swap set for TT (B' unit along n), cleared for NN; NT keeps the table's choice; TN
** packs either way and keeps it. */
static void orient(const cldnn_gemm_problem* pr, cldnn_gemm_cpu_params* p) {
    if (!pr->trans_a && !pr->trans_b)
        p->swap = 0;
    else if (pr->trans_a && pr->trans_b)
        p->swap = 1;
}

void cldnn_gemm_cpu_params_select(const cldnn_gemm_problem* pr, const cldnn_device_profile* dev,
                                  cldnn_gemm_cpu_params* out) {
    const cldnn_gemm_class c = cldnn_gemm_classify(pr);
    cpu_fallback(dev, out);
    for (size_t i = 0; i < sizeof cpu_table / sizeof cpu_table[0]; ++i)
        if (row_matches(&cpu_table[i], dev) && cldnn_gemm_cpu_params_valid(&cpu_table[i].p[c])) {
            *out = cpu_table[i].p[c];
            break;
        }
    orient(pr, out);
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

cldnnStatus_t cldnn_gemm_cpu_run_params(cldnnHandle_t h, const cldnn_gemm_problem* pr,
                                        const cldnn_gemm_cpu_params* params, const cldnn_gemm_buffers* b) {
    char ps[96];
    cldnn_gemm_cpu_params_format(params, ps, sizeof ps);
    cpu_plan pl;
    if (!cldnn_gemm_cpu_params_valid(params))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "CPU GEMM parameters %s are not valid", ps);
    if (!plan(pr, params, &pl))
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                          "CPU GEMM parameters %s: the %lld x %lld x %lld product's panels exceed the %zu MiB scratch",
                          ps, (long long)pr->m, (long long)pr->n, (long long)pr->k, CLDNN_SCRATCH_MAX >> 20);
    const cldnn_gemm_cpu_params* p = params;
    char opts[400];
    snprintf(opts, sizeof opts,
             "-DVW=%d -DMR=%d -DNR=%d -DKU=%d -DMCB=%d -DPACK_X=%d -DPACK_Y=%d -DSWAP=%d -DA_TRANS=%d "
             "-DB_TRANS=%d%s%s",
             p->vw, p->mr, p->nr, p->ku, p->mcb, pl.packx, pl.packy, pl.swap, pr->trans_a, pr->trans_b,
             cldnn_dtype_build_option(pr->dtype),
             pr->dtype != CLDNN_DATA_FLOAT && pr->dtype_c == CLDNN_DATA_FLOAT ? " -DC_HALF=0" : "");
    cldnn_epilogue_options(pr->epi, opts, sizeof opts);
    cl_kernel k, kp = NULL;
    CLDNN_TRY(cldnn_kernel_get(h, "gemm/gemm_cpu.cl", opts, "gemm_cpu", &k));
    if (pl.packx || pl.packy)
        CLDNN_TRY(cldnn_kernel_get(h, "gemm/gemm_cpu.cl", opts, "gemm_cpu_pack", &kp));

    /* Products per pass: as many as the scratch holds. */
    int64_t chunk = pr->batch;
    cl_mem P = b->a;
    if (pl.per_product > 0) {
        const uint64_t cap = CLDNN_SCRATCH_MAX / sizeof(float);
        if ((uint64_t)chunk * pl.per_product > cap)
            chunk = (int64_t)(cap / pl.per_product);
        if (!h->prepare_only)
            CLDNN_TRY(cldnn_scratch_get(h, (size_t)((uint64_t)chunk * pl.per_product * sizeof(float)), &P));
    }
    const int64_t xpanels = (pl.xt + p->mr - 1) / p->mr;
    cl_ulong px_off = 0, py_off = pl.packx ? (cl_ulong)((uint64_t)chunk * (uint64_t)(xpanels * p->mr) * (uint64_t)pr->k) : 0;
    /* Strides of A'(m, k) and B'(k, n), as rows (m, n) and k. */
    const int64_t a_sm = pr->trans_a ? pr->lda : 1, a_sk = pr->trans_a ? 1 : pr->lda;
    const int64_t b_sn = pr->trans_b ? 1 : pr->ldb, b_sk = pr->trans_b ? pr->ldb : 1;
    cldnn_gemm_launch L = {k, "gemm_cpu", pl.swap ? p->nr : p->mr, pl.swap ? p->mr : p->nr, 1, 1, {1, 1, 1}, opts};

    for (int64_t b0 = 0; b0 < pr->batch; b0 += chunk) {
        cldnn_gemm_problem q = *pr;
        cldnn_epilogue e;
        q.batch = pr->batch - b0 < chunk ? pr->batch - b0 : chunk;
        q.off_a += (uint64_t)(b0 * pr->stride_a);
        q.off_b += (uint64_t)(b0 * pr->stride_b);
        q.off_c += (uint64_t)(b0 * pr->stride_c);
        if (pr->epi) {
            e = *pr->epi;
            e.z_off += (uint64_t)(b0 * pr->stride_c);
            q.epi = &e;
        }
        /* X: rows along the vector dimension (A' by m, or B'^T by n with swap); Y the other. */
        if (pl.packx)
            CLDNN_TRY(pl.swap ? pack(h, kp, b->b, q.off_b, q.stride_b, b_sn, b_sk, q.n, p->mr, q.k, q.batch, P, px_off)
                              : pack(h, kp, b->a, q.off_a, q.stride_a, a_sm, a_sk, q.m, p->mr, q.k, q.batch, P, px_off));
        if (pl.packy)
            CLDNN_TRY(pl.swap ? pack(h, kp, b->a, q.off_a, q.stride_a, a_sm, a_sk, q.m, p->nr, q.k, q.batch, P, py_off)
                              : pack(h, kp, b->b, q.off_b, q.stride_b, b_sn, b_sk, q.n, p->nr, q.k, q.batch, P, py_off));
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
    return plan(pr, &p, &pl);
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
    (void)dev;
    return cldnn_gemm_cpu_params_valid((const cldnn_gemm_cpu_params*)params) &&
           plan((const cldnn_gemm_problem*)problem, (const cldnn_gemm_cpu_params*)params, &pl);
}

/* The declared space for a problem on dev: register blocks that the ISA's registers hold (between
** 6 and all but four of them as accumulators, in native vectors), the vector width native or
** twice native, k unroll 4 or 1, bands of 8 blocks or none, each packing choice the layout
** leaves open, and both orientations for NT. Larger register blocks first. */
size_t cldnn_gemm_cpu_enumerate(const void* problem, const cldnn_device_profile* dev, void* out, size_t max) {
    const cldnn_gemm_problem* pr = (const cldnn_gemm_problem*)problem;
    cldnn_gemm_cpu_params* q = (cldnn_gemm_cpu_params*)out;
    const int w = native_width(dev), regs = vector_registers(dev);
    static const int nrs[] = {16, 14, 12, 8, 6, 4, 3, 2};
    static const int kus[] = {4, 1};
    static const int mcbs[] = {8, 0};
    size_t n = 0;
    for (int mv = 4; mv >= 1; --mv)
        for (size_t a = 0; a < sizeof nrs / sizeof nrs[0]; ++a)
            for (int vw = w; vw <= 2 * w && vw <= 16; vw *= 2)
                for (size_t c = 0; c < 2; ++c)
                    for (size_t d = 0; d < 2; ++d)
                        for (int pk = 3; pk >= 0; --pk)
                            for (int sw = 0; sw < 2; ++sw) {
                                cldnn_gemm_cpu_params p = {mv * w, nrs[a], vw, kus[c], mcbs[d], pk & 1, pk >> 1, sw};
                                const int acc = mv * p.nr;
                                if (acc < 6 || acc > regs - 4 || p.mr % p.vw)
                                    continue;
                                cldnn_gemm_cpu_params t = p;
                                orient(pr, &t);
                                if (t.swap != p.swap || !cldnn_gemm_cpu_valid(pr, dev, &p))
                                    continue;
                                cpu_plan pl;
                                plan(pr, &p, &pl);
                                if (pl.packx != p.packx || pl.packy != p.packy) /* the same run as another set */
                                    continue;
                                if (n < max)
                                    q[n] = p;
                                n++;
                            }
    return n;
}
