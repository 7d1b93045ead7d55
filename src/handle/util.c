/*
** util.c: small helpers every part of the library shares: hashing, bounded formatting and the
** magic numbers of the kernels' division by a runtime constant (kernels/common/fastdiv.h), and
** the widening of half values that host-side comparisons read back.
*/
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

uint64_t cldnn_fnv1a(uint64_t h, const void* data, size_t n) {
    const unsigned char* p = (const unsigned char*)data;
    for (size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

size_t cldnn_appendf(char* buf, size_t size, size_t at, const char* fmt, ...) {
    if (size == 0 || at >= size - 1)
        return at;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + at, size - at, fmt, ap);
    va_end(ap);
    if (n < 0)
        return at;
    return ((size_t)n >= size - at) ? size - 1 : at + (size_t)n;
}

cl_uint4 cldnn_fastdiv(uint32_t d) {
    cl_uint4 r;
    uint32_t l = 0;
    while (l < 32 && (1ull << l) < d)
        ++l;
    r.s[0] = d;
    r.s[1] = (uint32_t)(((1ull << 32) * ((1ull << l) - d)) / d + 1);
    r.s[2] = l > 0 ? 1 : 0;
    r.s[3] = l > 0 ? l - 1 : 0;
    return r;
}

float cldnn_bf16_to_float(uint16_t b) {
    const uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

float cldnn_half_to_float(uint16_t h) {
    const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    const float sign = (h & 0x8000u) ? -1.0f : 1.0f;
    if (e == 0x1f)
        return m ? NAN : sign * INFINITY;
    /* subnormals are m * 2^-24; normals (1024 + m) * 2^(e - 25): both exact in float */
    return sign * ldexpf((float)(e ? 1024 + m : m), e ? e - 25 : -24);
}
