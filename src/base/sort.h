/* A stable merge sort generated per element type with the comparison
 * inlined, for the many small arrays the generator sorts, where qsort's
 * indirect call per comparison dominates. Runs of 8 by insertion first,
 * then bottom-up merges. LESS(a, b) takes two const pointers; with a total
 * order the result is the same as qsort's. NAME(a, tmp, n) sorts a[0..n)
 * using tmp[0..n) as scratch. */
#ifndef CB_SORT_H
#define CB_SORT_H

#include <stddef.h>
#include <string.h>

#define CB_DEFINE_SORT(name, type, less)                                          \
    static void name(type *a, type *tmp, size_t n)                                \
    {                                                                             \
        for (size_t lo = 0; lo < n; lo += 8) {                                    \
            size_t hi = lo + 8 < n ? lo + 8 : n;                                  \
            for (size_t i = lo + 1; i < hi; i++) {                                \
                type v = a[i];                                                    \
                size_t j = i;                                                     \
                for (; j > lo && less(&v, &a[j - 1]); j--)                        \
                    a[j] = a[j - 1];                                              \
                a[j] = v;                                                         \
            }                                                                     \
        }                                                                         \
        type *src = a, *dst = tmp;                                                \
        for (size_t w = 8; w < n; w *= 2) {                                       \
            for (size_t lo = 0; lo < n; lo += 2 * w) {                            \
                size_t mid = lo + w < n ? lo + w : n;                             \
                size_t hi = lo + 2 * w < n ? lo + 2 * w : n;                      \
                size_t i = lo, j = mid, k = lo;                                   \
                /* Which run gives the next element is a coin toss: taken   \
                 * by a select of pointers and counts, not a branch. */     \
                while (i < mid && j < hi) {                                       \
                    int from_j = less(&src[j], &src[i]) != 0;                     \
                    dst[k++] = *(from_j ? &src[j] : &src[i]);                     \
                    j += (size_t)from_j;                                          \
                    i += (size_t)!from_j;                                         \
                }                                                                 \
                while (i < mid)                                                   \
                    dst[k++] = src[i++];                                          \
                while (j < hi)                                                    \
                    dst[k++] = src[j++];                                          \
            }                                                                     \
            type *x = src;                                                        \
            src = dst;                                                            \
            dst = x;                                                              \
        }                                                                         \
        if (src != a)                                                             \
            memcpy(a, src, n * sizeof *a);                                        \
    }

#endif
