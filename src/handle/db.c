/*
** db.c: the find-db and the tuning db, persistent per device, and the find modes.
**
** What they hold. The find-db maps a problem key (conv-fwd:n32-c64-...) to what Find measured:
** the algorithms in time order, each with its solver, time, workspace and determinism (the value
** is the family's own text, conv.c writes and parses it). The tuning db maps "problem-key solver"
** to the solver's parameter string (cldnn_gemm_params_format). A few hundred records per network
** and device; lookups happen on every Get and every run of a tunable solver, records after each
** Find or tuning run.
**
** Where. One folder per handle: cldnnSetDatabasePath, else CLDNN_DB_PATH, else
** $XDG_CONFIG_HOME/cldnn, else $HOME/.config/cldnn (files.c resolves it as the program cache
** resolves its own). In it, per device key (device.c: platform, name, vendor id, compute units,
** extensions; never the driver) and kind, one text file and one lock file:
**     find-v1-<device name>-<hash of the device key>.txt   (.lock beside it)
**     tune-v1-<device name>-<hash>.txt
** Format (version 1): a header line "cldnn-<kind>-db 1 <device key>", then one record per line,
**     <key> <value> <checksum>
** with the checksum 8 hex digits of FNV-1a over "<key> <value>". The last record of a key wins.
**
** Concurrency. A record is appended as one write() of one whole line to a file opened with
** O_APPEND, under an exclusive flock of the lock file; readers take a shared flock and stop at
** the last complete line. When superseded records dominate a large file, the writer rewrites it
** (temporary file and rename, files.c) under the same exclusive lock; readers notice the new
** inode and reload. The lock file itself is never renamed, so no writer can append to a file
** that was replaced. Several processes recording at once lose nothing. In memory, one table per
** (folder, device key, kind), shared by every handle of the process under one mutex, refreshed
** from the file at most once a second (a process's own records are visible at once).
**
** System tables. A read-only, lower-priority pair of databases shipped with the library, looked
** up after the user's (find and tuning records alike) in every mode but HEURISTIC, never written,
** never locked. Folder (per handle, at creation): CLDNN_SYSTEM_DB_PATH when set ("" turns them
** off), else share/cldnn/db beside the library (the library file's folder plus the install's
** relative path from libdir to datadir, so a relocated install finds its own), else the source
** tree's db/ (a build-tree library). Files are the user db's files (`perf/run-device.sh sysdb` copies
** them in). A device picks its file by the key in each file's header: the identical key, else
** among the files of the same device name (the key's second field, as OpenCL reports
** CL_DEVICE_NAME), the one whose other fields (platform, vendor id, extensions) differ in the
** fewest places, then whose compute-unit count is nearest (a tie goes to the larger count), so a
** MIG slice or a CPU with fewer cores takes its full device's table; the choice is logged. A
** record that no longer fits (another solver list, parameters invalid on the device) is dropped
** by conv.c as for the user db.
**
** Damage. A header of another version or another device makes the whole file ignored; a line
** that does not parse, has a wrong checksum or lacks its newline is skipped; each with a log
** line (CLDNN_LOG_LEVEL >= 2). A folder that cannot be created or written keeps records in
** memory, with one log line per database. Nothing here ever fails a call.
*/
#define _GNU_SOURCE
#include "internal.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DB_FORMAT 1
#define DB_LINE_MAX 4096
#define DB_COMPACT_BYTES (256u << 10)

static const char* const kind_names[2] = {"find", "tune"};

typedef struct {
    char* key;
    char* value;
    uint64_t hash;
    int local; /* newer than the file: its append failed */
} db_entry;

typedef struct db_table {
    struct db_table* next;
    cldnn_db_kind kind;
    char dir[1024];
    char dev[512];
    char path[1400], lock_path[1400];
    char header[700];
    db_entry* e;
    size_t n, cap;
    size_t* index; /* open addressing over e: index+1, 0 empty; nindex a power of two */
    size_t nindex;
    /* what has been read of the file */
    dev_t file_dev;
    ino_t file_ino;
    off_t read_off;
    size_t file_lines;
    double last_refresh;
    int loaded, ignored, tail_logged, disk_failed;
    int system; /* a system table: path chosen by system_pick, read once, never written */
} db_table;

static pthread_mutex_t db_lock = PTHREAD_MUTEX_INITIALIZER;
static db_table* tables;
static cldnn_db_stats stats;

static double db_now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t str_hash(const char* s) { return cldnn_fnv1a(CLDNN_FNV_OFFSET, s, strlen(s)); }

/* 32-bit line checksum over "key value". */
static unsigned line_sum(const char* key, size_t klen, const char* value, size_t vlen) {
    uint64_t h = cldnn_fnv1a(CLDNN_FNV_OFFSET, key, klen);
    h = cldnn_fnv1a(h, " ", 1);
    h = cldnn_fnv1a(h, value, vlen);
    return (unsigned)(h ^ (h >> 32));
}

/* ------------------------------------------------------------------ the in-memory table */

static db_entry* table_find(const db_table* t, const char* key, uint64_t h) {
    if (t->nindex == 0)
        return NULL;
    for (size_t i = h & (t->nindex - 1);; i = (i + 1) & (t->nindex - 1)) {
        size_t at = t->index[i];
        if (at == 0)
            return NULL;
        db_entry* e = &t->e[at - 1];
        if (e->hash == h && strcmp(e->key, key) == 0)
            return e;
    }
}

/* Rebuilds the index with room for twice `want` entries; 0 on allocation failure. */
static int table_reindex(db_table* t, size_t want) {
    size_t n = 16;
    while (n < 2 * want)
        n *= 2;
    size_t* idx = (size_t*)calloc(n, sizeof *idx);
    if (idx == NULL)
        return 0;
    for (size_t k = 0; k < t->n; ++k) {
        size_t i = t->e[k].hash & (n - 1);
        while (idx[i])
            i = (i + 1) & (n - 1);
        idx[i] = k + 1;
    }
    free(t->index);
    t->index = idx;
    t->nindex = n;
    return 1;
}

/* Sets key -> value (lengths given); 0 on allocation failure (the table is unchanged). */
static int table_set(db_table* t, const char* key, size_t klen, const char* value, size_t vlen, int local) {
    char kbuf[DB_LINE_MAX];
    if (klen >= sizeof kbuf)
        return 0;
    memcpy(kbuf, key, klen);
    kbuf[klen] = '\0';
    uint64_t h = str_hash(kbuf);
    char* v = strndup(value, vlen);
    if (v == NULL)
        return 0;
    db_entry* e = table_find(t, kbuf, h);
    if (e) {
        free(e->value);
        e->value = v;
        e->local = local;
        return 1;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        db_entry* ne = (db_entry*)realloc(t->e, cap * sizeof *ne);
        if (ne == NULL) {
            free(v);
            return 0;
        }
        t->e = ne;
        t->cap = cap;
    }
    char* k = strdup(kbuf);
    if (k == NULL) {
        free(v);
        return 0;
    }
    t->e[t->n].key = k;
    t->e[t->n].value = v;
    t->e[t->n].hash = h;
    t->e[t->n].local = local;
    t->n++;
    if (2 * t->n > t->nindex) {
        if (!table_reindex(t, t->n)) {
            t->n--;
            free(k);
            free(v);
            return 0;
        }
    } else {
        size_t i = h & (t->nindex - 1);
        while (t->index[i])
            i = (i + 1) & (t->nindex - 1);
        t->index[i] = t->n;
    }
    return 1;
}

static void table_free(db_table* t) {
    for (size_t i = 0; i < t->n; ++i) {
        free(t->e[i].key);
        free(t->e[i].value);
    }
    free(t->e);
    free(t->index);
    free(t);
}

/* The table of (dir, dev, kind), created empty on first use; NULL on allocation failure.
** Called with db_lock held. */
static db_table* table_of(const char* dir, const char* dev, cldnn_db_kind kind) {
    for (db_table* t = tables; t; t = t->next)
        if (!t->system && t->kind == kind && strcmp(t->dir, dir) == 0 && strcmp(t->dev, dev) == 0)
            return t;
    db_table* t = (db_table*)calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->kind = kind;
    snprintf(t->dir, sizeof t->dir, "%s", dir);
    snprintf(t->dev, sizeof t->dev, "%s", dev);
    /* a readable part of the device name (the part of the key after the platform) */
    char name[48];
    const char* p = strchr(dev, '|');
    p = p ? p + 1 : dev;
    size_t n = 0;
    for (; *p && *p != '|' && n + 1 < sizeof name; ++p)
        name[n++] = isalnum((unsigned char)*p) ? *p : '_';
    name[n] = '\0';
    unsigned long long h = (unsigned long long)str_hash(dev);
    snprintf(t->path, sizeof t->path, "%s/%s-v%d-%s-%016llx.txt", dir, kind_names[kind], DB_FORMAT, name, h);
    snprintf(t->lock_path, sizeof t->lock_path, "%s/%s-v%d-%s-%016llx.lock", dir, kind_names[kind], DB_FORMAT, name,
             h);
    snprintf(t->header, sizeof t->header, "cldnn-%s-db %d %s", kind_names[kind], DB_FORMAT, dev);
    t->next = tables;
    tables = t;
    return t;
}

/* ------------------------------------------------------------------ reading the file */

/* Parses one complete line (without its newline) at file offset `at` into t. */
static void parse_line(db_table* t, const char* line, size_t len, off_t at, int* logged) {
    if (at == 0) {
        if (len != strlen(t->header) || memcmp(line, t->header, len) != 0) {
            t->ignored = 1;
            stats.files_ignored++;
            cldnn_log(CLDNN_LOG_INFO, "%s-db: %s has the header \"%.*s\", not \"%s\" (another format version or "
                      "device): ignored", kind_names[t->kind], t->path, (int)(len > 200 ? 200 : len), line, t->header);
        }
        return;
    }
    stats.lines_read++;
    const char* sp1 = memchr(line, ' ', len);
    const char* sp2 = sp1 ? memchr(sp1 + 1, ' ', len - (size_t)(sp1 + 1 - line)) : NULL;
    int ok = sp1 && sp2 && sp1 > line && sp2 > sp1 + 1 && (size_t)(line + len - (sp2 + 1)) == 8;
    for (size_t i = 0; ok && i < len; ++i)
        ok = line[i] > ' ' && line[i] < 127 ? 1 : (line + i == sp1 || line + i == sp2);
    unsigned sum = 0;
    if (ok) {
        char hex[9];
        memcpy(hex, sp2 + 1, 8);
        hex[8] = '\0';
        char* end = NULL;
        sum = (unsigned)strtoul(hex, &end, 16);
        ok = end == hex + 8 && sum == line_sum(line, (size_t)(sp1 - line), sp1 + 1, (size_t)(sp2 - sp1 - 1));
    }
    if (!ok) {
        stats.lines_skipped++;
        if ((*logged)++ < 3)
            cldnn_log(CLDNN_LOG_INFO, "%s-db: %s: skipping a damaged line at byte %lld: \"%.*s\"", kind_names[t->kind],
                      t->path, (long long)at, (int)(len > 120 ? 120 : len), line);
        return;
    }
    db_entry* e = NULL;
    {
        char kbuf[DB_LINE_MAX];
        size_t klen = (size_t)(sp1 - line);
        memcpy(kbuf, line, klen);
        kbuf[klen] = '\0';
        e = table_find(t, kbuf, str_hash(kbuf));
    }
    if (e && e->local)
        return; /* this process's newer record, which the file does not hold */
    if (table_set(t, line, (size_t)(sp1 - line), sp1 + 1, (size_t)(sp2 - sp1 - 1), 0))
        t->file_lines++;
}

/* Reads what t has not read of its file (all of it after a rewrite); the caller holds the lock
** file as needed. */
static void load_locked(db_table* t) {
    t->loaded = 1;
    t->last_refresh = db_now_s();
    int fd = open(t->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return;
    }
    if (st.st_ino != t->file_ino || st.st_dev != t->file_dev || st.st_size < t->read_off) {
        t->file_ino = st.st_ino;
        t->file_dev = st.st_dev;
        t->read_off = 0;
        t->file_lines = 0;
        t->ignored = 0;
        t->tail_logged = 0;
    }
    if (t->ignored || st.st_size == t->read_off) {
        close(fd);
        return;
    }
    size_t want = (size_t)(st.st_size - t->read_off);
    char* buf = (char*)malloc(want + 1);
    ssize_t got = buf ? pread(fd, buf, want, t->read_off) : -1;
    close(fd);
    if (got <= 0) {
        free(buf);
        return;
    }
    int logged = 0;
    size_t at = 0;
    while (at < (size_t)got && !t->ignored) {
        char* nl = memchr(buf + at, '\n', (size_t)got - at);
        if (nl == NULL) {
            if (!t->tail_logged) {
                t->tail_logged = 1;
                stats.lines_skipped++;
                cldnn_log(CLDNN_LOG_INFO, "%s-db: %s ends in an incomplete line of %zu bytes: skipped",
                          kind_names[t->kind], t->path, (size_t)got - at);
            }
            break;
        }
        size_t len = (size_t)(nl - (buf + at));
        if (len < DB_LINE_MAX)
            parse_line(t, buf + at, len, t->read_off + (off_t)at, &logged);
        else if (logged++ < 3)
            cldnn_log(CLDNN_LOG_INFO, "%s-db: %s: skipping a line of %zu bytes", kind_names[t->kind], t->path, len);
        at += len + 1;
    }
    if (logged > 3)
        cldnn_log(CLDNN_LOG_INFO, "%s-db: %s: %d damaged lines skipped in all", kind_names[t->kind], t->path, logged);
    t->read_off += (off_t)at;
    free(buf);
}

/* Opens t's lock file and takes `how` (LOCK_SH, LOCK_EX) on it: the descriptor, or -1 when the
** lock file cannot be opened (a read-only folder: readers go on without it). */
static int lock_open(const db_table* t, int how, int create) {
    int fd = open(t->lock_path, (create ? O_RDWR | O_CREAT : O_RDONLY) | O_CLOEXEC, 0644);
    if (fd < 0 && !create)
        return -1;
    if (fd < 0)
        return -1;
    while (flock(fd, how) != 0)
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    return fd;
}

static void lock_close(int fd) {
    if (fd >= 0) {
        flock(fd, LOCK_UN);
        close(fd);
    }
}

/* Brings t up to date with its file when it was never read or was last read a second ago. */
static void refresh(db_table* t) {
    if (t->dir[0] == '\0' || (t->loaded && db_now_s() - t->last_refresh < 1.0))
        return;
    int lk = lock_open(t, LOCK_SH, 0);
    load_locked(t);
    lock_close(lk);
}

/* ------------------------------------------------------------------ writing */

static void disk_failed(db_table* t, const char* what, const char* path) {
    stats.write_failures++;
    if (!t->disk_failed)
        cldnn_log(CLDNN_LOG_INFO, "%s-db: cannot %s %s (%s); keeping this device's records in memory",
                  kind_names[t->kind], what, path, strerror(errno));
    t->disk_failed = 1;
}

/* Rewrites t's file from the table (header and one line per entry); called under the exclusive
** lock after load_locked, so the table holds every record of the file. */
static void compact_locked(db_table* t) {
    size_t cap = strlen(t->header) + 2, at = 0;
    for (size_t i = 0; i < t->n; ++i)
        cap += strlen(t->e[i].key) + strlen(t->e[i].value) + 12;
    char* buf = (char*)malloc(cap);
    if (buf == NULL)
        return;
    at = cldnn_appendf(buf, cap, at, "%s\n", t->header);
    for (size_t i = 0; i < t->n; ++i) {
        const db_entry* e = &t->e[i];
        at = cldnn_appendf(buf, cap, at, "%s %s %08x\n", e->key, e->value,
                           line_sum(e->key, strlen(e->key), e->value, strlen(e->value)));
    }
    const void* parts[] = {buf};
    const size_t sizes[] = {at};
    if (cldnn_file_replace(t->path, parts, sizes, 1)) {
        cldnn_log(CLDNN_LOG_INFO, "%s-db: rewrote %s with %zu records (%zu lines before)", kind_names[t->kind],
                  t->path, t->n, t->file_lines);
        t->file_ino = 0; /* reread the new file next time */
        t->loaded = 0;
    }
    free(buf);
}

/* Appends one record line to t's file under the exclusive lock; a header is written into an
** empty file and a foreign file is replaced. */
static void append_record(db_table* t, const char* key, const char* value) {
    if (!cldnn_make_dirs(t->dir)) {
        disk_failed(t, "create the folder", t->dir);
        return;
    }
    int lk = lock_open(t, LOCK_EX, 1);
    if (lk < 0) {
        disk_failed(t, "lock", t->lock_path);
        return;
    }
    load_locked(t); /* the header check, and whatever other processes added */
    if (t->ignored) {
        cldnn_log(CLDNN_LOG_INFO, "%s-db: replacing the foreign file %s", kind_names[t->kind], t->path);
        char hl[720];
        int n = snprintf(hl, sizeof hl, "%s\n", t->header);
        const void* parts[] = {hl};
        const size_t sizes[] = {(size_t)n};
        if (!cldnn_file_replace(t->path, parts, sizes, 1)) {
            disk_failed(t, "replace", t->path);
            lock_close(lk);
            return;
        }
        load_locked(t);
    }
    int fd = open(t->path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        disk_failed(t, "write", t->path);
        lock_close(lk);
        return;
    }
    char line[DB_LINE_MAX + 64];
    size_t at = 0;
    struct stat st;
    char last = '\n';
    if (fstat(fd, &st) == 0 && st.st_size == 0)
        at = cldnn_appendf(line, sizeof line, at, "%s\n", t->header);
    else if (st.st_size > 0 && pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n')
        at = cldnn_appendf(line, sizeof line, at, "\n"); /* end a truncated line first */
    at = cldnn_appendf(line, sizeof line, at, "%s %s %08x\n", key, value,
                       line_sum(key, strlen(key), value, strlen(value)));
    ssize_t w = write(fd, line, at);
    if (w != (ssize_t)at) {
        if (w >= 0)
            errno = ENOSPC;
        disk_failed(t, "append to", t->path);
        close(fd);
        lock_close(lk);
        return;
    }
    close(fd);
    load_locked(t); /* our own line: keeps read_off at the end */
    if ((size_t)st.st_size > DB_COMPACT_BYTES && t->file_lines > 2 * t->n + 64)
        compact_locked(t);
    lock_close(lk);
}

/* ------------------------------------------------------------------ system tables */

/* Field i (0-based, '|'-separated) of device key k into out ("" when k has fewer fields). */
static void key_field(const char* k, int i, char* out, size_t size) {
    for (; i > 0 && k; --i) {
        k = strchr(k, '|');
        if (k)
            ++k;
    }
    size_t n = 0;
    for (; k && *k && *k != '|' && n + 1 < size; ++k)
        out[n++] = *k;
    out[n] = '\0';
}

/* How far device key `have` is from `want`: -1 for another device name (field 1), else the
** count of other differing fields (platform, vendor id, extensions) times 2^20 plus the
** compute-unit distance, halved-then-doubled so that a tie goes to the larger count. */
static long key_distance(const char* want, const char* have) {
    char a[256], b[256];
    key_field(want, 1, a, sizeof a);
    key_field(have, 1, b, sizeof b);
    if (strcmp(a, b) != 0)
        return -1;
    long cu_want = 0, cu_have = 0, differ = 0;
    for (int i = 0; i < 16; ++i) {
        key_field(want, i, a, sizeof a);
        key_field(have, i, b, sizeof b);
        if (a[0] == '\0' && b[0] == '\0')
            break;
        if (i == 3 && a[0] == 'c' && a[1] == 'u' && b[0] == 'c' && b[1] == 'u') {
            cu_want = strtol(a + 2, NULL, 10);
            cu_have = strtol(b + 2, NULL, 10);
        } else if (strcmp(a, b) != 0) {
            differ++;
        }
    }
    long d = cu_have > cu_want ? cu_have - cu_want : cu_want - cu_have;
    return differ * (1L << 20) + 2 * d + (cu_have < cu_want);
}

/* Points t (a new system table of t->dir, t->dev, t->kind) at the file of t->dir that serves
** its device best (the file comment's rule), with that file's header as the one expected; no
** file (path "") when none is of the same device name. */
static void system_pick(db_table* t) {
    DIR* d = opendir(t->dir);
    if (d == NULL)
        return;
    char prefix[16];
    snprintf(prefix, sizeof prefix, "%s-v%d-", kind_names[t->kind], DB_FORMAT);
    long best = -1;
    char best_key[512] = "";
    const size_t hl = strlen(t->header) - strlen(t->dev); /* "cldnn-<kind>-db 1 " */
    char want[32];
    snprintf(want, sizeof want, "%.*s", (int)hl, t->header);
    for (struct dirent* e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || len < 5 || strcmp(e->d_name + len - 4, ".txt") != 0)
            continue;
        char path[1400], line[700];
        snprintf(path, sizeof path, "%s/%s", t->dir, e->d_name);
        FILE* f = fopen(path, "r");
        if (f == NULL)
            continue;
        char* ok = fgets(line, sizeof line, f);
        fclose(f);
        if (ok == NULL || strncmp(line, want, hl) != 0)
            continue;
        line[strcspn(line, "\n")] = '\0';
        long dist = key_distance(t->dev, line + hl);
        if (dist >= 0 && (best < 0 || dist < best)) {
            best = dist;
            snprintf(t->path, sizeof t->path, "%s", path);
            snprintf(t->header, sizeof t->header, "%s", line);
            snprintf(best_key, sizeof best_key, "%s", line + hl);
        }
    }
    closedir(d);
    if (best < 0)
        t->path[0] = '\0';
    else if (best > 0)
        cldnn_log(CLDNN_LOG_INFO, "system %s-db: no table for %s in %s; using %s, the nearest (%s)",
                  kind_names[t->kind], t->dev, t->dir, t->path, best_key);
    else
        cldnn_log(CLDNN_LOG_INFO, "system %s-db: %s", kind_names[t->kind], t->path);
}

/* The system table of (dir, dev, kind), read on first use; NULL on allocation failure. Called
** with db_lock held. */
static db_table* system_table_of(const char* dir, const char* dev, cldnn_db_kind kind) {
    for (db_table* t = tables; t; t = t->next)
        if (t->system && t->kind == kind && strcmp(t->dir, dir) == 0 && strcmp(t->dev, dev) == 0)
            return t;
    db_table* t = (db_table*)calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->system = 1;
    t->kind = kind;
    snprintf(t->dir, sizeof t->dir, "%s", dir);
    snprintf(t->dev, sizeof t->dev, "%s", dev);
    snprintf(t->header, sizeof t->header, "cldnn-%s-db %d %s", kind_names[kind], DB_FORMAT, dev);
    system_pick(t);
    if (t->path[0])
        load_locked(t); /* no lock: nobody writes a system table */
    t->loaded = 1;
    t->next = tables;
    tables = t;
    return t;
}

/* The default system folder (file comment) into buf, "" when none exists. */
static void system_default_dir(char* buf, size_t size) {
    buf[0] = '\0';
    struct stat st;
#ifdef CLDNN_SYSTEM_DB_REL
    Dl_info info;
    if (dladdr((void*)&system_default_dir, &info) != 0 && info.dli_fname != NULL) {
        char lib[PATH_MAX];
        if (realpath(info.dli_fname, lib) != NULL) {
            char* slash = strrchr(lib, '/');
            if (slash)
                *slash = '\0';
            snprintf(buf, size, "%s/%s", lib, CLDNN_SYSTEM_DB_REL);
            if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
                return;
        }
    }
#endif
#ifdef CLDNN_SOURCE_DB_DIR
    snprintf(buf, size, "%s", CLDNN_SOURCE_DB_DIR);
    if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
        return;
#endif
    buf[0] = '\0';
}

/* ------------------------------------------------------------------ internal API */

/* 1 when s is one non-empty word of printable ASCII that fits a line. */
static int is_word(const char* s) {
    if (s == NULL || *s == '\0' || strlen(s) > DB_LINE_MAX / 2 - 16)
        return 0;
    for (; *s; ++s)
        if (*s <= ' ' || *s >= 127)
            return 0;
    return 1;
}

int cldnn_db_get(const char* dir, const char* dev, cldnn_db_kind kind, const char* key, char* value, size_t size) {
    if (!is_word(key))
        return 0;
    pthread_mutex_lock(&db_lock);
    db_table* t = table_of(dir, dev, kind);
    int found = 0;
    if (t) {
        refresh(t);
        const db_entry* e = table_find(t, key, str_hash(key));
        if (e && size > 0) {
            snprintf(value, size, "%s", e->value);
            found = 1;
        }
    }
    if (found)
        stats.hits++;
    else
        stats.misses++;
    pthread_mutex_unlock(&db_lock);
    return found;
}

void cldnn_db_put(const char* dir, const char* dev, cldnn_db_kind kind, const char* key, const char* value) {
    if (!is_word(key) || !is_word(value)) {
        cldnn_log(CLDNN_LOG_INFO, "%s-db: not recording a key or value with spaces or of that length: %.80s",
                  kind_names[kind], key ? key : "(null)");
        return;
    }
    pthread_mutex_lock(&db_lock);
    db_table* t = table_of(dir, dev, kind);
    if (t) {
        refresh(t);
        int local = t->dir[0] == '\0' || t->disk_failed;
        table_set(t, key, strlen(key), value, strlen(value), local);
        stats.records++;
        if (!local) {
            append_record(t, key, value);
            if (t->disk_failed) {
                db_entry* e = table_find(t, key, str_hash(key));
                if (e)
                    e->local = 1;
            }
        }
    }
    pthread_mutex_unlock(&db_lock);
}

void cldnn_db_stats_get(cldnn_db_stats* s) {
    pthread_mutex_lock(&db_lock);
    *s = stats;
    pthread_mutex_unlock(&db_lock);
}

void cldnn_db_reset(void) {
    pthread_mutex_lock(&db_lock);
    while (tables) {
        db_table* t = tables;
        tables = t->next;
        table_free(t);
    }
    memset(&stats, 0, sizeof stats);
    pthread_mutex_unlock(&db_lock);
}

int cldnn_db_lookup(cldnnHandle_t h, cldnn_db_kind kind, const char* key, char* value, size_t size) {
    if (!cldnn_db_enabled(h))
        return 0;
    if (cldnn_db_get(h->db_dir, h->prof.key, kind, key, value, size))
        return 1;
    if (h->sysdb_dir[0] == '\0' || !is_word(key) || size == 0)
        return 0;
    pthread_mutex_lock(&db_lock);
    db_table* t = system_table_of(h->sysdb_dir, h->prof.key, kind);
    const db_entry* e = t ? table_find(t, key, str_hash(key)) : NULL;
    if (e) {
        snprintf(value, size, "%s", e->value);
        stats.system_hits++;
    }
    pthread_mutex_unlock(&db_lock);
    return e ? 2 : 0;
}

int cldnn_db_enabled(cldnnHandle_t h) { return h->find_mode != CLDNN_FIND_MODE_HEURISTIC; }

int cldnn_tunedb_get(cldnnHandle_t h, const char* key, const char* solver, char* value, size_t size) {
    if (!cldnn_db_enabled(h))
        return 0;
    char k[512];
    snprintf(k, sizeof k, "%s|%s", key, solver);
    return cldnn_db_lookup(h, CLDNN_DB_TUNE, k, value, size);
}

void cldnn_tunedb_put(cldnnHandle_t h, const char* key, const char* solver, const char* value) {
    char k[512];
    snprintf(k, sizeof k, "%s|%s", key, solver);
    cldnn_db_put(h->db_dir, h->prof.key, CLDNN_DB_TUNE, k, value);
}

/* ------------------------------------------------------------------ find modes, public API */

static const char* const mode_names[] = {"HEURISTIC", "DB_OR_HEURISTIC", "DB_OR_BENCHMARK", "BENCHMARK", "TUNE"};
#define MODE_COUNT ((int)(sizeof mode_names / sizeof mode_names[0]))

const char* cldnn_find_mode_name(cldnnFindMode_t m) {
    return (int)m >= 0 && (int)m < MODE_COUNT ? mode_names[m] : "unknown";
}

/* The mode a CLDNN_FIND_MODE value names (a name, with or without CLDNN_FIND_MODE_, any case, or
** its number), or -1. */
static int parse_mode(const char* s) {
    if (strncasecmp(s, "CLDNN_FIND_MODE_", 16) == 0)
        s += 16;
    for (int i = 0; i < MODE_COUNT; ++i)
        if (strcasecmp(s, mode_names[i]) == 0)
            return i;
    char* end = NULL;
    long v = strtol(s, &end, 10);
    return end != s && *end == '\0' && v >= 0 && v < MODE_COUNT ? (int)v : -1;
}

void cldnn_db_handle_init(cldnnHandle_t h) {
    cldnn_user_dir(h->db_dir, sizeof h->db_dir, "CLDNN_DB_PATH", "XDG_CONFIG_HOME", ".config");
    const char* sys = getenv("CLDNN_SYSTEM_DB_PATH");
    if (sys)
        snprintf(h->sysdb_dir, sizeof h->sysdb_dir, "%s", sys);
    else
        system_default_dir(h->sysdb_dir, sizeof h->sysdb_dir);
    h->find_mode = CLDNN_FIND_MODE_DB_OR_HEURISTIC;
    const char* env = getenv("CLDNN_FIND_MODE");
    if (env && *env) {
        int m = parse_mode(env);
        if (m < 0)
            cldnn_log(CLDNN_LOG_ERROR, "CLDNN_FIND_MODE=\"%s\" is not a find mode (HEURISTIC, DB_OR_HEURISTIC, "
                      "DB_OR_BENCHMARK, BENCHMARK, TUNE or 0-4); using DB_OR_HEURISTIC", env);
        else
            h->find_mode = (cldnnFindMode_t)m;
    }
    cldnn_log(CLDNN_LOG_INFO, "find mode %s, databases in %s, system tables in %s", cldnn_find_mode_name(h->find_mode),
              h->db_dir[0] ? h->db_dir : "memory only", h->sysdb_dir[0] ? h->sysdb_dir : "(none)");
}

cldnnStatus_t cldnnSetFindMode(cldnnHandle_t handle, cldnnFindMode_t mode) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if ((int)mode < 0 || (int)mode >= MODE_COUNT)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "mode %d is not a cldnnFindMode_t value", (int)mode);
    handle->find_mode = mode;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetFindMode(cldnnHandle_t handle, cldnnFindMode_t* mode) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (mode == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "mode (output pointer) is NULL");
    *mode = handle->find_mode;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetDatabasePath(cldnnHandle_t handle, const char* path) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (path == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "path is NULL (\"\" keeps results in memory only)");
    if (strlen(path) >= sizeof handle->db_dir - 64)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "path is %zu bytes long; at most %zu", strlen(path),
                          sizeof handle->db_dir - 65);
    snprintf(handle->db_dir, sizeof handle->db_dir, "%s", path);
    cldnn_log(CLDNN_LOG_INFO, "databases in %s", path[0] ? path : "memory only");
    return CLDNN_STATUS_SUCCESS;
}
