/* Helpers for the importer tests: run one importer over a file of tests/data or over a string,
 * and check which importer's sniff wins for a file. */
#ifndef TALLY_TESTS_IMPORT_HELPERS_H
#define TALLY_TESTS_IMPORT_HELPERS_H

#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"


/* Parse `text` (named `name` in messages) into a fresh list; *out is NULL on failure. */
static inline int import_text(tally_results **out, const tally__importer *imp, const char *text,
                       const char *name, const tally_load_options *opts)
{
    tally_results *r = NULL;
    *out = NULL;
    int rc = tally_results_new(&r);
    if (rc == TALLY_OK)
        rc = imp->parse(r, text, strlen(text), name, opts);
    if (rc != TALLY_OK)
        tally_results_free(r);
    else
        *out = r;
    return rc;
}

/* Parse tests/data/<rel> with the importer; the file is named by `rel` in messages. */
static inline int import_file(tally_results **out, const tally__importer *imp, const char *rel,
                       const tally_load_options *opts)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TALLY_TEST_DATA, rel);
    char *data = NULL;
    size_t len = 0;
    *out = NULL;
    int rc = tally__read_file(&data, &len, path);
    if (rc != TALLY_OK) {
        fprintf(stderr, "cannot read %s\n", path);
        return rc;
    }
    tally_results *r = NULL;
    rc = tally_results_new(&r);
    if (rc == TALLY_OK)
        rc = imp->parse(r, data, len, rel, opts);
    tally__free_mem(data);
    if (rc != TALLY_OK)
        tally_results_free(r);
    else
        *out = r;
    return rc;
}

/* The importer of the registry whose sniff scores tests/data/<rel> highest, or NULL when none
 * scores. Ties go to the earlier row, as in detection. */
static inline const tally__importer *sniff_best(const char *rel, int *score)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TALLY_TEST_DATA, rel);
    char *data = NULL;
    size_t len = 0;
    if (tally__read_file(&data, &len, path) != TALLY_OK)
        return NULL;
    const tally__importer *best = NULL;
    int top = 0;
    for (size_t i = 0; i < tally__importer_count; i++) {
        int s = tally__importers[i]->sniff(data, len);
        if (s > top)
            top = s, best = tally__importers[i];
    }
    tally__free_mem(data);
    if (score)
        *score = top;
    return best;
}

/* 1 when `imp` wins the sniffing of tests/data/<rel>, with a score of at least `min`. */
static inline int sniffs_as(const char *rel, const tally__importer *imp, int min)
{
    int score = 0;
    return sniff_best(rel, &score) == imp && score >= min;
}

/* Case `casename` of benchmark `bench` of the first result set, or NULL. */
static inline tally_case *find_case(const tally_results *r, const char *bench, const char *casename)
{
    tally_resultset *rs = tally_results_at(r, 0);
    tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, bench) : NULL;
    return b ? tally_benchmark_case_find(b, casename) : NULL;
}

/* The sample count of that case, 0 when it is missing (or r is NULL). */
static inline size_t case_sample_count(const tally_results *r, const char *bench,
                                       const char *casename)
{
    const tally_case *c = r ? find_case(r, bench, casename) : NULL;
    return c ? tally_case_sample_count(c) : 0;
}

/* Metadata `key` of that case, NULL when the case is missing (or r is NULL). */
static inline const char *case_meta(const tally_results *r, const char *bench,
                                    const char *casename, const char *key)
{
    const tally_case *c = r ? find_case(r, bench, casename) : NULL;
    return c ? tally_case_meta_get(c, key) : NULL;
}

/* 1 when `text` (as file `name`) is refused with `code` and exactly `message`, loading nothing;
 * else 0, the difference written to stderr. */
static inline int refused_with(const tally__importer *imp, const char *text, const char *name,
                               int code, const char *message)
{
    tally_results *r = NULL;
    int rc = import_text(&r, imp, text, name, NULL);
    const char *got = tally_error_last()->message;
    int ok = rc == code && r == NULL && strcmp(got, message) == 0;
    if (!ok)
        fprintf(stderr, "%s: code %d (want %d), message '%s'\n    want '%s'%s\n", name, rc, code,
                got, message, r ? ", and results were loaded" : "");
    tally_results_free(r);
    return ok;
}

static inline const char *last_message(void)
{
    return tally_error_last()->message;
}

#endif /* TALLY_TESTS_IMPORT_HELPERS_H */
