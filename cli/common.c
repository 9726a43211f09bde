/* Error printing, input loading, colour choice and report output shared by the subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"

/* --db of the running command: the store that @SELECTION inputs read. One command runs per
 * process, so one value. */
static const char *cli_db;

int cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tally: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_EXIT_USAGE;
}

int cli_fail_library(void)
{
    const tally_error *e = tally_error_last();
    return cli_fail("%s", e->message[0] ? e->message : tally_strerror(e->code));
}

int cli_finish_stdout(int rc)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return rc;
    return cli_fail("cannot write to standard output: %s", strerror(errno));
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tally: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fprintf(stderr, "Try 'tally %s --help'.\n", command);
    return CLI_EXIT_USAGE;
}

int cli_library_usage_error(const char *command)
{
    return cli_usage_error(command, "%s", tally_error_last()->message);
}

char *cli_read_all(FILE *in, size_t *length)
{
    size_t cap = 65536, len = 0;
    char *data = malloc(cap + 1);
    size_t n;
    while (data != NULL && (n = fread(data + len, 1, cap - len, in)) > 0) {
        len += n;
        if (len == cap) {
            char *grown = realloc(data, cap * 2 + 1);
            if (grown == NULL) {
                free(data);
                data = NULL;
                break;
            }
            data = grown;
            cap *= 2;
        }
    }
    if (data != NULL)
        data[len] = '\0';
    *length = len;
    return data;
}

/* `-` (or `LABEL=-`): standard input, through the library's reader like any file (/dev/stdin is
 * the descriptor itself there), so that the same input limit and the same errors hold. */
static int load_stdin(tally_results *results, const char *label, const tally_load_options *lo)
{
    tally_load_options opts = *lo;
    if (label != NULL)
        opts.label = label;
    return tally_load_file(results, "/dev/stdin", &opts) == TALLY_OK ? CLI_EXIT_OK
                                                                    : cli_fail_library();
}

const char *cli_store_location(const char *given)
{
    if (given && given[0])
        return given;
    const char *env = getenv("TALLY_DB");
    return env && env[0] ? env : NULL;
}

void cli_store_name(char *buf, size_t cap, const char *location)
{
    const char *scheme = strstr(location, "://");
    if (scheme == NULL) {
        snprintf(buf, cap, "%s", location);
        return;
    }
    const char *host = scheme + 3;
    size_t span = strcspn(host, "/?#");
    for (size_t i = 0; i < span; i++)
        if (host[i] == '@')
            host += i + 1, span -= i + 1, i = (size_t)-1;
    size_t path = strcspn(host, "?#");
    snprintf(buf, cap, "%.*s%.*s", (int)(scheme + 3 - location), location, (int)path, host);
}

/* A usage error of `command`, or a plain error (no "Try ...") for an input (command NULL). */
static int selection_error(const char *command, const char *message)
{
    return command ? cli_usage_error(command, "%s", message) : cli_fail("%s", message);
}

int cli_store_query_parse(tally_store_query *q, char *text, const char *command)
{
    char message[512];
    for (char *item = text, *next; item != NULL; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        if (item[0] == '\0')
            continue;
        char *value = strchr(item, '=');
        if (value)
            *value++ = '\0';
        static const char *const keyed[] = {"branch", "commit", "machine", "label",
                                            "benchmark", "case", "since", "until"};
        const char **slot[] = {&q->branch, &q->commit, &q->machine, &q->label,
                               &q->benchmark, &q->case_name, &q->since, &q->until};
        size_t k = 0;
        while (k < COUNT(keyed) && strcmp(item, keyed[k]) != 0)
            k++;
        if (k < COUNT(keyed) && value && value[0]) {
            *slot[k] = value;
        } else if (strcmp(item, "latest") == 0 && value == NULL) {
            q->limit = 1;
        } else if ((strcmp(item, "limit") == 0 || strcmp(item, "id") == 0) && value) {
            char *end = NULL;
            long long n = strtoll(value, &end, 10);
            if (end == value || *end != '\0' || n <= 0) {
                snprintf(message, sizeof message,
                         "store selection: %s needs a whole number > 0, not '%s'", item, value);
                return selection_error(command, message);
            }
            if (item[0] == 'l')
                q->limit = (size_t)n;
            else
                q->id = n;
        } else {
            snprintf(message, sizeof message,
                     "store selection: '%s%s%s' is not KEY=VALUE with KEY one of branch, commit, "
                     "machine, label, benchmark, case, since, until, id, limit, or 'latest'",
                     item, value ? "=" : "", value ? value : "");
            return selection_error(command, message);
        }
    }
    return CLI_EXIT_OK;
}

/* `@SELECTION` or `LABEL=@SELECTION` (LABEL without '='), unless a file of that name exists. */
static int store_spec(const char *spec)
{
    if (access(spec, F_OK) == 0)
        return 0;
    const char *eq = strchr(spec, '=');
    return spec[0] == '@' || (eq && eq != spec && eq[1] == '@');
}

/* The result sets a store selection names; a LABEL renames the only one. */
static int load_selection(tally_results *results, const char *spec)
{
    const char *at = strchr(spec, '@');
    const char *location = cli_store_location(cli_db);
    if (location == NULL)
        return cli_fail("%s: a store selection needs the store: --db STORE or TALLY_DB", spec);
    char *text = strdup(at + 1);
    char *label = at > spec ? strndup(spec, (size_t)(at - spec - 1)) : NULL;
    if (text == NULL || (at > spec && label == NULL)) {
        free(text);
        free(label);
        return cli_fail("out of memory");
    }
    tally_store_query q = TALLY_STORE_QUERY_INIT;
    tally_store *store = NULL;
    tally_results *found = NULL;
    int rc = cli_store_query_parse(&q, text, NULL);
    if (rc == CLI_EXIT_OK && (tally_store_open(&store, location, NULL) != TALLY_OK ||
                              tally_results_new(&found) != TALLY_OK ||
                              tally_store_select(found, store, &q) != TALLY_OK))
        rc = cli_fail_library();
    char name[512];
    cli_store_name(name, sizeof name, location);
    if (rc == CLI_EXIT_OK && tally_results_count(found) == 0)
        rc = cli_fail("%s: no result set in %s matches", spec, name);
    if (rc == CLI_EXIT_OK && label && tally_results_count(found) != 1)
        rc = cli_fail("%s: %zu result sets in %s match, a label names one (add 'latest' or "
                      "narrow the selection)", spec, tally_results_count(found), name);
    if (rc == CLI_EXIT_OK && label &&
        tally_resultset_set_label(tally_results_at(found, 0), label) != TALLY_OK)
        rc = cli_fail_library();
    if (rc == CLI_EXIT_OK && tally_results_merge(results, found) != TALLY_OK)
        rc = cli_fail("%s: %s", spec, tally_error_last()->message);
    tally_results_free(found);
    tally_store_close(store);
    free(text);
    free(label);
    return rc;
}

int cli_meta_option(cli_meta *meta, const char *command, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (eq == NULL || eq == arg)
        return cli_usage_error(command, "--meta needs KEY=VALUE, not '%s'", arg);
    char *key = strndup(arg, (size_t)(eq - arg));
    const char **keys = realloc(meta->keys, (meta->count + 1) * sizeof *keys);
    if (keys)
        meta->keys = keys;
    const char **values = realloc(meta->values, (meta->count + 1) * sizeof *values);
    if (values)
        meta->values = values;
    char **owned = realloc(meta->owned, (meta->count + 1) * sizeof *owned);
    if (owned)
        meta->owned = owned;
    if (key == NULL || keys == NULL || values == NULL || owned == NULL) {
        free(key);
        return cli_fail("out of memory");
    }
    meta->owned[meta->count] = key;
    meta->keys[meta->count] = key;
    meta->values[meta->count] = eq + 1;
    meta->count++;
    return CLI_EXIT_OK;
}

int cli_meta_apply(const cli_meta *meta, tally_results *results)
{
    for (size_t i = 0; i < tally_results_count(results); i++)
        for (size_t k = 0; k < meta->count; k++)
            if (tally_resultset_meta_set(tally_results_at(results, i), meta->keys[k],
                                         meta->values[k]) != TALLY_OK)
                return cli_fail_library();
    return CLI_EXIT_OK;
}

void cli_meta_free(cli_meta *meta)
{
    for (size_t i = 0; i < meta->count; i++)
        free(meta->owned[i]);
    free(meta->owned);
    free(meta->keys);
    free(meta->values);
    meta->count = 0;
    meta->owned = NULL;
    meta->keys = meta->values = NULL;
}

int cli_load_inputs(tally_results **out, char *const *specs, int count,
                    const tally_load_options *lo)
{
    *out = NULL;
    tally_results *results = NULL;
    if (tally_results_new(&results) != TALLY_OK)
        return cli_fail_library();
    /* Several inputs are compared file with file: each is one configuration where that pools
     * no samples (docs/importers.md, "Configurations inside one file"). */
    tally_load_options each = *lo;
    if (count > 1 && each.config_key == NULL)
        each.config_key = "file";
    /* With --samples, --case and --unit given as JSON paths ('$...') name where the cases and
     * units are (docs/importers.md, "JSON paths"). */
    if (each.samples_path && each.case_name && each.case_name[0] == '$') {
        each.case_path = each.case_name;
        each.case_name = NULL;
    }
    if (each.samples_path && each.unit && each.unit[0] == '$') {
        each.unit_path = each.unit;
        each.unit = NULL;
    }
    lo = &each;
    int stdin_used = 0;
    for (int i = 0; i < count; i++) {
        const char *spec = specs[i];
        const char *eq = strrchr(spec, '=');
        int is_stdin = strcmp(spec, "-") == 0 || (eq && eq != spec && strcmp(eq, "=-") == 0 &&
                                                  access(spec, F_OK) != 0);
        int rc = CLI_EXIT_OK;
        if (is_stdin && stdin_used++) {
            rc = cli_fail("standard input ('-') can be read only once");
        } else if (is_stdin) {
            char *label = NULL;
            if (spec[0] != '-' && (label = strdup(spec)) != NULL)
                label[eq - spec] = '\0';
            rc = load_stdin(results, label, lo);
            free(label);
        } else if (store_spec(spec)) {
            rc = load_selection(results, spec);
        } else if (tally_load_spec(results, spec, lo) != TALLY_OK) {
            rc = cli_fail_library();
        }
        if (rc != CLI_EXIT_OK) {
            tally_results_free(results);
            return rc;
        }
    }
    /* What loading split, merged or dropped: never silent. */
    for (size_t i = 0; i < tally_results_note_count(results); i++)
        fprintf(stderr, "tally: note: %s\n", tally_results_note_at(results, i));
    *out = results;
    return CLI_EXIT_OK;
}

/* The width cli_help wraps the input kinds at, and the column their continuation lines start at
 * (the descriptions' column of every help). */
#define HELP_WIDTH 86
#define HELP_COLUMN 28

void cli_help(const char *help)
{
    const char *mark = strstr(help, CLI_INPUT_KINDS_MARK);
    if (mark == NULL) {
        fputs(help, stdout);
        return;
    }
    fwrite(help, 1, (size_t)(mark - help), stdout);
    const char *line = mark;
    while (line > help && line[-1] != '\n')
        line--;
    size_t col = (size_t)(mark - line);
    const char *name;
    /* The kinds are numbered from 1 without a gap (tally/io.h), the registry's added ones last. */
    for (int k = 1; (name = tally_input_kind_name((tally_input_kind)k)) != NULL; k++) {
        size_t len = strlen(name);
        if (k > 1 && col + 2 + len + 1 > HELP_WIDTH) {
            printf(",\n%*s", HELP_COLUMN, "");
            col = HELP_COLUMN;
        } else if (k > 1) {
            fputs(", ", stdout);
            col += 2;
        }
        fputs(name, stdout);
        col += len;
    }
    fputs(mark + strlen(CLI_INPUT_KINDS_MARK), stdout);
}

int cli_input_option(tally_load_options *lo, const char *command, const char *name,
                     const char *value)
{
    if (strcmp(name, "from") == 0) {
        if (tally_input_kind_from_name(&lo->kind, value) != TALLY_OK)
            return cli_library_usage_error(command);
    } else if (strcmp(name, "benchmark") == 0) {
        lo->benchmark = value;
    } else if (strcmp(name, "case") == 0) {
        lo->case_name = value;
    } else if (strcmp(name, "case-format") == 0) {
        if (strstr(value, "{}") == NULL)
            return cli_usage_error(command, "--case-format needs {} for the case's name, as in "
                                            "'{}-workers', not '%s'", value);
        lo->case_format = value;
    } else if (strcmp(name, "unit") == 0) {
        lo->unit = value;
    } else if (strcmp(name, "config-key") == 0) {
        if (value[0] == '\0')
            return cli_usage_error(command, "--config-key needs a key, not ''");
        lo->config_key = value;
    } else if (strcmp(name, "runs") == 0) {
        char *end = NULL;
        unsigned long long n = value[0] >= '0' && value[0] <= '9' ? strtoull(value, &end, 10) : 0;
        if (end == NULL || *end != '\0' || n == 0 || n > (unsigned long long)SIZE_MAX)
            return cli_usage_error(command, "--runs takes a whole number >= 1, not '%s'", value);
        lo->runs = (size_t)n;
    } else if (strcmp(name, "samples") == 0) {
        lo->samples_path = value;
    } else if (strcmp(name, "columns") == 0) {
        lo->columns = value;
    } else if (strcmp(name, "db") == 0) {
        if (value[0] == '\0')
            return cli_usage_error(command, "--db needs a store: an SQLite file or a "
                                            "postgresql:// URL");
        cli_db = value;
    } else if (strcmp(name, "direction") == 0) {
        if (tally_direction_from_name(&lo->direction, value) != TALLY_OK)
            return cli_usage_error(command, "--direction takes lower or higher, not '%s'", value);
        lo->direction_given = 1;
    } else {
        return 0;
    }
    return 1;
}

int cli_input_getopt(tally_load_options *lo, const char *command, int c, const char *value,
                     const char *arg)
{
    static const struct {
        int c;
        const char *name;
    } names[] = { {'k', "from"}, {'B', "benchmark"}, {'K', "case"}, {'Y', "case-format"},
                  {'U', "unit"}, {'D', "direction"}, {'Q', "config-key"},
                  {CLI_RUNS_OPTION, "runs"}, {CLI_SAMPLES_OPTION, "samples"},
                  {CLI_COLUMNS_OPTION, "columns"}, {CLI_DB_OPTION, "db"} };
    for (size_t i = 0; i < COUNT(names); i++)
        if (names[i].c == c)
            return cli_input_option(lo, command, names[i].name, value) == 1 ? CLI_EXIT_OK
                                                                              : CLI_EXIT_USAGE;
    return cli_usage_error(command, "unknown or incomplete option '%s'", arg);
}

int cli_check_new_output(const char *command, const char *output, int force, char *const *specs,
                         int count)
{
    int rc = cli_check_output(command, output, specs, count);
    if (rc == CLI_EXIT_OK && output != NULL && !force && access(output, F_OK) == 0)
        rc = cli_fail("%s: %s already exists; write another file, or replace it with --force",
                      command, output);
    return rc;
}

/* The file an input spec names: the spec itself when it exists, else the part after '='. */
static const char *spec_path(const char *spec)
{
    struct stat st;
    const char *eq = strchr(spec, '=');
    if (eq == NULL || stat(spec, &st) == 0)
        return spec;
    return eq + 1;
}

int cli_check_output(const char *command, const char *output, char *const *specs, int count)
{
    struct stat out;
    if (output == NULL || stat(output, &out) != 0)
        return CLI_EXIT_OK;
    for (int i = 0; i < count; i++) {
        struct stat in;
        const char *path = spec_path(specs[i]);
        if (stat(path, &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
            return cli_fail("%s: -o %s is the input %s: writing it would destroy the input; "
                            "choose another output file",
                            command, output, specs[i]);
    }
    return CLI_EXIT_OK;
}

int cli_color_mode(const char *mode, FILE *stream)
{
    if (mode == NULL || strcmp(mode, "auto") == 0) {
        const char *no_color = getenv("NO_COLOR");
        if (no_color && no_color[0] != '\0')
            return 0;
        return isatty(fileno(stream)) ? 1 : 0;
    }
    if (strcmp(mode, "always") == 0)
        return 1;
    if (strcmp(mode, "never") == 0)
        return 0;
    return -1;
}

static int parse_alpha(double *out, const char *text)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !(v > 0.0 && v < 1.0))
        return -1;
    *out = v;
    return 0;
}

int cli_report_option(cli_report_args *args, const char *command, const char *name,
                      const char *value)
{
    if (strcmp(name, "style") == 0) {
        if (tally_style_from_name(&args->render.style, value) != TALLY_OK)
            return cli_library_usage_error(command);
    } else if (strcmp(name, "format") == 0) {
        if (tally_format_from_name(&args->render.format, value) != TALLY_OK)
            return cli_library_usage_error(command);
    } else if (strcmp(name, "statistic") == 0) {
        if (tally_statistic_from_name(&args->report.statistic, value) != TALLY_OK)
            return cli_library_usage_error(command);
    } else if (strcmp(name, "test") == 0) {
        if (tally_test_from_name(&args->report.test, value) != TALLY_OK)
            return cli_library_usage_error(command);
    } else if (strcmp(name, "alpha") == 0) {
        if (parse_alpha(&args->report.alpha, value) != 0)
            return cli_usage_error(command, "--alpha needs a number between 0 and 1, not '%s'",
                                   value);
    } else if (strcmp(name, "confidence") == 0) {
        if (parse_alpha(&args->report.confidence, value) != 0)
            return cli_usage_error(command,
                                   "--confidence needs a number between 0 and 1, not '%s'", value);
    } else if (strcmp(name, "adjust") == 0) {
        if (tally_adjust_from_name(&args->report.adjust, value) != TALLY_OK)
            return cli_library_usage_error(command);
    } else if (strcmp(name, "percentile") == 0) {
        if (tally_percentile_method_from_name(&args->report.percentile_method, value) != TALLY_OK)
            return cli_library_usage_error(command);
    } else if (strcmp(name, "filter") == 0) {
        args->report.filter = value;
    } else if (strcmp(name, "output") == 0) {
        args->output = value;
    } else if (strcmp(name, "color") == 0) {
        args->color = value;
    } else if (strcmp(name, "from") == 0) {
        if (cli_input_option(&args->load, command, name, value) != 1)
            return CLI_EXIT_USAGE;
        if (tally_input_kind_from_name(&args->kind, value) != TALLY_OK)
            return cli_library_usage_error(command);
    } else {
        return 0;
    }
    return 1;
}

int cli_terminal_width(FILE *stream)
{
    const char *columns = getenv("COLUMNS");
    if (columns && *columns) {
        char *end = NULL;
        long n = strtol(columns, &end, 10);
        if (*end == '\0' && n > 0 && n <= 10000)
            return (int)n;
    }
#ifdef TIOCGWINSZ
    struct winsize ws;
    if (isatty(fileno(stream)) && ioctl(fileno(stream), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
#endif
    return 80;
}

int cli_utf8_locale(void)
{
    /* The locale the user asked for, by the POSIX precedence; the process keeps the C locale. */
    static const char *const vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (size_t i = 0; i < COUNT(vars); i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            const char *dot = strchr(v, '.');
            if (dot == NULL)
                return 0;
            return strncasecmp(dot + 1, "utf-8", 5) == 0 || strncasecmp(dot + 1, "utf8", 4) == 0;
        }
    }
    return 0;
}

tally_format_info cli_format_info(tally_format format)
{
    for (size_t i = 0; i < tally_format_count(); i++) {
        tally_format_info f = { .size = sizeof f };
        if (tally_format_info_at(&f, i) == TALLY_OK && f.format == format)
            return f;
    }
    tally_format_info none = { .size = sizeof none, .format = format };
    return none;
}

int cli_report_finish(cli_report_args *args, const char *command)
{
    tally_format_info format = cli_format_info(args->render.format);
    int color = cli_color_mode(args->color, stdout);
    if (color < 0)
        return cli_usage_error(command, "--color takes auto, always or never, not '%s'",
                               args->color);
    /* Colour only ever goes to a terminal's text output, never into files. */
    args->render.color = args->output == NULL && format.terminal && color;
    if (format.file_only && args->output == NULL)
        return cli_usage_error(command, "--format %s needs -o FILE", format.name);
    if ((args->render.histogram || args->render.ascii) &&
        args->render.format != TALLY_FORMAT_TEXT)
        return cli_usage_error(command, "--hist and --ascii are for text output (--format text)");
    if ((args->render.only_changed || args->render.max_length != 0) &&
        args->render.format != TALLY_FORMAT_MARKDOWN)
        return cli_usage_error(command, "--only-changed and --max-length are for Markdown "
                                        "(--format md)");
    if (args->render.histogram) {
        args->render.width = args->output ? 80 : cli_terminal_width(stdout);
        if (!cli_utf8_locale())
            args->render.ascii = 1;
    }
    /* The table fits the terminal it is shown on (never wrapped); files and pipes take any
     * width unless --width says otherwise. */
    if (args->width > 0)
        args->render.fit_width = args->width;
    else if (args->output == NULL && format.terminal && isatty(fileno(stdout)))
        args->render.fit_width = cli_terminal_width(stdout);
    return CLI_EXIT_OK;
}

int cli_emit_report(const tally_report *report, const cli_report_args *args)
{
    if (args->output != NULL) {
        if (tally_report_write(report, args->output, &args->render) != TALLY_OK)
            return cli_fail_library();
        return CLI_EXIT_OK;
    }
    char *text = NULL;
    size_t len = 0;
    if (tally_report_render(&text, &len, report, &args->render) != TALLY_OK)
        return cli_fail_library();
    int failed = fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0;
    tally_free(text);
    if (failed)
        return cli_fail("cannot write to standard output");
    return CLI_EXIT_OK;
}
