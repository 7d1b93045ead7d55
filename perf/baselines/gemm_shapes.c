/*
** gemm_shapes.c: the shape-file reader and the small helpers shared by cldnn-bench's gemm mode and
** the GEMM baselines (see gemm_shapes.h for the file format and the result line).
*/
#include "gemm_shapes.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SHAPES_MAX_COLS 32
#define SHAPES_LINE_MAX 1024

/* Strips leading and trailing blanks (and a trailing CR/LF) of s in place; returns s. */
static char* trim(char* s) {
    while (*s && isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* Splits line at commas into at most max trimmed fields (in place); returns the count. */
static int split(char* line, char** fields, int max) {
    int n = 0;
    char* p = line;
    while (n < max) {
        char* c = strchr(p, ',');
        if (c) *c = '\0';
        fields[n++] = trim(p);
        if (!c) break;
        p = c + 1;
    }
    return n;
}

/* Parses a positive integer field; returns 0 and *v, or 1. */
static int parse_pos(const char* s, int64_t* v) {
    char* end = NULL;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (!*s || *end || errno || x < 1) return 1;
    *v = x;
    return 0;
}

/* Parses a transpose field (N/T, n/t, 0/1); returns 0 and *t, or 1. */
static int parse_op(const char* s, int* t) {
    if (!strcmp(s, "N") || !strcmp(s, "n") || !strcmp(s, "0")) *t = 0;
    else if (!strcmp(s, "T") || !strcmp(s, "t") || !strcmp(s, "1")) *t = 1;
    else return 1;
    return 0;
}

int gemm_shapes_read(const char* path, gemm_shape** out, int* count, char* err, size_t errsize) {
    *out = NULL;
    *count = 0;
    FILE* f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
        return 1;
    }
    static const char* const names[6] = {"m", "n", "k", "a_t", "b_t", "batch"};
    int col[6] = {-1, -1, -1, -1, -1, -1};
    char buf[SHAPES_LINE_MAX];
    char* fields[SHAPES_MAX_COLS];
    int lineno = 0, have_header = 0, cap = 0, rc = 1;
    gemm_shape* v = NULL;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        if (!strchr(buf, '\n') && !feof(f)) {
            snprintf(err, errsize, "%s:%d: line longer than %d characters", path, lineno, SHAPES_LINE_MAX - 2);
            goto out;
        }
        char* line = trim(buf);
        if (!*line || *line == '#') continue;
        int nf = split(line, fields, SHAPES_MAX_COLS);
        if (!have_header) {
            for (int i = 0; i < nf; i++)
                for (int c = 0; c < 6; c++)
                    if (!strcmp(fields[i], names[c])) col[c] = i;
            for (int c = 0; c < 5; c++)
                if (col[c] < 0) {
                    snprintf(err, errsize, "%s:%d: the header names no column '%s' (need m,n,k,a_t,b_t)", path,
                             lineno, names[c]);
                    goto out;
                }
            have_header = 1;
            continue;
        }
        gemm_shape s;
        memset(&s, 0, sizeof s);
        s.batch = 1;
        s.line = lineno;
        for (int c = 0; c < 6; c++) {
            if (col[c] < 0) continue;
            if (col[c] >= nf) {
                snprintf(err, errsize, "%s:%d: no field for column '%s'", path, lineno, names[c]);
                goto out;
            }
            const char* fv = fields[col[c]];
            int bad = c < 3 ? parse_pos(fv, c == 0 ? &s.m : c == 1 ? &s.n : &s.k)
                      : c == 5 ? parse_pos(fv, &s.batch)
                               : parse_op(fv, c == 3 ? &s.ta : &s.tb);
            if (bad) {
                snprintf(err, errsize, "%s:%d: column '%s': '%s' is not %s", path, lineno, names[c], fv,
                         (c == 3 || c == 4) ? "N or T" : "a positive integer");
                goto out;
            }
        }
        if (*count == cap) {
            cap = cap ? 2 * cap : 64;
            gemm_shape* nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv) {
                snprintf(err, errsize, "%s: out of memory", path);
                goto out;
            }
            v = nv;
        }
        v[(*count)++] = s;
    }
    if (ferror(f)) {
        snprintf(err, errsize, "%s: read error", path);
        goto out;
    }
    if (!*count) {
        snprintf(err, errsize, "%s: no shapes (a header line m,n,k,a_t,b_t, then one line per shape)", path);
        goto out;
    }
    rc = 0;
out:
    fclose(f);
    if (rc) {
        free(v);
        v = NULL;
        *count = 0;
    }
    *out = v;
    return rc;
}

double gemm_now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* qsort comparator for doubles. */
static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

double gemm_median(double* v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void gemm_fill_block(float* p, size_t n, uint64_t seed) {
    uint64_t s = seed ? seed : 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        uint64_t r = s * 0x2545f4914f6cdd1dull;
        /* 24 random bits -> an exactly representable float in [-1, 1) */
        p[i] = (float)((double)(int32_t)(r >> 40) / 8388608.0 - 1.0);
    }
}

void gemm_print_result(const char* tool, const gemm_shape* s, double ms, long long iters, const char* why) {
    printf("%s %lld %lld %lld %c %c %lld ", tool, (long long)s->m, (long long)s->n, (long long)s->k,
           s->ta ? 'T' : 'N', s->tb ? 'T' : 'N', (long long)s->batch);
    if (ms > 0) {
        double tf = 2.0 * (double)s->m * (double)s->n * (double)s->k * (double)s->batch / (ms * 1e-3) / 1e12;
        printf("%.4f %.4g %lld\n", ms, tf, iters);
    } else {
        printf("- - - %s\n", why ? why : "failed");
    }
    fflush(stdout);
}

long long gemm_iters_for(double per_call_s, double target_ms, int reps) {
    if (!(per_call_s > 0)) return 1;
    double it = target_ms * 1e-3 / reps / per_call_s;
    if (it < 1) return 1;
    if (it > 100000) return 100000;
    return (long long)(it + 0.5);
}

uint16_t gemm_float_to_half(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t mag = x & 0x7fffffffu;
    if (mag >= 0x7f800000u) return (uint16_t)(sign | (mag > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (mag >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);      /* rounds to >= 65520: inf */
    if (mag < 0x38800000u) {                                       /* below 2^-14: subnormal */
        if (mag < 0x33000000u) return sign;                        /* below 2^-25: zero */
        uint32_t m = (mag & 0x7fffffu) | 0x800000u;
        int shift = 126 - (int)(mag >> 23);                        /* 14..24 */
        uint32_t r = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (r & 1u))) r++;
        return (uint16_t)(sign | r);
    }
    uint32_t r = mag - 0x38000000u;                                /* rebias 127 -> 15 */
    uint32_t out = r >> 13, rem = r & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (out & 1u))) out++;
    return (uint16_t)(sign | out);
}

float gemm_half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
    if (e == 0) {
        float v = (float)m * 0x1p-24f;
        return sign ? -v : v;
    }
    if (e == 31) x = sign | 0x7f800000u | (m << 13);
    else x = sign | ((e + 112u) << 23) | (m << 13);
    float f;
    memcpy(&f, &x, 4);
    return f;
}

uint16_t gemm_float_to_bf16(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

float gemm_bf16_to_float(uint16_t h) {
    uint32_t x = (uint32_t)h << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}
