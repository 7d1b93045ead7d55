/*
** attn.c: the `attn` mode of cldnn-bench: cldnnAttentionForward and cldnnAttentionBackward.
**
**   cldnn-bench attn [-b B] [--heads H] [--hkv HKV] [--sq SQ] [--sk SK] [--hd D] [--dv DV] [--causal 0|1]
**                    [--dropout P] [--scale S] [--dir fwd|bwd|fwdbwd] [--layout bhsd|bshd]
**                    [--math default|tensor|fma] [--det 0|1] [common flags]
**
** Flag names: -h and -L are common flags (help, NCHW|NHWC) and -d is the data type, so the heads are
** --heads, the head sizes --hd / --dv, the memory order --layout (bhsd: B,H,S,D packed; bshd: B,S,H,D
** packed, as PyTorch's (B, S, H, D) tensors). Q, K, V and dO are uniform in [-1, 1) rounded to the
** data type. --dir bwd times the backward alone (after one forward for O and the statistics);
** fwdbwd times both calls. --det 1 sets the descriptor DETERMINISTIC (cldnnSetAttentionDescriptor-
** Determinism); without it the library may sum dQ by atomic adds, as PyTorch's kernels do.
**
** Verification (-V 1, un-timed): batch 0 and the query heads of kv head 0 against the double
** reference of tests/ref/ref_attn.c (which materialises the probabilities, so it stays affordable
** at S = 8192): O and the statistics, and for bwd / fwdbwd dQ, dK and dV; with dropout the mask is
** the host build of kernels/common/philox.h at cldnnDropout's index ((b*H + h)*Sq + i)*Sk + j.
** Tolerance: the data type's (main.c) times the size of the terms: |O| and its row's scale; FLOAT
** under --math tensor half's (TF32 keeps half's 10 bits).
**
** FLOPs counted (the usual attention convention): forward 2 B H Sq Sk (D + Dv) (4 B H S^2 D at
** D = Dv), halved when causal; backward 2.5 x the forward; fwdbwd 3.5 x. TFLOP/s = FLOPs / time.
** The markdown row: | B | H | Hkv | Sq | Sk | D | Dv | causal | dropout | dir | layout | dtype |
** time (ms) | TFLOP/s | verify |, the row perf/baselines/torch_attn.py prints and joins on.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/common/philox.h"
#include "common.h"
#include "ref_attn.h"

static const bench_flag k_flags[] = {
    {"-b", BENCH_FLAG_INT, "8", "batch B"},
    {"--heads", BENCH_FLAG_INT, "16", "query heads H"},
    {"--hkv", BENCH_FLAG_INT, NULL, "key / value heads (a divisor of H; default H)"},
    {"--sq", BENCH_FLAG_INT, "1024", "query length Sq"},
    {"--sk", BENCH_FLAG_INT, NULL, "key length Sk (default Sq)"},
    {"--hd", BENCH_FLAG_INT, "64", "head size D of Q and K"},
    {"--dv", BENCH_FLAG_INT, NULL, "head size Dv of V and O (default D)"},
    {"--causal", BENCH_FLAG_INT, "0", "0|1 causal mask (bottom-right aligned)"},
    {"--dropout", BENCH_FLAG_DOUBLE, "0", "dropout probability on the softmax in [0, 1)"},
    {"--drop-seed", BENCH_FLAG_INT, "1234", "the dropout generator's seed"},
    {"--drop-offset", BENCH_FLAG_INT, "0", "the dropout generator's offset"},
    {"--scale", BENCH_FLAG_DOUBLE, NULL, "score scale (default 1 / sqrt(D))"},
    {"--dir", BENCH_FLAG_STRING, "fwd", "fwd|bwd|fwdbwd"},
    {"--layout", BENCH_FLAG_STRING, "bhsd", "bhsd|bshd memory order of every tensor"},
    {"--math", BENCH_FLAG_STRING, "default",
     "default|tensor|fma: the descriptor's math type (tensor: TF32 / FP16 / BF16 tensor cores where the device "
     "has them; default: float as 3xTF32 there; fma: FP32 FMAs)"},
    {"--det", BENCH_FLAG_INT, "0",
     "1: a DETERMINISTIC descriptor (the backward's sums in a fixed order); 0: the library may sum dQ by atomic adds"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

enum { T_Q, T_K, T_V, T_O, T_DO, T_DQ, T_DK, T_DV, T_N };

typedef struct {
    cldnnHandle_t handle;
    cldnnAttentionDescriptor_t ad;
    cldnnTensorDescriptor_t desc[T_N], sdesc;
    cl_mem mem[T_N], stats, ws;
    size_t wsize;
    int fwd, bwd;
} at_call;

static cldnnStatus_t at_forward(at_call* c) {
    return cldnnAttentionForward(c->handle, c->ad, c->desc[T_Q], c->mem[T_Q], 0, c->desc[T_K], c->mem[T_K], 0,
                                 c->desc[T_V], c->mem[T_V], 0, c->desc[T_O], c->mem[T_O], 0, c->sdesc, c->stats, 0,
                                 c->ws, 0, c->wsize);
}

static cldnnStatus_t at_backward(at_call* c) {
    return cldnnAttentionBackward(c->handle, c->ad, c->desc[T_Q], c->mem[T_Q], 0, c->desc[T_K], c->mem[T_K], 0,
                                  c->desc[T_V], c->mem[T_V], 0, c->desc[T_O], c->mem[T_O], 0, c->desc[T_DO],
                                  c->mem[T_DO], 0, c->sdesc, c->stats, 0, c->desc[T_DQ], c->mem[T_DQ], 0,
                                  c->desc[T_DK], c->mem[T_DK], 0, c->desc[T_DV], c->mem[T_DV], 0, c->ws, 0, c->wsize);
}

static cldnnStatus_t at_once(void* user) {
    at_call* c = user;
    cldnnStatus_t st = CLDNN_STATUS_SUCCESS;
    if (c->fwd) st = at_forward(c);
    if (st == CLDNN_STATUS_SUCCESS && c->bwd) st = at_backward(c);
    return st;
}

/* Strides of a B x heads x S x d tensor in memory order bshd (1) or bhsd (0). */
static void at_strides(int bshd, int64_t B, int64_t heads, int64_t S, int64_t d, int64_t* st) {
    (void)B;
    st[3] = 1;
    st[2] = bshd ? heads * d : d;
    st[1] = bshd ? d : S * d;
    st[0] = heads * S * d;
}

/* The slice [0, 1) x [h0, h0 + nh) x S x d of a host tensor (strides st) as packed doubles. */
static double* at_slice(const float* x, const int64_t* st, int h0, int nh, int S, int d) {
    double* out = malloc(sizeof(double) * (size_t)nh * (size_t)S * (size_t)d);
    if (!out) return NULL;
    size_t n = 0;
    for (int h = h0; h < h0 + nh; h++)
        for (int s = 0; s < S; s++)
            for (int e = 0; e < d; e++) out[n++] = x[h * st[1] + s * st[2] + e * st[3]];
    return out;
}

/* Compares got (device layout, strides st) over the slice with want (packed); scale[i]: the size of
** element i's terms. Returns the failures. */
static int64_t at_check(const bench_opts* o, const char* what, const float* got, const int64_t* st, int nh, int S,
                        int d, const double* want, bench_result* r) {
    int64_t n = (int64_t)nh * S * d;
    float* g = malloc(sizeof(float) * (size_t)n);
    double* scale = malloc(sizeof(double) * (size_t)n);
    double mx = 0;
    for (int64_t i = 0; i < n; i++) mx = fabs(want[i]) > mx && isfinite(want[i]) ? fabs(want[i]) : mx;
    int64_t k = 0;
    for (int h = 0; h < nh; h++)
        for (int s = 0; s < S; s++)
            for (int e = 0; e < d; e++, k++) {
                g[k] = got[h * st[1] + s * st[2] + e * st[3]];
                scale[k] = fabs(want[k]) + 0.05 * mx + 1e-30;
            }
    int64_t bad = bench_check_scaled(o, "attn", what, g, NULL, want, scale, n, 4.0, r);
    free(g);
    free(scale);
    return bad;
}

static void attn_md_header(void) {
    printf("| B | H | Hkv | Sq | Sk | D | Dv | causal | dropout | dir | layout | dtype | time (ms) | TFLOP/s | verify |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---:|---:|---|\n");
}

typedef struct {
    int B, H, Hkv, Sq, Sk, D, Dv, causal, bshd;
    double p, scale;
    uint64_t seed, offset;
    const char* dir;
} at_shape;

static void attn_report(const bench_opts* o, const at_shape* s, const bench_result* r, double flops) {
    char t[32] = "-", tf[32] = "-", v[256] = "-";
    if (r->us > 0) {
        snprintf(t, sizeof t, "%.4f", r->us * 1e-3);
        snprintf(tf, sizeof tf, "%.4g", flops / (r->us * 1e-6) / 1e12);
    }
    if (r->check == BENCH_CHECK_PASS) snprintf(v, sizeof v, "PASS (%.2f)", r->tol_use);
    else if (r->check == BENCH_CHECK_FAIL) snprintf(v, sizeof v, "FAIL (%.3g; %lld bad)", r->tol_use, (long long)r->bad);
    if (r->note[0]) snprintf(v + strlen(v), sizeof v - strlen(v), " %s", r->note);
    if (o->md)
        printf("| %d | %d | %d | %d | %d | %d | %d | %d | %g | %s | %s | %s | %s | %s | %s |\n", s->B, s->H, s->Hkv,
               s->Sq, s->Sk, s->D, s->Dv, s->causal, s->p, s->dir, s->bshd ? "bshd" : "bhsd",
               bench_dtype_name(o->dtype), t, tf, v);
    else
        printf("attn b%d h%d hkv%d sq%d sk%d d%d dv%d causal%d p%g %s %s %s  %s ms  %s TFLOP/s  verify %s\n", s->B,
               s->H, s->Hkv, s->Sq, s->Sk, s->D, s->Dv, s->causal, s->p, s->dir, s->bshd ? "bshd" : "bhsd",
               bench_dtype_name(o->dtype), t, tf, v);
    fflush(stdout);
}

/* Verifies batch 0, the query heads of kv head 0 (see the file comment). Returns 1 on failure. */
static int at_verify(bench_ctx* ctx, const bench_opts* o, const at_shape* s, at_call* c, float* const* host,
                     int64_t (*st)[4], const size_t* n, bench_result* r) {
    const int G = s->H / s->Hkv;
    ref_attn ra = {1, G, 1, s->Sq, s->Sk, s->D, s->Dv, s->scale, s->causal};
    cldnnStatus_t stt = at_forward(c);
    if (stt == CLDNN_STATUS_SUCCESS && c->bwd) stt = at_backward(c);
    if (stt != CLDNN_STATUS_SUCCESS) return bench_note_status(r, c->bwd ? "cldnnAttentionBackward" : "cldnnAttentionForward", stt);
    double *q = at_slice(host[T_Q], st[T_Q], 0, G, s->Sq, s->D), *k = at_slice(host[T_K], st[T_K], 0, 1, s->Sk, s->D);
    double *v = at_slice(host[T_V], st[T_V], 0, 1, s->Sk, s->Dv), *z = NULL;
    double* want = malloc(sizeof(double) * (size_t)G * s->Sq * (s->D > s->Dv ? s->D : s->Dv));
    double* lse = malloc(sizeof(double) * (size_t)G * s->Sq);
    float* got = bench_alloc(n[T_O] > n[T_Q] ? (n[T_O] > n[T_K] ? n[T_O] : n[T_K]) : (n[T_Q] > n[T_K] ? n[T_Q] : n[T_K]), sizeof(float));
    float* gst = bench_alloc((size_t)s->B * s->H * s->Sq, sizeof(float));
    int fail = 1;
    if (!q || !k || !v || !want || !lse || !got || !gst) goto out;
    if (s->p > 0) {
        const uint32_t gen[4] = {(uint32_t)s->seed, (uint32_t)(s->seed >> 32), (uint32_t)s->offset,
                                 (uint32_t)(s->offset >> 32)};
        const uint32_t thresh = (uint32_t)floor((double)(float)s->p * 4294967296.0);
        const double rs = (double)(float)(1.0 / (1.0 - (double)(float)s->p));
        if (!(z = malloc(sizeof(double) * (size_t)G * s->Sq * s->Sk))) goto out;
        uint32_t blk[4] = {0, 0, 0, 0};
        uint64_t cached = ~(uint64_t)0;
        size_t m = 0;
        for (int h = 0; h < G; h++)
            for (int i = 0; i < s->Sq; i++)
                for (int j = 0; j < s->Sk; j++)
                    z[m++] = philox_dropout_keep(blk, &cached, gen, thresh,
                                                 ((uint64_t)h * (uint64_t)s->Sq + (uint64_t)i) * (uint64_t)s->Sk + (uint64_t)j)
                                 ? rs : 0.0;
    }
    int64_t bad = 0;
    ref_attn_forward(&ra, q, k, v, z, want, lse);
    if (bench_download(ctx, c->mem[T_O], o->dtype, got, n[T_O])) goto out;
    bad += at_check(o, "O", got, st[T_O], G, s->Sq, s->Dv, want, r);
    if (bench_download(ctx, c->stats, CLDNN_DATA_FLOAT, gst, (size_t)s->B * s->H * s->Sq)) goto out;
    for (int64_t i = 0; i < (int64_t)G * s->Sq; i++) /* stats packed B x H x Sq: batch 0 first */
        if (!(isinf(lse[i]) ? isinf(gst[i]) : fabs(gst[i] - lse[i]) <= 1e-3 * (1 + fabs(lse[i])))) {
            if (bad++ == 0) fprintf(stderr, "cldnn-bench attn: stats[%lld] %.7g, want %.7g\n", (long long)i, gst[i], lse[i]);
            r->check = BENCH_CHECK_FAIL;
        }
    if (c->bwd) {
        double* dout = at_slice(host[T_DO], st[T_DO], 0, G, s->Sq, s->Dv);
        double* gq = malloc(sizeof(double) * (size_t)G * s->Sq * s->D);
        double* gk = malloc(sizeof(double) * (size_t)s->Sk * s->D);
        double* gv = malloc(sizeof(double) * (size_t)s->Sk * s->Dv);
        if (dout && gq && gk && gv) {
            ref_attn_backward(&ra, q, k, v, z, dout, gq, gk, gv);
            if (!bench_download(ctx, c->mem[T_DQ], o->dtype, got, n[T_Q]))
                bad += at_check(o, "dQ", got, st[T_Q], G, s->Sq, s->D, gq, r);
            if (!bench_download(ctx, c->mem[T_DK], o->dtype, got, n[T_K]))
                bad += at_check(o, "dK", got, st[T_K], 1, s->Sk, s->D, gk, r);
            if (!bench_download(ctx, c->mem[T_DV], o->dtype, got, n[T_V]))
                bad += at_check(o, "dV", got, st[T_V], 1, s->Sk, s->Dv, gv, r);
        }
        free(dout);
        free(gq);
        free(gk);
        free(gv);
    }
    r->bad = bad;
    r->check = bad ? BENCH_CHECK_FAIL : BENCH_CHECK_PASS;
    fail = bad != 0;
out:
    free(q);
    free(k);
    free(v);
    free(z);
    free(want);
    free(lse);
    free(got);
    free(gst);
    return fail;
}

static int attn_run(bench_ctx* ctx, const bench_opts* o, const bench_args* args) {
    at_shape s;
    s.B = (int)bench_arg_int(args, "-b", 8);
    s.H = (int)bench_arg_int(args, "--heads", 16);
    s.Hkv = (int)bench_arg_int(args, "--hkv", s.H);
    s.Sq = (int)bench_arg_int(args, "--sq", 1024);
    s.Sk = (int)bench_arg_int(args, "--sk", s.Sq);
    s.D = (int)bench_arg_int(args, "--hd", 64);
    s.Dv = (int)bench_arg_int(args, "--dv", s.D);
    s.causal = (int)bench_arg_int(args, "--causal", 0);
    s.p = bench_arg_double(args, "--dropout", 0);
    s.seed = (uint64_t)bench_arg_int(args, "--drop-seed", 1234);
    s.offset = (uint64_t)bench_arg_int(args, "--drop-offset", 0);
    s.scale = bench_arg_double(args, "--scale", 1.0 / sqrt((double)s.D));
    s.dir = bench_arg_str(args, "--dir");
    const char* lay = bench_arg_str(args, "--layout");
    if (strcmp(s.dir, "fwd") && strcmp(s.dir, "bwd") && strcmp(s.dir, "fwdbwd")) {
        fprintf(stderr, "cldnn-bench attn: --dir %s: expected fwd, bwd or fwdbwd\n", s.dir);
        return 2;
    }
    if (strcmp(lay, "bhsd") && strcmp(lay, "bshd")) {
        fprintf(stderr, "cldnn-bench attn: --layout %s: expected bhsd or bshd\n", lay);
        return 2;
    }
    if (s.B < 1 || s.H < 1 || s.Hkv < 1 || s.Sq < 1 || s.Sk < 1 || s.D < 1 || s.Dv < 1) {
        fprintf(stderr, "cldnn-bench attn: every size must be at least 1\n");
        return 2;
    }
    cldnnMathType_t math;
    if (bench_parse_math("attn", bench_arg_str(args, "--math"), &math)) return 2;
    const int64_t det = bench_arg_int(args, "--det", 0);
    if (det != 0 && det != 1) {
        fprintf(stderr, "cldnn-bench attn: --det %lld: expected 0 or 1\n", (long long)det);
        return 2;
    }
    s.bshd = strcmp(lay, "bshd") == 0;
    at_call c;
    memset(&c, 0, sizeof c);
    c.handle = ctx->handle;
    c.fwd = strcmp(s.dir, "bwd") != 0;
    c.bwd = strcmp(s.dir, "fwd") != 0;
    bench_result res;
    bench_result_init(&res, "attn", o);
    const double fwd_flops = 2.0 * s.B * s.H * (double)s.Sq * s.Sk * (s.D + s.Dv) * (s.causal ? 0.5 : 1.0);
    const double flops = fwd_flops * ((c.fwd ? 1.0 : 0.0) + (c.bwd ? 2.5 : 0.0));
    const int heads[T_N] = {s.H, s.Hkv, s.Hkv, s.H, s.H, s.H, s.Hkv, s.Hkv};
    const int lens[T_N] = {s.Sq, s.Sk, s.Sk, s.Sq, s.Sq, s.Sq, s.Sk, s.Sk};
    const int hds[T_N] = {s.D, s.D, s.Dv, s.Dv, s.Dv, s.D, s.D, s.Dv};
    int64_t st[T_N][4];
    size_t n[T_N];
    float* host[T_N] = {NULL};
    int fail = 1;
    cldnnStatus_t stt = cldnnCreateAttentionDescriptor(&c.ad);
    if (stt == CLDNN_STATUS_SUCCESS)
        stt = cldnnSetAttentionDescriptor(c.ad, (float)s.scale, s.causal, (float)s.p, s.seed, s.offset, math);
    if (stt == CLDNN_STATUS_SUCCESS)
        stt = cldnnSetAttentionDescriptorDeterminism(c.ad, det ? CLDNN_DETERMINISTIC : CLDNN_NON_DETERMINISTIC);
    if (stt != CLDNN_STATUS_SUCCESS) {
        bench_print_status("cldnnSetAttentionDescriptor", stt);
        goto out;
    }
    ref_rng rng;
    ref_rng_seed(&rng, o->seed);
    for (int t = 0; t < T_N; t++) {
        if (!c.bwd && t >= T_DO) break;
        at_strides(s.bshd, s.B, heads[t], lens[t], hds[t], st[t]);
        n[t] = (size_t)s.B * heads[t] * lens[t] * hds[t];
        int64_t dims[4] = {s.B, heads[t], lens[t], hds[t]};
        if (cldnnCreateTensorDescriptor(&c.desc[t]) != CLDNN_STATUS_SUCCESS ||
            cldnnSetTensorNdDescriptor(c.desc[t], o->dtype, 4, dims, st[t]) != CLDNN_STATUS_SUCCESS) {
            bench_print_status("cldnnSetTensorNdDescriptor", CLDNN_STATUS_BAD_PARAM);
            goto out;
        }
        if (!(c.mem[t] = bench_buffer(ctx, n[t] * o->elem_size)) || !(host[t] = bench_alloc(n[t], sizeof(float))))
            goto out;
        if (t == T_O || t >= T_DQ) ref_fill_nan(host[t], n[t]);
        else ref_fill_uniform(&rng, host[t], n[t], -1.0, 1.0);
        bench_round(o->dtype, host[t], n[t]);
        if (bench_upload(ctx, c.mem[t], o->dtype, host[t], n[t])) goto out;
    }
    {
        int64_t sdims[4] = {s.B, s.H, s.Sq, 1}, sst[4] = {(int64_t)s.H * s.Sq, s.Sq, 1, 1};
        if (cldnnCreateTensorDescriptor(&c.sdesc) != CLDNN_STATUS_SUCCESS ||
            cldnnSetTensorNdDescriptor(c.sdesc, CLDNN_DATA_FLOAT, 4, sdims, sst) != CLDNN_STATUS_SUCCESS ||
            !(c.stats = bench_buffer(ctx, (size_t)s.B * s.H * s.Sq * sizeof(float))))
            goto out;
    }
    size_t wf = 0, wb = 0;
    stt = cldnnGetAttentionWorkspaceSize(ctx->handle, c.ad, c.desc[T_Q], c.desc[T_K], c.desc[T_V], c.desc[T_O], &wf,
                                         &wb);
    if (stt != CLDNN_STATUS_SUCCESS) {
        fail = bench_note_status(&res, "cldnnGetAttentionWorkspaceSize", stt);
        attn_report(o, &s, &res, flops);
        goto out;
    }
    c.wsize = c.bwd ? wb : wf;
    if (c.wsize && !(c.ws = bench_buffer(ctx, c.wsize))) goto out;
    int verify_failed = 0;
    bench_opts vo = *o; /* TENSOR_OP_MATH FLOAT rounds to TF32: 10 bits, as half */
    if (math == CLDNN_TENSOR_OP_MATH && o->dtype == CLDNN_DATA_FLOAT) vo.rtol = vo.atol = 2e-3;
    if (o->verify) verify_failed = at_verify(ctx, &vo, &s, &c, host, st, n, &res);
    if (c.bwd && !c.fwd) { /* O and the statistics for the timed backward */
        stt = at_forward(&c);
        if (stt != CLDNN_STATUS_SUCCESS) {
            fail = bench_note_status(&res, "cldnnAttentionForward", stt);
            attn_report(o, &s, &res, flops);
            goto out;
        }
    }
    if (o->time && bench_time_us(ctx, o, at_once, &c, &res.us)) {
        snprintf(res.note, sizeof res.note, "timing failed");
        attn_report(o, &s, &res, flops);
        goto out;
    }
    attn_report(o, &s, &res, flops);
    fail = verify_failed;
out:
    for (int t = 0; t < T_N; t++) {
        bench_release(c.mem[t]);
        cldnnDestroyTensorDescriptor(c.desc[t]);
        free(host[t]);
    }
    bench_release(c.stats);
    bench_release(c.ws);
    cldnnDestroyTensorDescriptor(c.sdesc);
    cldnnDestroyAttentionDescriptor(c.ad);
    return fail;
}

const bench_mode bench_mode_attn = {"attn", "scaled dot-product attention (cldnnAttentionForward, ...)", k_flags,
                                    attn_run, attn_md_header};
