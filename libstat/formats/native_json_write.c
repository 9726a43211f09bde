/* Writing tally's own JSON result sets (docs/formats.md). Numbers are printed with the shortest
 * text that reads back as the same double, so a file read back gives identical samples. */
#include <math.h>
#include <string.h>

#include "util/internal.h"
#include "formats/native_json.h"

static void put_member(tally__buf *b, const char *indent, const char *key, const char *value,
                       int last)
{
    tally__buf_puts(b, indent);
    tally__buf_json_string(b, key);
    tally__buf_append(b, ": ", 2);
    tally__buf_json_string(b, value);
    tally__buf_puts(b, last ? "\n" : ",\n");
}

typedef int (*meta_getter)(const char **key, const char **value, const void *owner, size_t i);

static int rs_meta_at(const char **key, const char **value, const void *rs, size_t i)
{
    return tally_resultset_meta_at(key, value, rs, i);
}

static int case_meta_at(const char **key, const char **value, const void *c, size_t i)
{
    return tally_case_meta_at(key, value, c, i);
}

/* An entry ending in '.' names every key it begins ("store." for "store.id"). */
static int skipped(const char *key, const char *const *skip)
{
    for (; skip && *skip; skip++) {
        size_t n = strlen(*skip);
        if (n > 0 && (*skip)[n - 1] == '.' ? strncmp(key, *skip, n) == 0 : strcmp(key, *skip) == 0)
            return 1;
    }
    return 0;
}

/* `"metadata": {...}` on one line, leaving out the keys of the NULL-ended list `skip`. */
static void put_metadata_but(tally__buf *b, const void *owner, size_t count, meta_getter at,
                             const char *const *skip)
{
    tally__buf_puts(b, "\"metadata\": {");
    int first = 1;
    for (size_t i = 0; i < count; i++) {
        const char *key, *value;
        at(&key, &value, owner, i);
        if (skipped(key, skip))
            continue;
        tally__buf_puts(b, first ? "" : ", ");
        first = 0;
        tally__buf_json_string(b, key);
        tally__buf_append(b, ": ", 2);
        tally__buf_json_string(b, value);
    }
    tally__buf_puts(b, "}");
}

static void put_metadata(tally__buf *b, const void *owner, size_t count, meta_getter at)
{
    put_metadata_but(b, owner, count, at, NULL);
}

static void put_samples(tally__buf *b, const tally_case *c)
{
    const double *x = tally_case_samples(c);
    size_t n = tally_case_sample_count(c);
    tally__buf_puts(b, "\"samples\": [");
    for (size_t i = 0; i < n; i++) {
        char num[32];
        tally__number_format(num, x[i]);
        if (i)
            tally__buf_append(b, ", ", 2);
        tally__buf_puts(b, num);
    }
    tally__buf_puts(b, "]");
}

/* A summary-only case: "summary": {"n", "mean", "sd", "interval", "interval_level"}, the figures
 * the harness gave (a derived sd is left out: the reader derives it again). */
static void put_summary(tally__buf *b, const tally_case *c)
{
    tally_case_summary s = { .size = sizeof s };
    if (tally_case_summary_result(&s, c) != TALLY_OK) {
        b->failed = 1;
        return;
    }
    char num[32];
    tally__buf_printf(b, "\"summary\": {\"n\": %zu, \"mean\": ", s.n);
    tally__number_format(num, s.mean);
    tally__buf_puts(b, num);
    if (!isnan(s.sd) && !s.sd_derived) {
        tally__number_format(num, s.sd);
        tally__buf_printf(b, ", \"sd\": %s", num);
    }
    if (s.interval_level != 0) {
        tally__number_format(num, s.interval_low);
        tally__buf_printf(b, ", \"interval\": [%s, ", num);
        tally__number_format(num, s.interval_high);
        tally__buf_printf(b, "%s], ", num);
        tally__number_format(num, s.interval_level);
        tally__buf_printf(b, "\"interval_level\": %s", num);
    }
    tally__buf_puts(b, "}");
}

static void put_case(tally__buf *b, const tally_case *c, int last)
{
    tally__buf_puts(b, "            {\"name\": ");
    tally__buf_json_string(b, tally_case_name(c));
    tally__buf_puts(b, ", ");
    if (tally_case_meta_count(c) > 0) {
        put_metadata(b, c, tally_case_meta_count(c), case_meta_at);
        tally__buf_puts(b, ", ");
    }
    if (tally_case_is_summary_only(c))
        put_summary(b, c);
    else
        put_samples(b, c);
    tally__buf_puts(b, last ? "}\n" : "},\n");
}

static void put_benchmark(tally__buf *b, const tally_benchmark *bench, int last)
{
    const char *in = "          ";
    tally__buf_puts(b, "        {\n");
    put_member(b, in, "name", tally_benchmark_name(bench), 0);
    put_member(b, in, "unit", tally_benchmark_unit(bench), 0);
    put_member(b, in, "better", tally_direction_name(tally_benchmark_direction(bench)), 0);
    if (tally_benchmark_statistic(bench) != TALLY_STAT_DEFAULT)
        put_member(b, in, "statistic", tally_statistic_name(tally_benchmark_statistic(bench)), 0);
    tally__buf_puts(b, "          \"cases\": [\n");
    size_t n = tally_benchmark_case_count(bench);
    for (size_t i = 0; i < n; i++)
        put_case(b, tally_benchmark_case_at(bench, i), i + 1 == n);
    tally__buf_puts(b, "          ]\n");
    tally__buf_puts(b, last ? "        }\n" : "        },\n");
}

static void put_resultset(tally__buf *b, const tally_resultset *rs, int last,
                          const char *const *skip)
{
    tally__buf_puts(b, "    {\n");
    put_member(b, "      ", "label", tally_resultset_label(rs), 0);
    tally__buf_puts(b, "      ");
    put_metadata_but(b, rs, tally_resultset_meta_count(rs), rs_meta_at, skip);
    tally__buf_puts(b, ",\n");
    tally__buf_puts(b, "      \"benchmarks\": [\n");
    size_t n = tally_resultset_benchmark_count(rs);
    for (size_t i = 0; i < n; i++)
        put_benchmark(b, tally_resultset_benchmark_at(rs, i), i + 1 == n);
    tally__buf_puts(b, "      ]\n");
    tally__buf_puts(b, last ? "    }\n" : "    },\n");
}

/* The reader refuses a case without samples, so the writer does not produce one. */
static int check_writable(const tally_results *r)
{
    for (size_t i = 0; i < tally_results_count(r); i++) {
        const tally_resultset *rs = tally_results_at(r, i);
        for (size_t j = 0; j < tally_resultset_benchmark_count(rs); j++) {
            const tally_benchmark *bench = tally_resultset_benchmark_at(rs, j);
            for (size_t k = 0; k < tally_benchmark_case_count(bench); k++) {
                const tally_case *c = tally_benchmark_case_at(bench, k);
                if (tally_case_sample_count(c) == 0 && !tally_case_is_summary_only(c))
                    return tally__error(TALLY_ENODATA,
                                        "result set '%s', benchmark '%s', case '%s' has no samples",
                                        tally_resultset_label(rs), tally_benchmark_name(bench),
                                        tally_case_name(c));
            }
        }
    }
    return TALLY_OK;
}

int tally_results_to_json(char **out, size_t *len, const tally_results *r)
{
    if (out)
        *out = NULL;
    if (len)
        *len = 0;
    if (out == NULL || r == NULL)
        return tally__error(TALLY_EINVAL, "tally_results_to_json: NULL argument");
    int rc = check_writable(r);
    if (rc != TALLY_OK)
        return rc;
    tally__buf b = TALLY__BUF_INIT;
    tally__buf_printf(&b, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n  \"results\": [\n",
                      TALLY__NATIVE_FORMAT, TALLY__NATIVE_VERSION);
    size_t n = tally_results_count(r);
    for (size_t i = 0; i < n; i++)
        put_resultset(&b, tally_results_at(r, i), i + 1 == n, NULL);
    tally__buf_puts(&b, "  ]\n}\n");
    return tally__buf_detach(out, len, &b);
}

int tally__resultset_json(char **out, size_t *len, const tally_resultset *rs,
                          const char *const *skip_meta)
{
    tally__buf b = TALLY__BUF_INIT;
    put_resultset(&b, rs, 1, skip_meta);
    return tally__buf_detach(out, len, &b);
}

int tally_results_save(const tally_results *r, const char *path)
{
    if (r == NULL || path == NULL)
        return tally__error(TALLY_EINVAL, "tally_results_save: NULL argument");
    if (path[0] == '\0')
        return tally__error(TALLY_EINVAL, "the output path is empty: give a file name");
    char *text;
    size_t len;
    int rc = tally_results_to_json(&text, &len, r);
    if (rc != TALLY_OK)
        return rc;
    rc = tally__write_file_atomic(path, text, len);
    tally__free_mem(text);
    return rc;
}
