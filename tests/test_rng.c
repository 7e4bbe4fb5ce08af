/* Tests for the seeded PRNG and seed hashing (rng.h). Pinned values come from
 * the published algorithms (SplitMix64, FNV-1a 64, xoshiro256**), computed
 * with an independent implementation: a change here changes every board. */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"

static void test_mix64_reference(void **state)
{
    (void)state;
    /* SplitMix64's first output from state 0 (Vigna's reference code). */
    assert_true(cb_mix64(0) == 0xe220a8397b1dcdafull);
    assert_true(cb_mix64(1) != cb_mix64(0));
}

static void test_hash_string_pinned(void **state)
{
    (void)state;
    /* FNV-1a 64 test vectors, then the SplitMix64 finalizer. */
    assert_true(cb_hash_string("") == cb_mix64(0xcbf29ce484222325ull));
    assert_true(cb_hash_string("a") == cb_mix64(0xaf63dc4c8601ec8cull));
    assert_true(cb_hash_string("foobar") == cb_mix64(0x85944171f73967e8ull));
    assert_true(cb_hash_string("a") == 0x5f29c2aadd9b8527ull);
    assert_true(cb_hash_string("cutboard") == 0x16c17964b93273f3ull);
    /* Stable: the same string hashes the same, wherever it is stored. */
    char buf[16];
    strcpy(buf, "cutboard");
    assert_true(cb_hash_string(buf) == cb_hash_string("cutboard"));
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static void test_hash_string_distinct(void **state)
{
    (void)state;
    enum { N = 3000 };
    uint64_t *h = malloc(N * sizeof *h);
    assert_non_null(h);
    for (int i = 0; i < 1000; i++) {
        char s[32];
        snprintf(s, sizeof s, "prop-%d", i);
        h[i] = cb_hash_string(s);
        snprintf(s, sizeof s, "game night/%d", i);
        h[1000 + i] = cb_hash_string(s);
        snprintf(s, sizeof s, "%d", i);
        h[2000 + i] = cb_hash_string(s);
    }
    qsort(h, N, sizeof *h, cmp_u64);
    for (int i = 1; i < N; i++)
        assert_true(h[i] != h[i - 1]);
    free(h);
    /* Order and case matter; a byte beyond ASCII counts too. */
    assert_true(cb_hash_string("ab") != cb_hash_string("ba"));
    assert_true(cb_hash_string("Seed") != cb_hash_string("seed"));
    assert_true(cb_hash_string("caf\xc3\xa9") != cb_hash_string("cafe"));
}

static void test_next_pinned(void **state)
{
    (void)state;
    static const uint64_t want42[] = {0x5c8961e1f2055d33ull, 0xe182e8e848466886ull,
                                      0x9f7313650e290a18ull, 0xe6c0f551804ef0bbull};
    cb_rng r;
    cb_rng_seed(&r, 42);
    for (int i = 0; i < 4; i++)
        assert_true(cb_rng_next(&r) == want42[i]);
    cb_rng_seed(&r, 0);
    assert_true(cb_rng_next(&r) == 0x1a70a846bd9cc2a9ull);
    assert_true(cb_rng_next(&r) == 0x6a0ef250cd2b9e80ull);
}

static void test_deterministic_streams(void **state)
{
    (void)state;
    cb_rng a, b, c;
    cb_rng_seed(&a, 12345);
    cb_rng_seed(&b, 12345);
    cb_rng_seed(&c, 12346);
    int differ = 0;
    for (int i = 0; i < 10000; i++) {
        uint64_t x = cb_rng_next(&a);
        assert_true(x == cb_rng_next(&b));
        differ += x != cb_rng_next(&c);
    }
    assert_true(differ > 9990);
    /* Reseeding restarts the stream. */
    cb_rng_seed(&a, 12345);
    cb_rng_seed(&b, 12345);
    for (int i = 0; i < 7; i++)
        cb_rng_next(&b);
    cb_rng_seed(&b, 12345);
    assert_memory_equal(&a, &b, sizeof a);
}

static void test_uniform_range(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 7);
    double sum = 0, lo = 1, hi = 0;
    for (int i = 0; i < 100000; i++) {
        double u = cb_rng_uniform(&r);
        assert_true(u >= 0 && u < 1);
        sum += u;
        if (u < lo) lo = u;
        if (u > hi) hi = u;
    }
    assert_true(sum / 100000 > 0.49 && sum / 100000 < 0.51);
    assert_true(lo < 0.001 && hi > 0.999);
}

static void test_below_range(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 99);
    for (int i = 0; i < 1000; i++)
        assert_true(cb_rng_below(&r, 1) == 0);
    static const uint64_t ns[] = {2, 3, 7, 10, 1000, 1ull << 32, (1ull << 63) + 1, UINT64_MAX};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        for (int i = 0; i < 2000; i++)
            assert_true(cb_rng_below(&r, ns[k]) < ns[k]);
    /* n = 2^63 + 1 rejects almost half of all draws; the top half of the
     * range must still be reached. */
    int top = 0;
    for (int i = 0; i < 2000; i++)
        top += cb_rng_below(&r, (1ull << 63) + 1) >= (1ull << 62);
    assert_true(top > 800 && top < 1200);
}

static void test_below_uniform(void **state)
{
    (void)state;
    enum { N = 10, DRAWS = 200000 };
    int count[N] = {0};
    cb_rng r;
    cb_rng_seed(&r, 2024);
    for (int i = 0; i < DRAWS; i++)
        count[cb_rng_below(&r, N)]++;
    /* Expected 20000 each, sd ~134: 5% is over 7 sd. Also chi-square. */
    double chi2 = 0;
    for (int k = 0; k < N; k++) {
        assert_true(count[k] > 19000 && count[k] < 21000);
        double d = count[k] - DRAWS / N;
        chi2 += d * d / (DRAWS / N);
    }
    assert_true(chi2 < 30); /* 9 dof: p < 0.0005 */
}

static void test_shuffle_permutation(void **state)
{
    (void)state;
    enum { N = 1000 };
    uint32_t v[N], seen[N];
    for (uint32_t i = 0; i < N; i++)
        v[i] = i;
    cb_rng r;
    cb_rng_seed(&r, 5);
    cb_rng_shuffle(&r, v, N);
    memset(seen, 0, sizeof seen);
    int fixed = 0;
    for (uint32_t i = 0; i < N; i++) {
        assert_true(v[i] < N);
        seen[v[i]]++;
        fixed += v[i] == i;
    }
    for (int i = 0; i < N; i++)
        assert_int_equal(seen[i], 1);
    assert_true(fixed < 10); /* about 1 expected */
    /* Empty and single-element arrays are left alone. */
    uint32_t one = 77;
    cb_rng_shuffle(&r, &one, 1);
    assert_int_equal(one, 77);
    cb_rng_shuffle(&r, NULL, 0);
}

static void test_shuffle_uniform(void **state)
{
    (void)state;
    /* Where element 0 ends up among 5, over many shuffles. */
    enum { N = 5, TRIALS = 50000 };
    int where[N] = {0}, first[N] = {0};
    cb_rng r;
    cb_rng_seed(&r, 11);
    for (int t = 0; t < TRIALS; t++) {
        uint32_t v[N] = {0, 1, 2, 3, 4};
        cb_rng_shuffle(&r, v, N);
        for (int i = 0; i < N; i++)
            if (v[i] == 0)
                where[i]++;
        first[v[0]]++;
    }
    for (int i = 0; i < N; i++) {
        assert_true(where[i] > 9400 && where[i] < 10600);
        assert_true(first[i] > 9400 && first[i] < 10600);
    }
}

/* The shuffle draws its swaps ahead of time (to prefetch): the result and
 * the stream after it must be those of the plain Fisher-Yates, one draw per
 * swap, for sizes below, at and above how far ahead it draws. */
static void test_shuffle_as_fisher_yates(void **state)
{
    (void)state;
    const size_t sizes[] = {2, 3, 15, 16, 17, 18, 33, 1000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        uint32_t got[1000], want[1000];
        for (uint32_t i = 0; i < n; i++)
            got[i] = want[i] = i * 7 + 3;
        cb_rng a, b;
        cb_rng_seed(&a, 100 + s);
        cb_rng_seed(&b, 100 + s);
        cb_rng_shuffle(&a, got, n);
        for (size_t i = n; i > 1; i--) {
            size_t j = (size_t)cb_rng_below(&b, i);
            uint32_t t = want[i - 1];
            want[i - 1] = want[j];
            want[j] = t;
        }
        assert_memory_equal(got, want, n * sizeof *got);
        assert_true(cb_rng_next(&a) == cb_rng_next(&b));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mix64_reference),
        cmocka_unit_test(test_hash_string_pinned),
        cmocka_unit_test(test_hash_string_distinct),
        cmocka_unit_test(test_next_pinned),
        cmocka_unit_test(test_deterministic_streams),
        cmocka_unit_test(test_uniform_range),
        cmocka_unit_test(test_below_range),
        cmocka_unit_test(test_below_uniform),
        cmocka_unit_test(test_shuffle_permutation),
        cmocka_unit_test(test_shuffle_uniform),
        cmocka_unit_test(test_shuffle_as_fisher_yates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
