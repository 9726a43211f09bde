/* Shared pieces of the tally command: exit statuses, error printing, loading inputs, writing
 * reports. Everything here uses the public API only. */
#ifndef TALLY_CLI_H
#define TALLY_CLI_H

#include <stdio.h>

#include "tally.h"

/* The number of elements of an array (the CLI sees only include/, so not util/count.h). */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Exit statuses, the same for every subcommand. */
enum {
    CLI_EXIT_OK = 0,       /* success */
    CLI_EXIT_FINDING = 1,  /* a gate tripped: significant regression, validation disagreement;
                              runs of a sweep failed (counted in its output) */
    CLI_EXIT_USAGE = 2,    /* bad usage or bad input: message on stderr */
    CLI_EXIT_INTERRUPTED = 130 /* a signal ended the work (128 + SIGINT); what was done is kept */
};

/* Print "tally: <message>" on stderr; return CLI_EXIT_USAGE. */
int cli_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Print the library's last error ("tally: file:line:col: ...") on stderr; return CLI_EXIT_USAGE. */
int cli_fail_library(void);

/* Flush standard output: `rc` when everything printed reached it, else the error (exit 2,
 * "cannot write to standard output: REASON"), for commands that print with printf. */
int cli_finish_stdout(int rc);

/* Print "Try 'tally CMD --help'." after a usage error; return CLI_EXIT_USAGE. */
int cli_usage_error(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A usage error whose text is the library's message for the call that just failed (an unknown
 * name: the library lists the valid ones). */
int cli_library_usage_error(const char *command);

/* Everything `in` holds until its end, NUL-terminated (*length without the NUL); NULL when out
 * of memory. The caller checks ferror(in) and frees the block. */
char *cli_read_all(FILE *in, size_t *length);

/* Load every input spec (`path`, `label=path`, `-` or `label=-` for standard input, `@SELECTION`
 * or `label=@SELECTION` for result sets of the store that --db or TALLY_DB names) into a new
 * list, in order, with the load options `lo` for all files. Returns CLI_EXIT_OK or prints the
 * error and returns CLI_EXIT_USAGE. */
int cli_load_inputs(tally_results **out, char *const *specs, int count,
                    const tally_load_options *lo);

/* Parse one input option (--from, --benchmark, --case, --case-format, --unit, --direction,
 * --config-key, by long name) into lo. Returns 1 when handled, 0 when not an input option, or CLI_EXIT_USAGE
 * (after printing) for a bad value. */
int cli_input_option(tally_load_options *lo, const char *command, const char *name,
                     const char *value);

/* The getopt_long value of --db (a reading command's store for @selections). */
#define CLI_DB_OPTION 1900
/* ... of --runs, --samples and --columns (input options without a short letter). */
#define CLI_RUNS_OPTION 1901
#define CLI_SAMPLES_OPTION 1902
#define CLI_COLUMNS_OPTION 1903

/* The input options' entries of a getopt_long table, shared by every reading command; their
 * values are the letters cli_input_getopt() takes. */
#define CLI_INPUT_LONG_OPTIONS                                                                 \
    {"from", required_argument, NULL, 'k'}, {"benchmark", required_argument, NULL, 'B'},       \
    {"case", required_argument, NULL, 'K'}, {"case-format", required_argument, NULL, 'Y'},     \
    {"unit", required_argument, NULL, 'U'}, {"direction", required_argument, NULL, 'D'},      \
    {"config-key", required_argument, NULL, 'Q'},                                            \
    {"runs", required_argument, NULL, CLI_RUNS_OPTION},                                      \
    {"samples", required_argument, NULL, CLI_SAMPLES_OPTION},                                \
    {"columns", required_argument, NULL, CLI_COLUMNS_OPTION},                                \
    {"db", required_argument, NULL, CLI_DB_OPTION}

/* The `default:` of a reading command's getopt_long loop: cli_input_option() for the value c of
 * a CLI_INPUT_LONG_OPTIONS entry, else "unknown or incomplete option ARG". CLI_EXIT_OK when
 * handled, or CLI_EXIT_USAGE (after printing). */
int cli_input_getopt(tally_load_options *lo, const char *command, int c, const char *value,
                     const char *arg);

/* The --from help line that lists the input kinds: cli_help() writes the library's names (its
 * importer registry) in place of the mark, so the list never falls behind the library. */
#define CLI_INPUT_KINDS_MARK "\x01"
#define CLI_FROM_KINDS_HELP                                                                    \
    "      --from KIND           input kind instead of detection (" CLI_INPUT_KINDS_MARK ")\n"

/* Print a command's help on standard output, a CLI_INPUT_KINDS_MARK in it replaced by the names
 * of every input kind, comma-separated and wrapped under the descriptions' column. */
void cli_help(const char *help);

/* Help lines of the input options, shared by every reading command. */
#define CLI_INPUT_OPTIONS_HELP                                                                 \
    "      --benchmark NAME      name the benchmark of plain files and tool outputs, or\n"    \
    "                            rename a file's only benchmark\n"                             \
    "      --case NAME           name a benchmark's only case (plain files: 'all')\n"         \
    "      --case-format FMT     rename every case, {} is its name ('{}-workers')\n"          \
    "      --unit UNIT           plain files: the unit of the numbers\n"                      \
    "      --direction DIR       plain files: lower or higher is better (default from\n"      \
    "                            the unit: rates such as MB/s are higher)\n"                 \
    "      --config-key KEY      what separates the configurations of one file: hyperfine\n"  \
    "                            'command' (default) or a parameter; go test key-line\n"     \
    "                            keys (default: those that change); pyperf 'name'; or\n"      \
    "                            'none' (the file is one configuration)\n"    \
    "      --runs N              the runs each summary of a hyperfine CSV export holds\n"     \
    "      --samples PATH        any JSON file: the JSON path of the sample arrays\n"         \
    "                            ('$.benchmarks[*].stats.data'); then --case PATH and\n"     \
    "                            --unit PATH ('$...') name the cases' and units' paths\n"    \
    "      --columns MAP         any CSV/TSV file: case=COL,value=COL[,config=COL]\n"       \
    "                            [,benchmark=COL][,unit=COL] (COL: a header name)\n"

/* Help lines of the presentation options of the text styles, shared by compare and summary. */
#define CLI_PRESENTATION_HELP                                                                  \
    "      --precision N         N decimals for every value of the text styles (default:\n"  \
    "                            the digits the spread justifies, in SI-prefixed units;\n"    \
    "                            the mmtests and pct layouts keep %.4f / %.2f)\n"             \
    "      --only-statistic      mmtests style: only the compared statistic's rows\n"     \
    "      --print-ratio         mmtests style: Ratio rows and a Gmean row after them\n"   \
    "      --case-label [BENCH=]LABEL\n"                                                    \
    "                            first-column label of the normalized and pct styles\n"    \
    "                            (Clients, Test, #workers), for BENCH or every benchmark\n" \
    "      --units-text [BENCH=]TEXT\n"                                                     \
    "                            normalized style: 'Units : Normalized TEXT'\n"            \
    "      --case-strip [BENCH=]TEXT\n"                                                    \
    "                            show case names without TEXT at their end (or start):\n" \
    "                            --case-strip -workers shows 1-workers as 1\n"             \
    "      --case-width [BENCH=]N\n"                                                       \
    "                            normalized and pct styles: a case column N wide (a\n"    \
    "                            longer name takes from the gap after it)\n"              \
    "      --case-gap [BENCH=]N  pct style: N spaces between the case column and the\n"   \
    "                            first cell (default 4)\n"                                  \
    "      --title-indent [BENCH=]N\n"                                                     \
    "                            pct style: configuration names start N columns into\n"  \
    "                            their cells (default 4)\n"                                 \
    "      --width N             lay the text styles out for N columns (default: the\n"   \
    "                            terminal's, from COLUMNS or the terminal itself, when\n"  \
    "                            standard output is one; else no limit)\n"                \
    "      --system              start with the system details (kernel, CPU, memory,\n"    \
    "                            governor) recorded in the configurations' metadata\n"

/* Help lines shared by compare and summary: the histograms after the text report, the
 * diagnostics notes and the Markdown length limit. */
#define CLI_HIST_HELP                                                                          \
    "      --hist                after the text report, a compact distribution of every\n"   \
    "                            case (one line per configuration, terminal-wide)\n"         \
    "      --ascii               draw --hist with ASCII (the default outside UTF-8 locales)\n"
#define CLI_DIAGNOSE_HELP                                                                      \
    "      --diagnose            diagnostics notes (trend, warm-up, autocorrelation, step,\n" \
    "                            modes, outliers) in the mmtests, normalized and pct styles\n" \
    "                            too (the table style and Markdown always show them)\n"      \
    "      --expect-diff KEY     the configurations are meant to differ in metadata KEY\n"    \
    "                            (e.g. kernel, governor, param.*): no warning for it\n"
#define CLI_MAX_LENGTH_HELP                                                                    \
    "      --max-length N        Markdown: at most N bytes (default 65536, GitHub's comment\n" \
    "                            limit; 'none': no limit), leaving out the least important\n" \
    "                            rows and notes first, and saying so at the top\n"

/* --meta KEY=VALUE stamps, in the order given (a repeated KEY keeps its last value). */
typedef struct cli_meta {
    size_t count;
    const char **keys;   /* into the arguments */
    const char **values;
    char **owned;        /* the KEY copies */
} cli_meta;

/* Parse one --meta argument `arg` (KEY=VALUE, KEY non-empty) into meta. Returns CLI_EXIT_OK, or
 * CLI_EXIT_USAGE after printing. */
int cli_meta_option(cli_meta *meta, const char *command, const char *arg);

/* Set every stamp on every result set of `results`. Returns CLI_EXIT_OK or CLI_EXIT_USAGE after
 * printing. */
int cli_meta_apply(const cli_meta *meta, tally_results *results);

void cli_meta_free(cli_meta *meta);

/* The store a command reads or writes: `given` (--db), else $TALLY_DB, else NULL. */
const char *cli_store_location(const char *given);

/* `location` fit to print: a URL without its user, password and parameters. */
void cli_store_name(char *buf, size_t cap, const char *location);

/* Parse a selection "KEY=VALUE,...,latest" (docs/store.md) into q; the strings point into
 * `text`, which is modified. Returns CLI_EXIT_OK or CLI_EXIT_USAGE after printing (a usage
 * error of `command`, or a plain error when `command` is NULL: an input). */
int cli_store_query_parse(tally_store_query *q, char *text, const char *command);

/* Help lines of --meta, shared by run, import and merge. */
#define CLI_META_HELP                                                                          \
    "      --meta KEY=VALUE      stamp every result set with metadata KEY (repeatable):\n"    \
    "                            commit, branch, machine, CI job, time (tally history\n"     \
    "                            orders and labels points by them)\n"

/* Refuse an output path that is one of the inputs (the same file, by device and inode): exit
 * status CLI_EXIT_USAGE after printing, else CLI_EXIT_OK. */
int cli_check_output(const char *command, const char *output, char *const *specs, int count);

/* cli_check_output(), and an existing output file refused unless `force` (the commands that
 * write result sets: import, merge). */
int cli_check_new_output(const char *command, const char *output, int force, char *const *specs,
                         int count);

/* Whether to colour text written to `stream`: mode "auto" (a terminal and NO_COLOR unset),
 * "always" or "never". Returns -1 for an unknown mode. */
int cli_color_mode(const char *mode, FILE *stream);

/* Options that shape a report, shared by compare and summary. */
typedef struct cli_report_args {
    tally_report_options report;
    tally_render_options render;
    const char *output;     /* -o PATH, or NULL for stdout */
    const char *color;      /* --color MODE */
    tally_input_kind kind;  /* --from KIND */
    tally_load_options load; /* --from and the other input options */
    int width;              /* --width N; 0: the terminal's when stdout is one */
} cli_report_args;

/* Parse one report-shaping option (by its long name) into args. Returns 1 when handled,
 * 0 when not a report option, or CLI_EXIT_USAGE (after printing) for a bad value. */
int cli_report_option(cli_report_args *args, const char *command, const char *name,
                      const char *value);

/* Settle defaults that depend on several options (colour, xlsx needs -o). Returns CLI_EXIT_OK
 * or CLI_EXIT_USAGE after printing. */
int cli_report_finish(cli_report_args *args, const char *command);

/* What output format `format` needs and where it goes, from the library's table of renderers
 * (tally_format_info_at); all zero but `format` for a format the library does not list. */
tally_format_info cli_format_info(tally_format format);

/* Columns of the terminal on `stream`: $COLUMNS when set, else the terminal's width, else 80. */
int cli_terminal_width(FILE *stream);

/* 1 when the user's locale (LC_ALL, else LC_CTYPE, else LANG) names UTF-8; the process itself
 * stays in the C locale. */
int cli_utf8_locale(void);

/* Render a report to stdout or to args->output (atomically). Returns CLI_EXIT_OK or prints
 * and returns CLI_EXIT_USAGE. */
int cli_emit_report(const tally_report *report, const cli_report_args *args);

/* Subcommands. */
int cmd_compare(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_query(int argc, char **argv);

#endif /* TALLY_CLI_H */
