/*
** test_descriptors.c: tensor, filter and activation descriptors (host data only: no device work).
**
** Checks Set/Get round trips (4d NCHW/NHWC packed strides, 4dEx, Nd with a bounded
** nbDimsRequested), size-in-bytes for every data type, the 63-bit span limit, and every bad input
** the contract names, each with a non-empty last-error string.
*/
#include "fixture.h"

#include <math.h>
#include <string.h>

TestSuite(tensor_desc);
TestSuite(filter_desc);
TestSuite(activation_desc);

/* A created tensor descriptor (fails the test otherwise). */
static cldnnTensorDescriptor_t new_tensor(void) {
    cldnnTensorDescriptor_t d = NULL;
    FX_OK(cldnnCreateTensorDescriptor(&d));
    FX_ASSERT(d != NULL, "CreateTensorDescriptor gave NULL");
    return d;
}

/* Requires Get4d(d) to return exactly these values. */
static void expect_4d(cldnnTensorDescriptor_t d, cldnnDataType_t dt, int n, int c, int h, int w, int ns, int cs,
                      int hs, int ws) {
    cldnnDataType_t gdt = (cldnnDataType_t)-1;
    int g[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    FX_OK(cldnnGetTensor4dDescriptor(d, &gdt, &g[0], &g[1], &g[2], &g[3], &g[4], &g[5], &g[6], &g[7]));
    int want[8] = {n, c, h, w, ns, cs, hs, ws};
    FX_ASSERT(gdt == dt, "dataType %d, want %d", (int)gdt, (int)dt);
    for (int i = 0; i < 8; i++)
        FX_ASSERT(g[i] == want[i], "Get4d field %d (n,c,h,w,ns,cs,hs,ws) = %d, want %d", i, g[i], want[i]);
}

/* Requires GetNd(d) with room for 8 to return exactly nd, dims, strides and dt. */
static void expect_nd(cldnnTensorDescriptor_t d, cldnnDataType_t dt, int nd, const int64_t* dims,
                      const int64_t* strides) {
    cldnnDataType_t gdt = (cldnnDataType_t)-1;
    int gnd = -1;
    int64_t gd[CLDNN_DIM_MAX], gs[CLDNN_DIM_MAX];
    FX_OK(cldnnGetTensorNdDescriptor(d, CLDNN_DIM_MAX, &gdt, &gnd, gd, gs));
    FX_ASSERT(gdt == dt && gnd == nd, "GetNd: dataType %d nbDims %d, want %d %d", (int)gdt, gnd, (int)dt, nd);
    for (int i = 0; i < nd; i++)
        FX_ASSERT(gd[i] == dims[i] && gs[i] == strides[i], "GetNd dim %d: %lld/%lld, want %lld/%lld", i,
                  (long long)gd[i], (long long)gs[i], (long long)dims[i], (long long)strides[i]);
}

/* ------------------------------------------------------------------------ tensor: Set/Get */

Test(tensor_desc, set4d_nchw) {
    cldnnTensorDescriptor_t d = new_tensor();
    FX_OK(cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 5, 7));
    expect_4d(d, CLDNN_DATA_FLOAT, 2, 3, 5, 7, 105, 35, 7, 1);
    expect_nd(d, CLDNN_DATA_FLOAT, 4, (const int64_t[]){2, 3, 5, 7}, (const int64_t[]){105, 35, 7, 1});
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

Test(tensor_desc, set4d_nhwc) {
    cldnnTensorDescriptor_t d = new_tensor();
    /* dims stay logical NCHW; strides are n = H*W*C, c = 1, h = W*C, w = C */
    FX_OK(cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NHWC, CLDNN_DATA_HALF, 2, 3, 5, 7));
    expect_4d(d, CLDNN_DATA_HALF, 2, 3, 5, 7, 105, 1, 21, 3);
    expect_nd(d, CLDNN_DATA_HALF, 4, (const int64_t[]){2, 3, 5, 7}, (const int64_t[]){105, 1, 21, 3});
    /* re-Set replaces everything */
    FX_OK(cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 1, 1));
    expect_4d(d, CLDNN_DATA_FLOAT, 1, 1, 1, 1, 1, 1, 1, 1);
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

Test(tensor_desc, set4d_ex_padded) {
    cldnnTensorDescriptor_t d = new_tensor();
    FX_OK(cldnnSetTensor4dDescriptorEx(d, CLDNN_DATA_FLOAT, 2, 3, 4, 5, 200, 60, 12, 2));
    expect_4d(d, CLDNN_DATA_FLOAT, 2, 3, 4, 5, 200, 60, 12, 2);
    size_t sz = 0;
    FX_OK(cldnnGetTensorSizeInBytes(d, &sz));
    size_t span = 1 + 1 * 200 + 2 * 60 + 3 * 12 + 4 * 2;
    FX_ASSERT(sz == span * 4, "size %zu, want %zu", sz, span * 4);
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

Test(tensor_desc, nd_round_trip) {
    for (int nd = 1; nd <= CLDNN_DIM_MAX; nd++) {
        cldnnTensorDescriptor_t d = new_tensor();
        int64_t dims[CLDNN_DIM_MAX], strides[CLDNN_DIM_MAX];
        int64_t s = 3; /* gaps: every stride bigger than packed */
        for (int i = nd - 1; i >= 0; i--) {
            dims[i] = 1 + (i * 7 + nd) % 4;
            strides[i] = s;
            s = s * dims[i] + 1;
        }
        FX_OK(cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, nd, dims, strides));
        expect_nd(d, CLDNN_DATA_FLOAT, nd, dims, strides);
        if (nd == 4)
            expect_4d(d, CLDNN_DATA_FLOAT, (int)dims[0], (int)dims[1], (int)dims[2], (int)dims[3], (int)strides[0],
                      (int)strides[1], (int)strides[2], (int)strides[3]);
        size_t sz = 0, span = 1;
        for (int i = 0; i < nd; i++)
            span += (size_t)((dims[i] - 1) * strides[i]);
        FX_OK(cldnnGetTensorSizeInBytes(d, &sz));
        FX_ASSERT(sz == span * 4, "nd %d: size %zu, want %zu", nd, sz, span * 4);
        FX_OK(cldnnDestroyTensorDescriptor(d));
    }
}

Test(tensor_desc, nd_get_bounded_by_request) {
    cldnnTensorDescriptor_t d = new_tensor();
    const int64_t dims[5] = {2, 3, 4, 5, 6}, strides[5] = {360, 120, 30, 6, 1};
    FX_OK(cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 5, dims, strides));
    int64_t gd[CLDNN_DIM_MAX], gs[CLDNN_DIM_MAX];
    for (int i = 0; i < CLDNN_DIM_MAX; i++)
        gd[i] = gs[i] = -77;
    int gnd = -1;
    cldnnDataType_t gdt;
    FX_OK(cldnnGetTensorNdDescriptor(d, 2, &gdt, &gnd, gd, gs));
    FX_ASSERT(gnd == 5, "nbDims %d, want the real count 5", gnd);
    FX_ASSERT(gd[0] == 2 && gd[1] == 3 && gs[0] == 360 && gs[1] == 120, "first two entries wrong");
    for (int i = 2; i < CLDNN_DIM_MAX; i++)
        FX_ASSERT(gd[i] == -77 && gs[i] == -77, "entry %d written past nbDimsRequested=2", i);
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

Test(tensor_desc, get4d_of_other_rank) {
    cldnnTensorDescriptor_t d = new_tensor();
    FX_OK(cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 5, (const int64_t[]){1, 2, 3, 4, 5},
                                     (const int64_t[]){120, 60, 20, 5, 1}));
    cldnnDataType_t dt;
    int v[8];
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM,
                     cldnnGetTensor4dDescriptor(d, &dt, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]));
    FX_OK(cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 3, (const int64_t[]){2, 3, 4}, (const int64_t[]){12, 4, 1}));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM,
                     cldnnGetTensor4dDescriptor(d, &dt, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]));
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

Test(tensor_desc, size_in_bytes_per_type) {
    const struct {
        cldnnDataType_t t;
        size_t size;
    } types[] = {{CLDNN_DATA_FLOAT, 4}, {CLDNN_DATA_DOUBLE, 8}, {CLDNN_DATA_HALF, 2},     {CLDNN_DATA_INT8, 1},
                 {CLDNN_DATA_INT32, 4}, {CLDNN_DATA_UINT8, 1},  {CLDNN_DATA_BFLOAT16, 2}, {CLDNN_DATA_INT64, 8}};
    cldnnTensorDescriptor_t d = new_tensor();
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        size_t sz = 0;
        FX_OK(cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NCHW, types[i].t, 2, 3, 4, 5));
        FX_OK(cldnnGetTensorSizeInBytes(d, &sz));
        FX_ASSERT(sz == 120 * types[i].size, "type %d packed: %zu bytes, want %zu", (int)types[i].t, sz,
                  120 * types[i].size);
        FX_OK(cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NHWC, types[i].t, 2, 3, 4, 5));
        FX_OK(cldnnGetTensorSizeInBytes(d, &sz));
        FX_ASSERT(sz == 120 * types[i].size, "type %d NHWC: %zu bytes, want %zu", (int)types[i].t, sz,
                  120 * types[i].size);
    }
    /* a 1-element view, and a strided view whose span is much less than count * stride */
    size_t sz = 0;
    FX_OK(cldnnSetTensorNdDescriptor(d, CLDNN_DATA_HALF, 1, (const int64_t[]){1}, (const int64_t[]){1000}));
    FX_OK(cldnnGetTensorSizeInBytes(d, &sz));
    FX_ASSERT(sz == 2, "1-element half view: %zu bytes, want 2", sz);
    FX_OK(cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 2, (const int64_t[]){3, 4}, (const int64_t[]){10, 2}));
    FX_OK(cldnnGetTensorSizeInBytes(d, &sz));
    FX_ASSERT(sz == (1 + 2 * 10 + 3 * 2) * 4, "strided view: %zu bytes, want %d", sz, (1 + 2 * 10 + 3 * 2) * 4);
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

Test(tensor_desc, span_limit_63_bits) {
    cldnnTensorDescriptor_t d = new_tensor();
    const int64_t big = (int64_t)1 << 31;
    const int64_t dims[3] = {big, big, big}, strides[3] = {big * big, big, 1};
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 3, dims, strides));
    /* the element size counts: 2^61 floats is 2^63 bytes (too big), 2^61 - 1 floats fits */
    const int64_t e61 = (int64_t)1 << 61, one = 1;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 1, (const int64_t[]){e61}, &one));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetTensorNdDescriptor(d, CLDNN_DATA_DOUBLE, 1, (const int64_t[]){e61 / 2}, &one));
    FX_OK(cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 1, (const int64_t[]){e61 - 1}, &one));
    size_t sz = 0;
    FX_OK(cldnnGetTensorSizeInBytes(d, &sz));
    FX_ASSERT((uint64_t)sz == (uint64_t)(e61 - 1) * 4, "size %zu", sz);
    /* overflow through a stride rather than a dimension */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 2, (const int64_t[]){3, 2},
                                                (const int64_t[]){INT64_MAX / 2, 1}));
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

/* ------------------------------------------------------------------------ tensor: bad input */

Test(tensor_desc, null_pointers) {
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnCreateTensorDescriptor(NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnSetTensor4dDescriptor(NULL, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 1, 1));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnSetTensor4dDescriptorEx(NULL, CLDNN_DATA_FLOAT, 1, 1, 1, 1, 1, 1, 1, 1));
    const int64_t dims[2] = {2, 3}, strides[2] = {3, 1};
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnSetTensorNdDescriptor(NULL, CLDNN_DATA_FLOAT, 2, dims, strides));
    cldnnTensorDescriptor_t d = new_tensor();
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 2, NULL, strides));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 2, dims, NULL));
    FX_OK(cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 2, dims, strides));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetTensorSizeInBytes(d, NULL));
    size_t sz;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetTensorSizeInBytes(NULL, &sz));
    int nd;
    cldnnDataType_t dt;
    int64_t gd[2], gs[2];
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetTensorNdDescriptor(NULL, 2, &dt, &nd, gd, gs));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetTensorNdDescriptor(d, 2, &dt, NULL, gd, gs));
    int v[8];
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnGetTensor4dDescriptor(NULL, &dt, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]));
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

Test(tensor_desc, destroy_null) { FX_OK(cldnnDestroyTensorDescriptor(NULL)); }

Test(tensor_desc, never_set) {
    cldnnTensorDescriptor_t d = new_tensor();
    cldnnDataType_t dt;
    int v[8], nd;
    int64_t gd[8], gs[8];
    size_t sz;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM,
                     cldnnGetTensor4dDescriptor(d, &dt, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnGetTensorNdDescriptor(d, 8, &dt, &nd, gd, gs));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnGetTensorSizeInBytes(d, &sz));
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

Test(tensor_desc, non_positive_dims_and_strides) {
    cldnnTensorDescriptor_t d = new_tensor();
    const int bad[] = {0, -1, -1000};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int b = bad[i];
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, b, 1, 1, 1));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NHWC, CLDNN_DATA_FLOAT, 1, b, 1, 1));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, b, 1));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 1, b));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetTensor4dDescriptorEx(d, CLDNN_DATA_FLOAT, 1, 1, b, 1, 1, 1, 1, 1));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetTensor4dDescriptorEx(d, CLDNN_DATA_FLOAT, 2, 2, 2, 2, b, 4, 2, 1));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetTensor4dDescriptorEx(d, CLDNN_DATA_FLOAT, 2, 2, 2, 2, 8, b, 2, 1));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetTensor4dDescriptorEx(d, CLDNN_DATA_FLOAT, 2, 2, 2, 2, 8, 4, b, 1));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetTensor4dDescriptorEx(d, CLDNN_DATA_FLOAT, 2, 2, 2, 2, 8, 4, 2, b));
        const int64_t dims[3] = {2, b, 2}, okdims[3] = {2, 2, 2}, strides[3] = {4, 2, b}, okstr[3] = {4, 2, 1};
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 3, dims, okstr));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 3, okdims, strides));
    }
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

Test(tensor_desc, nb_dims_range) {
    cldnnTensorDescriptor_t d = new_tensor();
    int64_t dims[CLDNN_DIM_MAX + 1], strides[CLDNN_DIM_MAX + 1];
    for (int i = 0; i <= CLDNN_DIM_MAX; i++)
        dims[i] = strides[i] = 1;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 0, dims, strides));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, -1, dims, strides));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, CLDNN_DIM_MAX + 1, dims, strides));
    FX_OK(cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, CLDNN_DIM_MAX, dims, strides));
    FX_OK(cldnnSetTensorNdDescriptor(d, CLDNN_DATA_FLOAT, 1, dims, strides));
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

Test(tensor_desc, bad_enums) {
    cldnnTensorDescriptor_t d = new_tensor();
    const int bad_types[] = {-1, 5, 7, 8, 11, 99};
    const int64_t dims[2] = {2, 3}, strides[2] = {3, 1};
    for (size_t i = 0; i < sizeof bad_types / sizeof bad_types[0]; i++) {
        cldnnDataType_t t = (cldnnDataType_t)bad_types[i];
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NCHW, t, 1, 2, 3, 4));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetTensor4dDescriptorEx(d, t, 1, 1, 1, 1, 1, 1, 1, 1));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetTensorNdDescriptor(d, t, 2, dims, strides));
    }
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetTensor4dDescriptor(d, (cldnnTensorFormat_t)2, CLDNN_DATA_FLOAT, 1, 2, 3, 4));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetTensor4dDescriptor(d, (cldnnTensorFormat_t)-1, CLDNN_DATA_FLOAT, 1, 2, 3, 4));
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

/* ------------------------------------------------------------------------------- filter */

/* A created filter descriptor. */
static cldnnFilterDescriptor_t new_filter(void) {
    cldnnFilterDescriptor_t f = NULL;
    FX_OK(cldnnCreateFilterDescriptor(&f));
    FX_ASSERT(f != NULL, "CreateFilterDescriptor gave NULL");
    return f;
}

/* Requires GetFilterNd(f) to give exactly these values. */
static void expect_filter(cldnnFilterDescriptor_t f, cldnnDataType_t dt, cldnnTensorFormat_t fmt, int nd,
                          const int64_t* dims) {
    cldnnDataType_t gdt = (cldnnDataType_t)-1;
    cldnnTensorFormat_t gfmt = (cldnnTensorFormat_t)-1;
    int gnd = -1;
    int64_t gd[CLDNN_DIM_MAX];
    FX_OK(cldnnGetFilterNdDescriptor(f, CLDNN_DIM_MAX, &gdt, &gfmt, &gnd, gd));
    FX_ASSERT(gdt == dt && gfmt == fmt && gnd == nd, "GetFilterNd: type %d format %d nbDims %d, want %d %d %d",
              (int)gdt, (int)gfmt, gnd, (int)dt, (int)fmt, nd);
    for (int i = 0; i < nd; i++)
        FX_ASSERT(gd[i] == dims[i], "filter dim %d = %lld, want %lld", i, (long long)gd[i], (long long)dims[i]);
}

Test(filter_desc, set4d_kcrs_and_krsc) {
    cldnnFilterDescriptor_t f = new_filter();
    FX_OK(cldnnSetFilter4dDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 64, 3, 7, 5));
    expect_filter(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 4, (const int64_t[]){64, 3, 7, 5});
    size_t sz = 0;
    FX_OK(cldnnGetFilterSizeInBytes(f, &sz));
    FX_ASSERT(sz == 64 * 3 * 7 * 5 * 4, "size %zu", sz);
    FX_OK(cldnnSetFilter4dDescriptor(f, CLDNN_DATA_HALF, CLDNN_TENSOR_NHWC, 8, 16, 3, 3));
    expect_filter(f, CLDNN_DATA_HALF, CLDNN_TENSOR_NHWC, 4, (const int64_t[]){8, 16, 3, 3});
    FX_OK(cldnnGetFilterSizeInBytes(f, &sz));
    FX_ASSERT(sz == 8 * 16 * 3 * 3 * 2, "size %zu", sz);
    FX_OK(cldnnSetFilter4dDescriptor(f, CLDNN_DATA_DOUBLE, CLDNN_TENSOR_NCHW, 2, 3, 1, 1));
    FX_OK(cldnnGetFilterSizeInBytes(f, &sz));
    FX_ASSERT(sz == 2 * 3 * 8, "double size %zu", sz);
    FX_OK(cldnnDestroyFilterDescriptor(f));
}

Test(filter_desc, nd_round_trip) {
    cldnnFilterDescriptor_t f = new_filter();
    for (int nd = 3; nd <= CLDNN_DIM_MAX; nd++) {
        int64_t dims[CLDNN_DIM_MAX];
        size_t count = 1;
        for (int i = 0; i < nd; i++) {
            dims[i] = 1 + (i * 5 + nd) % 4;
            count *= (size_t)dims[i];
        }
        FX_OK(cldnnSetFilterNdDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, nd, dims));
        expect_filter(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, nd, dims);
        size_t sz = 0;
        FX_OK(cldnnGetFilterSizeInBytes(f, &sz));
        FX_ASSERT(sz == count * 4, "nd %d: size %zu, want %zu", nd, sz, count * 4);
    }
    /* bounded Get */
    FX_OK(cldnnSetFilterNdDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NHWC, 5, (const int64_t[]){4, 3, 2, 2, 2}));
    int64_t gd[CLDNN_DIM_MAX];
    for (int i = 0; i < CLDNN_DIM_MAX; i++)
        gd[i] = -9;
    int gnd = 0;
    cldnnDataType_t gdt;
    cldnnTensorFormat_t gfmt;
    FX_OK(cldnnGetFilterNdDescriptor(f, 3, &gdt, &gfmt, &gnd, gd));
    FX_ASSERT(gnd == 5 && gd[0] == 4 && gd[1] == 3 && gd[2] == 2 && gd[3] == -9 && gd[4] == -9,
              "bounded GetFilterNd: nbDims %d dims %lld %lld %lld %lld %lld", gnd, (long long)gd[0], (long long)gd[1],
              (long long)gd[2], (long long)gd[3], (long long)gd[4]);
    FX_OK(cldnnDestroyFilterDescriptor(f));
}

Test(filter_desc, bad_inputs) {
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnCreateFilterDescriptor(NULL));
    FX_OK(cldnnDestroyFilterDescriptor(NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnSetFilter4dDescriptor(NULL, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 1, 1, 1, 1));
    cldnnFilterDescriptor_t f = new_filter();
    size_t sz;
    int nd;
    int64_t gd[8];
    cldnnDataType_t dt;
    cldnnTensorFormat_t fmt;
    /* never set */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnGetFilterSizeInBytes(f, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnGetFilterNdDescriptor(f, 8, &dt, &fmt, &nd, gd));
    /* sizes */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetFilter4dDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 0, 1, 1, 1));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetFilter4dDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 1, -2, 1, 1));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetFilter4dDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 1, 1, 0, 1));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetFilter4dDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NHWC, 1, 1, 1, 0));
    /* enums */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetFilter4dDescriptor(f, (cldnnDataType_t)5, CLDNN_TENSOR_NCHW, 1, 1, 1, 1));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetFilter4dDescriptor(f, CLDNN_DATA_FLOAT, (cldnnTensorFormat_t)2, 1, 1, 1, 1));
    /* nbDims outside [3, 8] */
    const int64_t dims[9] = {2, 2, 2, 2, 2, 2, 2, 2, 2};
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetFilterNdDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 2, dims));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetFilterNdDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 0, dims));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetFilterNdDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 9, dims));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetFilterNdDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 3, (const int64_t[]){2, 0, 3}));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnSetFilterNdDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 3, NULL));
    /* overflow of the byte size */
    const int64_t big = (int64_t)1 << 31;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetFilterNdDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 3, (const int64_t[]){big, big, big}));
    /* Get with NULL outputs */
    FX_OK(cldnnSetFilter4dDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 1, 2, 3, 3));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetFilterSizeInBytes(f, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetFilterSizeInBytes(NULL, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetFilterNdDescriptor(NULL, 8, &dt, &fmt, &nd, gd));
    FX_OK(cldnnDestroyFilterDescriptor(f));
}

/* --------------------------------------------------------------------------- activation */

static const cldnnActivationMode_t k_modes[] = {
    CLDNN_ACTIVATION_SIGMOID,  CLDNN_ACTIVATION_RELU,    CLDNN_ACTIVATION_TANH,       CLDNN_ACTIVATION_CLIPPED_RELU,
    CLDNN_ACTIVATION_ELU,      CLDNN_ACTIVATION_IDENTITY, CLDNN_ACTIVATION_SWISH,     CLDNN_ACTIVATION_LEAKY_RELU,
    CLDNN_ACTIVATION_SOFTPLUS, CLDNN_ACTIVATION_ABS,     CLDNN_ACTIVATION_GELU};

Test(activation_desc, round_trip_every_mode) {
    cldnnActivationDescriptor_t a = NULL;
    FX_OK(cldnnCreateActivationDescriptor(&a));
    FX_ASSERT(a != NULL, "CreateActivationDescriptor gave NULL");
    for (size_t i = 0; i < sizeof k_modes / sizeof k_modes[0]; i++) {
        for (int nan = 0; nan <= 1; nan++) {
            double coef = 0.25 + (double)i; /* > 0 and finite: valid for every mode */
            FX_OK(cldnnSetActivationDescriptor(a, k_modes[i], (cldnnNanPropagation_t)nan, coef));
            cldnnActivationMode_t m = (cldnnActivationMode_t)-1;
            cldnnNanPropagation_t n = (cldnnNanPropagation_t)-1;
            double c = -1;
            FX_OK(cldnnGetActivationDescriptor(a, &m, &n, &c));
            FX_ASSERT(m == k_modes[i] && (int)n == nan && c == coef, "mode %d nan %d coef %g came back as %d %d %g",
                      (int)k_modes[i], nan, coef, (int)m, (int)n, c);
        }
    }
    FX_OK(cldnnDestroyActivationDescriptor(a));
}

Test(activation_desc, swish_beta) {
    cldnnActivationDescriptor_t a = NULL;
    FX_OK(cldnnCreateActivationDescriptor(&a));
    double b = -1;
    FX_OK(cldnnGetActivationDescriptorSwishBeta(a, &b));
    FX_ASSERT(b == 1.0, "default swish beta %g, want 1", b);
    FX_OK(cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_SWISH, CLDNN_NOT_PROPAGATE_NAN, 0.0));
    FX_OK(cldnnGetActivationDescriptorSwishBeta(a, &b));
    FX_ASSERT(b == 1.0, "swish beta after Set %g, want the default 1", b);
    FX_OK(cldnnSetActivationDescriptorSwishBeta(a, 1.75));
    FX_OK(cldnnGetActivationDescriptorSwishBeta(a, &b));
    FX_ASSERT(b == 1.75, "swish beta %g, want 1.75", b);
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetActivationDescriptorSwishBeta(a, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetActivationDescriptorSwishBeta(NULL, &b));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnSetActivationDescriptorSwishBeta(NULL, 1.0));
    FX_OK(cldnnDestroyActivationDescriptor(a));
}

Test(activation_desc, bad_inputs) {
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnCreateActivationDescriptor(NULL));
    FX_OK(cldnnDestroyActivationDescriptor(NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnSetActivationDescriptor(NULL, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0));
    cldnnActivationDescriptor_t a = NULL;
    FX_OK(cldnnCreateActivationDescriptor(&a));
    const int bad_modes[] = {-1, 7, 8, 99, 104, 1000};
    for (size_t i = 0; i < sizeof bad_modes / sizeof bad_modes[0]; i++)
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                         cldnnSetActivationDescriptor(a, (cldnnActivationMode_t)bad_modes[i], CLDNN_NOT_PROPAGATE_NAN, 1.0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_RELU, (cldnnNanPropagation_t)2, 0.0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_RELU, (cldnnNanPropagation_t)-1, 0.0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_ELU, CLDNN_NOT_PROPAGATE_NAN, NAN));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_LEAKY_RELU, CLDNN_NOT_PROPAGATE_NAN, INFINITY));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, -INFINITY));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_CLIPPED_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_CLIPPED_RELU, CLDNN_NOT_PROPAGATE_NAN, -1.0));
    FX_OK(cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_CLIPPED_RELU, CLDNN_NOT_PROPAGATE_NAN, 1e-3));
    /* a rejected Set leaves the descriptor as it was */
    cldnnActivationMode_t m;
    cldnnNanPropagation_t n;
    double c;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetActivationDescriptor(a, (cldnnActivationMode_t)7, CLDNN_PROPAGATE_NAN, 2.0));
    FX_OK(cldnnGetActivationDescriptor(a, &m, &n, &c));
    FX_ASSERT(m == CLDNN_ACTIVATION_CLIPPED_RELU && n == CLDNN_NOT_PROPAGATE_NAN && c == 1e-3,
              "rejected Set changed the descriptor: %d %d %g", (int)m, (int)n, c);
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetActivationDescriptor(a, NULL, &n, &c));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetActivationDescriptor(NULL, &m, &n, &c));
    FX_OK(cldnnDestroyActivationDescriptor(a));
}
