/* `go test -bench` text output, the input of benchstat:
 *   goos: linux                          configuration lines "key: value" -> metadata
 *   Unit B/op assume=exact               unit metadata (better=, assume=)
 *   BenchmarkSort-2  148206  216.3 ns/op  8 B/op  1 allocs/op
 * Every unit of a result line is a separate benchmark named after the unit, with benchstat's
 * normalisation (ns/... -> sec/..., value * 1e-9; MB/s -> B/s, value * 1e6). The case is the
 * benchmark name without its "Benchmark" prefix, keeping the -N GOMAXPROCS suffix as benchstat's
 * default row key (.fullname) does; N is also kept as case metadata "gomaxprocs". Repeated
 * lines (-count) are the samples. When the file holds several packages, case names are
 * qualified as "<pkg>.<name>". Other lines (PASS, ok, test logs) are ignored.
 * Configurations follow benchstat's model: the key values in force at a result line are its
 * configuration, so a key (but pkg) whose value changes within the file (`note: before` ...
 * `note: after`) splits it into configurations labelled by the values, and samples measured
 * under different values are never pooled; opts->config_key names the keys that separate
 * configurations instead, and a key that changes but is not among them is refused. */
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
    int result = 0, config = 0, named = 0;
    if (tally__sniff_line_starts(data, len, "Benchmark", 16384)) {
        /* a result line carries a unit ending in "/op" or "/s" */
        result = tally__sniff_has(data, len, "/op", 16384) ||
                 tally__sniff_has(data, len, "/s", 16384);
        named = 1;
    }
    config = tally__sniff_line_starts(data, len, "goos:", 4096) ||
             tally__sniff_line_starts(data, len, "pkg:", 4096);
    /* Unit lines (the benchmark format's unit metadata) say so of any unit, custom ones too. */
    int units = tally__sniff_line_starts(data, len, "Unit ", 4096) ||
                tally__sniff_line_starts(data, len, "Unit\t", 4096);
    if ((result || (named && units)) && (config || units))
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

/* A key of the key lines ("note: before"), as the reading goes. */
typedef struct key_state {
    char *key;
    char *value;              /* in force, or NULL (not set yet, or deleted by "key:") */
    char *first;              /* in force at the first result line, or NULL */
    unsigned long changed_at; /* the first result line under another value; 0: none */
    int separates;            /* a configuration key */
} key_state;

/* A Unit line's metadata of one (tidied) unit. */
typedef struct unit_meta {
    char *unit;
    char better;             /* 'h', 'l', or 0 when not given */
    int exact;               /* assume=exact */
    unsigned long line;      /* the Unit line that said so */
} unit_meta;

/* A configuration met so far: its label and the key values that make it. */
typedef struct config_seen {
    char *label;
    char *signature;
} config_seen;

typedef struct gotest {
    const char *name;
    key_state *keys;
    size_t nkeys, key_cap;
    unit_meta *units;
    size_t nunits, unit_cap;
    config_seen *configs;
    size_t nconfigs, config_cap;
    size_t results;
    tally_resultset *one; /* the file's one configuration, once made (no key separates) */
} gotest;

static void gotest_dispose(gotest *g)
{
    for (size_t i = 0; i < g->nkeys; i++) {
        tally__free_mem(g->keys[i].key);
        tally__free_mem(g->keys[i].value);
        tally__free_mem(g->keys[i].first);
    }
    tally__free_mem(g->keys);
    for (size_t i = 0; i < g->nunits; i++)
        tally__free_mem(g->units[i].unit);
    tally__free_mem(g->units);
    for (size_t i = 0; i < g->nconfigs; i++) {
        tally__free_mem(g->configs[i].label);
        tally__free_mem(g->configs[i].signature);
    }
    tally__free_mem(g->configs);
}

/* Room for one more element of a growable array. */
static int grow(void **items, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return TALLY_OK;
    size_t n = *cap ? *cap * 2 : 8;
    void *bigger = tally__reallocarray(*items, n, size);
    if (bigger == NULL)
        return tally__oom();
    *items = bigger;
    *cap = n;
    return TALLY_OK;
}

static const unit_meta *unit_find(const gotest *g, const char *unit)
{
    for (size_t i = 0; i < g->nunits; i++)
        if (strcmp(g->units[i].unit, unit) == 0)
            return &g->units[i];
    return NULL;
}

static key_state *key_find(gotest *g, const char *key, size_t klen)
{
    for (size_t i = 0; i < g->nkeys; i++)
        if (strlen(g->keys[i].key) == klen && memcmp(g->keys[i].key, key, klen) == 0)
            return &g->keys[i];
    return NULL;
}

/* A key line: its value is in force from here; an empty value removes the key (benchfmt). */
static int key_line(gotest *g, const char *line, size_t n, size_t klen)
{
    key_state *k = key_find(g, line, klen);
    if (k == NULL) {
        int rc = grow((void **)&g->keys, &g->key_cap, g->nkeys, sizeof *g->keys);
        if (rc != TALLY_OK)
            return rc;
        k = &g->keys[g->nkeys];
        memset(k, 0, sizeof *k);
        if ((k->key = tally__strndup(line, klen)) == NULL)
            return tally__oom();
        g->nkeys++;
    }
    size_t vlen = n - klen - 1;
    const char *v = tally__trim(line + klen + 1, &vlen);
    tally__free_mem(k->value);
    k->value = NULL;
    if (vlen > 0 && (k->value = tally__strndup(v, vlen)) == NULL)
        return tally__oom();
    return TALLY_OK;
}

static int same_value(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* benchstat's unit normalisation of field f of line `line`. A unit too long for `unit` is
 * refused rather than cut: a cut unit would be another one, or end inside a UTF-8 character. */
static int normalise(char *unit, size_t size, double *scale, const tally__field *f,
                     const char *name, unsigned long line)
{
    *scale = 1;
    int w;
    if (f->len > 3 && memcmp(f->s, "ns/", 3) == 0) {
        w = snprintf(unit, size, "sec/%.*s", (int)(f->len - 3), f->s + 3);
        *scale = 1e-9;
    } else if (tally__field_is(f, "MB/s")) {
        w = snprintf(unit, size, "B/s");
        *scale = 1e6;
    } else {
        w = snprintf(unit, size, "%.*s", (int)f->len, f->s);
    }
    if (w < 0 || (size_t)w >= size)
        return tally__error_at(TALLY_ELIMIT, name, line, f->col,
                               "a unit of %zu bytes: longer than the %zu this reader keeps",
                               w < 0 ? f->len : (size_t)w, size - 1);
    return TALLY_OK;
}

static int result_line(tally_resultset *rs, const tally__lines *l, const tally__field *f,
                       size_t nf, const char *pkg, int qualify, const char *base,
                       const gotest *g)
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
        char unit[128];
        if ((rc = normalise(unit, sizeof unit, &scale, &f[i + 1], name, l->lineno)) != TALLY_OK)
            return rc;
        /* "BASE UNIT" built whole: the base is the caller's benchmark name, of any length. */
        tally__buf named = TALLY__BUF_INIT;
        if (base)
            tally__buf_printf(&named, "%s %s", base, unit);
        if (named.failed)
            return tally__oom();
        const char *bench = base ? named.data : unit;
        size_t ulen = strlen(unit);
        tally_direction dir = ulen > 2 && strcmp(unit + ulen - 2, "/s") == 0
                                  ? TALLY_HIGHER_IS_BETTER
                                  : TALLY_LOWER_IS_BETTER;
        const unit_meta *um = unit_find(g, unit);
        if (um && um->better)
            dir = um->better == 'h' ? TALLY_HIGHER_IS_BETTER : TALLY_LOWER_IS_BETTER;
        rc = tally__import_sample(rs, bench, unit, dir, cname, v * scale);
        tally_case *c = NULL;
        if (rc == TALLY_OK && (dash || (um && um->exact)))
            c = tally_benchmark_case_find(tally_resultset_benchmark_find(rs, bench), cname);
        if (rc == TALLY_OK && dash)
            rc = tally_case_meta_set(c, "gomaxprocs", dash + 1);
        if (rc == TALLY_OK && um && um->exact)
            rc = tally_case_meta_set(c, "assume", "exact");
        tally__buf_dispose(&named);
        if (rc != TALLY_OK)
            return tally__error_at(rc, name, l->lineno, f[i].col, "%s",
                                   tally_error_last()->message);
    }
    return TALLY_OK;
}

/* "Unit ns/op better=lower assume=exact": the metadata of a unit, by its tidied name as the
 * results use it (benchfmt keys unit metadata by the tidied unit too). */
static int unit_line(gotest *g, const tally__lines *l, const char *line, size_t n)
{
    tally__field f[MAX_FIELDS];
    size_t nf = tally__split_fields(f, MAX_FIELDS, line, n);
    if (nf < 2)
        return tally__error_at(TALLY_EPARSE, g->name, l->lineno, f[0].col + f[0].len,
                               "expected a unit after 'Unit'");
    if (nf > MAX_FIELDS)
        return tally__error_at(TALLY_ELIMIT, g->name, l->lineno, f[MAX_FIELDS - 1].col,
                               "more than %d fields on a Unit line", MAX_FIELDS);
    char unit[128];
    double scale;
    int rc = normalise(unit, sizeof unit, &scale, &f[1], g->name, l->lineno);
    if (rc != TALLY_OK)
        return rc;
    unit_meta *u = (unit_meta *)unit_find(g, unit);
    if (u == NULL) {
        rc = grow((void **)&g->units, &g->unit_cap, g->nunits, sizeof *g->units);
        if (rc != TALLY_OK)
            return rc;
        u = &g->units[g->nunits];
        memset(u, 0, sizeof *u);
        if ((u->unit = tally__strdup(unit)) == NULL)
            return tally__oom();
        g->nunits++;
    }
    for (size_t i = 2; i < nf; i++) {
        const char *eq = memchr(f[i].s, '=', f[i].len);
        if (eq == NULL || eq == f[i].s)
            return tally__error_at(TALLY_EPARSE, g->name, l->lineno, f[i].col,
                                   "expected key=value on a Unit line, found '%.*s'",
                                   (int)f[i].len, f[i].s);
        size_t klen = (size_t)(eq - f[i].s), vlen = f[i].len - klen - 1;
        int better = klen == 6 && memcmp(f[i].s, "better", 6) == 0;
        int assume = klen == 6 && memcmp(f[i].s, "assume", 6) == 0;
        char was = better ? u->better : (char)(assume ? u->exact : 0);
        char now = 0;
        if (better && vlen == 6 && memcmp(eq + 1, "higher", 6) == 0)
            now = 'h';
        else if (better && vlen == 5 && memcmp(eq + 1, "lower", 5) == 0)
            now = 'l';
        else if (assume && vlen == 5 && memcmp(eq + 1, "exact", 5) == 0)
            now = 1;
        else if (assume && vlen == 7 && memcmp(eq + 1, "nothing", 7) == 0)
            now = 2;
        else if (better || assume)
            return tally__error_at(TALLY_EPARSE, g->name, l->lineno, f[i].col + klen + 1,
                                   "expected %s, found '%.*s'",
                                   better ? "higher or lower" : "exact or nothing", (int)vlen,
                                   eq + 1);
        else
            continue; /* another key: benchfmt keeps it, nothing tally reads */
        /* One value per unit and key, as benchfmt requires. */
        if (was != 0 && !(assume && was == (now == 1)) && !(better && was == now))
            return tally__error_at(TALLY_EMISMATCH, g->name, l->lineno, f[i].col,
                                   "unit '%s': %.*s conflicts with line %lu", unit,
                                   (int)f[i].len, f[i].s, u->line);
        if (better)
            u->better = now;
        else
            u->exact = now == 1;
        u->line = l->lineno;
    }
    return TALLY_OK;
}

/* A result line in the first pass: which keys change between result lines. */
static int observe_result(gotest *g, unsigned long lineno)
{
    for (size_t i = 0; i < g->nkeys; i++) {
        key_state *k = &g->keys[i];
        if (g->results == 0) {
            if (k->value && (k->first = tally__strdup(k->value)) == NULL)
                return tally__oom();
        } else if (k->changed_at == 0 && !same_value(k->value, k->first)) {
            k->changed_at = lineno;
        }
    }
    g->results++;
    return TALLY_OK;
}

/* The lines of the file in order: key lines update g->keys, Unit lines go to unit_line when
 * `units` is set, and each result line (a name and at least one field more) to `result`. The
 * loop both passes share. */
static int walk_lines(gotest *g, tally__lines *l, const char *data, size_t len, int units,
                      int (*result)(gotest *g, const tally__lines *l, const char *line,
                                    size_t n, void *ctx),
                      void *ctx)
{
    tally__lines_init(l, g->name, data, len);
    const char *line;
    size_t n;
    int rc;
    while ((rc = tally__lines_next(l, &line, &n)) > 0) {
        int klen = config_key_len(line, n);
        tally__field f[2];
        rc = TALLY_OK;
        if (klen > 0)
            rc = key_line(g, line, n, (size_t)klen);
        else if (units && tally__starts_with(line, n, "Unit") && n > 4 &&
                 (line[4] == ' ' || line[4] == '\t'))
            rc = unit_line(g, l, line, n);
        /* "BenchmarkX" alone is the name printed before a log (go test -v) */
        else if (is_result_name(line, n) && tally__split_fields(f, 2, line, n) >= 2)
            rc = result(g, l, line, n, ctx);
        if (rc != TALLY_OK)
            return rc;
    }
    return rc < 0 ? rc : TALLY_OK;
}

static int observe_line(gotest *g, const tally__lines *l, const char *line, size_t n,
                        void *ctx)
{
    (void)line, (void)n, (void)ctx;
    return observe_result(g, l->lineno);
}

/* The first pass: the keys, how they change, and the Unit lines. */
static int survey(gotest *g, const char *data, size_t len)
{
    tally__lines l;
    int rc = walk_lines(g, &l, data, len, 1, observe_line, NULL);
    if (rc == TALLY_OK && g->results == 0)
        rc = tally__import_none_found(g->name, l.lineno,
                                      "benchmark result lines (BenchmarkX  N  value unit)");
    return rc;
}

/* The keys that separate configurations: opts->config_key ("none", or keys comma-separated),
 * else every key but pkg that changes. A key that changes and does not separate would pool
 * samples measured under different values: refused. */
static int choose_config_keys(gotest *g, const tally_load_options *opts)
{
    const char *given = opts ? opts->config_key : NULL;
    /* "file": one configuration where that pools nothing; changing keys still split. */
    if (given && strcmp(given, "file") == 0)
        given = NULL;
    int none = given && strcmp(given, "none") == 0;
    for (const char *p = given; p && !none && *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        key_state *k = key_find(g, p, n);
        if (k == NULL) {
            tally__buf known = TALLY__BUF_INIT;
            for (size_t i = 0; i < g->nkeys; i++)
                tally__buf_printf(&known, "%s%s", i ? ", " : "", g->keys[i].key);
            int rc = tally__error_at(TALLY_ENOTFOUND, g->name, 0, 0,
                                     "--config-key: no key line '%.*s' in the file (its keys: "
                                     "%s)", (int)n, p, known.data ? known.data : "none");
            tally__buf_dispose(&known);
            return rc;
        }
        k->separates = 1;
        p = comma ? comma + 1 : p + n;
    }
    for (size_t i = 0; i < g->nkeys; i++) {
        key_state *k = &g->keys[i];
        if (k->changed_at == 0 || strcmp(k->key, "pkg") == 0 || k->separates)
            continue;
        if (given == NULL) {
            k->separates = 1;
            continue;
        }
        return tally__error_at(TALLY_EMISMATCH, g->name, k->changed_at, 1,
                               "key '%s' changes within the file (this result line is measured "
                               "under another value than the first): reading it %s would pool "
                               "samples measured under different values; %s",
                               k->key, none ? "as one configuration" : "this way",
                               none ? "leave --config-key out to split the file by it"
                                    : "add it to --config-key");
    }
    return TALLY_OK;
}

/* The result set of the key values in force: the file's one when no key separates, else the
 * configuration those values make, labelled by them ("before"; "linux, amd64"; "(no note)"). */
static int config_of(tally_resultset **rs, gotest *g, tally_results *into,
                     const tally_load_options *opts, int split)
{
    if (!split) {
        int rc = g->one ? TALLY_OK : tally__import_begin(&g->one, into, g->name, opts, "gotest");
        *rs = g->one;
        return rc;
    }
    tally__buf label = TALLY__BUF_INIT, sig = TALLY__BUF_INIT;
    size_t n = 0;
    for (size_t i = 0; i < g->nkeys; i++) {
        const key_state *k = &g->keys[i];
        if (!k->separates)
            continue;
        if (k->value)
            tally__buf_printf(&label, "%s%s", n ? ", " : "", k->value);
        else
            tally__buf_printf(&label, "%s(no %s)", n ? ", " : "", k->key);
        tally__buf_printf(&sig, "%s%c%s%c", k->key, k->value ? '=' : '-',
                          k->value ? k->value : "", '\n');
        n++;
    }
    int rc = label.failed || sig.failed ? tally__oom() : TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i < g->nconfigs; i++)
        if (strcmp(g->configs[i].label, label.data) == 0 &&
            strcmp(g->configs[i].signature, sig.data) != 0)
            rc = tally__error_at(TALLY_EEXISTS, g->name, 0, 0,
                                 "two configurations of different key values would both be "
                                 "labelled '%s'", label.data);
    if (rc == TALLY_OK && tally_results_find(into, label.data) == NULL) {
        rc = grow((void **)&g->configs, &g->config_cap, g->nconfigs, sizeof *g->configs);
        config_seen *c = rc == TALLY_OK ? &g->configs[g->nconfigs] : NULL;
        if (c && ((c->label = tally__strdup(label.data)) == NULL ||
                  (c->signature = tally__strdup(sig.data)) == NULL)) {
            tally__free_mem(c->label);
            rc = tally__oom();
        } else if (c) {
            g->nconfigs++;
        }
    }
    if (rc == TALLY_OK)
        rc = tally__import_config(rs, into, label.data, "gotest");
    tally__buf_dispose(&label);
    tally__buf_dispose(&sig);
    return rc;
}

/* What the second pass reads each result line with. */
typedef struct reading {
    tally_results *into;
    const tally_load_options *opts;
    int split;       /* a key separates configurations */
    int qualify;     /* case names carry their package */
    const char *base; /* the benchmark name's prefix (opts->benchmark), or NULL */
} reading;

/* A result line of the second pass: into the configuration of the keys in force, whose
 * metadata takes each key's value in force at its first result. */
static int read_line(gotest *g, const tally__lines *l, const char *line, size_t n, void *ctx)
{
    const reading *r = ctx;
    tally__field f[MAX_FIELDS];
    size_t nf = tally__split_fields(f, MAX_FIELDS, line, n);
    tally_resultset *rs = NULL;
    int rc = config_of(&rs, g, r->into, r->opts, r->split);
    const char *pkg = NULL;
    for (size_t i = 0; rc == TALLY_OK && i < g->nkeys; i++) {
        const key_state *k = &g->keys[i];
        if (strcmp(k->key, "pkg") == 0)
            pkg = k->value;
        if (k->value && tally_resultset_meta_get(rs, k->key) == NULL)
            rc = tally_resultset_meta_set(rs, k->key, k->value);
    }
    return rc == TALLY_OK ? result_line(rs, l, f, nf, pkg, r->qualify, r->base, g) : rc;
}

/* The second pass: every result line into its configuration. */
static int read_results(gotest *g, tally_results *into, const char *data, size_t len,
                        const tally_load_options *opts, int qualify)
{
    reading r = { into, opts, 0, qualify,
                  opts && opts->benchmark && opts->benchmark[0] ? opts->benchmark : NULL };
    for (size_t i = 0; i < g->nkeys; i++) {
        r.split |= g->keys[i].separates;
        tally__free_mem(g->keys[i].value);
        g->keys[i].value = NULL;
    }
    tally__lines l;
    return walk_lines(g, &l, data, len, 0, read_line, &r);
}

/* A case whose samples are not all the same number. */
static int varies(const tally_case *c)
{
    const double *x = tally_case_samples(c);
    for (size_t i = 1; i < tally_case_sample_count(c); i++)
        if (x[i] != x[0])
            return 1;
    return 0;
}

/* What assume=exact did, on the list: the unit's rows are compared without a test, and a unit
 * declared exact whose samples vary is a warning naming the cases (benchstat refuses those). */
static int note_exact_units(const gotest *g, tally_results *into)
{
    int rc = TALLY_OK;
    for (size_t u = 0; rc == TALLY_OK && u < g->nunits; u++) {
        const unit_meta *um = &g->units[u];
        if (!um->exact)
            continue;
        tally__buf note = TALLY__BUF_INIT, cases = TALLY__BUF_INIT;
        size_t vary = 0, seen = 0;
        for (size_t i = 0; i < tally_results_count(into); i++) {
            const tally_resultset *rs = tally_results_at(into, i);
            for (size_t b = 0; b < tally_resultset_benchmark_count(rs); b++) {
                const tally_benchmark *bm = tally_resultset_benchmark_at(rs, b);
                if (strcmp(tally_benchmark_unit(bm), um->unit) != 0)
                    continue;
                seen = 1;
                for (size_t c = 0; c < tally_benchmark_case_count(bm); c++) {
                    const tally_case *tc = tally_benchmark_case_at(bm, c);
                    if (!varies(tc))
                        continue;
                    if (vary++ < 3)
                        tally__buf_printf(&cases, "%s'%s'", vary > 1 ? ", " : "",
                                          tally_case_name(tc));
                    if (tally_results_count(into) > 1 && vary <= 3)
                        tally__buf_printf(&cases, " in '%s'", tally_resultset_label(rs));
                }
            }
        }
        if (!seen) {
            tally__buf_dispose(&note);
            tally__buf_dispose(&cases);
            continue;
        }
        if (vary)
            tally__buf_printf(&note, "%s:%lu: warning: unit '%s' is declared exact "
                                     "(assume=exact) but its samples vary in %zu case%s: %s%s; "
                                     "its rows are compared without a significance test",
                              g->name, um->line, um->unit, vary, vary == 1 ? "" : "s",
                              cases.data, vary > 3 ? ", ..." : "");
        else
            tally__buf_printf(&note, "%s:%lu: unit '%s' is exact (assume=exact): its rows are "
                                     "compared without a significance test",
                              g->name, um->line, um->unit);
        rc = note.failed || cases.failed ? tally__oom() : tally_results_note_add(into, note.data);
        tally__buf_dispose(&note);
        tally__buf_dispose(&cases);
    }
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    int packages = count_packages(data, len, name);
    if (packages < 0)
        return packages;
    gotest g;
    memset(&g, 0, sizeof g);
    g.name = name;
    int rc = survey(&g, data, len);
    if (rc == TALLY_OK)
        rc = choose_config_keys(&g, opts);
    if (rc == TALLY_OK)
        rc = read_results(&g, into, data, len, opts, packages > 1);
    if (rc == TALLY_OK)
        rc = note_exact_units(&g, into);
    if (rc == TALLY_OK) {
        tally__buf by = TALLY__BUF_INIT;
        size_t n = 0;
        for (size_t i = 0; i < g.nkeys; i++)
            n += (size_t)g.keys[i].separates;
        tally__buf_puts(&by, n > 1 ? "the keys" : "the key");
        for (size_t i = 0, k = 0; i < g.nkeys; i++)
            if (g.keys[i].separates)
                tally__buf_printf(&by, "%s '%s'", k++ ? "," : "", g.keys[i].key);
        rc = by.failed ? tally__oom() : tally__import_note_split(into, name, by.data);
        tally__buf_dispose(&by);
    }
    gotest_dispose(&g);
    return rc;
}

const tally__importer tally__importer_gotest = {
    .kind = TALLY_INPUT_GOTEST, .name = "gotest", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_SKIPS_LINES | TALLY__IMPORT_TOOL_TEXT,
    .configs = "the values of its changing key lines", .config_key = 1,
};
