/* `go test -bench` text output, the input of benchstat:
 *   goos: linux                          configuration lines "key: value" -> metadata
 *   BenchmarkSort-2  148206  216.3 ns/op  8 B/op  1 allocs/op
 * Every unit of a result line is a separate benchmark named after the unit, with benchstat's
 * normalisation (ns/... -> sec/..., value * 1e-9; MB/s -> B/s, value * 1e6). The case is the
 * benchmark name without its "Benchmark" prefix, keeping the -N GOMAXPROCS suffix as benchstat's
 * default row key (.fullname) does; N is also kept as case metadata "gomaxprocs". Repeated
 * lines (-count) are the samples. When the file holds several packages, case names are
 * qualified as "<pkg>.<name>". Other lines (PASS, ok, test logs) are ignored. */
#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

#define MAX_FIELDS 64

/* A Go benchmark line starts with "Benchmark" followed by end or a non-lowercase character. */
static int is_result_name(const char *s, size_t len)
{
    if (!tally__starts_with(s, len, "Benchmark"))
        return 0;
    return len == 9 || !(s[9] >= 'a' && s[9] <= 'z');
}

/* benchfmt's rule: a key starts with a lowercase letter and holds no blanks or capitals. */
static int config_key_len(const char *s, size_t len)
{
    if (len == 0 || !(s[0] >= 'a' && s[0] <= 'z'))
        return 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == ':')
            return i + 1 < len && s[i + 1] != ' ' && s[i + 1] != '\t' ? 0 : (int)i;
        if (s[i] == ' ' || s[i] == '\t' || (s[i] >= 'A' && s[i] <= 'Z'))
            return 0;
    }
    return 0;
}

static int sniff(const char *data, size_t len)
{
    int result = 0, config = 0;
    if (tally__sniff_line_starts(data, len, "Benchmark", 16384)) {
        /* a result line carries a unit ending in "/op" or "/s" */
        result = tally__sniff_has(data, len, "/op", 16384) || tally__sniff_has(data, len, "/s", 16384);
    }
    config = tally__sniff_line_starts(data, len, "goos:", 4096) ||
             tally__sniff_line_starts(data, len, "pkg:", 4096);
    if (result && config)
        return 90;
    return result ? 70 : 0;
}

static int count_packages(const char *data, size_t len, const char *name)
{
    tally__lines l;
    tally__lines_init(&l, name, data, len);
    const char *line, *first = NULL;
    size_t n, first_len = 0;
    int rc, count = 0;
    while ((rc = tally__lines_next(&l, &line, &n)) > 0) {
        if (!tally__starts_with(line, n, "pkg:"))
            continue;
        size_t vlen = n - 4;
        const char *v = tally__trim(line + 4, &vlen);
        if (first == NULL) {
            first = v, first_len = vlen, count = 1;
        } else if (vlen != first_len || memcmp(v, first, vlen) != 0) {
            count = 2;
        }
    }
    return rc < 0 ? rc : count;
}

static int config_line(tally_resultset *rs, const char *line, size_t n, size_t klen,
                       char **pkg)
{
    char key[128];
    if (klen >= sizeof key)
        return TALLY_OK;
    memcpy(key, line, klen);
    key[klen] = '\0';
    size_t vlen = n - klen - 1;
    const char *v = tally__trim(line + klen + 1, &vlen);
    char *value = tally__strndup(v, vlen);
    if (value == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    int rc = TALLY_OK;
    /* The first value of a key describes the file; later ones change what follows (pkg). */
    if (tally_resultset_meta_get(rs, key) == NULL)
        rc = tally_resultset_meta_set(rs, key, value);
    if (strcmp(key, "pkg") == 0) {
        tally__free_mem(*pkg);
        *pkg = value;
    } else {
        tally__free_mem(value);
    }
    return rc;
}

/* benchstat's unit normalisation. */
static void normalise(char *unit, size_t size, double *scale, const tally__field *f)
{
    *scale = 1;
    if (f->len > 3 && memcmp(f->s, "ns/", 3) == 0) {
        snprintf(unit, size, "sec/%.*s", (int)(f->len - 3), f->s + 3);
        *scale = 1e-9;
    } else if (tally__field_is(f, "MB/s")) {
        snprintf(unit, size, "B/s");
        *scale = 1e6;
    } else {
        snprintf(unit, size, "%.*s", (int)f->len, f->s);
    }
}

static int result_line(tally_resultset *rs, const tally__lines *l, const tally__field *f,
                       size_t nf, const char *pkg, int qualify, const char *base)
{
    const char *name = l->name;
    if (nf > MAX_FIELDS)
        return tally__error_at(TALLY_ELIMIT, name, l->lineno, f[MAX_FIELDS - 1].col,
                               "more than %d fields on a benchmark line", MAX_FIELDS);
    for (size_t i = 0; i < f[1].len; i++)
        if (f[1].s[i] < '0' || f[1].s[i] > '9')
            return tally__error_at(TALLY_EPARSE, name, l->lineno, f[1].col,
                                   "expected the iteration count, found '%.*s'", (int)f[1].len,
                                   f[1].s);
    if (nf == 2)
        return tally__error_at(TALLY_EPARSE, name, l->lineno, f[1].col + f[1].len,
                               "expected a value and a unit after the iteration count");
    if (nf % 2 != 0)
        return tally__error_at(TALLY_EPARSE, name, l->lineno, f[nf - 1].col + f[nf - 1].len,
                               "value '%.*s' without a unit", (int)f[nf - 1].len, f[nf - 1].s);
    /* Case name: without "Benchmark", qualified by the package when the file has several. */
    char cname[512];
    const tally__field *bn = &f[0];
    int len = (int)(bn->len > 9 ? bn->len - 9 : bn->len);
    const char *start = bn->len > 9 ? bn->s + 9 : bn->s;
    int w = qualify && pkg ? snprintf(cname, sizeof cname, "%s.%.*s", pkg, len, start)
                           : snprintf(cname, sizeof cname, "%.*s", len, start);
    if (w < 0 || (size_t)w >= sizeof cname)
        return tally__error_at(TALLY_ELIMIT, name, l->lineno, bn->col,
                               "benchmark name longer than %zu bytes", sizeof cname - 1);
    /* The -N suffix: GOMAXPROCS, as benchfmt reads it (/gomaxprocs=N). */
    const char *dash = NULL;
    size_t clen = strlen(cname);
    for (size_t i = clen; i > 1 && cname[i - 1] >= '0' && cname[i - 1] <= '9'; i--)
        if (cname[i - 2] == '-')
            dash = cname + i - 2;
    for (size_t i = 2; i + 1 < nf; i += 2) {
        double v, scale;
        int rc = tally__field_number(&v, &f[i], name, l->lineno, "value", "a number");
        if (rc != TALLY_OK)
            return rc;
        char unit[128], bench[384];
        normalise(unit, sizeof unit, &scale, &f[i + 1]);
        if (base)
            snprintf(bench, sizeof bench, "%s %s", base, unit);
        else
            snprintf(bench, sizeof bench, "%s", unit);
        size_t ulen = strlen(unit);
        tally_direction dir = ulen > 2 && strcmp(unit + ulen - 2, "/s") == 0
                                  ? TALLY_HIGHER_IS_BETTER
                                  : TALLY_LOWER_IS_BETTER;
        rc = tally__import_sample(rs, bench, unit, dir, cname, v * scale);
        if (rc == TALLY_OK && dash) {
            tally_case *c = tally_benchmark_case_find(tally_resultset_benchmark_find(rs, bench),
                                                      cname);
            rc = tally_case_meta_set(c, "gomaxprocs", dash + 1);
        }
        if (rc != TALLY_OK)
            return tally__error_at(rc, name, l->lineno, f[i].col, "%s",
                                   tally_error_last()->message);
    }
    return TALLY_OK;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    int packages = count_packages(data, len, name);
    if (packages < 0)
        return packages;
    tally_resultset *rs;
    int rc = tally__import_begin(&rs, into, name, opts, "gotest");
    if (rc != TALLY_OK)
        return rc;
    const char *base = opts && opts->benchmark && opts->benchmark[0] ? opts->benchmark : NULL;
    char *pkg = NULL;
    size_t results = 0;
    tally__lines l;
    tally__lines_init(&l, name, data, len);
    const char *line;
    size_t n;
    while ((rc = tally__lines_next(&l, &line, &n)) > 0) {
        tally__field f[MAX_FIELDS];
        int klen = config_key_len(line, n);
        rc = TALLY_OK;
        if (klen > 0) {
            rc = config_line(rs, line, n, (size_t)klen, &pkg);
        } else if (is_result_name(line, n)) {
            size_t nf = tally__split_fields(f, MAX_FIELDS, line, n);
            if (nf < 2)
                continue; /* "BenchmarkX" alone: the name printed before a log (go test -v) */
            rc = result_line(rs, &l, f, nf, pkg, packages > 1, base);
            results++;
        }
        if (rc != TALLY_OK)
            break;
    }
    tally__free_mem(pkg);
    if (rc == 0 && results == 0)
        rc = tally__import_none_found(name, l.lineno, "benchmark result lines (BenchmarkX  N  value unit)");
    return rc < 0 ? rc : TALLY_OK;
}

const tally__importer tally__importer_gotest = {
    .kind = TALLY_INPUT_GOTEST, .name = "gotest", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_SKIPS_LINES,
};
