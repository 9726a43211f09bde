/* Files read in pieces (formats/load.c; the readers of formats/plain_read.c and, for CSV and
 * TSV, formats/csv_read.c): whatever the sizes of the reads, a file loads exactly as its whole
 * text does through tally_load_buffer, the path that reads one buffer (same samples to the bit,
 * same model, same error code and message with its line:col). The reference is that other code
 * path, not a recomputation: numbers split by a read at every offset, "\r\n" split, a bad
 * number next to a piece boundary, invalid UTF-8 after a parse error or cut by a read, over-long
 * lines, comments, CSV records cut anywhere (quoted fields holding line breaks, the repeated-row
 * path), random texts; detection of large files; pipes; and files that change while they are
 * read, which are refused. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "formats/importer.h"
#include "tally.h"
#include "test_rng.h"
#include "util/internal.h"
#include "util/text.h"

#define PATH TALLY_TEST_TMP "/pieces.txt"

static uint64_t rng_state = 20261201;

static uint64_t test_rng_next(void)
{
    return rng_splitmix64(&rng_state);
}

static void write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f == NULL)
        return;
    CHECK(fwrite(data, 1, len, f) == len);
    fclose(f);
}

/* What a load gave: its code, message, samples (of all cases, one after the other) and the
 * model's shape (names, units, directions and sample counts, in order). */
typedef struct outcome {
    int rc;
    char message[1200];
    char shape[1200];
    size_t n;
    double *x;
} outcome;

static void outcome_take(outcome *o, int rc, tally_results *r)
{
    o->rc = rc;
    snprintf(o->message, sizeof(o->message), "%s", rc == TALLY_OK ? "" : tally_error_last()->message);
    o->shape[0] = '\0';
    o->n = 0;
    o->x = NULL;
    size_t used = 0;
    for (size_t i = 0; rc == TALLY_OK && i < tally_results_count(r); i++) {
        tally_resultset *rs = tally_results_at(r, i);
        /* The warning of a last line without its line end, the same read whole or in pieces. */
        const char *cut = tally_resultset_meta_get(rs, "cut_last_line");
        if (cut && used < sizeof(o->shape))
            used += (size_t)snprintf(o->shape + used, sizeof(o->shape) - used, "cut: %s; ", cut);
        for (size_t j = 0; j < tally_resultset_benchmark_count(rs); j++) {
            tally_benchmark *b = tally_resultset_benchmark_at(rs, j);
            for (size_t k = 0; k < tally_benchmark_case_count(b); k++) {
                tally_case *c = tally_benchmark_case_at(b, k);
                size_t m = tally_case_sample_count(c);
                if (used < sizeof(o->shape))
                    used += (size_t)snprintf(o->shape + used, sizeof(o->shape) - used,
                                             "%s/%s/%s [%s %d] %zu; ", tally_resultset_label(rs),
                                             tally_benchmark_name(b), tally_case_name(c),
                                             tally_benchmark_unit(b),
                                             (int)tally_benchmark_direction(b), m);
                double *grown = realloc(o->x, (o->n + m + 1) * sizeof(double));
                CHECK(grown != NULL);
                if (grown == NULL)
                    break;
                o->x = grown;
                if (m > 0)
                    memcpy(o->x + o->n, tally_case_samples(c), m * sizeof(double));
                o->n += m;
            }
        }
    }
    tally_results_free(r);
}

static outcome load_whole(const char *data, size_t len, tally_input_kind kind)
{
    tally_results *r = NULL;
    tally_results_new(&r);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = kind;
    outcome o;
    outcome_take(&o, tally_load_buffer(r, data, len, PATH, &opts), r);
    return o;
}

static outcome load_pieces(size_t first, size_t piece, tally_input_kind kind)
{
    tally_results *r = NULL;
    tally_results_new(&r);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = kind;
    outcome o;
    outcome_take(&o, tally__load_file_pieces(r, PATH, &opts, first, piece), r);
    return o;
}

/* The same outcome; prints the first differences. */
static int same(const outcome *a, const outcome *b, const char *what, size_t first, size_t piece)
{
    int ok = a->rc == b->rc && strcmp(a->message, b->message) == 0 &&
             strcmp(a->shape, b->shape) == 0 && a->n == b->n;
    for (size_t i = 0; ok && i < a->n; i++)
        ok = memcmp(&a->x[i], &b->x[i], sizeof(double)) == 0;
    if (!ok)
        fprintf(stderr, "  %s, reads of %zu then %zu: rc %d/%d '%s' / '%s', %zu/%zu samples\n", what,
                first, piece, a->rc, b->rc, a->message, b->message, a->n, b->n);
    return ok;
}

static void outcome_free(outcome *o)
{
    free(o->x);
    o->x = NULL;
}

/* Every first read and piece from 1 to `max` bytes against the whole text. */
static unsigned long every_split(const char *text, size_t len, size_t max, tally_input_kind kind)
{
    write_file(PATH, text, len);
    outcome want = load_whole(text, len, kind);
    unsigned long bad = 0;
    for (size_t first = 1; first <= max; first++) {
        for (size_t piece = 1; piece <= max; piece++) {
            outcome got = load_pieces(first, piece, kind);
            if (!same(&want, &got, "split", first, piece) && bad++ > 3)
                piece = first = max + 1; /* enough said */
            outcome_free(&got);
        }
    }
    outcome_free(&want);
    return bad;
}

/* every_split, then one split in particular fails with `rc` and `message` (its first `n` bytes,
 * or all of it when n is 0). */
static void split_error(const char *text, size_t len, size_t max, tally_input_kind kind,
                        size_t first, size_t piece, int rc, const char *message, size_t n)
{
    CHECK_INT(every_split(text, len, max, kind), 0);
    write_file(PATH, text, len);
    outcome o = load_pieces(first, piece, kind);
    CHECK_INT(o.rc, rc);
    if (n == 0)
        CHECK_STR(o.message, message);
    else
        CHECK(strncmp(o.message, message, n) == 0);
    outcome_free(&o);
}

/* A last line without its line end: the same warning, naming its line, however the file is
 * read; the whole read is the reference (docs/formats.md, "Limits and bad input"). */
static void test_cut_last_line(void)
{
    static const char plain[] = "1.5\n2.5\n# note\n3.25";
    CHECK_INT(every_split(plain, sizeof plain - 1, 12, TALLY_INPUT_PLAIN), 0);
    outcome o = load_whole(plain, sizeof plain - 1, TALLY_INPUT_PLAIN);
    CHECK(strstr(o.shape, "cut: " PATH ":4: the last line has no line end") != NULL);
    CHECK_INT(o.n, 3);
    outcome_free(&o);
    static const char csv[] = "benchmark,case,config,value\nb,c,x,1\nb,c,x,2.5";
    CHECK_INT(every_split(csv, sizeof csv - 1, 12, TALLY_INPUT_CSV), 0);
    o = load_whole(csv, sizeof csv - 1, TALLY_INPUT_CSV);
    CHECK(strstr(o.shape, "cut: " PATH ":3: the last line has no line end") != NULL);
    outcome_free(&o);
    static const char ended[] = "1.5\n2.5\n";
    o = load_whole(ended, sizeof ended - 1, TALLY_INPUT_PLAIN);
    CHECK(strstr(o.shape, "cut:") == NULL);
    outcome_free(&o);
}

static void test_boundaries(void)
{
    /* Short and repr-long numbers, "\r\n", a comment, a blank line, a number with a comment,
     * signs, a last line without newline: every read boundary falls inside each of them. */
    static const char text[] = "0.0071656633603720855\n12.5\r\n-3\n# note\n\n+.25 # after\n"
                               "0.006733156188178431\r\n1e3\n7";
    CHECK_INT(every_split(text, sizeof text - 1, 40, TALLY_INPUT_PLAIN), 0);
    /* A bad number: "12.5x" is line 4, column 1; the read boundaries fall before, inside and
     * after it, and on both sides of the "\r\n" of the line before. */
    static const char bad[] = "1\n0.0071656633603720855\r\n2\n12.5x\n3\n";
    split_error(bad, sizeof bad - 1, 30, TALLY_INPUT_PLAIN, 5, 3, TALLY_EPARSE,
                PATH ":4:1: expected one number per line, found '12.5x'", 0);
    /* Invalid UTF-8 (line 6, column 3) after a bad number (line 2): the loader checks the
     * encoding of the whole file first, so the encoding error is the one reported. */
    static const char later[] = "1\nbad\n2\n# caf\xc3\xa9\n3\n# \xff\n4\n";
    split_error(later, sizeof later - 1, 30, TALLY_INPUT_PLAIN, 3, 2, TALLY_EPARSE,
                PATH ":6:3: invalid UTF-8 (byte 0xff)", strlen(PATH) + 31);
    /* A valid three-byte sequence cut by every read, and one cut short by the end. */
    static const char cut[] = "# \xe2\x82\xac euro\n5\n# \xe2\x82";
    CHECK_INT(every_split(cut, sizeof cut - 1, 20, TALLY_INPUT_PLAIN), 0);
    /* Nothing but comments: no numbers. */
    static const char none[] = "# a\n\n# b\n";
    CHECK_INT(every_split(none, sizeof none - 1, 12, TALLY_INPUT_PLAIN), 0);
    /* A NUL byte in a line the bulk path declines. */
    static const char nul[] = "1\n2 \0x\n3\n";
    CHECK_INT(every_split(nul, sizeof nul - 1, 12, TALLY_INPUT_PLAIN), 0);
}

/* Long-form CSV and TSV (formats/csv_read.c), read in pieces of every size against the whole
 * text: records cut anywhere, quoted fields holding line breaks across a boundary, the rows
 * the repeated-row path takes, "\r\n", a byte-order mark, a last row without line break. */
static void test_csv_boundaries(void)
{
    static const char text[] =
        "\xEF\xBB\xBF# tool v1\n\nbenchmark,case,config,value,unit\r\n"
        "b,c,k,0.0071656633603720855,ns\r\n"
        "b,c,k,0.006733156188178431,ns\r\n"
        "b,c,k, 12.5 ,ns\r\n"
        "b,\"two\nlines\",k,1e3,ns\n"
        "b,\"two\nlines\",k,\"7\",ns\n"
        "\n"
        "\"b\",\"say \"\"hi\"\"\",k2,-3,\"ns\"\n"
        "b,c,k2,4,ns\n"
        "b,c,k2,5,ns";
    CHECK_INT(every_split(text, sizeof text - 1, 40, TALLY_INPUT_CSV), 0);
    static const char tabs[] = "benchmark\tcase\tconfig\tvalue\nb\tc,d\tk\t1.5\nb\tc,d\tk\t2.5\n"
                               "b\t\"x\ny\"\tk\t3\n";
    CHECK_INT(every_split(tabs, sizeof tabs - 1, 40, TALLY_INPUT_TSV), 0);
    /* A bad number after quoted fields holding line breaks. The header is line 1; the first row
     * takes lines 2 and 3; the second row starts on line 4 and its value field is on line 5,
     * `d",k,2.5x`: d is column 1, the closing quote 2, the comma 3, k 4, the comma 5, so the
     * value starts at column 6. */
    static const char bad[] = "benchmark,case,config,value\nb,\"c\nd\",k,1.5\nb,\"c\nd\",k,2.5x\n"
                              "b,c,k,3\n";
    split_error(bad, sizeof bad - 1, 40, TALLY_INPUT_CSV, 30, 7, TALLY_EPARSE,
                PATH ":5:6: expected a number, found '2.5x'", 0);
    /* A bad number in a row the repeated-row path declines: "b,c,k," is 6 bytes, so the value
     * of line 4 starts at column 7. */
    static const char repeat[] = "benchmark,case,config,value\nb,c,k,1\nb,c,k,2\nb,c,k,3x\nb,c,k,4\n";
    split_error(repeat, sizeof repeat - 1, 40, TALLY_INPUT_CSV, 9, 5, TALLY_EPARSE,
                PATH ":4:7: expected a number, found '3x'", 0);
    /* Invalid UTF-8 (line 5, column 7: "b,c,k," then the byte 0xff) after a parse error
     * (line 3): the encoding error is the one reported, as the loader checks it first. */
    static const char later[] = "benchmark,case,config,value\nb,caf\xc3\xa9,k,1\nb,c,k,x\n"
                                "b,c,k,2\nb,c,k,\xff\n";
    split_error(later, sizeof later - 1, 40, TALLY_INPUT_CSV, 3, 2, TALLY_EPARSE,
                PATH ":5:7: invalid UTF-8 (byte 0xff)", strlen(PATH) + 31);
    /* A quoted field never closed, a NUL byte inside quotes, a stray quote, a short row, a row
     * cut short by the end inside "\r\n", only a header, an empty line for a header. */
    /* Each with its length, as one of them holds a NUL byte. */
#define TEXT(s) { s, sizeof s - 1 }
    static const struct { const char *s; size_t len; } errors[] = {
        TEXT("benchmark,case,config,value\nb,\"c\nd,k,1\nb,c,k,2\n"),
        TEXT("benchmark,case,config,value\nb,\"c\n\0d\",k,1\n"),
        TEXT("benchmark,case,config,value\nb,c\"d,k,1\n"),
        TEXT("benchmark,case,config,value\nb,c,k,1\nb,c,1\n"),
        TEXT("benchmark,case,config,value\nb,c,k,1\r"),
        TEXT("benchmark,case,config,value\n"),
        TEXT("# a\n\n"),
        TEXT("benchmark,case,config\nb,c,k\n"),
    };
#undef TEXT
    for (size_t i = 0; i < TALLY__COUNT(errors); i++)
        CHECK_INT(every_split(errors[i].s, errors[i].len, 40, TALLY_INPUT_CSV), 0);
}

/* The CSV and TSV files of the test data, cut by every read of 1 to 40 bytes (12 for the
 * larger one). */
static void test_csv_data_files(void)
{
    static const char *const files[] = { "csv/quoted.csv", "csv/two-configs.csv", "csv/rates.tsv",
                                         "diag/defects.csv" };
    for (size_t i = 0; i < TALLY__COUNT(files); i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", TALLY_TEST_DATA, files[i]);
        char *text = NULL;
        size_t len = 0;
        CHECK_INT(tally__read_file(&text, &len, path), TALLY_OK);
        tally_input_kind kind = strstr(files[i], ".tsv") ? TALLY_INPUT_TSV : TALLY_INPUT_CSV;
        CHECK_INT(every_split(text, len, len > 4096 ? 12 : 40, kind), 0);
        tally__free_mem(text);
    }
}

/* One random CSV row of a few shapes: rows that repeat, quoted names with line breaks and "",
 * blank lines, "\r\n", bad numbers and fields, bytes >= 0x80. */
static size_t random_row(char *s, size_t room)
{
    static const char *const names[] = { "c", "c", "c", "d", "\"c\"", "\"x\ny\"", "\"q\"\"q\"",
                                         "caf\xc3\xa9", "\xc3", "" };
    static const char *const values[] = { "1.5", " 2 ", "\"3\"", "x", "", "1e400", "-0" };
    int n;
    unsigned kind = (unsigned)(test_rng_next() % 10);
    if (kind == 0)
        n = snprintf(s, room, "%s", test_rng_next() % 2 ? "" : "b,c,k");
    else if (kind < 7)
        n = snprintf(s, room, "b,c,k,%.17g", (double)(test_rng_next() >> 11) * 0x1p-60);
    else
        n = snprintf(s, room, "b,%s,k,%s", names[test_rng_next() % TALLY__COUNT(names)],
                     kind == 9 ? values[test_rng_next() % TALLY__COUNT(values)] : "4.25");
    return n < 0 || (size_t)n >= room ? 0 : (size_t)n;
}

/* A clean row: one of two cases, a repr-long number. */
static size_t clean_row(char *s, size_t room)
{
    int n = snprintf(s, room, "b,c%d,k,%.17g", (int)(test_rng_next() % 2),
                     (double)(test_rng_next() >> 11) * 0x1p-60);
    return n < 0 || (size_t)n >= room ? 0 : (size_t)n;
}

/* Records longer than the largest buffer a piece grows to: the rest of the file is then read
 * whole, and the record loads, or fails, as in the whole text. */
static void test_csv_long_records(void)
{
    size_t len = 3 * (size_t)TALLY__MAX_LINE;
    char *text = malloc(len);
    CHECK(text != NULL);
    if (text == NULL)
        return;
    static const char head[] = "benchmark,case,config,value\nb,c,k,1\nb,\"";
    size_t h = sizeof head - 1;
    /* The third line's record is `b,"NAME",k,2`: 8 bytes and the name. Its name of line breaks
     * and x: the record exactly TALLY__MAX_LINE bytes long (accepted), one byte longer
     * (refused at its line, 3), longer still with a NUL byte past the limit (the NUL is the
     * error, found before the closing quote that ends the record), and never closed. */
    static const int want_rc[] = { TALLY_OK, TALLY_ELIMIT, TALLY_EFORMAT, TALLY_ELIMIT };
    for (int kind = 0; kind < 4; kind++) {
        size_t name = TALLY__MAX_LINE - 8 + (kind > 0) + (kind >= 2 ? 100 : 0);
        memcpy(text, head, h);
        for (size_t i = 0; i < name; i++)
            text[h + i] = i % 1000 == 999 ? '\n' : 'x';
        if (kind == 2)
            text[h + name - 5] = '\0';
        size_t n = h + name;
        n += (size_t)snprintf(text + n, 64, kind == 3 ? "x" : "\",k,2\nb,c,k,3\n");
        write_file(PATH, text, n);
        outcome want = load_whole(text, n, TALLY_INPUT_CSV);
        CHECK_INT(want.rc, want_rc[kind]);
        if (kind == 0)
            CHECK_INT(want.n, 3);
        if (kind == 1 || kind == 3)
            CHECK_STR(want.message, PATH ":3:1: record longer than 1048576 bytes");
        outcome got = load_pieces(1000, 65536, TALLY_INPUT_CSV);
        CHECK(same(&want, &got, "long record", 1000, 65536));
        outcome_free(&got);
        outcome_free(&want);
    }
    free(text);
}

/* One random line: numbers of several shapes, comments, blanks, junk, bytes >= 0x80. */
static size_t random_line(char *s, size_t room)
{
    static const char *const others[] = { "", "# c", " 12.5", "12.5 ", "1e5", "-0", "+7.",
                                          ".5", "x", "5#", "# caf\xc3\xa9", "# \xe2\x82\xac",
                                          "\xc3", "# \xed\xa0\x80", "0.000", "1.5e-3", "-" };
    unsigned kind = (unsigned)(test_rng_next() % 8);
    int n;
    if (kind < 4)
        n = snprintf(s, room, "%.17g", (double)(test_rng_next() >> 11) * 0x1p-60);
    else if (kind < 6)
        n = snprintf(s, room, "%.*f", (int)(test_rng_next() % 9),
                     (double)(test_rng_next() >> 40) / 1000.0);
    else
        n = snprintf(s, room, "%s", others[test_rng_next() % TALLY__COUNT(others)]);
    return n < 0 || (size_t)n >= room ? 0 : (size_t)n;
}

/* A clean line: a repr-long number. */
static size_t clean_line(char *s, size_t room)
{
    int n = snprintf(s, room, "%.17g", (double)(test_rng_next() >> 11) * 0x1p-60);
    return n < 0 || (size_t)n >= room ? 0 : (size_t)n;
}

typedef size_t (*line_maker)(char *s, size_t room);

/* Random texts of `kind` after `head`, their lines from `clean` and `other` (half the texts
 * each), loaded whole and in four random pairs of read sizes. */
static void random_texts(tally_input_kind kind, const char *head, line_maker clean,
                         line_maker other, const char *what)
{
    static char text[8192];
    unsigned long bad = 0;
    for (int round = 0; round < 300; round++) {
        size_t len = (size_t)snprintf(text, sizeof text, "%s", head);
        /* Mostly clean texts, so that many reach their end; the others stop at an error. */
        line_maker line = round % 2 == 0 ? clean : other;
        while (len < sizeof text - 100) {
            len += line(text + len, 64);
            if (test_rng_next() % 6 == 0)
                text[len++] = '\r';
            text[len++] = '\n';
        }
        len -= (size_t)(test_rng_next() % 30);
        write_file(PATH, text, len);
        outcome want = load_whole(text, len, kind);
        for (int k = 0; k < 4; k++) {
            size_t first = 1 + (size_t)(test_rng_next() % 300), piece = 1 + (size_t)(test_rng_next() % 300);
            outcome got = load_pieces(first, piece, kind);
            bad += !same(&want, &got, what, first, piece);
            outcome_free(&got);
        }
        outcome_free(&want);
    }
    CHECK_INT(bad, 0);
}

static void test_random_texts(void)
{
    random_texts(TALLY_INPUT_PLAIN, "", clean_line, random_line, "random");
    random_texts(TALLY_INPUT_CSV, "benchmark,case,config,value\n", clean_row, random_row,
                 "random csv");
}

/* Lines longer than the pieces, up to the longest line accepted and beyond. */
static void test_long_lines(void)
{
    size_t len = TALLY__MAX_LINE + 64;
    char *text = malloc(len);
    CHECK(text != NULL);
    if (text == NULL)
        return;
    /* "1\n# xxx...\r\n2\n": the comment line holds exactly TALLY__MAX_LINE bytes, then one more. */
    for (size_t extra = 0; extra < 2; extra++) {
        size_t n = 0;
        memcpy(text, "1\n# ", 4);
        n = 4;
        memset(text + n, 'x', TALLY__MAX_LINE - 2 + extra);
        n += TALLY__MAX_LINE - 2 + extra;
        memcpy(text + n, "\r\n2\n", 4);
        n += 4;
        write_file(PATH, text, n);
        outcome want = load_whole(text, n, TALLY_INPUT_PLAIN);
        CHECK_INT(want.rc, extra ? TALLY_ELIMIT : TALLY_OK);
        outcome got = load_pieces(1000, 65536, TALLY_INPUT_PLAIN);
        CHECK(same(&want, &got, "long line", 1000, 65536));
        outcome_free(&got);
        outcome_free(&want);
    }
    /* A line without end that fills the largest buffer: refused at its line. */
    memcpy(text, "1\n", 2);
    memset(text + 2, '7', len - 2);
    write_file(PATH, text, len);
    outcome want = load_whole(text, len, TALLY_INPUT_PLAIN);
    outcome got = load_pieces(4096, 4096, TALLY_INPUT_PLAIN);
    CHECK(same(&want, &got, "endless line", 4096, 4096));
    CHECK_STR(got.message, PATH ":2:1: line longer than 1048576 bytes");
    outcome_free(&got);
    outcome_free(&want);
    free(text);
}

/* text[0..len) as a file, format detected, loads in pieces (reads of `first` then `piece`
 * bytes; the library's own sizes when first is 0) as its whole text does, and is accepted. */
static void detected_same(const char *text, size_t len, size_t first, size_t piece,
                          const char *what)
{
    write_file(PATH, text, len);
    outcome want = load_whole(text, len, TALLY_INPUT_AUTO), got;
    if (first == 0) {
        tally_results *r = NULL;
        tally_results_new(&r);
        outcome_take(&got, tally_load_file(r, PATH, NULL), r);
    } else {
        got = load_pieces(first, piece, TALLY_INPUT_AUTO);
    }
    CHECK_INT(want.rc, TALLY_OK);
    CHECK(same(&want, &got, what, first, piece));
    outcome_free(&got);
    outcome_free(&want);
}

/* A byte-order mark in place of the first three bytes of text[0..len). */
static void put_bom(char *text, size_t len)
{
    memmove(text + 3, text, len - 3);
    memcpy(text, "\xEF\xBB\xBF", 3);
}

/* Files larger than the first read, format detected: plain numbers and long-form CSV or TSV
 * are read in pieces, other formats whole; either way as the whole text loads. */
static void test_detection(void)
{
    size_t cap = 600000, len = 0;
    char *text = malloc(cap);
    CHECK(text != NULL);
    if (text == NULL)
        return;
    len = (size_t)snprintf(text, cap, "# runs\n");
    while (len < cap - 40)
        len += (size_t)snprintf(text + len, 40, "%.17g\n", (double)(test_rng_next() >> 11) * 0x1p-60);
    detected_same(text, len, 70000, 4096, "auto plain");
    /* The same with a byte-order mark and the library's own sizes. */
    put_bom(text, len);
    detected_same(text, len, 0, 0, "auto plain with BOM");
    /* A long-form CSV larger than the first read. */
    len = (size_t)snprintf(text, cap, "benchmark,case,config,value\n");
    while (len < cap - 40)
        len += (size_t)snprintf(text + len, 40, "b,c,k,%.17g\n", (double)(test_rng_next() >> 11) * 0x1p-60);
    detected_same(text, len, 70000, 4096, "auto csv");
    /* The same as TSV, with a byte-order mark and the library's own sizes. */
    for (size_t i = 0; i < len; i++)
        text[i] = text[i] == ',' ? '\t' : text[i];
    put_bom(text, len);
    detected_same(text, len, 0, 0, "auto tsv with BOM");
    /* A comment on top that the first read cuts, header unseen: read whole, as detected. */
    memset(text, '#', 69990);
    text[69990] = '\n';
    len = 69991 + (size_t)snprintf(text + 69991, 100, "benchmark,case,config,value\nb,c,k,1\n");
    while (len < cap - 40)
        len += (size_t)snprintf(text + len, 40, "b,c,k,%.17g\n", (double)(test_rng_next() >> 11) * 0x1p-60);
    detected_same(text, len, 70000, 4096, "auto csv, header after the first read");
    free(text);
}

/* A pipe given by path (/dev/fd/N) is read in pieces as it arrives. */
static void test_pipe(void)
{
    static const char text[] = "0.0071656633603720855\n2\r\n# c\n3.5\n";
    int fds[2];
    CHECK(pipe(fds) == 0);
    CHECK(write(fds[1], text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    tally_results *r = NULL;
    tally_results_new(&r);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = TALLY_INPUT_PLAIN;
    outcome got;
    outcome_take(&got, tally__load_file_pieces(r, path, &opts, 5, 3), r);
    close(fds[0]);
    CHECK_INT(got.rc, TALLY_OK);
    CHECK_INT(got.n, 3);
    /* The values as written: 0.0071656633603720855 is repr's text of the double it names. */
    CHECK(got.n == 3 && got.x[0] == 0.0071656633603720855 && got.x[1] == 2 && got.x[2] == 3.5);
    outcome_free(&got);
}

/* A file that changes between two reads: refused, never read as a mix of its two contents. */
static void test_changing_file(void)
{
    static const char plain[] = "1\n2\n3\n4\n";
    static const char csv[] = "benchmark,case,config,value\nb,c,k,1\nb,c,k,2\n";
    for (int grow = 0; grow < 4; grow++) {
        const char *text = grow < 2 ? plain : csv;
        write_file(PATH, text, strlen(text));
        tally__input in;
        CHECK_INT(tally__input_open(&in, PATH), TALLY_OK);
        char *buf = tally__malloc(64);
        size_t got = 0;
        CHECK_INT(tally__input_read(&in, buf, 3, &got), TALLY_OK);
        CHECK_INT(got, 3);
        /* Another writer appends a line, or cuts the file short, before the next read. */
        int fd = open(PATH, O_WRONLY | (grow % 2 ? O_APPEND : 0));
        CHECK(fd >= 0);
        if (grow % 2)
            CHECK(write(fd, "5\n", 2) == 2);
        else
            CHECK(ftruncate(fd, 4) == 0);
        close(fd);
        tally__chunks src = { &in, buf, got, 64, 2, 0 };
        tally_results *r = NULL;
        tally_results_new(&r);
        tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
        opts.label = "x";
        const tally__importer *imp = grow < 2 ? &tally__importer_plain : &tally__importer_csv;
        int rc = imp->read_input(r, &src, PATH, &opts);
        CHECK_INT(rc, TALLY_EIO);
        CHECK_STR(tally_error_last()->message,
                  PATH ": the file changed while it was read (its size or modification time "
                       "moved): read it once it is complete");
        tally_results_free(r);
        tally__free_mem(src.buf);
        tally__input_close(&in);
    }
}

int main(void)
{
    test_boundaries();
    test_cut_last_line();
    test_csv_boundaries();
    test_csv_data_files();
    test_csv_long_records();
    test_random_texts();
    test_long_lines();
    test_detection();
    test_pipe();
    test_changing_file();
    return check_summary();
}
