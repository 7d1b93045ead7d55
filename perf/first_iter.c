/*
** first_iter.c: cldnn-first-iter, what the first training iteration of a network's convolutions
** costs in a fresh process, against a steady iteration.
**
**   cldnn-first-iter [--shapes FILE] [--prefix NAME] [--batch N] [--layers N] [--steady N]
**                    [--prepare] [--md]
**
** The layers are the rows of a perf/shapes/conv-*.csv file (default perf/shapes/conv-nets.csv)
** whose name starts with --prefix (default "resnet50/"), at most --layers of them (0: all), each
** with n replaced by --batch when given. One iteration is, layer by layer in file order, the
** forward, backward-data and backward-filter call with the algorithm the Get_v7 call of that
** direction puts first (under the handle's find mode: the find-db, else the heuristic), then one
** clFinish. Before the first iteration the program creates the handle, the descriptors, one
** buffer per tensor role at the largest size any layer needs (x, w, y, dy, dx, dw, filled with
** 0.25) and one workspace of the largest size Get's choices need; with --prepare it then calls
** the three Prepare functions of every layer (timed apart). Then it times iteration 1 and
** --steady more (default 3), each on the host clock from its first call to its clFinish.
**
** Printed (one `key value` per line, then a `FIRSTITER` line with every field for scripts):
** handle creation, setup (descriptors, Get, workspace queries, buffers), prepare, iteration 1,
** the median of the steady iterations, iteration 1 / steady, and per phase the programs built
** from source, loaded from the disk cache and found in memory. The program counts come from the
** library's internal counters (cldnn_cache_stats_get), which is why this links the static
** library; the public API has no such query. Exit status 0, or 1 after printing the failing call.
** The disk cache is whatever CLDNN_CACHE_DIR says (`perf/run-device.sh first-iter` runs it cold and warm).
*/
#define _POSIX_C_SOURCE 200809L
#include "conv_descs.h"
#include "conv_shapes.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_LAYERS 256
#define MAX_STEADY 50

/* One layer: its descriptors and the algorithm and workspace of each direction. */
typedef struct {
    conv_shape s;
    cldnnTensorDescriptor_t xd, yd;
    cldnnFilterDescriptor_t wd;
    cldnnConvolutionDescriptor_t cd;
    int algo[3];
    size_t ws[3];
} layer;

/* The buffers every layer shares (largest size of each role) and the workspace. */
typedef struct {
    cl_mem x, w, y, dy, dx, dw, ws;
    size_t ws_size;
} net_buffers;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Prints the failed call with the library's last error; returns 1. */
static int fail(const char* what, cldnnStatus_t st) {
    char e[1024];
    cldnnGetLastErrorString(e, sizeof e);
    fprintf(stderr, "cldnn-first-iter: %s: %s: %s\n", what, cldnnGetErrorString(st), e);
    return 1;
}

/* Program counters now. */
static cldnn_cache_stats programs(void) {
    cldnn_cache_stats s;
    cldnn_cache_stats_get(&s);
    return s;
}

/* "built B, loaded L, memory M" for the counters' change from a to b into buf. */
static void program_delta(const cldnn_cache_stats* a, const cldnn_cache_stats* b, char* buf, size_t size) {
    snprintf(buf, size, "built %llu, loaded %llu, memory %llu", (unsigned long long)(b->builds - a->builds),
             (unsigned long long)(b->disk_hits - a->disk_hits),
             (unsigned long long)(b->memory_hits - a->memory_hits));
}

/* Creates L's descriptors, asks Get_v7 for each direction's algorithm and its workspace size. */
static int layer_init(cldnnHandle_t h, layer* L) {
    const conv_shape* s = &L->s;
    cldnnStatus_t st = conv_descs_create(s, &L->xd, &L->yd, &L->wd, &L->cd);
    if (st != CLDNN_STATUS_SUCCESS)
        return fail("descriptors", st);
    int n = 0;
    cldnnConvolutionFwdAlgoPerf_t pf;
    cldnnConvolutionBwdDataAlgoPerf_t pd;
    cldnnConvolutionBwdFilterAlgoPerf_t pw;
    if ((st = cldnnGetConvolutionForwardAlgorithm_v7(h, L->xd, L->wd, L->cd, L->yd, 1, &n, &pf)))
        return fail("cldnnGetConvolutionForwardAlgorithm_v7", st);
    if ((st = cldnnGetConvolutionBackwardDataAlgorithm_v7(h, L->wd, L->yd, L->cd, L->xd, 1, &n, &pd)))
        return fail("cldnnGetConvolutionBackwardDataAlgorithm_v7", st);
    if ((st = cldnnGetConvolutionBackwardFilterAlgorithm_v7(h, L->xd, L->yd, L->cd, L->wd, 1, &n, &pw)))
        return fail("cldnnGetConvolutionBackwardFilterAlgorithm_v7", st);
    L->algo[0] = (int)pf.algo;
    L->algo[1] = (int)pd.algo;
    L->algo[2] = (int)pw.algo;
    if ((st = cldnnGetConvolutionForwardWorkspaceSize(h, L->xd, L->wd, L->cd, L->yd, pf.algo, &L->ws[0])) ||
        (st = cldnnGetConvolutionBackwardDataWorkspaceSize(h, L->wd, L->yd, L->cd, L->xd, pd.algo, &L->ws[1])) ||
        (st = cldnnGetConvolutionBackwardFilterWorkspaceSize(h, L->xd, L->yd, L->cd, L->wd, pw.algo, &L->ws[2])))
        return fail("cldnnGetConvolution*WorkspaceSize", st);
    return 0;
}

/* Calls the three Prepare functions of L. */
static int layer_prepare(cldnnHandle_t h, const layer* L) {
    cldnnStatus_t st;
    if ((st = cldnnConvolutionForwardPrepare(h, L->xd, L->wd, L->cd, (cldnnConvolutionFwdAlgo_t)L->algo[0], L->yd)))
        return fail("cldnnConvolutionForwardPrepare", st);
    if ((st = cldnnConvolutionBackwardDataPrepare(h, L->wd, L->yd, L->cd, (cldnnConvolutionBwdDataAlgo_t)L->algo[1],
                                                  L->xd)))
        return fail("cldnnConvolutionBackwardDataPrepare", st);
    if ((st = cldnnConvolutionBackwardFilterPrepare(h, L->xd, L->yd, L->cd,
                                                    (cldnnConvolutionBwdFilterAlgo_t)L->algo[2], L->wd)))
        return fail("cldnnConvolutionBackwardFilterPrepare", st);
    return 0;
}

/* Enqueues L's forward, backward-data and backward-filter calls. */
static int layer_run(cldnnHandle_t h, const layer* L, const net_buffers* b) {
    const float one = 1.0f, zero = 0.0f;
    cldnnStatus_t st;
    if ((st = cldnnConvolutionForward(h, &one, L->xd, b->x, 0, L->wd, b->w, 0, L->cd,
                                      (cldnnConvolutionFwdAlgo_t)L->algo[0], b->ws, 0, L->ws[0], &zero, L->yd, b->y,
                                      0)))
        return fail("cldnnConvolutionForward", st);
    if ((st = cldnnConvolutionBackwardData(h, &one, L->wd, b->w, 0, L->yd, b->dy, 0, L->cd,
                                           (cldnnConvolutionBwdDataAlgo_t)L->algo[1], b->ws, 0, L->ws[1], &zero, L->xd,
                                           b->dx, 0)))
        return fail("cldnnConvolutionBackwardData", st);
    if ((st = cldnnConvolutionBackwardFilter(h, &one, L->xd, b->x, 0, L->yd, b->dy, 0, L->cd,
                                             (cldnnConvolutionBwdFilterAlgo_t)L->algo[2], b->ws, 0, L->ws[2], &zero,
                                             L->wd, b->dw, 0)))
        return fail("cldnnConvolutionBackwardFilter", st);
    return 0;
}

/* One iteration over every layer, to its clFinish; its wall time in *ms. */
static int iteration(cldnnHandle_t h, const layer* L, int n, const net_buffers* b, double* ms) {
    double t0 = now_ms();
    for (int i = 0; i < n; ++i)
        if (layer_run(h, &L[i], b))
            return 1;
    cl_int err = clFinish(h->queue);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "cldnn-first-iter: clFinish: %s\n", cldnn_cl_error_name(err));
        return 1;
    }
    *ms = now_ms() - t0;
    return 0;
}

/* A buffer of bytes (at least 4) filled with 0.25f; NULL after printing why. */
static cl_mem filled(cldnnHandle_t h, size_t bytes) {
    cl_int err;
    if (bytes < 4)
        bytes = 4;
    cl_mem m = clCreateBuffer(h->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (m == NULL) {
        fprintf(stderr, "cldnn-first-iter: clCreateBuffer(%zu bytes): %s\n", bytes, cldnn_cl_error_name(err));
        return NULL;
    }
    const float v = 0.25f;
    err = clEnqueueFillBuffer(h->queue, m, &v, sizeof v, 0, bytes / 4 * 4, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "cldnn-first-iter: clEnqueueFillBuffer: %s\n", cldnn_cl_error_name(err));
        clReleaseMemObject(m);
        return NULL;
    }
    return m;
}

/* Creates b for layers L (each role at its largest size over the layers). */
static int buffers_init(cldnnHandle_t h, const layer* L, int n, net_buffers* b) {
    size_t x = 0, w = 0, y = 0;
    b->ws_size = 0;
    for (int i = 0; i < n; ++i) {
        const conv_shape* s = &L[i].s;
        int P = 0, Q = 0;
        conv_shape_out(s, &P, &Q);
        size_t xs = (size_t)s->n * s->c * s->h * s->w * 4, ws = (size_t)s->k * (s->c / s->groups) * s->r * s->s * 4,
               ys = (size_t)s->n * s->k * P * Q * 4;
        x = xs > x ? xs : x;
        w = ws > w ? ws : w;
        y = ys > y ? ys : y;
        for (int d = 0; d < 3; ++d)
            b->ws_size = L[i].ws[d] > b->ws_size ? L[i].ws[d] : b->ws_size;
    }
    b->x = filled(h, x);
    b->dx = filled(h, x);
    b->w = filled(h, w);
    b->dw = filled(h, w);
    b->y = filled(h, y);
    b->dy = filled(h, y);
    b->ws = b->ws_size ? filled(h, b->ws_size) : NULL;
    if (!b->x || !b->dx || !b->w || !b->dw || !b->y || !b->dy || (b->ws_size && !b->ws))
        return 1;
    return clFinish(h->queue) != CL_SUCCESS;
}

static void buffers_free(net_buffers* b) {
    cl_mem all[] = {b->x, b->w, b->y, b->dy, b->dx, b->dw, b->ws};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (all[i])
            clReleaseMemObject(all[i]);
}

static int usage(void) {
    fprintf(stderr, "usage: cldnn-first-iter [--shapes FILE] [--prefix NAME] [--batch N] [--layers N] [--steady N] "
                    "[--prepare]\n");
    return 2;
}

int main(int argc, char** argv) {
    const char* path = "perf/shapes/conv-nets.csv";
    const char* prefix = "resnet50/";
    int batch = 0, max_layers = 0, steady = 3, prepare = 0;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (strcmp(a, "--prepare") == 0) {
            prepare = 1;
            continue;
        }
        if (i + 1 >= argc)
            return usage();
        const char* v = argv[++i];
        if (strcmp(a, "--shapes") == 0)
            path = v;
        else if (strcmp(a, "--prefix") == 0)
            prefix = v;
        else if (strcmp(a, "--batch") == 0)
            batch = atoi(v);
        else if (strcmp(a, "--layers") == 0)
            max_layers = atoi(v);
        else if (strcmp(a, "--steady") == 0)
            steady = atoi(v);
        else
            return usage();
    }
    if (batch < 0 || max_layers < 0 || steady < 1 || steady > MAX_STEADY)
        return usage();
    conv_shape* all = NULL;
    int nall = conv_shapes_read(path, &all);
    if (nall < 0)
        return 2;
    static layer L[MAX_LAYERS];
    int n = 0;
    for (int i = 0; i < nall && n < MAX_LAYERS && (max_layers == 0 || n < max_layers); ++i)
        if (strncmp(all[i].name, prefix, strlen(prefix)) == 0) {
            L[n].s = all[i];
            if (batch > 0)
                L[n].s.n = batch;
            ++n;
        }
    free(all);
    if (n == 0) {
        fprintf(stderr, "cldnn-first-iter: no row of %s starts with \"%s\"\n", path, prefix);
        return 2;
    }

    cldnn_cache_stats c0 = programs();
    double t0 = now_ms();
    cldnnHandle_t h;
    cldnnStatus_t st = cldnnCreateDefault(&h);
    if (st != CLDNN_STATUS_SUCCESS)
        return fail("cldnnCreateDefault", st);
    double t_handle = now_ms() - t0;
    t0 = now_ms();
    net_buffers b;
    memset(&b, 0, sizeof b);
    int bad = 0;
    for (int i = 0; i < n && !bad; ++i)
        bad = layer_init(h, &L[i]);
    if (!bad)
        bad = buffers_init(h, L, n, &b);
    double t_setup = now_ms() - t0, t_prepare = 0.0, t_first = 0.0, t_steady[MAX_STEADY];
    cldnn_cache_stats c1 = programs();
    t0 = now_ms();
    for (int i = 0; i < n && prepare && !bad; ++i)
        bad = layer_prepare(h, &L[i]);
    t_prepare = now_ms() - t0;
    cldnn_cache_stats c2 = programs();
    if (!bad)
        bad = iteration(h, L, n, &b, &t_first);
    cldnn_cache_stats c3 = programs();
    for (int i = 0; i < steady && !bad; ++i)
        bad = iteration(h, L, n, &b, &t_steady[i]);
    cldnn_cache_stats c4 = programs();
    if (!bad) {
        qsort(t_steady, (size_t)steady, sizeof t_steady[0], cmp_double);
        double med = t_steady[steady / 2];
        char d_setup[96], d_prep[96], d_first[96], d_steady[96];
        program_delta(&c0, &c1, d_setup, sizeof d_setup);
        program_delta(&c1, &c2, d_prep, sizeof d_prep);
        program_delta(&c2, &c3, d_first, sizeof d_first);
        program_delta(&c3, &c4, d_steady, sizeof d_steady);
        printf("device          %s (%u compute units)\n", h->prof.name, (unsigned)h->prof.compute_units);
        printf("layers          %d (\"%s\" of %s%s%d), forward + backward-data + backward-filter\n", n, prefix, path,
               batch ? ", batch " : ", batch as listed: ", batch ? batch : L[0].s.n);
        printf("find mode       %s, program cache %s\n", cldnn_find_mode_name(h->find_mode),
               cldnn_cache_dir()[0] ? cldnn_cache_dir() : "off");
        printf("handle          %.1f ms\n", t_handle);
        printf("setup           %.1f ms (%s)\n", t_setup, d_setup);
        printf("prepare         %s%.1f ms (%s)\n", prepare ? "" : "not called, ", t_prepare, d_prep);
        printf("iteration 1     %.1f ms (%s)\n", t_first, d_first);
        printf("steady          %.1f ms (median of %d; %s)\n", med, steady, d_steady);
        printf("ratio           %.2f\n", t_first / med);
        printf("build threads   %d (CLDNN_BUILD_THREADS, else min(CPUs, 8): a Prepare call's programs at once)\n",
               cldnn_build_threads());
        printf("FIRSTITER layers=%d batch=%d prepare=%d threads=%d handle_ms=%.1f setup_ms=%.1f prepare_ms=%.1f "
               "first_ms=%.1f steady_ms=%.1f ratio=%.3f built=%llu loaded=%llu first_built=%llu first_loaded=%llu\n",
               n, batch ? batch : L[0].s.n, prepare, cldnn_build_threads(), t_handle, t_setup, t_prepare, t_first, med,
               t_first / med,
               (unsigned long long)(c4.builds - c0.builds), (unsigned long long)(c4.disk_hits - c0.disk_hits),
               (unsigned long long)(c3.builds - c2.builds), (unsigned long long)(c3.disk_hits - c2.disk_hits));
    }
    buffers_free(&b);
    for (int i = 0; i < n; ++i) {
        cldnnDestroyTensorDescriptor(L[i].xd);
        cldnnDestroyTensorDescriptor(L[i].yd);
        cldnnDestroyFilterDescriptor(L[i].wd);
        cldnnDestroyConvolutionDescriptor(L[i].cd);
    }
    cldnnDestroy(h);
    return bad;
}
