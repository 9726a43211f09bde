/* Pairing the cases of the compared configurations with the baseline's rows: the report
 * options case_map (rename rules) and pair_by (by name or by position within a benchmark), and
 * what the report says about it (how many rows were compared, missing, new, renamed). */
#include <regex.h>
#include <string.h>

#include "report/report_internal.h"
#include "util/names.h"
#include "util/number.h"
#include "util/result.h"
#include "util/utf8.h"

static const tally__name pair_modes[] = {
    { "name", TALLY_PAIR_BY_NAME },
    { "position", TALLY_PAIR_BY_POSITION },
};

TALLY__NAME_FUNCTIONS(tally_pair_by, pair_modes, "pairing")

/* One rule: an exact FROM=TO, or s/REGEX/REPL/ compiled. */
typedef struct rule {
    char *from;     /* the exact name (FROM=TO), else NULL */
    char *to;       /* TO, or REPL */
    regex_t regex;  /* s/REGEX/REPL/ */
    int compiled;
} rule;

struct tally__pairer {
    rule *rules;
    size_t count;
};

void tally__pairer_free(tally__pairer *p)
{
    if (p == NULL)
        return;
    for (size_t i = 0; i < p->count; i++) {
        tally__free_mem(p->rules[i].from);
        tally__free_mem(p->rules[i].to);
        if (p->rules[i].compiled)
            regfree(&p->rules[i].regex);
    }
    tally__free_mem(p->rules);
    tally__free_mem(p);
}

static char *dup_span(const char *s, size_t n)
{
    char *out = tally__malloc(n + 1);
    if (out) {
        memcpy(out, s, n);
        out[n] = '\0';
    }
    return out;
}

/* A rule of the form s<d>REGEX<d>REPL<d>, d a punctuation character other than '=' (which
 * would read as FROM=TO) and occurring exactly three times. */
static int is_substitution(const char *text, size_t len, const char **mid)
{
    if (len < 4 || text[0] != 's')
        return 0;
    char d = text[1];
    if (!((d >= '!' && d <= '/') || (d >= ':' && d <= '@') || (d >= '[' && d <= '`') ||
          (d >= '{' && d <= '~')) || d == '=' || d == '\\' || text[len - 1] != d)
        return 0;
    const char *second = memchr(text + 2, d, len - 2);
    if (second == NULL || second == text + len - 1)
        return 0;
    if (memchr(second + 1, d, (size_t)(text + len - 1 - (second + 1))) != NULL)
        return 0;
    *mid = second;
    return 1;
}

static int compile_rule(rule *out, const char *text, size_t len)
{
    const char *mid;
    if (is_substitution(text, len, &mid)) {
        char *pattern = dup_span(text + 2, (size_t)(mid - (text + 2)));
        out->to = dup_span(mid + 1, (size_t)(text + len - 1 - (mid + 1)));
        if (pattern == NULL || out->to == NULL) {
            tally__free_mem(pattern);
            return tally__oom();
        }
        /* Regular expressions read bytes the same way in any locale. */
        void *locale = tally__locale_c_begin();
        int rc = regcomp(&out->regex, pattern, REG_EXTENDED);
        char why[128] = "";
        if (rc != 0)
            regerror(rc, &out->regex, why, sizeof why);
        tally__locale_c_end(locale);
        tally__free_mem(pattern);
        if (rc != 0)
            return tally__error(TALLY_EINVAL, "case map rule '%.*s': %s", (int)len, text, why);
        out->compiled = 1;
        return TALLY_OK;
    }
    const char *eq = memchr(text, '=', len);
    if (eq == NULL && len >= 4 && text[0] == 's' && text[1] == text[len - 1] &&
        strchr("!#%,/:;@|~", text[1]) != NULL) {
        /* s/a\/b/c/ as sed would take it: the delimiter inside REGEX or REPL. */
        size_t count = 0;
        for (size_t i = 1; i < len; i++)
            count += text[i] == text[1];
        return tally__error(TALLY_EINVAL, "case map rule '%.*s': its delimiter '%c' occurs %zu "
                                          "times, not 3 (no escapes): take one that REGEX and "
                                          "REPL do not hold, as in s#REGEX#REPL#", (int)len, text,
                            text[1], count);
    }
    if (eq == NULL || eq == text || eq == text + len - 1)
        return tally__error(TALLY_EINVAL, "case map rule '%.*s': expected FROM=TO or "
                                          "s/REGEX/REPL/", (int)len, text);
    out->from = dup_span(text, (size_t)(eq - text));
    out->to = dup_span(eq + 1, (size_t)(text + len - eq - 1));
    return out->from && out->to ? TALLY_OK : tally__oom();
}

int tally__pairer_new(tally__pairer **out, const tally_report *r)
{
    *out = NULL;
    const char *map = r->opts.case_map;
    if (map == NULL || *map == '\0')
        return TALLY_OK;
    tally__pairer *p = tally__calloc(1, sizeof(*p));
    size_t lines = 1;
    for (const char *s = map; *s; s++)
        lines += *s == '\n';
    if (p == NULL || (p->rules = tally__calloc(lines, sizeof(*p->rules))) == NULL) {
        tally__pairer_free(p);
        return tally__oom();
    }
    for (const char *s = map; *s;) {
        const char *end = strchr(s, '\n');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        if (len > 0) {
            int rc = compile_rule(&p->rules[p->count++], s, len);
            if (rc != TALLY_OK) {
                tally__pairer_free(p);
                return rc;
            }
        }
        s += len + (end != NULL);
    }
    *out = p;
    return TALLY_OK;
}

/* REPL with \1..\9 (a group, empty when it did not take part), & (the whole match), \\ and \&
 * (themselves), around the rest of `name`. */
static void substitute(tally__buf *b, const char *name, const char *repl, const regmatch_t *m)
{
    tally__buf_append(b, name, (size_t)m[0].rm_so);
    for (const char *s = repl; *s; s++) {
        if (*s == '\\' && s[1] >= '1' && s[1] <= '9') {
            const regmatch_t *g = &m[s[1] - '0'];
            if (g->rm_so >= 0)
                tally__buf_append(b, name + g->rm_so, (size_t)(g->rm_eo - g->rm_so));
            s++;
        } else if (*s == '\\' && (s[1] == '\\' || s[1] == '&')) {
            tally__buf_append(b, s + 1, 1);
            s++;
        } else if (*s == '&') {
            tally__buf_append(b, name + m[0].rm_so, (size_t)(m[0].rm_eo - m[0].rm_so));
        } else {
            tally__buf_append(b, s, 1);
        }
    }
    tally__buf_puts(b, name + m[0].rm_eo);
}

int tally__pair_name(const char **out, tally__buf *scratch, const tally__pairer *p,
                     const tally_report *r, const tally_resultset *base, const char *benchmark,
                     size_t position, const char *name)
{
    *out = name;
    if (r->opts.pair_by == TALLY_PAIR_BY_POSITION) {
        const tally_benchmark *bb = tally_resultset_benchmark_find(base, benchmark);
        if (bb != NULL && position < tally_benchmark_case_count(bb))
            *out = tally_case_name(tally_benchmark_case_at(bb, position));
        return TALLY_OK;
    }
    for (size_t i = 0; p != NULL && i < p->count; i++) {
        const rule *ru = &p->rules[i];
        if (ru->from != NULL) {
            if (strcmp(ru->from, name) == 0) {
                *out = ru->to;
                return TALLY_OK;
            }
            continue;
        }
        regmatch_t m[10];
        void *locale = tally__locale_c_begin();
        int hit = regexec(&ru->regex, name, TALLY__COUNT(m), m, 0) == 0;
        tally__locale_c_end(locale);
        if (!hit)
            continue;
        scratch->len = 0;
        substitute(scratch, name, ru->to, m);
        if (scratch->failed || tally__buf_puts(scratch, "") != TALLY_OK || scratch->data == NULL)
            return tally__oom();
        *out = scratch->data;
        return TALLY_OK;
    }
    return TALLY_OK;
}

int tally_report_pairing(tally_pairing *out, const tally_report *r, size_t config)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_pairing");
    if (rc != TALLY_OK)
        return rc;
    if (r == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_pairing: NULL report");
    if (config == 0 || config >= r->config_count)
        return tally__error(TALLY_EINVAL, "tally_report_pairing: configuration %zu out of range "
                                          "(1 to %zu)", config, r->config_count - 1);
    tally_pairing p = { .size = sizeof p };
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__cell *base = &r->rows[i].cells[0], *c = &r->rows[i].cells[config];
        if (base->pub.present && c->pub.present) {
            p.compared++;
            p.renamed += c->paired_from != NULL;
        } else if (base->pub.present) {
            p.missing++;
        } else if (c->pub.present) {
            p.added++;
        }
    }
    tally__result_put(out, size, &p, sizeof p);
    return TALLY_OK;
}

const char *tally_report_cell_paired_from(const tally_report *r, size_t row, size_t config)
{
    if (r == NULL || row >= r->row_count || config >= r->config_count)
        return NULL;
    return r->rows[row].cells[config].paired_from;
}

void tally__render_pairing_notes(tally__buf *b, const tally_report *r, const char *prefix,
                                 int always)
{
    if (r->opts.summaries_only)
        return;
    int unpaired = 0, renamed = 0;
    for (size_t j = 1; j < r->config_count; j++) {
        tally_pairing p = { .size = sizeof p };
        if (tally_report_pairing(&p, r, j) != TALLY_OK) {
            b->failed = 1;
            return;
        }
        unpaired |= p.missing > 0 || p.added > 0 || p.compared == 0;
        renamed |= p.renamed > 0;
    }
    if (!always && !unpaired && !renamed)
        return;
    for (size_t j = 1; j < r->config_count; j++) {
        tally_pairing p = { .size = sizeof p };
        tally_report_pairing(&p, r, j);
        tally__buf_printf(b, "%spairing: %s against %s: %zu compared, %zu missing in %s, %zu new "
                             "in %s", prefix, r->configs[j].label, r->configs[0].label,
                          p.compared, p.missing, r->configs[j].label, p.added,
                          r->configs[j].label);
        if (p.renamed)
            tally__buf_printf(b, ", %zu paired by %s", p.renamed,
                              r->opts.pair_by == TALLY_PAIR_BY_POSITION ? "position"
                                                                         : "the case map");
        tally__buf_end_line(b);
    }
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally__cell *c = &r->rows[i].cells[j];
            if (c->paired_from == NULL)
                continue;
            tally__buf_printf(b, "%spaired: %s ", prefix, r->configs[j].label);
            tally__buf_put_terminal(b, c->paired_from);
            tally__buf_printf(b, " with %s %s/%s\n", r->configs[0].label, r->rows[i].benchmark,
                              r->rows[i].case_name);
        }
    if (unpaired && r->opts.pair_by == TALLY_PAIR_BY_NAME)
        tally__buf_printf(b, "%srows pair by benchmark and case name: pair renamed cases with a "
                             "case map (--case-map FROM=TO or s/REGEX/REPL/) or by position "
                             "(--pair-by position)\n", prefix);
}
