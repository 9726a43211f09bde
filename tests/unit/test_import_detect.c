/* Detection through the public loader: every real file of another harness is detected as its
 * kind by tally_detect_kind() over the whole registry (native formats included), loads with
 * tally_load_file(), and the native test files are not taken for another harness's. */
#include <stdio.h>

#include "check.h"
#include "util/internal.h"

static const struct {
    const char *file;
    tally_input_kind kind; /* TALLY_INPUT_AUTO: not detected */
} files[] = {
    {"hyperfine/basic.json", TALLY_INPUT_HYPERFINE},
    {"hyperfine/scan.json", TALLY_INPUT_HYPERFINE},
    {"hyperfine/list.json", TALLY_INPUT_HYPERFINE},
    {"hyperfine/exit_codes.json", TALLY_INPUT_HYPERFINE},
    {"gbench/repetitions.json", TALLY_INPUT_GBENCH},
    {"gbench/aggregates_only.json", TALLY_INPUT_GBENCH},
    {"gbench/error.json", TALLY_INPUT_GBENCH},
    {"pyperf/suite.json", TALLY_INPUT_PYPERF},
    {"gotest/bench.txt", TALLY_INPUT_GOTEST},
    /* custom units only: the Unit lines say it is go test output */
    {"gotest/units.txt", TALLY_INPUT_GOTEST},
    {"hackbench/runs.txt", TALLY_INPUT_HACKBENCH},
    {"stream/runs.txt", TALLY_INPUT_STREAM},
    {"schbench/runs.txt", TALLY_INPUT_SCHBENCH},
    {"schbench/old.txt", TALLY_INPUT_SCHBENCH},
    {"netperf/classic.txt", TALLY_INPUT_NETPERF},
    {"netperf/omni.txt", TALLY_INPUT_NETPERF},
    {"tbench/runs.txt", TALLY_INPUT_TBENCH},
    {"json/example.json", TALLY_INPUT_NATIVE_JSON},
    {"csv/two-configs.csv", TALLY_INPUT_CSV},
    {"csv/rates.tsv", TALLY_INPUT_TSV},
    {"plain/tip.txt", TALLY_INPUT_PLAIN},
};

static void test_detect(void)
{
    for (size_t i = 0; i < TALLY__COUNT(files); i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", TALLY_TEST_DATA, files[i].file);
        char *data = NULL;
        size_t len = 0;
        if (tally__read_file(&data, &len, path) != TALLY_OK) {
            CHECK(!"cannot read a test file");
            continue;
        }
        tally_input_kind kind = TALLY_INPUT_AUTO;
        CHECK_INT(tally_detect_kind(&kind, data, len), TALLY_OK);
        if (kind != files[i].kind)
            fprintf(stderr, "  %s detected as %s\n", files[i].file, tally_input_kind_name(kind));
        CHECK_INT(kind, files[i].kind);
        tally__free_mem(data);
    }
}

static void test_load(void)
{
    /* auto-detected loads of the importable files, all into one list: labels differ */
    tally_results *r = NULL;
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    size_t loaded = 0;
    for (size_t i = 0; i < TALLY__COUNT(files); i++) {
        if (files[i].kind < TALLY_INPUT_HYPERFINE)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", TALLY_TEST_DATA, files[i].file);
        char label[64];
        snprintf(label, sizeof label, "set%zu", i);
        tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
        opts.label = label;
        /* A label names a file's one configuration: hyperfine's commands are then its cases. */
        if (files[i].kind == TALLY_INPUT_HYPERFINE)
            opts.config_key = "none";
        int rc = tally_load_file(r, path, &opts);
        if (files[i].kind == TALLY_INPUT_GBENCH && (i == 5 || i == 6)) {
            /* aggregates only / error_occurred: refused, and nothing added */
            CHECK(rc != TALLY_OK);
            CHECK_INT(tally_results_count(r), loaded);
            continue;
        }
        CHECK_INT(rc, TALLY_OK);
        loaded++;
        tally_resultset *rs = tally_results_find(r, label);
        CHECK(rs != NULL);
        CHECK_STR(rs ? tally_resultset_meta_get(rs, "harness") : NULL,
                  tally_input_kind_name(files[i].kind));
    }
    CHECK_INT(tally_results_count(r), loaded);
    tally_results_free(r);

    /* bare netperf -P 0 rows carry no mark of netperf: an explicit kind loads them */
    r = NULL;
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    char path[1024];
    snprintf(path, sizeof path, "%s/netperf/p0.txt", TALLY_TEST_DATA);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = TALLY_INPUT_NETPERF;
    CHECK_INT(tally_load_file(r, path, &opts), TALLY_OK);
    CHECK_INT(tally_results_count(r), 1);
    tally_results_free(r);
}

int main(void)
{
    test_detect();
    test_load();
    return check_summary();
}
