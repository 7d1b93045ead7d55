/*
** test_dropout.c: dropout descriptors, cldnnDropoutForward/Backward and the reserve.
**
** The mask is checked bit for bit against the host build of kernels/common/philox.h (itself
** checked against Random123's known answers), at the element's logical index, on packed, NHWC,
** padded and 5-d views, with and without a reserve; y and dx are checked exactly against
** x * mask * (float)(1 / (1 - p)) rounded once to the data type. Plus the kept fraction (within
** 4 standard deviations), same (seed, offset) -> same mask, a moved offset or seed -> another
** mask, the backward with and without reserve, a finite-difference check of the backward, in
** place, p = 0, HALF, BFLOAT16, and every bad input.
*/
#include "fixture.h"

#include "../kernels/common/philox.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(dropout, .fini = fx_fini);
TestSuite(dropout_bad, .fini = fx_fini);

/* Random123's kat_vectors for philox4x32_10. */
Test(dropout, philox_known_answers) {
    static const uint32_t kat[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x408f276du, 0x41c83b0eu,
         0xa20bc7c6u, 0x6d5451fdu},
        {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u, 0xd16cfe09u, 0x94fdccebu,
         0x5001e420u, 0x24126ea1u},
    };
    for (int t = 0; t < 3; t++) {
        uint32_t c[4] = {kat[t][0], kat[t][1], kat[t][2], kat[t][3]};
        philox4x32_10(c, kat[t][4], kat[t][5]);
        for (int i = 0; i < 4; i++)
            FX_ASSERT(c[i] == kat[t][6 + i], "vector %d word %d: %08x, want %08x", t, i, c[i], kat[t][6 + i]);
    }
}

/* The host mask of logical element i. */
static int host_keep(float p, uint64_t seed, uint64_t offset, uint64_t i) {
    uint32_t gen[4] = {(uint32_t)seed, (uint32_t)(seed >> 32), (uint32_t)offset, (uint32_t)(offset >> 32)};
    uint32_t blk[4] = {0, 0, 0, 0};
    uint64_t cached = ~(uint64_t)0;
    return philox_dropout_keep(blk, &cached, gen, (uint32_t)floor((double)p * 4294967296.0), i);
}

static cldnnDropoutDescriptor_t make_drop(float p, uint64_t seed, uint64_t offset) {
    cldnnDropoutDescriptor_t d;
    FX_OK(cldnnCreateDropoutDescriptor(&d));
    FX_OK(cldnnSetDropoutDescriptor(d, p, seed, offset));
    return d;
}

typedef struct {
    const char* name;
    int nd;
    int64_t dims[8];
    fx_tdesc x, y;
} drop_case;

static const drop_case k_cases[] = {
    {"packed, aligned", 4, {4, 8, 16, 33}, {FX_NCHW, {0}, 4}, {FX_NCHW, {0}, 8}},
    {"packed, offsets", 4, {2, 3, 5, 7}, {FX_NCHW, {0}, 3}, {FX_NCHW, {0}, 1}},
    {"nhwc both", 4, {2, 5, 3, 7}, {FX_NHWC, {0}, 1}, {FX_NHWC, {0}, 2}},
    {"nchw -> nhwc", 4, {2, 5, 3, 7}, {FX_NCHW, {0}, 0}, {FX_NHWC, {0}, 4}},
    {"padded 4dEx", 4, {2, 3, 5, 7}, {FX_EX, {256, 83, 16, 2}, 7}, {FX_EX, {160, 50, 9, 1}, 4}},
    {"5-d gaps", 5, {2, 3, 4, 3, 5}, {FX_ND, {400, 120, 28, 8, 1}, 7}, {FX_ND, {0}, 3}},
};
#define NCASES (sizeof k_cases / sizeof k_cases[0])

/* What a forward (or backward) gave: the mask seen, and how many elements were kept. */
typedef struct {
    unsigned char* mask; /* logical order */
    int64_t kept;
} drop_out;

/* Runs one direction on case k: out = in * mask * scale, with the reserve at byte offset 3 when
** use_reserve (backward: reserve holds `mask_in`, written before the call). Checks out exactly,
** the mask against the host Philox, the reserve's bytes, and that nothing else changed. */
static drop_out run_dir(const drop_case* k, int fwd, float p, uint64_t seed, uint64_t offset, int use_reserve,
                        const unsigned char* mask_in, cldnnDataType_t dt, int inplace) {
    fx_tensor in, outt;
    fx_tensor_from_desc(&in, k->nd, k->dims, &k->x, dt);
    fx_tensor_poison_random(&in);
    fx_tensor_fill_uniform(&in, -3.0, 3.0);
    fx_tensor_upload(&in);
    fx_tensor* out = &in;
    if (!inplace) {
        fx_tensor_from_desc(&outt, k->nd, k->dims, &k->y, dt);
        fx_tensor_poison_nan(&outt);
        fx_tensor_upload(&outt);
        out = &outt;
    }
    size_t rsize = 0;
    FX_OK(cldnnDropoutGetReserveSpaceSize(in.desc, &rsize));
    FX_ASSERT(rsize == (size_t)in.count, "reserve size %zu for %lld elements", rsize, (long long)in.count);
    const size_t roff = 3;
    unsigned char* rhost = malloc(rsize + roff + 4);
    FX_ASSERT(rhost != NULL, "out of memory");
    memset(rhost, 0x5a, rsize + roff + 4);
    if (!fwd && use_reserve)
        memcpy(rhost + roff, mask_in, rsize);
    cl_mem reserve = NULL;
    if (use_reserve) {
        reserve = fx_buffer(rsize + roff + 4);
        fx_write(reserve, 0, rhost, rsize + roff + 4);
    }
    float* x = fx_tensor_host_floats(&in);
    cldnnDropoutDescriptor_t d = make_drop(p, seed, offset);
    if (fwd)
        FX_OK(cldnnDropoutForward(fx_handle(), d, in.desc, in.mem, in.offset, out->desc, out->mem, out->offset,
                                  reserve, use_reserve ? roff : 0, use_reserve ? rsize : 0));
    else
        FX_OK(cldnnDropoutBackward(fx_handle(), d, in.desc, in.mem, in.offset, out->desc, out->mem, out->offset,
                                   reserve, use_reserve ? roff : 0, use_reserve ? rsize : 0));
    fx_tensor_download(out);
    const float scale = (float)(1.0 / (1.0 - (double)p));
    drop_out r = {malloc((size_t)in.count), 0};
    FX_ASSERT(r.mask != NULL, "out of memory");
    char what[200];
    snprintf(what, sizeof what, "dropout %s \"%s\"%s p %g seed %llu offset %llu%s, %s", fwd ? "fwd" : "bwd", k->name,
             inplace ? " in place" : "", (double)p, (unsigned long long)seed, (unsigned long long)offset,
             use_reserve ? " with reserve" : "", dt == CLDNN_DATA_HALF ? "half" : dt == CLDNN_DATA_BFLOAT16 ? "bfloat16" : "float");
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < in.count; i++) {
        int keep = (!fwd && use_reserve) ? mask_in[i] != 0 : host_keep(p, seed, offset, (uint64_t)i);
        FX_ASSERT(keep == host_keep(p, seed, offset, (uint64_t)i), "%s: the given mask differs from Philox", what);
        r.mask[i] = (unsigned char)keep;
        r.kept += keep;
        float want = fx_round_dtype(dt, x[i] * ((float)keep * scale));
        float got = (float)fx_tensor_got(out, i);
        if (got != want) {
            if (first < 0)
                first = i;
            bad++;
        }
    }
    FX_ASSERT(bad == 0, "%s: %lld of %lld wrong; first at %lld: got %.9g, want %.9g (x %.9g, kept %d)", what,
              (long long)bad, (long long)in.count, (long long)first, fx_tensor_got(out, first),
              (double)fx_round_dtype(dt, x[first] * ((float)r.mask[first] * scale)), (double)x[first],
              r.mask[first]);
    FX_ASSERT(fx_tensor_gaps_changed(out) == 0, "%s: elements outside the output view changed", what);
    if (!inplace)
        fx_expect_untouched(&in, "the input", what);
    if (use_reserve) {
        unsigned char* rgot = malloc(rsize + roff + 4);
        FX_ASSERT(rgot != NULL, "out of memory");
        fx_read(reserve, 0, rgot, rsize + roff + 4);
        if (fwd)
            memcpy(rhost + roff, r.mask, rsize);
        FX_ASSERT(memcmp(rgot, rhost, rsize + roff + 4) == 0, "%s: the reserve is not the mask (or bytes around it changed)",
                  what);
        free(rgot);
        fx_release(reserve);
    }
    free(rhost);
    free(x);
    cldnnDestroyDropoutDescriptor(d);
    if (!inplace)
        fx_tensor_free(&outt);
    fx_tensor_free(&in);
    return r;
}

/* Every layout, with and without reserve: forward, then backward from the reserve and from the
** descriptor, each equal to the forward's mask. */
Test(dropout, layouts_forward_backward) {
    for (size_t k = 0; k < NCASES; k++)
        for (int res = 0; res <= 1; res++) {
            const float p = 0.3f;
            const uint64_t seed = 0x123456789abcdefull + k, offset = 7;
            drop_out f = run_dir(&k_cases[k], 1, p, seed, offset, res, NULL, CLDNN_DATA_FLOAT, 0);
            drop_out b = run_dir(&k_cases[k], 0, p, seed, offset, res, f.mask, CLDNN_DATA_FLOAT, 0);
            int64_t n = 1;
            for (int d = 0; d < k_cases[k].nd; d++)
                n *= k_cases[k].dims[d];
            FX_ASSERT(memcmp(f.mask, b.mask, (size_t)n) == 0, "\"%s\": backward's mask differs", k_cases[k].name);
            free(f.mask);
            free(b.mask);
        }
}

/* The kept fraction of 1 - p within 4 standard deviations, for several p. */
Test(dropout, kept_fraction) {
    const drop_case* k = &k_cases[0];
    const float ps[] = {0.1f, 0.5f, 0.9f};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        drop_out f = run_dir(k, 1, ps[i], 42, 1000 + i, 0, NULL, CLDNN_DATA_FLOAT, 0);
        const double n = 4.0 * 8 * 16 * 33, q = 1.0 - ps[i];
        const double sd = sqrt(n * q * (1.0 - q));
        FX_ASSERT(fabs((double)f.kept - n * q) <= 4.0 * sd, "p %g: kept %lld of %.0f (expected %.0f +- %.0f)",
                  (double)ps[i], (long long)f.kept, n, n * q, 4.0 * sd);
        free(f.mask);
    }
}

/* The same (seed, offset) gives the same mask; a moved offset or seed another one. */
Test(dropout, streams) {
    const drop_case* k = &k_cases[0];
    const size_t n = 4 * 8 * 16 * 33;
    drop_out a = run_dir(k, 1, 0.5f, 99, 5, 0, NULL, CLDNN_DATA_FLOAT, 0);
    drop_out b = run_dir(k, 1, 0.5f, 99, 5, 1, NULL, CLDNN_DATA_FLOAT, 0);
    drop_out c = run_dir(k, 1, 0.5f, 99, 6, 0, NULL, CLDNN_DATA_FLOAT, 0);
    drop_out e = run_dir(k, 1, 0.5f, 100, 5, 0, NULL, CLDNN_DATA_FLOAT, 0);
    FX_ASSERT(memcmp(a.mask, b.mask, n) == 0, "two calls with the same (seed, offset) differ");
    size_t dc = 0, de = 0;
    for (size_t i = 0; i < n; i++) {
        dc += a.mask[i] != c.mask[i];
        de += a.mask[i] != e.mask[i];
    }
    /* independent masks at p = 0.5 differ in half the elements */
    FX_ASSERT(dc > n / 3 && de > n / 3, "moving the offset changed %zu of %zu, the seed %zu", dc, n, de);
    free(a.mask);
    free(b.mask);
    free(c.mask);
    free(e.mask);
}

/* p = 0 copies; in place on x works with and without reserve. */
Test(dropout, copy_and_in_place) {
    drop_out f = run_dir(&k_cases[1], 1, 0.0f, 1, 2, 1, NULL, CLDNN_DATA_FLOAT, 0);
    FX_ASSERT(f.kept == 2 * 3 * 5 * 7, "p = 0 dropped %lld elements", (long long)(210 - f.kept));
    free(f.mask);
    for (int res = 0; res <= 1; res++) {
        drop_out g = run_dir(&k_cases[0], 1, 0.25f, 3, 4, res, NULL, CLDNN_DATA_FLOAT, 1);
        drop_out b = run_dir(&k_cases[0], 0, 0.25f, 3, 4, res, g.mask, CLDNN_DATA_FLOAT, 1);
        free(g.mask);
        free(b.mask);
    }
}

Test(dropout, half_and_bfloat16) {
    const cldnnDataType_t dts[] = {CLDNN_DATA_HALF, CLDNN_DATA_BFLOAT16};
    for (size_t t = 0; t < 2; t++)
        for (size_t k = 0; k < 3; k++) {
            drop_out f = run_dir(&k_cases[k], 1, 0.2f, 11, 12, 1, NULL, dts[t], 0);
            drop_out b = run_dir(&k_cases[k], 0, 0.2f, 11, 12, 1, f.mask, dts[t], 0);
            free(f.mask);
            free(b.mask);
        }
}

/* Dropout is linear given the mask: the central difference of y along a direction v,
** (y(x + h v) - y(x - h v)) / 2h, dotted with dy must equal dx . v, dx from the backward. */
Test(dropout, finite_difference) {
    const drop_case* k = &k_cases[1];
    const float p = 0.4f, h = 0.25f;
    fx_tensor x, y, v, dy, dx;
    const fx_tdesc pk = {FX_NCHW, {0}, 0};
    fx_tensor_from_desc(&x, k->nd, k->dims, &pk, CLDNN_DATA_FLOAT);
    fx_tensor_from_desc(&y, k->nd, k->dims, &pk, CLDNN_DATA_FLOAT);
    fx_tensor_from_desc(&v, k->nd, k->dims, &pk, CLDNN_DATA_FLOAT);
    fx_tensor_from_desc(&dy, k->nd, k->dims, &pk, CLDNN_DATA_FLOAT);
    fx_tensor_from_desc(&dx, k->nd, k->dims, &pk, CLDNN_DATA_FLOAT);
    fx_tensor_fill_uniform(&x, -2.0, 2.0);
    fx_tensor_fill_uniform(&v, -1.0, 1.0);
    fx_tensor_fill_uniform(&dy, -1.0, 1.0);
    fx_tensor_upload(&dy);
    cldnnDropoutDescriptor_t d = make_drop(p, 77, 3);
    const int64_t n = x.count;
    double* yp = malloc((size_t)n * sizeof(double));
    FX_ASSERT(yp != NULL, "out of memory");
    double fd = 0.0;
    for (int s = -1; s <= 1; s += 2) {
        fx_tensor xs;
        fx_tensor_from_desc(&xs, k->nd, k->dims, &pk, CLDNN_DATA_FLOAT);
        for (int64_t i = 0; i < n; i++)
            fx_tensor_set(&xs, i, fx_tensor_host(&x, i) + s * h * fx_tensor_host(&v, i));
        fx_tensor_upload(&xs);
        FX_OK(cldnnDropoutForward(fx_handle(), d, xs.desc, xs.mem, 0, y.desc, y.mem, 0, NULL, 0, 0));
        fx_tensor_download(&y);
        for (int64_t i = 0; i < n; i++)
            yp[i] = s < 0 ? fx_tensor_got(&y, i) : (fx_tensor_got(&y, i) - yp[i]) / (2.0 * h);
        fx_tensor_free(&xs);
    }
    for (int64_t i = 0; i < n; i++)
        fd += yp[i] * fx_tensor_host(&dy, i);
    FX_OK(cldnnDropoutBackward(fx_handle(), d, dy.desc, dy.mem, 0, dx.desc, dx.mem, 0, NULL, 0, 0));
    fx_tensor_download(&dx);
    double an = 0.0, mag = 0.0;
    for (int64_t i = 0; i < n; i++) {
        an += fx_tensor_got(&dx, i) * fx_tensor_host(&v, i);
        mag += fabs(fx_tensor_got(&dx, i) * fx_tensor_host(&v, i));
    }
    FX_ASSERT(mag > 1.0, "the backward is all zeros");
    FX_ASSERT(fabs(fd - an) <= 1e-5 * mag, "finite difference %.9g, backward %.9g", fd, an);
    free(yp);
    cldnnDestroyDropoutDescriptor(d);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    fx_tensor_free(&v);
    fx_tensor_free(&dy);
    fx_tensor_free(&dx);
}

Test(dropout_bad, descriptor) {
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER, OB = CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND;
    cldnnDropoutDescriptor_t d;
    FX_EXPECT_STATUS(NP, cldnnCreateDropoutDescriptor(NULL));
    FX_OK(cldnnCreateDropoutDescriptor(&d));
    float p = -1.0f;
    uint64_t seed = 1, offset = 1;
    FX_OK(cldnnGetDropoutDescriptor(d, &p, &seed, &offset));
    FX_ASSERT(p == 0.0f && seed == 0 && offset == 0, "a new descriptor is not (0, 0, 0)");
    FX_OK(cldnnSetDropoutDescriptor(d, 0.5f, 1ull << 40, 3));
    FX_OK(cldnnGetDropoutDescriptor(d, &p, &seed, &offset));
    FX_ASSERT(p == 0.5f && seed == 1ull << 40 && offset == 3, "round trip");
    FX_OK(cldnnGetDropoutDescriptor(d, NULL, NULL, &offset));
    FX_EXPECT_STATUS(NP, cldnnSetDropoutDescriptor(NULL, 0.5f, 1, 1));
    FX_EXPECT_STATUS(OB, cldnnSetDropoutDescriptor(d, 1.0f, 1, 1));
    FX_EXPECT_STATUS(OB, cldnnSetDropoutDescriptor(d, -0.1f, 1, 1));
    FX_EXPECT_STATUS(OB, cldnnSetDropoutDescriptor(d, NAN, 1, 1));
    FX_EXPECT_STATUS(NP, cldnnGetDropoutDescriptor(NULL, &p, &seed, &offset));
    FX_OK(cldnnGetDropoutDescriptor(d, &p, NULL, NULL));
    FX_ASSERT(p == 0.5f, "a failed Set changed the descriptor");
    size_t sz;
    cldnnTensorDescriptor_t unset;
    FX_OK(cldnnCreateTensorDescriptor(&unset));
    FX_EXPECT_STATUS(NP, cldnnDropoutGetReserveSpaceSize(NULL, &sz));
    FX_EXPECT_STATUS(NP, cldnnDropoutGetReserveSpaceSize(unset, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnDropoutGetReserveSpaceSize(unset, &sz));
    cldnnDestroyTensorDescriptor(unset);
    FX_OK(cldnnDestroyDropoutDescriptor(d));
    FX_OK(cldnnDestroyDropoutDescriptor(NULL));
}

Test(dropout_bad, arguments) {
    cldnnHandle_t h = fx_handle();
    const fx_tdesc p1 = {FX_NCHW, {0}, 1};
    const int64_t dims[4] = {2, 3, 5, 7};
    fx_tensor x, y, yw, yh, xd, yd;
    fx_tensor_from_desc(&x, 4, dims, &p1, CLDNN_DATA_FLOAT);
    fx_tensor_from_desc(&y, 4, dims, &p1, CLDNN_DATA_FLOAT);
    fx_tensor_from_desc(&yw, 4, (const int64_t[]){2, 3, 5, 8}, &p1, CLDNN_DATA_FLOAT);
    fx_tensor_from_desc(&yh, 4, dims, &p1, CLDNN_DATA_HALF);
    fx_tensor_from_desc(&xd, 4, dims, &p1, CLDNN_DATA_DOUBLE);
    fx_tensor_from_desc(&yd, 4, dims, &p1, CLDNN_DATA_DOUBLE);
    fx_tensor_poison_random(&y);
    fx_tensor_upload(&y);
    cl_mem r = fx_buffer(210), rsmall = fx_buffer(100);
    cldnnDropoutDescriptor_t d = make_drop(0.5f, 1, 2);
    cldnnTensorDescriptor_t unset;
    FX_OK(cldnnCreateTensorDescriptor(&unset));
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER, BP = CLDNN_STATUS_BAD_PARAM,
                        SI = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
    for (int fwd = 0; fwd <= 1; fwd++) {
        cldnnStatus_t (*f)(cldnnHandle_t, const cldnnDropoutDescriptor_t, const cldnnTensorDescriptor_t, cl_mem,
                           size_t, const cldnnTensorDescriptor_t, cl_mem, size_t, cl_mem, size_t, size_t) =
            fwd ? cldnnDropoutForward : cldnnDropoutBackward;
        FX_EXPECT_STATUS(NP, f(NULL, d, x.desc, x.mem, 4, y.desc, y.mem, 4, r, 0, 210));
        FX_EXPECT_STATUS(NP, f(h, NULL, x.desc, x.mem, 4, y.desc, y.mem, 4, r, 0, 210));
        FX_EXPECT_STATUS(NP, f(h, d, NULL, x.mem, 4, y.desc, y.mem, 4, r, 0, 210));
        FX_EXPECT_STATUS(NP, f(h, d, x.desc, x.mem, 4, NULL, y.mem, 4, r, 0, 210));
        FX_EXPECT_STATUS(NP, f(h, d, x.desc, NULL, 4, y.desc, y.mem, 4, r, 0, 210));
        FX_EXPECT_STATUS(NP, f(h, d, x.desc, x.mem, 4, y.desc, NULL, 4, r, 0, 210));
        FX_EXPECT_STATUS(BP, f(h, d, unset, x.mem, 4, y.desc, y.mem, 4, r, 0, 210));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, f(h, d, x.desc, x.mem, 4, yw.desc, yw.mem, 4, r, 0, 210));
        FX_EXPECT_STATUS(BP, f(h, d, x.desc, x.mem, 4, yh.desc, yh.mem, 4, r, 0, 210));
        FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, f(h, d, xd.desc, xd.mem, 8, yd.desc, yd.mem, 8, r, 0, 210));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_MISALIGNED, f(h, d, x.desc, x.mem, 2, y.desc, y.mem, 4, r, 0, 210));
        FX_EXPECT_STATUS(SI, f(h, d, x.desc, x.mem, 4 * (2 + FX_TAIL), y.desc, y.mem, 4, r, 0, 210));
        /* the reserve: too small by its size argument, by its buffer, at an offset; a size without one */
        FX_EXPECT_STATUS(SI, f(h, d, x.desc, x.mem, 4, y.desc, y.mem, 4, r, 0, 209));
        FX_EXPECT_STATUS(SI, f(h, d, x.desc, x.mem, 4, y.desc, y.mem, 4, rsmall, 0, 210));
        FX_EXPECT_STATUS(SI, f(h, d, x.desc, x.mem, 4, y.desc, y.mem, 4, r, 1, 210));
        FX_EXPECT_STATUS(BP, f(h, d, x.desc, x.mem, 4, y.desc, y.mem, 4, NULL, 0, 210));
        /* y overlapping x without being it */
        FX_EXPECT_STATUS(BP, f(h, d, x.desc, y.mem, 4, y.desc, y.mem, 8, NULL, 0, 0));
    }
    fx_expect_untouched(&y, "y", "bad arguments");
    cldnnDestroyTensorDescriptor(unset);
    cldnnDestroyDropoutDescriptor(d);
    fx_release(r);
    fx_release(rsmall);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    fx_tensor_free(&yw);
    fx_tensor_free(&yh);
    fx_tensor_free(&xd);
    fx_tensor_free(&yd);
}
