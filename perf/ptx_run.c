/*
 * ptx_run.c (cldnn-ptx-run): runs one kernel of a PTX module through the CUDA driver API, so that
 * an OpenCL kernel built by NVIDIA's OpenCL compiler can be profiled with Nsight Compute, which
 * does not attach to OpenCL processes.
 *
 *   cldnn-ptx-run FILE KERNEL GX,GY,GZ BX,BY,BZ [-n ITERS] [--flops F] ARG...
 *
 * FILE: the PTX text, or a file holding it after other bytes (one of cldnn's program-cache
 * records, CLDNN_CACHE_DIR: the PTX is what clGetProgramInfo(CL_PROGRAM_BINARIES) returned).
 * GX,GY,GZ: work-groups (CUDA blocks) per dimension; BX,BY,BZ: work-items per group.
 * ARG, one per kernel parameter in order:
 *   i:V (32-bit integer), l:V (64-bit integer), i4:A,B,C,D / l4:A,B,C,D (int4 / long4 or
 *   uint4 / ulong4 by value), f:V (float), or
 *   b:BYTES[:FILL] a device buffer of BYTES bytes, FILL z (zeros, the default), h (halves in
 *   [-1, 1)), b (bfloat16 in [-1, 1)) or f (floats in [-1, 1)), from a fixed seed.
 * Prints the median time of ITERS launches (CUDA events) and, with --flops, TFLOP/s.
 * PTX_RUN_DUMP=PATH writes the rewritten module there instead of running it (for ptxas).
 *
 * OpenCL programs keep their local memory in static __local arrays, which NVIDIA's OpenCL
 * accepts up to the device's limit but the CUDA JIT only up to 48 KiB; so the kernel's static
 * .shared arrays become slices of its dynamic shared memory (shared_to_dynamic below), sized to
 * what they declared; and the environment registers that carry OpenCL's work-group offsets and
 * counts become zeros and %nctaid (envregs below).
 */
#include <cuda.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                                          \
    do {                                                                                               \
        CUresult r_ = (x);                                                                             \
        if (r_ != CUDA_SUCCESS) {                                                                      \
            const char* s_ = NULL;                                                                     \
            cuGetErrorString(r_, &s_);                                                                 \
            fprintf(stderr, "ptx_run: %s: %s\n", #x, s_ ? s_ : "?");                                   \
            exit(1);                                                                                   \
        }                                                                                              \
    } while (0)

/* A tool's allocation: exits on failure. */
static void* xalloc(size_t n) {
    void* p = calloc(n ? n : 1, 1);
    if (!p) {
        fprintf(stderr, "ptx_run: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

static char* read_file(const char* path, size_t* n) {
    FILE* f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (len < 0) {
        fprintf(stderr, "ptx_run: %s is not a regular file\n", path);
        exit(1);
    }
    char* b = xalloc((size_t)len + 1);
    if (fread(b, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "ptx_run: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    b[len] = 0;
    *n = (size_t)len;
    return b;
}

/* The PTX inside buf: from NVIDIA's "// Generated" banner (or .version) to the first NUL. */
static char* find_ptx(char* buf, size_t n) {
    char* p = NULL;
    for (size_t i = 0; i + 12 < n && !p; ++i)
        if (!memcmp(buf + i, "// Generated", 12) || !memcmp(buf + i, ".version ", 9))
            p = buf + i;
    if (!p) {
        fprintf(stderr, "ptx_run: no PTX found\n");
        exit(1);
    }
    return p; /* the record's NUL (or the one read_file added) ends it */
}

static int ident_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '.';
}

/* Where .entry name begins (the start of its line: it may begin with .visible), and its body
 * [*body, *end) between the braces; NULL if the module has no such entry. */
static const char* find_entry(const char* ptx, const char* name, const char** body, const char** end) {
    size_t len = strlen(name);
    for (const char* e = strstr(ptx, ".entry "); e; e = strstr(e + 1, ".entry ")) {
        const char* p = e + 7;
        while (*p == ' ')
            ++p;
        if (strncmp(p, name, len) || (p[len] != '(' && p[len] != ' ' && p[len] != '\n'))
            continue;
        const char* close = strchr(p, ')'), *open = close ? strchr(close, '{') : NULL;
        if (!open)
            return NULL;
        int depth = 0;
        const char* q = open;
        for (; *q; ++q)
            if (*q == '{')
                ++depth;
            else if (*q == '}' && --depth == 0)
                break;
        if (!*q)
            return NULL;
        *body = open + 1;
        *end = q;
        while (e > ptx && e[-1] != '\n')
            --e;
        return e;
    }
    return NULL;
}

#define SMEM_NAME "__ptx_run_smem"
#define SMEM_MAX 32

/* The static arrays ".shared .align A .b8 NAME[N];" that entry `name` declares become slices of
 * one dynamic array (".extern .shared .align 16 .b8 " SMEM_NAME "[];" at module scope, each at
 * the next multiple of its alignment): their declarations go, and each use of NAME (NAME or
 * NAME+imm, in mov and in addresses) becomes SMEM_NAME+offset. Returns the new text and the bytes
 * in *bytes (0: none; the text is then unchanged). */
static char* shared_to_dynamic(const char* ptx, const char* name, unsigned* bytes) {
    const char *body, *end, *line = find_entry(ptx, name, &body, &end);
    size_t cap = strlen(ptx) + 4096;
    char* out = xalloc(cap);
    *bytes = 0;
    if (!line) {
        strcpy(out, ptx);
        return out;
    }
    struct {
        const char *decl, *semi, *nm;
        size_t nlen;
        unsigned off;
    } arr[SMEM_MAX];
    int na = 0;
    unsigned total = 0;
    for (const char* d = strstr(body, ".shared .align"); d && d < end; d = strstr(d + 1, ".shared .align")) {
        unsigned al = 0, n = 0;
        int pos = 0;
        const char* lb = strchr(d, '[');
        const char* semi = lb ? strchr(lb, ';') : NULL;
        if (na == SMEM_MAX || sscanf(d, ".shared .align %u .b8 %n", &al, &pos) != 1 || !lb || !semi || semi > end ||
            sscanf(lb, "[%u]", &n) != 1 || al == 0 || (al & (al - 1))) {
            fprintf(stderr, "ptx_run: unexpected .shared declaration in %s\n", name);
            exit(1);
        }
        total = (total + al - 1) / al * al;
        arr[na].decl = d;
        arr[na].semi = semi;
        arr[na].nm = d + pos;
        arr[na].nlen = (size_t)(lb - (d + pos));
        arr[na].off = total;
        total += n;
        ++na;
    }
    if (na == 0) {
        strcpy(out, ptx);
        return out;
    }
    char* o = out;
    memcpy(o, ptx, (size_t)(line - ptx));
    o += line - ptx;
    o += sprintf(o, ".extern .shared .align 16 .b8 " SMEM_NAME "[];\n");
    memcpy(o, line, (size_t)(body - line));
    o += body - line;
    for (const char* p = body; p < end;) {
        if ((size_t)(o - out) + 64 > cap) { /* room for one replacement */
            size_t at = (size_t)(o - out);
            cap *= 2;
            char* grown = realloc(out, cap);
            if (!grown) {
                fprintf(stderr, "ptx_run: out of memory\n");
                exit(1);
            }
            out = grown;
            o = out + at;
        }
        int skipped = 0;
        for (int i = 0; i < na && !skipped; ++i)
            if (p == arr[i].decl) { /* the declaration goes */
                p = arr[i].semi + 1;
                skipped = 1;
            }
        if (skipped)
            continue;
        int hit = -1;
        if (p == body || !ident_char(p[-1]))
            for (int i = 0; i < na && hit < 0; ++i)
                if (!strncmp(p, arr[i].nm, arr[i].nlen) && !ident_char(p[arr[i].nlen]))
                    hit = i;
        if (hit < 0) {
            *o++ = *p++;
            continue;
        }
        p += arr[hit].nlen;
        unsigned long off = arr[hit].off;
        if (*p == '+' && p[1] >= '0' && p[1] <= '9') { /* NAME+imm: one immediate */
            char* e;
            off += strtoul(p + 1, &e, 10);
            p = e;
        }
        o += sprintf(o, SMEM_NAME "+%lu", off);
    }
    size_t at = (size_t)(o - out), rest = strlen(end) + 1;
    if (at + rest > cap) {
        char* grown = realloc(out, at + rest);
        if (!grown) {
            fprintf(stderr, "ptx_run: out of memory\n");
            exit(1);
        }
        out = grown;
    }
    memcpy(out + at, end, rest);
    *bytes = total;
    return out;
}

/* NVIDIA's OpenCL reads work-group offsets and counts from environment registers, which a CUDA
 * launch does not set. Their meaning is not documented; as seen in its PTX (gemm_mma: %envreg0-2
 * added to %ctaid, %envreg8 where get_num_groups(2) is read), %envreg0-5 (offsets: a launch here
 * has none) become 0 and %envreg6-8 (work-group counts) %nctaid. Returns the rewritten text (ptx
 * is freed). */
static char* envregs(char* ptx) {
    static const char* const to[9] = {"0", "0", "0", "0", "0", "0", "%nctaid.x", "%nctaid.y", "%nctaid.z"};
    size_t cnt = 0;
    for (const char* p = strstr(ptx, "%envreg"); p; p = strstr(p + 1, "%envreg"))
        ++cnt;
    char* out = xalloc(strlen(ptx) + 2 * cnt + 1);
    char* o = out;
    const char* p = ptx;
    for (const char* q = strstr(p, "%envreg"); q; q = strstr(p, "%envreg")) {
        char* e;
        unsigned long r = strtoul(q + 7, &e, 10);
        if (e == q + 7 || r > 8) {
            fprintf(stderr, "ptx_run: unknown environment register %.12s\n", q);
            exit(1);
        }
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        o += sprintf(o, "%s", to[r]);
        p = e;
    }
    strcpy(o, p);
    free(ptx);
    return out;
}

/* The number of parameters of .entry name in ptx (-1: no such entry). */
static int entry_params(const char* ptx, const char* name) {
    const char *body, *end, *line = find_entry(ptx, name, &body, &end);
    const char* open = line ? strchr(line, '(') : NULL;
    const char* close = open ? strchr(open, ')') : NULL;
    if (!line)
        return -1;
    if (!close)
        return 0;
    int n = 0;
    for (const char* q = strstr(open, ".param"); q && q < close; q = strstr(q + 1, ".param"))
        ++n;
    return n;
}

/* Parses the whole of s as a number (strtoll / strtof semantics); exits with a message if it is not one. */
static long long whole_int(const char* s, const char* arg) {
    char* e;
    long long v = strtoll(s, &e, 10);
    if (e == s || *e) {
        fprintf(stderr, "ptx_run: not an integer in %s\n", arg);
        exit(2);
    }
    return v;
}

static void dims(const char* s, unsigned v[3]) {
    if (sscanf(s, "%u,%u,%u", &v[0], &v[1], &v[2]) != 3) {
        fprintf(stderr, "ptx_run: dimensions X,Y,Z expected, got %s\n", s);
        exit(2);
    }
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static float urand(void) { /* [-1, 1) */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((rng >> 40) * (1.0 / (1 << 24))) * 2.0f - 1.0f;
}
static uint16_t to_half(float x) {
    /* |x| < 1, no subnormal care needed beyond flushing tiny values to zero */
    union {
        float f;
        uint32_t u;
    } v = {x};
    uint32_t s = (v.u >> 16) & 0x8000u, e = (v.u >> 23) & 0xffu, m = v.u & 0x7fffffu;
    if (e < 113)
        return (uint16_t)s;
    return (uint16_t)(s | ((e - 112) << 10) | (m >> 13));
}

static int cmp_float(const void* a, const void* b) {
    float x = *(const float*)a, y = *(const float*)b;
    return (x > y) - (x < y);
}

int main(int argc, char** argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: cldnn-ptx-run FILE KERNEL GX,GY,GZ BX,BY,BZ [-n ITERS] [--flops F] ARG...\n");
        return 2;
    }
    int iters = 20;
    double flops = 0;
    unsigned g[3], b[3];
    dims(argv[3], g);
    dims(argv[4], b);
    int a = 5;
    for (; a < argc; ++a) {
        if (!strcmp(argv[a], "-n") && a + 1 < argc)
            iters = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--flops") && a + 1 < argc)
            flops = atof(argv[++a]);
        else
            break;
    }
    if (iters < 1)
        iters = 1;
    size_t n;
    char* raw = read_file(argv[1], &n);
    unsigned smem;
    char* ptx = shared_to_dynamic(find_ptx(raw, n), argv[2], &smem);
    ptx = envregs(ptx);
    const char* dump = getenv("PTX_RUN_DUMP"); /* the rewritten module (for ptxas), no run */
    if (dump) {
        FILE* f = fopen(dump, "w");
        if (!f || fputs(ptx, f) < 0 || fclose(f)) {
            perror(dump);
            return 1;
        }
        return 0;
    }
    const int want = entry_params(ptx, argv[2]);
    if (want < 0) {
        fprintf(stderr, "ptx_run: no entry %s in the module\n", argv[2]);
        return 2;
    }
    if (want != argc - a) {
        fprintf(stderr, "ptx_run: %s takes %d arguments, %d given\n", argv[2], want, argc - a);
        return 2;
    }
    CK(cuInit(0));
    CUdevice dev;
    CUcontext ctx;
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev)); /* the same call in every CUDA version, unlike cuCtxCreate */
    CK(cuCtxSetCurrent(ctx));
    CUmodule mod;
    char log[8192] = "";
    CUjit_option jo[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* jv[] = {log, (void*)(uintptr_t)sizeof log};
    if (cuModuleLoadDataEx(&mod, ptx, 2, jo, jv) != CUDA_SUCCESS) {
        fprintf(stderr, "ptx_run: the module did not load:\n%s\n", log);
        return 1;
    }
    CUfunction fn;
    CK(cuModuleGetFunction(&fn, mod, argv[2]));
    if (smem)
        CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)smem));
    int regs = 0;
    CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));

    int nargs = argc - a;
    void** params = xalloc(((size_t)nargs + 1) * sizeof *params);
    CUdeviceptr* bufs = xalloc(((size_t)nargs + 1) * sizeof *bufs);
    for (int i = 0; i < nargs; ++i) {
        const char* s = argv[a + i];
        void* v = xalloc(32);
        if ((s[0] == 'i' || s[0] == 'l') && s[1] == '4' && s[2] == ':') { /* int4 / long4 by value */
            long long w[4];
            char tail;
            if (sscanf(s + 3, "%lld,%lld,%lld,%lld%c", &w[0], &w[1], &w[2], &w[3], &tail) != 4) {
                fprintf(stderr, "ptx_run: %c4:A,B,C,D expected, got %s\n", s[0], s);
                return 2;
            }
            for (int j = 0; j < 4; ++j)
                if (s[0] == 'i')
                    ((int32_t*)v)[j] = (int32_t)w[j];
                else
                    ((int64_t*)v)[j] = (int64_t)w[j];
        } else if (s[0] == 'i' && s[1] == ':')
            *(int32_t*)v = (int32_t)whole_int(s + 2, s);
        else if (s[0] == 'l' && s[1] == ':')
            *(int64_t*)v = (int64_t)whole_int(s + 2, s);
        else if (s[0] == 'f' && s[1] == ':') {
            char* e;
            *(float*)v = strtof(s + 2, &e);
            if (e == s + 2 || *e) {
                fprintf(stderr, "ptx_run: not a number in %s\n", s);
                return 2;
            }
        } else if (s[0] == 'b' && s[1] == ':') {
            char* e;
            size_t bytes = strtoull(s + 2, &e, 10);
            char fill = 'z';
            if (e == s + 2 || (*e && (e[0] != ':' || !e[1] || e[2] || !strchr("zhbf", e[1])))) {
                fprintf(stderr, "ptx_run: b:BYTES[:z|h|b|f] expected, got %s\n", s);
                return 2;
            }
            if (*e)
                fill = e[1];
            CK(cuMemAlloc(&bufs[i], bytes ? bytes : 1));
            unsigned char* h = xalloc(bytes);
            if (fill == 'h' || fill == 'b')
                for (size_t k = 0; k + 2 <= bytes; k += 2) {
                    float x = urand();
                    uint16_t u;
                    if (fill == 'h')
                        u = to_half(x);
                    else {
                        uint32_t w;
                        memcpy(&w, &x, 4);
                        u = (uint16_t)(w >> 16);
                    }
                    memcpy(h + k, &u, 2);
                }
            else if (fill == 'f')
                for (size_t k = 0; k + 4 <= bytes; k += 4) {
                    float x = urand();
                    memcpy(h + k, &x, 4);
                }
            CK(cuMemcpyHtoD(bufs[i], h, bytes ? bytes : 1));
            free(h);
            *(CUdeviceptr*)v = bufs[i];
        } else {
            fprintf(stderr, "ptx_run: argument %d: i:, l:, i4:, l4:, f: or b: expected, got %s\n", i, s);
            return 2;
        }
        params[i] = v;
    }

    CUevent e0, e1;
    CK(cuEventCreate(&e0, 0));
    CK(cuEventCreate(&e1, 0));
    float* t = xalloc((size_t)iters * sizeof *t);
    for (int it = -1; it < iters; ++it) { /* one warm-up launch */
        CK(cuEventRecord(e0, 0));
        CK(cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], smem, 0, params, NULL));
        CK(cuEventRecord(e1, 0));
        CK(cuEventSynchronize(e1));
        if (it >= 0)
            CK(cuEventElapsedTime(&t[it], e0, e1));
    }
    qsort(t, (size_t)iters, sizeof *t, cmp_float);
    double ms = t[iters / 2];
    printf("%s: %d registers, %u bytes shared, grid %u,%u,%u block %u,%u,%u: median %.4f ms of %d", argv[2], regs,
           smem, g[0], g[1], g[2], b[0], b[1], b[2], ms, iters);
    if (flops > 0)
        printf(", %.1f TFLOP/s", flops / (ms * 1e-3) / 1e12);
    printf("\n");
    for (int i = 0; i < nargs; ++i) {
        if (bufs[i])
            cuMemFree(bufs[i]);
        free(params[i]);
    }
    free(params);
    free(bufs);
    free(t);
    cuEventDestroy(e0);
    cuEventDestroy(e1);
    free(ptx);
    free(raw);
    cuModuleUnload(mod);
    cuDevicePrimaryCtxRelease(dev);
    return 0;
}
