/* The pilots board.c knows beforehand are what running them gives: a
 * change to the generator that moves a pilot's vote fails here, naming the
 * line of pilots_known to change, instead of quietly giving a game on that
 * paper other boards than a process that runs the pilot would. */
#include "test.h"

#include <stdio.h>

#include "board/pilot.h"

static void test_known_pilots_hold(void **state)
{
    (void)state;
    size_t n = cb_pilot_known_count(), stale = 0;
    assert_true(n >= 2);
    for (size_t i = 0; i < n; i++) {
        cb_spec spec;
        int want[4], got[4];
        cb_pilot_known(i, &spec, want);
        assert_int_equal(cb_pilot_run(&spec, got), 0);
        if (want[0] != got[0] || want[1] != got[1] || want[2] != got[2] || want[3] != got[3]) {
            printf("stale pilot %zu: {{%a, %a, %g, %g, %d, %d}, {%d, %d, %d, %d}}\n", i,
                   spec.page_w, spec.page_h, spec.margin, spec.resolution, spec.start_cap,
                   spec.node_cap, got[0], got[1], got[2], got[3]);
            stale++;
        }
    }
    assert_int_equal(stale, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_pilots_hold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
