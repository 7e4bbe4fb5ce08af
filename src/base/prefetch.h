/* A hint to load memory a loop will read soon: on the largest boards the
 * passes that go in a random order (a shuffle, decoration's deal, the
 * lattice's thinning) wait on a cache miss per step, and knowing the next
 * steps' addresses ahead lets those misses overlap. Only a hint: it never
 * changes a result, and compilers without the builtin get nothing. */
#ifndef CB_PREFETCH_H
#define CB_PREFETCH_H

#if defined(__GNUC__) || defined(__clang__)
#define CB_PREFETCH(p) __builtin_prefetch(p)
#define CB_PREFETCH_WRITE(p) __builtin_prefetch((p), 1)
#else
#define CB_PREFETCH(p) ((void)(p))
#define CB_PREFETCH_WRITE(p) ((void)(p))
#endif

/* How many steps ahead a random-order loop asks for its memory: enough to
 * cover a miss to main memory at a few nanoseconds a step. */
#define CB_PREFETCH_AHEAD 16

#endif
