/* The result sets built from the journal (formats/journal_read.c, the code that reads a
 * journal given as an input), and with append the earlier result set they join. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "run/runner_impl.h"

/* The name of sweep value c: "4-groups", as the importers name the cases of the same tools'
 * outputs; exec uses the bare value, a workload without a sweep its own name. */
void tally__runner_sweep_label(tally__buf *out, const tally_runner *r, size_t c)
{
    const tally__workload *w = r->wl.w;
    if (w->kind == TALLY_WORKLOAD_EXEC)
        tally__buf_puts(out, r->sweep[c]);
    else if (w->sweep_name == NULL)
        tally__buf_puts(out, w->name);
    else
        tally__buf_printf(out, "%s-%s", r->sweep[c], w->sweep_name);
}

/* Append: the journal of the earlier sweep, when complete, is kept as OUT.json.journal.N (its
 * runs are in OUT.json); an unfinished one is refused (resume it first). */
int tally__runner_archive_journal(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return TALLY_OK;
    char *data = NULL;
    size_t len = 0;
    int rc = tally__read_file(&data, &len, path);
    tally__journal_data d;
    memset(&d, 0, sizeof(d));
    if (rc == TALLY_OK)
        rc = tally__journal_read(&d, data, len, path);
    int complete = rc == TALLY_OK && d.count == tally__journal_expected(&d);
    tally__journal_data_free(&d);
    tally__free_mem(data);
    if (!complete) {
        tally_error_clear();
        return tally__error_at(TALLY_EEXISTS, path, 0, 0,
                               "the journal holds an unfinished sweep; continue it with "
                               "--resume, or discard it with --force");
    }
    tally__buf to = TALLY__BUF_INIT;
    for (unsigned n = 1; n < 10000; n++) {
        to.len = 0;
        tally__buf_printf(&to, "%s.%u", path, n);
        if (to.failed || lstat(to.data, &st) != 0)
            break;
    }
    rc = to.failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
    if (rc == TALLY_OK && rename(path, to.data) != 0)
        rc = tally__error_at(TALLY_EIO, path, 0, 0, "cannot keep the finished journal as %s",
                             to.data);
    tally__buf_dispose(&to);
    return rc;
}

/* Append: the earlier result sets with this sweep's runs after theirs. */
static int append_to_previous(tally_runner *r)
{
    int rc = TALLY_OK;
    for (size_t k = 0; rc == TALLY_OK && k < r->config_count; k++) {
        const tally_resultset *now = tally_results_at(r->results, k);
        tally__buf source = TALLY__BUF_INIT;
        const char *date = tally_resultset_meta_get(now, "date");
        tally__buf_printf(&source, "tally run --append%s%s", date ? " at " : "", date ? date : "");
        rc = source.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                           : tally_resultset_merge_runs(tally_results_at(r->previous, k), now,
                                                        source.data);
        tally__buf_dispose(&source);
    }
    if (rc == TALLY_OK) {
        tally_results_free(r->results);
        r->results = r->previous;
        r->previous = NULL;
    }
    return rc;
}

/* The result sets from the journal (the same code that reads a journal given as an input),
 * then, with append, the earlier result set's runs first. */
int tally__runner_build_results(tally_runner *r, const tally__journal *j)
{
    int rc = tally_results_new(&r->results);
    if (rc == TALLY_OK)
        rc = tally__journal_build(r->results, &j->d, NULL);
    if (rc == TALLY_OK && r->config_count == 1)
        rc = tally_resultset_set_label(tally_results_at(r->results, 0), r->labels[0]);
    r->failed_runs = tally__journal_failed(&j->d);
    /* This invocation's warnings (a server less isolated than asked), in every result set. */
    for (size_t k = 0; rc == TALLY_OK && k < tally_results_count(r->results); k++)
        for (size_t i = 0; rc == TALLY_OK && i < r->warning_count; i++) {
            char key[32];
            snprintf(key, sizeof(key), "warning.%zu", i + 1);
            rc = tally_resultset_meta_set(tally_results_at(r->results, k), key, r->warnings[i]);
        }
    if (rc == TALLY_OK && r->previous != NULL)
        rc = append_to_previous(r);
    return rc;
}
