/* Configurations measured in different environments (docs/reports.md, "Environment"): the
 * metadata keys that say how a result set was measured (the runner's environment fingerprint
 * and the workload's parameters) are compared across the report's configurations, and every
 * key whose recorded values differ is listed, unless the caller expects it to differ (the
 * kernel, when the comparison is about the kernel). A key recorded by one configuration only
 * is not a difference: imported files often carry no metadata. */
#include <fnmatch.h>
#include <string.h>

#include "report/report_internal.h"

static const char *const environment_keys[] = {
    "host", "arch", "kernel", "kernel_cmdline", "cpu_model", "cpu_count", "smt", "governor",
    "boost", "thp", "isolcpus", "nohz_full", "aslr", "memory", "workload",
};

static int watched(const char *key)
{
    if (strncmp(key, "param.", 6) == 0)
        return 1;
    for (size_t i = 0; i < TALLY__COUNT(environment_keys); i++)
        if (strcmp(key, environment_keys[i]) == 0)
            return 1;
    return 0;
}

/* Whether `key` matches one of the comma-separated names or shell globs of `expected`. */
static int expected_to_differ(const char *key, const char *expected)
{
    while (expected && *expected) {
        size_t n = strcspn(expected, ",");
        char pattern[256];
        if (n > 0 && n < sizeof pattern) {
            memcpy(pattern, expected, n);
            pattern[n] = '\0';
            if (fnmatch(pattern, key, 0) == 0)
                return 1;
        }
        expected += n + (expected[n] == ',');
    }
    return 0;
}

static const char *value_of(const tally__config *c, const char *key)
{
    for (size_t k = 0; k < c->meta_count; k++)
        if (strcmp(c->meta[k].key, key) == 0)
            return c->meta[k].value;
    return NULL;
}

static int already(const tally_report *r, const char *key)
{
    for (size_t i = 0; i < r->env_count; i++)
        if (strcmp(r->env[i].key, key) == 0)
            return 1;
    return 0;
}

int tally__report_environment(tally_report *r)
{
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__config *cfg = &r->configs[j];
        for (size_t k = 0; k < cfg->meta_count; k++) {
            const char *key = cfg->meta[k].key;
            if (!watched(key) || already(r, key) ||
                expected_to_differ(key, r->opts.expect_diff))
                continue;
            const char *first = NULL;
            int differs = 0;
            for (size_t i = 0; i < r->config_count && !differs; i++) {
                const char *v = value_of(&r->configs[i], key);
                if (v && first && strcmp(v, first) != 0)
                    differs = 1;
                if (v && !first)
                    first = v;
            }
            if (!differs)
                continue;
            tally__env_diff *grown = tally__reallocarray(r->env, r->env_count + 1, sizeof *grown);
            if (grown == NULL)
                return tally__oom();
            r->env = grown;
            tally__env_diff *d = &r->env[r->env_count];
            d->key = tally__strdup(key);
            if (d->key == NULL)
                return tally__oom();
            r->env_count++;
        }
    }
    return TALLY_OK;
}

void tally__report_free_environment(tally_report *r)
{
    for (size_t i = 0; i < r->env_count; i++)
        tally__free_mem(r->env[i].key);
    tally__free_mem(r->env);
    tally__free_mem(r->expect_copy);
}

void tally__render_env_notes(tally__buf *b, const tally_report *r, const char *prefix)
{
    if (r->env_count == 0)
        return;
    tally__buf_puts(b, "environment: the configurations were measured differently (compare like "
                       "with like, or name the keys you meant to change with --expect-diff):\n");
    const char *item = prefix[0] ? prefix : "  ";
    for (size_t i = 0; i < r->env_count; i++) {
        const char *key = r->env[i].key;
        tally__buf_printf(b, "%s%s:", item, key);
        for (size_t j = 0; j < r->config_count; j++) {
            const char *v = value_of(&r->configs[j], key);
            tally__buf_printf(b, "%s %s ", j ? ";" : "", r->configs[j].label);
            tally__buf_puts(b, v ? v : "(not recorded)");
        }
        tally__buf_puts(b, "\n");
    }
}

size_t tally_report_env_diff_count(const tally_report *r)
{
    return r ? r->env_count : 0;
}

const char *tally_report_env_diff_key(const tally_report *r, size_t i)
{
    return r && i < r->env_count ? r->env[i].key : NULL;
}

const char *tally_report_env_diff_value(const tally_report *r, size_t i, size_t config)
{
    if (r == NULL || i >= r->env_count || config >= r->config_count)
        return NULL;
    return value_of(&r->configs[config], r->env[i].key);
}
