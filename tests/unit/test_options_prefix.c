/* The version-prefix reader (util/options.c) on a two-version options struct of the test's
 * own: every public struct is at version 1 before the first release, so the case a later
 * release creates (a caller built against version 1 while the library knows version 2) is
 * built here. Expected values: the defaults below, written by hand. */
#include <stddef.h>
#include <string.h>

#include "check.h"
#include "tally.h"
#include "util/options.h"

/* Version 1 had `alpha`; version 2 appended `runs`. */
typedef struct {
    unsigned int version;
    double alpha;
    int runs;
} two_version_options;

#define TWO_OPTIONS_VERSION 2
#define TWO_OPTIONS_INIT { TWO_OPTIONS_VERSION, 0.05, 30 }

/* The prototype a public header would declare. */
int two_version_options_init(two_version_options *opts, unsigned int version);

TALLY__OPTIONS_FUNCTIONS(two_version_options, TWO_OPTIONS, offsetof(two_version_options, runs),
                         sizeof(two_version_options))

/* init of version 1 writes only version 1's bytes. */
static void test_init_prefix(void)
{
    two_version_options o;
    memset(&o, 0x5a, sizeof o);
    CHECK_INT(two_version_options_init(&o, 1), TALLY_OK);
    CHECK_INT(o.version, 1);
    CHECK(o.alpha == 0.05);
    unsigned char tail[sizeof o.runs];
    memset(tail, 0x5a, sizeof tail);
    CHECK(memcmp(&o.runs, tail, sizeof tail) == 0); /* not a version 1 field: untouched */
    CHECK_INT(two_version_options_init(&o, 2), TALLY_OK);
    CHECK_INT(o.runs, 30);
}

/* A version 1 struct is read as a prefix: its fields, then the defaults, version set to 2;
 * nothing past version 1's size is read (the caller's struct ends there). */
static void test_read_prefix(void)
{
    unsigned char caller[offsetof(two_version_options, runs)];
    two_version_options v1 = { 1, 0.01, -7 };
    memcpy(caller, &v1, sizeof caller);
    two_version_options out;
    CHECK_INT(tally__options_read(&out, caller, &two_version_options_kind), TALLY_OK);
    CHECK_INT(out.version, 2);
    CHECK(out.alpha == 0.01);
    CHECK_INT(out.runs, 30);
    CHECK_INT(tally__options_read(&out, NULL, &two_version_options_kind), TALLY_OK);
    CHECK(out.alpha == 0.05);
}

static void test_messages(void)
{
    two_version_options o = TWO_OPTIONS_INIT;
    o.version = 3;
    two_version_options out;
    CHECK_INT(tally__options_read(&out, &o, &two_version_options_kind), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "two_version_options: version 3, expected 1 to 2");
    CHECK_INT(two_version_options_init(&o, 0), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "two_version_options: version 0, expected 1 to 2");
}

int main(void)
{
    test_init_prefix();
    test_read_prefix();
    test_messages();
    return check_summary();
}
