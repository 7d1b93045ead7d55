/*
 * coord4.h: linear indices to coordinates of up to four dims held in an int4 (innermost in .x,
 * unused dims of size 1), and coordinates to element offsets. Shared by the kernels that walk
 * "outer" and "reduced" index spaces of any strides (batch norm, layer / group / RMS norm).
 * Include after helpers.h (IDX_T) and fastdiv.h (fdiv).
 */
#ifndef CLDNN_COORD4_H
#define CLDNN_COORD4_H

/* k over the dims d by integer division (index spaces walked once per work-group). */
inline int4 coord4_div(int k, int4 d) {
    int4 c;
    c.x = k % d.x;
    k /= d.x;
    c.y = k % d.y;
    k /= d.y;
    c.z = k % d.z;
    c.w = k / d.z;
    return c;
}

/* m over the first n dims of d through fastdiv divisors q0..q2 of d.x, d.y, d.z (per element). */
inline int4 coord4_fdiv(int m, int n, int4 d, uint4 q0, uint4 q1, uint4 q2) {
    if (n <= 1)
        return (int4)(m, 0, 0, 0);
    const int t0 = fdiv(m, q0);
    if (n == 2)
        return (int4)(m - t0 * d.x, t0, 0, 0);
    const int t1 = fdiv(t0, q1);
    if (n == 3)
        return (int4)(m - t0 * d.x, t0 - t1 * d.y, t1, 0);
    const int t2 = fdiv(t1, q2);
    return (int4)(m - t0 * d.x, t0 - t1 * d.y, t1 - t2 * d.z, t2);
}

/* The element offset of coordinates c under strides s. */
inline IDX_T coord4_off(int4 c, long4 s) {
    return (IDX_T)c.x * (IDX_T)s.x + (IDX_T)c.y * (IDX_T)s.y + (IDX_T)c.z * (IDX_T)s.z + (IDX_T)c.w * (IDX_T)s.w;
}

#endif
