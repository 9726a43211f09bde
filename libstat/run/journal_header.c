/* The journal header: everything that must match for a resume. */
#include <cjson/cJSON.h>

#include "run/runner_impl.h"

int tally__runner_journal_header(char **out, const tally_runner *r)
{
    *out = NULL;
    cJSON *h = cJSON_CreateObject();
    cJSON *sweep = cJSON_CreateArray();
    cJSON *params = cJSON_CreateArray();
    cJSON *command = cJSON_CreateArray();
    int ok = h && sweep && params && command;
    if (ok) {
        cJSON_AddItemToObject(h, "tally_journal", cJSON_CreateNumber(1));
        cJSON_AddItemToObject(h, "workload", cJSON_CreateString(r->wl.w->name));
        cJSON_AddItemToObject(h, "sweep", sweep);
        cJSON_AddItemToObject(h, "runs", cJSON_CreateNumber(r->runs));
        cJSON_AddItemToObject(h, "warmup", cJSON_CreateNumber(r->warmup));
        cJSON_AddItemToObject(h, "interleave", cJSON_CreateBool(r->interleave));
        cJSON_AddItemToObject(h, "params", params);
        cJSON_AddItemToObject(h, "command", command);
        sweep = params = command = NULL;
        cJSON *metrics = cJSON_AddArrayToObject(h, "metrics");
        ok = metrics != NULL;
        for (size_t i = 0; ok && i < r->wl.metric_count; i++)
            ok = cJSON_AddItemToArray(metrics, cJSON_CreateString(r->wl.metrics[i].benchmark));
        cJSON *sw = cJSON_GetObjectItemCaseSensitive(h, "sweep");
        for (size_t i = 0; ok && i < r->sweep_count; i++)
            ok = cJSON_AddItemToArray(sw, cJSON_CreateString(r->sweep[i]));
        cJSON *pa = cJSON_GetObjectItemCaseSensitive(h, "params");
        for (size_t i = 0; ok && i < r->params.count; i++) {
            cJSON *kv = cJSON_CreateArray();
            ok = kv && cJSON_AddItemToArray(pa, kv) &&
                 cJSON_AddItemToArray(kv, cJSON_CreateString(r->params.keys[i])) &&
                 cJSON_AddItemToArray(kv, cJSON_CreateString(r->params.values[i]));
        }
        /* One argv per configuration; the labels too when there are several (they name the
         * result sets), while a single configuration may be relabelled on resume. */
        cJSON *cm = cJSON_GetObjectItemCaseSensitive(h, "command");
        for (size_t k = 0; ok && r->commands[0] && k < r->config_count; k++) {
            cJSON *argv = cJSON_CreateArray();
            ok = argv && cJSON_AddItemToArray(cm, argv);
            for (size_t i = 0; ok && r->commands[k][i]; i++)
                ok = cJSON_AddItemToArray(argv, cJSON_CreateString(r->commands[k][i]));
        }
        if (ok && r->config_count > 1) {
            cJSON *labels = cJSON_AddArrayToObject(h, "labels");
            ok = labels != NULL;
            for (size_t k = 0; ok && k < r->config_count; k++)
                ok = cJSON_AddItemToArray(labels, cJSON_CreateString(r->labels[k]));
        }
    }
    char *text = ok ? cJSON_PrintUnformatted(h) : NULL;
    cJSON_Delete(h);
    cJSON_Delete(sweep);
    cJSON_Delete(params);
    cJSON_Delete(command);
    if (text == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    *out = tally__strdup(text);
    cJSON_free(text);
    return *out ? TALLY_OK : tally__error(TALLY_ENOMEM, "out of memory");
}
