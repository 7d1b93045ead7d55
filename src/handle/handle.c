/*
** handle.c: handle lifecycle, queue binding, the embedded default device, buffer checks and
** kernel launch.
**
** A handle binds one in-order cl_command_queue (retained), the queue's context and device, the
** device profile, the per-context program cache and a per-handle set of cl_kernel objects.
** Handles are cheap beyond their first program builds, which the shared cache absorbs.
*/
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads the queue's context and device and checks it is in-order. */
static cldnnStatus_t queue_info(cl_command_queue q, cl_context* ctx, cl_device_id* dev) {
    cl_int err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof *ctx, ctx, NULL);
    if (err != CL_SUCCESS)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "queue is not a valid cl_command_queue (%s)",
                          cldnn_cl_error_name(err));
    err = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof *dev, dev, NULL);
    if (err != CL_SUCCESS)
        return CLDNN_CL_FAIL(err, "clGetCommandQueueInfo(CL_QUEUE_DEVICE)");
    cl_command_queue_properties props = 0;
    err = clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    if (err != CL_SUCCESS)
        return CLDNN_CL_FAIL(err, "clGetCommandQueueInfo(CL_QUEUE_PROPERTIES)");
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "queue is out-of-order; cldnn needs an in-order queue");
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnn_scratch_get(cldnnHandle_t h, size_t bytes, cl_mem* out) {
    if (bytes > CLDNN_SCRATCH_MAX)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED, "internal scratch of %zu bytes exceeds the cap", bytes);
    if (h->scratch == NULL || h->scratch_size < bytes) {
        if (h->scratch)
            clReleaseMemObject(h->scratch);
        h->scratch = NULL;
        h->scratch_size = 0;
        size_t size = bytes < ((size_t)1 << 20) ? ((size_t)1 << 20) : bytes;
        cl_int err;
        cl_mem m = clCreateBuffer(h->context, CL_MEM_READ_WRITE, size, NULL, &err);
        if (m == NULL)
            return CLDNN_CL_FAIL(err, "clCreateBuffer (internal scratch)");
        h->scratch = m;
        h->scratch_size = size;
    }
    *out = h->scratch;
    return CLDNN_STATUS_SUCCESS;
}

static void handle_free(cldnnHandle_t h) {
    if (h->scratch)
        clReleaseMemObject(h->scratch);
    for (int i = 0; i < h->nkernels; ++i)
        clReleaseKernel(h->kernels[i].kernel);
    if (h->programs)
        cldnn_program_set_detach(h);
    if (h->queue)
        clReleaseCommandQueue(h->queue);
    if (h->context)
        clReleaseContext(h->context);
    free(h);
}

/* Takes references on q and its context and builds the rest of the handle. */
static cldnnStatus_t handle_init(cldnnHandle_t* out, cl_command_queue q, int owns_context) {
    cl_context ctx;
    cl_device_id dev;
    CLDNN_TRY(queue_info(q, &ctx, &dev));
    cldnnHandle_t h = (cldnnHandle_t)calloc(1, sizeof *h);
    if (h == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "handle allocation");
    clRetainCommandQueue(q);
    clRetainContext(ctx);
    h->queue = q;
    h->context = ctx;
    h->device = dev;
    h->owns_context = owns_context;
    cldnnStatus_t s = cldnn_device_profile_read(dev, &h->prof);
    if (s == CLDNN_STATUS_SUCCESS)
        s = cldnn_program_set_attach(h);
    if (s == CLDNN_STATUS_SUCCESS)
        cldnn_db_handle_init(h);
    if (s != CLDNN_STATUS_SUCCESS) {
        handle_free(h);
        return s;
    }
    *out = h;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnCreate(cldnnHandle_t* handle, cl_command_queue queue) {
    cldnn_error_clear();
    if (handle == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "handle (output pointer) is NULL");
    *handle = NULL;
    if (queue == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "queue is NULL");
    return handle_init(handle, queue, 0);
}

/* ---- the embedded default device */

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cldnn_device_ident id;
    char name[256], platform_name[128], vendor[128];
} device_entry;

#define MAX_DEVICES 64

/* The ICD loader (ocl-icd 2.3) initializes its platform list lazily and not thread-safely: four
** threads calling clGetPlatformIDs at once in a fresh process saw no platforms, or crashed
** (tests/test_cache.c, threads_with_their_own_contexts). Enumeration is serialized here. */
static pthread_mutex_t enumerate_lock = PTHREAD_MUTEX_INITIALIZER;

static int list_devices(device_entry* out, int max) {
    cl_platform_id plats[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
        return 0;
    if (np > 16)
        np = 16;
    int n = 0;
    for (cl_uint p = 0; p < np; ++p) {
        cl_device_id devs[32];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 32, devs, &nd) != CL_SUCCESS)
            continue;
        if (nd > 32)
            nd = 32;
        for (cl_uint d = 0; d < nd && n < max; ++d) {
            device_entry* e = &out[n++];
            e->platform = plats[p];
            e->device = devs[d];
            e->id.pi = (int)p;
            e->id.di = (int)d;
            e->id.type = 0;
            clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof e->id.type, &e->id.type, NULL);
            e->name[0] = e->platform_name[0] = e->vendor[0] = '\0';
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof e->name, e->name, NULL);
            clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof e->platform_name, e->platform_name, NULL);
            clGetPlatformInfo(plats[p], CL_PLATFORM_VENDOR, sizeof e->vendor, e->vendor, NULL);
            e->name[sizeof e->name - 1] = e->platform_name[sizeof e->platform_name - 1] = '\0';
            e->vendor[sizeof e->vendor - 1] = '\0';
            e->id.name = e->name;
            e->id.platform = e->platform_name;
            e->id.vendor = e->vendor;
        }
    }
    return n;
}

static int contains_nocase(const char* hay, const char* needle) {
    size_t nl = strlen(needle);
    for (const char* p = hay; *p; ++p) {
        size_t i = 0;
        while (i < nl && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == nl)
            return 1;
    }
    return nl == 0;
}

/* "gpu" / "cpu" (any case) as a device type; 0 for anything else. */
static cl_device_type type_word(const char* w, size_t n) {
    if (n == 3 && tolower((unsigned char)w[1]) == 'p' && tolower((unsigned char)w[2]) == 'u') {
        if (tolower((unsigned char)w[0]) == 'g')
            return CL_DEVICE_TYPE_GPU;
        if (tolower((unsigned char)w[0]) == 'c')
            return CL_DEVICE_TYPE_CPU;
    }
    return 0;
}

int cldnn_device_spec_matches(const char* spec, const cldnn_device_ident* d, int pass) {
    const size_t n = strlen(spec);
    cl_device_type t = type_word(spec, n);
    if (t != 0)
        return pass == 0 && (d->type & t) != 0;
    int p, i;
    char tail;
    if (sscanf(spec, "%d:%d%c", &p, &i, &tail) == 2)
        return pass == 0 && d->pi == p && d->di == i;
    const char* colon = strrchr(spec, ':');
    if (colon != NULL && colon > spec && (t = type_word(colon + 1, strlen(colon + 1))) != 0) {
        char plat[128];
        const size_t pn = (size_t)(colon - spec) < sizeof plat ? (size_t)(colon - spec) : sizeof plat - 1;
        memcpy(plat, spec, pn);
        plat[pn] = '\0';
        return pass == 0 && (d->type & t) != 0 &&
               (contains_nocase(d->platform, plat) || contains_nocase(d->vendor, plat));
    }
    /* A bare word: the device's name first (pass 0), the platform's name or vendor after (pass 1),
    ** so that a word naming one device is never taken by another platform. */
    if (pass == 0)
        return contains_nocase(d->name, spec);
    return contains_nocase(d->platform, spec) || contains_nocase(d->vendor, spec);
}

int cldnn_device_select(const char* spec, const cldnn_device_ident* ids, int n) {
    if (spec == NULL || *spec == '\0') {
        for (int i = 0; i < n; ++i)
            if (ids[i].type & CL_DEVICE_TYPE_GPU)
                return i;
        return n > 0 ? 0 : -1;
    }
    for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < n; ++i)
            if (cldnn_device_spec_matches(spec, &ids[i], pass))
                return i;
    return -1;
}

cldnnStatus_t cldnnCreateDefault(cldnnHandle_t* handle) {
    cldnn_error_clear();
    if (handle == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "handle (output pointer) is NULL");
    *handle = NULL;
    device_entry list[MAX_DEVICES];
    pthread_mutex_lock(&enumerate_lock);
    int n = list_devices(list, MAX_DEVICES);
    pthread_mutex_unlock(&enumerate_lock);
    const char* spec = getenv("CLDNN_DEVICE");
    cldnn_device_ident ids[MAX_DEVICES] = {{0}};
    for (int j = 0; j < n; ++j)
        ids[j] = list[j].id;
    int i = cldnn_device_select(spec, ids, n);
    if (i < 0) {
        char names[1024];
        size_t at = 0;
        for (int j = 0; j < n; ++j)
            at = cldnn_appendf(names, sizeof names, at, "%s%d:%d %s (%s)", j ? ", " : "", list[j].id.pi,
                               list[j].id.di, list[j].name, list[j].platform_name);
        if (n == 0)
            cldnn_appendf(names, sizeof names, 0, "none (is an OpenCL ICD installed?)");
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_DEVICE, "no OpenCL device matches CLDNN_DEVICE=\"%s\"; devices: %s",
                          spec ? spec : "", names);
    }
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)list[i].platform, 0};
    cl_int err;
    cl_context ctx = clCreateContext(props, 1, &list[i].device, NULL, NULL, &err);
    if (ctx == NULL)
        return CLDNN_CL_FAIL(err, "clCreateContext");
    cl_command_queue q = clCreateCommandQueue(ctx, list[i].device, 0, &err);
    if (q == NULL) {
        clReleaseContext(ctx);
        return CLDNN_CL_FAIL(err, "clCreateCommandQueue");
    }
    cldnnStatus_t s = handle_init(handle, q, 1);
    /* The handle holds its own references now. */
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return s;
}

cldnnStatus_t cldnnDestroy(cldnnHandle_t handle) {
    cldnn_error_clear();
    if (handle == NULL)
        return CLDNN_STATUS_SUCCESS;
    handle_free(handle);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetQueue(cldnnHandle_t handle, cl_command_queue queue) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (queue == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "queue is NULL");
    cl_context ctx;
    cl_device_id dev;
    CLDNN_TRY(queue_info(queue, &ctx, &dev));
    if (ctx != handle->context)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_QUEUE_MISMATCH,
                          "queue belongs to another cl_context than the handle's (create a new handle for it)");
    if (dev != handle->device)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_QUEUE_MISMATCH, "queue is on another device than the handle's");
    clRetainCommandQueue(queue);
    clReleaseCommandQueue(handle->queue);
    handle->queue = queue;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetQueue(cldnnHandle_t handle, cl_command_queue* queue) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (queue == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "queue (output pointer) is NULL");
    *queue = handle->queue;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnn_check_buffer(cldnnHandle_t h, cl_mem m, size_t offset, size_t elem_size, uint64_t need_bytes,
                                 const char* what) {
    if (m == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", what);
    if (elem_size > 1 && offset % elem_size != 0)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_MISALIGNED,
                          "%s offset %zu bytes is not a multiple of the element size %zu", what, offset, elem_size);
    cl_context ctx = NULL;
    cl_int err = clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof ctx, &ctx, NULL);
    if (err != CL_SUCCESS)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s is not a valid cl_mem (%s)", what, cldnn_cl_error_name(err));
    if (ctx != h->context)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_QUEUE_MISMATCH, "%s belongs to another cl_context than the handle's queue",
                          what);
    size_t size = 0;
    err = clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err != CL_SUCCESS)
        return CLDNN_CL_FAIL(err, "clGetMemObjectInfo(CL_MEM_SIZE)");
    if ((uint64_t)offset > (uint64_t)size || need_bytes > (uint64_t)size - (uint64_t)offset)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                          "%s holds %zu bytes; offset %zu plus the %llu bytes its descriptor spans do not fit", what,
                          size, offset, (unsigned long long)need_bytes);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnn_check_scratch(cldnnHandle_t h, cl_mem m, size_t offset, size_t size, size_t need, size_t elem_size,
                                  const char* what, const char* size_name, const char* query) {
    if (size < need)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, "%s %zu; this call needs %zu (%s)", size_name, size,
                          need, query);
    if (need == 0)
        return CLDNN_STATUS_SUCCESS;
    if (m == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL but %zu bytes are needed", what, need);
    return cldnn_check_buffer(h, m, offset, elem_size, need, what);
}

size_t cldnn_pow2_group(const cldnn_device_profile* dev, size_t want) {
    size_t wg = 1;
    while (wg * 2 <= want && wg * 2 <= dev->max_wg_size)
        wg *= 2;
    return wg;
}

size_t cldnn_free_group(const cldnn_device_profile* dev) {
    return cldnn_pow2_group(dev, dev->is_cpu ? 64 : 256);
}

cldnnStatus_t cldnn_enqueue_nd(cldnnHandle_t h, cl_kernel k, cl_uint dims, const uint64_t* global,
                               const size_t* local, const char* what) {
    size_t g[3] = {1, 1, 1}, l[3] = {1, 1, 1};
    for (cl_uint i = 0; i < dims; ++i) {
        l[i] = local[i] ? local[i] : 1;
        uint64_t groups = (global[i] + l[i] - 1) / l[i];
        g[i] = (size_t)((groups ? groups : 1) * l[i]);
    }
    /* A solver's work-group beyond the device's limit is the solver's bug: named here, before the
    ** driver's CL_INVALID_WORK_GROUP_SIZE, and in prepare-only runs too, where nothing reaches the
    ** driver (tests/test_min_profile.c runs every family so on the smallest device OpenCL allows). */
    if (l[0] * l[1] * l[2] > h->prof.max_wg_size)
        return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR, "%s: a work-group of %zu x %zu x %zu exceeds the device's %zu",
                          what, l[0], l[1], l[2], h->prof.max_wg_size);
    if (h->prepare_only) {
        cldnn_log(CLDNN_LOG_DEBUG, "prepare %s: kernel ready, nothing enqueued", what);
        return CLDNN_STATUS_SUCCESS;
    }
    cl_int err = clEnqueueNDRangeKernel(h->queue, k, dims, NULL, g, l, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return CLDNN_CL_FAIL(err, what);
    cldnn_log(CLDNN_LOG_DEBUG, "launch %s: global %zu x %zu x %zu local %zu x %zu x %zu", what, g[0],
              dims > 1 ? g[1] : 1, dims > 2 ? g[2] : 1, l[0], dims > 1 ? l[1] : 1, dims > 2 ? l[2] : 1);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnn_enqueue_1d(cldnnHandle_t h, cl_kernel k, uint64_t items, size_t local, const char* what) {
    return cldnn_enqueue_nd(h, k, 1, &items, &local, what);
}

cldnnStatus_t cldnn_kernel_args(cl_kernel k, cl_uint first, const cldnn_karg* args, size_t n) {
    if (k == NULL)
        return CLDNN_STATUS_SUCCESS;
    for (size_t i = 0; i < n; ++i) {
        const cl_int e = clSetKernelArg(k, first + (cl_uint)i, args[i].size, args[i].value);
        if (e != CL_SUCCESS) {
            char what[64];
            snprintf(what, sizeof what, "clSetKernelArg(%u)", (unsigned)(first + i));
            return CLDNN_CL_FAIL(e, what);
        }
    }
    return CLDNN_STATUS_SUCCESS;
}
