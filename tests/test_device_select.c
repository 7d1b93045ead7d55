/*
** test_device_select.c: what CLDNN_DEVICE selects (cldnn_device_select, src/handle/handle.c).
**
** White-box: links the static library to run the selection over made-up device lists (several
** platforms at once, which the test machine does not have), then once through cldnnCreateDefault
** on the real device. Forms: unset (first GPU, else first device), gpu / cpu, P:D, WORD:gpu /
** WORD:cpu (a platform by name or vendor), and a bare WORD (a device name first, then a platform).
*/
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "internal.h"

/* Oclgrind reports GPU and CPU at once; Intel's CPU runtime and PoCL both name the same AMD CPU. */
static const cldnn_device_ident machine[] = {
    {"Oclgrind Simulator", "Oclgrind", "University of Bristol", CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU, 0, 0},
    {"AMD EPYC 7B13 64-Core Processor", "Intel(R) OpenCL", "Intel(R) Corporation", CL_DEVICE_TYPE_CPU, 1, 0},
    {"pthread-haswell-AMD EPYC 7B13 64-Core Processor", "Portable Computing Language", "The pocl project",
     CL_DEVICE_TYPE_CPU, 2, 0},
    {"NVIDIA H100 80GB HBM3", "NVIDIA CUDA", "NVIDIA Corporation", CL_DEVICE_TYPE_GPU, 3, 0},
};
static const int count = (int)(sizeof machine / sizeof machine[0]);

static int pick(const char* spec) { return cldnn_device_select(spec, machine, count); }

Test(device_select, forms) {
    cr_assert_eq(pick(NULL), 0, "unset: the first GPU");
    cr_assert_eq(pick(""), 0);
    cr_assert_eq(pick("gpu"), 0);
    cr_assert_eq(pick("CPU"), 0);
    cr_assert_eq(pick("3:0"), 3);
    cr_assert_eq(pick("1:1"), -1);
    /* A platform and a type: what gpu / cpu and name substrings cannot reach. */
    cr_assert_eq(pick("intel:cpu"), 1);
    cr_assert_eq(pick("pocl:cpu"), 2);
    cr_assert_eq(pick("portable:CPU"), 2);
    cr_assert_eq(pick("nvidia:gpu"), 3);
    cr_assert_eq(pick("nvidia:cpu"), -1);
    cr_assert_eq(pick("oclgrind:gpu"), 0);
    /* A bare word: a device name wins over every platform; else the platform's name or vendor. */
    cr_assert_eq(pick("EPYC"), 1);
    cr_assert_eq(pick("pthread"), 2);
    cr_assert_eq(pick("pocl"), 2);
    cr_assert_eq(pick("h100"), 3);
    cr_assert_eq(pick("nvidia"), 3);
    cr_assert_eq(pick("intel"), 1);
    cr_assert_eq(pick("amd"), 1, "AMD in a device name, before any platform");
    cr_assert_eq(pick("no-such-device"), -1);
    cr_assert_eq(cldnn_device_select("gpu", machine + 1, 2), -1, "no GPU among the CPUs");
    cr_assert_eq(cldnn_device_select(NULL, machine + 1, 2), 0, "no GPU: the first device");
}

/* The real device through cldnnCreateDefault: its platform's vendor word selects it, and a
** platform that is not there is NOT_SUPPORTED_DEVICE with the list in the detail. */
Test(device_select, create_default) {
    const cl_device_id fixture_dev = fx_device(); /* the suite's device, opened before CLDNN_DEVICE moves */
    cldnnHandle_t h = NULL;
    setenv("CLDNN_DEVICE", "no-such-platform:cpu", 1);
    FX_EXPECT_STATUS(cldnnCreateDefault(&h), CLDNN_STATUS_NOT_SUPPORTED_DEVICE);
    cr_assert_null(h);
    char msg[1024];
    cldnnGetLastErrorString(msg, sizeof msg);
    cr_assert(strstr(msg, "no-such-platform:cpu") != NULL && strstr(msg, "0:0 ") != NULL, "detail: %s", msg);
    char vendor[128] = "";
    cl_device_type type = 0;
    cl_platform_id plat = NULL;
    clGetDeviceInfo(fixture_dev, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL);
    clGetPlatformInfo(plat, CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL);
    clGetDeviceInfo(fixture_dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    /* The vendor's last word ("project", "Corporation") is in no device name here. */
    const char* word = strrchr(vendor, ' ') ? strrchr(vendor, ' ') + 1 : vendor;
    char spec[160];
    snprintf(spec, sizeof spec, "%s:%s", word, (type & CL_DEVICE_TYPE_GPU) ? "gpu" : "cpu");
    setenv("CLDNN_DEVICE", spec, 1);
    FX_EXPECT_STATUS(cldnnCreateDefault(&h), CLDNN_STATUS_SUCCESS);
    cl_command_queue q = NULL;
    cl_device_id dev = NULL;
    FX_EXPECT_STATUS(cldnnGetQueue(h, &q), CLDNN_STATUS_SUCCESS);
    clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
    char a[256] = "", b[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof a, a, NULL);
    clGetDeviceInfo(fixture_dev, CL_DEVICE_NAME, sizeof b, b, NULL);
    cr_assert_str_eq(a, b, "CLDNN_DEVICE=%s", spec);
    cldnnDestroy(h);
    unsetenv("CLDNN_DEVICE");
}
