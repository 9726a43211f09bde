/* Long-form CSV/TSV input and the RFC 4180 tokenizer. Expected values are read off the data
 * files by hand (each file is a few lines; the comments say which line gives which number). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "formats/csv_tokenizer.h"
#include "util/internal.h"
#include "tally.h"

static const tally_case *case_of(const tally_results *r, const char *label, const char *bench,
                                 const char *name)
{
    const tally_resultset *rs = tally_results_find(r, label);
    const tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, bench) : NULL;
    return b ? tally_benchmark_case_find(b, name) : NULL;
}

static void test_tokenizer(void)
{
    /* Record 1: plain fields; record 2: "" twice in one record (scratch buffer), a quoted
     * separator, a line break inside quotes, an empty last field; record 3: CRLF. */
    const char *text = "a,bb,\n\"x\"\"y\",\"p,q\",\"1\n2\"\"\",\n\"\",z\r\n";
    tally__csv c;
    tally__csv_init(&c, "t.csv", text, strlen(text), ',');
    CHECK_INT(tally__csv_next(&c), 1);
    CHECK_INT(c.count, 3);
    CHECK(c.fields[1].len == 2 && memcmp(c.fields[1].text, "bb", 2) == 0);
    CHECK_INT(c.fields[1].col, 3);
    CHECK_INT(c.fields[2].len, 0);
    CHECK_INT(c.fields[2].col, 6);

    CHECK_INT(tally__csv_next(&c), 1);
    CHECK_INT(c.count, 4);
    CHECK(c.fields[0].len == 3 && memcmp(c.fields[0].text, "x\"y", 3) == 0);
    CHECK(c.fields[0].quoted);
    CHECK(c.fields[1].len == 3 && memcmp(c.fields[1].text, "p,q", 3) == 0);
    CHECK_INT(c.fields[1].col, 8); /* "x""y", is 7 bytes */
    CHECK(c.fields[2].len == 4 && memcmp(c.fields[2].text, "1\n2\"", 4) == 0);
    CHECK_INT(c.fields[2].line, 2);
    CHECK_INT(c.fields[3].line, 3); /* after the quoted line break */
    CHECK_INT(c.fields[3].col, 6);  /* 2""", is 5 bytes on line 3 */

    CHECK_INT(tally__csv_next(&c), 1);
    CHECK_INT(c.count, 2);
    CHECK_INT(c.fields[0].len, 0);
    CHECK(c.fields[0].quoted);
    CHECK(c.fields[1].len == 1 && c.fields[1].text[0] == 'z');
    CHECK_INT(c.fields[1].line, 4);
    CHECK_INT(tally__csv_next(&c), 0);
    tally__csv_dispose(&c);

    tally__csv_init(&c, "t.tsv", "a b\tc,d\n", 8, '\t');
    CHECK_INT(tally__csv_next(&c), 1);
    CHECK_INT(c.count, 2);
    CHECK(c.fields[1].len == 3 && memcmp(c.fields[1].text, "c,d", 3) == 0);
    tally__csv_dispose(&c);
}

static void test_two_configs(void)
{
    tally_results *r;
    tally_results_new(&r);
    const char *path = TALLY_TEST_DATA "/csv/two-configs.csv";
    CHECK_INT(tally_load_file(r, path, NULL), TALLY_OK);
    CHECK_INT(tally_results_count(r), 2);
    /* First seen config is first: base (line 2), then patched (line 6). */
    const tally_resultset *base = tally_results_at(r, 0), *patched = tally_results_at(r, 1);
    CHECK_STR(tally_resultset_label(base), "base");
    CHECK_STR(tally_resultset_label(patched), "patched");
    CHECK_STR(tally_resultset_meta_get(base, "source_file"), path);
    CHECK_INT(tally_resultset_benchmark_count(base), 2);
    const tally_benchmark *hb = tally_resultset_benchmark_at(base, 0);
    const tally_benchmark *st = tally_resultset_benchmark_at(base, 1);
    CHECK_STR(tally_benchmark_name(hb), "hackbench");
    CHECK_STR(tally_benchmark_unit(hb), "s");
    CHECK_INT(tally_benchmark_direction(hb), TALLY_LOWER_IS_BETTER);
    CHECK_STR(tally_benchmark_name(st), "stream");
    CHECK_STR(tally_benchmark_unit(st), "MB/s");
    CHECK_INT(tally_benchmark_direction(st), TALLY_HIGHER_IS_BETTER);
    /* base/hackbench/1: lines 2, 3 and 9 in file order. */
    const tally_case *c = case_of(r, "base", "hackbench", "1");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(tally_case_samples(c)[0] == 0.5 && tally_case_samples(c)[1] == 0.25 &&
          tally_case_samples(c)[2] == 0.125);
    CHECK_STR(tally_case_name(tally_benchmark_case_at(hb, 1)), "4");
    /* patched lists case 4 before case 1 (lines 6 and 7). */
    const tally_benchmark *phb = tally_resultset_benchmark_find(patched, "hackbench");
    CHECK_STR(tally_case_name(tally_benchmark_case_at(phb, 0)), "4");
    CHECK(tally_case_samples(case_of(r, "patched", "stream", "Triad"))[0] == 2000.0);
    tally_results_free(r);
}

static void test_quoting(void)
{
    tally_results *r;
    tally_results_new(&r);
    CHECK_INT(tally_load_file(r, TALLY_TEST_DATA "/csv/quoted.csv", NULL), TALLY_OK);
    CHECK_INT(tally_results_count(r), 2);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 0)), "tip, patched");
    const tally_case *c = case_of(r, "tip, patched", "pipe \"fast\"", "1 group");
    CHECK(c && tally_case_sample_count(c) == 1 && tally_case_samples(c)[0] == 1.5);
    /* A quoted field keeps its CRLF line break verbatim. */
    c = case_of(r, "tip, patched", "pipe \"fast\"", "two\r\nlines");
    CHECK(c && tally_case_samples(c)[0] == 2.0);
    /* Blanks around unquoted fields are dropped: "  tip  " is tip, " 3e-1 " is 0.3. */
    c = case_of(r, "tip", "pipe", "1 group");
    CHECK(c && tally_case_samples(c)[0] == 0.3);
    /* No unit and no better column: unit "" and lower is better. */
    const tally_benchmark *b = tally_resultset_benchmark_at(tally_results_at(r, 1), 0);
    CHECK_STR(tally_benchmark_unit(b), "");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    tally_results_free(r);
}

static void test_tsv_rates(void)
{
    tally_results *r;
    tally_results_new(&r);
    CHECK_INT(tally_load_file(r, TALLY_TEST_DATA "/csv/rates.tsv", NULL), TALLY_OK);
    CHECK_INT(tally_results_count(r), 2);
    const tally_benchmark *b = tally_resultset_benchmark_at(tally_results_at(r, 1), 0);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 1)), "eie");
    /* Unit MB/s without a better column reads as a rate: higher is better. */
    CHECK_INT(tally_benchmark_direction(b), TALLY_HIGHER_IS_BETTER);
    const tally_case *c = case_of(r, "tip", "tbench", "16 clients");
    CHECK(c && tally_case_sample_count(c) == 2 && tally_case_samples(c)[1] == 4600.0);
    tally_results_free(r);
}

static void test_lenient_parts(void)
{
    tally_results *r;
    tally_results_new(&r);
    tally_load_options csv = TALLY_LOAD_OPTIONS_INIT;
    csv.kind = TALLY_INPUT_CSV;
    /* A byte-order mark, an unknown column, upper-case names, blank lines, no final newline. */
    const char *text = "\xEF\xBB\xBFrun,Benchmark,CASE,config,value\n\n1,b,c,x,2\n\n2,b,c,x,4";
    CHECK_INT(tally_load_buffer(r, text, strlen(text), "l.csv", &csv), TALLY_OK);
    const tally_case *c = case_of(r, "x", "b", "c");
    CHECK(c && tally_case_sample_count(c) == 2 && tally_case_samples(c)[1] == 4.0);
    tally_results_free(r);
}

/* Loads `text` as CSV (or TSV) and checks the error code and the whole message. */
static void expect_error(const char *text, size_t len, tally_input_kind kind, int code,
                         const char *message)
{
    tally_results *r;
    tally_results_new(&r);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = kind;
    CHECK_INT(tally_load_buffer(r, text, len, "r.csv", &opts), code);
    CHECK_STR(tally_error_last()->message, message);
    CHECK_INT(tally_results_count(r), 0);
    tally_results_free(r);
}

#define HEAD "benchmark,case,config,value\n"
#define BAD(text, code, message) expect_error(text, sizeof(text) - 1, TALLY_INPUT_CSV, code, message)

/* Comment lines a script wrote above the header ('#' first, blanks before it allowed) and blank
 * lines are passed over, with line numbers still counted from the top of the file; detection
 * finds the header under them. Below the header '#' is data: a case may be named "#2". */
static void test_comment_preamble(void)
{
    tally_results *r;
    tally_results_new(&r);
    const char *text = "# kernel 6.8.0-rc3\n\n  # cmd: ./bench -n 2\r\n"
                       "benchmark,case,config,value\nb,#2,x,2\nb,#2,x,5\n";
    CHECK_INT(tally_load_buffer(r, text, strlen(text), "p.csv", NULL), TALLY_OK);
    const tally_case *c = case_of(r, "x", "b", "#2");
    /* Rows 5 and 6 of the text: 2 and 5. */
    CHECK(c && tally_case_sample_count(c) == 2 && tally_case_samples(c)[0] == 2.0 &&
          tally_case_samples(c)[1] == 5.0);
    tally_results_free(r);
    /* The bad value sits on line 5 (three preamble lines, the header on line 4), column 7
     * ("b,1,c," is 6 bytes). */
    tally_results_new(&r);
    const char *bad = "# a\n# b\n\n" HEAD "b,1,c,zz\n";
    CHECK_INT(tally_load_buffer(r, bad, strlen(bad), "p.csv", NULL), TALLY_EPARSE);
    CHECK_STR(tally_error_last()->message, "p.csv:5:7: expected a number, found 'zz'");
    tally_results_free(r);
    BAD("# only a comment\n#\n", TALLY_EFORMAT,
        "r.csv:2:1: only comments, no header: a header needs benchmark,case,config,value; unit "
        "and better are optional");
    /* The header on line 2, under one comment. */
    BAD("# c\nbenchmark,case,value\nx,1,2\n", TALLY_EFORMAT,
        "r.csv:2:1: no column 'config' in the header (a header needs benchmark,case,config,value; "
        "unit and better are optional)");
}

/* The same length limit as every other reader (docs/formats.md): 1024 characters accepted, 1025
 * refused, though the value would be exact. */
static void test_long_number(void)
{
    static char text[1200];
    int n = snprintf(text, sizeof text, "%s", HEAD "b,1,c,1.");
    memset(text + n, '0', 1022); /* "1." + 1022 zeros: 1024 characters */
    memcpy(text + n + 1022, "\n", 2);
    tally_results *r;
    tally_results_new(&r);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = TALLY_INPUT_CSV;
    CHECK_INT(tally_load_buffer(r, text, strlen(text), "r.csv", &opts), TALLY_OK);
    tally_results_free(r);
    memcpy(text + n + 1022, "0\n", 3);
    tally_results_new(&r);
    CHECK_INT(tally_load_buffer(r, text, strlen(text), "r.csv", &opts), TALLY_EPARSE);
    CHECK(strncmp(tally_error_last()->message,
                  "r.csv:2:7: number longer than 1024 characters, found '1.000", 57) == 0);
    tally_results_free(r);
}

static void test_errors(void)
{
    BAD("", TALLY_EFORMAT,
        "r.csv:1:1: empty file: a header needs benchmark,case,config,value; unit and better are "
        "optional");
    BAD("benchmark,case,value\nx,1,2\n", TALLY_EFORMAT,
        "r.csv:1:1: no column 'config' in the header (a header needs benchmark,case,config,value; "
        "unit and better are optional)");
    BAD("benchmark,case,config,value,Case\n", TALLY_EPARSE,
        "r.csv:1:29: column 'case' appears twice in the header");
    BAD(HEAD, TALLY_ENODATA, "r.csv: no data rows after the header");
    BAD(HEAD "\n\n", TALLY_ENODATA, "r.csv: no data rows after the header");
    /* "b,1,c,1," is 8 bytes: the extra field starts in column 9. */
    BAD(HEAD "b,1,c,1,extra\n", TALLY_EPARSE, "r.csv:2:9: expected 4 fields as in the header, found 5");
    /* The record ends after "b,1,c" (5 bytes): column 6. */
    BAD(HEAD "b,1,c\n", TALLY_EPARSE, "r.csv:2:6: expected 4 fields as in the header, found 3");
    BAD(HEAD "b,1,c,abc\n", TALLY_EPARSE, "r.csv:2:7: expected a number, found 'abc'");
    BAD(HEAD "b,1,c,1.5.2\n", TALLY_EPARSE, "r.csv:2:7: expected a number, found '1.5.2'");
    BAD(HEAD "b,1,c,\n", TALLY_EPARSE, "r.csv:2:7: empty value");
    BAD(HEAD "b,1,c,1\nb,1,c,nan\n", TALLY_ENONFINITE,
        "r.csv:3:7: expected a finite number, found 'nan'");
    BAD(HEAD "b,1,c,-inf\n", TALLY_ENONFINITE, "r.csv:2:7: expected a finite number, found '-inf'");
    BAD(HEAD "b,1,c,1e999\n", TALLY_ENONFINITE,
        "r.csv:2:7: number out of range (beyond 1.8e308), found '1e999'");
    BAD(HEAD "b,1,c,-1e-400\n", TALLY_ENONFINITE,
        "r.csv:2:7: number out of range (below 4.9e-324, it would read as 0), found '-1e-400'");
    BAD(HEAD ",1,c,2\n", TALLY_EPARSE, "r.csv:2:1: empty benchmark name");
    BAD(HEAD "b, ,c,2\n", TALLY_EPARSE, "r.csv:2:3: empty case name");
    BAD(HEAD "b,1,\"\",2\n", TALLY_EPARSE, "r.csv:2:5: empty config name");
    BAD("benchmark,case,config,value,unit\nb,1,c,1,s\nb,2,c,2,ms\n", TALLY_EMISMATCH,
        "r.csv:3:9: mixed units in benchmark 'b': 'ms' here, 's' in earlier rows");
    /* The same benchmark in another configuration must keep its unit too. */
    BAD("benchmark,case,config,value,unit\nb,1,c,1,s\nb,1,d,2,ms\n", TALLY_EMISMATCH,
        "r.csv:3:9: mixed units in benchmark 'b': 'ms' here, 's' in earlier rows");
    BAD("benchmark,case,config,value,better\nb,1,c,1,lower\nb,2,c,2,higher\n", TALLY_EMISMATCH,
        "r.csv:3:9: conflicting 'better' for benchmark 'b': 'higher' here, 'lower' in earlier rows");
    BAD("benchmark,case,config,value,better\nb,1,c,1,up\n", TALLY_EPARSE,
        "r.csv:2:9: expected 'lower' or 'higher' in column 'better', found 'up'");
    BAD("benchmark,case,config,value,better\nb,1,c,1,\n", TALLY_EPARSE,
        "r.csv:2:9: expected 'lower' or 'higher' in column 'better', found ''");
    BAD(HEAD "\"b,1,c,1\n", TALLY_EPARSE, "r.csv:2:1: quoted field never closed (truncated file?)");
    BAD(HEAD "\"b\"x,1,c,1\n", TALLY_EPARSE,
        "r.csv:2:4: unexpected character after a closing quote (a quote inside a quoted field is "
        "written \"\")");
    BAD(HEAD "b\"x,1,c,1\n", TALLY_EPARSE,
        "r.csv:2:2: quote inside an unquoted field (quote the whole field)");
    BAD(HEAD "b,1,c\0,1\n", TALLY_EFORMAT, "r.csv:2:6: NUL byte in a text file (is this a binary file?)");
    BAD(HEAD "b,1,\"c\0\",1\n", TALLY_EFORMAT, /* b,1,"c is 6 bytes */
        "r.csv:2:7: NUL byte in a text file (is this a binary file?)");
    expect_error("benchmark\tcase\tconfig\tvalue\nb\t1\tc\tx\n", 35, TALLY_INPUT_TSV, TALLY_EPARSE,
                 "r.csv:2:7: expected a number, found 'x'");
}

static void test_long_record(void)
{
    /* One byte over the 1 MiB record limit of text.h. */
    size_t n = (1u << 20) + 16;
    char *text = malloc(n + 64);
    strcpy(text, HEAD "b,1,c,");
    size_t at = strlen(text);
    memset(text + at, '1', n);
    text[at + n] = '\n';
    expect_error(text, at + n + 1, TALLY_INPUT_CSV, TALLY_ELIMIT,
                 "r.csv:2:1: record longer than 1048576 bytes");
    free(text);
}

static void test_bundled_example(void)
{
    tally_results *r;
    tally_results_new(&r);
    CHECK_INT(tally_load_file(r, TALLY_TEST_DATA "/../../docs/examples/hackbench-process-pipes.csv",
                              NULL),
              TALLY_OK);
    CHECK_INT(tally_results_count(r), 3);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 0)), "5.14.0-rc3-vanilla");
    CHECK_STR(tally_resultset_label(tally_results_at(r, 1)), "5.14.0-rc3-alwayswake-v1r1");
    CHECK_STR(tally_resultset_label(tally_results_at(r, 2)), "5.14.0-rc3-specialcase-v1r1");
    static const char *const groups[] = { "1",   "4",   "7",   "12",  "21",  "30",  "48", "79",
                                          "110", "141", "172", "203", "234", "265", "296" };
    for (size_t i = 0; i < 3; i++) {
        const tally_benchmark *b = tally_resultset_benchmark_at(tally_results_at(r, i), 0);
        CHECK_STR(tally_benchmark_name(b), "hackbench-process-pipes");
        CHECK_STR(tally_benchmark_unit(b), "s");
        CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
        CHECK_INT(tally_benchmark_case_count(b), 15);
        for (size_t k = 0; k < 15; k++) {
            CHECK_STR(tally_case_name(tally_benchmark_case_at(b, k)), groups[k]);
            CHECK_INT(tally_case_sample_count(tally_benchmark_case_at(b, k)), 3);
        }
    }
    /* Lines 2-4 and 134-136 of the file. */
    const double *x = tally_case_samples(case_of(r, "5.14.0-rc3-vanilla", "hackbench-process-pipes", "1"));
    CHECK(x[0] == 0.371 && x[1] == 0.396 && x[2] == 0.373);
    x = tally_case_samples(case_of(r, "5.14.0-rc3-specialcase-v1r1", "hackbench-process-pipes", "296"));
    CHECK(x[0] == 8.041 && x[1] == 7.461 && x[2] == 7.948);
    tally_results_free(r);
}

/* The samples of case (x, b, name) after loading `text` as CSV, which must load. */
static void expect_samples(const char *text, const char *name, const double *want, size_t n)
{
    tally_results *r;
    tally_results_new(&r);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = TALLY_INPUT_CSV;
    CHECK_INT(tally_load_buffer(r, text, strlen(text), "f.csv", &opts), TALLY_OK);
    const tally_case *c = case_of(r, "x", "b", name);
    CHECK(c != NULL);
    if (c != NULL) {
        CHECK_INT(tally_case_sample_count(c), n);
        for (size_t i = 0; i < n && i < tally_case_sample_count(c); i++)
            CHECK(tally_case_samples(c)[i] == want[i]);
    }
    tally_results_free(r);
}

/* Rows that repeat the previous row's bytes but for the number skip the tokenizer; every other
 * row takes it. The values are the numbers in the texts, in row order. */
static void test_repeated_rows(void)
{
    static const double one_two_three[] = { 1.5, 2.5, 30 };
    /* CRLF line breaks, the unit after the value. */
    expect_samples("benchmark,case,config,value,unit\r\nb,1,x,1.5,s\r\nb,1,x,2.5,s\r\n"
                   "b,1,x,3e1,s\r\n",
                   "1", one_two_three, 3);
    /* The last row without its line break: after "\n", after "\r\n", and a last "\r". */
    expect_samples(HEAD "b,1,x,1.5\nb,1,x,2.5\nb,1,x,3e1", "1", one_two_three, 3);
    expect_samples("benchmark,case,config,value,unit\r\nb,1,x,1.5,s\r\nb,1,x,2.5,s\r\n"
                   "b,1,x,3e1,s",
                   "1", one_two_three, 3);
    expect_samples(HEAD "b,1,x,1.5\r\nb,1,x,2.5\r\nb,1,x,3e1\r", "1", one_two_three, 3);
    /* The value in the middle; blanks around it (the rows after a blank one are retokenized). */
    static const double mid[] = { 1, 2, 4, 5 };
    expect_samples("benchmark,value,case,config\nb,1,m,x\nb,2,m,x\nb,3,n,x\nb, 4 ,m,x\n"
                   "b, 5 ,m,x\n",
                   "m", mid, 4);
    /* Quoted fields: a quoted value, quoted names of the same case, "" inside a name. */
    static const double quoted[] = { 1, 2, 4, 5, 6 };
    expect_samples(HEAD "b,q,x,1\nb,q,x,2\nb,q,x,\"4\"\n\"b\",\"q\",x,5\n\"b\",\"q\",x,6\n"
                   "b,\"q\"\"\",x,7\n",
                   "q", quoted, 5);
    /* Every field quoted, blanks inside the quotes of a value (kept out of the number). */
    static const double all_quoted[] = { 1, 2, 3, 4 };
    expect_samples("\"benchmark\",\"case\",\"config\",\"value\"\r\n\"b\",\"q\",\"x\",\"1\"\r\n"
                   "\"b\",\"q\",\"x\",\"2\"\r\n\"b\",\"q\",\"x\",\" 3 \"\r\n\"b\",\"q\",\"x\",\" 4 \"",
                   "q", all_quoted, 4);
    BAD(HEAD "b,1,c,\"1\"\nb,1,c,\"2\"\nb,1,c,\"2\"\"\"\n", TALLY_EPARSE,
        "r.csv:4:7: expected a number, found '2\"'");
    /* The case (and then the configuration) changes on every row. */
    static const double odd[] = { 1, 3, 5 }, even[] = { 2, 4 };
    const char *alternating = HEAD "b,1,x,1\nb,2,x,2\nb,1,x,3\nb,2,x,4\nb,1,x,5\n";
    expect_samples(alternating, "1", odd, 3);
    expect_samples(alternating, "2", even, 2);
    static const double in_x[] = { 1, 3 };
    expect_samples(HEAD "b,1,x,1\nb,1,y,2\nb,1,x,3\nb,1,y,4\n", "1", in_x, 2);

    /* A bad number after repeated rows: its own line and column ("b,1,c," is 6 bytes). */
    BAD(HEAD "b,1,c,1\nb,1,c,2\nb,1,c,2.5x\n", TALLY_EPARSE,
        "r.csv:4:7: expected a number, found '2.5x'");
    BAD(HEAD "b,1,c,1\r\nb,1,c,2\r\nb,1,c,1e999\r\n", TALLY_ENONFINITE,
        "r.csv:4:7: number out of range (beyond 1.8e308), found '1e999'");
    BAD(HEAD "b,1,c,1\nb,1,c,2\nb,1,c,inf", TALLY_ENONFINITE,
        "r.csv:4:7: expected a finite number, found 'inf'");
    BAD(HEAD "b,1,c,1\nb,1,c,\n", TALLY_EPARSE, "r.csv:3:7: empty value");
    BAD(HEAD "b,1,c,1\nb,1,c,2,extra\n", TALLY_EPARSE,
        "r.csv:3:9: expected 4 fields as in the header, found 5");
    BAD("benchmark,case,config,value,unit\nb,1,c,1,s\nb,1,c,2,s\nb,1,c,3,ms\n", TALLY_EMISMATCH,
        "r.csv:4:9: mixed units in benchmark 'b': 'ms' here, 's' in earlier rows");
    /* Many repeated rows, then a bad one: the header, 999 good rows, the bad row on line 1001. */
    static char many[16 * 1024];
    size_t at = (size_t)snprintf(many, sizeof many, "%s", HEAD);
    for (int i = 0; i < 999; i++)
        at += (size_t)snprintf(many + at, sizeof many - at, "b,1,c,%d.25\n", i);
    snprintf(many + at, sizeof many - at, "b,1,c,-\n");
    expect_error(many, strlen(many), TALLY_INPUT_CSV, TALLY_EPARSE,
                 "r.csv:1001:7: expected a number, found '-'");
}

int main(void)
{
    test_long_number();
    test_bundled_example();
    test_tokenizer();
    test_two_configs();
    test_quoting();
    test_tsv_rates();
    test_lenient_parts();
    test_errors();
    test_comment_preamble();
    test_long_record();
    test_repeated_rows();
    return check_summary();
}
