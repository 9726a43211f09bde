/* Merging two result sets of one configuration into one (tally_resultset_merge_runs): the
 * runs of `tally run` over several workloads, or of a sweep run again later, in one set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/merge.h"
#include "util/internal.h"

const char *const tally__run_env_keys[TALLY__RUN_ENV_KEY_COUNT] = { "host", "kernel", "boot_id" };

const char *tally_run_env_key_at(size_t i)
{
    return i < TALLY__RUN_ENV_KEY_COUNT ? tally__run_env_keys[i] : NULL;
}

static int check_benchmarks(const tally_resultset *into, const tally_resultset *from,
                            const char *source)
{
    for (size_t i = 0; i < tally_resultset_benchmark_count(from); i++) {
        const tally_benchmark *fb = tally_resultset_benchmark_at(from, i);
        const tally_benchmark *ib = tally_resultset_benchmark_find(into, tally_benchmark_name(fb));
        if (ib == NULL)
            continue;
        const char *fu = tally_benchmark_unit(fb), *iu = tally_benchmark_unit(ib);
        if (strcmp(fu ? fu : "", iu ? iu : "") != 0)
            return tally__error_at(TALLY_EMISMATCH, source, 0, 0,
                                   "benchmark '%s' is in '%s' here but in '%s' in result set "
                                   "'%s': one benchmark cannot hold both (rename one with "
                                   "--benchmark)",
                                   tally_benchmark_name(fb), fu ? fu : "", iu ? iu : "",
                                   tally_resultset_label(into));
        if (tally_benchmark_direction(fb) != tally_benchmark_direction(ib))
            return tally__error_at(TALLY_EMISMATCH, source, 0, 0,
                                   "benchmark '%s' is %s-is-better here but %s-is-better in "
                                   "result set '%s'",
                                   tally_benchmark_name(fb),
                                   tally_direction_name(tally_benchmark_direction(fb)),
                                   tally_direction_name(tally_benchmark_direction(ib)),
                                   tally_resultset_label(into));
        /* A harness's summary cannot be pooled with runs or with another summary without
         * inventing the runs (docs/formats.md, "Summary-only cases"). */
        for (size_t c = 0; c < tally_benchmark_case_count(fb); c++) {
            const tally_case *fc = tally_benchmark_case_at(fb, c);
            const tally_case *ic = tally_benchmark_case_find(ib, tally_case_name(fc));
            if (ic != NULL && (tally_case_is_summary_only(fc) || tally_case_is_summary_only(ic)))
                return tally__error_at(TALLY_EMISMATCH, source, 0, 0,
                                       "case '%s' of benchmark '%s' is known by a summary only "
                                       "(n, mean, SD) here or in result set '%s': its runs "
                                       "cannot be merged", tally_case_name(fc),
                                       tally_benchmark_name(fb), tally_resultset_label(into));
        }
    }
    return TALLY_OK;
}

/* The N of this merge: one more than the highest merged.N already there. */
static unsigned long next_merge(const tally_resultset *into)
{
    unsigned long n = 0;
    for (size_t i = 0; i < tally_resultset_meta_count(into); i++) {
        const char *k, *v;
        if (tally_resultset_meta_at(&k, &v, into, i) != TALLY_OK || strncmp(k, "merged.", 7) != 0)
            continue;
        char *end;
        unsigned long x = strtoul(k + 7, &end, 10);
        if (end != k + 7 && *end == '\0' && x > n)
            n = x;
    }
    return n + 1;
}

static int set_meta_printf(tally_resultset *rs, tally_case *c, const char *value,
                           const char *fmt, ...) TALLY__PRINTF(4, 5);

static int set_meta_printf(tally_resultset *rs, tally_case *c, const char *value,
                           const char *fmt, ...)
{
    tally__buf key = TALLY__BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    tally__buf_vprintf(&key, fmt, ap);
    va_end(ap);
    int rc = key.failed ? tally__error(TALLY_ENOMEM, "out of memory")
             : c        ? tally_case_meta_set(c, key.data, value)
                        : tally_resultset_meta_set(rs, key.data, value);
    tally__buf_dispose(&key);
    return rc;
}

static int merge_case(tally_case *ic, const tally_case *fc, unsigned long n, const char *source)
{
    if (tally_case_is_summary_only(fc)) {
        /* A new case of `into` (check_benchmarks refused the others): the summary as it is. */
        tally_case_summary sum = { .size = sizeof sum };
        int rc = tally_case_summary_result(&sum, fc);
        if (rc == TALLY_OK)
            rc = tally__case_copy_summary(ic, &sum);
        if (rc != TALLY_OK)
            return rc;
    }
    size_t before = tally_case_sample_count(ic), add = tally_case_sample_count(fc);
    int rc = tally_case_append(ic, tally_case_samples(fc), add);
    if (rc == TALLY_OK && add > 0) {
        char range[160];
        snprintf(range, sizeof(range), "%zu-%zu from ", before + 1, before + add);
        tally__buf text = TALLY__BUF_INIT;
        tally__buf_printf(&text, "%s%s", range, source);
        rc = text.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                         : set_meta_printf(NULL, ic, text.data, "samples.%lu", n);
        tally__buf_dispose(&text);
    }
    for (size_t i = 0; rc == TALLY_OK && i < tally_case_meta_count(fc); i++) {
        const char *k, *v;
        rc = tally_case_meta_at(&k, &v, fc, i);
        if (rc != TALLY_OK)
            break;
        const char *mine = tally_case_meta_get(ic, k);
        if (strcmp(k, "failed_runs") == 0 && mine != NULL) {
            char sum[32];
            snprintf(sum, sizeof(sum), "%lu", strtoul(mine, NULL, 10) + strtoul(v, NULL, 10));
            rc = tally_case_meta_set(ic, k, sum);
        } else if (mine == NULL) {
            rc = tally_case_meta_set(ic, k, v);
        } else if (strcmp(mine, v) != 0) {
            rc = set_meta_printf(NULL, ic, v, "merged.%lu.%s", n, k);
        }
    }
    return rc;
}

int tally_resultset_merge_runs(tally_resultset *into, const tally_resultset *from,
                               const char *source)
{
    if (into == NULL || from == NULL || into == from)
        return tally__error(TALLY_EINVAL, "tally_resultset_merge_runs: NULL or same argument");
    if (source == NULL)
        source = tally_resultset_label(from);
    int rc = check_benchmarks(into, from, source);
    if (rc != TALLY_OK)
        return rc;
    unsigned long n = next_merge(into);
    rc = set_meta_printf(into, NULL, source, "merged.%lu", n);
    for (size_t i = 0; rc == TALLY_OK && i < tally_resultset_meta_count(from); i++) {
        const char *k, *v;
        rc = tally_resultset_meta_at(&k, &v, from, i);
        if (rc != TALLY_OK || strncmp(k, "merged.", 7) == 0)
            continue;
        const char *mine = tally_resultset_meta_get(into, k);
        if (mine == NULL)
            rc = tally_resultset_meta_set(into, k, v);
        else if (strcmp(mine, v) != 0)
            rc = set_meta_printf(into, NULL, v, "merged.%lu.%s", n, k);
    }
    for (size_t i = 0; rc == TALLY_OK && i < tally_resultset_benchmark_count(from); i++) {
        const tally_benchmark *fb = tally_resultset_benchmark_at(from, i);
        tally_benchmark *ib = tally_resultset_benchmark_find(into, tally_benchmark_name(fb));
        if (ib == NULL) {
            rc = tally_resultset_benchmark_add(&ib, into, tally_benchmark_name(fb),
                                               tally_benchmark_unit(fb),
                                               tally_benchmark_direction(fb));
            if (rc == TALLY_OK)
                rc = tally_benchmark_set_statistic(ib, tally_benchmark_statistic(fb));
        }
        for (size_t c = 0; rc == TALLY_OK && c < tally_benchmark_case_count(fb); c++) {
            const tally_case *fc = tally_benchmark_case_at(fb, c);
            tally_case *ic = tally_benchmark_case_find(ib, tally_case_name(fc));
            if (ic == NULL)
                rc = tally_benchmark_case_add(&ic, ib, tally_case_name(fc));
            if (rc == TALLY_OK)
                rc = merge_case(ic, fc, n, source);
        }
    }
    return rc;
}
