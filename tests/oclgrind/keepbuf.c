/*
** keepbuf.c: a preload library for tests/oclgrind/run.sh that keeps every OpenCL buffer alive until
** the process ends (clReleaseMemObject does nothing).
**
** Oclgrind 21.10's --uninitialized check keeps the shadow state of a released buffer (its plugin
** has no memoryDeallocated handler), and the next buffer placed at the same simulated address
** inherits it: the old buffer's size and contents. Every element past the old size then reads as
** uninitialized after a kernel has written it (a false report), and elements the old buffer had
** initialized read as initialized in a buffer no one wrote (a missed one). cldnn-bench releases
** each direction's workspace before the next is created, and the library grows its scratch by
** release and create, so without this the check is wrong either way. With every buffer kept, no
** address is reused. Preloaded ahead of Oclgrind's runtime, whose clReleaseMemObject it shadows;
** a handful of small buffers per case stay allocated until exit.
*/
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
    return memobj != NULL ? CL_SUCCESS : CL_INVALID_MEM_OBJECT;
}
