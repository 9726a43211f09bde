/* tally check (libstat/run/syscheck.c): the findings of this machine have the documented
 * structure; their values depend on the machine, so only their form is checked here (the
 * probes' parsing of each sysfs format is covered by the fingerprint recorded in runs). */
#include <string.h>

#include "check.h"
#include "tally.h"

static void test_findings(void)
{
    tally_system_check *c = NULL;
    CHECK_INT(tally_system_check_run(&c), TALLY_OK);
    size_t n = tally_system_check_count(c), warn = 0;
    /* governor, boost, smt, aslr, load, services, isolcpus, nohz_full, perf_event_paranoid, thp,
     * and power on machines with a battery. */
    CHECK(n == 10 || n == 11);
    static const char *const names[] = { "governor", "boost", "smt", "aslr", "load", "services",
                                         "isolcpus", "nohz_full", "perf_event_paranoid", "thp" };
    for (size_t i = 0; i < n; i++) {
        tally_check_item it = { .size = sizeof it };
        CHECK_INT(tally_system_check_item_at(&it, c, i), TALLY_OK);
        if (i < 10)
            CHECK_STR(it.name, names[i]);
        CHECK(it.value != NULL && it.advice != NULL && it.advice[0] != '\0');
        CHECK(it.level >= TALLY_CHECK_OK && it.level <= TALLY_CHECK_UNKNOWN);
        CHECK((it.level == TALLY_CHECK_UNKNOWN) == (it.value[0] == '\0'));
        warn += it.level == TALLY_CHECK_WARN;
    }
    CHECK_INT(tally_system_check_warnings(c), warn);
    tally_check_item it = { .size = sizeof it };
    CHECK_INT(tally_system_check_item_at(&it, c, n), TALLY_EINVAL);
    CHECK_INT(tally_system_check_item_at(NULL, c, 0), TALLY_EINVAL);
    tally_system_check_free(c);
    CHECK_INT(tally_system_check_run(NULL), TALLY_EINVAL);
    CHECK_INT(tally_system_check_count(NULL), 0);
    tally_system_check_free(NULL);
}

int main(void)
{
    test_findings();
    return check_summary();
}
