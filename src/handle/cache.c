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
** every set, but no build runs under it: a missing program gets an entry marked as building, the
** thread that made it builds (or loads) outside the lock, and a thread that wants the same
** program meanwhile waits on the condition variable. So threads build different programs at
** once and never the same program twice; a failed build removes its entry (the next call tries
** again).
**
** Parallel builds (Prepare, Find): a handle can collect the programs a solver run needs instead
** of building them one by one (cldnn_program_collect_begin: a missing program is recorded and
** answered with NULL, and so is its kernel). cldnn_program_collect_end then builds the list on a
** pool of host threads (the caller waits), each calling clBuildProgram on its own cl_program
** through the path above: CLDNN_BUILD_THREADS threads (default min(CPUs, 8), at most one per
** program; 1 builds serially on the caller).
** What it produces does not depend on the thread count: the same entries, the same disk files;
** a failure is reported as the first failing program of the list, with the worker's message.
**
** Disk: a built program's binary is stored in the cache folder under a name hashed from its key:
**   library version, platform, device name, vendor id, driver version, options, source hash.
** The file repeats the whole key and a checksum of the binary; an entry whose key or checksum
** does not match, that is truncated, or that the driver refuses is rebuilt from source and
** replaced, never an error. Writes go to a temporary file in the same folder and are renamed
** into place, so readers see a whole entry or none. Folder: CLDNN_CACHE_DIR, else
** $XDG_CACHE_HOME/cldnn, else $HOME/.cache/cldnn; CLDNN_DISABLE_CACHE=1 turns the disk off.
**
** PoCL keeps a cache of its own (POCL_KERNEL_CACHE, on unless set to 0) keyed by source, options
** and device, which makes a second build of a program as cheap as loading ours; and asking PoCL
** for a program's binary costs about as much again as the build (one GEMM program, cold: 5.1 s
** with the binary stored, 2.8 s without; PoCL's cache then rebuilds it in 0.15 s). So on PoCL
** with its cache on nothing is stored or read here unless CLDNN_DISABLE_CACHE=0 asks for the
** disk explicitly.
*/
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CACHE_MAGIC "CLDNNPRG"
#define CACHE_FORMAT 1u
#define CACHE_MAX_FILE (512u << 20)

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cache_built = PTHREAD_COND_INITIALIZER; /* an entry left the building state */
static cldnn_cache_stats stats; /* updated with atomics: builds run outside cache_lock */

static void stat_add(uint64_t* counter) { __atomic_fetch_add(counter, 1u, __ATOMIC_RELAXED); }

/* Test hook (cldnn_cache_test_options): options appended to the programs of one source. */
static char test_source[256], test_options[256];

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
    char* key;          /* "path\noptions" */
    cl_program program; /* NULL while building */
    int building;       /* a thread is building or loading it outside cache_lock */
} program_entry;

struct cldnn_program_set {
    struct cldnn_program_set* next;
    cl_context context;
    cl_device_id device;
    int refs;
    program_entry** entries; /* heap entries: a builder keeps its pointer across the unlock */
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
            clReleaseProgram(s->entries[i]->program);
            free(s->entries[i]->key);
            free(s->entries[i]);
        }
        free(s->entries);
        clReleaseContext(s->context);
        free(s);
    }
    pthread_mutex_unlock(&cache_lock);
}

void cldnn_cache_stats_get(cldnn_cache_stats* out) {
    out->memory_hits = __atomic_load_n(&stats.memory_hits, __ATOMIC_RELAXED);
    out->disk_hits = __atomic_load_n(&stats.disk_hits, __ATOMIC_RELAXED);
    out->builds = __atomic_load_n(&stats.builds, __ATOMIC_RELAXED);
    out->disk_writes = __atomic_load_n(&stats.disk_writes, __ATOMIC_RELAXED);
    out->disk_rejects = __atomic_load_n(&stats.disk_rejects, __ATOMIC_RELAXED);
    out->pool_programs = __atomic_load_n(&stats.pool_programs, __ATOMIC_RELAXED);
}

void cldnn_cache_test_options(const char* source, const char* options) {
    pthread_mutex_lock(&cache_lock);
    snprintf(test_source, sizeof test_source, "%s", source ? source : "");
    snprintf(test_options, sizeof test_options, "%s", options ? options : "");
    pthread_mutex_unlock(&cache_lock);
}

static int key_cmp(const void* a, const void* b) {
    return strcmp(*(const char* const*)a, *(const char* const*)b);
}

int cldnn_program_set_keys(cldnnHandle_t h, char* buf, size_t size) {
    pthread_mutex_lock(&cache_lock);
    const struct cldnn_program_set* s = h->programs;
    size_t at = 0;
    int n = 0;
    if (size)
        buf[0] = '\0';
    /* sorted: the set's order is the order builds started, which threads make vary */
    const char** keys = (const char**)malloc((size_t)(s->n ? s->n : 1) * sizeof *keys);
    for (int i = 0; keys && i < s->n; ++i)
        if (!s->entries[i]->building)
            keys[n++] = s->entries[i]->key;
    if (keys)
        qsort(keys, (size_t)n, sizeof *keys, key_cmp);
    for (int i = 0; i < n; ++i) {
        const char* nl = strchr(keys[i], '\n');
        at = cldnn_appendf(buf, size, at, "%.*s [%s]\n", (int)(nl - keys[i]), keys[i], nl + 1);
    }
    free(keys);
    pthread_mutex_unlock(&cache_lock);
    return n;
}

/* ------------------------------------------------------------------- disk */

static pthread_once_t dir_once = PTHREAD_ONCE_INIT;
static char dir_path[1024];
static int disk_forced; /* CLDNN_DISABLE_CACHE=0: the disk even where the driver caches builds */

static void resolve_dir(void) {
    dir_path[0] = '\0';
    const int off = cldnn_env_int("CLDNN_DISABLE_CACHE", -1);
    if (off > 0)
        return;
    disk_forced = off == 0;
    cldnn_user_dir(dir_path, sizeof dir_path, "CLDNN_CACHE_DIR", "XDG_CACHE_HOME", ".cache");
}

/* 1 when h's driver keeps its own cache of builds (PoCL's kernel cache, on unless
** POCL_KERNEL_CACHE=0), so that this disk cache would only add the cost of the binaries. */
static int driver_caches_builds(cldnnHandle_t h) {
    if (strstr(h->prof.platform_name, "Portable Computing Language") == NULL)
        return 0;
    const char* v = getenv("POCL_KERNEL_CACHE");
    return v == NULL || strcmp(v, "0") != 0;
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
        stat_add(&stats.disk_rejects);
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
    stat_add(&stats.disk_writes);
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
    int use_disk = cldnn_cache_dir()[0] != '\0' && (disk_forced || !driver_caches_builds(h));
    char key[2048];
    disk_key(h, src, options, key, sizeof key);
    if (use_disk) {
        size_t len = 0;
        unsigned char* bin = disk_read(key, &len);
        if (bin) {
            cl_program p = build_from_binary(h, bin, len, options);
            free(bin);
            if (p) {
                stat_add(&stats.disk_hits);
                cldnn_log(CLDNN_LOG_DEBUG, "program cache: disk hit %s [%s] in %.1f ms", src->path, options,
                          cache_now_ms() - t0);
                *out = p;
                return CLDNN_STATUS_SUCCESS;
            }
            stat_add(&stats.disk_rejects);
            cldnn_log(CLDNN_LOG_INFO, "program cache: driver refused the stored binary of %s; rebuilding", src->path);
        }
    }
    CLDNN_TRY(build_from_source(h, src, options, out));
    stat_add(&stats.builds);
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

/* ------------------------------------------------------------ lookups */

/* The entry of (source, opts) in s, or NULL; cache_lock held. */
static program_entry* entry_find(const struct cldnn_program_set* s, const char* source, const char* opts) {
    size_t slen = strlen(source);
    for (int i = 0; i < s->n; ++i) {
        const char* k = s->entries[i]->key;
        if (strncmp(k, source, slen) == 0 && k[slen] == '\n' && strcmp(k + slen + 1, opts) == 0)
            return s->entries[i];
    }
    return NULL;
}

/* A new entry of (source, opts) marked as building; NULL (recorded) when out of memory. cache_lock
** held. */
static program_entry* entry_add(struct cldnn_program_set* s, const char* source, const char* opts) {
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 16;
        program_entry** ne = (program_entry**)realloc(s->entries, (size_t)cap * sizeof *ne);
        if (ne == NULL) {
            CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "program cache growth");
            return NULL;
        }
        s->entries = ne;
        s->cap = cap;
    }
    size_t slen = strlen(source), olen = strlen(opts);
    program_entry* e = (program_entry*)calloc(1, sizeof *e);
    char* key = (char*)malloc(slen + olen + 2);
    if (e == NULL || key == NULL) {
        free(e);
        free(key);
        CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "program cache key");
        return NULL;
    }
    memcpy(key, source, slen);
    key[slen] = '\n';
    memcpy(key + slen + 1, opts, olen + 1);
    e->key = key;
    e->building = 1;
    s->entries[s->n++] = e;
    return e;
}

/* Drops e (a failed build) from s; cache_lock held. */
static void entry_remove(struct cldnn_program_set* s, program_entry* e) {
    for (int i = 0; i < s->n; ++i)
        if (s->entries[i] == e) {
            s->entries[i] = s->entries[--s->n];
            break;
        }
    free(e->key);
    free(e);
}

/* The options a program is built and keyed with: the language version, the device class
** (CLDNN_CPU_DEVICE: kernels/common/helpers.h says what it changes), the caller's options and the
** test hook's for its source. cache_lock held. */
static void full_options(const cldnn_device_profile* dev, const char* source, const char* options, char* opts,
                         size_t size) {
    int hooked = test_options[0] != '\0' && strcmp(source, test_source) == 0;
    snprintf(opts, size, "-cl-std=CL1.2 %s%s%s%s", dev->is_cpu ? "-DCLDNN_CPU_DEVICE=1 " : "", options ? options : "",
             hooked ? " " : "", hooked ? test_options : "");
}

/* The program of (source, opts), called with cache_lock held and returning with it released: from
** memory (waiting while another thread builds it), else built or loaded by this thread outside
** the lock, its entry marked as building meanwhile. */
static cldnnStatus_t program_get_locked(cldnnHandle_t h, const char* source, const char* opts, cl_program* out) {
    struct cldnn_program_set* s = h->programs;
    program_entry* e;
    while ((e = entry_find(s, source, opts)) != NULL && e->building)
        pthread_cond_wait(&cache_built, &cache_lock);
    if (e != NULL) {
        *out = e->program;
        stat_add(&stats.memory_hits);
        pthread_mutex_unlock(&cache_lock);
        return CLDNN_STATUS_SUCCESS;
    }
    const expanded_source* src = NULL;
    cldnnStatus_t st = source_get(source, &src);
    if (st == CLDNN_STATUS_SUCCESS && (e = entry_add(s, source, opts)) == NULL)
        st = CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    pthread_mutex_unlock(&cache_lock);
    if (st != CLDNN_STATUS_SUCCESS)
        return st;
    cl_program p = NULL;
    st = program_load(h, src, opts, &p);
    pthread_mutex_lock(&cache_lock);
    if (st == CLDNN_STATUS_SUCCESS) {
        e->program = p;
        e->building = 0;
        *out = p;
    } else {
        entry_remove(s, e);
    }
    pthread_cond_broadcast(&cache_built);
    pthread_mutex_unlock(&cache_lock);
    return st;
}

/* ------------------------------------------------------------ collecting and building in parallel */

typedef struct {
    char* source;
    char* opts;             /* full options */
    cldnnStatus_t status;
    char* message;          /* the worker's last-error text when status fails */
} build_job;

struct cldnn_program_list {
    build_job* jobs;
    int n, cap;
};

/* Records (source, opts) in list unless it is there already. */
static cldnnStatus_t list_add(struct cldnn_program_list* l, const char* source, const char* opts) {
    for (int i = 0; i < l->n; ++i)
        if (strcmp(l->jobs[i].source, source) == 0 && strcmp(l->jobs[i].opts, opts) == 0)
            return CLDNN_STATUS_SUCCESS;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 8;
        build_job* nj = (build_job*)realloc(l->jobs, (size_t)cap * sizeof *nj);
        if (nj == NULL)
            return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "program build list");
        l->jobs = nj;
        l->cap = cap;
    }
    build_job* j = &l->jobs[l->n];
    memset(j, 0, sizeof *j);
    j->source = strdup(source);
    j->opts = strdup(opts);
    if (j->source == NULL || j->opts == NULL) {
        free(j->source);
        free(j->opts);
        return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "program build list");
    }
    l->n++;
    return CLDNN_STATUS_SUCCESS;
}

static void list_free(struct cldnn_program_list* l) {
    if (l == NULL)
        return;
    for (int i = 0; i < l->n; ++i) {
        free(l->jobs[i].source);
        free(l->jobs[i].opts);
        free(l->jobs[i].message);
    }
    free(l->jobs);
    free(l);
}

int cldnn_build_threads(void) {
    int n = cldnn_env_int("CLDNN_BUILD_THREADS", 0);
    if (n >= 1)
        return n > 64 ? 64 : n;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > 8 ? 8 : (int)cpus;
}

cldnnStatus_t cldnn_program_collect_begin(cldnnHandle_t h) {
    list_free(h->collect);
    h->collect = (struct cldnn_program_list*)calloc(1, sizeof *h->collect);
    if (h->collect == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "program build list");
    return CLDNN_STATUS_SUCCESS;
}

typedef struct {
    cldnnHandle_t h;
    struct cldnn_program_list* list;
    int next;     /* the next job to take, atomically */
    int parallel; /* more than one thread works on the list */
} build_pool;

/* Takes jobs off the pool until none is left; each job's failure keeps its own message. */
static void* build_worker(void* arg) {
    build_pool* pool = (build_pool*)arg;
    for (;;) {
        int i = __atomic_fetch_add(&pool->next, 1, __ATOMIC_RELAXED);
        if (i >= pool->list->n)
            return NULL;
        build_job* j = &pool->list->jobs[i];
        cl_program p = NULL;
        pthread_mutex_lock(&cache_lock);
        j->status = program_get_locked(pool->h, j->source, j->opts, &p);
        if (j->status != CLDNN_STATUS_SUCCESS) {
            j->message = (char*)malloc(CLDNN_ERROR_TEXT_MAX);
            if (j->message)
                cldnnGetLastErrorString(j->message, CLDNN_ERROR_TEXT_MAX);
            cldnn_error_clear();
        } else if (pool->parallel) {
            stat_add(&stats.pool_programs);
        }
    }
}

void cldnn_program_collect_discard(cldnnHandle_t h) {
    list_free(h->collect);
    h->collect = NULL;
}

cldnnStatus_t cldnn_program_collect_end(cldnnHandle_t h) {
    struct cldnn_program_list* l = h->collect;
    h->collect = NULL;
    if (l == NULL || l->n == 0) {
        list_free(l);
        return CLDNN_STATUS_SUCCESS;
    }
    const double t0 = cache_now_ms();
    int threads = cldnn_build_threads();
    if (threads > l->n)
        threads = l->n;
    build_pool pool = {h, l, 0, threads > 1};
    pthread_t tid[64];
    int started = 0;
    for (int t = 0; t < threads && threads > 1; ++t) {
        if (pthread_create(&tid[started], NULL, build_worker, &pool) != 0)
            break; /* fewer threads: those started take the whole list */
        started++;
    }
    if (started == 0)
        build_worker(&pool); /* serial, or no thread could start: the caller builds */
    for (int t = 0; t < started; ++t)
        pthread_join(tid[t], NULL);
    cldnnStatus_t st = CLDNN_STATUS_SUCCESS;
    int failed = 0;
    for (int i = 0; i < l->n; ++i)
        if (l->jobs[i].status != CLDNN_STATUS_SUCCESS && failed++ == 0)
            st = cldnn_error_adopt(l->jobs[i].status, l->jobs[i].message ? l->jobs[i].message : "");
    cldnn_log(CLDNN_LOG_INFO, "program cache: %d programs built or loaded on %d threads in %.1f ms, %d failed", l->n,
              started ? started : 1, cache_now_ms() - t0, failed);
    list_free(l);
    return st;
}

cldnnStatus_t cldnn_program_get(cldnnHandle_t h, const char* source, const char* options, cl_program* out) {
    char opts[1024];
    pthread_mutex_lock(&cache_lock);
    full_options(&h->prof, source, options, opts, sizeof opts);
    if (h->collect) {
        const program_entry* e = entry_find(h->programs, source, opts);
        *out = e && !e->building ? e->program : NULL;
        if (*out)
            stat_add(&stats.memory_hits);
        pthread_mutex_unlock(&cache_lock);
        return *out ? CLDNN_STATUS_SUCCESS : list_add(h->collect, source, opts);
    }
    return program_get_locked(h, source, opts, out);
}

cldnnStatus_t cldnn_kernel_get(cldnnHandle_t h, const char* source, const char* options, const char* name,
                               cl_kernel* out) {
    cl_program p;
    CLDNN_TRY(cldnn_program_get(h, source, options, &p));
    if (p == NULL) { /* collecting: the program is built later, the kernel bound on the next run */
        *out = NULL;
        return CLDNN_STATUS_SUCCESS;
    }
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
    h->kernels[slot].gen = ++h->kernel_gen ? h->kernel_gen : ++h->kernel_gen; /* never 0 */
    *out = k;
    return CLDNN_STATUS_SUCCESS;
}

static cldnn_kernel_memo* memo_entry(cldnnHandle_t h, const void* id, size_t n) {
    return &h->kmemo[cldnn_fnv1a(CLDNN_FNV_OFFSET, id, n) % CLDNN_KMEMO_SLOTS];
}

int cldnn_kernel_memo_get(cldnnHandle_t h, const void* id, size_t n, cl_kernel* out) {
    const cldnn_kernel_memo* e = memo_entry(h, id, n);
    if (e->gen == 0 || e->n != n || h->kernels[e->slot].gen != e->gen || memcmp(e->id, id, n) != 0)
        return 0;
    *out = h->kernels[e->slot].kernel;
    return 1;
}

void cldnn_kernel_memo_put(cldnnHandle_t h, const void* id, size_t n, cl_kernel k) {
    if (k == NULL || n > CLDNN_KMEMO_ID)
        return;
    for (int i = 0; i < h->nkernels; ++i)
        if (h->kernels[i].kernel == k) {
            cldnn_kernel_memo* e = memo_entry(h, id, n);
            memcpy(e->id, id, n);
            e->n = n;
            e->slot = i;
            e->gen = h->kernels[i].gen;
            return;
        }
}
