/*
** cache.c: kernel sources and the program cache (memory per context, then disk).
**
** Sources: the files of kernels/ are embedded at build time (cldnn_kernels.c). A source is
** expanded once per process: each `#include "path"` line is replaced by the file it names
** (relative to kernels/, each file at most once), so the driver never needs an include path and
** the text that is hashed is the text that is compiled.
**
** Memory: one program set per cl_context, shared by every handle on that context and released
** with the last of them. A program is keyed by (source path, build options). One mutex guards
** every set; a build happens under it, so two threads never build the same program twice.
**
** Disk: a built program's binary is stored in the cache folder under a name hashed from its key:
**   library version, platform, device name, vendor id, driver version, options, source hash.
** The file repeats the whole key and a checksum of the binary; an entry whose key or checksum
** does not match, that is truncated, or that the driver refuses is rebuilt from source and
** replaced, never an error. Writes go to a temporary file in the same folder and are renamed
** into place, so readers see a whole entry or none. Folder: CLDNN_CACHE_DIR, else
** $XDG_CACHE_HOME/cldnn, else $HOME/.cache/cldnn; CLDNN_DISABLE_CACHE=1 turns the disk off.
*/
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CACHE_MAGIC "CLDNNPRG"
#define CACHE_FORMAT 1u
#define CACHE_MAX_FILE (512u << 20)

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cldnn_cache_stats stats;

/* ------------------------------------------------------------------ sources */

typedef struct {
    const char* path;
    char* text;   /* expanded, NUL-terminated */
    size_t len;
    uint64_t hash[2];
} expanded_source;

#define MAX_SOURCES 64
static expanded_source expanded[MAX_SOURCES];
static int nexpanded;

static const cldnn_kernel_file* find_file(const char* path, size_t len) {
    for (size_t i = 0; i < cldnn_kernel_file_count; ++i)
        if (strlen(cldnn_kernel_files[i].path) == len && memcmp(cldnn_kernel_files[i].path, path, len) == 0)
            return &cldnn_kernel_files[i];
    return NULL;
}

typedef struct {
    char* buf;
    size_t len, cap;
    const cldnn_kernel_file* seen[MAX_SOURCES];
    int nseen;
} text_builder;

static int tb_put(text_builder* t, const char* s, size_t n) {
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + n + 1)
            cap *= 2;
        char* nb = (char*)realloc(t->buf, cap);
        if (nb == NULL)
            return 0;
        t->buf = nb;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
    return 1;
}

/* Appends file f with its includes expanded; 0 on allocation failure or a missing include. */
static int expand(text_builder* t, const cldnn_kernel_file* f, int depth) {
    for (int i = 0; i < t->nseen; ++i)
        if (t->seen[i] == f)
            return 1;
    if (depth > 8 || t->nseen >= MAX_SOURCES)
        return 0;
    t->seen[t->nseen++] = f;
    const char* p = f->text;
    const char* end = f->text + f->size;
    while (p < end) {
        const char* nl = memchr(p, '\n', (size_t)(end - p));
        const char* line_end = nl ? nl + 1 : end;
        const char* q = p;
        while (q < line_end && (*q == ' ' || *q == '\t'))
            ++q;
        if ((size_t)(line_end - q) > 10 && strncmp(q, "#include \"", 10) == 0) {
            const char* name = q + 10;
            const char* close = memchr(name, '"', (size_t)(line_end - name));
            const cldnn_kernel_file* inc = close ? find_file(name, (size_t)(close - name)) : NULL;
            if (inc == NULL) {
                CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR, "kernel %s includes a file that is not embedded: %.*s",
                           f->path, (int)(line_end - q), q);
                return 0;
            }
            if (!expand(t, inc, depth + 1))
                return 0;
        } else if (!tb_put(t, p, (size_t)(line_end - p))) {
            return 0;
        }
        p = line_end;
    }
    return 1;
}

/* The expanded source for path; called with cache_lock held. */
static cldnnStatus_t source_get(const char* path, const expanded_source** out) {
    for (int i = 0; i < nexpanded; ++i)
        if (strcmp(expanded[i].path, path) == 0) {
            *out = &expanded[i];
            return CLDNN_STATUS_SUCCESS;
        }
    const cldnn_kernel_file* f = find_file(path, strlen(path));
    if (f == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR, "no embedded kernel source %s", path);
    if (nexpanded >= MAX_SOURCES)
        return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR, "too many kernel sources");
    text_builder t;
    memset(&t, 0, sizeof t);
    if (!expand(&t, f, 0)) {
        free(t.buf);
        return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR, "could not expand kernel source %s", path);
    }
    expanded_source* e = &expanded[nexpanded++];
    e->path = f->path;
    e->text = t.buf;
    e->len = t.len;
    e->hash[0] = cldnn_fnv1a(CLDNN_FNV_OFFSET, t.buf, t.len);
    e->hash[1] = cldnn_fnv1a(0x84222325cbf29ce4ULL, t.buf, t.len);
    *out = e;
    return CLDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------ program sets */

typedef struct {
    char* key; /* "path\noptions" */
    cl_program program;
} program_entry;

struct cldnn_program_set {
    struct cldnn_program_set* next;
    cl_context context;
    cl_device_id device;
    int refs;
    program_entry* entries;
    int n, cap;
};

static struct cldnn_program_set* sets;

cldnnStatus_t cldnn_program_set_attach(cldnnHandle_t h) {
    pthread_mutex_lock(&cache_lock);
    struct cldnn_program_set* s = sets;
    while (s && !(s->context == h->context && s->device == h->device))
        s = s->next;
    if (s == NULL) {
        s = (struct cldnn_program_set*)calloc(1, sizeof *s);
        if (s == NULL) {
            pthread_mutex_unlock(&cache_lock);
            return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "program cache allocation");
        }
        s->context = h->context;
        s->device = h->device;
        clRetainContext(s->context);
        s->next = sets;
        sets = s;
    }
    s->refs++;
    h->programs = s;
    pthread_mutex_unlock(&cache_lock);
    return CLDNN_STATUS_SUCCESS;
}

void cldnn_program_set_detach(cldnnHandle_t h) {
    pthread_mutex_lock(&cache_lock);
    struct cldnn_program_set* s = h->programs;
    h->programs = NULL;
    if (s && --s->refs == 0) {
        struct cldnn_program_set** pp = &sets;
        while (*pp && *pp != s)
            pp = &(*pp)->next;
        if (*pp)
            *pp = s->next;
        for (int i = 0; i < s->n; ++i) {
            clReleaseProgram(s->entries[i].program);
            free(s->entries[i].key);
        }
        free(s->entries);
        clReleaseContext(s->context);
        free(s);
    }
    pthread_mutex_unlock(&cache_lock);
}

void cldnn_cache_stats_get(cldnn_cache_stats* out) {
    pthread_mutex_lock(&cache_lock);
    *out = stats;
    pthread_mutex_unlock(&cache_lock);
}

/* ------------------------------------------------------------------- disk */

static pthread_once_t dir_once = PTHREAD_ONCE_INIT;
static char dir_path[1024];

static void resolve_dir(void) {
    dir_path[0] = '\0';
    if (cldnn_env_int("CLDNN_DISABLE_CACHE", 0) != 0)
        return;
    cldnn_user_dir(dir_path, sizeof dir_path, "CLDNN_CACHE_DIR", "XDG_CACHE_HOME", ".cache");
}

const char* cldnn_cache_dir(void) {
    pthread_once(&dir_once, resolve_dir);
    return dir_path;
}

static void disk_key(cldnnHandle_t h, const expanded_source* src, const char* options, char* key, size_t size) {
    snprintf(key, size,
             "cldnn-program %u\nlibrary %d\nplatform %s\ndevice %s\nvendor %#x\ndriver %s\noptions %s\n"
             "source %s %016llx%016llx %zu\n",
             CACHE_FORMAT, CLDNN_VERSION, h->prof.platform_name, h->prof.name, (unsigned)h->prof.vendor_id,
             h->prof.driver, options, src->path, (unsigned long long)src->hash[0], (unsigned long long)src->hash[1],
             src->len);
}

static void disk_file(const char* key, char* path, size_t size) {
    uint64_t a = cldnn_fnv1a(CLDNN_FNV_OFFSET, key, strlen(key));
    uint64_t b = cldnn_fnv1a(0x84222325cbf29ce4ULL, key, strlen(key));
    snprintf(path, size, "%s/%016llx%016llx.clbin", cldnn_cache_dir(), (unsigned long long)a, (unsigned long long)b);
}

/* Reads the binary stored for key; NULL (and *len 0) when absent or not a valid entry. */
static unsigned char* disk_read(const char* key, size_t* len) {
    *len = 0;
    char path[1200];
    disk_file(key, path, sizeof path);
    FILE* f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    unsigned char* bin = NULL;
    char magic[8];
    uint32_t fmt = 0, klen = 0;
    uint64_t blen = 0, sum = 0;
    size_t want_klen = strlen(key);
    char* k = NULL;
    int ok = fread(magic, 1, 8, f) == 8 && memcmp(magic, CACHE_MAGIC, 8) == 0 && fread(&fmt, 4, 1, f) == 1 &&
             fmt == CACHE_FORMAT && fread(&klen, 4, 1, f) == 1 && klen == want_klen;
    if (ok) {
        k = (char*)malloc(klen);
        ok = k && fread(k, 1, klen, f) == klen && memcmp(k, key, klen) == 0;
    }
    ok = ok && fread(&blen, 8, 1, f) == 1 && blen > 0 && blen < CACHE_MAX_FILE;
    if (ok) {
        bin = (unsigned char*)malloc((size_t)blen);
        ok = bin && fread(bin, 1, (size_t)blen, f) == blen && fread(&sum, 8, 1, f) == 1 &&
             sum == cldnn_fnv1a(CLDNN_FNV_OFFSET, bin, (size_t)blen);
    }
    fclose(f);
    free(k);
    if (!ok) {
        free(bin);
        stats.disk_rejects++;
        cldnn_log(CLDNN_LOG_INFO, "program cache: %s is not a valid entry for this key; rebuilding", path);
        return NULL;
    }
    *len = (size_t)blen;
    return bin;
}

static void disk_write(const char* key, const unsigned char* bin, size_t len) {
    const char* dir = cldnn_cache_dir();
    if (!cldnn_make_dirs(dir)) {
        cldnn_log(CLDNN_LOG_INFO, "program cache: cannot create %s (%s); keeping programs in memory only", dir,
                  strerror(errno));
        return;
    }
    char path[1200];
    disk_file(key, path, sizeof path);
    uint32_t fmt = CACHE_FORMAT, klen = (uint32_t)strlen(key);
    uint64_t blen = len, sum = cldnn_fnv1a(CLDNN_FNV_OFFSET, bin, len);
    const void* parts[] = {CACHE_MAGIC, &fmt, &klen, key, &blen, bin, &sum};
    const size_t sizes[] = {8, 4, 4, klen, 8, len, 8};
    if (!cldnn_file_replace(path, parts, sizes, 7)) {
        cldnn_log(CLDNN_LOG_INFO, "program cache: writing %s failed (%s)", path, strerror(errno));
        return;
    }
    stats.disk_writes++;
}

/* ------------------------------------------------------------------ build */

static void append_build_log(cl_program p, cl_device_id dev) {
    size_t n = 0;
    if (clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) != CL_SUCCESS || n == 0)
        return;
    char* log = (char*)malloc(n + 1);
    if (log == NULL)
        return;
    if (clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL) == CL_SUCCESS) {
        log[n] = '\0';
        cldnn_error_append("\nbuild log:\n");
        cldnn_error_append(log);
    }
    free(log);
}

static cl_program build_from_binary(cldnnHandle_t h, const unsigned char* bin, size_t len, const char* options) {
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program p = clCreateProgramWithBinary(h->context, 1, &h->device, &len, &bin, &status, &err);
    if (p == NULL || err != CL_SUCCESS || status != CL_SUCCESS) {
        if (p)
            clReleaseProgram(p);
        return NULL;
    }
    if (clBuildProgram(p, 1, &h->device, options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

static cldnnStatus_t build_from_source(cldnnHandle_t h, const expanded_source* src, const char* options,
                                       cl_program* out) {
    cl_int err;
    const char* text = src->text;
    cl_program p = clCreateProgramWithSource(h->context, 1, &text, &src->len, &err);
    if (p == NULL)
        return CLDNN_CL_FAIL(err, "clCreateProgramWithSource");
    err = clBuildProgram(p, 1, &h->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        cldnnStatus_t s = CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED,
                                     "building %s with options \"%s\" failed (%s)", src->path, options,
                                     cldnn_cl_error_name(err));
        append_build_log(p, h->device);
        clReleaseProgram(p);
        return s;
    }
    *out = p;
    return CLDNN_STATUS_SUCCESS;
}

static double cache_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static cldnnStatus_t program_load(cldnnHandle_t h, const expanded_source* src, const char* options, cl_program* out) {
    const double t0 = cache_now_ms();
    int use_disk = cldnn_cache_dir()[0] != '\0';
    char key[2048];
    disk_key(h, src, options, key, sizeof key);
    if (use_disk) {
        size_t len = 0;
        unsigned char* bin = disk_read(key, &len);
        if (bin) {
            cl_program p = build_from_binary(h, bin, len, options);
            free(bin);
            if (p) {
                stats.disk_hits++;
                cldnn_log(CLDNN_LOG_DEBUG, "program cache: disk hit %s [%s] in %.1f ms", src->path, options,
                          cache_now_ms() - t0);
                *out = p;
                return CLDNN_STATUS_SUCCESS;
            }
            stats.disk_rejects++;
            cldnn_log(CLDNN_LOG_INFO, "program cache: driver refused the stored binary of %s; rebuilding", src->path);
        }
    }
    CLDNN_TRY(build_from_source(h, src, options, out));
    stats.builds++;
    cldnn_log(CLDNN_LOG_INFO, "program cache: built %s [%s] in %.1f ms", src->path, options, cache_now_ms() - t0);
    if (use_disk) {
        size_t len = 0;
        if (clGetProgramInfo(*out, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) == CL_SUCCESS && len > 0 &&
            len < CACHE_MAX_FILE) {
            unsigned char* bin = (unsigned char*)malloc(len);
            if (bin && clGetProgramInfo(*out, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS)
                disk_write(key, bin, len);
            free(bin);
        }
    }
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnn_program_get(cldnnHandle_t h, const char* source, const char* options, cl_program* out) {
    char opts[1024];
    snprintf(opts, sizeof opts, "-cl-std=CL1.2 %s", options ? options : "");
    size_t slen = strlen(source), olen = strlen(opts);
    pthread_mutex_lock(&cache_lock);
    struct cldnn_program_set* s = h->programs;
    for (int i = 0; i < s->n; ++i) {
        const char* k = s->entries[i].key;
        if (strncmp(k, source, slen) == 0 && k[slen] == '\n' && strcmp(k + slen + 1, opts) == 0) {
            *out = s->entries[i].program;
            stats.memory_hits++;
            pthread_mutex_unlock(&cache_lock);
            return CLDNN_STATUS_SUCCESS;
        }
    }
    const expanded_source* src = NULL;
    cl_program p = NULL;
    cldnnStatus_t st = source_get(source, &src);
    if (st == CLDNN_STATUS_SUCCESS)
        st = program_load(h, src, opts, &p);
    if (st == CLDNN_STATUS_SUCCESS) {
        if (s->n == s->cap) {
            int cap = s->cap ? s->cap * 2 : 16;
            program_entry* ne = (program_entry*)realloc(s->entries, (size_t)cap * sizeof *ne);
            if (ne == NULL) {
                clReleaseProgram(p);
                pthread_mutex_unlock(&cache_lock);
                return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "program cache growth");
            }
            s->entries = ne;
            s->cap = cap;
        }
        char* key = (char*)malloc(slen + olen + 2);
        if (key == NULL) {
            clReleaseProgram(p);
            pthread_mutex_unlock(&cache_lock);
            return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "program cache key");
        }
        memcpy(key, source, slen);
        key[slen] = '\n';
        memcpy(key + slen + 1, opts, olen + 1);
        s->entries[s->n].key = key;
        s->entries[s->n].program = p;
        s->n++;
        *out = p;
    }
    pthread_mutex_unlock(&cache_lock);
    return st;
}

cldnnStatus_t cldnn_kernel_get(cldnnHandle_t h, const char* source, const char* options, const char* name,
                               cl_kernel* out) {
    cl_program p;
    CLDNN_TRY(cldnn_program_get(h, source, options, &p));
    for (int i = 0; i < h->nkernels; ++i)
        if (h->kernels[i].program == p && strcmp(h->kernels[i].name, name) == 0) {
            *out = h->kernels[i].kernel;
            return CLDNN_STATUS_SUCCESS;
        }
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    if (k == NULL)
        return CLDNN_CL_FAIL(err, "clCreateKernel");
    int slot;
    if (h->nkernels < CLDNN_KERNEL_SLOTS) {
        slot = h->nkernels++;
    } else {
        slot = h->next_evict;
        h->next_evict = (h->next_evict + 1) % CLDNN_KERNEL_SLOTS;
        clReleaseKernel(h->kernels[slot].kernel);
    }
    h->kernels[slot].program = p;
    h->kernels[slot].name = name;
    h->kernels[slot].kernel = k;
    *out = k;
    return CLDNN_STATUS_SUCCESS;
}
