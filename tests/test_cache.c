/*
** test_cache.c: the program cache (memory per context, then disk) and its thread safety.
**
** Links the static library so it can read the cache counters (cldnn_cache_stats_get) next to
** the public API. Each test sets its environment before the library's first call in its own
** process (Criterion forks one per test), then works out what happened from the counters and
** the files in the cache folder: a fresh folder gets entries (PoCL, which caches builds itself,
** none unless asked), a second context loads them from disk without building, a corrupt or truncated entry is rebuilt and replaced, the disk can be
** switched off, an unwritable folder only degrades to memory, and a kernel that fails to build
** reports its build log.
*/
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* The disk cache on every device: PoCL keeps its own cache of builds, and on it the library
** stores nothing unless CLDNN_DISABLE_CACHE=0 asks (cache.c); these tests are about the disk. */
static void disk_on(void) { setenv("CLDNN_DISABLE_CACHE", "0", 1); }

/* A fresh cache folder under the build's temp area, set as CLDNN_CACHE_DIR, the disk on. */
static void fresh_cache_dir(char* out, size_t size) {
    snprintf(out, size, "/tmp/cldnn-test-cache-XXXXXX");
    cr_assert_not_null(mkdtemp(out));
    setenv("CLDNN_CACHE_DIR", out, 1);
    disk_on();
}

/* Files in dir whose name contains `part`. */
static int count_files(const char* dir, const char* part) {
    DIR* d = opendir(dir);
    if (d == NULL)
        return 0;
    int n = 0;
    struct dirent* e;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, part) != NULL)
            n++;
    closedir(d);
    return n;
}

/* Runs RELU forward on a fresh handle (its own context) over 1000 values and checks them;
** the handle is destroyed afterwards, so the next call starts with an empty memory cache. */
static void relu_on_fresh_context(void) {
    cldnnHandle_t h;
    cr_assert_eq(cldnnCreateDefault(&h), CLDNN_STATUS_SUCCESS);
    cl_command_queue q;
    cldnnGetQueue(h, &q);
    cl_context ctx;
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    enum { N = 1000 };
    float x[N], y[N];
    for (int i = 0; i < N; ++i)
        x[i] = (float)((i * 37) % 101) / 50.0f - 1.0f + 1e-3f;
    cl_int err;
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof y, NULL, &err);
    cldnnTensorDescriptor_t t;
    cldnnCreateTensorDescriptor(&t);
    cldnnSetTensor4dDescriptor(t, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 1, N);
    cldnnActivationDescriptor_t a;
    cldnnCreateActivationDescriptor(&a);
    cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0);
    float one = 1.0f, zero = 0.0f;
    cldnnStatus_t s = cldnnActivationForward(h, a, &one, t, bx, 0, &zero, t, by, 0);
    char msg[2048];
    cldnnGetLastErrorString(msg, sizeof msg);
    cr_assert_eq(s, CLDNN_STATUS_SUCCESS, "%s: %s", cldnnGetErrorString(s), msg);
    clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL);
    for (int i = 0; i < N; ++i)
        cr_assert_eq(y[i], fmaxf(x[i], 0.0f), "element %d: %g for relu(%g)", i, y[i], x[i]);
    cldnnDestroyActivationDescriptor(a);
    cldnnDestroyTensorDescriptor(t);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    cldnnDestroy(h);
}

Test(cache, cold_builds_and_writes_then_second_context_loads_from_disk) {
    char dir[256];
    fresh_cache_dir(dir, sizeof dir);
    cldnn_cache_stats a, b;
    relu_on_fresh_context();
    cldnn_cache_stats_get(&a);
    cr_assert_eq(a.builds, 1, "a fresh cache folder must build once, built %llu", (unsigned long long)a.builds);
    cr_assert_eq(a.disk_hits, 0);
    cr_assert_eq(count_files(dir, ".clbin"), 1, "one entry expected in %s", dir);
    cr_assert_eq(count_files(dir, ".tmp"), 0, "temporary files left in %s", dir);
    relu_on_fresh_context();
    cldnn_cache_stats_get(&b);
    cr_assert_eq(b.builds, 1, "the second context must not build (builds %llu)", (unsigned long long)b.builds);
    cr_assert_eq(b.disk_hits, 1, "the second context must load from disk");
}

Test(cache, memory_hit_within_a_context) {
    char dir[256];
    fresh_cache_dir(dir, sizeof dir);
    cldnnHandle_t h1, h2;
    cr_assert_eq(cldnnCreateDefault(&h1), CLDNN_STATUS_SUCCESS);
    cl_command_queue q;
    cldnnGetQueue(h1, &q);
    /* A second handle on the same queue shares the context's programs. */
    cr_assert_eq(cldnnCreate(&h2, q), CLDNN_STATUS_SUCCESS);
    cl_program p1, p2;
    cr_assert_eq(cldnn_program_get(h1, "eltwise/eltwise.cl", "-DOP=2", &p1), CLDNN_STATUS_SUCCESS);
    cr_assert_eq(cldnn_program_get(h2, "eltwise/eltwise.cl", "-DOP=2", &p2), CLDNN_STATUS_SUCCESS);
    cr_assert_eq(p1, p2, "handles on one context must share a program");
    cldnn_cache_stats s;
    cldnn_cache_stats_get(&s);
    cr_assert_eq(s.memory_hits, 1);
    cr_assert_eq(s.builds + s.disk_hits, 1);
    cldnnDestroy(h2);
    cldnnDestroy(h1);
}

/* The element-wise path finds its kernels through the handle's memo: a hit returns the kernel it
** recorded, another id misses, and once the kernel's slot is refilled (eviction gives the slot a
** new generation) the old entry misses instead of returning a released kernel. */
Test(cache, kernel_memo_hits_then_misses_after_its_slot_is_refilled) {
    char dir[256];
    fresh_cache_dir(dir, sizeof dir);
    cldnnHandle_t h;
    cr_assert_eq(cldnnCreateDefault(&h), CLDNN_STATUS_SUCCESS);
    const int64_t id[2] = {7, 11}, other[2] = {7, 12};
    cl_kernel k, m = NULL;
    cr_assert_eq(cldnn_kernel_memo_get(h, id, sizeof id, &m), 0, "an empty memo must miss");
    cr_assert_eq(cldnn_kernel_get(h, "eltwise/eltwise.cl", "-DOP=2", "eltwise_contig", &k), CLDNN_STATUS_SUCCESS);
    cldnn_kernel_memo_put(h, id, sizeof id, k);
    cr_assert_eq(cldnn_kernel_memo_get(h, id, sizeof id, &m), 1);
    cr_assert_eq(m, k);
    cr_assert_eq(cldnn_kernel_memo_get(h, other, sizeof other, &m), 0, "another id must miss");
    int slot = -1;
    for (int i = 0; i < h->nkernels; ++i)
        if (h->kernels[i].kernel == k)
            slot = i;
    cr_assert_geq(slot, 0);
    h->kernels[slot].gen = ++h->kernel_gen; /* what cldnn_kernel_get does when it refills the slot */
    cr_assert_eq(cldnn_kernel_memo_get(h, id, sizeof id, &m), 0, "a refilled slot must miss");
    cldnnDestroy(h);
}

/* Overwrites every entry in dir with `bytes` bytes of its own content (truncation) or garbage. */
static void damage_entries(const char* dir, int truncate_only) {
    DIR* d = opendir(dir);
    cr_assert_not_null(d);
    struct dirent* e;
    while ((e = readdir(d)) != NULL) {
        if (strstr(e->d_name, ".clbin") == NULL)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (truncate_only) {
            cr_assert_eq(truncate(path, 40), 0);
        } else {
            FILE* f = fopen(path, "r+b");
            cr_assert_not_null(f);
            fseek(f, -64, SEEK_END); /* inside the binary: the checksum must catch it */
            for (int i = 0; i < 16; ++i)
                fputc(0x5a, f);
            fclose(f);
        }
    }
    closedir(d);
}

static void corrupt_then_rebuild(int truncate_only) {
    char dir[256];
    fresh_cache_dir(dir, sizeof dir);
    relu_on_fresh_context();
    damage_entries(dir, truncate_only);
    relu_on_fresh_context(); /* still correct: the entry is rejected and rebuilt */
    cldnn_cache_stats s;
    cldnn_cache_stats_get(&s);
    cr_assert_geq(s.disk_rejects, 1, "a damaged entry must be rejected");
    cr_assert_eq(s.builds, 2, "the damaged entry must be rebuilt");
    relu_on_fresh_context(); /* the rewritten entry is valid again */
    cldnn_cache_stats_get(&s);
    cr_assert_eq(s.builds, 2);
    cr_assert_eq(s.disk_hits, 1, "the replaced entry must load");
}

Test(cache, corrupt_entry_is_rebuilt_and_replaced) { corrupt_then_rebuild(0); }
Test(cache, truncated_entry_is_rebuilt_and_replaced) { corrupt_then_rebuild(1); }

Test(cache, disable_cache_writes_nothing) {
    char dir[256];
    fresh_cache_dir(dir, sizeof dir);
    setenv("CLDNN_DISABLE_CACHE", "1", 1);
    relu_on_fresh_context();
    relu_on_fresh_context();
    cr_assert_eq(count_files(dir, ""), 2, "only . and .. expected in %s", dir);
    cldnn_cache_stats s;
    cldnn_cache_stats_get(&s);
    cr_assert_eq(s.builds, 2, "with the disk off every new context builds");
    cr_assert_str_empty(cldnn_cache_dir());
}

/* With CLDNN_DISABLE_CACHE unset, PoCL (whose own cache is on unless POCL_KERNEL_CACHE=0) gets no
** entries, and every other device, or PoCL with its cache off, one. */
static void default_policy(const char* pocl_cache) {
    char dir[256];
    snprintf(dir, sizeof dir, "/tmp/cldnn-test-cache-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    setenv("CLDNN_CACHE_DIR", dir, 1);
    unsetenv("CLDNN_DISABLE_CACHE");
    if (pocl_cache)
        setenv("POCL_KERNEL_CACHE", pocl_cache, 1);
    else
        unsetenv("POCL_KERNEL_CACHE");
    cldnnHandle_t h;
    cr_assert_eq(cldnnCreateDefault(&h), CLDNN_STATUS_SUCCESS);
    const int pocl = strstr(h->prof.platform_name, "Portable Computing Language") != NULL;
    cldnnDestroy(h);
    relu_on_fresh_context();
    cldnn_cache_stats s;
    cldnn_cache_stats_get(&s);
    const int want = pocl && pocl_cache == NULL ? 0 : 1;
    cr_assert_eq(s.builds, 1);
    cr_assert_eq(count_files(dir, ".clbin"), want, "%d entries expected in %s (platform %s, POCL_KERNEL_CACHE %s)",
                 want, dir, pocl ? "PoCL" : "not PoCL", pocl_cache ? pocl_cache : "unset");
}
Test(cache, default_policy_driver_cache_on) { default_policy(NULL); }
Test(cache, default_policy_driver_cache_off) { default_policy("0"); }

Test(cache, unwritable_folder_degrades_to_memory) {
    setenv("CLDNN_CACHE_DIR", "/proc/cldnn-cannot-exist/cache", 1);
    disk_on();
    relu_on_fresh_context();
    cldnn_cache_stats s;
    cldnn_cache_stats_get(&s);
    cr_assert_eq(s.builds, 1);
    cr_assert_eq(s.disk_writes, 0);
}

Test(cache, xdg_cache_home_is_the_default_parent) {
    char dir[256];
    snprintf(dir, sizeof dir, "/tmp/cldnn-test-xdg-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    unsetenv("CLDNN_CACHE_DIR");
    setenv("XDG_CACHE_HOME", dir, 1);
    disk_on();
    char want[300];
    snprintf(want, sizeof want, "%s/cldnn", dir);
    cr_assert_str_eq(cldnn_cache_dir(), want);
    relu_on_fresh_context();
    cr_assert_eq(count_files(want, ".clbin"), 1);
}

Test(cache, build_failure_reports_the_build_log) {
    char dir[256];
    fresh_cache_dir(dir, sizeof dir);
    cldnnHandle_t h;
    cr_assert_eq(cldnnCreateDefault(&h), CLDNN_STATUS_SUCCESS);
    cl_program p;
    /* float5 does not exist: the eltwise kernel cannot compile with VEC=5. */
    cldnnStatus_t s = cldnn_program_get(h, "eltwise/eltwise.cl", "-DVEC=5", &p);
    cr_assert_eq(s, CLDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED, "got %s", cldnnGetErrorString(s));
    char msg[8192];
    cldnnGetLastErrorString(msg, sizeof msg);
    cr_assert_not_null(strstr(msg, "build log"), "last error lacks the build log: %s", msg);
    cr_assert_eq(count_files(dir, ".clbin"), 0, "a failed build must not be stored");
    s = cldnn_program_get(h, "no/such/kernel.cl", "", &p);
    cr_assert_eq(s, CLDNN_STATUS_INTERNAL_ERROR);
    cldnnDestroy(h);
}

/* ---- threads: handles on their own contexts and on one shared context, at once */

typedef struct {
    cl_command_queue shared_queue; /* NULL: own default handle */
    int ok;
} thread_arg;

static void* thread_body(void* p) {
    thread_arg* a = (thread_arg*)p;
    a->ok = 0;
    cldnnHandle_t h;
    if ((a->shared_queue ? cldnnCreate(&h, a->shared_queue) : cldnnCreateDefault(&h)) != CLDNN_STATUS_SUCCESS)
        return NULL;
    cl_command_queue q;
    cldnnGetQueue(h, &q);
    cl_context ctx;
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    enum { N = 4099 };
    static _Thread_local float x[N], y[N];
    for (int i = 0; i < N; ++i)
        x[i] = (float)((i * 7919) % 2003) / 1000.0f - 1.0f;
    cl_int err;
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof y, NULL, &err);
    cldnnTensorDescriptor_t t;
    cldnnCreateTensorDescriptor(&t);
    cldnnSetTensor4dDescriptor(t, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 1, N);
    cldnnActivationDescriptor_t act;
    cldnnCreateActivationDescriptor(&act);
    int good = 1;
    const cldnnActivationMode_t modes[] = {CLDNN_ACTIVATION_RELU, CLDNN_ACTIVATION_TANH, CLDNN_ACTIVATION_ABS};
    float one = 1.0f, zero = 0.0f;
    for (int iter = 0; iter < 6 && good; ++iter) {
        cldnnActivationMode_t m = modes[iter % 3];
        cldnnSetActivationDescriptor(act, m, CLDNN_NOT_PROPAGATE_NAN, 0.0);
        good = cldnnActivationForward(h, act, &one, t, bx, 0, &zero, t, by, 0) == CLDNN_STATUS_SUCCESS;
        good = good && clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL) == CL_SUCCESS;
        for (int i = 0; good && i < N; ++i) {
            double want = m == CLDNN_ACTIVATION_RELU ? fmax(x[i], 0.0) : m == CLDNN_ACTIVATION_TANH ? tanh(x[i])
                                                                                                : fabs(x[i]);
            good = fabs(y[i] - want) <= 1e-6 + 1e-5 * fabs(want);
        }
    }
    cldnnDestroyActivationDescriptor(act);
    cldnnDestroyTensorDescriptor(t);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    cldnnDestroy(h);
    a->ok = good;
    return NULL;
}

static void run_threads(cl_command_queue shared) {
    enum { T = 4 };
    pthread_t th[T];
    thread_arg args[T];
    for (int i = 0; i < T; ++i) {
        args[i].shared_queue = shared;
        cr_assert_eq(pthread_create(&th[i], NULL, thread_body, &args[i]), 0);
    }
    for (int i = 0; i < T; ++i) {
        pthread_join(th[i], NULL);
        cr_assert(args[i].ok, "thread %d computed a wrong result or failed", i);
    }
}

Test(cache, threads_with_their_own_contexts) {
    char dir[256];
    fresh_cache_dir(dir, sizeof dir);
    run_threads(NULL);
}

Test(cache, threads_sharing_one_context) {
    char dir[256];
    fresh_cache_dir(dir, sizeof dir);
    cldnnHandle_t h;
    cr_assert_eq(cldnnCreateDefault(&h), CLDNN_STATUS_SUCCESS);
    cl_command_queue q;
    cldnnGetQueue(h, &q);
    cl_context ctx;
    cl_device_id dev;
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
    /* Each thread gets its own queue on the shared context (a queue per thread, as OpenCL wants). */
    enum { T = 4 };
    cl_command_queue qs[T];
    pthread_t th[T];
    thread_arg args[T];
    for (int i = 0; i < T; ++i) {
        cl_int err;
        qs[i] = clCreateCommandQueue(ctx, dev, 0, &err);
        cr_assert_not_null(qs[i]);
        args[i].shared_queue = qs[i];
        cr_assert_eq(pthread_create(&th[i], NULL, thread_body, &args[i]), 0);
    }
    for (int i = 0; i < T; ++i) {
        pthread_join(th[i], NULL);
        cr_assert(args[i].ok, "thread %d computed a wrong result or failed", i);
        clReleaseCommandQueue(qs[i]);
    }
    cldnn_cache_stats s;
    cldnn_cache_stats_get(&s);
    /* The activation mode is folded into the program: RELU, TANH and ABS are three programs,
    ** each built or loaded once for the shared context whatever the number of threads. */
    cr_assert_eq(s.builds + s.disk_hits, 3, "three programs for the shared context, got %llu builds + %llu disk loads",
                 (unsigned long long)s.builds, (unsigned long long)s.disk_hits);
    cldnnDestroy(h);
}
