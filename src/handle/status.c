/*
** status.c: status names, the thread-local last-error detail, and OpenCL error mapping.
**
** One list (CLDNN_STATUS_LIST) names every status; cldnnGetErrorString and the test that every
** status has a name are built from it, so names cannot drift from the enum. The last error is a
** fixed thread-local buffer: recording never allocates, so it also works when the host is out of
** memory. Every public entry point clears it first; CLDNN_FAIL fills it where a failure is born.
*/
#include "internal.h"

#include <stdio.h>
#include <string.h>

#define CLDNN_STATUS_LIST(X)                         \
    X(SUCCESS)                                       \
    X(NOT_INITIALIZED)                               \
    X(VERSION_MISMATCH)                              \
    X(BAD_PARAM)                                     \
    X(BAD_PARAM_NULL_POINTER)                        \
    X(BAD_PARAM_MISALIGNED)                          \
    X(BAD_PARAM_OUT_OF_BOUND)                        \
    X(BAD_PARAM_SIZE_INSUFFICIENT)                   \
    X(BAD_PARAM_QUEUE_MISMATCH)                      \
    X(BAD_PARAM_SHAPE_MISMATCH)                      \
    X(NOT_SUPPORTED)                                 \
    X(NOT_SUPPORTED_SHAPE)                           \
    X(NOT_SUPPORTED_DATA_TYPE)                       \
    X(NOT_SUPPORTED_LAYOUT)                          \
    X(NOT_SUPPORTED_DEVICE)                          \
    X(INTERNAL_ERROR)                                \
    X(INTERNAL_ERROR_COMPILATION_FAILED)             \
    X(INTERNAL_ERROR_HOST_ALLOCATION_FAILED)         \
    X(INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED)       \
    X(EXECUTION_FAILED)                              \
    X(EXECUTION_FAILED_OPENCL)

const char* cldnnGetErrorString(cldnnStatus_t status) {
    switch (status) {
#define X(name)                 \
    case CLDNN_STATUS_##name:   \
        return "CLDNN_STATUS_" #name;
        CLDNN_STATUS_LIST(X)
#undef X
    }
    return "CLDNN_STATUS_UNKNOWN";
}

size_t cldnnGetVersion(void) { return (size_t)CLDNN_VERSION; }

/* 8 KiB holds the check's detail plus the head of a build log. */
static _Thread_local char last_error[CLDNN_ERROR_TEXT_MAX];

void cldnnGetLastErrorString(char* buf, size_t size) {
    if (buf == NULL || size == 0)
        return;
    size_t n = strlen(last_error);
    if (n >= size)
        n = size - 1;
    memcpy(buf, last_error, n);
    buf[n] = '\0';
}

void cldnn_error_clear(void) { last_error[0] = '\0'; }

cldnnStatus_t cldnn_error_at(const char* file, int line, cldnnStatus_t s, const char* fmt, ...) {
    size_t at = cldnn_appendf(last_error, sizeof last_error, 0, "%s: ", cldnnGetErrorString(s));
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error + at, sizeof last_error - at, fmt, ap);
    va_end(ap);
    if (cldnn_log_level() >= CLDNN_LOG_ERROR)
        cldnn_log(CLDNN_LOG_ERROR, "%s (%s:%d)", last_error, file, line);
    return s;
}

cldnnStatus_t cldnn_error_adopt(cldnnStatus_t s, const char* text) {
    cldnn_appendf(last_error, sizeof last_error, 0, "%s", text);
    return s;
}

void cldnn_error_append(const char* text) {
    size_t at = strlen(last_error);
    cldnn_appendf(last_error, sizeof last_error, at, "%s", text);
}

const char* cldnn_cl_error_name(cl_int err) {
    switch (err) {
#define E(x) \
    case x:  \
        return #x;
        E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
        E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
        E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP) E(CL_IMAGE_FORMAT_MISMATCH)
        E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
        E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE)
        E(CL_DEVICE_PARTITION_FAILED) E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) E(CL_INVALID_VALUE)
        E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT)
        E(CL_INVALID_QUEUE_PROPERTIES) E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR)
        E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(CL_INVALID_IMAGE_SIZE)
        E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM)
        E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL_DEFINITION)
        E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
        E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
        E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
        E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_GL_OBJECT) E(CL_INVALID_BUFFER_SIZE)
        E(CL_INVALID_MIP_LEVEL) E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY)
        E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS) E(CL_INVALID_LINKER_OPTIONS)
        E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef E
    }
    static _Thread_local char unknown[40];
    snprintf(unknown, sizeof unknown, "CL_UNKNOWN_ERROR(%d)", (int)err);
    return unknown;
}

cldnnStatus_t cldnn_cl_fail_at(const char* file, int line, cl_int err, const char* what) {
    cldnnStatus_t s;
    switch (err) {
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_RESOURCES:
        s = CLDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED;
        break;
    case CL_OUT_OF_HOST_MEMORY:
        s = CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
        break;
    case CL_BUILD_PROGRAM_FAILURE:
    case CL_COMPILE_PROGRAM_FAILURE:
    case CL_LINK_PROGRAM_FAILURE:
        s = CLDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED;
        break;
    default:
        s = CLDNN_STATUS_EXECUTION_FAILED_OPENCL;
        break;
    }
    return cldnn_error_at(file, line, s, "%s failed with %s", what, cldnn_cl_error_name(err));
}

cldnnStatus_t cldnn_check_handle(cldnnHandle_t h) {
    if (h == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "handle is NULL");
    return CLDNN_STATUS_SUCCESS;
}
