/*
** main.c: cldnn-bench's entry point: the table of modes, the common flags, command-line
** parsing and the resolution of the common flags into a bench_opts.
**
**   cldnn-bench <mode> [flags]        (cldnn-bench --help, cldnn-bench <mode> --help)
**   cldnn-bench --devices             (every OpenCL device with its CLDNN_DEVICE P:D index, and the
**                                      device each CLDNN_DEVICE form opens)
**
** The command lines that the library prints with CLDNN_LOG_CMD=1 (for example
** `cldnn-bench activ -m relu -F 1 -D 32x64x56x56 -A 1 -B 0`, or for a convolution
** `cldnn-bench conv -n 32 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -g 1 -F 1 -a 0
** -L NCHW -A 1 -B 0 --mode xcorr`) are valid input.
**
** To add a mode: write perf/bench/<name>.c defining `const bench_mode bench_mode_<name>` (its
** flags and run function; see activ.c) and add X(<name>) to BENCH_MODE_LIST below. That list is
** the only place that names the modes; perf/CMakeLists.txt picks up every .c file here.
*/
#define _POSIX_C_SOURCE 200809L /* setenv, strncasecmp */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common.h"

#define BENCH_MODE_LIST(X) \
    X(activ) X(tensor) X(gemm) X(softmax) X(conv) X(convbiasact) X(pool) X(bnorm) X(lrn) X(reduce) X(optensor) X(dropout) X(norm) X(attn)

#define BENCH_MODE_DECLARE(name) extern const bench_mode bench_mode_##name;
BENCH_MODE_LIST(BENCH_MODE_DECLARE)
#define BENCH_MODE_ENTRY(name) &bench_mode_##name,
static const bench_mode* const k_modes[] = {BENCH_MODE_LIST(BENCH_MODE_ENTRY)};
#define N_MODES (sizeof k_modes / sizeof k_modes[0])

const bench_flag bench_common_flags[] = {
    {"-n", BENCH_FLAG_INT, "32", "batch N (4-d shape N x C x H x W)"},
    {"-c", BENCH_FLAG_INT, "64", "channels C"},
    {"-H", BENCH_FLAG_INT, "56", "height H"},
    {"-W", BENCH_FLAG_INT, "56", "width W"},
    {"-D", BENCH_FLAG_STRING, NULL, "AxBxC...: 1 to 8 dims (logical N, C, spatial order), overrides -n -c -H -W"},
    {"-S", BENCH_FLAG_INT, NULL, "MiB: dims 1 x 1 x 1 x (MiB * 2^20 / element size); excludes -D"},
    {"-L", BENCH_FLAG_STRING, "NCHW", "NCHW|NHWC packed layout (NHWC: dim 1 fastest)"},
    {"-d", BENCH_FLAG_STRING, "float", "float|half|bfloat16 data type"},
    {"-V", BENCH_FLAG_INT, "1", "0|1 verify against the double reference (un-timed call)"},
    {"-t", BENCH_FLAG_INT, "1", "0|1 time (and measure the copy-bandwidth baseline)"},
    {"-i", BENCH_FLAG_INT, "20", "timed iterations per repetition (5 repetitions, median)"},
    {"-w", BENCH_FLAG_INT, "3", "warm-up calls"},
    {"-A", BENCH_FLAG_DOUBLE, "1", "alpha"},
    {"-B", BENCH_FLAG_DOUBLE, "0", "beta"},
    {"--seed", BENCH_FLAG_INT, NULL, "random seed (default: CLDNN_TEST_SEED, else the clock)"},
    {"--md", BENCH_FLAG_SWITCH, NULL, "print one markdown table row per result"},
    {"--md-header", BENCH_FLAG_SWITCH, NULL, "print the markdown table header first (implies --md)"},
    {"-h", BENCH_FLAG_SWITCH, NULL, "this help (also --help)"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

/* The row of name in table t (NULL-terminated), or NULL. */
static const bench_flag* flag_lookup(const bench_flag* t, const char* name) {
    for (; t && t->name; t++)
        if (strcmp(t->name, name) == 0) return t;
    return NULL;
}

/* Prints the rows of table t. */
static void print_flags(FILE* f, const bench_flag* t) {
    for (; t && t->name; t++)
        fprintf(f, "  %-12s %s%s%s%s\n", t->name, t->help, t->defval ? " (default " : "", t->defval ? t->defval : "",
                t->defval ? ")" : "");
}

/* Prints the usage: the modes, the flags of mode m (all modes when NULL) and the common flags. */
static void usage(FILE* f, const bench_mode* m) {
    fprintf(f, "usage: cldnn-bench <mode> [flags]   |   cldnn-bench --devices (list OpenCL devices)\nmodes:\n");
    for (size_t i = 0; i < N_MODES; i++) fprintf(f, "  %-12s %s\n", k_modes[i]->name, k_modes[i]->summary);
    for (size_t i = 0; i < N_MODES; i++) {
        if (m && k_modes[i] != m) continue;
        fprintf(f, "flags of %s:\n", k_modes[i]->name);
        print_flags(f, k_modes[i]->flags);
    }
    fprintf(f, "common flags:\n");
    print_flags(f, bench_common_flags);
    fprintf(f, "environment: CLDNN_DEVICE = gpu | cpu | P:D | name substring chooses the device\n");
}

/* Whether s is entirely a number of the kind (integer or double). */
static int is_number(const char* s, bench_flag_kind kind) {
    char* end = NULL;
    errno = 0;
    if (kind == BENCH_FLAG_INT) (void)strtoll(s, &end, 10);
    else (void)strtod(s, &end);
    return *s && end && *end == '\0' && errno == 0;
}

/* Parses argv[first..argc) into args against mode m's flags and the common ones. Returns 0, or 2
** after printing why. */
static int parse(int argc, char** argv, int first, const bench_mode* m, bench_args* args) {
    memset(args, 0, sizeof *args);
    args->mode_flags = m->flags;
    for (int i = first; i < argc; i++) {
        const char* name = strcmp(argv[i], "--help") == 0 ? "-h" : argv[i];
        const bench_flag* f = flag_lookup(m->flags, name);
        if (!f) f = flag_lookup(bench_common_flags, name);
        if (!f) {
            fprintf(stderr, "cldnn-bench %s: unknown flag '%s' (see cldnn-bench %s --help)\n", m->name, argv[i],
                    m->name);
            return 2;
        }
        if (args->count == BENCH_ARGS_MAX) {
            fprintf(stderr, "cldnn-bench: too many flags\n");
            return 2;
        }
        const char* value = "1";
        if (f->kind != BENCH_FLAG_SWITCH) {
            if (i + 1 >= argc) {
                fprintf(stderr, "cldnn-bench %s: flag %s needs a value\n", m->name, f->name);
                return 2;
            }
            value = argv[++i];
            if ((f->kind == BENCH_FLAG_INT || f->kind == BENCH_FLAG_DOUBLE) && !is_number(value, f->kind)) {
                fprintf(stderr, "cldnn-bench %s: flag %s: '%s' is not %s\n", m->name, f->name, value,
                        f->kind == BENCH_FLAG_INT ? "an integer" : "a number");
                return 2;
            }
        }
        args->name[args->count] = f->name;
        args->value[args->count] = value;
        args->count++;
    }
    return 0;
}

int bench_parse_dims(const char* s, int64_t* dims) {
    int nd = 0;
    while (*s) {
        char* end = NULL;
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (end == s || errno || v < 1 || nd == CLDNN_DIM_MAX) return 0;
        dims[nd++] = v;
        if (*end == 'x' || *end == 'X') {
            s = end + 1;
            if (!*s) return 0;
        } else if (*end == '\0') {
            s = end;
        } else {
            return 0;
        }
    }
    return nd;
}

/* Resolves the common flags of args into opts. Returns 0, or 2 after printing why. */
static int resolve(const bench_args* args, bench_opts* opts) {
    memset(opts, 0, sizeof *opts);
    const char* d = bench_arg_str(args, "-d");
    if (strcmp(d, "float") == 0 || strcmp(d, "fp32") == 0) {
        opts->dtype = CLDNN_DATA_FLOAT;
        opts->elem_size = 4;
        opts->rtol = 1e-5;
        opts->atol = 1e-6;
    } else if (strcmp(d, "half") == 0 || strcmp(d, "fp16") == 0) {
        opts->dtype = CLDNN_DATA_HALF;
        opts->elem_size = 2;
        opts->rtol = 2e-3;
        opts->atol = 2e-3;
    } else if (strcmp(d, "bfloat16") == 0 || strcmp(d, "bf16") == 0) {
        opts->dtype = CLDNN_DATA_BFLOAT16;
        opts->elem_size = 2;
        opts->rtol = 1.6e-2; /* half's two ulps, in bfloat16's 8 significant bits */
        opts->atol = 1.6e-2;
    } else {
        fprintf(stderr, "cldnn-bench: -d %s: expected float, half or bfloat16\n", d);
        return 2;
    }
    const char* l = bench_arg_str(args, "-L");
    if (strcmp(l, "NCHW") == 0 || strcmp(l, "nchw") == 0) opts->layout = CLDNN_TENSOR_NCHW;
    else if (strcmp(l, "NHWC") == 0 || strcmp(l, "nhwc") == 0) opts->layout = CLDNN_TENSOR_NHWC;
    else {
        fprintf(stderr, "cldnn-bench: -L %s: expected NCHW or NHWC\n", l);
        return 2;
    }
    if (bench_arg_given(args, "-S") && bench_arg_given(args, "-D")) {
        fprintf(stderr, "cldnn-bench: give -S or -D, not both\n");
        return 2;
    }
    if (bench_arg_given(args, "-S")) {
        long long mib = bench_arg_int(args, "-S", 0);
        if (mib < 1 || (unsigned long long)mib > (1ull << 40) / (1ull << 20)) {
            fprintf(stderr, "cldnn-bench: -S %lld: expected 1 .. 2^20 MiB\n", mib);
            return 2;
        }
        opts->nd = 4;
        opts->dims[0] = opts->dims[1] = opts->dims[2] = 1;
        opts->dims[3] = (int64_t)((unsigned long long)mib * (1ull << 20) / opts->elem_size);
    } else if (bench_arg_given(args, "-D")) {
        opts->nd = bench_parse_dims(bench_arg_str(args, "-D"), opts->dims);
        if (!opts->nd) {
            fprintf(stderr, "cldnn-bench: -D %s: expected 1 to %d positive dims like 32x64x56x56\n",
                    bench_arg_str(args, "-D"), CLDNN_DIM_MAX);
            return 2;
        }
    } else {
        static const char* const f4[4] = {"-n", "-c", "-H", "-W"};
        opts->nd = 4;
        for (int i = 0; i < 4; i++) {
            opts->dims[i] = bench_arg_int(args, f4[i], 1);
            if (opts->dims[i] < 1) {
                fprintf(stderr, "cldnn-bench: %s %lld: must be >= 1\n", f4[i], (long long)opts->dims[i]);
                return 2;
            }
        }
    }
    opts->verify = bench_arg_int(args, "-V", 1) != 0;
    opts->time = bench_arg_int(args, "-t", 1) != 0;
    long long it = bench_arg_int(args, "-i", 20), wu = bench_arg_int(args, "-w", 3);
    if (it < 1 || it > 1000000 || wu < 0 || wu > 1000000) {
        fprintf(stderr, "cldnn-bench: -i must be 1..1e6 and -w 0..1e6\n");
        return 2;
    }
    opts->iters = (int)it;
    opts->warmup = (int)wu;
    opts->alpha = bench_arg_double(args, "-A", 1);
    opts->beta = bench_arg_double(args, "-B", 0);
    opts->md = bench_arg_given(args, "--md") || bench_arg_given(args, "--md-header");
    opts->seed = bench_arg_given(args, "--seed") ? (uint64_t)bench_arg_int(args, "--seed", 0) : ref_seed_from_env();
    return 0;
}

/* The lowercase first word of a platform vendor that is not "the" ("The pocl project" -> "pocl",
** "NVIDIA Corporation" -> "nvidia", "Intel(R) Corporation" -> "intel"), for the WORD:type form. */
static void vendor_word(const char* vendor, char* out, size_t size) {
    size_t n = 0;
    const char* p = vendor;
    for (;;) {
        while (*p && !isalnum((unsigned char)*p)) p++;
        n = 0;
        while (p[n] && isalnum((unsigned char)p[n])) n++;
        if (n == 3 && strncasecmp(p, "the", 3) == 0) {
            p += n;
            continue;
        }
        break;
    }
    if (n >= size) n = size - 1;
    for (size_t i = 0; i < n; i++) out[i] = (char)tolower((unsigned char)p[i]);
    out[n] = '\0';
}

/* The P:D index of the device cldnnCreateDefault opens with CLDNN_DEVICE=form (NULL: unset) into
** out, or "none" with the status name. */
static void picked_by(const char* form, cl_platform_id* plats, cl_uint np, char* out, size_t size) {
    if (form) setenv("CLDNN_DEVICE", form, 1);
    else unsetenv("CLDNN_DEVICE");
    cldnnHandle_t h = NULL;
    cldnnStatus_t st = cldnnCreateDefault(&h);
    snprintf(out, size, "none (%s)", cldnnGetErrorString(st));
    cl_command_queue q = NULL;
    cl_device_id dev = NULL;
    if (st == CLDNN_STATUS_SUCCESS && cldnnGetQueue(h, &q) == CLDNN_STATUS_SUCCESS &&
        clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) == CL_SUCCESS) {
        for (cl_uint p = 0; p < np; p++) {
            cl_device_id devs[16];
            cl_uint nd = 0;
            if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) != CL_SUCCESS) nd = 0;
            for (cl_uint d = 0; d < nd && d < 16; d++)
                if (devs[d] == dev) snprintf(out, size, "%u:%u", (unsigned)p, (unsigned)d);
        }
    }
    if (h) cldnnDestroy(h);
}

/* Prints every OpenCL platform and device with the P:D index that CLDNN_DEVICE accepts, then what
** each form of CLDNN_DEVICE opens (through the library's own selection). Returns 0, or 1 when no
** platform answers. */
static int list_devices(void) {
    cl_platform_id plats[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || np == 0) {
        fprintf(stderr, "cldnn-bench: no OpenCL platform found\n");
        return 1;
    }
    if (np > 16) np = 16;
    char forms[40][80];
    int nf = 0;
    snprintf(forms[nf++], sizeof forms[0], "gpu");
    snprintf(forms[nf++], sizeof forms[0], "cpu");
    for (cl_uint p = 0; p < np; p++) {
        char pname[256] = "?", vendor[256] = "?", word[64];
        clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        clGetPlatformInfo(plats[p], CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL);
        pname[sizeof pname - 1] = vendor[sizeof vendor - 1] = '\0';
        vendor_word(vendor, word, sizeof word);
        cl_device_id devs[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) != CL_SUCCESS) nd = 0;
        int has[2] = {0, 0};
        for (cl_uint d = 0; d < nd && d < 16; d++) {
            char name[256] = "?", drv[128] = "?";
            cl_device_type t = 0;
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof name, name, NULL);
            clGetDeviceInfo(devs[d], CL_DRIVER_VERSION, sizeof drv, drv, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof t, &t, NULL);
            name[sizeof name - 1] = drv[sizeof drv - 1] = '\0';
            printf("%u:%u  %-4s %s (platform %s, vendor %s, driver %s)\n", (unsigned)p, (unsigned)d,
                   (t & CL_DEVICE_TYPE_GPU) ? "gpu" : (t & CL_DEVICE_TYPE_CPU) ? "cpu" : "other", name, pname, vendor,
                   drv);
            has[0] |= (t & CL_DEVICE_TYPE_GPU) != 0;
            has[1] |= (t & CL_DEVICE_TYPE_CPU) != 0;
        }
        for (int k = 0; k < 2 && nf + 1 < 40; k++)
            if (has[k] && word[0]) {
                snprintf(forms[nf++], sizeof forms[0], "%s:%s", word, k ? "cpu" : "gpu");
                if (k == 0 || !has[0]) snprintf(forms[nf++], sizeof forms[0], "%s", word);
            }
    }
    const char* saved = getenv("CLDNN_DEVICE");
    char keep[256] = "";
    if (saved) snprintf(keep, sizeof keep, "%s", saved);
    char got[64];
    printf("CLDNN_DEVICE forms and the device each opens:\n");
    picked_by(NULL, plats, np, got, sizeof got);
    printf("  %-20s %s\n", "(unset)", got);
    for (int i = 0; i < nf; i++) {
        picked_by(forms[i], plats, np, got, sizeof got);
        printf("  %-20s %s\n", forms[i], got);
    }
    if (saved) setenv("CLDNN_DEVICE", keep, 1);
    else unsetenv("CLDNN_DEVICE");
    return 0;
}

/* Lists devices, prints usage, or parses the command line, opens the device and runs the mode.
** Exit status: 0 all passed, 1 a failure (library call, verification, device), 2 a usage error. */
int main(int argc, char** argv) {
    if (argc >= 2 && strcmp(argv[1], "--devices") == 0) return list_devices();
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(argc < 2 ? stderr : stdout, NULL);
        return argc < 2 ? 2 : 0;
    }
    const bench_mode* m = NULL;
    for (size_t i = 0; i < N_MODES; i++)
        if (strcmp(argv[1], k_modes[i]->name) == 0) m = k_modes[i];
    if (!m) {
        fprintf(stderr, "cldnn-bench: unknown mode '%s'\n", argv[1]);
        usage(stderr, NULL);
        return 2;
    }
    bench_args args;
    bench_opts opts;
    int rc = parse(argc, argv, 2, m, &args);
    if (rc) return rc;
    if (bench_arg_given(&args, "-h")) {
        usage(stdout, m);
        return 0;
    }
    if ((rc = resolve(&args, &opts)) != 0) return rc;

    printf("# command:");
    for (int i = 0; i < argc; i++) printf(" %s", i ? argv[i] : "cldnn-bench");
    printf("\n");
    bench_ctx ctx;
    if (bench_ctx_open(&ctx)) {
        bench_ctx_close(&ctx);
        return 1;
    }
    if (opts.verify) printf("# seed: %llu (rerun with --seed %llu)\n", (unsigned long long)opts.seed,
                            (unsigned long long)opts.seed);
    if (bench_arg_given(&args, "--md-header")) (m->md_header ? m->md_header : bench_report_header)();
    rc = m->run(&ctx, &opts, &args);
    bench_ctx_close(&ctx);
    return rc;
}
