/*
** test_handle.c: status names, version, last-error detail, handle lifecycle, queue binding and
** the CLDNN_DEVICE selection of cldnnCreateDefault.
**
** Tests that change CLDNN_DEVICE do so with setenv inside their own process (Criterion forks one
** per test), so they cannot disturb other tests. Device facts (names, types, platform order) are
** read from OpenCL directly, never from the library under test.
*/
#include "fixture.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

TestSuite(handle, .fini = fx_fini);
TestSuite(status, .fini = fx_fini);
TestSuite(device_env, .fini = fx_fini);

/* Every status of the header's enum with its spelled name. */
#define STATUS(x) {CLDNN_STATUS_##x, "CLDNN_STATUS_" #x}
static const struct {
    cldnnStatus_t s;
    const char* name;
} k_statuses[] = {
    STATUS(SUCCESS),
    STATUS(NOT_INITIALIZED),
    STATUS(VERSION_MISMATCH),
    STATUS(BAD_PARAM),
    STATUS(BAD_PARAM_NULL_POINTER),
    STATUS(BAD_PARAM_MISALIGNED),
    STATUS(BAD_PARAM_OUT_OF_BOUND),
    STATUS(BAD_PARAM_SIZE_INSUFFICIENT),
    STATUS(BAD_PARAM_QUEUE_MISMATCH),
    STATUS(BAD_PARAM_SHAPE_MISMATCH),
    STATUS(NOT_SUPPORTED),
    STATUS(NOT_SUPPORTED_SHAPE),
    STATUS(NOT_SUPPORTED_DATA_TYPE),
    STATUS(NOT_SUPPORTED_LAYOUT),
    STATUS(NOT_SUPPORTED_DEVICE),
    STATUS(INTERNAL_ERROR),
    STATUS(INTERNAL_ERROR_COMPILATION_FAILED),
    STATUS(INTERNAL_ERROR_HOST_ALLOCATION_FAILED),
    STATUS(INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED),
    STATUS(EXECUTION_FAILED),
    STATUS(EXECUTION_FAILED_OPENCL),
};
#undef STATUS
#define NSTATUS (sizeof k_statuses / sizeof k_statuses[0])

/* Case-insensitive strstr. */
static const char* stristr(const char* hay, const char* needle) {
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return hay;
    }
    return n == 0 ? hay : NULL;
}

/* The last-error string right now. */
static const char* last_error(void) {
    static char buf[1024];
    fx_last_error(buf, sizeof buf);
    return buf;
}

/* ---------------------------------------------------------------------------- status */

Test(status, every_status_has_its_name) {
    for (size_t i = 0; i < NSTATUS; i++) {
        const char* got = cldnnGetErrorString(k_statuses[i].s);
        FX_ASSERT(got != NULL, "cldnnGetErrorString(%d) returned NULL", (int)k_statuses[i].s);
        FX_ASSERT(strcmp(got, k_statuses[i].name) == 0, "cldnnGetErrorString(%d) = \"%s\", want \"%s\"",
                  (int)k_statuses[i].s, got, k_statuses[i].name);
        FX_ASSERT(strcmp(got, "CLDNN_STATUS_UNKNOWN") != 0, "status %d has no name", (int)k_statuses[i].s);
        for (size_t j = 0; j < i; j++)
            FX_ASSERT(strcmp(got, cldnnGetErrorString(k_statuses[j].s)) != 0, "statuses %d and %d share name %s",
                      (int)k_statuses[i].s, (int)k_statuses[j].s, got);
    }
}

Test(status, unknown_values) {
    const int unknown[] = {-1, 1, 999, 1000, 1003, 2001, 2004, 2009, 3001, 3005, 4002, 5002, 6000, 123456};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char* got = cldnnGetErrorString((cldnnStatus_t)unknown[i]);
        FX_ASSERT(got != NULL && strcmp(got, "CLDNN_STATUS_UNKNOWN") == 0,
                  "cldnnGetErrorString(%d) = \"%s\", want CLDNN_STATUS_UNKNOWN", unknown[i], got ? got : "(null)");
    }
}

Test(status, categories) {
    for (size_t i = 0; i < NSTATUS; i++) {
        int s = (int)k_statuses[i].s;
        int want = (s / 1000) * 1000;
        FX_ASSERT(CLDNN_STATUS_CATEGORY(k_statuses[i].s) == want, "CATEGORY(%s) = %d, want %d", k_statuses[i].name,
                  CLDNN_STATUS_CATEGORY(k_statuses[i].s), want);
    }
    FX_ASSERT(CLDNN_STATUS_CATEGORY(CLDNN_STATUS_SUCCESS) == CLDNN_STATUS_SUCCESS, "CATEGORY(SUCCESS)");
    FX_ASSERT(CLDNN_STATUS_CATEGORY(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH) == CLDNN_STATUS_BAD_PARAM, "BAD_PARAM");
    FX_ASSERT(CLDNN_STATUS_CATEGORY(CLDNN_STATUS_BAD_PARAM_NULL_POINTER) == CLDNN_STATUS_BAD_PARAM, "BAD_PARAM");
    FX_ASSERT(CLDNN_STATUS_CATEGORY(CLDNN_STATUS_NOT_SUPPORTED_DEVICE) == CLDNN_STATUS_NOT_SUPPORTED, "NOT_SUPPORTED");
    FX_ASSERT(CLDNN_STATUS_CATEGORY(CLDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED) == CLDNN_STATUS_INTERNAL_ERROR,
              "INTERNAL_ERROR");
    FX_ASSERT(CLDNN_STATUS_CATEGORY(CLDNN_STATUS_EXECUTION_FAILED_OPENCL) == CLDNN_STATUS_EXECUTION_FAILED,
              "EXECUTION_FAILED");
    FX_ASSERT(CLDNN_STATUS_CATEGORY(CLDNN_STATUS_VERSION_MISMATCH) == 1000, "VERSION_MISMATCH -> 1000");
}

Test(status, version) {
    FX_ASSERT(CLDNN_VERSION == CLDNN_MAJOR * 10000 + CLDNN_MINOR * 100 + CLDNN_PATCH, "CLDNN_VERSION encoding");
    FX_ASSERT(cldnnGetVersion() == (size_t)CLDNN_VERSION, "cldnnGetVersion() = %zu, header CLDNN_VERSION = %d",
              cldnnGetVersion(), CLDNN_VERSION);
}

Test(status, last_error_buffer_rules) {
    cldnnTensorDescriptor_t d = NULL;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnCreateTensorDescriptor(NULL));
    char full[1024];
    fx_last_error(full, sizeof full);
    FX_ASSERT(strlen(full) > 3, "last error too short: \"%s\"", full);

    /* size 0 and NULL buffer are no-ops */
    char keep[4] = {'x', 'y', 'z', '\0'};
    cldnnGetLastErrorString(keep, 0);
    FX_ASSERT(strcmp(keep, "xyz") == 0, "size 0 wrote into the buffer");
    cldnnGetLastErrorString(NULL, 16);

    /* truncation keeps a NUL inside the buffer and a prefix of the full text */
    char small[5];
    memset(small, 'Q', sizeof small);
    cldnnGetLastErrorString(small, sizeof small);
    FX_ASSERT(memchr(small, '\0', sizeof small) != NULL, "truncated last error not NUL-terminated");
    FX_ASSERT(strncmp(small, full, strlen(small)) == 0 && strlen(small) == 4, "truncated \"%s\" vs full \"%s\"",
              small, full);

    /* a successful call clears it */
    FX_OK(cldnnCreateTensorDescriptor(&d));
    FX_ASSERT(last_error()[0] == '\0', "last error not cleared by a successful call: \"%s\"", last_error());
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 0, 1, 1, 1));
    FX_OK(cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 1, 1));
    FX_ASSERT(last_error()[0] == '\0', "last error not cleared by Set: \"%s\"", last_error());
    FX_OK(cldnnDestroyTensorDescriptor(d));
}

Test(status, last_error_cleared_by_primitive_calls) {
    cldnnHandle_t h = fx_handle();
    fx_tensor y;
    fx_tensor_nd(&y, CLDNN_DATA_FLOAT, 1, (const int64_t[]){16}, NULL, 0);
    fx_tensor_poison_random(&y);
    fx_tensor_upload(&y);
    float one = 1.0f, zero = 0.0f;
    cldnnActivationDescriptor_t a;
    FX_OK(cldnnCreateActivationDescriptor(&a));
    FX_OK(cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0));

    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnScaleTensor(h, y.desc, y.mem, 0, NULL));
    FX_OK(cldnnScaleTensor(h, y.desc, y.mem, 0, &one));
    FX_ASSERT(last_error()[0] == '\0', "not cleared by cldnnScaleTensor: \"%s\"", last_error());

    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnSetTensor(h, y.desc, y.mem, 0, NULL));
    FX_OK(cldnnActivationForward(h, a, &one, y.desc, y.mem, 0, &zero, y.desc, y.mem, 0));
    FX_ASSERT(last_error()[0] == '\0', "not cleared by cldnnActivationForward: \"%s\"", last_error());

    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetQueue(h, NULL));
    cl_command_queue q;
    FX_OK(cldnnGetQueue(h, &q));
    FX_ASSERT(last_error()[0] == '\0', "not cleared by cldnnGetQueue: \"%s\"", last_error());
    fx_finish();
    cldnnDestroyActivationDescriptor(a);
    fx_tensor_free(&y);
}

/* ---------------------------------------------------------------------------- handle */

Test(handle, create_null_arguments) {
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnCreate(NULL, fx_queue()));
    FX_ASSERT(stristr(last_error(), "handle") != NULL, "last error does not name the handle: \"%s\"", last_error());

    cldnnHandle_t h = (cldnnHandle_t)0x1;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnCreate(&h, NULL));
    FX_ASSERT(stristr(last_error(), "queue") != NULL, "last error does not name the queue: \"%s\"", last_error());

    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnCreateDefault(NULL));
    FX_ASSERT(stristr(last_error(), "handle") != NULL, "last error does not name the handle: \"%s\"", last_error());
}

Test(handle, create_on_caller_queue) {
    cl_command_queue q = fx_queue();
    cldnnHandle_t h = NULL;
    FX_OK(cldnnCreate(&h, q));
    FX_ASSERT(h != NULL, "cldnnCreate gave a NULL handle");
    cl_command_queue got = NULL;
    FX_OK(cldnnGetQueue(h, &got));
    FX_ASSERT(got == q, "cldnnGetQueue returned %p, want the queue given to cldnnCreate %p", (void*)got, (void*)q);

    /* the handle works: set a small tensor through it */
    fx_tensor y;
    fx_tensor_nd(&y, CLDNN_DATA_FLOAT, 1, (const int64_t[]){7}, NULL, 8);
    fx_tensor_poison_random(&y);
    fx_tensor_upload(&y);
    float v = 2.5f;
    FX_OK(cldnnSetTensor(h, y.desc, y.mem, y.offset, &v));
    fx_tensor_download(&y);
    for (int64_t i = 0; i < y.count; i++)
        FX_ASSERT(fx_tensor_got(&y, i) == 2.5, "element %lld = %g", (long long)i, fx_tensor_got(&y, i));
    FX_OK(cldnnDestroy(h));

    /* the caller's queue is still usable after the handle is gone (it was retained, not stolen) */
    FX_ASSERT(clFinish(q) == CL_SUCCESS, "caller's queue broken after cldnnDestroy");
    fx_tensor_free(&y);
}

Test(handle, destroy_null) { FX_OK(cldnnDestroy(NULL)); }

Test(handle, null_handle_arguments) {
    cl_command_queue q;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetQueue(NULL, &q));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnSetQueue(NULL, fx_queue()));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnSetQueue(fx_handle(), NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetQueue(fx_handle(), NULL));
}

Test(handle, set_queue_same_context) {
    cldnnHandle_t h = NULL;
    FX_OK(cldnnCreate(&h, fx_queue()));
    cl_int e;
    cl_command_queue q2 = clCreateCommandQueue(fx_context(), fx_device(), 0, &e);
    FX_ASSERT(e == CL_SUCCESS, "clCreateCommandQueue = %d", (int)e);
    FX_OK(cldnnSetQueue(h, q2));
    cl_command_queue got = NULL;
    FX_OK(cldnnGetQueue(h, &got));
    FX_ASSERT(got == q2, "GetQueue after SetQueue returned %p, want %p", (void*)got, (void*)q2);

    /* work now goes to q2: enqueue, wait on q2 only, then read the result */
    fx_tensor y;
    fx_tensor_nd(&y, CLDNN_DATA_FLOAT, 2, (const int64_t[]){3, 5}, NULL, 4);
    fx_tensor_poison_random(&y);
    fx_tensor_upload(&y);
    float v = -1.25f;
    FX_OK(cldnnSetTensor(h, y.desc, y.mem, y.offset, &v));
    FX_ASSERT(clFinish(q2) == CL_SUCCESS, "clFinish(q2)");
    fx_tensor_download(&y);
    for (int64_t i = 0; i < y.count; i++)
        FX_ASSERT(fx_tensor_got(&y, i) == -1.25, "element %lld = %g", (long long)i, fx_tensor_got(&y, i));
    FX_ASSERT(fx_tensor_gaps_changed(&y) == 0, "SetTensor wrote outside the view");

    /* the handle keeps q2 alive after the caller releases its reference */
    clReleaseCommandQueue(q2);
    FX_OK(cldnnSetTensor(h, y.desc, y.mem, y.offset, &v));
    FX_OK(cldnnGetQueue(h, &got));
    FX_ASSERT(clFinish(got) == CL_SUCCESS, "queue released under the handle");
    FX_OK(cldnnDestroy(h));
    fx_tensor_free(&y);
}

/* A second context on the fixture's device, and a queue on it. */
static cl_context second_context(cl_command_queue* q) {
    cl_device_id dev = fx_device();
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    FX_ASSERT(e == CL_SUCCESS, "clCreateContext = %d", (int)e);
    FX_ASSERT(ctx != fx_context(), "second context equals the first");
    if (q != NULL) {
        *q = clCreateCommandQueue(ctx, dev, 0, &e);
        FX_ASSERT(e == CL_SUCCESS, "clCreateCommandQueue = %d", (int)e);
    }
    return ctx;
}

Test(handle, set_queue_other_context) {
    cldnnHandle_t h = NULL;
    FX_OK(cldnnCreate(&h, fx_queue()));
    cl_command_queue q2;
    cl_context ctx2 = second_context(&q2);
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_QUEUE_MISMATCH, cldnnSetQueue(h, q2));
    cl_command_queue got = NULL;
    FX_OK(cldnnGetQueue(h, &got));
    FX_ASSERT(got == fx_queue(), "a rejected SetQueue changed the bound queue");
    FX_OK(cldnnDestroy(h));
    clReleaseCommandQueue(q2);
    clReleaseContext(ctx2);
}

Test(handle, buffer_of_other_context) {
    cldnnHandle_t h = fx_handle();
    cl_context ctx2 = second_context(NULL);
    cl_int e;
    cl_mem foreign = clCreateBuffer(ctx2, CL_MEM_READ_WRITE, 64 * sizeof(float), NULL, &e);
    FX_ASSERT(e == CL_SUCCESS, "clCreateBuffer in the second context = %d", (int)e);

    fx_tensor t;
    fx_tensor_nd(&t, CLDNN_DATA_FLOAT, 1, (const int64_t[]){64}, NULL, 0);
    fx_tensor_poison_random(&t);
    fx_tensor_upload(&t);
    cldnnActivationDescriptor_t a;
    FX_OK(cldnnCreateActivationDescriptor(&a));
    FX_OK(cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0));
    float one = 1.0f, zero = 0.0f;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_QUEUE_MISMATCH,
                     cldnnActivationForward(h, a, &one, t.desc, foreign, 0, &zero, t.desc, t.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_QUEUE_MISMATCH,
                     cldnnActivationForward(h, a, &one, t.desc, t.mem, 0, &zero, t.desc, foreign, 0));
    /* nothing was written to the good buffer */
    fx_tensor_download(&t);
    FX_ASSERT(memcmp(t.host, t.got, t.nbuf * t.elem) == 0, "a rejected call modified y");
    cldnnDestroyActivationDescriptor(a);
    clReleaseMemObject(foreign);
    clReleaseContext(ctx2);
    fx_tensor_free(&t);
}

/* ------------------------------------------------------------------------ CLDNN_DEVICE */

/* The device a handle runs on (through its queue). */
static cl_device_id handle_device(cldnnHandle_t h) {
    cl_command_queue q = NULL;
    FX_OK(cldnnGetQueue(h, &q));
    cl_device_id d = NULL;
    cl_int e = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, NULL);
    FX_ASSERT(e == CL_SUCCESS, "clGetCommandQueueInfo(CL_QUEUE_DEVICE) = %d", (int)e);
    return d;
}

/* The first device of `type` in platform order, or NULL. */
static cl_device_id first_device_of_type(cl_device_type type) {
    cl_platform_id plats[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
        return NULL;
    for (cl_uint p = 0; p < np && p < 16; p++) {
        cl_device_id d;
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], type, 1, &d, &nd) == CL_SUCCESS && nd > 0)
            return d;
    }
    return NULL;
}

/* CL_DEVICE_NAME of d into buf. */
static void device_name(cl_device_id d, char* buf, size_t size) {
    cl_int e = clGetDeviceInfo(d, CL_DEVICE_NAME, size, buf, NULL);
    FX_ASSERT(e == CL_SUCCESS, "clGetDeviceInfo(CL_DEVICE_NAME) = %d", (int)e);
    buf[size - 1] = '\0';
}

/* CL_DEVICE_TYPE of d (0 on error). */
static cl_device_type device_type(cl_device_id d) {
    cl_device_type t = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    return t;
}

/* Same device: equal ids, or (should an ICD hand out distinct ids) same platform and name. */
static int same_device(cl_device_id a, cl_device_id b) {
    if (a == b)
        return 1;
    char na[256], nb[256];
    device_name(a, na, sizeof na);
    device_name(b, nb, sizeof nb);
    cl_platform_id pa = NULL, pb = NULL;
    clGetDeviceInfo(a, CL_DEVICE_PLATFORM, sizeof pa, &pa, NULL);
    clGetDeviceInfo(b, CL_DEVICE_PLATFORM, sizeof pb, &pb, NULL);
    return pa == pb && strcmp(na, nb) == 0;
}

Test(device_env, unset_prefers_gpu) {
    unsetenv("CLDNN_DEVICE");
    cldnnHandle_t h = NULL;
    FX_OK(cldnnCreateDefault(&h));
    cl_device_id d = handle_device(h);
    cl_device_id gpu = first_device_of_type(CL_DEVICE_TYPE_GPU);
    if (gpu != NULL)
        FX_ASSERT(device_type(d) & CL_DEVICE_TYPE_GPU, "a GPU exists but the default device is not one");
    else
        FX_ASSERT(same_device(d, first_device_of_type(CL_DEVICE_TYPE_ALL)), "no GPU: want the first device");
    FX_OK(cldnnDestroy(h));
}

Test(device_env, cpu) {
    cl_device_id cpu = first_device_of_type(CL_DEVICE_TYPE_CPU);
    if (cpu == NULL)
        cr_skip_test("no CPU OpenCL device");
    setenv("CLDNN_DEVICE", "cpu", 1);
    cldnnHandle_t h = NULL;
    FX_OK(cldnnCreateDefault(&h));
    FX_ASSERT(device_type(handle_device(h)) & CL_DEVICE_TYPE_CPU, "CLDNN_DEVICE=cpu gave a non-CPU device");
    FX_OK(cldnnDestroy(h));
    setenv("CLDNN_DEVICE", "CPU", 1);
    FX_OK(cldnnCreateDefault(&h));
    FX_ASSERT(device_type(handle_device(h)) & CL_DEVICE_TYPE_CPU, "CLDNN_DEVICE=CPU gave a non-CPU device");
    FX_OK(cldnnDestroy(h));
}

Test(device_env, gpu) {
    cl_device_id gpu = first_device_of_type(CL_DEVICE_TYPE_GPU);
    setenv("CLDNN_DEVICE", "gpu", 1);
    cldnnHandle_t h = NULL;
    if (gpu == NULL) {
        FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DEVICE, cldnnCreateDefault(&h));
    } else {
        FX_OK(cldnnCreateDefault(&h));
        FX_ASSERT(device_type(handle_device(h)) & CL_DEVICE_TYPE_GPU, "CLDNN_DEVICE=gpu gave a non-GPU device");
        FX_OK(cldnnDestroy(h));
    }
}

Test(device_env, platform_device_index) {
    cl_platform_id plat;
    cl_uint np = 0;
    FX_ASSERT(clGetPlatformIDs(1, &plat, &np) == CL_SUCCESS && np > 0, "no OpenCL platform");
    cl_device_id want;
    cl_uint nd = 0;
    FX_ASSERT(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &want, &nd) == CL_SUCCESS && nd > 0, "no device");
    setenv("CLDNN_DEVICE", "0:0", 1);
    cldnnHandle_t h = NULL;
    FX_OK(cldnnCreateDefault(&h));
    FX_ASSERT(same_device(handle_device(h), want), "CLDNN_DEVICE=0:0 is not platform 0 device 0");
    FX_OK(cldnnDestroy(h));
}

Test(device_env, name_substring_case_insensitive) {
    cl_device_id want = first_device_of_type(CL_DEVICE_TYPE_ALL);
    FX_ASSERT(want != NULL, "no OpenCL device");
    char name[256];
    device_name(want, name, sizeof name);
    size_t len = strlen(name);
    FX_ASSERT(len >= 3, "device name \"%s\" too short to take a substring", name);
    /* a strict inner substring (drop the first character), up to 8 characters, swapped case */
    char sub[16];
    size_t n = len - 1 < 8 ? len - 1 : 8;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[1 + i];
        sub[i] = (char)(islower(c) ? toupper(c) : tolower(c));
    }
    sub[n] = '\0';
    setenv("CLDNN_DEVICE", sub, 1);
    cldnnHandle_t h = NULL;
    FX_OK(cldnnCreateDefault(&h));
    char got[256];
    device_name(handle_device(h), got, sizeof got);
    FX_ASSERT(stristr(got, sub) != NULL, "CLDNN_DEVICE=%s chose \"%s\" (wanted a device named like \"%s\")", sub,
              got, name);
    FX_OK(cldnnDestroy(h));
}

Test(device_env, no_such_name) {
    setenv("CLDNN_DEVICE", "nonexistent-device-xyz", 1);
    cldnnHandle_t h = NULL;
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DEVICE, cldnnCreateDefault(&h));
    FX_ASSERT(strstr(last_error(), "nonexistent-device-xyz") != NULL,
              "last error does not name the requested device: \"%s\"", last_error());
}

Test(device_env, no_such_index) {
    setenv("CLDNN_DEVICE", "9:9", 1);
    cldnnHandle_t h = NULL;
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DEVICE, cldnnCreateDefault(&h));
    setenv("CLDNN_DEVICE", "0:99", 1);
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DEVICE, cldnnCreateDefault(&h));
}
