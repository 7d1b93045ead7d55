/*
** mma_peak.c: the ceiling of NVIDIA tensor-core instructions reachable from OpenCL: times kernels
** that run nothing but independent mma.sync chains from registers (no memory traffic) on the
** first GPU and prints TFLOP/s for TF32 m16n8k8 and FP16 m16n8k16 (FP32 accumulation), next to
** an FP32 FMA loop. The TF32 figure is the ceiling of kernels/gemm/gemm_mma.cl.
**
**   cldnn-mma-peak [ITERS [WARPS_PER_CU ...]]   (NVIDIA OpenCL only)
**
** Each work-item keeps 8 independent accumulators; work-groups of 128 work-items (4 warps), as
** many per compute unit as give WARPS_PER_CU warps (default 64: full occupancy; GEMM kernels run
** 8 or 16, which shows what a kernel of that occupancy can reach). Time: OpenCL profiling events,
** best of 5 runs after a warm-up.
*/
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

/* The two mma kernels differ only in the instruction; KERNEL_MMA writes one of them. */
#define KERNEL_MMA(NAME, INSTR)                                                                              \
    "__kernel void " NAME "(int iters, __global float* out) {\n"                                            \
    "  float c[CHAINS][4];\n"                                                                                \
    "  for (int i = 0; i < CHAINS; ++i) for (int e = 0; e < 4; ++e) c[i][e] = 0.0f;\n"                       \
    "  uint a0 = get_local_id(0), a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, b0 = a0 ^ 5, b1 = a0 ^ 9;\n"        \
    "  for (int it = 0; it < iters; ++it) {\n"                                                               \
    "#pragma unroll\n"                                                                                       \
    "    for (int i = 0; i < CHAINS; ++i)\n"                                                                 \
    "      asm volatile(\"" INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\"\n"                 \
    "          : \"+f\"(c[i][0]), \"+f\"(c[i][1]), \"+f\"(c[i][2]), \"+f\"(c[i][3])\n"                           \
    "          : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1));\n"                       \
    "  }\n"                                                                                                  \
    "  float s = 0.0f;\n"                                                                                    \
    "  for (int i = 0; i < CHAINS; ++i) for (int e = 0; e < 4; ++e) s += c[i][e];\n"                         \
    "  out[get_global_id(0)] = s;\n"                                                                         \
    "}\n"

static const char* k_src =
    "#define CHAINS 8\n" KERNEL_MMA("mma_tf32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")
        KERNEL_MMA("mma_f16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
    "__kernel void fma_f32(int iters, __global float* out) {\n"
    "  float c[CHAINS];\n"
    "  float a = (float)get_local_id(0) * 1e-3f, b = 0.999f;\n"
    "  for (int i = 0; i < CHAINS; ++i) c[i] = (float)i;\n"
    "  for (int it = 0; it < iters * 16; ++it) {\n"
    "#pragma unroll\n"
    "    for (int i = 0; i < CHAINS; ++i) c[i] = fma(c[i], b, a);\n"
    "  }\n"
    "  float s = 0.0f;\n"
    "  for (int i = 0; i < CHAINS; ++i) s += c[i];\n"
    "  out[get_global_id(0)] = s;\n"
    "}\n";

#define CHECK(e, what)                                                     \
    do {                                                                   \
        if ((e) != CL_SUCCESS) {                                           \
            fprintf(stderr, "cldnn-mma-peak: %s failed: %d\n", what, (int)(e)); \
            return 1;                                                      \
        }                                                                  \
    } while (0)

int main(int argc, char** argv) {
    int iters = argc > 1 ? atoi(argv[1]) : 4096;
    if (iters < 1) iters = 4096;
    int nwarps = 0, warps[16];
    for (int i = 2; i < argc && nwarps < 16; i++)
        if (atoi(argv[i]) >= 4) warps[nwarps++] = atoi(argv[i]);
    if (nwarps == 0) warps[nwarps++] = 64;
    cl_platform_id ps[8];
    cl_uint np = 0;
    cl_device_id dev = NULL;
    CHECK(clGetPlatformIDs(8, ps, &np), "clGetPlatformIDs");
    for (cl_uint i = 0; i < np && !dev; i++)
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
    if (!dev) {
        fprintf(stderr, "cldnn-mma-peak: no GPU\n");
        return 1;
    }
    char name[256] = "";
    cl_uint cus = 0;
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    CHECK(e, "clCreateContext");
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e);
    CHECK(e, "clCreateCommandQueue");
    cl_program p = clCreateProgramWithSource(ctx, 1, &k_src, NULL, &e);
    CHECK(e, "clCreateProgramWithSource");
    if (clBuildProgram(p, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "cldnn-mma-peak: build failed (NVIDIA OpenCL with inline PTX needed):\n%s\n", log);
        return 1;
    }
    const size_t local = 128;
    size_t most = (size_t)cus * 64 * 32;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, most * sizeof(float), NULL, &e);
    CHECK(e, "clCreateBuffer");
    printf("device: %s, %u compute units; %d iterations x 8 chains per work-item\n", name, cus, iters);
    for (int w = 0; w < nwarps; w++) {
    const size_t global = (size_t)cus * (size_t)(warps[w] / 4) * local;
    printf("%d warps per compute unit:\n", warps[w] / 4 * 4);
    const char* names[3] = {"mma_tf32", "mma_f16", "fma_f32"};
    /* FLOP per work-item per iteration: an m16n8k8 mma is 2048 FLOP per warp (64 per lane), an
    ** m16n8k16 4096 (128 per lane); the FMA loop runs 16 x 8 FMAs (256 FLOP) per iteration. */
    const double flop_per_iter[3] = {8 * 64.0, 8 * 128.0, 16 * 8 * 2.0};
    for (int kx = 0; kx < 3; kx++) {
        cl_kernel k = clCreateKernel(p, names[kx], &e);
        CHECK(e, "clCreateKernel");
        CHECK(clSetKernelArg(k, 0, sizeof iters, &iters), "clSetKernelArg");
        CHECK(clSetKernelArg(k, 1, sizeof out, &out), "clSetKernelArg");
        double best = 1e30;
        for (int rep = 0; rep < 6; rep++) {
            cl_event ev;
            CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev), "clEnqueueNDRangeKernel");
            CHECK(clWaitForEvents(1, &ev), "clWaitForEvents");
            cl_ulong t0, t1;
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
            clReleaseEvent(ev);
            double s = (double)(t1 - t0) * 1e-9;
            if (rep > 0 && s < best) best = s;
        }
        printf("%-9s %8.1f TFLOP/s (%.3f ms)\n", names[kx], (double)global * iters * flop_per_iter[kx] / best / 1e12,
               best * 1e3);
        clReleaseKernel(k);
    }
    }
    clReleaseMemObject(out);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
