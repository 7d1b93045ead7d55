/*
** fixture.c: the shared fixture of cldnn's Criterion suites (see fixture.h).
**
** State is per process (Criterion forks one per test): one lazily created handle, one lazily
** seeded generator. Every helper fails the running test through Criterion on an OpenCL or
** cldnn error instead of returning a code, so test bodies stay short.
*/
#include "fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------- handle and OpenCL */

static cldnnHandle_t g_handle;
static cl_command_queue g_queue;
static cl_context g_context;
static cl_device_id g_device;

/* Creates the process's handle and reads its queue, context and device. */
static void fx_init_handle(void) {
    if (g_handle != NULL)
        return;
    cldnnHandle_t h = NULL;
    cldnnStatus_t s = cldnnCreateDefault(&h);
    char err[2048];
    fx_last_error(err, sizeof err);
    FX_ASSERT(s == CLDNN_STATUS_SUCCESS && h != NULL, "cldnnCreateDefault (CLDNN_DEVICE=%s) failed: %s: %s",
              getenv("CLDNN_DEVICE") ? getenv("CLDNN_DEVICE") : "(unset)", cldnnGetErrorString(s), err);
    cl_command_queue q = NULL;
    s = cldnnGetQueue(h, &q);
    FX_ASSERT(s == CLDNN_STATUS_SUCCESS && q != NULL, "cldnnGetQueue on a new handle failed: %s",
              cldnnGetErrorString(s));
    cl_int e = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof g_context, &g_context, NULL);
    FX_ASSERT(e == CL_SUCCESS, "clGetCommandQueueInfo(CL_QUEUE_CONTEXT) = %d", (int)e);
    e = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof g_device, &g_device, NULL);
    FX_ASSERT(e == CL_SUCCESS, "clGetCommandQueueInfo(CL_QUEUE_DEVICE) = %d", (int)e);
    g_queue = q;
    g_handle = h;
}

cldnnHandle_t fx_handle(void) {
    fx_init_handle();
    return g_handle;
}

cl_command_queue fx_queue(void) {
    fx_init_handle();
    return g_queue;
}

cl_context fx_context(void) {
    fx_init_handle();
    return g_context;
}

cl_device_id fx_device(void) {
    fx_init_handle();
    return g_device;
}

void fx_finish(void) {
    cl_int e = clFinish(fx_queue());
    FX_ASSERT(e == CL_SUCCESS, "clFinish = %d", (int)e);
    fx_canary_check("at fx_finish");
}

static void canary_release_all(void);

void fx_fini(void) {
    if (g_handle == NULL)
        return;
    clFinish(g_queue);
    canary_release_all();
    cldnnDestroy(g_handle);
    g_handle = NULL;
    g_queue = NULL;
    g_context = NULL;
    g_device = NULL;
}

/* ------------------------------------------------------------------------- canary mode */

/* A guarded buffer: `parent` holds [guard | the sub-buffer handed out | guard], `guard` bytes on
** each side (a multiple of the device's base-address alignment, at least CANARY_MIN_GUARD). */
typedef struct {
    cl_mem parent, sub;
    size_t bytes, guard;
    char name[160];
} canary_buf;

enum { CANARY_MIN_GUARD = 1024 };

static int g_canary = -1; /* -1: CLDNN_TEST_CANARY not read yet */
static canary_buf* g_canaries;
static size_t g_ncanaries, g_canary_cap;

int fx_canary_enabled(void) {
    if (g_canary < 0) {
        const char* v = getenv("CLDNN_TEST_CANARY");
        g_canary = v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
    }
    return g_canary;
}

/* The guard pattern's byte at guard position i (side 0 before, 1 after): varies along the guard so
** that a stray store of any value, zero and NaN included, changes it. */
static unsigned char canary_byte(size_t i, int side) { return (unsigned char)(0xA5u ^ (i * 29u) ^ (side ? 0x5Au : 0u)); }

/* Reads one guard of c and fails the test on a changed byte. */
static void canary_check_one(const canary_buf* c, int side, const char* when) {
    unsigned char* got = malloc(c->guard);
    FX_ASSERT(got != NULL, "canary: out of host memory");
    size_t off = side ? c->guard + c->bytes : 0;
    cl_int e = clEnqueueReadBuffer(fx_queue(), c->parent, CL_TRUE, off, c->guard, got, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        free(got);
        FX_ASSERT(0, "canary: reading the guard of %s: clEnqueueReadBuffer = %d", c->name, (int)e);
    }
    size_t changed = 0, first = 0;
    for (size_t i = 0; i < c->guard; i++)
        if (got[i] != canary_byte(i, side)) {
            if (changed++ == 0)
                first = i;
        }
    free(got);
    /* byte distance from the buffer: before it, -1 is the last guard byte; after it, +0 the first */
    long long at = side ? (long long)first : (long long)first - (long long)c->guard;
    FX_ASSERT(changed == 0,
              "canary %s: %s (%zu bytes) was written outside its extent: %zu of the %zu guard bytes %s it changed, "
              "the first at byte %s%lld relative to its %s",
              when, c->name, c->bytes, changed, c->guard, side ? "after" : "before", side ? "+" : "", at,
              side ? "end" : "start");
}

void fx_canary_check(const char* when) {
    if (!fx_canary_enabled())
        return;
    for (size_t k = 0; k < g_ncanaries; k++) {
        canary_check_one(&g_canaries[k], 0, when);
        canary_check_one(&g_canaries[k], 1, when);
    }
}

/* A guarded sub-buffer of `bytes` bytes, registered under `name`. */
static cl_mem canary_buffer(size_t bytes, const char* name) {
    cl_uint align_bits = 0;
    cl_int e = clGetDeviceInfo(fx_device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
    FX_ASSERT(e == CL_SUCCESS, "canary: CL_DEVICE_MEM_BASE_ADDR_ALIGN = %d", (int)e);
    size_t align = align_bits / 8 ? align_bits / 8 : 1;
    size_t guard = (CANARY_MIN_GUARD + align - 1) / align * align;
    if (g_ncanaries == g_canary_cap) {
        size_t cap = g_canary_cap ? 2 * g_canary_cap : 16;
        canary_buf* nb = realloc(g_canaries, cap * sizeof *nb);
        FX_ASSERT(nb != NULL, "canary: out of host memory");
        g_canaries = nb;
        g_canary_cap = cap;
    }
    canary_buf* c = &g_canaries[g_ncanaries];
    memset(c, 0, sizeof *c);
    c->bytes = bytes;
    c->guard = guard;
    snprintf(c->name, sizeof c->name, "%s", name);
    c->parent = clCreateBuffer(fx_context(), CL_MEM_READ_WRITE, bytes + 2 * guard, NULL, &e);
    FX_ASSERT(e == CL_SUCCESS && c->parent != NULL, "canary: clCreateBuffer(%zu bytes) = %d", bytes + 2 * guard,
              (int)e);
    unsigned char* pat = malloc(guard);
    FX_ASSERT(pat != NULL, "canary: out of host memory");
    for (int side = 0; side < 2; side++) {
        for (size_t i = 0; i < guard; i++)
            pat[i] = canary_byte(i, side);
        e = clEnqueueWriteBuffer(fx_queue(), c->parent, CL_TRUE, side ? guard + bytes : 0, guard, pat, 0, NULL, NULL);
        if (e != CL_SUCCESS)
            break;
    }
    free(pat);
    FX_ASSERT(e == CL_SUCCESS, "canary: writing the guards = %d", (int)e);
    cl_buffer_region region = {guard, bytes};
    c->sub = clCreateSubBuffer(c->parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &e);
    FX_ASSERT(e == CL_SUCCESS && c->sub != NULL, "canary: clCreateSubBuffer(origin %zu, %zu bytes) = %d", guard, bytes,
              (int)e);
    g_ncanaries++;
    return c->sub;
}

/* Checks and releases the registered buffer m; returns 0 when m is not a canary buffer. */
static int canary_release(cl_mem m) {
    for (size_t k = 0; k < g_ncanaries; k++)
        if (g_canaries[k].sub == m) {
            canary_buf c = g_canaries[k];
            g_canaries[k] = g_canaries[--g_ncanaries]; /* unregistered before a failing check leaves */
            clReleaseMemObject(c.sub);
            clFinish(fx_queue());
            canary_check_one(&c, 0, "at release");
            canary_check_one(&c, 1, "at release");
            clReleaseMemObject(c.parent);
            return 1;
        }
    return 0;
}

/* fx_fini: checks every buffer still live, then releases them all. */
static void canary_release_all(void) {
    if (g_ncanaries == 0)
        return;
    fx_canary_check("at the end of the test");
    for (size_t k = 0; k < g_ncanaries; k++) {
        clReleaseMemObject(g_canaries[k].sub);
        clReleaseMemObject(g_canaries[k].parent);
    }
    g_ncanaries = 0;
}

cl_mem fx_buffer_named(size_t bytes, const char* name) {
    if (fx_canary_enabled())
        return canary_buffer(bytes ? bytes : 1, name);
    cl_int e = CL_SUCCESS;
    cl_mem m = clCreateBuffer(fx_context(), CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &e);
    FX_ASSERT(e == CL_SUCCESS && m != NULL, "clCreateBuffer(%zu bytes) = %d", bytes, (int)e);
    return m;
}

void fx_write(cl_mem m, size_t off, const void* src, size_t bytes) {
    if (bytes == 0)
        return;
    cl_int e = clEnqueueWriteBuffer(fx_queue(), m, CL_TRUE, off, bytes, src, 0, NULL, NULL);
    FX_ASSERT(e == CL_SUCCESS, "clEnqueueWriteBuffer(off %zu, %zu bytes) = %d", off, bytes, (int)e);
}

void fx_read(cl_mem m, size_t off, void* dst, size_t bytes) {
    if (bytes == 0)
        return;
    cl_int e = clEnqueueReadBuffer(fx_queue(), m, CL_TRUE, off, bytes, dst, 0, NULL, NULL);
    FX_ASSERT(e == CL_SUCCESS, "clEnqueueReadBuffer(off %zu, %zu bytes) = %d", off, bytes, (int)e);
    fx_canary_check("after a read-back");
}

void fx_write_floats(cl_mem m, size_t off, const float* src, size_t n) { fx_write(m, off, src, n * sizeof(float)); }

void fx_read_floats(cl_mem m, size_t off, float* dst, size_t n) { fx_read(m, off, dst, n * sizeof(float)); }

void fx_release(cl_mem m) {
    if (m != NULL && !canary_release(m))
        clReleaseMemObject(m);
}

void fx_last_error(char* buf, size_t size) {
    if (size == 0)
        return;
    buf[0] = '\0';
    cldnnGetLastErrorString(buf, size);
    buf[size - 1] = '\0';
}

/* ------------------------------------------------------------------------------ random */

static int g_seeded;
static uint64_t g_seed;
static ref_rng g_rng;

uint64_t fx_seed(void) {
    if (!g_seeded) {
        g_seeded = 1;
        g_seed = ref_seed_from_env();
        ref_rng_seed(&g_rng, g_seed);
        cr_log_info("seed=%llu (rerun with CLDNN_TEST_SEED=%llu)", (unsigned long long)g_seed,
                    (unsigned long long)g_seed);
    }
    return g_seed;
}

ref_rng* fx_rng(void) {
    fx_seed();
    return &g_rng;
}

float fx_uniform(double lo, double hi) {
    float f;
    ref_fill_uniform(fx_rng(), &f, 1, lo, hi);
    return f;
}

/* ------------------------------------------------------------------------------ half */

uint16_t fx_float_to_half(float f) {
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t a = x & 0x7fffffffu;
    if (a > 0x7f800000u) /* NaN: keep it quiet and keep the top payload bits */
        return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a >= 0x47800000u) /* >= 65536 (and inf): inf */
        return (uint16_t)(sign | 0x7c00u);
    if (a < 0x38800000u) { /* below 2^-14: a half subnormal or zero */
        uint32_t e = a >> 23;
        if (e < 102) /* below 2^-25: rounds to zero */
            return sign;
        uint32_t mant = (a & 0x7fffffu) | 0x800000u;
        uint32_t shift = 126 - e; /* 14..24 */
        uint32_t q = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (q & 1u)))
            q++;
        return (uint16_t)(sign | q);
    }
    uint32_t h = (a - 0x38000000u) >> 13; /* rebias 127 -> 15 */
    uint32_t rem = a & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++; /* a carry into the exponent is right, up to inf */
    return (uint16_t)(sign | h);
}

float fx_half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
    if (e == 0) {
        if (m == 0) {
            x = sign;
        } else {
            e = 113;
            while (!(m & 0x400u)) {
                m <<= 1;
                e--;
            }
            x = sign | (e << 23) | ((m & 0x3ffu) << 13);
        }
    } else if (e == 31) {
        x = sign | 0x7f800000u | (m << 13);
    } else {
        x = sign | ((e + 112) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

float fx_round_half(float f) { return fx_half_to_float(fx_float_to_half(f)); }

uint16_t fx_float_to_bf16(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float fx_bf16_to_float(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

float fx_round_bf16(float f) { return fx_bf16_to_float(fx_float_to_bf16(f)); }

float fx_round_dtype(cldnnDataType_t t, float f) {
    return t == CLDNN_DATA_HALF ? fx_round_half(f) : t == CLDNN_DATA_BFLOAT16 ? fx_round_bf16(f) : f;
}

/* ---------------------------------------------------------------------------- tensors */

size_t fx_dtype_size(cldnnDataType_t t) {
    switch (t) {
    case CLDNN_DATA_FLOAT:
    case CLDNN_DATA_INT32:
        return 4;
    case CLDNN_DATA_DOUBLE:
    case CLDNN_DATA_INT64:
        return 8;
    case CLDNN_DATA_HALF:
    case CLDNN_DATA_BFLOAT16:
        return 2;
    case CLDNN_DATA_INT8:
    case CLDNN_DATA_UINT8:
        return 1;
    }
    return 0;
}

const char* fx_dtype_name(cldnnDataType_t t) {
    return t == CLDNN_DATA_FLOAT ? "float" : t == CLDNN_DATA_HALF ? "half" : t == CLDNN_DATA_BFLOAT16 ? "bfloat16" : "other";
}

/* Allocates buffer and mirrors for t whose desc, dtype and view are already set. */
static void fx_tensor_alloc(fx_tensor* t, size_t offset_bytes) {
    t->elem = fx_dtype_size(t->dtype);
    FX_ASSERT(t->elem > 0, "fx_tensor: unsupported data type %d", (int)t->dtype);
    FX_ASSERT(offset_bytes % t->elem == 0, "fx_tensor: offset %zu not a multiple of %zu", offset_bytes, t->elem);
    t->offset = offset_bytes;
    t->count = ref_view_count(&t->view);
    int64_t span = ref_view_span(&t->view);
    t->nbuf = offset_bytes / t->elem + (size_t)span + FX_TAIL;
    t->host = calloc(t->nbuf, t->elem);
    t->got = calloc(t->nbuf, t->elem);
    t->mask = calloc(t->nbuf, 1);
    FX_ASSERT(t->host && t->got && t->mask, "fx_tensor: out of host memory (%zu elements)", t->nbuf);
    size_t base = offset_bytes / t->elem;
    for (int64_t i = 0; i < t->count; i++) {
        size_t at = base + (size_t)ref_view_offset(&t->view, i);
        FX_ASSERT(!t->mask[at], "fx_tensor: view overlaps itself at element %zu", at);
        t->mask[at] = 1;
    }
    char name[160];
    int at = snprintf(name, sizeof name, "tensor ");
    for (int d = 0; d < t->view.nd && at > 0 && (size_t)at < sizeof name; d++)
        at += snprintf(name + at, sizeof name - (size_t)at, "%s%lld", d ? "x" : "", (long long)t->view.dims[d]);
    if (at > 0 && (size_t)at < sizeof name)
        snprintf(name + at, sizeof name - (size_t)at, " (%zu-byte elements, offset %zu bytes)", t->elem, offset_bytes);
    t->mem = fx_buffer_named(t->nbuf * t->elem, name);
}

void fx_tensor_nd(fx_tensor* t, cldnnDataType_t dt, int nd, const int64_t* dims, const int64_t* strides,
                  size_t offset_bytes) {
    memset(t, 0, sizeof *t);
    t->dtype = dt;
    t->view = ref_view_packed(nd, dims);
    if (strides != NULL)
        for (int d = 0; d < nd; d++)
            t->view.strides[d] = strides[d];
    FX_OK(cldnnCreateTensorDescriptor(&t->desc));
    FX_OK(cldnnSetTensorNdDescriptor(t->desc, dt, nd, t->view.dims, t->view.strides));
    fx_tensor_alloc(t, offset_bytes);
}

void fx_tensor_4d(fx_tensor* t, cldnnTensorFormat_t fmt, cldnnDataType_t dt, int n, int c, int h, int w,
                  size_t offset_bytes) {
    memset(t, 0, sizeof *t);
    t->dtype = dt;
    const int64_t dims[4] = {n, c, h, w};
    t->view = ref_view_packed(4, dims);
    if (fmt == CLDNN_TENSOR_NHWC) {
        t->view.strides[0] = (int64_t)h * w * c;
        t->view.strides[1] = 1;
        t->view.strides[2] = (int64_t)w * c;
        t->view.strides[3] = c;
    }
    FX_OK(cldnnCreateTensorDescriptor(&t->desc));
    FX_OK(cldnnSetTensor4dDescriptor(t->desc, fmt, dt, n, c, h, w));
    fx_tensor_alloc(t, offset_bytes);
}

void fx_tensor_4d_ex(fx_tensor* t, cldnnDataType_t dt, int n, int c, int h, int w, int ns, int cs, int hs, int ws,
                     size_t offset_bytes) {
    memset(t, 0, sizeof *t);
    t->dtype = dt;
    const int64_t dims[4] = {n, c, h, w};
    t->view = ref_view_packed(4, dims);
    t->view.strides[0] = ns;
    t->view.strides[1] = cs;
    t->view.strides[2] = hs;
    t->view.strides[3] = ws;
    FX_OK(cldnnCreateTensorDescriptor(&t->desc));
    FX_OK(cldnnSetTensor4dDescriptorEx(t->desc, dt, n, c, h, w, ns, cs, hs, ws));
    fx_tensor_alloc(t, offset_bytes);
}

void fx_tensor_free(fx_tensor* t) {
    fx_release(t->mem);
    cldnnDestroyTensorDescriptor(t->desc);
    free(t->host);
    free(t->got);
    free(t->mask);
    memset(t, 0, sizeof *t);
}

/* Stores v at buffer element `at` of mirror p (converted to t's data type). */
static void store_elem(const fx_tensor* t, unsigned char* p, size_t at, double v) {
    if (t->elem == 2) {
        uint16_t h = t->dtype == CLDNN_DATA_HALF ? fx_float_to_half((float)v) : fx_float_to_bf16((float)v);
        memcpy(p + at * 2, &h, 2);
    } else {
        float f = (float)v;
        memcpy(p + at * 4, &f, 4);
    }
}

/* Loads buffer element `at` of mirror p as double. */
static double load_elem(const fx_tensor* t, const unsigned char* p, size_t at) {
    if (t->elem == 2) {
        uint16_t h;
        memcpy(&h, p + at * 2, 2);
        return t->dtype == CLDNN_DATA_HALF ? fx_half_to_float(h) : fx_bf16_to_float(h);
    }
    float f;
    memcpy(&f, p + at * 4, 4);
    return f;
}

/* Buffer element index of view element i. */
static size_t elem_at(const fx_tensor* t, int64_t i) {
    return t->offset / t->elem + (size_t)ref_view_offset(&t->view, i);
}

void fx_tensor_poison_nan(fx_tensor* t) {
    for (size_t i = 0; i < t->nbuf; i++)
        store_elem(t, t->host, i, NAN);
}

void fx_tensor_poison_random(fx_tensor* t) {
    for (size_t i = 0; i < t->nbuf; i++)
        store_elem(t, t->host, i, fx_uniform(-4.0, 4.0));
}

void fx_tensor_set(fx_tensor* t, int64_t i, double v) { store_elem(t, t->host, elem_at(t, i), v); }

void fx_tensor_fill_uniform(fx_tensor* t, double lo, double hi) {
    for (int64_t i = 0; i < t->count; i++) {
        double v = fx_uniform(lo, hi);
        while (fx_round_dtype(t->dtype, (float)v) == 0.0f)
            v = fx_uniform(lo, hi);
        fx_tensor_set(t, i, v);
    }
}

double fx_tensor_host(const fx_tensor* t, int64_t i) { return load_elem(t, t->host, elem_at(t, i)); }

double fx_tensor_got(const fx_tensor* t, int64_t i) { return load_elem(t, t->got, elem_at(t, i)); }

void fx_tensor_upload(fx_tensor* t) { fx_write(t->mem, 0, t->host, t->nbuf * t->elem); }

void fx_tensor_download(fx_tensor* t) { fx_read(t->mem, 0, t->got, t->nbuf * t->elem); }

int64_t fx_tensor_gaps_changed(const fx_tensor* t) {
    int64_t n = 0;
    for (size_t i = 0; i < t->nbuf; i++)
        if (!t->mask[i] && memcmp(t->host + i * t->elem, t->got + i * t->elem, t->elem) != 0)
            n++;
    return n;
}

void fx_unravel(const ref_view* v, int64_t i, int64_t* idx) {
    for (int d = v->nd - 1; d >= 0; d--) {
        idx[d] = i % v->dims[d];
        i /= v->dims[d];
    }
}

int64_t fx_compare(const fx_tensor* t, const double* want, const double* scale, double atol, double rtol,
                   char* msg, size_t msg_size, double* worst) {
    int64_t bad = 0;
    double w_ratio = 0.0;
    if (msg_size > 0)
        msg[0] = '\0';
    for (int64_t i = 0; i < t->count; i++) {
        double g = fx_tensor_got(t, i), w = want[i];
        double sc = scale != NULL ? scale[i] : fabs(w);
        double tol = atol + rtol * sc, err;
        int ok = ref_close(g, w, tol, &err);
        if (err / tol > w_ratio)
            w_ratio = err / tol;
        if (!ok) {
            if (bad == 0 && msg_size > 0) {
                int64_t idx[REF_DIM_MAX];
                char where[160];
                size_t at = 0;
                fx_unravel(&t->view, i, idx);
                for (int d = 0; d < t->view.nd && at < sizeof where; d++)
                    at += (size_t)snprintf(where + at, sizeof where - at, "%s%lld", d ? "," : "", (long long)idx[d]);
                snprintf(msg, msg_size, "element %lld [%s]: got %.9g, want %.9g (|err| %.3g > tol %.3g)",
                         (long long)i, where, g, w, fabs(g - w), tol);
            }
            bad++;
        }
    }
    if (worst != NULL)
        *worst = w_ratio;
    return bad;
}

/* ---------------------------------------------------------- layouts shared by the suites */

const float fx_alpha_beta[FX_NAB][2] = {{1.0f, 0.0f}, {0.5f, 0.25f}, {2.0f, -1.0f}};

void fx_tensor_from_desc(fx_tensor* t, int nd, const int64_t* dims, const fx_tdesc* d, cldnnDataType_t dt) {
    size_t off = d->offset * fx_dtype_size(dt);
    switch (d->kind) {
    case FX_NCHW:
    case FX_NHWC:
        fx_tensor_4d(t, d->kind == FX_NCHW ? CLDNN_TENSOR_NCHW : CLDNN_TENSOR_NHWC, dt, (int)dims[0], (int)dims[1],
                     (int)dims[2], (int)dims[3], off);
        break;
    case FX_EX:
        fx_tensor_4d_ex(t, dt, (int)dims[0], (int)dims[1], (int)dims[2], (int)dims[3], (int)d->strides[0],
                        (int)d->strides[1], (int)d->strides[2], (int)d->strides[3], off);
        break;
    case FX_ND:
        fx_tensor_nd(t, dt, nd, dims, d->strides[0] ? d->strides : NULL, off);
        break;
    }
}

void fx_poison_out(fx_tensor* t, float beta) {
    if (beta == 0.0f)
        fx_tensor_poison_nan(t);
    else
        fx_tensor_poison_random(t);
}

float* fx_tensor_host_floats(const fx_tensor* t) {
    float* p = malloc((size_t)t->count * sizeof(float) + 1);
    FX_ASSERT(p != NULL, "out of memory");
    for (int64_t i = 0; i < t->count; i++)
        p[i] = (float)fx_tensor_host(t, i);
    return p;
}

void fx_expect_untouched(fx_tensor* t, const char* what, const char* ctx) {
    fx_tensor_download(t);
    FX_ASSERT(memcmp(t->host, t->got, t->nbuf * t->elem) == 0, "%s: %s was modified", ctx, what);
}
