/*
** test_finddb.c: the find-db and tuning db (src/handle/db.c), the find modes and the Prepare
** warm-ups.
**
** White-box: links the static library to call cldnn_db_get/put with made-up device keys and to
** read the counters (cldnn_db_stats_get, cldnn_cache_stats_get). Criterion forks one process
** per test, so each test sets its environment (CLDNN_DB_PATH, CLDNN_FIND_MODE, CLDNN_LOG_LEVEL)
** before its first library call and works in its own mkdtemp folder, removed at the end.
** Log lines are read back by pointing the process's stderr at a file.
**
** Cases: both databases round-trip through their files; six processes recording at once lose no
** record and damage no line; damaged, truncated and foreign files (another version, another
** device) are skipped or ignored; an unwritable folder keeps records in memory; the environment
** and cldnnSetDatabasePath choose the folder and CLDNN_FIND_MODE / cldnnSetFindMode the mode;
** the modes change what Get and Find do (a planted find-db record reorders Get and answers
** DB_OR_BENCHMARK's Find without timing; HEURISTIC times nothing; BENCHMARK records; TUNE fills
** the tuning db); Prepare builds a run's programs so that the run builds nothing; with 1 and 4
** build threads (CLDNN_BUILD_THREADS) a cold Prepare and Find build the same programs, disk files
** and results, and a build error on a worker thread comes back as the call's status and message;
** cldnnGemm takes a tuning-db record another process wrote, not in HEURISTIC, and ignores a
** corrupt or invalid one.
*/
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "internal.h"
#include "conv/conv.h"
#include "handle/engine.h"

/* ------------------------------------------------------------------ helpers */

/* A fresh folder /tmp/cldnn-finddb-XXXXXX into out. */
static void temp_dir(char* out, size_t size) {
    snprintf(out, size, "/tmp/cldnn-finddb-XXXXXX");
    cr_assert_not_null(mkdtemp(out), "mkdtemp failed");
}

/* rm -r dir (files and one level of folders are all the tests make). */
static void remove_dir(const char* dir) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", dir, dir);
    cr_assert_eq(system(cmd), 0, "could not remove %s", dir);
}

/* The one file of dir matching pattern (e.g. "find-v1-*.txt") into out; returns how many match. */
static int find_file(const char* dir, const char* pattern, char* out, size_t size) {
    char pat[600];
    snprintf(pat, sizeof pat, "%s/%s", dir, pattern);
    glob_t g;
    int n = 0;
    if (glob(pat, 0, NULL, &g) == 0) {
        n = (int)g.gl_pathc;
        if (out && n > 0)
            snprintf(out, size, "%s", g.gl_pathv[0]);
        globfree(&g);
    }
    return n;
}

/* The whole file into a malloc'd string ("" when absent). */
static char* slurp(const char* path) {
    FILE* f = fopen(path, "rb");
    char* buf = NULL;
    size_t n = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        buf = malloc((size_t)len + 1);
        cr_assert_not_null(buf);
        n = fread(buf, 1, (size_t)len, f);
        fclose(f);
    } else {
        buf = malloc(1);
        cr_assert_not_null(buf);
    }
    buf[n] = '\0';
    return buf;
}

static void append_text(const char* path, const char* text) {
    FILE* f = fopen(path, "ab");
    cr_assert_not_null(f, "cannot append to %s", path);
    fputs(text, f);
    fclose(f);
}

/* Replaces path's content by text. */
static void write_text(const char* path, const char* text) {
    FILE* f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* Records key -> value for devA in dir, forgets memory, and requires the files to give it back. */
static void put_and_reread(const char* dir, const char* key, const char* value) {
    char v[256];
    cldnn_db_put(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, key, value);
    cldnn_db_reset();
    cr_assert(cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, key, v, sizeof v), "%s not read back", key);
    cr_assert_str_eq(v, value);
}

/* Sends this process's stderr to dir/log.txt (the library's log lines) and sets the level. */
static void capture_log(const char* dir, char* path, size_t size) {
    snprintf(path, size, "%s/log.txt", dir);
    setenv("CLDNN_LOG_LEVEL", "3", 1);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    cr_assert(dup2(fd, 2) >= 0);
    close(fd);
}

/* 1 when the captured log holds `what`. */
static int log_has(const char* path, const char* what) {
    char* s = slurp(path);
    int r = strstr(s, what) != NULL;
    free(s);
    return r;
}

static cldnn_db_stats stats_now(void) {
    cldnn_db_stats s;
    cldnn_db_stats_get(&s);
    return s;
}

/* ------------------------------------------------------------------ the files */

Test(finddb, both_databases_round_trip_and_the_last_record_wins) {
    char dir[256];
    temp_dir(dir, sizeof dir);
    cldnn_db_put(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:n1-c2", "s1,0,1.5,0,1");
    cldnn_db_put(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:n1-c2", "s2,1,0.5,64,1;s1,0,1.5,0,1");
    cldnn_db_put(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-bwd-data:n1-c2", "s3,2,2,0,0");
    cldnn_db_put(dir, "plat|devA|0x1|cu4", CLDNN_DB_TUNE, "conv-fwd:n1-c2|conv_fwd_igemm", "64x64x16-16x16-4x4-1x4-0x0-s1");
    cr_assert_eq(find_file(dir, "find-v1-devA-*.txt", NULL, 0), 1, "one find-db file in %s", dir);
    cr_assert_eq(find_file(dir, "tune-v1-devA-*.txt", NULL, 0), 1, "one tuning-db file in %s", dir);
    cldnn_db_reset(); /* forget memory: everything below comes from the files */
    char v[256];
    cr_assert(cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:n1-c2", v, sizeof v));
    cr_assert_str_eq(v, "s2,1,0.5,64,1;s1,0,1.5,0,1", "the last record of a key must win");
    cr_assert(cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-bwd-data:n1-c2", v, sizeof v));
    cr_assert_str_eq(v, "s3,2,2,0,0");
    cr_assert(cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_TUNE, "conv-fwd:n1-c2|conv_fwd_igemm", v, sizeof v));
    cr_assert_str_eq(v, "64x64x16-16x16-4x4-1x4-0x0-s1");
    cr_assert(!cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_TUNE, "conv-fwd:n1-c2", v, sizeof v),
              "the databases must not share keys");
    cldnn_db_stats s = stats_now();
    cr_assert_eq(s.lines_skipped, 0);
    cr_assert_eq(s.lines_read, 4, "4 record lines in the files, read %llu", (unsigned long long)s.lines_read);
    /* keys and values with spaces are refused, not written */
    cldnn_db_put(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "a key", "v");
    cldnn_db_reset();
    cr_assert(!cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "a", v, sizeof v));
    remove_dir(dir);
}

#define WRITERS 6
#define PER_WRITER 60

Test(finddb, concurrent_writer_processes_lose_nothing) {
    char dir[256];
    temp_dir(dir, sizeof dir);
    pid_t kids[WRITERS];
    for (int w = 0; w < WRITERS; ++w) {
        kids[w] = fork();
        cr_assert(kids[w] >= 0, "fork failed");
        if (kids[w] == 0) {
            for (int i = 0; i < PER_WRITER; ++i) {
                char k[64], v[64];
                snprintf(k, sizeof k, "conv-fwd:w%d-i%d", w, i);
                snprintf(v, sizeof v, "solver_%d,%d,%d.25,0,1", w, i % 8, i);
                cldnn_db_put(dir, "plat|devA|0x1|cu4", i % 3 == 0 ? CLDNN_DB_TUNE : CLDNN_DB_FIND, k, v);
                /* one key every writer records: some record of it must survive whole */
                cldnn_db_put(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:shared", v);
            }
            _exit(0);
        }
    }
    for (int w = 0; w < WRITERS; ++w) {
        int st = 0;
        cr_assert_eq(waitpid(kids[w], &st, 0), kids[w]);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer %d failed", w);
    }
    cldnn_db_reset();
    for (int w = 0; w < WRITERS; ++w)
        for (int i = 0; i < PER_WRITER; ++i) {
            char k[64], want[64], v[128];
            snprintf(k, sizeof k, "conv-fwd:w%d-i%d", w, i);
            snprintf(want, sizeof want, "solver_%d,%d,%d.25,0,1", w, i % 8, i);
            cr_assert(cldnn_db_get(dir, "plat|devA|0x1|cu4", i % 3 == 0 ? CLDNN_DB_TUNE : CLDNN_DB_FIND, k, v, sizeof v),
                      "record %s of writer %d is missing", k, w);
            cr_assert_str_eq(v, want);
        }
    char v[128];
    cr_assert(cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:shared", v, sizeof v));
    cr_assert_eq(strncmp(v, "solver_", 7), 0, "the shared key holds \"%s\"", v);
    cldnn_db_stats s = stats_now();
    cr_assert_eq(s.lines_skipped, 0, "%llu damaged lines after concurrent writes", (unsigned long long)s.lines_skipped);
    cr_assert_eq(s.files_ignored, 0);
    /* every line of both files parses: one header, then records with three fields */
    const char* pats[2] = {"find-v1-*.txt", "tune-v1-*.txt"};
    for (int f = 0; f < 2; ++f) {
        char path[600];
        cr_assert_eq(find_file(dir, pats[f], path, sizeof path), 1);
        char* text = slurp(path);
        int lines = 0;
        for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save), ++lines) {
            if (lines == 0) {
                cr_assert_eq(strncmp(l, "cldnn-", 6), 0, "header \"%s\"", l);
                continue;
            }
            char a[128], b[128], c[16], tail;
            cr_assert_eq(sscanf(l, "%127s %127s %15s%c", a, b, c, &tail), 3, "line %d of %s: \"%s\"", lines, path, l);
        }
        free(text);
        cr_assert_gt(lines, 1);
    }
    remove_dir(dir);
}

/* Makes dir's find-db file for devA with one good record and returns its path. */
static void one_good_record(const char* dir, char* path, size_t size) {
    cldnn_db_put(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:good", "s,0,1,0,1");
    cr_assert_eq(find_file(dir, "find-v1-devA-*.txt", path, size), 1);
}

Test(finddb, damaged_and_truncated_lines_are_skipped) {
    char dir[256], path[600], log[600], v[128];
    temp_dir(dir, sizeof dir);
    capture_log(dir, log, sizeof log);
    one_good_record(dir, path, sizeof path);
    append_text(path, "conv-fwd:nosum s,0,1,0,1\n");                   /* no checksum */
    append_text(path, "conv-fwd:badsum s,0,1,0,1 0badf00d\n");         /* wrong checksum */
    append_text(path, "\x01\x02 garbage \xff\n");                       /* not text */
    cldnn_db_put(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:after", "s,1,2,0,1");
    append_text(path, "conv-fwd:cut s,0,1");                            /* truncated: no newline */
    cldnn_db_reset();
    capture_log(dir, log, sizeof log);
    cr_assert(cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:good", v, sizeof v));
    cr_assert(cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:after", v, sizeof v),
              "a good record after damaged lines must be read");
    cr_assert(!cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:nosum", v, sizeof v));
    cr_assert(!cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:badsum", v, sizeof v));
    cr_assert(!cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:cut", v, sizeof v));
    cldnn_db_stats s = stats_now();
    cr_assert_eq(s.lines_skipped, 4, "3 damaged lines and a truncated one; skipped %llu",
                 (unsigned long long)s.lines_skipped);
    cr_assert(log_has(log, "skipping a damaged line"), "no log line for the damaged lines");
    cr_assert(log_has(log, "incomplete line"), "no log line for the truncated line");
    /* the next record ends the truncated line first and is read whole */
    put_and_reread(dir, "conv-fwd:next", "s,2,3,0,1");
    cr_assert(cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:good", v, sizeof v));
    remove_dir(dir);
}

Test(finddb, another_format_version_is_ignored_then_replaced) {
    char dir[256], path[600], log[600], v[128];
    temp_dir(dir, sizeof dir);
    capture_log(dir, log, sizeof log);
    one_good_record(dir, path, sizeof path);
    char* text = slurp(path);
    char* p = strstr(text, "-db 1 ");
    cr_assert_not_null(p, "header of %s: %.80s", path, text);
    p[4] = '2'; /* cldnn-find-db 2 <device>: a future format */
    write_text(path, text);
    free(text);
    cldnn_db_reset();
    cr_assert(!cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:good", v, sizeof v),
              "a record under another version's header must be ignored");
    cr_assert_eq(stats_now().files_ignored, 1);
    cr_assert(log_has(log, "another format version or device"));
    /* a record made now replaces the foreign file rather than appending under its header */
    put_and_reread(dir, "conv-fwd:new", "s,0,1,0,1");
    remove_dir(dir);
}

Test(finddb, another_devices_records_are_ignored) {
    char dir[256], pa[600], pb[600], v[128];
    temp_dir(dir, sizeof dir);
    one_good_record(dir, pa, sizeof pa);
    /* another device (same name, other compute units) in the same folder sees nothing */
    cr_assert(!cldnn_db_get(dir, "plat|devA|0x1|cu8", CLDNN_DB_FIND, "conv-fwd:good", v, sizeof v));
    /* devA's file copied under devB's name: its header names devA, so devB ignores it */
    cldnn_db_put(dir, "plat|devB|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:b", "s,0,1,0,1");
    cr_assert_eq(find_file(dir, "find-v1-devB-*.txt", pb, sizeof pb), 1);
    char* text = slurp(pa);
    write_text(pb, text);
    free(text);
    cldnn_db_reset();
    cr_assert(!cldnn_db_get(dir, "plat|devB|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:good", v, sizeof v),
              "devB read a record of devA's file");
    cr_assert_eq(stats_now().files_ignored, 1);
    cr_assert(cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:good", v, sizeof v));
    remove_dir(dir);
}

/* Records into dir, expecting no file and the record kept in memory. */
static void expect_memory_only(const char* dir, const char* log) {
    char v[128];
    cldnn_db_put(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:ro", "s,0,1,0,1");
    cldnn_db_put(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:ro2", "s,0,1,0,1");
    cr_assert(cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:ro", v, sizeof v),
              "an unwritable folder must keep the record in memory");
    cr_assert(cldnn_db_get(dir, "plat|devA|0x1|cu4", CLDNN_DB_FIND, "conv-fwd:ro2", v, sizeof v));
    cr_assert_eq(find_file(dir, "find-v1-*", NULL, 0), 0, "a file appeared in the unwritable %s", dir);
    cr_assert_geq(stats_now().write_failures, 1);
    char* text = slurp(log);
    const char* first = strstr(text, "keeping this device's records in memory");
    cr_assert_not_null(first, "no log line for the unwritable folder");
    cr_assert_null(strstr(first + 1, "keeping this device's records in memory"), "more than one log line");
    free(text);
}

Test(finddb, unwritable_folder_degrades_to_memory) {
    char dir[256], log[600], sub[600];
    temp_dir(dir, sizeof dir);
    capture_log(dir, log, sizeof log);
    /* a folder under a regular file can never be created, root or not */
    char file[400];
    snprintf(file, sizeof file, "%s/plain-file", dir);
    append_text(file, "x");
    snprintf(sub, sizeof sub, "%s/plain-file/db", dir);
    expect_memory_only(sub, log);
    /* a read-only folder (0500), unless this process is exempt from permissions (root); the skip is
    ** logged as info: Criterion exits 1 after any cr_log_warn, which failed ctest */
    char ro[400], probe[500];
    snprintf(ro, sizeof ro, "%s/ro", dir);
    cr_assert_eq(mkdir(ro, 0500), 0);
    snprintf(probe, sizeof probe, "%s/probe", ro);
    int fd = open(probe, O_WRONLY | O_CREAT, 0644);
    if (fd >= 0) {
        close(fd);
        unlink(probe);
        cr_log_info("read-only sub-case skipped: this process (uid %d) writes into a 0500 folder", (int)geteuid());
    } else {
        cldnn_db_reset();
        capture_log(dir, log, sizeof log);
        expect_memory_only(ro, log);
    }
    remove_dir(dir);
}

/* ------------------------------------------------------------------ the API, on a small conv */

/* A 3x3 pad-1 convolution of 1x8x6x6 with 8 filters on handle h, all buffers filled. */
typedef struct {
    cldnnHandle_t h;
    cldnnTensorDescriptor_t xd, yd;
    cldnnFilterDescriptor_t wd;
    cldnnConvolutionDescriptor_t cd;
    cl_mem x, w, y, ws;
    size_t ws_size;
} small_conv;

#define SC_X (1 * 8 * 6 * 6)
#define SC_W (8 * 8 * 3 * 3)

static void sc_init(small_conv* c, cldnnHandle_t h) {
    memset(c, 0, sizeof *c);
    c->h = h;
    FX_OK(cldnnCreateTensorDescriptor(&c->xd));
    FX_OK(cldnnCreateTensorDescriptor(&c->yd));
    FX_OK(cldnnCreateFilterDescriptor(&c->wd));
    FX_OK(cldnnCreateConvolutionDescriptor(&c->cd));
    FX_OK(cldnnSetTensor4dDescriptor(c->xd, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 8, 6, 6));
    FX_OK(cldnnSetTensor4dDescriptor(c->yd, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 8, 6, 6));
    FX_OK(cldnnSetFilter4dDescriptor(c->wd, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 8, 8, 3, 3));
    FX_OK(cldnnSetConvolution2dDescriptor(c->cd, 1, 1, 1, 1, 1, 1, CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    cl_command_queue q;
    FX_OK(cldnnGetQueue(h, &q));
    cl_context ctx;
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    float hx[SC_X], hw[SC_W];
    for (int i = 0; i < SC_X; ++i)
        hx[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
    for (int i = 0; i < SC_W; ++i)
        hw[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
    cl_int err;
    c->x = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof hx, hx, &err);
    c->w = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof hw, hw, &err);
    c->y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, SC_X * 4, NULL, &err);
    c->ws_size = 1 << 20;
    c->ws = clCreateBuffer(ctx, CL_MEM_READ_WRITE, c->ws_size, NULL, &err);
    cr_assert(c->x && c->w && c->y && c->ws);
}

static void sc_free(small_conv* c) {
    clReleaseMemObject(c->x);
    clReleaseMemObject(c->w);
    clReleaseMemObject(c->y);
    clReleaseMemObject(c->ws);
    cldnnDestroyTensorDescriptor(c->xd);
    cldnnDestroyTensorDescriptor(c->yd);
    cldnnDestroyFilterDescriptor(c->wd);
    cldnnDestroyConvolutionDescriptor(c->cd);
}

static int sc_find(small_conv* c, cldnnConvolutionFwdAlgoPerf_t* pe) {
    int n = -1;
    FX_OK(cldnnFindConvolutionForwardAlgorithmEx(c->h, c->xd, c->x, 0, c->wd, c->w, 0, c->cd, c->yd, c->y, 0, 8, &n,
                                                  pe, c->ws, 0, c->ws_size));
    return n;
}

static int sc_get(small_conv* c, cldnnConvolutionFwdAlgoPerf_t* pe) {
    int n = -1;
    FX_OK(cldnnGetConvolutionForwardAlgorithm_v7(c->h, c->xd, c->wd, c->cd, c->yd, 8, &n, pe));
    return n;
}

/* Poisons y with NaN; after sc_y_ok, y holds finite values (something ran and wrote it). */
static void sc_poison_y(small_conv* c) {
    float nan[SC_X];
    for (int i = 0; i < SC_X; ++i)
        nan[i] = NAN;
    cl_command_queue q;
    cldnnGetQueue(c->h, &q);
    clEnqueueWriteBuffer(q, c->y, CL_TRUE, 0, sizeof nan, nan, 0, NULL, NULL);
}

static int sc_y_written(small_conv* c) {
    float got[SC_X];
    cl_command_queue q;
    cldnnGetQueue(c->h, &q);
    clEnqueueReadBuffer(q, c->y, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    for (int i = 0; i < SC_X; ++i)
        if (!isfinite(got[i]))
            return 0;
    return 1;
}

/* The problem's key and, per applicable algorithm in heuristic order, its first applicable solver. */
static int sc_solvers(small_conv* c, char* key, size_t ksize, int* algos, const char** names) {
    cldnn_conv_problem p;
    FX_OK(cldnn_conv_problem_init(c->h, CLDNN_CONV_FWD, c->xd, c->wd, c->cd, c->yd, &p));
    snprintf(key, ksize, "%s", p.key);
    const cldnn_family fam = {.solvers = cldnn_conv_fwd_solvers, .count = cldnn_conv_fwd_solver_count,
                              .tune_algo = -1};
    const cldnn_solver* order[32];
    const int ns = cldnn_engine_order(&fam, &p, p.dev, order, 32);
    int n = 0, seen[16] = {0};
    for (int i = 0; i < ns; ++i) {
        const cldnn_solver* s = order[i];
        if (seen[s->algo])
            continue;
        seen[s->algo] = 1;
        algos[n] = s->algo;
        cldnn_solver_rank(s, &p, p.dev, &names[n++]);
    }
    return n;
}

Test(finddb, env_and_api_choose_the_folder_and_the_mode) {
    char root[256], a[400], b[400], xdg[400];
    temp_dir(root, sizeof root);
    snprintf(a, sizeof a, "%s/from-env", root);
    snprintf(b, sizeof b, "%s/from-api", root);
    snprintf(xdg, sizeof xdg, "%s/xdg", root);
    setenv("CLDNN_DB_PATH", a, 1);
    setenv("CLDNN_FIND_MODE", "benchmark", 1);
    cldnnHandle_t h;
    FX_OK(cldnnCreateDefault(&h));
    cldnnFindMode_t m;
    FX_OK(cldnnGetFindMode(h, &m));
    cr_assert_eq(m, CLDNN_FIND_MODE_BENCHMARK, "CLDNN_FIND_MODE=benchmark gave mode %d", (int)m);
    small_conv c;
    sc_init(&c, h);
    cldnnConvolutionFwdAlgoPerf_t pe[8];
    sc_find(&c, pe);
    cr_assert_eq(find_file(a, "find-v1-*.txt", NULL, 0), 1, "Find recorded nothing under CLDNN_DB_PATH=%s", a);
    FX_OK(cldnnSetDatabasePath(h, b));
    sc_find(&c, pe);
    cr_assert_eq(find_file(b, "find-v1-*.txt", NULL, 0), 1, "Find recorded nothing under cldnnSetDatabasePath(%s)", b);
    /* "" keeps records in memory: nothing new on disk */
    FX_OK(cldnnSetDatabasePath(h, ""));
    cldnn_db_stats before = stats_now();
    sc_find(&c, pe);
    cr_assert_eq(stats_now().records, before.records + 1);
    sc_free(&c);
    cldnnDestroy(h);
    /* without CLDNN_DB_PATH: $XDG_CONFIG_HOME/cldnn; a number names a mode too */
    unsetenv("CLDNN_DB_PATH");
    setenv("XDG_CONFIG_HOME", xdg, 1);
    setenv("CLDNN_FIND_MODE", "2", 1);
    FX_OK(cldnnCreateDefault(&h));
    FX_OK(cldnnGetFindMode(h, &m));
    cr_assert_eq(m, CLDNN_FIND_MODE_DB_OR_BENCHMARK);
    sc_init(&c, h);
    sc_find(&c, pe);
    char sub[450];
    snprintf(sub, sizeof sub, "%s/cldnn", xdg);
    cr_assert_eq(find_file(sub, "find-v1-*.txt", NULL, 0), 1, "nothing recorded under %s", sub);
    sc_free(&c);
    cldnnDestroy(h);
    /* an unknown CLDNN_FIND_MODE keeps the default */
    setenv("CLDNN_FIND_MODE", "fastest-please", 1);
    FX_OK(cldnnCreateDefault(&h));
    FX_OK(cldnnGetFindMode(h, &m));
    cr_assert_eq(m, CLDNN_FIND_MODE_DB_OR_HEURISTIC);
    /* bad input */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnSetFindMode(NULL, CLDNN_FIND_MODE_TUNE));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetFindMode(h, (cldnnFindMode_t)5));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetFindMode(h, (cldnnFindMode_t)-1));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetFindMode(h, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetFindMode(NULL, &m));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnSetDatabasePath(h, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnSetDatabasePath(NULL, a));
    char longpath[2000];
    memset(longpath, 'a', sizeof longpath - 1);
    longpath[sizeof longpath - 1] = '\0';
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetDatabasePath(h, longpath));
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_TUNE));
    FX_OK(cldnnGetFindMode(h, &m));
    cr_assert_eq(m, CLDNN_FIND_MODE_TUNE);
    cldnnDestroy(h);
    remove_dir(root);
}

/* A test's start: a fresh folder as CLDNN_DB_PATH, the log captured there, CLDNN_FIND_MODE = mode
** (NULL: unset). */
static void start_logged(char* dir, size_t dsize, char* log, size_t lsize, const char* mode) {
    temp_dir(dir, dsize);
    capture_log(dir, log, lsize);
    setenv("CLDNN_DB_PATH", dir, 1);
    if (mode)
        setenv("CLDNN_FIND_MODE", mode, 1);
    else
        unsetenv("CLDNN_FIND_MODE");
}

Test(finddb, find_modes_change_what_runs) {
    char dir[256], log[600], key[256];
    start_logged(dir, sizeof dir, log, sizeof log, NULL);
    cldnnHandle_t h = fx_handle();
    small_conv c;
    sc_init(&c, h);
    int algos[16];
    const char* names[16];
    int na = sc_solvers(&c, key, sizeof key, algos, names);
    cr_assert_geq(na, 2, "the test needs two applicable algorithms, %s has %d", key, na);
    cldnnConvolutionFwdAlgoPerf_t pe[8], ge[8];

    /* HEURISTIC: Find times nothing, records nothing, answers in heuristic order, runs the first */
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_HEURISTIC));
    sc_poison_y(&c);
    sc_find(&c, pe);
    cr_assert_eq((int)pe[0].algo, algos[0], "HEURISTIC Find's first %d, heuristic's %d", (int)pe[0].algo, algos[0]);
    cr_assert(pe[0].status == CLDNN_STATUS_SUCCESS && pe[0].time < 0.0f, "HEURISTIC Find timed %d: %g",
              (int)pe[0].algo, (double)pe[0].time);
    cr_assert(sc_y_written(&c), "HEURISTIC Find must leave the heuristic algorithm's output");
    cr_assert_eq(stats_now().records, 0);
    cr_assert_eq(find_file(dir, "find-v1-*.txt", NULL, 0), 0);
    cr_assert(log_has(log, "find mode HEURISTIC"));

    /* a planted record ranking the heuristic's last algorithm first reorders Get (default mode) */
    char v[512];
    size_t at = 0;
    for (int i = na - 1; i >= 0; --i)
        at = cldnn_appendf(v, sizeof v, at, "%s%s,%d,%d.5,0,1", at ? ";" : "", names[i], algos[i], na - i);
    cldnn_db_put(dir, h->prof.key, CLDNN_DB_FIND, key, v);
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_DB_OR_HEURISTIC));
    sc_get(&c, ge);
    cr_assert_eq((int)ge[0].algo, algos[na - 1], "Get ignored the find-db: first %d, planted %d", (int)ge[0].algo,
                 algos[na - 1]);
    cr_assert(ge[0].time < 0.0f, "Get times nothing");
    cr_assert(log_has(log, "answered from the find-db"));
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_HEURISTIC));
    sc_get(&c, ge);
    cr_assert_eq((int)ge[0].algo, algos[0], "HEURISTIC Get read the find-db");

    /* DB_OR_BENCHMARK: the planted record covers every algorithm, so Find answers from it */
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_DB_OR_BENCHMARK));
    sc_poison_y(&c);
    int n = sc_find(&c, pe);
    cr_assert_geq(n, na);
    for (int i = 0; i < na; ++i)
        cr_assert((int)pe[i].algo == algos[na - 1 - i] && fabsf(pe[i].time - (float)(i + 1) - 0.5f) < 1e-6f,
                  "entry %d: algo %d time %g, planted algo %d time %d.5", i, (int)pe[i].algo, (double)pe[i].time,
                  algos[na - 1 - i], i + 1);
    cr_assert(sc_y_written(&c), "a find-db answer must still leave the best algorithm's output");
    cr_assert(log_has(log, "without benchmarking"));
    /* a record missing an applicable algorithm (or naming a solver that is not its first) is no answer */
    snprintf(v, sizeof v, "%s,%d,0.5,0,1;no_such_solver,%d,0.25,0,1", names[0], algos[0], algos[1]);
    cldnn_db_put(dir, h->prof.key, CLDNN_DB_FIND, key, v);
    n = sc_find(&c, pe);
    cr_assert(log_has(log, "no complete record"));
    cr_assert(log_has(log, "stale or damaged entries"));
    int timed = 0;
    for (int i = 0; i < n; ++i)
        timed += pe[i].status == CLDNN_STATUS_SUCCESS && pe[i].time > 0.0f && pe[i].time != 0.5f;
    cr_assert_geq(timed, na - 1, "DB_OR_BENCHMARK on an incomplete record must benchmark (timed %d)", timed);

    /* BENCHMARK: always times, and records what it measured */
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_BENCHMARK));
    uint64_t rec = stats_now().records;
    n = sc_find(&c, pe);
    cr_assert_eq(stats_now().records, rec + 1, "BENCHMARK Find recorded nothing");
    cldnn_db_reset();
    cr_assert(cldnn_db_get(dir, h->prof.key, CLDNN_DB_FIND, key, v, sizeof v));
    char want[128];
    snprintf(want, sizeof want, ",%d,", (int)pe[0].algo);
    cr_assert_not_null(strstr(v, want), "record \"%s\" lacks the fastest algorithm %d", v, (int)pe[0].algo);
    /* the recorded order is Get's order now */
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_DB_OR_HEURISTIC));
    sc_get(&c, ge);
    for (int i = 0; i < n && pe[i].status == CLDNN_STATUS_SUCCESS; ++i)
        cr_assert_eq(ge[i].algo, pe[i].algo, "Get entry %d is %d, Find's %d", i, (int)ge[i].algo, (int)pe[i].algo);
    sc_free(&c);
    remove_dir(dir);
}

Test(finddb, tune_mode_fills_the_tuning_db_and_runs_use_it) {
    char dir[256], log[600], key[256];
    start_logged(dir, sizeof dir, log, sizeof log, "TUNE");
    setenv("CLDNN_TUNE_BUDGET", "1", 1); /* seconds: one or two candidates on PoCL */
    cldnnHandle_t h = fx_handle();
    small_conv c;
    sc_init(&c, h);
    int algos[16];
    const char* names[16];
    sc_solvers(&c, key, sizeof key, algos, names);
    cldnnConvolutionFwdAlgoPerf_t pe[8];
    sc_find(&c, pe);
    cr_assert(log_has(log, "find mode TUNE"), "no TUNE log line");
    char v[128], tkey[400];
    snprintf(tkey, sizeof tkey, "%s|conv_fwd_igemm", key);
    cr_assert(cldnn_db_get(dir, h->prof.key, CLDNN_DB_TUNE, tkey, v, sizeof v), "no tuning-db record for %s", tkey);
    cldnn_gemm_params q;
    cr_assert(cldnn_gemm_params_parse(v, &q), "tuning-db record \"%s\" does not parse", v);
    cr_assert_eq(find_file(dir, "tune-v1-*.txt", NULL, 0), 1);
    /* a run of the implicit GEMM now takes its parameters from the tuning db */
    float one = 1.0f, zero = 0.0f;
    sc_poison_y(&c);
    FX_OK(cldnnConvolutionForward(h, &one, c.xd, c.x, 0, c.wd, c.w, 0, c.cd, CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM,
                                  c.ws, 0, c.ws_size, &zero, c.yd, c.y, 0));
    cr_assert(sc_y_written(&c));
    cr_assert(log_has(log, "(tuning db)"), "the run did not use the tuning db's parameters");
    sc_free(&c);
    remove_dir(dir);
}

/* Counts the engine's progress steps by outcome (cldnn_tune_report's hook). */
static void count_step(const cldnn_tune_step* st, void* arg) {
    ((size_t*)arg)[st->outcome]++;
}

/* cldnn-tune's path: one solver found by name, searched on 16-bit data of type dt (compared as
** such; vals: the bits of -0.5, 0.25, 0.5 and 1), the report's counts adding up, the record kept
** in memory only under the database path "". */
static void tune_16bit(cldnnDataType_t dt, const uint16_t vals[4]) {
    char dir[256], key[256], v[128];
    temp_dir(dir, sizeof dir);
    setenv("CLDNN_DB_PATH", dir, 1);
    cldnnHandle_t h = fx_handle();
    FX_OK(cldnnSetDatabasePath(h, ""));
    cldnn_gemm_problem pr = {.m = 33, .n = 17, .k = 40, .lda = 33, .ldb = 40, .ldc = 33, .batch = 1, .alpha = 1.0f,
                             .dtype = dt, .dtype_c = dt};
    uint16_t a[33 * 40], b[40 * 17];
    for (size_t i = 0; i < 33 * 40; ++i)
        a[i] = vals[i % 4];
    for (size_t i = 0; i < 40 * 17; ++i)
        b[i] = vals[(i * 3) % 4];
    cl_int err;
    cldnn_gemm_buffers bufs = {
        clCreateBuffer(fx_context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err),
        clCreateBuffer(fx_context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err),
        clCreateBuffer(fx_context(), CL_MEM_READ_WRITE, 33 * 17 * 2, NULL, &err)};
    cr_assert(bufs.a && bufs.b && bufs.c);
    const cldnn_family* fam = cldnn_gemm_family();
    const cldnn_solver* s = cldnn_engine_solver(fam, CLDNN_GEMM_SOLVER_NAME);
    cr_assert_not_null(s);
    cr_assert_null(cldnn_engine_solver(fam, "no_such_solver"));
    cldnn_gemm_problem_key(&pr, key, sizeof key);
    size_t steps[4] = {0};
    cldnn_tune_report r = {.progress = count_step, .progress_arg = steps, .poison = 1};
    FX_OK(cldnn_engine_tune(h, fam, s, &pr, key, &bufs, 0, 1.0, &r));
    cr_assert_not_null(r.solver, "a 16-bit problem was not searched");
    cr_assert_geq(r.tried, 1);
    cr_assert_eq(steps[CLDNN_TUNE_TIMED] + steps[CLDNN_TUNE_REJECTED] + steps[CLDNN_TUNE_FAILED], r.tried);
    cr_assert_eq(steps[CLDNN_TUNE_REJECTED], r.rejected);
    cr_assert_eq(steps[CLDNN_TUNE_FAILED], r.failed);
    cr_assert_eq(r.rejected, 0, "a candidate differs from the reference beyond one rounding of C");
    cr_assert(r.t_best > 0 && r.t_best <= r.t_default);
    cr_assert(cldnn_tunedb_get(h, key, CLDNN_GEMM_SOLVER_NAME, v, sizeof v), "no in-memory record for %s", key);
    cr_assert_str_eq(v, r.best_text);
    cr_assert_eq(find_file(dir, "tune-v1-*.txt", NULL, 0), 0, "the memory-only handle wrote a tuning-db file");
    clReleaseMemObject(bufs.a);
    clReleaseMemObject(bufs.b);
    clReleaseMemObject(bufs.c);
    remove_dir(dir);
}

Test(finddb, tune_searches_half_outputs_and_memory_only_records_stay_in_memory) {
    static const uint16_t vals[4] = {0xb800u, 0x3400u, 0x3800u, 0x3c00u};
    tune_16bit(CLDNN_DATA_HALF, vals);
}

Test(finddb, tune_searches_bfloat16_outputs) {
    static const uint16_t vals[4] = {0xbf00u, 0x3e80u, 0x3f00u, 0x3f80u};
    tune_16bit(CLDNN_DATA_BFLOAT16, vals);
}

Test(finddb, prepare_builds_the_programs_a_run_uses) {
    char dir[256];
    temp_dir(dir, sizeof dir);
    setenv("CLDNN_DB_PATH", dir, 1);
    cldnnHandle_t h;
    FX_OK(cldnnCreateDefault(&h)); /* its own context: an empty in-memory program set */
    small_conv c;
    sc_init(&c, h);
    const cldnnConvolutionFwdAlgo_t algo = CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    cldnn_cache_stats a, b, d;
    cldnn_cache_stats_get(&a);
    FX_OK(cldnnConvolutionForwardPrepare(h, c.xd, c.wd, c.cd, algo, c.yd));
    cldnn_cache_stats_get(&b);
    cr_assert_gt(b.builds + b.disk_hits, a.builds + a.disk_hits, "Prepare loaded no program");
    float one = 1.0f, zero = 0.0f;
    sc_poison_y(&c);
    FX_OK(cldnnConvolutionForward(h, &one, c.xd, c.x, 0, c.wd, c.w, 0, c.cd, algo, c.ws, 0, c.ws_size, &zero, c.yd,
                                  c.y, 0));
    cr_assert(sc_y_written(&c));
    cldnn_cache_stats_get(&d);
    cr_assert_eq(d.builds + d.disk_hits, b.builds + b.disk_hits, "the run after Prepare loaded %llu more programs",
                 (unsigned long long)(d.builds + d.disk_hits - b.builds - b.disk_hits));
    /* Prepare enqueues nothing: y keeps its poison */
    sc_poison_y(&c);
    FX_OK(cldnnConvolutionForwardPrepare(h, c.xd, c.wd, c.cd, algo, c.yd));
    cr_assert(!sc_y_written(&c), "Prepare wrote y");
    /* the other directions, and bad input as the run calls report it */
    FX_OK(cldnnConvolutionBackwardDataPrepare(h, c.wd, c.yd, c.cd, CLDNN_CONVOLUTION_BWD_DATA_ALGO_1, c.xd));
    FX_OK(cldnnConvolutionBackwardFilterPrepare(h, c.xd, c.yd, c.cd, CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1, c.wd));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnConvolutionForwardPrepare(NULL, c.xd, c.wd, c.cd, algo, c.yd));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnConvolutionForwardPrepare(h, c.xd, NULL, c.cd, algo, c.yd));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnConvolutionForwardPrepare(h, c.xd, c.wd, c.cd, (cldnnConvolutionFwdAlgo_t)99, c.yd));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED,
                     cldnnConvolutionForwardPrepare(h, c.xd, c.wd, c.cd, CLDNN_CONVOLUTION_FWD_ALGO_FFT, c.yd));
    sc_free(&c);
    cldnnDestroy(h);
    remove_dir(dir);
}

/* ------------------------------------------------------------------ parallel program builds */

/* One child process's account of a cold Prepare (Winograd: its transforms and its GEMM) and a
** cold Find (every applicable algorithm's programs) with CLDNN_BUILD_THREADS=threads, its own
** empty program cache and find-db under root: the programs built in each phase, how many the
** pool made ready, the context's program keys, and y from the prepared algorithm's run. */
typedef struct {
    unsigned long long prepare_built, find_built, pool;
    char keys[16384];
    float y[SC_X];
} build_report;

/* Forks a child that fills rep (through a file under root); the child exits 0 when every call
** succeeded. The parent has made no OpenCL call before forking. */
static void cold_prepare_in_child(const char* root, int threads, build_report* rep) {
    char cache[400], db[400], out[400];
    snprintf(cache, sizeof cache, "%s/cache-%d", root, threads);
    snprintf(db, sizeof db, "%s/db-%d", root, threads);
    snprintf(out, sizeof out, "%s/report-%d", root, threads);
    pid_t kid = fork();
    cr_assert(kid >= 0, "fork failed");
    if (kid == 0) {
        char t[16];
        snprintf(t, sizeof t, "%d", threads);
        setenv("CLDNN_BUILD_THREADS", t, 1);
        setenv("CLDNN_CACHE_DIR", cache, 1);
        setenv("CLDNN_DISABLE_CACHE", "0", 1); /* disk entries to compare, PoCL included */
        setenv("CLDNN_DB_PATH", db, 1);
        setenv("CLDNN_FIND_MODE", "BENCHMARK", 1);
        build_report r;
        memset(&r, 0, sizeof r);
        cldnnHandle_t h;
        if (cldnnCreateDefault(&h) != CLDNN_STATUS_SUCCESS)
            _exit(2);
        small_conv c;
        sc_init(&c, h);
        const cldnnConvolutionFwdAlgo_t algo = CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED;
        cldnn_cache_stats a, b, d;
        cldnn_cache_stats_get(&a);
        if (cldnnConvolutionForwardPrepare(h, c.xd, c.wd, c.cd, algo, c.yd) != CLDNN_STATUS_SUCCESS)
            _exit(3);
        cldnn_cache_stats_get(&b);
        cldnnConvolutionFwdAlgoPerf_t pe[8];
        int n = 0;
        if (cldnnFindConvolutionForwardAlgorithmEx(h, c.xd, c.x, 0, c.wd, c.w, 0, c.cd, c.yd, c.y, 0, 8, &n, pe, c.ws,
                                                   0, c.ws_size) != CLDNN_STATUS_SUCCESS)
            _exit(4);
        cldnn_cache_stats_get(&d);
        float one = 1.0f, zero = 0.0f;
        sc_poison_y(&c);
        if (cldnnConvolutionForward(h, &one, c.xd, c.x, 0, c.wd, c.w, 0, c.cd, algo, c.ws, 0, c.ws_size, &zero, c.yd,
                                    c.y, 0) != CLDNN_STATUS_SUCCESS)
            _exit(5);
        cl_command_queue q;
        cldnnGetQueue(h, &q);
        if (clEnqueueReadBuffer(q, c.y, CL_TRUE, 0, sizeof r.y, r.y, 0, NULL, NULL) != CL_SUCCESS)
            _exit(6);
        r.prepare_built = b.builds - a.builds;
        r.find_built = d.builds - b.builds;
        r.pool = d.pool_programs - a.pool_programs;
        cldnn_program_set_keys(h, r.keys, sizeof r.keys);
        FILE* f = fopen(out, "wb");
        if (f == NULL || fwrite(&r, sizeof r, 1, f) != 1 || fclose(f) != 0)
            _exit(7);
        _exit(0);
    }
    int st = 0;
    cr_assert_eq(waitpid(kid, &st, 0), kid);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child with %d build threads failed (status %d)", threads,
              WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    FILE* f = fopen(out, "rb");
    cr_assert_not_null(f);
    cr_assert_eq(fread(rep, sizeof *rep, 1, f), 1);
    fclose(f);
}

/* The sorted names of dir's files into buf (one a line). */
static void list_names(const char* dir, char* buf, size_t size) {
    struct dirent** names = NULL;
    int n = scandir(dir, &names, NULL, alphasort);
    cr_assert_geq(n, 0, "cannot list %s", dir);
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; ++i) {
        if (names[i]->d_name[0] != '.')
            at += (size_t)snprintf(buf + at, at < size ? size - at : 0, "%s\n", names[i]->d_name);
        free(names[i]);
    }
    free(names);
    cr_assert_lt(at, size);
}

Test(finddb, parallel_builds_make_what_serial_builds_make, .timeout = 600) {
    char root[256];
    temp_dir(root, sizeof root);
    static build_report serial, parallel;
    cold_prepare_in_child(root, 1, &serial);
    cold_prepare_in_child(root, 4, &parallel);
    cr_assert_geq(serial.prepare_built, 2, "the Winograd Prepare built %llu programs", serial.prepare_built);
    cr_assert_eq(parallel.prepare_built, serial.prepare_built);
    cr_assert_gt(serial.find_built, 0, "Find built no program of its other algorithms");
    cr_assert_eq(parallel.find_built, serial.find_built);
    cr_assert_eq(serial.pool, 0, "one build thread, yet %llu programs came from a pool", serial.pool);
    cr_assert_eq(parallel.pool, parallel.prepare_built + parallel.find_built,
                 "4 build threads made %llu of the %llu programs ready", parallel.pool,
                 parallel.prepare_built + parallel.find_built);
    cr_assert_str_eq(parallel.keys, serial.keys, "the contexts hold different programs:\n%s\nagainst\n%s",
                     parallel.keys, serial.keys);
    static char a[16384], b[16384];
    char d1[400], d4[400];
    snprintf(d1, sizeof d1, "%s/cache-1", root);
    snprintf(d4, sizeof d4, "%s/cache-4", root);
    list_names(d1, a, sizeof a);
    list_names(d4, b, sizeof b);
    cr_assert_str_eq(a, b, "the disk caches differ:\n%s\nagainst\n%s", a, b);
    int files = 0;
    for (const char* p = a; *p; ++p)
        files += *p == '\n';
    cr_assert_eq((unsigned long long)files, serial.prepare_built + serial.find_built, "%d cache files for %llu builds",
                 files, serial.prepare_built + serial.find_built);
    cr_assert_eq(memcmp(parallel.y, serial.y, sizeof serial.y), 0, "y differs between 1 and 4 build threads");
    for (int i = 0; i < SC_X; ++i)
        cr_assert(isfinite(serial.y[i]), "y[%d] = %g: the run did not write it", i, (double)serial.y[i]);
    remove_dir(root);
}

/* Prepare with the programs of gemm/gemm.cl given a bad build option: the status and message of
** that build, made on a worker thread, come back from the call, the same with 1 and 4 threads;
** the programs of the same list that build are kept, and Prepare succeeds once the option is gone. */
Test(finddb, a_build_error_on_a_worker_thread_comes_back_with_its_message) {
    char dir[256];
    temp_dir(dir, sizeof dir);
    /* the Winograd products on gemm_tiled's program (CPU devices would take gemm_cpu's) */
    setenv("CLDNN_SOLVER", "gemm_tiled", 1);
    setenv("CLDNN_DB_PATH", dir, 1);
    const cldnnConvolutionFwdAlgo_t algo = CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED;
    char first[2][CLDNN_ERROR_TEXT_MAX];
    const char* threads[2] = {"1", "4"};
    for (int t = 0; t < 2; ++t) {
        setenv("CLDNN_BUILD_THREADS", threads[t], 1);
        cldnnHandle_t h;
        FX_OK(cldnnCreateDefault(&h)); /* its own context: nothing in memory */
        small_conv c;
        sc_init(&c, h);
        cldnn_cache_test_options("gemm/gemm.cl", "-cl-cldnn-no-such-option");
        cldnn_cache_stats a, b;
        cldnn_cache_stats_get(&a);
        cldnnStatus_t st = cldnnConvolutionForwardPrepare(h, c.xd, c.wd, c.cd, algo, c.yd);
        cldnn_cache_stats_get(&b);
        char why[CLDNN_ERROR_TEXT_MAX];
        cldnnGetLastErrorString(why, sizeof why);
        cr_assert_eq(st, CLDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED, "%s threads: Prepare gave %s: %s", threads[t],
                     cldnnGetErrorString(st), why);
        cr_assert_not_null(strstr(why, "building gemm/gemm.cl"), "the message names no program: %s", why);
        cr_assert_not_null(strstr(why, "-cl-cldnn-no-such-option"), "the message lacks the options: %s", why);
        cr_assert_eq(strncmp(why, "CLDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED: ", 48), 0, "message: %s", why);
        snprintf(first[t], sizeof first[t], "%.*s", (int)strcspn(why, "\n"), why);
        /* the winograd.cl program of the same list is ready (from the pool with 4 threads, where
        ** every build, the failing one included, ran on a worker: the message crossed threads) */
        char keys[8192];
        cldnn_program_set_keys(h, keys, sizeof keys);
        cr_assert_not_null(strstr(keys, "conv/winograd.cl ["), "winograd.cl was not kept:\n%s", keys);
        cr_assert_null(strstr(keys, "gemm/gemm.cl ["), "a failed program stayed in memory:\n%s", keys);
        cr_assert_eq(b.pool_programs - a.pool_programs, t == 0 ? 0u : 1u, "%s threads: %llu pool programs",
                     threads[t], (unsigned long long)(b.pool_programs - a.pool_programs));
        cldnn_cache_test_options(NULL, NULL);
        FX_OK(cldnnConvolutionForwardPrepare(h, c.xd, c.wd, c.cd, algo, c.yd));
        float one = 1.0f, zero = 0.0f;
        sc_poison_y(&c);
        FX_OK(cldnnConvolutionForward(h, &one, c.xd, c.x, 0, c.wd, c.w, 0, c.cd, algo, c.ws, 0, c.ws_size, &zero,
                                      c.yd, c.y, 0));
        cr_assert(sc_y_written(&c));
        sc_free(&c);
        cldnnDestroy(h);
    }
    cr_assert_str_eq(first[1], first[0], "4 threads reported \"%s\", 1 thread \"%s\"", first[1], first[0]);
    remove_dir(dir);
}

/* ------------------------------------------------------------------ GEMM and the tuning db */

#define TG_M 40
#define TG_N 24
#define TG_K 33

/* One cldnnGemm problem (column-major NN, packed) with seeded inputs and its double reference. */
typedef struct {
    cl_mem a, b, c;
    float ha[TG_M * TG_K], hb[TG_K * TG_N];
    double want[TG_M * TG_N], mag[TG_M * TG_N];
    double rel; /* tolerance relative to sum |a b|: 1e-5, more for TF32 (inputs rounded to 2^-11) */
} tg_problem;

static void tg_init(tg_problem* t, cldnnHandle_t h) {
    for (int i = 0; i < TG_M * TG_K; ++i)
        t->ha[i] = fx_uniform(-1.0, 1.0);
    for (int i = 0; i < TG_K * TG_N; ++i)
        t->hb[i] = fx_uniform(-1.0, 1.0);
    for (int j = 0; j < TG_N; ++j)
        for (int i = 0; i < TG_M; ++i) {
            double acc = 0.0, mag = 0.0;
            for (int p = 0; p < TG_K; ++p) {
                acc += (double)t->ha[i + p * TG_M] * (double)t->hb[p + j * TG_K];
                mag += fabs((double)t->ha[i + p * TG_M] * (double)t->hb[p + j * TG_K]);
            }
            t->want[i + j * TG_M] = acc;
            t->mag[i + j * TG_M] = mag;
        }
    t->rel = 1e-5;
    cl_int err;
    t->a = clCreateBuffer(h->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof t->ha, t->ha, &err);
    t->b = clCreateBuffer(h->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof t->hb, t->hb, &err);
    t->c = clCreateBuffer(h->context, CL_MEM_READ_WRITE, TG_M * TG_N * 4, NULL, &err);
    cr_assert(t->a && t->b && t->c);
}

/* Runs the problem on C poisoned with NaN and requires C to match the reference. */
static void tg_run(tg_problem* t, cldnnHandle_t h, const char* ctx) {
    static float nan_c[TG_M * TG_N], got[TG_M * TG_N];
    for (int i = 0; i < TG_M * TG_N; ++i)
        nan_c[i] = NAN;
    cr_assert_eq(clEnqueueWriteBuffer(h->queue, t->c, CL_TRUE, 0, sizeof nan_c, nan_c, 0, NULL, NULL), CL_SUCCESS);
    const float one = 1.0f, zero = 0.0f;
    FX_OK(cldnnGemm(h, CLDNN_COL_MAJOR, CLDNN_OP_N, CLDNN_OP_N, TG_M, TG_N, TG_K, &one, t->a, 0, TG_M, t->b, 0, TG_K,
                    &zero, t->c, 0, TG_M, CLDNN_DATA_FLOAT));
    cr_assert_eq(clEnqueueReadBuffer(h->queue, t->c, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < TG_M * TG_N; ++i)
        FX_ASSERT(fabs((double)got[i] - t->want[i]) <= t->rel * t->mag[i] + 1e-6, "%s: C[%d] = %.9g, want %.9g", ctx, i,
                  (double)got[i], t->want[i]);
}

/* Records key -> value in dir's tuning db for device dev from a child process (as cldnn-tune gemm
** --db does in its own), then makes this process forget what it read so that the file answers. */
static void tg_record_elsewhere(const char* dir, const char* dev, const char* key, const char* value) {
    fflush(stderr);
    pid_t kid = fork();
    cr_assert(kid >= 0, "fork failed");
    if (kid == 0) {
        cldnn_db_put(dir, dev, CLDNN_DB_TUNE, key, value); /* files only: no OpenCL in the child */
        _exit(0);
    }
    int st = 0;
    cr_assert_eq(waitpid(kid, &st, 0), kid);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    cldnn_db_reset();
}

/* 1 when the log holds `what` past byte `from`. */
static int log_has_after(const char* path, long from, const char* what) {
    char* s = slurp(path);
    int r = (long)strlen(s) >= from && strstr(s + from, what) != NULL;
    free(s);
    return r;
}

static long log_size(const char* path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

Test(finddb, gemm_takes_its_parameters_from_the_tuning_db) {
    char dir[256], log[600];
    unsetenv("CLDNN_SOLVER_PARAMS"); /* the experiments' override would answer instead of the db */
    setenv("CLDNN_SOLVER", "gemm_tiled", 1); /* its table and records (CPU devices prefer gemm_cpu) */
    start_logged(dir, sizeof dir, log, sizeof log, NULL);
    cldnnHandle_t h = fx_handle();
    static tg_problem t;
    tg_init(&t, h);
    cldnn_gemm_problem pr;
    memset(&pr, 0, sizeof pr);
    pr.m = TG_M, pr.n = TG_N, pr.k = TG_K, pr.lda = TG_M, pr.ldb = TG_K, pr.ldc = TG_M, pr.batch = 1;
    char key[256], tkey[400], def_s[96], tuned_s[96], want[600];
    cldnn_gemm_problem_key(&pr, key, sizeof key);
    snprintf(tkey, sizeof tkey, "%s|%s", key, CLDNN_GEMM_SOLVER_NAME);
    cldnn_gemm_params def;
    cldnn_gemm_params_select(&pr, &h->prof, &def);
    cldnn_gemm_params_format(&def, def_s, sizeof def_s);
    /* a tuned record that differs from the table's choice in its tile */
    static cldnn_gemm_params space[4096];
    size_t ns = cldnn_gemm_param_space(&h->prof, space, 4096), pick = ns;
    for (size_t i = 0; i < ns && i < 4096 && pick == ns; ++i)
        if (space[i].mwg <= 64 && space[i].nwg <= 64 && (space[i].mwg != def.mwg || space[i].nwg != def.nwg ||
                                                          space[i].kwg != def.kwg))
            pick = i;
    cr_assert_lt(pick, ns, "no candidate differs from the table's %s", def_s);
    cldnn_gemm_params_format(&space[pick], tuned_s, sizeof tuned_s);

    /* no record: the table's parameters */
    long at = log_size(log);
    tg_run(&t, h, "no record");
    snprintf(want, sizeof want, "%s: solver gemm_tiled, parameters %s (table)", key, def_s);
    cr_assert(log_has_after(log, at, want), "no \"%s\" in the log", want);

    /* the record another process wrote gives the parameters */
    tg_record_elsewhere(dir, h->prof.key, tkey, tuned_s);
    at = log_size(log);
    tg_run(&t, h, "tuned record");
    snprintf(want, sizeof want, "%s: solver gemm_tiled, parameters %s (tuning db)", key, tuned_s);
    cr_assert(log_has_after(log, at, want), "no \"%s\" in the log", want);

    /* HEURISTIC reads no database */
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_HEURISTIC));
    at = log_size(log);
    tg_run(&t, h, "HEURISTIC");
    snprintf(want, sizeof want, "%s: solver gemm_tiled, parameters %s (table)", key, def_s);
    cr_assert(log_has_after(log, at, want), "HEURISTIC: no \"%s\" in the log", want);
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_DB_OR_HEURISTIC));

    /* a record that does not parse, then one that is not valid on the device: ignored */
    const char* bad[2] = {"64x64x16-16x16-banana", "64x64x16-48x8-4x4-4x4-0x0-s0"}; /* 48 does not divide 64 */
    for (int i = 0; i < 2; ++i) {
        tg_record_elsewhere(dir, h->prof.key, tkey, bad[i]);
        at = log_size(log);
        tg_run(&t, h, bad[i]);
        snprintf(want, sizeof want, "the record \"%s\" for %s is not valid here: ignored", bad[i], key);
        cr_assert(log_has_after(log, at, want), "no \"%s\" in the log", want);
        snprintf(want, sizeof want, "%s: solver gemm_tiled, parameters %s (table)", key, def_s);
        cr_assert(log_has_after(log, at, want), "%s: no \"%s\" in the log", bad[i], want);
    }
    clReleaseMemObject(t.a);
    clReleaseMemObject(t.b);
    clReleaseMemObject(t.c);
    remove_dir(dir);
}

/* The tensor-core solver reads the tuning db the same way (where the device has tensor cores:
** FLOAT under TENSOR_OP_MATH runs gemm_mma_tf32; its records go under the problem's -tf32ok key):
** defaults without a record, the record another process wrote, defaults again for a record that
** does not fit the device. Elsewhere it has nothing to run. */
Test(finddb, gemm_mma_takes_its_parameters_from_the_tuning_db) {
    char dir[256], log[600];
    unsetenv("CLDNN_SOLVER_PARAMS");
    start_logged(dir, sizeof dir, log, sizeof log, NULL);
    cldnnHandle_t h = fx_handle();
    if (!cldnn_mma_available(&h->prof)) {
        cr_log_info("%s has no tensor cores: nothing to test here", h->prof.name);
        remove_dir(dir);
        return;
    }
    FX_OK(cldnnSetGemmMathType(h, CLDNN_TENSOR_OP_MATH));
    static tg_problem t;
    tg_init(&t, h);
    t.rel = 2.0 / 2048.0 + 1e-5;
    cldnn_gemm_problem pr;
    memset(&pr, 0, sizeof pr);
    pr.m = TG_M, pr.n = TG_N, pr.k = TG_K, pr.lda = TG_M, pr.ldb = TG_K, pr.ldc = TG_M, pr.batch = 1;
    pr.math = CLDNN_TENSOR_OP_MATH;
    char key[256], tkey[400], def_s[96], want[600];
    cldnn_gemm_problem_key(&pr, key, sizeof key);
    snprintf(tkey, sizeof tkey, "%s|%s", key, CLDNN_GEMM_MMA_TF32_NAME);
    cldnn_gemm_mma_params def;
    cldnn_gemm_mma_params_select(&pr, &h->prof, &def);
    cldnn_gemm_mma_params_format(&def, def_s, sizeof def_s);
    const char* tuned_s = "64x64x16-32x32-s2-v4-k1"; /* differs from the defaults (bk 16, 2 stages) */
    cr_assert(strcmp(def_s, tuned_s) != 0);

    long at = log_size(log);
    tg_run(&t, h, "no record");
    snprintf(want, sizeof want, "%s: solver %s, parameters %s (defaults)", key, CLDNN_GEMM_MMA_TF32_NAME, def_s);
    cr_assert(log_has_after(log, at, want), "no \"%s\" in the log", want);

    tg_record_elsewhere(dir, h->prof.key, tkey, tuned_s);
    at = log_size(log);
    tg_run(&t, h, "tuned record");
    snprintf(want, sizeof want, "%s: solver %s, parameters %s (tuning db)", key, CLDNN_GEMM_MMA_TF32_NAME, tuned_s);
    cr_assert(log_has_after(log, at, want), "no \"%s\" in the log", want);

    const char* bad = "64x64x16-32x32-s2-v8-k1"; /* 8 floats per copy: not a FLOAT set */
    tg_record_elsewhere(dir, h->prof.key, tkey, bad);
    at = log_size(log);
    tg_run(&t, h, bad);
    snprintf(want, sizeof want, "the record \"%s\" for %s is not valid here: ignored", bad, key);
    cr_assert(log_has_after(log, at, want), "no \"%s\" in the log", want);
    snprintf(want, sizeof want, "%s: solver %s, parameters %s (defaults)", key, CLDNN_GEMM_MMA_TF32_NAME, def_s);
    cr_assert(log_has_after(log, at, want), "%s: no \"%s\" in the log", bad, want);
    FX_OK(cldnnSetGemmMathType(h, CLDNN_DEFAULT_MATH));
    clReleaseMemObject(t.a);
    clReleaseMemObject(t.b);
    clReleaseMemObject(t.c);
    remove_dir(dir);
}

/* ------------------------------------------------------------------ system tables */

/* Creates root/user and root/sys, points CLDNN_DB_PATH and CLDNN_SYSTEM_DB_PATH at them, sends the
** log to root/log.txt (its path into log, 600 bytes) unless log is NULL, and returns a handle of
** its own (created after the environment is set). */
static cldnnHandle_t system_setup(char* root, size_t rsize, char* user, char* sys, size_t size, char* log) {
    temp_dir(root, rsize);
    if (log)
        capture_log(root, log, 600); /* before the first library call: the level is read once */
    snprintf(user, size, "%s/user", root);
    snprintf(sys, size, "%s/sys", root);
    cr_assert_eq(mkdir(user, 0755), 0);
    cr_assert_eq(mkdir(sys, 0755), 0);
    setenv("CLDNN_DB_PATH", user, 1);
    setenv("CLDNN_SYSTEM_DB_PATH", sys, 1);
    unsetenv("CLDNN_FIND_MODE");
    cldnnHandle_t h;
    FX_OK(cldnnCreateDefault(&h));
    return h;
}

/* Writes a system table record as `perf/run-device.sh sysdb` ships it: through the user-db writer into
** sys, lock files removed afterwards (the shipped folder holds only the .txt files). */
static void system_put(const char* sys, const char* dev, cldnn_db_kind kind, const char* key, const char* value) {
    cldnn_db_put(sys, dev, kind, key, value);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -f '%s'/*.lock", sys);
    cr_assert_eq(system(cmd), 0);
}

/* "name size mtime" of every entry of dir, sorted, into a malloc'd string: a folder's fingerprint. */
static char* dir_fingerprint(const char* dir) {
    char cmd[1600], path[700];
    snprintf(path, sizeof path, "%s/../fingerprint.txt", dir);
    snprintf(cmd, sizeof cmd, "cd '%s' && stat -c '%%n %%s %%Y' * 2>/dev/null | sort > '%s'", dir, path);
    cr_assert_eq(system(cmd), 0);
    return slurp(path);
}

/* dev with its compute-unit field set to cu and, when name is given, its name field (the second)
** replaced. */
static void key_with(const char* dev, long cu, const char* name, char* out, size_t size) {
    const char* c = strstr(dev, "|cu");
    cr_assert_not_null(c, "device key %s has no compute-unit field", dev);
    const char* rest = strchr(c + 1, '|');
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%.*s|cu%ld%s", (int)(c - dev), dev, cu, rest ? rest : "");
    const char* f1 = strchr(tmp, '|');
    const char* f2 = strchr(f1 + 1, '|');
    if (name)
        snprintf(out, size, "%.*s|%s%s", (int)(f1 - tmp), tmp, name, f2);
    else
        snprintf(out, size, "%s", tmp);
}

Test(finddb, system_tables_answer_after_the_user_db_and_are_never_written) {
    char root[256], user[400], sys[400], key[256];
    cldnnHandle_t h = system_setup(root, sizeof root, user, sys, sizeof user, NULL);
    const char* dev = h->prof.key;
    system_put(sys, dev, CLDNN_DB_FIND, "conv-fwd:k1", "sys1");
    system_put(sys, dev, CLDNN_DB_FIND, "conv-fwd:k2", "sys2");
    system_put(sys, dev, CLDNN_DB_TUNE, "conv-fwd:k1|conv_fwd_igemm", "systune");
    cldnn_db_put(user, dev, CLDNN_DB_FIND, "conv-fwd:k2", "user2");
    cldnn_db_reset(); /* everything below comes from the files */
    char* before = dir_fingerprint(sys);
    char v[512];
    cr_assert_eq(cldnn_db_lookup(h, CLDNN_DB_FIND, "conv-fwd:k1", v, sizeof v), 2, "no system answer for k1");
    cr_assert_str_eq(v, "sys1");
    cr_assert_eq(cldnn_db_lookup(h, CLDNN_DB_FIND, "conv-fwd:k2", v, sizeof v), 1, "the user db must win for k2");
    cr_assert_str_eq(v, "user2");
    cr_assert(cldnn_tunedb_get(h, "conv-fwd:k1", "conv_fwd_igemm", v, sizeof v), "tuning records come from the "
              "system tables too");
    cr_assert_str_eq(v, "systune");
    cr_assert_eq(cldnn_db_lookup(h, CLDNN_DB_FIND, "conv-fwd:none", v, sizeof v), 0);
    cr_assert_geq(stats_now().system_hits, 2);
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_HEURISTIC));
    cr_assert_eq(cldnn_db_lookup(h, CLDNN_DB_FIND, "conv-fwd:k1", v, sizeof v), 0, "HEURISTIC reads no table");
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_DB_OR_HEURISTIC));

    /* through the API: a system record reorders Get; Find records into the user db only, and then wins */
    small_conv c;
    sc_init(&c, h);
    int algos[16];
    const char* names[16];
    int na = sc_solvers(&c, key, sizeof key, algos, names);
    cr_assert_geq(na, 2);
    size_t at = 0;
    for (int i = na - 1; i >= 0; --i)
        at = cldnn_appendf(v, sizeof v, at, "%s%s,%d,%d.5,0,1", at ? ";" : "", names[i], algos[i], na - i);
    system_put(sys, dev, CLDNN_DB_FIND, key, v);
    cldnn_db_reset();
    free(before);
    before = dir_fingerprint(sys);
    cldnnConvolutionFwdAlgoPerf_t pe[8], ge[8];
    sc_get(&c, ge);
    cr_assert_eq((int)ge[0].algo, algos[na - 1], "Get ignored the system table: first %d, shipped %d",
                 (int)ge[0].algo, algos[na - 1]);
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_BENCHMARK));
    int n = sc_find(&c, pe);
    cr_assert_gt(n, 0);
    FX_OK(cldnnSetFindMode(h, CLDNN_FIND_MODE_DB_OR_HEURISTIC));
    cr_assert(cldnn_db_get(user, dev, CLDNN_DB_FIND, key, v, sizeof v), "Find recorded nothing in the user db");
    sc_get(&c, ge);
    cr_assert_eq(ge[0].algo, pe[0].algo, "the user's record must win: Get %d, Find %d", (int)ge[0].algo,
                 (int)pe[0].algo);
    char* after = dir_fingerprint(sys);
    cr_assert_str_eq(after, before, "the system folder changed:\n%s\nwas\n%s", after, before);
    cr_assert_eq(find_file(sys, "*.lock", NULL, 0), 0, "a lock file in the system folder");
    free(before);
    free(after);
    sc_free(&c);
    cldnnDestroy(h);
    remove_dir(root);
}

Test(finddb, system_tables_take_the_nearest_compute_unit_count) {
    char root[256], user[400], sys[400], k[600], log[600];
    cldnnHandle_t h = system_setup(root, sizeof root, user, sys, sizeof user, log);
    const char* dev = h->prof.key;
    long cu = (long)h->prof.compute_units;
    key_with(dev, cu + 40, NULL, k, sizeof k);
    system_put(sys, k, CLDNN_DB_FIND, "conv-fwd:k", "far");
    key_with(dev, cu + 3, NULL, k, sizeof k);
    system_put(sys, k, CLDNN_DB_FIND, "conv-fwd:k", "near");
    key_with(dev, cu, "another_device", k, sizeof k);
    system_put(sys, k, CLDNN_DB_FIND, "conv-fwd:k", "another name");
    cldnn_db_reset();
    char v[128];
    cr_assert_eq(cldnn_db_lookup(h, CLDNN_DB_FIND, "conv-fwd:k", v, sizeof v), 2);
    cr_assert_str_eq(v, "near", "the nearest compute-unit count of the same name must win, got %s", v);
    cr_assert(log_has(log, "the nearest"), "no log line names the nearest table");

    /* the identical key beats every near one; equal distances go to the larger count */
    system_put(sys, dev, CLDNN_DB_FIND, "conv-fwd:k", "exact");
    cldnn_db_reset();
    cr_assert_eq(cldnn_db_lookup(h, CLDNN_DB_FIND, "conv-fwd:k", v, sizeof v), 2);
    cr_assert_str_eq(v, "exact");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -f '%s'/*", sys);
    cr_assert_eq(system(cmd), 0);
    key_with(dev, cu + 2, NULL, k, sizeof k);
    system_put(sys, k, CLDNN_DB_FIND, "conv-fwd:k", "larger");
    key_with(dev, cu - 2, NULL, k, sizeof k);
    system_put(sys, k, CLDNN_DB_FIND, "conv-fwd:k", "smaller");
    cldnn_db_reset();
    cr_assert_eq(cldnn_db_lookup(h, CLDNN_DB_FIND, "conv-fwd:k", v, sizeof v), 2);
    cr_assert_str_eq(v, "larger");

    /* only another device name: no table, the heuristic */
    cr_assert_eq(system(cmd), 0);
    key_with(dev, cu, "another_device", k, sizeof k);
    system_put(sys, k, CLDNN_DB_FIND, "conv-fwd:k", "another name");
    cldnn_db_reset();
    cr_assert_eq(cldnn_db_lookup(h, CLDNN_DB_FIND, "conv-fwd:k", v, sizeof v), 0, "another device's table answered");
    cldnnDestroy(h);
    remove_dir(root);
}
