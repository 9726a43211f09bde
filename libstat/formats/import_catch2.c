/* Catch2's XML reporter (-r xml, Catch2 2.x and 3.x) with benchmarks:
 *   <TestCase name="Fibonacci" ...>
 *     <BenchmarkResults name="fib 20" samples="100" resamples="100000" iterations="2"
 *                       clockResolution="18.7" estimatedDuration="3.1e+06">
 *       <!--All values in nano seconds-->
 *       <mean value="..." lowerBound="..." upperBound="..." ci="0.95"/>
 *       <standardDeviation value="..." lowerBound="..." upperBound="..." ci="0.95"/>
 *       <outliers variance="..." lowMild="0" lowSevere="0" highMild="1" highSevere="0"/>
 *     </BenchmarkResults>
 * The reporter writes no per-sample times (its benchmarkEnded writes the three elements above
 * only), so each benchmark is a summary-only case: n = samples, the mean, and the standard
 * deviation, which Catch2 computes with n in the denominator (its standard_deviation(),
 * catch_stats.cpp) and which is turned into the sample SD (n - 1) as sd sqrt(n / (n - 1)). The
 * mean's bootstrap interval is kept as reported.mean.lower / reported.mean.upper for
 * tally_validate(). With --benchmark-no-analysis Catch2 writes ci="0" and a standard deviation
 * of 0 it did not compute: such a file cannot be compared and is refused. The test case is the
 * benchmark, the BENCHMARK's name the case, nanoseconds, lower is better. The XML read is the
 * subset Catch2's XmlWriter writes: elements, attributes, comments, the declaration, text, and
 * the five entities and character references in attribute values. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

static int sniff(const char *data, size_t len)
{
    if (!tally__sniff_has(data, len, "<BenchmarkResults", TALLY__SNIFF_MAX))
        return 0;
    return tally__sniff_has(data, len, "<Catch", 1024) ? 95 : 80;
}

/* ---- the XML subset ---- */

#define MAX_ATTRS 16

typedef struct xml_attr {
    const char *name;
    size_t name_len;
    char *value; /* unescaped, NUL-terminated, in the reader's scratch */
    unsigned long line, col;
} xml_attr;

typedef struct xml {
    const char *name; /* the file, for messages */
    const char *p, *end;
    const char *line_start;
    unsigned long line;
    /* the element last read */
    const char *tag;
    size_t tag_len;
    int closing;     /* </tag> */
    int empty;       /* <tag/> */
    unsigned long tag_line, tag_col;
    xml_attr attrs[MAX_ATTRS];
    size_t nattrs;
    tally__buf scratch;
} xml;

static unsigned long col_of(const xml *x, const char *at)
{
    return (unsigned long)(at - x->line_start) + 1;
}

static void advance(xml *x, const char *to)
{
    for (const char *q = x->p; q < to; q++)
        if (*q == '\n') {
            x->line++;
            x->line_start = q + 1;
        }
    x->p = to;
}

static int xml_error(const xml *x, const char *at, const char *what)
{
    return tally__error_at(TALLY_EPARSE, x->name, x->line, col_of(x, at), "%s", what);
}

static int is_name(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-' || c == '.' || c == ':';
}

/* An attribute value's text with its entities replaced, appended to x->scratch (NUL ended). */
static int unescape(xml *x, const char *s, const char *e)
{
    static const struct { const char *name; char c; } entities[] = {
        { "lt;", '<' }, { "gt;", '>' }, { "amp;", '&' }, { "quot;", '"' }, { "apos;", '\'' },
    };
    while (s < e) {
        if (*s != '&') {
            tally__buf_append(&x->scratch, s++, 1);
            continue;
        }
        const char *semi = memchr(s, ';', (size_t)(e - s));
        size_t n = semi ? (size_t)(semi - s) : 0;
        int done = 0;
        for (size_t i = 0; semi && !done && i < TALLY__COUNT(entities); i++)
            if (strlen(entities[i].name) == n && memcmp(s + 1, entities[i].name, n) == 0) {
                tally__buf_append(&x->scratch, &entities[i].c, 1);
                done = 1;
            }
        if (!done && semi && n >= 2 && s[1] == '#') {
            unsigned long cp = 0;
            int hex = s[2] == 'x', digits = 0;
            for (const char *d = s + 2 + hex; d < semi && cp <= 0x10FFFF; d++, digits++) {
                int v = *d >= '0' && *d <= '9'             ? *d - '0'
                        : hex && *d >= 'a' && *d <= 'f' ? *d - 'a' + 10
                        : hex && *d >= 'A' && *d <= 'F' ? *d - 'A' + 10
                                                         : -1;
                if (v < 0) {
                    digits = 0;
                    break;
                }
                cp = cp * (hex ? 16 : 10) + (unsigned long)v;
            }
            if (digits > 0 && cp > 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF)) {
                char u[4];
                size_t k = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
                if (k == 1) {
                    u[0] = (char)cp;
                } else {
                    for (size_t j = k - 1; j > 0; j--, cp >>= 6)
                        u[j] = (char)(0x80 | (cp & 0x3F));
                    u[0] = (char)((k == 2 ? 0xC0 : k == 3 ? 0xE0 : 0xF0) | cp);
                }
                tally__buf_append(&x->scratch, u, k);
                done = 1;
            }
        }
        if (!done)
            return xml_error(x, s, "an unknown entity or a bare '&' in an attribute value");
        s = semi + 1;
    }
    tally__buf_append(&x->scratch, "", 1);
    return x->scratch.failed ? tally__oom() : TALLY_OK;
}

/* The attributes after a tag's name, up to '>' or "/>". */
static int read_attrs(xml *x)
{
    size_t offsets[MAX_ATTRS];
    x->nattrs = 0;
    x->scratch.len = 0;
    for (;;) {
        const char *q = x->p;
        while (q < x->end && tally__json_is_ws(*q))
            q++;
        advance(x, q);
        if (q >= x->end)
            return xml_error(x, q, "the file ends inside a tag");
        if (*q == '>' || (*q == '/' && q + 1 < x->end && q[1] == '>')) {
            x->empty = *q == '/';
            advance(x, q + (x->empty ? 2 : 1));
            break;
        }
        const char *n = q;
        while (q < x->end && is_name(*q))
            q++;
        if (q == n || q + 1 >= x->end || *q != '=' || (q[1] != '"' && q[1] != '\''))
            return xml_error(x, n, "expected an attribute name=\"value\"");
        char quote = q[1];
        const char *v = q + 2, *ve = memchr(v, quote, (size_t)(x->end - v));
        if (ve == NULL || memchr(v, '<', (size_t)(ve - v)))
            return xml_error(x, v, "an attribute value without its closing quote");
        if (x->nattrs == MAX_ATTRS)
            return tally__error_at(TALLY_ELIMIT, x->name, x->line, col_of(x, n),
                                   "more than %d attributes on one element", MAX_ATTRS);
        xml_attr *a = &x->attrs[x->nattrs];
        a->name = n;
        a->name_len = (size_t)(q - n);
        a->line = x->line;
        a->col = col_of(x, n);
        offsets[x->nattrs++] = x->scratch.len;
        int rc = unescape(x, v, ve);
        if (rc != TALLY_OK)
            return rc;
        advance(x, ve + 1);
    }
    for (size_t i = 0; i < x->nattrs; i++)
        x->attrs[i].value = x->scratch.data + offsets[i];
    return TALLY_OK;
}

/* The next element tag into x (1), 0 at the end of the input, or an error. Text, comments, the
 * declaration and processing instructions are stepped over. */
static int next_tag(xml *x)
{
    for (;;) {
        const char *lt = memchr(x->p, '<', (size_t)(x->end - x->p));
        if (lt == NULL) {
            advance(x, x->end);
            return 0;
        }
        advance(x, lt);
        const char *q = lt + 1;
        size_t left = (size_t)(x->end - q);
        const char *close = NULL;
        if (left >= 3 && memcmp(q, "!--", 3) == 0) {
            for (const char *d = q + 3; close == NULL && d + 3 <= x->end; d++)
                if (memcmp(d, "-->", 3) == 0)
                    close = d + 2;
        } else if (left >= 1 && (*q == '?' || *q == '!'))
            close = memchr(q, '>', left);
        if (left >= 1 && (*q == '?' || *q == '!')) {
            if (close == NULL)
                return xml_error(x, lt, "a comment or declaration without its end");
            advance(x, close + 1);
            continue;
        }
        x->closing = left >= 1 && *q == '/';
        q += x->closing;
        const char *n = q;
        while (q < x->end && is_name(*q))
            q++;
        if (q == n)
            return xml_error(x, lt, "expected an element name after '<'");
        x->tag = n;
        x->tag_len = (size_t)(q - n);
        x->tag_line = x->line;
        x->tag_col = col_of(x, lt);
        advance(x, q);
        if (x->closing) {
            while (q < x->end && tally__json_is_ws(*q))
                q++;
            if (q >= x->end || *q != '>')
                return xml_error(x, q, "expected '>' closing the end tag");
            advance(x, q + 1);
            x->nattrs = 0;
            x->empty = 0;
            return 1;
        }
        int rc = read_attrs(x);
        return rc == TALLY_OK ? 1 : rc;
    }
}

static int tag_is(const xml *x, const char *name)
{
    return strlen(name) == x->tag_len && memcmp(x->tag, name, x->tag_len) == 0;
}

static const xml_attr *attr(const xml *x, const char *name)
{
    for (size_t i = 0; i < x->nattrs; i++)
        if (strlen(name) == x->attrs[i].name_len &&
            memcmp(x->attrs[i].name, name, x->attrs[i].name_len) == 0)
            return &x->attrs[i];
    return NULL;
}

/* Attribute `key` of the element last read as a finite number. */
static int attr_number(double *v, const xml *x, const char *key)
{
    const xml_attr *a = attr(x, key);
    if (a == NULL)
        return tally__error_at(TALLY_EPARSE, x->name, x->tag_line, x->tag_col,
                               "<%.*s> without its %s attribute", (int)x->tag_len, x->tag, key);
    int rc = tally__parse_double(v, a->value, strlen(a->value));
    if (rc == TALLY_ENONFINITE)
        return tally__error_at(rc, x->name, a->line, a->col, "%s '%s' is not finite", key,
                               a->value);
    if (rc != TALLY_OK)
        return tally__error_at(rc, x->name, a->line, a->col, "expected a number as %s, found "
                               "'%.40s'", key, a->value);
    return TALLY_OK;
}

/* ---- Catch2's elements ---- */

typedef struct bench {
    double samples, mean, mean_lo, mean_hi, mean_ci, sd;
    int has_mean, has_sd;
    unsigned long line, col; /* of <BenchmarkResults> */
} bench;

/* The case of one <BenchmarkResults> whose children have been read. */
static int finish(tally_case *c, const bench *b, const char *name)
{
    if (!b->has_mean || !b->has_sd)
        return tally__error_at(TALLY_EPARSE, name, b->line, b->col,
                               "<BenchmarkResults> without its <mean> and <standardDeviation>");
    if (!(b->samples >= 1 && b->samples == floor(b->samples) && b->samples < 1e15))
        return tally__error_at(TALLY_EPARSE, name, b->line, b->col,
                               "samples must be a whole number >= 1, found %g", b->samples);
    if (b->mean_ci == 0 && b->samples >= 2)
        return tally__error_at(TALLY_ENODATA, name, b->line, b->col,
                               "run with --benchmark-no-analysis: Catch2 wrote no standard "
                               "deviation, so the benchmark cannot be compared; run without it");
    tally_case_summary s = { .size = sizeof s };
    s.n = (size_t)b->samples;
    s.mean = b->mean;
    s.sd = s.n >= 2 ? b->sd * sqrt(b->samples / (b->samples - 1)) : NAN;
    s.interval_low = s.interval_high = NAN;
    int rc = tally__import_case_summary(c, &s, name, NULL, b->line, b->col);
    if (rc == TALLY_OK && s.n >= 2)
        rc = tally__import_reported(c, "mean.lower", b->mean_lo);
    if (rc == TALLY_OK && s.n >= 2)
        rc = tally__import_reported(c, "mean.upper", b->mean_hi);
    if (rc == TALLY_OK)
        rc = tally__import_meta_number(c, "catch2.stddev_population", b->sd);
    if (rc == TALLY_OK)
        rc = tally__import_meta_number(c, "ci", b->mean_ci);
    return rc;
}

/* The children of a <BenchmarkResults> up to its end tag. */
static int read_children(xml *x, tally_case *c, bench *b)
{
    int rc;
    while ((rc = next_tag(x)) == 1) {
        if (x->closing && tag_is(x, "BenchmarkResults"))
            return finish(c, b, x->name);
        if (x->closing)
            continue;
        if (tag_is(x, "failed")) {
            const xml_attr *m = attr(x, "message");
            return tally__error_at(TALLY_ERUN, x->name, x->tag_line, x->tag_col,
                                   "the benchmark failed: %s", m ? m->value : "(no message)");
        }
        if (tag_is(x, "mean")) {
            rc = attr_number(&b->mean, x, "value");
            if (rc == TALLY_OK)
                rc = attr_number(&b->mean_lo, x, "lowerBound");
            if (rc == TALLY_OK)
                rc = attr_number(&b->mean_hi, x, "upperBound");
            if (rc == TALLY_OK)
                rc = attr_number(&b->mean_ci, x, "ci");
            b->has_mean = 1;
        } else if (tag_is(x, "standardDeviation")) {
            rc = attr_number(&b->sd, x, "value");
            b->has_sd = 1;
        } else if (tag_is(x, "outliers")) {
            static const char *const keys[] = { "variance", "lowMild", "lowSevere",
                                                "highMild", "highSevere" };
            for (size_t i = 0; rc == 1 && i < TALLY__COUNT(keys); i++) {
                double v;
                char key[32];
                rc = attr_number(&v, x, keys[i]);
                snprintf(key, sizeof key, "outliers.%s", keys[i]);
                if (rc == TALLY_OK)
                    rc = tally__import_meta_number(c, key, v);
                rc = rc == TALLY_OK ? 1 : rc;
            }
        }
        if (rc < 0)
            return rc;
    }
    return rc < 0 ? rc
                  : tally__error_at(TALLY_EPARSE, x->name, b->line, b->col,
                                    "the file ends inside <BenchmarkResults>");
}

/* One <BenchmarkResults>: its case under the test case's benchmark. */
static int one_benchmark(xml *x, tally_resultset *rs, const char *test)
{
    const xml_attr *n = attr(x, "name");
    if (n == NULL)
        return tally__error_at(TALLY_EPARSE, x->name, x->tag_line, x->tag_col,
                               "<BenchmarkResults> without its name");
    bench b;
    memset(&b, 0, sizeof b);
    b.line = x->tag_line;
    b.col = x->tag_col;
    char *casename = tally__strdup(n->value);
    double iterations = 0, resamples = 0;
    int rc = casename ? attr_number(&b.samples, x, "samples") : tally__oom();
    if (rc == TALLY_OK && attr(x, "iterations"))
        rc = attr_number(&iterations, x, "iterations");
    if (rc == TALLY_OK && attr(x, "resamples"))
        rc = attr_number(&resamples, x, "resamples");
    tally_benchmark *bm = NULL;
    tally_case *c = NULL;
    if (rc == TALLY_OK)
        rc = tally__import_benchmark(&bm, rs, test, "ns", TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_OK && tally_benchmark_case_find(bm, casename))
        rc = tally__error_at(TALLY_EEXISTS, x->name, b.line, b.col,
                             "benchmark \"%s\" appears twice in test case \"%s\"", casename,
                             test);
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(&c, bm, casename);
    if (rc == TALLY_OK && attr(x, "iterations"))
        rc = tally__import_meta_number(c, "iterations", iterations);
    if (rc == TALLY_OK && attr(x, "resamples"))
        rc = tally__import_meta_number(c, "resamples", resamples);
    tally__free_mem(casename);
    if (rc == TALLY_OK && x->empty)
        rc = tally__error_at(TALLY_EPARSE, x->name, b.line, b.col,
                             "<BenchmarkResults/> without its <mean> and <standardDeviation>");
    return rc == TALLY_OK ? read_children(x, c, &b) : rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    xml x;
    memset(&x, 0, sizeof x);
    x.name = name;
    x.p = x.line_start = data;
    x.end = data + len;
    x.line = 1;
    x.scratch = (tally__buf)TALLY__BUF_INIT;
    tally_resultset *rs;
    char *test = NULL;
    size_t found = 0;
    int rc = tally__import_begin(&rs, into, name, opts, "catch2");
    while (rc == TALLY_OK && (rc = next_tag(&x)) == 1) {
        rc = TALLY_OK;
        if (x.closing)
            continue;
        if (tag_is(&x, "TestCase")) {
            const xml_attr *n = attr(&x, "name");
            tally__free_mem(test);
            test = tally__strdup(n ? n->value : "catch2");
            if (test == NULL)
                rc = tally__oom();
        } else if (tag_is(&x, "BenchmarkResults")) {
            rc = one_benchmark(&x, rs, test ? test : "catch2");
            found++;
        } else if ((tag_is(&x, "Catch") || tag_is(&x, "Catch2TestRun")) && attr(&x, "name")) {
            rc = tally_resultset_meta_set(rs, "test_run", attr(&x, "name")->value);
        }
    }
    tally__free_mem(test);
    tally__buf_dispose(&x.scratch);
    if (rc == 0 && found == 0)
        rc = tally__import_none_found(name, x.line, "<BenchmarkResults>");
    return rc < 0 ? rc : TALLY_OK;
}

const tally__importer tally__importer_catch2 = {
    .name = "catch2", .sniff = sniff, .parse = parse,
};
