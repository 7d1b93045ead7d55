/*
** device.c: the device profile, read once per handle.
**
** Solvers choose kernels and parameters from this struct, never by querying OpenCL themselves.
** A CPU device (PoCL) is a first-class target with its own choices. The key string identifies
** the device for the find and tuning databases: platform, device name, vendor id, compute units
** and the extensions solvers look at (the driver version is added only where binaries are
** concerned, in cache.c).
*/
#include "internal.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif

static cldnnStatus_t info_str(cl_device_id dev, cl_device_info what, char* buf, size_t size, const char* name) {
    cl_int err = clGetDeviceInfo(dev, what, size, buf, NULL);
    if (err == CL_INVALID_VALUE) { /* longer than our buffer: truncate */
        size_t need = 0;
        clGetDeviceInfo(dev, what, 0, NULL, &need);
        char tmp[4096];
        if (need > sizeof tmp)
            need = sizeof tmp;
        err = clGetDeviceInfo(dev, what, need, tmp, NULL);
        if (err == CL_SUCCESS) {
            size_t n = strnlen(tmp, sizeof tmp);
            if (n >= size)
                n = size - 1;
            memcpy(buf, tmp, n);
            buf[n] = '\0';
            return CLDNN_STATUS_SUCCESS;
        }
    }
    if (err != CL_SUCCESS)
        return CLDNN_CL_FAIL(err, name);
    buf[size - 1] = '\0';
    return CLDNN_STATUS_SUCCESS;
}

#define INFO(dev, what, var)                                                          \
    do {                                                                              \
        cl_int e_ = clGetDeviceInfo((dev), (what), sizeof(var), &(var), NULL);        \
        if (e_ != CL_SUCCESS)                                                         \
            return CLDNN_CL_FAIL(e_, "clGetDeviceInfo(" #what ")");                   \
    } while (0)

cldnnStatus_t cldnn_device_profile_read(cl_device_id dev, cldnn_device_profile* p) {
    memset(p, 0, sizeof *p);
    p->device = dev;
    INFO(dev, CL_DEVICE_PLATFORM, p->platform);
    INFO(dev, CL_DEVICE_TYPE, p->type);
    INFO(dev, CL_DEVICE_VENDOR_ID, p->vendor_id);
    INFO(dev, CL_DEVICE_MAX_COMPUTE_UNITS, p->compute_units);
    INFO(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, p->max_wg_size);
    INFO(dev, CL_DEVICE_LOCAL_MEM_SIZE, p->local_mem);
    INFO(dev, CL_DEVICE_GLOBAL_MEM_SIZE, p->global_mem);
    INFO(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, p->max_alloc);
    INFO(dev, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, p->pref_vec_float);
    INFO(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, p->native_vec_float);
    cl_uint align_bits = 0;
    INFO(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, align_bits);
    p->base_align_bytes = align_bits / 8;
    CLDNN_TRY(info_str(dev, CL_DEVICE_NAME, p->name, sizeof p->name, "clGetDeviceInfo(CL_DEVICE_NAME)"));
    CLDNN_TRY(info_str(dev, CL_DEVICE_VENDOR, p->vendor, sizeof p->vendor, "clGetDeviceInfo(CL_DEVICE_VENDOR)"));
    CLDNN_TRY(info_str(dev, CL_DRIVER_VERSION, p->driver, sizeof p->driver, "clGetDeviceInfo(CL_DRIVER_VERSION)"));
    CLDNN_TRY(info_str(dev, CL_DEVICE_VERSION, p->version, sizeof p->version, "clGetDeviceInfo(CL_DEVICE_VERSION)"));
    cl_int err = clGetPlatformInfo(p->platform, CL_PLATFORM_NAME, sizeof p->platform_name, p->platform_name, NULL);
    if (err != CL_SUCCESS)
        return CLDNN_CL_FAIL(err, "clGetPlatformInfo(CL_PLATFORM_NAME)");
    p->platform_name[sizeof p->platform_name - 1] = '\0';

    size_t ext_size = 0;
    err = clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_size);
    if (err != CL_SUCCESS)
        return CLDNN_CL_FAIL(err, "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)");
    char ext[16384];
    if (ext_size > sizeof ext)
        ext_size = sizeof ext;
    err = clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, ext_size, ext, NULL);
    if (err == CL_SUCCESS) {
        ext[sizeof ext - 1] = '\0';
        p->has_fp16 = strstr(ext, "cl_khr_fp16") != NULL;
        p->has_fp64 = strstr(ext, "cl_khr_fp64") != NULL;
        if (strstr(ext, "cl_nv_device_attribute_query") != NULL) {
            cl_uint major = 0, minor = 0;
            if (clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL) ==
                    CL_SUCCESS &&
                clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL) ==
                    CL_SUCCESS) {
                p->nv_cc_major = (int)major;
                p->nv_cc_minor = (int)minor;
            }
        }
    }
    p->is_cpu = (p->type & CL_DEVICE_TYPE_CPU) != 0;
    /* CLDNN_KERNEL_SHAPE: the other family of kernels on this device. Oclgrind reports itself a CPU
    ** too, and its stage must run the GPU-shaped kernels as well; it also measures on a CPU what the
    ** CPU-shaped kernels gain. The key records it, so that databases never mix the two. */
    const char* shape = getenv("CLDNN_KERNEL_SHAPE");
    int forced_shape = shape != NULL && (strcmp(shape, "gpu") == 0 || strcmp(shape, "cpu") == 0);
    if (forced_shape)
        p->is_cpu = shape[0] == 'c';
    else if (shape != NULL && shape[0] != '\0')
        cldnn_log(CLDNN_LOG_ERROR, "CLDNN_KERNEL_SHAPE=%s ignored: expected gpu or cpu", shape);
    p->is_nvidia = p->vendor_id == 0x10de;
    /* Mesa's llvmpipe (rusticl, clover) ends the loops of a kernel invocation after 65535
    ** iterations counted over all its loops (gallivm's loop limiter, LP_MAX_TGSI_LOOP_ITERATIONS,
    ** kept for shaders that never end) and goes on with what it has: wrong results, no error.
    ** Measured on Debian's mesa-opencl-icd 22.3.6 (rusticl): gemm_tiled 64x64x16-8x8 (its 8x8
    ** micro-tile update stays a loop there, about 1300 iterations per k-tile) right at
    ** 64x64x784, wrong from 64x64x800 and at cldnn-bench's 1024^3; 32x32x16-8x8 right through
    ** k = 10240, wrong from 12288. */
    if (strstr(p->name, "llvmpipe") != NULL)
        p->loop_limit = 65535;
    snprintf(p->key, sizeof p->key, "%s|%s|%#x|cu%u|fp16=%d|fp64=%d|sm%d.%d", p->platform_name, p->name,
             (unsigned)p->vendor_id, (unsigned)p->compute_units, p->has_fp16, p->has_fp64, p->nv_cc_major,
             p->nv_cc_minor);
    if (forced_shape) {
        size_t len = strlen(p->key);
        snprintf(p->key + len, sizeof p->key - len, "|shape=%s", shape);
    }
    for (char* c = p->key; *c; ++c) /* one word: the databases' files and records are split on spaces */
        if (*c == ' ' || *c < ' ' || *c >= 127)
            *c = '_';
    cldnn_log(CLDNN_LOG_INFO, "device %s (%s, driver %s), %u compute units, local memory %llu bytes%s",
              p->name, p->platform_name, p->driver, (unsigned)p->compute_units, (unsigned long long)p->local_mem,
              p->nv_cc_major ? ", NVIDIA compute capability known" : "");
    return CLDNN_STATUS_SUCCESS;
}

int cldnn_device_matches(const cldnn_device_profile* dev, const char* key) {
    int major, minor;
    char tail;
    if (key[0] == 's' && key[1] == 'm' && key[2] == '_' && sscanf(key + 3, "%1d%1d%c", &major, &minor, &tail) == 2)
        return dev->is_nvidia && dev->nv_cc_major == major && dev->nv_cc_minor == minor;
    return strstr(dev->name, key) != NULL;
}
