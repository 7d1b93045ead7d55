/*
** conv_shapes.c: the convolution shape-file reader, the FLOP count and the result line shared by
** cldnn-bench's conv mode and the convolution baselines (see conv_shapes.h for the file format
** and the line). Files are small (a few hundred rows), so the reader favours exact messages over
** speed: every problem is reported with the file name and line, and the first one stops it.
*/
#include "conv_shapes.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define CONV_LINE_MAX 1024    /* longest line accepted, newline included */
#define CONV_MAX_COLS 64      /* fields looked at per line */
#define CONV_NCOLS 15         /* the columns every file must name */
#define CONV_FIELD_MAX (1 << 24)

/* The columns, in the struct's order (name first). */
static const char* const k_cols[CONV_NCOLS] = {"name", "n", "c", "h", "w", "k", "r", "s", "pad_h", "pad_w",
                                               "stride_h", "stride_w", "dil_h", "dil_w", "groups"};

/* Prints "path:line: message" (line 0: "path: message") and a newline to stderr. */
static void complain(const char* path, int line, const char* fmt, ...) {
    va_list ap;
    if (line > 0) fprintf(stderr, "%s:%d: ", path, line);
    else fprintf(stderr, "%s: ", path);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

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

/* Parses an integer field in [lo, CONV_FIELD_MAX]; returns 0 and *v, or 1. */
static int parse_int(const char* s, int lo, int* v) {
    char* end = NULL;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (!*s || *end || errno || x < lo || x > CONV_FIELD_MAX) return 1;
    *v = (int)x;
    return 0;
}

/* Returns 1 when name is a valid row name: 1 to 63 printable characters, no blanks. */
static int name_ok(const char* name) {
    size_t n = strlen(name);
    if (n == 0 || n > 63) return 0;
    for (size_t i = 0; i < n; i++)
        if (!isgraph((unsigned char)name[i])) return 0;
    return 1;
}

/* The address of the integer field of column c (1 .. 14) of s. */
static int* field_of(conv_shape* s, int c) {
    int* const f[CONV_NCOLS] = {NULL,         &s->n,        &s->c,     &s->h,     &s->w,
                                &s->k,        &s->r,        &s->s,     &s->pad_h, &s->pad_w,
                                &s->stride_h, &s->stride_w, &s->dil_h, &s->dil_w, &s->groups};
    return f[c];
}

int conv_shapes_read(const char* path, conv_shape** out) {
    *out = NULL;
    FILE* f = fopen(path, "r");
    if (!f) {
        complain(path, 0, "%s", strerror(errno));
        return -1;
    }
    int col[CONV_NCOLS];
    for (int c = 0; c < CONV_NCOLS; c++) col[c] = -1;
    char buf[CONV_LINE_MAX];
    char* fields[CONV_MAX_COLS];
    int lineno = 0, have_header = 0, count = 0, cap = 0, ok = 0;
    conv_shape* v = NULL;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        if (!strchr(buf, '\n') && !feof(f)) {
            complain(path, lineno, "line longer than %d characters", CONV_LINE_MAX - 2);
            goto out;
        }
        char* line = trim(buf);
        if (!*line || *line == '#') continue;
        int nf = split(line, fields, CONV_MAX_COLS);
        if (!have_header) {
            for (int i = 0; i < nf; i++)
                for (int c = 0; c < CONV_NCOLS; c++)
                    if (!strcmp(fields[i], k_cols[c])) {
                        if (col[c] >= 0) {
                            complain(path, lineno, "the header names column '%s' twice", k_cols[c]);
                            goto out;
                        }
                        col[c] = i;
                    }
            for (int c = 0; c < CONV_NCOLS; c++)
                if (col[c] < 0) {
                    complain(path, lineno,
                             "the header names no column '%s' (need name,n,c,h,w,k,r,s,pad_h,pad_w,"
                             "stride_h,stride_w,dil_h,dil_w,groups)",
                             k_cols[c]);
                    goto out;
                }
            have_header = 1;
            continue;
        }
        conv_shape s;
        memset(&s, 0, sizeof s);
        for (int c = 0; c < CONV_NCOLS; c++) {
            if (col[c] >= nf) {
                complain(path, lineno, "no field for column '%s' (%d fields on the line)", k_cols[c], nf);
                goto out;
            }
            const char* fv = fields[col[c]];
            if (c == 0) {
                if (!name_ok(fv)) {
                    complain(path, lineno, "name '%s' is not 1 to 63 printable characters without blanks", fv);
                    goto out;
                }
                memcpy(s.name, fv, strlen(fv) + 1);
                continue;
            }
            int lo = (c == 8 || c == 9) ? 0 : 1; /* pad_h, pad_w may be 0 */
            if (parse_int(fv, lo, field_of(&s, c))) {
                complain(path, lineno, "column '%s': '%s' is not an integer in %d .. %d", k_cols[c], fv, lo,
                         CONV_FIELD_MAX);
                goto out;
            }
        }
        if (s.c % s.groups || s.k % s.groups) {
            complain(path, lineno, "%s: c = %d and k = %d must both be multiples of groups = %d", s.name, s.c, s.k,
                     s.groups);
            goto out;
        }
        int p, q;
        conv_shape_out(&s, &p, &q);
        if (p < 1 || q < 1) {
            complain(path, lineno, "%s: empty output (p = %d, q = %d): the dilated %dx%d filter exceeds the"
                     " padded input",
                     s.name, p, q, s.r, s.s);
            goto out;
        }
        for (int i = 0; i < count; i++)
            if (!strcmp(v[i].name, s.name)) {
                complain(path, lineno, "name '%s' repeats an earlier row (names must be unique)", s.name);
                goto out;
            }
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            conv_shape* nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv) {
                complain(path, lineno, "out of memory");
                goto out;
            }
            v = nv;
        }
        v[count++] = s;
    }
    if (ferror(f)) {
        complain(path, 0, "read error");
        goto out;
    }
    if (!count) {
        complain(path, 0, "no shapes (a header line naming the columns, then one line per shape)");
        goto out;
    }
    ok = 1;
out:
    fclose(f);
    if (!ok) {
        free(v);
        return -1;
    }
    *out = v;
    return count;
}

/* One output extent: (in + 2 pad - dil (f - 1) - 1) / stride + 1, or 0 when the dilated filter
** does not fit. 64-bit intermediates: every term is at most 2^24. */
static int out_extent(int in, int pad, int f, int stride, int dil) {
    long long span = (long long)in + 2LL * pad - (long long)dil * (f - 1) - 1;
    if (span < 0 || stride < 1) return 0;
    return (int)(span / stride + 1);
}

void conv_shape_out(const conv_shape* s, int* p, int* q) {
    if (p) *p = out_extent(s->h, s->pad_h, s->r, s->stride_h, s->dil_h);
    if (q) *q = out_extent(s->w, s->pad_w, s->s, s->stride_w, s->dil_w);
}

double conv_shape_flops(const conv_shape* s) {
    int p, q;
    conv_shape_out(s, &p, &q);
    double cg = s->groups > 0 ? (double)(s->c / s->groups) : (double)s->c;
    return 2.0 * s->n * (double)s->k * p * (double)q * cg * s->r * (double)s->s;
}

/* Prints s to f with every blank replaced by '_' ("-" for NULL or empty). */
static void put_token(FILE* f, const char* s) {
    if (!s || !*s) {
        fputc('-', f);
        return;
    }
    for (; *s; s++) fputc(isspace((unsigned char)*s) ? '_' : *s, f);
}

void conv_result_print(FILE* f, const char* lib, const char* dir, const conv_shape* s, const char* algo, double ms) {
    fputs("RESULT ", f);
    put_token(f, lib);
    fputc(' ', f);
    put_token(f, dir);
    fputc(' ', f);
    put_token(f, s->name);
    fprintf(f, " %dx%dx%dx%d k%d %dx%d p%dx%d u%dx%d d%dx%d g%d ", s->n, s->c, s->h, s->w, s->k, s->r, s->s,
            s->pad_h, s->pad_w, s->stride_h, s->stride_w, s->dil_h, s->dil_w, s->groups);
    put_token(f, algo);
    if (ms > 0 && ms < 1e300) fprintf(f, " %.5g %.4g\n", ms, conv_shape_flops(s) / (ms * 1e-3) / 1e12);
    else fputs(" FAIL FAIL\n", f);
    fflush(f);
}
