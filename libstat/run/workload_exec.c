/* Any command: each run execs the caller's argv (sweep values replace "{}" in its arguments)
 * and measures its wall time, its user or system CPU time, or a number taken from its stdout or
 * stderr with a POSIX extended regular expression (the first capture group, else the whole
 * match; the last match in the output wins, since tools print summaries last). */
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "run/runner_internal.h"
#include "util/text.h"

enum { TIME_WALL, TIME_USER, TIME_SYS, TIME_CPU };
enum { SRC_STDOUT, SRC_STDERR };

static const char *const keys[] = { "metric", "source", "time", "unit", "direction",
                                    "name", "statistic", NULL };
static const char *const times[] = { "wall", "user", "sys", "user+sys", NULL };
static const char *const sources[] = { "stdout", "stderr", NULL };

typedef struct exec_cfg {
    int have_regex;
    regex_t re;
    int source, time;
} exec_cfg;

static int configure(tally__wl *wl, const tally__params *p)
{
    exec_cfg *c = tally__calloc(1, sizeof(*c));
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    wl->cfg = c;
    tally_direction dir = TALLY_LOWER_IS_BETTER;
    int rc = tally__param_choice(&c->source, p, "source", sources, SRC_STDOUT);
    if (rc == TALLY_OK)
        rc = tally__param_choice(&c->time, p, "time", times, TIME_WALL);
    if (rc != TALLY_OK)
        return rc;
    const char *dir_name = tally__param_get(p, "direction");
    if (dir_name != NULL && tally_direction_from_name(&dir, dir_name) != TALLY_OK)
        return tally__error(TALLY_EINVAL, "parameter direction=%s: expected lower or higher",
                            dir_name);
    const char *metric = tally__param_get(p, "metric");
    if (metric != NULL) {
        if (tally__param_get(p, "time") != NULL)
            return tally__error(TALLY_EINVAL, "give either metric or time, not both");
        int err = regcomp(&c->re, metric, REG_EXTENDED);
        if (err != 0) {
            char msg[128];
            regerror(err, &c->re, msg, sizeof(msg));
            return tally__error(TALLY_EINVAL, "metric pattern '%s': %s", metric, msg);
        }
        c->have_regex = 1;
    }
    tally_statistic stat = TALLY_STAT_AMEAN;
    const char *stat_name = tally__param_get(p, "statistic");
    if (stat_name != NULL && tally_statistic_from_name(&stat, stat_name) != TALLY_OK)
        return tally__error(TALLY_EINVAL, "parameter statistic=%s: unknown statistic", stat_name);
    const char *unit = tally__param_get(p, "unit");
    if (unit == NULL)
        unit = metric ? "" : "s";
    const char *name = tally__param_get(p, "name");
    if (name == NULL && wl->several) {
        name = "exec";
    } else if (name == NULL) {
        const char *slash = strrchr(wl->command[0], '/');
        name = slash ? slash + 1 : wl->command[0];
    }
    return tally__wl_add_metric(wl, name, NULL, unit, dir, stat);
}

static void release(tally__wl *wl)
{
    exec_cfg *c = wl->cfg;
    if (c != NULL && c->have_regex)
        regfree(&c->re);
    tally__free_mem(c);
    wl->cfg = NULL;
}

/* argv with every "{}" replaced by the sweep value. */
static int command(char ***argv, const tally__wl *wl, const char *sweep_value)
{
    size_t n = 0;
    while (wl->command[n] != NULL)
        n++;
    char **out = tally__calloc(n + 1, sizeof(char *));
    if (out == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        tally__buf b = TALLY__BUF_INIT;
        const char *s = wl->command[i], *hole;
        while ((hole = strstr(s, "{}")) != NULL) {
            tally__buf_append(&b, s, (size_t)(hole - s));
            tally__buf_puts(&b, sweep_value);
            s = hole + 2;
        }
        tally__buf_puts(&b, s);
        size_t len;
        if (tally__buf_detach(&out[i], &len, &b) != TALLY_OK) {
            tally__free_argv(out);
            return tally__error(TALLY_ENOMEM, "out of memory");
        }
    }
    *argv = out;
    return TALLY_OK;
}

static int parse(double *values, const tally__wl *wl, const tally__run_output *o)
{
    const exec_cfg *c = wl->cfg;
    if (!c->have_regex) {
        switch (c->time) {
        case TIME_USER: values[0] = o->user; break;
        case TIME_SYS: values[0] = o->sys; break;
        case TIME_CPU: values[0] = o->user + o->sys; break;
        default: values[0] = o->wall; break;
        }
        return TALLY_OK;
    }
    const char *text = c->source == SRC_STDOUT ? o->out : o->err;
    const char *name = c->source == SRC_STDOUT ? "stdout" : "stderr";
    const char *found = NULL;
    size_t found_len = 0;
    regmatch_t m[2];
    int flags = 0;
    const char *end = text + strlen(text);
    for (const char *s = text; s <= end && regexec(&c->re, s, 2, m, flags) == 0;) {
        int g = m[1].rm_so >= 0 ? 1 : 0;
        found = s + m[g].rm_so;
        found_len = (size_t)(m[g].rm_eo - m[g].rm_so);
        s += m[0].rm_eo > m[0].rm_so ? m[0].rm_eo : m[0].rm_so + 1;
        flags = REG_NOTBOL;
    }
    if (found == NULL)
        return tally__error(TALLY_EPARSE, "the metric pattern does not match the %s", name);
    if (tally__parse_double(&values[0], found, found_len) != TALLY_OK)
        return tally__error(TALLY_EPARSE, "the metric pattern matched '%.*s' in the %s, not a "
                            "finite number", (int)(found_len > 60 ? 60 : found_len), found, name);
    return TALLY_OK;
}

const tally__workload tally__workload_exec = {
    TALLY_WORKLOAD_EXEC, "exec", "value", "command", NULL, keys,
    configure, release, NULL, command, parse, NULL, NULL,
};
