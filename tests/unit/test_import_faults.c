/* Every importer and tally_validate() under allocation failure: in fault-injection builds
 * (-DTALLY_FAULT_INJECTION=ON), the n-th allocation fails for n = 1, 2, ... until the call
 * succeeds; each failing call must return TALLY_ENOMEM and leave nothing behind (the sanitizer
 * build checks for leaks). Other builds only check that the files still load. */
#include "check.h"
#include "import_helpers.h"
#include "util/testing.h"

static const struct {
    const tally__importer *imp;
    const char *file;
} inputs[] = {
    {&tally__importer_hyperfine, "hyperfine/scan.json"},
    {&tally__importer_gbench, "gbench/repetitions.json"},
    {&tally__importer_pyperf, "pyperf/suite.json"},
    {&tally__importer_gotest, "gotest/bench.txt"},
    {&tally__importer_hackbench, "hackbench/runs.txt"},
    {&tally__importer_stream, "stream/runs.txt"},
    {&tally__importer_schbench, "schbench/runs.txt"},
    {&tally__importer_netperf, "netperf/omni.txt"},
    {&tally__importer_tbench, "tbench/runs.txt"},
};

static int load_and_validate(size_t i)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TALLY_TEST_DATA, inputs[i].file);
    char *data = NULL;
    size_t len = 0;
    /* read outside the injection window: the file helper is not under test here */
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return TALLY_EIO;
    static char buf[1 << 16];
    len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    data = buf;
#ifdef TALLY_FAULT_INJECTION
    int rc = TALLY_ENOMEM;
    long n;
    for (n = 1; rc == TALLY_ENOMEM && n < 100000; n++) {
        tally_results *r = NULL;
        tally_validation *v = NULL;
        tally_testing_fail_allocation(0);
        if (tally_results_new(&r) != TALLY_OK)
            return TALLY_ENOMEM;
        tally_testing_fail_allocation(n);
        rc = inputs[i].imp->parse(r, data, len, inputs[i].file, NULL);
        if (rc == TALLY_OK)
            rc = tally_validate(&v, r, NULL);
        tally_testing_fail_allocation(0);
        if (rc != TALLY_OK && rc != TALLY_ENOMEM)
            fprintf(stderr, "%s: allocation %ld: %s\n", inputs[i].file, n, last_message());
        tally_validation_free(v);
        tally_results_free(r);
    }
    CHECK(n > 2); /* at least one failure was injected */
    return rc;
#else
    tally_results *r = NULL;
    int rc = tally_results_new(&r);
    if (rc == TALLY_OK)
        rc = inputs[i].imp->parse(r, data, len, inputs[i].file, NULL);
    tally_results_free(r);
    return rc;
#endif
}

int main(void)
{
    for (size_t i = 0; i < TALLY__COUNT(inputs); i++)
        CHECK_INT(load_and_validate(i), TALLY_OK);
    return check_summary();
}
