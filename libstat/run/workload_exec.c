/* Any command: each run execs the caller's argv (sweep values replace "{}" in its arguments)
 * and measures its wall time, its user or system CPU time, or a number taken from its stdout or
 * stderr with a POSIX extended regular expression (the first capture group, else the whole
 * match; the last match in the output wins, since tools print summaries last). */
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "model/units.h"
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
    tally_direction dir;
    int rc = tally__param_choice(&c->source, p, "source", sources, SRC_STDOUT);
    if (rc == TALLY_OK)
        rc = tally__param_choice(&c->time, p, "time", times, TIME_WALL);
    if (rc != TALLY_OK)
        return rc;
    const char *metric = tally__param_get(p, "metric");
    const char *unit = tally__param_get(p, "unit");
    if (unit == NULL)
        unit = metric ? "" : "s";
    /* Without a direction, the unit's, as every reader of files decides it (ops/s: higher). */
    dir = tally__direction_for_unit(unit);
    const char *dir_name = tally__param_get(p, "direction");
    if (dir_name != NULL && tally_direction_from_name(&dir, dir_name) != TALLY_OK)
        return tally__error(TALLY_EINVAL, "parameter direction=%s: expected lower or higher",
                            dir_name);
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

/* The index of the script in a shell's argv (`sh -c SCRIPT`, `bash -ec SCRIPT`, ...), or -1
 * when argv is not a shell given a script. */
static int shell_script_index(char *const *argv)
{
    static const char *const shells[] = { "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash",
                                          "busybox", NULL };
    const char *slash = strrchr(argv[0], '/');
    const char *base = slash ? slash + 1 : argv[0];
    int shell = 0;
    for (size_t i = 0; shells[i] != NULL; i++)
        shell |= strcmp(base, shells[i]) == 0;
    if (!shell)
        return -1;
    int has_c = 0;
    for (int i = 1; argv[i] != NULL; i++) {
        const char *a = argv[i];
        if (strcmp(base, "busybox") == 0 && i == 1) {
            if (strcmp(a, "sh") != 0 && strcmp(a, "ash") != 0)
                return -1;
            continue;
        }
        if ((a[0] == '-' || a[0] == '+') && a[1] != '\0' && a[1] != '-') {
            has_c |= a[0] == '-' && strchr(a + 1, 'c') != NULL;
            if (strchr(a + 1, 'o') != NULL && argv[i + 1] != NULL)
                i++; /* -o OPTION */
            continue;
        }
        if (strcmp(a, "--") == 0)
            continue;
        return has_c ? i : -1;
    }
    return -1;
}

static int shell_safe(const char *v)
{
    if (*v == '\0')
        return 0;
    for (; *v; v++)
        if (!((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') || (*v >= '0' && *v <= '9') ||
              strchr("_@%+=:,./-", *v) != NULL))
            return 0;
    return 1;
}

/* The shell script with every "{}" replaced by the sweep value as one word of data, never
 * code, whatever the quoting around the {}: outside quotes the value is single-quoted (plain
 * words such as 4 or 1M are left as they are); inside '...' its quotes are closed, escaped and
 * reopened; inside "..." the characters special there ($ ` " \\) get a backslash. */
/* The value's characters with each ' as '\\'' (close, an escaped quote, reopen). */
static void put_single_quoted(tally__buf *b, const char *value)
{
    for (const char *v = value; *v; v++) {
        if (*v == '\'')
            tally__buf_puts(b, "'\\''");
        else
            tally__buf_append(b, v, 1);
    }
}

static void shell_substitute(tally__buf *b, const char *script, const char *value)
{
    enum { OUT, SINGLE, DOUBLE } q = OUT;
    for (const char *s = script; *s; s++) {
        if (s[0] == '{' && s[1] == '}') {
            if (q == SINGLE) {
                put_single_quoted(b, value);
            } else if (q == DOUBLE) {
                for (const char *v = value; *v; v++) {
                    if (strchr("$`\"\\", *v) != NULL)
                        tally__buf_puts(b, "\\");
                    tally__buf_append(b, v, 1);
                }
            } else if (shell_safe(value)) {
                tally__buf_puts(b, value);
            } else {
                tally__buf_puts(b, "'");
                put_single_quoted(b, value);
                tally__buf_puts(b, "'");
            }
            s++;
            continue;
        }
        tally__buf_append(b, s, 1);
        if (q != SINGLE && s[0] == '\\' && s[1] != '\0') {
            tally__buf_append(b, ++s, 1); /* an escaped character: no quote, no {} */
            continue;
        }
        if (q == OUT && *s == '\'')
            q = SINGLE;
        else if (q == SINGLE && *s == '\'')
            q = OUT;
        else if (q == OUT && *s == '"')
            q = DOUBLE;
        else if (q == DOUBLE && *s == '"')
            q = OUT;
    }
}

/* argv with every "{}" replaced by the sweep value; in a shell's script (`sh -c`, which is
 * what --compare runs) the value is quoted, so it stays data. */
static int command(char ***argv, const tally__wl *wl, const char *sweep_value)
{
    size_t n = 0;
    while (wl->command[n] != NULL)
        n++;
    char **out = tally__calloc(n + 1, sizeof(char *));
    if (out == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    int script = shell_script_index(wl->command);
    for (size_t i = 0; i < n; i++) {
        tally__buf b = TALLY__BUF_INIT;
        const char *s = wl->command[i], *hole;
        if ((int)i == script) {
            shell_substitute(&b, s, sweep_value);
            s = "";
        }
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
