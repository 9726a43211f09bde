/* The journal header: everything that defines the sweep (what must match for a resume), how
 * its result sets are built, and their metadata (formats/journal.h reads it). */
#include <stdio.h>

#include <cjson/cJSON.h>

#include "run/runner_impl.h"

/* Result-set metadata shared by every configuration: the machine, the workload, the command
 * line and the parameters. */
static int describe_meta(cJSON *meta, const tally_runner *r)
{
    tally_resultset *rs = NULL;
    int rc = tally_resultset_new(&rs, "meta");
    if (rc == TALLY_OK)
        rc = tally__sysinfo_record(rs);
    char num[32];
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "workload", r->wl.w->name);
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "harness", r->wl.w->tool ? r->wl.w->tool : "tally");
    if (rc == TALLY_OK && r->command_line)
        rc = tally_resultset_meta_set(rs, "command_line", r->command_line);
    snprintf(num, sizeof(num), "%u", r->runs);
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "runs", num);
    snprintf(num, sizeof(num), "%u", r->warmup);
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "warmup", num);
    if (rc == TALLY_OK && r->adaptive) {
        tally__buf a = TALLY__BUF_INIT;
        if (r->ad.margin_pct > 0)
            tally__buf_printf(&a, "against %s: stop a case once significant or equivalent "
                                  "within ±%g %% (alpha %g over all looks, O'Brien-Fleming-type "
                                  "spending)", r->against, r->ad.margin_pct, r->ad.alpha);
        if (r->ad.precision > 0)
            tally__buf_printf(&a, "%suntil precision ±%g %% (%g %% interval)", a.len ? "; " : "",
                              r->ad.precision * 100, (1 - r->ad.alpha) * 100);
        tally__buf_printf(&a, "; looks after %u runs, then every %u, at most %u", r->ad.min_runs,
                          r->ad.step, r->ad.max_runs);
        rc = a.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                      : tally_resultset_meta_set(rs, "adaptive", a.data);
        tally__buf_dispose(&a);
    }
    for (size_t i = 0; rc == TALLY_OK && i < r->params.count; i++) {
        tally__buf key = TALLY__BUF_INIT;
        tally__buf_printf(&key, "param.%s", r->params.keys[i]);
        rc = key.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                        : tally_resultset_meta_set(rs, key.data, r->params.values[i]);
        tally__buf_dispose(&key);
    }
    for (size_t i = 0; rc == TALLY_OK && i < tally_resultset_meta_count(rs); i++) {
        const char *k, *v;
        rc = tally_resultset_meta_at(&k, &v, rs, i);
        if (rc == TALLY_OK && cJSON_AddStringToObject(meta, k, v) == NULL)
            rc = tally__error(TALLY_ENOMEM, "out of memory");
    }
    tally_resultset_free(rs);
    return rc;
}

int tally__runner_journal_header(char **out, const tally_runner *r)
{
    *out = NULL;
    cJSON *h = cJSON_CreateObject();
    int ok = h != NULL;
    const tally__workload *w = r->wl.w;
    /* Version 3: an adaptive sweep, with its rule and "stop" lines; 4: histogram metrics
     * (older readers refuse them rather than call the sweep partial or lose the histograms). */
    int hists = 0;
    for (size_t i = 0; i < r->wl.metric_count; i++)
        hists |= r->wl.metrics[i].histogram;
    ok = ok && cJSON_AddNumberToObject(h, "tally_journal", hists ? TALLY__JOURNAL_VERSION_HIST
                                                           : r->adaptive ? 3 : 2);
    ok = ok && cJSON_AddStringToObject(h, "workload", w->name);
    ok = ok && (w->sweep_name ? cJSON_AddStringToObject(h, "sweep_name", w->sweep_name) != NULL
                              : cJSON_AddNullToObject(h, "sweep_name") != NULL);
    cJSON *sweep = ok ? cJSON_AddArrayToObject(h, "sweep") : NULL;
    cJSON *cases = sweep ? cJSON_AddArrayToObject(h, "cases") : NULL;
    ok = cases != NULL;
    for (size_t i = 0; ok && i < r->sweep_count; i++) {
        tally__buf name = TALLY__BUF_INIT;
        tally__runner_sweep_label(&name, r, i);
        ok = !name.failed && cJSON_AddItemToArray(sweep, cJSON_CreateString(r->sweep[i])) &&
             cJSON_AddItemToArray(cases, cJSON_CreateString(name.data));
        tally__buf_dispose(&name);
    }
    ok = ok && cJSON_AddNumberToObject(h, "runs", r->runs);
    ok = ok && cJSON_AddNumberToObject(h, "warmup", r->warmup);
    ok = ok && cJSON_AddBoolToObject(h, "interleave", r->interleave);
    if (ok && r->adaptive) {
        cJSON *a = cJSON_AddObjectToObject(h, "adaptive");
        ok = a && cJSON_AddNumberToObject(a, "until_precision", r->ad.precision * 100) &&
             (r->against ? cJSON_AddStringToObject(a, "against", r->against) != NULL
                         : cJSON_AddNullToObject(a, "against") != NULL) &&
             cJSON_AddNumberToObject(a, "mde_pct", r->ad.margin_pct) &&
             cJSON_AddNumberToObject(a, "min_runs", r->ad.min_runs) &&
             cJSON_AddNumberToObject(a, "look_every", r->ad.step) &&
             cJSON_AddNumberToObject(a, "alpha", r->ad.alpha);
    }
    cJSON *params = ok ? cJSON_AddArrayToObject(h, "params") : NULL;
    ok = params != NULL;
    for (size_t i = 0; ok && i < r->params.count; i++) {
        cJSON *kv = cJSON_CreateArray();
        ok = kv && cJSON_AddItemToArray(params, kv) &&
             cJSON_AddItemToArray(kv, cJSON_CreateString(r->params.keys[i])) &&
             cJSON_AddItemToArray(kv, cJSON_CreateString(r->params.values[i]));
    }
    /* One argv per configuration (exec), and the labels of the result sets; a single
     * configuration may be relabelled on resume. */
    cJSON *cm = ok ? cJSON_AddArrayToObject(h, "command") : NULL;
    ok = cm != NULL;
    for (size_t k = 0; ok && r->commands[0] && k < r->config_count; k++) {
        cJSON *argv = cJSON_CreateArray();
        ok = argv && cJSON_AddItemToArray(cm, argv);
        for (size_t i = 0; ok && r->commands[k][i]; i++)
            ok = cJSON_AddItemToArray(argv, cJSON_CreateString(r->commands[k][i]));
    }
    cJSON *labels = ok ? cJSON_AddArrayToObject(h, "labels") : NULL;
    ok = labels != NULL;
    for (size_t k = 0; ok && k < r->config_count; k++)
        ok = cJSON_AddItemToArray(labels, cJSON_CreateString(r->labels[k]));
    cJSON *metrics = ok ? cJSON_AddArrayToObject(h, "metrics") : NULL;
    ok = metrics != NULL;
    for (size_t i = 0; ok && i < r->wl.metric_count; i++) {
        const tally__metric *m = &r->wl.metrics[i];
        cJSON *o = cJSON_CreateObject();
        ok = o && cJSON_AddItemToArray(metrics, o) &&
             cJSON_AddStringToObject(o, "benchmark", m->benchmark) &&
             (m->case_name ? cJSON_AddStringToObject(o, "case", m->case_name) != NULL : 1) &&
             cJSON_AddStringToObject(o, "unit", m->unit) &&
             cJSON_AddStringToObject(o, "better", tally_direction_name(m->direction)) &&
             cJSON_AddStringToObject(o, "statistic", tally_statistic_name(m->statistic)) &&
             (m->histogram ? cJSON_AddTrueToObject(o, "histogram") != NULL : 1);
    }
    cJSON *meta = ok ? cJSON_AddObjectToObject(h, "meta") : NULL;
    int rc = meta ? describe_meta(meta, r) : tally__error(TALLY_ENOMEM, "out of memory");
    char *text = rc == TALLY_OK ? cJSON_PrintUnformatted(h) : NULL;
    cJSON_Delete(h);
    if (rc != TALLY_OK)
        return rc;
    if (text == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    *out = tally__strdup(text);
    cJSON_free(text);
    return *out ? TALLY_OK : tally__error(TALLY_ENOMEM, "out of memory");
}
