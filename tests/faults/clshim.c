/*
** clshim.c: an OpenCL fault-injection shim, preloaded (LD_PRELOAD) into tests/faults/fault_inject.
**
** It defines the OpenCL entry points that create, retain, release or run objects, forwards each to
** the real one (dlsym RTLD_NEXT) and
**   - counts calls per entry point (clshim_calls), so a test knows how many fault points a
**     workload has;
**   - when armed (clshim_arm(name, nth, err)), makes the nth call of `name` after arming fail with
**     `err` without calling the real function (creators return NULL and set *errcode_ret);
**   - keeps a live count of the objects of every kind made through it (create and retain +1,
**     release -1: clshim_live), so a test sees what a failed call leaked.
** Everything is under one mutex; the library may call from several threads.
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#define CLSHIM_EXPORT __attribute__((visibility("default")))

enum { F_CONTEXT, F_QUEUE, F_BUFFER, F_PROG_SRC, F_PROG_BIN, F_BUILD, F_KERNEL, F_NDRANGE, F_FINISH, F_COUNT };
static const char* const k_names[F_COUNT] = {
    "clCreateContext",           "clCreateCommandQueue", "clCreateBuffer", "clCreateProgramWithSource",
    "clCreateProgramWithBinary", "clBuildProgram",       "clCreateKernel", "clEnqueueNDRangeKernel",
    "clFinish"};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long calls[F_COUNT];
static int armed = -1;
static long armed_at;
static cl_int armed_err;
static long fired;
static long live;

/* Counts a call of f; returns the error to inject (0: call the real function). */
static cl_int enter(int f) {
    pthread_mutex_lock(&lock);
    long n = ++calls[f];
    cl_int e = 0;
    if (armed == f && n == armed_at) {
        e = armed_err;
        fired++;
    }
    pthread_mutex_unlock(&lock);
    return e;
}

static void add_live(long d) {
    pthread_mutex_lock(&lock);
    live += d;
    pthread_mutex_unlock(&lock);
}

static void* real(const char* name) {
    return dlsym(RTLD_NEXT, name);
}

/* ------------------------------------------------------------------------ control (test side) */

/* Arms a fault: the nth call of `name` from now on fails with err; name NULL disarms. Call counts
** restart at 0. Returns 0, or -1 for an unknown name. */
CLSHIM_EXPORT int clshim_arm(const char* name, long nth, int err) {
    int f = -1;
    for (int i = 0; name && i < F_COUNT; ++i)
        if (strcmp(name, k_names[i]) == 0) f = i;
    if (name && f < 0) return -1;
    pthread_mutex_lock(&lock);
    memset(calls, 0, sizeof calls);
    armed = f;
    armed_at = nth;
    armed_err = (cl_int)err;
    fired = 0;
    pthread_mutex_unlock(&lock);
    return 0;
}

/* Calls of `name` since the last clshim_arm. */
CLSHIM_EXPORT long clshim_calls(const char* name) {
    long n = -1;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < F_COUNT; ++i)
        if (strcmp(name, k_names[i]) == 0) n = calls[i];
    pthread_mutex_unlock(&lock);
    return n;
}

/* Faults injected since the last clshim_arm (0 or 1). */
CLSHIM_EXPORT long clshim_fired(void) {
    pthread_mutex_lock(&lock);
    long n = fired;
    pthread_mutex_unlock(&lock);
    return n;
}

/* Contexts, queues, buffers, programs and kernels alive (made through the shim, not released). */
CLSHIM_EXPORT long clshim_live(void) {
    pthread_mutex_lock(&lock);
    long n = live;
    pthread_mutex_unlock(&lock);
    return n;
}

/* ---------------------------------------------------------------------------- creators */

#define CREATE(T, f, NAME, PARAMS, ARGS)                                \
    CL_API_ENTRY T CL_API_CALL NAME PARAMS {                            \
        cl_int e = enter(f);                                            \
        if (e) {                                                        \
            if (errcode_ret) *errcode_ret = e;                          \
            return NULL;                                                \
        }                                                               \
        T(CL_API_CALL * fn) PARAMS = (T(CL_API_CALL*) PARAMS)real(#NAME); \
        T r = fn ARGS;                                                  \
        if (r) add_live(1);                                             \
        return r;                                                       \
    }

CREATE(cl_context, F_CONTEXT, clCreateContext,
       (const cl_context_properties* properties, cl_uint num_devices, const cl_device_id* devices,
        void(CL_CALLBACK* pfn_notify)(const char*, const void*, size_t, void*), void* user_data, cl_int* errcode_ret),
       (properties, num_devices, devices, pfn_notify, user_data, errcode_ret))
CREATE(cl_command_queue, F_QUEUE, clCreateCommandQueue,
       (cl_context context, cl_device_id device, cl_command_queue_properties properties, cl_int* errcode_ret),
       (context, device, properties, errcode_ret))
CREATE(cl_mem, F_BUFFER, clCreateBuffer,
       (cl_context context, cl_mem_flags flags, size_t size, void* host_ptr, cl_int* errcode_ret),
       (context, flags, size, host_ptr, errcode_ret))
CREATE(cl_program, F_PROG_SRC, clCreateProgramWithSource,
       (cl_context context, cl_uint count, const char** strings, const size_t* lengths, cl_int* errcode_ret),
       (context, count, strings, lengths, errcode_ret))
CREATE(cl_program, F_PROG_BIN, clCreateProgramWithBinary,
       (cl_context context, cl_uint num_devices, const cl_device_id* device_list, const size_t* lengths,
        const unsigned char** binaries, cl_int* binary_status, cl_int* errcode_ret),
       (context, num_devices, device_list, lengths, binaries, binary_status, errcode_ret))
CREATE(cl_kernel, F_KERNEL, clCreateKernel, (cl_program program, const char* kernel_name, cl_int* errcode_ret),
       (program, kernel_name, errcode_ret))

/* --------------------------------------------------------------------- calls that run work */

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                               const char* options,
                                               void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data) {
    cl_int e = enter(F_BUILD);
    if (e) return e;
    cl_int(CL_API_CALL * fn)(cl_program, cl_uint, const cl_device_id*, const char*,
                             void(CL_CALLBACK*)(cl_program, void*), void*) =
        (cl_int(CL_API_CALL*)(cl_program, cl_uint, const cl_device_id*, const char*,
                              void(CL_CALLBACK*)(cl_program, void*), void*))real("clBuildProgram");
    return fn(program, num_devices, device_list, options, pfn_notify, user_data);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t* off,
                                                       const size_t* gws, const size_t* lws, cl_uint nev,
                                                       const cl_event* wait, cl_event* ev) {
    cl_int e = enter(F_NDRANGE);
    if (e) return e;
    cl_int(CL_API_CALL * fn)(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*, const size_t*,
                             cl_uint, const cl_event*, cl_event*) =
        (cl_int(CL_API_CALL*)(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*, const size_t*,
                              cl_uint, const cl_event*, cl_event*))real("clEnqueueNDRangeKernel");
    return fn(q, k, dim, off, gws, lws, nev, wait, ev);
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q) {
    cl_int e = enter(F_FINISH);
    if (e) return e;
    cl_int(CL_API_CALL * fn)(cl_command_queue) = (cl_int(CL_API_CALL*)(cl_command_queue))real("clFinish");
    return fn(q);
}

/* ------------------------------------------------------------------------ retain / release */

#define REFCOUNT(T, NAME, D)                                                         \
    CL_API_ENTRY cl_int CL_API_CALL NAME(T obj) {                                    \
        cl_int(CL_API_CALL * fn)(T) = (cl_int(CL_API_CALL*)(T))real(#NAME);           \
        cl_int r = fn(obj);                                                          \
        if (r == CL_SUCCESS) add_live(D);                                            \
        return r;                                                                    \
    }

REFCOUNT(cl_context, clRetainContext, 1)
REFCOUNT(cl_context, clReleaseContext, -1)
REFCOUNT(cl_command_queue, clRetainCommandQueue, 1)
REFCOUNT(cl_command_queue, clReleaseCommandQueue, -1)
REFCOUNT(cl_mem, clRetainMemObject, 1)
REFCOUNT(cl_mem, clReleaseMemObject, -1)
REFCOUNT(cl_program, clRetainProgram, 1)
REFCOUNT(cl_program, clReleaseProgram, -1)
REFCOUNT(cl_kernel, clRetainKernel, 1)
REFCOUNT(cl_kernel, clReleaseKernel, -1)
