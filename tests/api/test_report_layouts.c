/*
 * Golden files of the HTML and Markdown layouts for the inputs that stress them
 * (tests/data/layouts/README.md): go's 36 long-named CRC cases, five configurations of three
 * benchmarks of 15 cases, hyperfine's two commands and its parameter scan. The numbers in them
 * are the report's, checked against R and SciPy by the statistics tests; what these files pin
 * is the layout: the ranked changes, case labels without their common prefix, the log-ratio
 * change axis, the swept parameter's axis title, folded Markdown tables that fit the column.
 * Each golden was reviewed rendered (Chromium at 1400 and 400 px; the Markdown in a 912 px
 * column). The HTML leaves out the per-case plots (omit_samples), which the layouts do not
 * change, to keep the files small.
 */
#include "test_report_common.h"

/* tests/data/layouts/NAME, found next to the harness header as golden_path does. */
static void data_path(char *out, size_t size, const char *name)
{
    char golden[1024];
    golden_path(golden, sizeof golden, "");
    /* ".../tests/golden/report/" -> ".../tests/data/layouts/NAME" */
    size_t len = strlen(golden) - strlen("golden/report/");
    snprintf(out, size, "%.*sdata/layouts/%s", (int)len, golden, name);
}

static tally_report *report_of(const char *const *specs, size_t n, int omit_samples)
{
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    for (size_t i = 0; i < n; i++) {
        char spec[1200], path[1024];
        const char *eq = strchr(specs[i], '=');
        data_path(path, sizeof path, eq ? eq + 1 : specs[i]);
        if (eq)
            snprintf(spec, sizeof spec, "%.*s=%s", (int)(eq - specs[i]), specs[i], path);
        else
            snprintf(spec, sizeof spec, "%s", path);
        CHECK_INT(tally_load_spec(list, spec, NULL), TALLY_OK);
    }
    tally_report_options ro = TALLY_REPORT_OPTIONS_INIT;
    ro.omit_samples = omit_samples;
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, &ro), TALLY_OK);
    tally_results_free(list);
    return r;
}

static void check_layout(const tally_report *r, tally_format format, const char *golden)
{
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = format;
    char *text = NULL;
    CHECK_INT(tally_report_render(&text, NULL, r, &o), TALLY_OK);
    if (text)
        check_golden(text, golden);
    tally_free(text);
}

int main(void)
{
    static const char *const crc[] = { "base=crc_base.txt", "new=crc_new.txt" };
    static const char *const five[] = { "five_configs.csv" };
    static const char *const gzip[] = { "hyperfine_gzip.json" };
    static const char *const scan[] = { "hyperfine_scan.json" };

    tally_report *r = report_of(crc, 2, 1);
    check_layout(r, TALLY_FORMAT_HTML, "layout_crc.html");
    check_layout(r, TALLY_FORMAT_MARKDOWN, "layout_crc.md");
    tally_report_free(r);

    r = report_of(five, 1, 1);
    check_layout(r, TALLY_FORMAT_HTML, "layout_five_configs.html");
    check_layout(r, TALLY_FORMAT_MARKDOWN, "layout_five_configs.md");
    tally_report_free(r);

    r = report_of(gzip, 1, 1);
    check_layout(r, TALLY_FORMAT_HTML, "layout_hyperfine.html");
    check_layout(r, TALLY_FORMAT_MARKDOWN, "layout_hyperfine.md");
    tally_report_free(r);

    r = report_of(scan, 1, 1);
    check_layout(r, TALLY_FORMAT_HTML, "layout_hyperfine_scan.html");
    tally_report_free(r);
    return check_summary();
}
