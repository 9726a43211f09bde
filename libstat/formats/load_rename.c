/* The load options that rename or describe what a file holds (tally_load_options: benchmark,
 * case_name, case_format, unit, direction), applied to a freshly parsed list before it joins
 * the caller's, so that files of different harnesses (or plain numbers) line up row for row. */
#include <string.h>

#include "formats/importer.h"
#include "model/units.h"
#include "formats/load_rename.h"
#include "util/internal.h"

/* The formats whose importers use opts->benchmark themselves (docs/importers.md). */
static int names_benchmark_itself(const tally__importer *imp)
{
    return (imp->flags & TALLY__IMPORT_NAMES_BENCHMARK) != 0;
}

static int needs_rebuild(const tally_load_options *o, const tally__importer *imp)
{
    return (o->benchmark && !names_benchmark_itself(imp)) || o->case_name || o->case_format ||
           o->unit || o->direction_given;
}

static int case_name_of(tally__buf *out, const char *name, const tally_load_options *o)
{
    out->len = 0;
    if (o->case_name)
        return tally__buf_puts(out, o->case_name);
    if (!o->case_format)
        return tally__buf_puts(out, name);
    for (const char *p = o->case_format; *p; p++) {
        if (p[0] == '{' && p[1] == '}') {
            tally__buf_puts(out, name);
            p++;
        } else {
            tally__buf_append(out, p, 1);
        }
    }
    if (out->data == NULL)
        tally__buf_puts(out, "");
    return out->failed ? tally__oom() : TALLY_OK;
}

static int copy_case(tally_benchmark *to, const tally_case *c, const char *name, const char *file)
{
    if (tally_benchmark_case_find(to, name) != NULL)
        return tally__error_at(TALLY_EEXISTS, file, 0, 0,
                               "renaming makes two cases '%s' in benchmark '%s'", name,
                               tally_benchmark_name(to));
    tally_case *nc = NULL;
    int rc = tally_benchmark_case_add(&nc, to, name);
    if (rc == TALLY_OK && tally_case_is_summary_only(c)) {
        tally_case_summary sum = { .size = sizeof sum };
        rc = tally_case_summary_result(&sum, c);
        if (rc == TALLY_OK)
            rc = tally__case_copy_summary(nc, &sum);
    } else if (rc == TALLY_OK) {
        rc = tally_case_append(nc, tally_case_samples(c), tally_case_sample_count(c));
    }
    for (size_t i = 0; rc == TALLY_OK && i < tally_case_meta_count(c); i++) {
        const char *k, *v;
        rc = tally_case_meta_at(&k, &v, c, i);
        if (rc == TALLY_OK)
            rc = tally_case_meta_set(nc, k, v);
    }
    return rc;
}

static int rebuild_set(tally_results *out, const tally_resultset *rs, const char *file,
                       const tally_load_options *o, int rename_benchmark)
{
    size_t nb = tally_resultset_benchmark_count(rs);
    if (rename_benchmark && nb != 1)
        return tally__error_at(TALLY_EINVAL, file, 0, 0,
                               "--benchmark renames a file's only benchmark, and result set "
                               "'%s' holds %zu",
                               tally_resultset_label(rs), nb);
    tally_resultset *ns = NULL;
    int rc = tally_resultset_new(&ns, tally_resultset_label(rs));
    if (rc == TALLY_OK && (rc = tally_results_add(out, ns)) != TALLY_OK)
        tally_resultset_free(ns);
    for (size_t i = 0; rc == TALLY_OK && i < tally_resultset_meta_count(rs); i++) {
        const char *k, *v;
        rc = tally_resultset_meta_at(&k, &v, rs, i);
        if (rc == TALLY_OK)
            rc = tally_resultset_meta_set(ns, k, v);
    }
    tally__buf name = TALLY__BUF_INIT;
    for (size_t b = 0; rc == TALLY_OK && b < nb; b++) {
        const tally_benchmark *ob = tally_resultset_benchmark_at(rs, b);
        size_t nc = tally_benchmark_case_count(ob);
        if (o->case_name && nc != 1) {
            rc = tally__error_at(TALLY_EINVAL, file, 0, 0,
                                 "--case names a benchmark's only case, and '%s' has %zu (use "
                                 "--case-format)",
                                 tally_benchmark_name(ob), nc);
            break;
        }
        tally_direction dir = o->direction_given ? o->direction : tally_benchmark_direction(ob);
        if (o->unit && !o->direction_given)
            dir = tally__direction_for_unit(o->unit);
        tally_benchmark *nb2 = NULL;
        rc = tally_resultset_benchmark_add(&nb2, ns,
                                           rename_benchmark ? o->benchmark
                                                            : tally_benchmark_name(ob),
                                           o->unit ? o->unit : tally_benchmark_unit(ob), dir);
        if (rc == TALLY_OK)
            rc = tally_benchmark_set_statistic(nb2, tally_benchmark_statistic(ob));
        for (size_t c = 0; rc == TALLY_OK && c < nc; c++) {
            const tally_case *oc = tally_benchmark_case_at(ob, c);
            rc = case_name_of(&name, tally_case_name(oc), o);
            if (rc == TALLY_OK)
                rc = copy_case(nb2, oc, name.data, file);
        }
    }
    tally__buf_dispose(&name);
    return rc;
}

int tally__load_rename(tally_results **fresh, const tally__importer *imp, const char *file,
                       const tally_load_options *o)
{
    /* The generic ways in (a column mapping, JSON paths) carry no unit of their own either. */
    int generic = (o->columns && (imp->flags & TALLY__IMPORT_TAKES_COLUMNS)) || o->samples_path;
    if ((o->unit || o->direction_given) && !(imp->flags & TALLY__IMPORT_TAKES_UNIT) && !generic)
        return tally__error_at(TALLY_EINVAL, file, 0, 0,
                               "--unit and --direction describe plain files; this is a %s file, "
                               "which carries its own",
                               imp->name);
    if (!needs_rebuild(o, imp))
        return TALLY_OK;
    tally_results *out = NULL;
    int rc = tally_results_new(&out);
    int rename_benchmark = o->benchmark && !names_benchmark_itself(imp);
    for (size_t i = 0; rc == TALLY_OK && i < tally_results_count(*fresh); i++)
        rc = rebuild_set(out, tally_results_at(*fresh, i), file, o, rename_benchmark);
    if (rc != TALLY_OK) {
        tally_results_free(out);
        return rc;
    }
    tally_results_free(*fresh);
    *fresh = out;
    return TALLY_OK;
}
