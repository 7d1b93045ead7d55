/*
** test_attn.c: cldnnAttentionForward / Backward against the double reference of tests/ref/ref_attn.c
** (which materialises the probabilities), the backward also against central differences of the
** double forward, dropout against cldnnDropoutForward's mask, and every bad input.
**
**   attn::*        shapes covering B,H,S,D and B,S,H,D strides (and byte offsets), Sq != Sk both
**                  ways, grouped-query attention, D 32 / 128 (64 in HALF, the odd 40 with Dv = 24
**                  under dropout),
**                  causal with Sq > Sk (fully masked rows: O = 0, stats = -inf; the first visible
**                  row sees one key) and Sq < Sk, scores large enough to overflow a naive softmax,
**                  stats and stats NULL; each forward and backward (dq, dk, dv) on NaN-poisoned
**                  outputs, nothing outside the views written.
**   attn_fd::*     dq, dk, dv of loss = sum(O * R) against central differences of the double
**                  forward on a tiny case.
**   attn_drop::*   dropout: the reference takes cldnnDropoutForward's output on a B x H x Sq x Sk
**                  tensor of ones (same seed and offset) as its mask; forward and backward.
**   attn_types::*  HALF (D 64) and BFLOAT16 forward and backward.
**   attn_tc::*     16-byte aligned operands, the tensor-core kernels (attn_mma) where the device
**                  has them (and nothing else there: run_tc), forward and backward: TENSOR_OP_MATH
**                  HALF D 64 with dropout, D 128 with Dv 64 at one buffer and ORDER 1, BFLOAT16
**                  B,S,H,D, FLOAT (TF32) D 32 and 128; DEFAULT_MATH FLOAT (3xTF32) D 40 / Dv 24
**                  with dropout; dQ summed by atomics (q1) in HALF, BFLOAT16 and FLOAT, the
**                  split backward (q0) at two buffers in HALF and BFLOAT16, O off 16 bytes in the
**                  backward (Di one lane a row), and a DETERMINISTIC descriptor that rules the
**                  atomics out and repeats bit for bit. The attn::
**                  cases with aligned operands (D 32, 128) take the 3xTF32 kernels there too, but
**                  bhsd_basic_fma (FMA_MATH: attn_tiled). Every backward also checks that its
**                  workspace is what the query gave and nothing past it is written.
**   attn_bad::*    descriptors and every entry's argument checks.
** Builds are kept few (a PoCL build of the four kernels costs about 10 s of CPU): the attn:: cases
** take six programs, float 32/32 and 128/128 with aligned offsets (4-vector loads), float 40/24
** with dropout both ways, HALF 64/64 with odd offsets (scalar loads), BFLOAT16 32/32 aligned; on
** the portable kernels attn_tc adds HALF 64/64, 128/64 and 80/80, BFLOAT16 128/128 and float
** 40/24 on aligned operands.
** Tolerance: |got - want| <= atol + rtol |want| with atol a fraction of the reference's largest
** magnitude: float 2e-5 / 1e-4 (sums of Sk terms in a different order), half 4e-3, bfloat16 3e-2.
*/
#include "fixture.h"
#include "internal.h"
#include "gemm/gemm.h" /* cldnn_mma_available */
#include "ref_attn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(attn, .fini = fx_fini);
TestSuite(attn_fd, .fini = fx_fini);
TestSuite(attn_drop, .fini = fx_fini);
TestSuite(attn_types, .fini = fx_fini);
TestSuite(attn_tc, .fini = fx_fini);
TestSuite(attn_bad, .fini = fx_fini);

typedef struct {
    int B, H, Hkv, Sq, Sk, D, Dv;
    int causal;
    int bshd;        /* B,S,H,D memory order (else B,H,S,D) */
    int stats;       /* stats given to the forward */
    int bwd;         /* run the backward too */
    double range;    /* inputs uniform in [-range, range] */
    float dropout;
    cldnnDataType_t dt;
    double scale;    /* 0: 1 / sqrt(D) */
    int integers;    /* q and k small integers (exact scores however large the scale) */
    int aligned;     /* offsets multiples of 4 elements (the kernels' 4-vector loads); 2: of 8 (16 bytes) */
    cldnnMathType_t math;
} at_case;

/* dims B x heads x S x d in the case's memory order, with a byte offset of `off` elements. */
static void make_tensor(fx_tensor* t, const at_case* c, int heads, int S, int d, size_t off) {
    int64_t dims[4] = {c->B, heads, S, d};
    int64_t st[4];
    if (c->bshd) {
        st[3] = 1;
        st[1] = d;
        st[2] = (int64_t)heads * d;
        st[0] = (int64_t)S * heads * d;
    } else {
        st[3] = 1;
        st[2] = d;
        st[1] = (int64_t)S * d;
        st[0] = (int64_t)heads * S * d;
    }
    fx_tensor_nd(t, c->dt, 4, dims, st, off * fx_dtype_size(c->dt));
}

static double* host_of(const fx_tensor* t) {
    double* a = malloc(sizeof(double) * (size_t)t->count);
    for (int64_t i = 0; i < t->count; ++i)
        a[i] = fx_tensor_host(t, i);
    return a;
}

static double max_abs(const double* a, int64_t n) {
    double m = 0;
    for (int64_t i = 0; i < n; ++i)
        if (isfinite(a[i]) && fabs(a[i]) > m)
            m = fabs(a[i]);
    return m;
}

static void tolerances(cldnnDataType_t dt, int bwd, double* atol_frac, double* rtol) {
    if (dt == CLDNN_DATA_HALF) { /* and FLOAT under TENSOR_OP_MATH (TF32's 10 bits, as HALF's) */
        *atol_frac = bwd ? 1e-2 : 4e-3;
        *rtol = 4e-3;
    } else if (dt == CLDNN_DATA_BFLOAT16) {
        *atol_frac = bwd ? 6e-2 : 3e-2;
        *rtol = 3e-2;
    } else {
        *atol_frac = bwd ? 1e-4 : 2e-5;
        *rtol = 1e-4;
    }
}

static void expect_close(fx_tensor* t, const double* want, cldnnDataType_t dt, int bwd, const char* what,
                         const at_case* c) {
    double af, rt;
    tolerances(dt == CLDNN_DATA_FLOAT && c->math == CLDNN_TENSOR_OP_MATH ? CLDNN_DATA_HALF : dt, bwd, &af, &rt);
    fx_tensor_download(t);
    char msg[512];
    double atol = af * max_abs(want, t->count) + 1e-30;
    int64_t bad = fx_compare(t, want, NULL, atol, rt, msg, sizeof msg, NULL);
    FX_ASSERT(bad == 0, "%s: %lld bad (B%d H%d Hkv%d Sq%d Sk%d D%d Dv%d causal%d bshd%d p%g): %s", what,
              (long long)bad, c->B, c->H, c->Hkv, c->Sq, c->Sk, c->D, c->Dv, c->causal, c->bshd, (double)c->dropout,
              msg);
    FX_ASSERT(fx_tensor_gaps_changed(t) == 0, "%s: elements outside the view changed", what);
}

/* Set by a test (each runs in its own process). g_det: DETERMINISTIC descriptors, the workspace of
** the fixed-order backward, and a second backward call that must give the same bits. g_sums: the
** workspace must hold attn_mma's dQ sums (run_tc on a tensor-core device with a q1 set: a set
** that stopped being valid would otherwise fall back to dq = 0 unseen). g_ws_off: the workspace's
** byte offset (68: an odd float offset, which takes one-float reductions). */
static int g_det, g_sums;
static size_t g_ws_off = 64;
/* g_o_shift: the backward reads O from a copy this many elements past the forward's aligned offset
** (attn_mma's Di then takes its one-lane-a-row kernel: O's rows do not allow 16-byte loads). */
static size_t g_o_shift;

static cldnnAttentionDescriptor_t make_desc(const at_case* c, double scale, uint64_t seed, uint64_t offset) {
    cldnnAttentionDescriptor_t d;
    FX_OK(cldnnCreateAttentionDescriptor(&d));
    FX_OK(cldnnSetAttentionDescriptor(d, (float)scale, c->causal, c->dropout, seed, offset, c->math));
    if (g_det)
        FX_OK(cldnnSetAttentionDescriptorDeterminism(d, CLDNN_DETERMINISTIC));
    return d;
}

static double* got_of(fx_tensor* t) {
    fx_tensor_download(t);
    double* a = malloc(sizeof(double) * (size_t)t->count);
    for (int64_t i = 0; i < t->count; ++i)
        a[i] = fx_tensor_got(t, i);
    return a;
}

/* cldnnDropoutForward on ones (B x H x Sq x Sk float): the factor of every probability. */
static double* dropout_factors(const at_case* c, uint64_t seed, uint64_t offset) {
    fx_tensor x, y;
    fx_tensor_4d(&x, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, c->B, c->H, c->Sq, c->Sk, 0);
    fx_tensor_4d(&y, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, c->B, c->H, c->Sq, c->Sk, 0);
    for (int64_t i = 0; i < x.count; ++i)
        fx_tensor_set(&x, i, 1.0);
    fx_tensor_upload(&x);
    fx_tensor_poison_nan(&y);
    fx_tensor_upload(&y);
    cldnnDropoutDescriptor_t dd;
    FX_OK(cldnnCreateDropoutDescriptor(&dd));
    FX_OK(cldnnSetDropoutDescriptor(dd, c->dropout, seed, offset));
    FX_OK(cldnnDropoutForward(fx_handle(), dd, x.desc, x.mem, 0, y.desc, y.mem, 0, NULL, 0, 0));
    cldnnDestroyDropoutDescriptor(dd);
    fx_tensor_download(&y);
    double* z = malloc(sizeof(double) * (size_t)y.count);
    int64_t kept = 0;
    for (int64_t i = 0; i < y.count; ++i) {
        z[i] = fx_tensor_got(&y, i);
        kept += z[i] != 0;
    }
    FX_ASSERT(kept > 0 && kept < y.count, "dropout kept %lld of %lld", (long long)kept, (long long)y.count);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    return z;
}

/* Runs case c forward (and backward) and checks every output against the reference. */
static void run_case(const at_case* c) {
    const double scale = c->scale != 0 ? c->scale : 1.0 / sqrt((double)c->D);
    const uint64_t seed = 0x1234abcdull + (uint64_t)c->Sq, offset = 7;
    ref_attn r = {c->B, c->H, c->Hkv, c->Sq, c->Sk, c->D, c->Dv, scale, c->causal};
    fx_tensor q, k, v, o, st, dO, dq, dk, dv;
    const size_t al = c->aligned == 2 ? 8 : c->aligned ? 4 : 1;
    make_tensor(&q, c, c->H, c->Sq, c->D, 3 * al);
    make_tensor(&k, c, c->Hkv, c->Sk, c->D, 0);
    make_tensor(&v, c, c->Hkv, c->Sk, c->Dv, 5 * al);
    make_tensor(&o, c, c->H, c->Sq, c->Dv, 2 * al);
    fx_tensor_4d(&st, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, c->B, c->H, c->Sq, 1, 4);
    fx_tensor_fill_uniform(&q, -c->range, c->range);
    fx_tensor_fill_uniform(&k, -c->range, c->range);
    if (c->integers) {
        fx_tensor* qk[2] = {&q, &k};
        for (int t = 0; t < 2; ++t)
            for (int64_t i = 0; i < qk[t]->count; ++i)
                fx_tensor_set(qk[t], i, (double)(int)(ref_rng_next(fx_rng()) % 5) - 2.0);
    }
    fx_tensor_fill_uniform(&v, -1, 1);
    fx_tensor_poison_nan(&o);
    fx_tensor_poison_nan(&st);
    fx_tensor_upload(&q);
    fx_tensor_upload(&k);
    fx_tensor_upload(&v);
    fx_tensor_upload(&o);
    fx_tensor_upload(&st);
    double* z = c->dropout > 0 ? dropout_factors(c, seed, offset) : NULL;
    cldnnAttentionDescriptor_t d = make_desc(c, scale, seed, offset);
    size_t wf = 1, wb = 0;
    FX_OK(cldnnGetAttentionWorkspaceSize(fx_handle(), d, q.desc, k.desc, v.desc, o.desc, &wf, &wb));
    /* Di; with attn_mma's dQ sums (q1) also rows of round16(D) floats after Di rounded to 4 */
    const size_t rows = (size_t)c->B * c->H * c->Sq, sums = ((rows + 3) / 4 * 4 + rows * ((c->D + 15) / 16 * 16)) * 4;
    FX_ASSERT(wf == 0 && (g_sums ? wb == sums : (wb == rows * 4 || (wb == sums && !g_det))), "workspace %zu / %zu",
              wf, wb);
    double *hq = host_of(&q), *hk = host_of(&k), *hv = host_of(&v);
    double* ho = malloc(sizeof(double) * (size_t)o.count);
    double* hs = malloc(sizeof(double) * (size_t)st.count);
    ref_attn_forward(&r, hq, hk, hv, z, ho, hs);
    FX_OK(cldnnAttentionForward(fx_handle(), d, q.desc, q.mem, q.offset, k.desc, k.mem, k.offset, v.desc, v.mem,
                                v.offset, o.desc, o.mem, o.offset, c->stats ? st.desc : NULL,
                                c->stats ? st.mem : NULL, st.offset, NULL, 0, 0));
    expect_close(&o, ho, c->dt, 0, "O", c);
    if (c->stats) {
        fx_tensor_download(&st);
        for (int64_t i = 0; i < st.count; ++i) {
            double g = fx_tensor_got(&st, i), w = hs[i];
            const int r16 = c->dt != CLDNN_DATA_FLOAT || c->math == CLDNN_TENSOR_OP_MATH; /* 10-bit scores */
            int ok = isinf(w) ? (isinf(g) && g < 0) : fabs(g - w) <= 1e-5 * (1 + fabs(w)) * (r16 ? 100 : 1);
            FX_ASSERT(ok, "stats[%lld] = %.9g, want %.9g", (long long)i, g, w);
        }
    } else {
        fx_expect_untouched(&st, "stats", "stats NULL");
    }
    if (c->bwd) {
        make_tensor(&dO, c, c->H, c->Sq, c->Dv, al);
        make_tensor(&dq, c, c->H, c->Sq, c->D, 0);
        make_tensor(&dk, c, c->Hkv, c->Sk, c->D, 2 * al);
        make_tensor(&dv, c, c->Hkv, c->Sk, c->Dv, 3 * al);
        fx_tensor_fill_uniform(&dO, -1, 1);
        fx_tensor_upload(&dO);
        fx_tensor_poison_nan(&dq);
        fx_tensor_poison_nan(&dk);
        fx_tensor_poison_nan(&dv);
        fx_tensor_upload(&dq);
        fx_tensor_upload(&dk);
        fx_tensor_upload(&dv);
        if (!c->stats) { /* the backward needs them */
            FX_OK(cldnnAttentionForward(fx_handle(), d, q.desc, q.mem, q.offset, k.desc, k.mem, k.offset, v.desc,
                                        v.mem, v.offset, o.desc, o.mem, o.offset, st.desc, st.mem, st.offset, NULL, 0,
                                        0));
        }
        fx_tensor o2, *ob = &o;
        if (g_o_shift) {
            make_tensor(&o2, c, c->H, c->Sq, c->Dv, 2 * al + g_o_shift);
            fx_tensor_download(&o);
            for (int64_t i = 0; i < o.count; ++i)
                fx_tensor_set(&o2, i, fx_tensor_got(&o, i));
            fx_tensor_upload(&o2);
            ob = &o2;
        }
        /* the workspace at byte g_ws_off, 256 guard bytes after it that the backward must leave alone */
        cl_mem ws = fx_buffer(wb + g_ws_off + 256);
        unsigned char guard[256], after[256];
        memset(guard, 0x5a, sizeof guard);
        fx_write(ws, g_ws_off + wb, guard, sizeof guard);
        double* hdo = host_of(&dO);
        double* gq = malloc(sizeof(double) * (size_t)dq.count);
        double* gk = malloc(sizeof(double) * (size_t)dk.count);
        double* gv = malloc(sizeof(double) * (size_t)dv.count);
        ref_attn_backward(&r, hq, hk, hv, z, hdo, gq, gk, gv);
        fx_tensor* grads[3] = {&dq, &dk, &dv};
        double* first[3] = {NULL, NULL, NULL};
        for (int rep = 0; rep < (g_det ? 2 : 1); ++rep) {
            for (int t = 0; t < 3 && rep; ++t) { /* the first call's bits, then poison again */
                first[t] = got_of(grads[t]);
                fx_tensor_poison_nan(grads[t]);
                fx_tensor_upload(grads[t]);
            }
            FX_OK(cldnnAttentionBackward(fx_handle(), d, q.desc, q.mem, q.offset, k.desc, k.mem, k.offset, v.desc,
                                         v.mem, v.offset, ob->desc, ob->mem, ob->offset, dO.desc, dO.mem, dO.offset,
                                         st.desc, st.mem, st.offset, dq.desc, dq.mem, dq.offset, dk.desc, dk.mem,
                                         dk.offset, dv.desc, dv.mem, dv.offset, ws, g_ws_off, wb));
        }
        expect_close(&dq, gq, c->dt, 1, "dQ", c);
        expect_close(&dk, gk, c->dt, 1, "dK", c);
        expect_close(&dv, gv, c->dt, 1, "dV", c);
        for (int t = 0; t < 3 && g_det; ++t) {
            double* again = got_of(grads[t]);
            FX_ASSERT(memcmp(first[t], again, sizeof(double) * (size_t)grads[t]->count) == 0,
                      "%s: two DETERMINISTIC backward calls differ", t == 0 ? "dQ" : t == 1 ? "dK" : "dV");
            free(again);
            free(first[t]);
        }
        fx_read(ws, g_ws_off + wb, after, sizeof after);
        FX_ASSERT(memcmp(guard, after, sizeof guard) == 0, "the backward wrote past its %zu-byte workspace", wb);
        fx_release(ws);
        free(hdo);
        free(gq);
        free(gk);
        free(gv);
        if (g_o_shift)
            fx_tensor_free(&o2);
        fx_tensor_free(&dO);
        fx_tensor_free(&dq);
        fx_tensor_free(&dk);
        fx_tensor_free(&dv);
    }
    cldnnDestroyAttentionDescriptor(d);
    free(z);
    free(hq);
    free(hk);
    free(hv);
    free(ho);
    free(hs);
    fx_tensor_free(&q);
    fx_tensor_free(&k);
    fx_tensor_free(&v);
    fx_tensor_free(&o);
    fx_tensor_free(&st);
}

#define F CLDNN_DATA_FLOAT

/* FMA_MATH: attn_tiled's 4-vector FLOAT kernels on every device (DEFAULT_MATH's aligned FLOAT cases
** take the 3xTF32 kernels on tensor-core devices). */
Test(attn, bhsd_basic_fma) {
    at_case c = {2, 3, 3, 37, 37, 32, 32, 0, 0, 1, 1, 1.0, 0, F, 0, 0, 1, CLDNN_FMA_MATH};
    run_case(&c);
}

Test(attn, bshd_gqa_sq_lt_sk) {
    at_case c = {2, 4, 2, 19, 45, 32, 32, 0, 1, 1, 1, 1.0, 0, F, 0, 0, 1, CLDNN_DEFAULT_MATH};
    run_case(&c);
}

Test(attn, causal_sq_lt_sk_gqa) {
    at_case c = {1, 6, 2, 21, 50, 32, 32, 1, 0, 1, 1, 1.0, 0, F, 0, 0, 1, CLDNN_DEFAULT_MATH};
    run_case(&c);
}

/* Sq > Sk: rows 0 .. Sq - Sk - 1 see no key (O = 0, stats = -inf), row Sq - Sk sees key 0 only. */
Test(attn, causal_sq_gt_sk_masked_rows) {
    at_case c = {2, 2, 1, 40, 13, 32, 32, 1, 1, 1, 1, 1.0, 0, F, 0, 0, 1, CLDNN_DEFAULT_MATH};
    run_case(&c);
}

Test(attn, stats_null_sq_gt_sk) {
    at_case c = {1, 2, 2, 33, 17, 32, 32, 0, 0, 0, 1, 1.0, 0, F, 0, 0, 1, CLDNN_DEFAULT_MATH};
    run_case(&c);
}

/* Scores up to +-1000 (a naive exp overflows float beyond 88): small integer q and k with scale 4,
** so the scores are exact and only the softmax's own arithmetic differs. */
Test(attn, large_scores) {
    at_case c = {1, 2, 1, 24, 40, 32, 32, 1, 0, 1, 1, 1.0, 0, F, 4.0, 1, 1, CLDNN_DEFAULT_MATH};
    run_case(&c);
}

Test(attn_drop, d40_dv24_bshd) {
    at_case c = {2, 2, 1, 18, 29, 40, 24, 1, 1, 1, 1, 1.0, 0.1f, F, 0, 0, 0, CLDNN_DEFAULT_MATH};
    run_case(&c);
}

Test(attn, d128) {
    at_case c = {1, 2, 1, 20, 33, 128, 128, 0, 0, 1, 1, 1.0, 0, F, 0, 0, 1, CLDNN_DEFAULT_MATH};
    run_case(&c);
}

Test(attn_drop, matches_cldnn_dropout_gqa) {
    at_case c = {2, 2, 1, 21, 26, 40, 24, 0, 0, 1, 1, 1.0, 0.3f, F, 0, 0, 0, CLDNN_DEFAULT_MATH};
    run_case(&c);
}

Test(attn_drop, causal_bshd_d40_dv24) {
    at_case c = {1, 3, 3, 30, 19, 40, 24, 1, 1, 1, 1, 1.0, 0.5f, F, 0, 0, 0, CLDNN_DEFAULT_MATH};
    run_case(&c);
}

Test(attn_types, half_d64_gqa_causal) {
    at_case c = {1, 4, 2, 27, 35, 64, 64, 1, 0, 1, 1, 1.0, 0, CLDNN_DATA_HALF, 0, 0, 0, CLDNN_DEFAULT_MATH};
    run_case(&c);
}

Test(attn_types, half_d64_square_bshd) {
    at_case c = {1, 2, 2, 48, 48, 64, 64, 1, 1, 1, 1, 1.0, 0, CLDNN_DATA_HALF, 0, 0, 0, CLDNN_DEFAULT_MATH};
    run_case(&c);
}

Test(attn_types, bfloat16) {
    at_case c = {1, 2, 1, 23, 31, 32, 32, 0, 1, 1, 1, 1.0, 0, CLDNN_DATA_BFLOAT16, 0, 0, 1, CLDNN_DEFAULT_MATH};
    run_case(&c);
}

/* 16-byte aligned operands: the tensor-core kernels (attn_mma), forward and backward, where the
** device has them (NVIDIA, compute capability 8.0+), and there only: CLDNN_SOLVER restricts the
** calls to attn_mma, so an operand that stops it applying fails the case instead of sending it to
** attn_tiled unseen. Elsewhere the portable kernels, on programs the cases above already build but
** for the HALF ones and FLOAT 40 / 24 with dropout on aligned operands. Sq spans several query
** blocks with a partial one, Sk a partial key block. params: CLDNN_SOLVER_PARAMS's attn_mma set, or
** NULL for the defaults. */
static void run_tc(const at_case* c, const char* params) {
    const int tc = cldnn_mma_available(&fx_handle()->prof);
    if (tc) { /* Criterion runs each test in its own process */
        setenv("CLDNN_SOLVER", "attn_mma", 1);
        if (params != NULL)
            setenv("CLDNN_SOLVER_PARAMS", params, 1);
        g_sums = params != NULL && strstr(params, "-q1") != NULL && !g_det;
    }
    run_case(c);
    if (tc) {
        unsetenv("CLDNN_SOLVER");
        unsetenv("CLDNN_SOLVER_PARAMS");
    }
}

#define TC CLDNN_TENSOR_OP_MATH
Test(attn_tc, half_d64_gqa_causal_dropout) {
    at_case c = {1, 4, 2, 70, 90, 64, 64, 1, 0, 1, 1, 1.0, 0.2f, CLDNN_DATA_HALF, 0, 0, 2, TC};
    run_tc(&c, NULL);
}

/* One buffer per streamed block and the heaviest-first order, which HALF's defaults never take. */
Test(attn_tc, half_d128_dv64_causal_sq_gt_sk_one_buffer_order1) {
    at_case c = {1, 2, 2, 150, 131, 128, 64, 1, 0, 1, 1, 1.0, 0, CLDNN_DATA_HALF, 0, 0, 2, TC};
    run_tc(&c, "attn_mma:br32-bc32-st1-o1-q0");
}

/* The split backward (q0) at two buffers per streamed block, one barrier a block: the 16-bit dK / dV
** and dQ kernels, which the HALF / BFLOAT16 defaults (q1) leave to DETERMINISTIC descriptors. */
Test(attn_tc, half_d64_gqa_causal_split_two_buffers) {
    at_case c = {1, 4, 2, 70, 90, 64, 64, 1, 0, 1, 1, 1.0, 0, CLDNN_DATA_HALF, 0, 0, 2, TC};
    run_tc(&c, "attn_mma:br64-bc64-st2-o0-q0");
}

Test(attn_tc, bfloat16_d128_split_two_buffers) {
    at_case c = {2, 2, 1, 77, 70, 128, 128, 0, 1, 1, 1, 1.0, 0, CLDNN_DATA_BFLOAT16, 0, 0, 2, TC};
    run_tc(&c, "attn_mma:br32-bc32-st2-o0-q0");
}

Test(attn_tc, bfloat16_bshd) {
    at_case c = {2, 2, 1, 45, 77, 32, 32, 0, 1, 1, 1, 1.0, 0, CLDNN_DATA_BFLOAT16, 0, 0, 2, TC};
    run_tc(&c, NULL);
}

/* FLOAT under TENSOR_OP_MATH: TF32 products (HALF's tolerances). Under DEFAULT_MATH the attn::
** cases with aligned operands take the 3xTF32 kernels on the same devices (FLOAT's tolerances). */
Test(attn_tc, float_gqa_causal_sq_lt_sk) {
    at_case c = {1, 4, 2, 70, 90, 32, 32, 1, 0, 1, 1, 1.0, 0, F, 0, 0, 2, TC};
    run_tc(&c, NULL);
}

Test(attn_tc, float_d128_bshd_causal_sq_gt_sk) {
    at_case c = {1, 2, 1, 75, 66, 128, 128, 1, 1, 1, 1, 1.0, 0, F, 0, 0, 2, TC};
    run_tc(&c, NULL);
}

Test(attn_tc, float_d40_dv24_dropout_default_math) {
    at_case c = {1, 2, 2, 50, 37, 40, 24, 0, 0, 1, 1, 1.0, 0.25f, F, 0, 0, 2, CLDNN_DEFAULT_MATH};
    run_tc(&c, NULL);
}

/* dQ summed inside the dK / dV kernel (q1), both ways of its tiles: whole heads (D 40, 64) and
** DQN-wide slices of them (D 128), 16-bit and TF32 fragments of dS, grouped-query heads. */
Test(attn_tc, half_d64_gqa_causal_dropout_fused_dq) {
    at_case c = {1, 4, 2, 70, 90, 64, 64, 1, 0, 1, 1, 1.0, 0.2f, CLDNN_DATA_HALF, 0, 0, 2, TC};
    run_tc(&c, "attn_mma:br64-bc64-st2-o0-q1");
}

Test(attn_tc, bfloat16_d128_causal_sq_gt_sk_fused_dq) {
    at_case c = {1, 2, 2, 150, 131, 128, 128, 1, 0, 1, 1, 1.0, 0, CLDNN_DATA_BFLOAT16, 0, 0, 2, TC};
    run_tc(&c, "attn_mma:br32-bc32-st1-o1-q1");
}

Test(attn_tc, float_d40_dv24_gqa_dropout_fused_dq) {
    at_case c = {1, 4, 2, 50, 37, 40, 24, 0, 0, 1, 1, 1.0, 0.25f, F, 0, 0, 2, CLDNN_DEFAULT_MATH};
    run_tc(&c, "attn_mma:br32-bc32-st2-o0-q1");
}

/* D 80: dQ tiles of 16 head dims (DQN); an odd float offset of the workspace: one-float reductions. */
Test(attn_tc, half_d80_fused_dq_odd_workspace_offset) {
    g_ws_off = 68;
    at_case c = {2, 2, 1, 77, 70, 80, 80, 0, 1, 1, 1, 1.0, 0, CLDNN_DATA_HALF, 0, 0, 2, TC};
    run_tc(&c, "attn_mma:br64-bc64-st2-o0-q1");
}

/* O's rows off 16 bytes in the backward (one element past its forward's offset): Di one lane a row. */
Test(attn_tc, half_d64_unaligned_o_in_backward) {
    g_o_shift = 1;
    at_case c = {1, 2, 1, 40, 50, 64, 64, 1, 1, 1, 1, 1.0, 0, CLDNN_DATA_HALF, 0, 0, 2, TC};
    run_tc(&c, NULL);
}

Test(attn_tc, float_d128_bshd_causal_fused_dq) {
    at_case c = {1, 2, 1, 75, 66, 128, 128, 1, 1, 1, 1, 1.0, 0, F, 0, 0, 2, CLDNN_DEFAULT_MATH};
    run_tc(&c, "attn_mma:br32-bc64-st1-o1-q1");
}

/* A DETERMINISTIC descriptor rules the atomic dQ out (the q1 set below is not valid for it: the
** defaults run, whose fixed-order workspace the query gives), and two backward calls agree bit
** for bit: FLOAT D 128, whose default would otherwise be q1. */
Test(attn_tc, float_d128_deterministic) {
    g_det = 1;
    at_case c = {1, 4, 2, 75, 66, 128, 128, 1, 1, 1, 1, 1.0, 0, F, 0, 0, 2, CLDNN_DEFAULT_MATH};
    run_tc(&c, "attn_mma:br32-bc64-st1-o1-q1");
}

/* ------------------------------------------------------------------ finite differences */

/* loss = sum O * R with the double forward. */
static double loss_of(const ref_attn* r, const double* q, const double* k, const double* v, const double* R,
                      double* o) {
    ref_attn_forward(r, q, k, v, NULL, o, NULL);
    double s = 0;
    for (int64_t i = 0; i < (int64_t)r->B * r->H * r->Sq * r->Dv; ++i)
        s += o[i] * R[i];
    return s;
}

/* Central differences of every element of x against the device gradient g (downloaded). */
static void fd_check(const ref_attn* r, double* x, fx_tensor* g, const double* q, const double* k, const double* v,
                     const double* R, double* o, const char* what) {
    fx_tensor_download(g);
    const double h = 1e-4;
    for (int64_t i = 0; i < g->count; ++i) {
        const double keep = x[i];
        x[i] = keep + h;
        double lp = loss_of(r, q, k, v, R, o);
        x[i] = keep - h;
        double lm = loss_of(r, q, k, v, R, o);
        x[i] = keep;
        double fd = (lp - lm) / (2 * h), got = fx_tensor_got(g, i);
        FX_ASSERT(fabs(fd - got) <= 1e-3 * (1 + fabs(fd)), "%s[%lld] = %.7g, central difference %.7g", what,
                  (long long)i, got, fd);
    }
}

Test(attn_fd, tiny_gqa_causal) {
    at_case c = {1, 2, 1, 5, 7, 32, 32, 1, 0, 1, 1, 1.0, 0, F, 0, 0, 0, CLDNN_DEFAULT_MATH};
    const double scale = 1.0 / sqrt(32.0);
    ref_attn r = {c.B, c.H, c.Hkv, c.Sq, c.Sk, c.D, c.Dv, scale, c.causal};
    fx_tensor q, k, v, o, st, dO, dq, dk, dv;
    make_tensor(&q, &c, c.H, c.Sq, c.D, 0);
    make_tensor(&k, &c, c.Hkv, c.Sk, c.D, 0);
    make_tensor(&v, &c, c.Hkv, c.Sk, c.Dv, 0);
    make_tensor(&o, &c, c.H, c.Sq, c.Dv, 0);
    make_tensor(&dO, &c, c.H, c.Sq, c.Dv, 0);
    make_tensor(&dq, &c, c.H, c.Sq, c.D, 0);
    make_tensor(&dk, &c, c.Hkv, c.Sk, c.D, 0);
    make_tensor(&dv, &c, c.Hkv, c.Sk, c.Dv, 0);
    fx_tensor_4d(&st, CLDNN_TENSOR_NCHW, F, c.B, c.H, c.Sq, 1, 0);
    fx_tensor* ins[4] = {&q, &k, &v, &dO};
    for (int i = 0; i < 4; ++i) {
        fx_tensor_fill_uniform(ins[i], -1, 1);
        fx_tensor_upload(ins[i]);
    }
    cldnnAttentionDescriptor_t d = make_desc(&c, scale, 0, 0);
    size_t wb;
    FX_OK(cldnnGetAttentionWorkspaceSize(fx_handle(), d, q.desc, k.desc, v.desc, o.desc, NULL, &wb));
    cl_mem ws = fx_buffer(wb);
    FX_OK(cldnnAttentionForward(fx_handle(), d, q.desc, q.mem, 0, k.desc, k.mem, 0, v.desc, v.mem, 0, o.desc, o.mem,
                                0, st.desc, st.mem, 0, NULL, 0, 0));
    FX_OK(cldnnAttentionBackward(fx_handle(), d, q.desc, q.mem, 0, k.desc, k.mem, 0, v.desc, v.mem, 0, o.desc, o.mem,
                                 0, dO.desc, dO.mem, 0, st.desc, st.mem, 0, dq.desc, dq.mem, 0, dk.desc, dk.mem, 0,
                                 dv.desc, dv.mem, 0, ws, 0, wb));
    double *hq = host_of(&q), *hk = host_of(&k), *hv = host_of(&v), *R = host_of(&dO);
    double* ob = malloc(sizeof(double) * (size_t)o.count);
    fd_check(&r, hq, &dq, hq, hk, hv, R, ob, "dQ");
    fd_check(&r, hk, &dk, hq, hk, hv, R, ob, "dK");
    fd_check(&r, hv, &dv, hq, hk, hv, R, ob, "dV");
    free(hq);
    free(hk);
    free(hv);
    free(R);
    free(ob);
    fx_release(ws);
    cldnnDestroyAttentionDescriptor(d);
    fx_tensor* all[9] = {&q, &k, &v, &o, &st, &dO, &dq, &dk, &dv};
    for (int i = 0; i < 9; ++i)
        fx_tensor_free(all[i]);
}

/* ------------------------------------------------------------------ bad inputs */

Test(attn_bad, descriptor) {
    cldnnAttentionDescriptor_t d;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnCreateAttentionDescriptor(NULL));
    FX_OK(cldnnCreateAttentionDescriptor(&d));
    float sc;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnGetAttentionDescriptor(d, &sc, NULL, NULL, NULL, NULL, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnSetAttentionDescriptor(NULL, 1, 0, 0, 0, 0, CLDNN_DEFAULT_MATH));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetAttentionDescriptor(d, INFINITY, 0, 0, 0, 0, CLDNN_DEFAULT_MATH));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetAttentionDescriptor(d, 1, 2, 0, 0, 0, CLDNN_DEFAULT_MATH));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetAttentionDescriptor(d, 1, 0, 1.0f, 0, 0, CLDNN_DEFAULT_MATH));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetAttentionDescriptor(d, 1, 0, -0.1f, 0, 0, CLDNN_DEFAULT_MATH));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetAttentionDescriptor(d, 1, 0, 0, 0, 0,
                                                                                      (cldnnMathType_t)7));
    FX_OK(cldnnSetAttentionDescriptor(d, 0.125f, 1, 0.25f, 99, 5, CLDNN_FMA_MATH));
    int causal;
    float p;
    uint64_t seed, off;
    cldnnMathType_t m;
    FX_OK(cldnnGetAttentionDescriptor(d, &sc, &causal, &p, &seed, &off, &m));
    FX_ASSERT(sc == 0.125f && causal == 1 && p == 0.25f && seed == 99 && off == 5 && m == CLDNN_FMA_MATH,
              "read back %g %d %g %llu %llu %d", (double)sc, causal, (double)p, (unsigned long long)seed,
              (unsigned long long)off, (int)m);
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetAttentionDescriptor(NULL, &sc, 0, 0, 0, 0, 0));
    /* determinism: NON_DETERMINISTIC when new, kept by cldnnSetAttentionDescriptor */
    cldnnDeterminism_t det = CLDNN_DETERMINISTIC;
    FX_OK(cldnnGetAttentionDescriptorDeterminism(d, &det));
    FX_ASSERT(det == CLDNN_NON_DETERMINISTIC, "a new descriptor's determinism is %d", (int)det);
    FX_OK(cldnnSetAttentionDescriptorDeterminism(d, CLDNN_DETERMINISTIC));
    FX_OK(cldnnSetAttentionDescriptor(d, 0.125f, 1, 0.25f, 99, 5, CLDNN_FMA_MATH));
    FX_OK(cldnnGetAttentionDescriptorDeterminism(d, &det));
    FX_ASSERT(det == CLDNN_DETERMINISTIC, "determinism %d after cldnnSetAttentionDescriptor", (int)det);
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnSetAttentionDescriptorDeterminism(NULL, CLDNN_DETERMINISTIC));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetAttentionDescriptorDeterminism(d, (cldnnDeterminism_t)2));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetAttentionDescriptorDeterminism(NULL, &det));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetAttentionDescriptorDeterminism(d, NULL));
    FX_OK(cldnnDestroyAttentionDescriptor(d));
    FX_OK(cldnnDestroyAttentionDescriptor(NULL));
}

/* A valid small problem whose pieces the bad cases replace one at a time. */
typedef struct {
    fx_tensor q, k, v, o, st, dO, dq, dk, dv;
    cldnnAttentionDescriptor_t d;
    cl_mem ws;
    size_t wb;
} bad_set;

static void bad_init(bad_set* s) {
    at_case c = {1, 4, 2, 8, 8, 32, 32, 0, 0, 1, 1, 1.0, 0, F, 0, 0, 0, CLDNN_DEFAULT_MATH};
    make_tensor(&s->q, &c, 4, 8, 32, 0);
    make_tensor(&s->k, &c, 2, 8, 32, 0);
    make_tensor(&s->v, &c, 2, 8, 32, 0);
    make_tensor(&s->o, &c, 4, 8, 32, 0);
    make_tensor(&s->dO, &c, 4, 8, 32, 0);
    make_tensor(&s->dq, &c, 4, 8, 32, 0);
    make_tensor(&s->dk, &c, 2, 8, 32, 0);
    make_tensor(&s->dv, &c, 2, 8, 32, 0);
    fx_tensor_4d(&s->st, CLDNN_TENSOR_NCHW, F, 1, 4, 8, 1, 0);
    s->d = make_desc(&c, 0.2, 0, 0);
    FX_OK(cldnnGetAttentionWorkspaceSize(fx_handle(), s->d, s->q.desc, s->k.desc, s->v.desc, s->o.desc, NULL,
                                         &s->wb));
    s->ws = fx_buffer(s->wb);
}

static void bad_free(bad_set* s) {
    fx_tensor* all[9] = {&s->q, &s->k, &s->v, &s->o, &s->st, &s->dO, &s->dq, &s->dk, &s->dv};
    for (int i = 0; i < 9; ++i)
        fx_tensor_free(all[i]);
    fx_release(s->ws);
    cldnnDestroyAttentionDescriptor(s->d);
}

static cldnnStatus_t fwd_with(bad_set* s, cldnnAttentionDescriptor_t d, cldnnTensorDescriptor_t qd,
                              cldnnTensorDescriptor_t kd, cldnnTensorDescriptor_t vd, cldnnTensorDescriptor_t od,
                              cldnnTensorDescriptor_t sd, cl_mem q) {
    return cldnnAttentionForward(fx_handle(), d, qd, q, 0, kd, s->k.mem, 0, vd, s->v.mem, 0, od, s->o.mem, 0, sd,
                                 s->st.mem, 0, NULL, 0, 0);
}

static cldnnStatus_t bwd_with(bad_set* s, cl_mem stats, cl_mem ws, size_t wsize, cldnnTensorDescriptor_t dkd,
                              cl_mem dv) {
    return cldnnAttentionBackward(fx_handle(), s->d, s->q.desc, s->q.mem, 0, s->k.desc, s->k.mem, 0, s->v.desc,
                                  s->v.mem, 0, s->o.desc, s->o.mem, 0, s->dO.desc, s->dO.mem, 0, s->st.desc, stats, 0,
                                  s->dq.desc, s->dq.mem, 0, dkd, s->dk.mem, 0, s->dv.desc, dv, 0, ws, 0, wsize);
}

static cldnnTensorDescriptor_t desc4(cldnnDataType_t dt, int a, int b, int c, int d) {
    cldnnTensorDescriptor_t t;
    FX_OK(cldnnCreateTensorDescriptor(&t));
    FX_OK(cldnnSetTensor4dDescriptor(t, CLDNN_TENSOR_NCHW, dt, a, b, c, d));
    return t;
}

Test(attn_bad, forward) {
    bad_set s;
    bad_init(&s);
    FX_OK(fwd_with(&s, s.d, s.q.desc, s.k.desc, s.v.desc, s.o.desc, s.st.desc, s.q.mem));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     fwd_with(&s, NULL, s.q.desc, s.k.desc, s.v.desc, s.o.desc, s.st.desc, s.q.mem));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     fwd_with(&s, s.d, s.q.desc, s.k.desc, s.v.desc, s.o.desc, s.st.desc, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     fwd_with(&s, s.d, NULL, s.k.desc, s.v.desc, s.o.desc, s.st.desc, s.q.mem));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnAttentionForward(NULL, s.d, s.q.desc, s.q.mem, 0, s.k.desc, s.k.mem, 0, s.v.desc, s.v.mem,
                                           0, s.o.desc, s.o.mem, 0, NULL, NULL, 0, NULL, 0, 0));
    cldnnAttentionDescriptor_t unset;
    FX_OK(cldnnCreateAttentionDescriptor(&unset));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM,
                     fwd_with(&s, unset, s.q.desc, s.k.desc, s.v.desc, s.o.desc, s.st.desc, s.q.mem));
    cldnnDestroyAttentionDescriptor(unset);
    /* Hkv 3 does not divide H 4 */
    cldnnTensorDescriptor_t k3 = desc4(F, 1, 3, 8, 32), v3 = desc4(F, 1, 3, 8, 32);
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, fwd_with(&s, s.d, s.q.desc, k3, v3, s.o.desc, s.st.desc, s.q.mem));
    /* mismatched heads: o with 2 heads, v with 4 */
    cldnnTensorDescriptor_t o2 = desc4(F, 1, 2, 8, 32), v4 = desc4(F, 1, 4, 8, 32);
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                     fwd_with(&s, s.d, s.q.desc, s.k.desc, s.v.desc, o2, s.st.desc, s.q.mem));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                     fwd_with(&s, s.d, s.q.desc, s.k.desc, v4, s.o.desc, s.st.desc, s.q.mem));
    /* head size over the limit (shapes consistent) */
    cldnnTensorDescriptor_t qb = desc4(F, 1, 4, 8, 300), kb = desc4(F, 1, 2, 8, 300);
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                     fwd_with(&s, s.d, qb, kb, s.v.desc, s.o.desc, s.st.desc, s.q.mem));
    /* data types that differ; stats not FLOAT; stats of the wrong shape; not 4-d */
    cldnnTensorDescriptor_t kh = desc4(CLDNN_DATA_HALF, 1, 2, 8, 32), sh = desc4(CLDNN_DATA_HALF, 1, 4, 8, 1);
    cldnnTensorDescriptor_t s2 = desc4(F, 1, 4, 8, 2), n5;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, fwd_with(&s, s.d, s.q.desc, kh, s.v.desc, s.o.desc, s.st.desc, s.q.mem));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, fwd_with(&s, s.d, s.q.desc, s.k.desc, s.v.desc, s.o.desc, sh, s.q.mem));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                     fwd_with(&s, s.d, s.q.desc, s.k.desc, s.v.desc, s.o.desc, s2, s.q.mem));
    FX_OK(cldnnCreateTensorDescriptor(&n5));
    int64_t dims5[5] = {1, 4, 8, 32, 1}, st5[5] = {1024, 256, 32, 1, 1};
    FX_OK(cldnnSetTensorNdDescriptor(n5, F, 5, dims5, st5));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, fwd_with(&s, s.d, n5, s.k.desc, s.v.desc, s.o.desc, s.st.desc, s.q.mem));
    /* o overlapping q (same buffer) */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM,
                     cldnnAttentionForward(fx_handle(), s.d, s.q.desc, s.q.mem, 0, s.k.desc, s.k.mem, 0, s.v.desc,
                                           s.v.mem, 0, s.o.desc, s.q.mem, 0, NULL, NULL, 0, NULL, 0, 0));
    cldnnTensorDescriptor_t all[] = {k3, v3, o2, v4, qb, kb, kh, sh, s2, n5};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        cldnnDestroyTensorDescriptor(all[i]);
    bad_free(&s);
}

Test(attn_bad, backward) {
    bad_set s;
    bad_init(&s);
    FX_OK(fwd_with(&s, s.d, s.q.desc, s.k.desc, s.v.desc, s.o.desc, s.st.desc, s.q.mem));
    FX_OK(bwd_with(&s, s.st.mem, s.ws, s.wb, s.dk.desc, s.dv.mem));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, bwd_with(&s, NULL, s.ws, s.wb, s.dk.desc, s.dv.mem));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                     bwd_with(&s, s.st.mem, s.ws, s.wb - 4, s.dk.desc, s.dv.mem));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, bwd_with(&s, s.st.mem, NULL, s.wb, s.dk.desc, s.dv.mem));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, bwd_with(&s, s.st.mem, s.ws, s.wb, s.dk.desc, NULL));
    cldnnTensorDescriptor_t dk4 = desc4(F, 1, 4, 8, 32);
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, bwd_with(&s, s.st.mem, s.ws, s.wb, dk4, s.dv.mem));
    /* dv written over dk */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, bwd_with(&s, s.st.mem, s.ws, s.wb, s.dk.desc, s.dk.mem));
    cldnnDestroyTensorDescriptor(dk4);
    bad_free(&s);
}
