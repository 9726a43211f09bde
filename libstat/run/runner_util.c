/* Small helpers shared by the runner and the workloads: metrics, parameters, argv, PATH. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/runner_internal.h"
#include "util/text.h"

int tally__wl_add_metric(tally__wl *wl, const char *benchmark, const char *case_name,
                         const char *unit, tally_direction direction, tally_statistic stat)
{
    tally__metric *grown =
        tally__reallocarray(wl->metrics, wl->metric_count + 1, sizeof(*wl->metrics));
    if (grown == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    wl->metrics = grown;
    tally__metric *m = &wl->metrics[wl->metric_count];
    memset(m, 0, sizeof(*m));
    m->benchmark = tally__strdup(benchmark);
    m->case_name = case_name ? tally__strdup(case_name) : NULL;
    m->unit = tally__strdup(unit);
    m->direction = direction;
    m->statistic = stat;
    wl->metric_count++;
    if (m->benchmark == NULL || m->unit == NULL || (case_name && m->case_name == NULL))
        return tally__error(TALLY_ENOMEM, "out of memory");
    return TALLY_OK;
}

const char *tally__param_get(const tally__params *p, const char *key)
{
    /* The last occurrence wins, as with repeated command-line options. */
    for (size_t i = p->count; i-- > 0;)
        if (strcmp(p->keys[i], key) == 0)
            return p->values[i];
    return NULL;
}

int tally__param_long(long *out, const tally__params *p, const char *key, long def, long min,
                      long max)
{
    const char *v = tally__param_get(p, key);
    if (v == NULL) {
        *out = def;
        return TALLY_OK;
    }
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (v[0] == '\0' || *end != '\0' || errno != 0 || x < min || x > max)
        return tally__error(TALLY_EINVAL, "parameter %s=%s: expected an integer from %ld to %ld",
                            key, v, min, max);
    *out = x;
    return TALLY_OK;
}

int tally__param_double(double *out, const tally__params *p, const char *key, double def)
{
    const char *v = tally__param_get(p, key);
    if (v == NULL) {
        *out = def;
        return TALLY_OK;
    }
    double x;
    if (tally__parse_double(&x, v, strlen(v)) != TALLY_OK || !(x > 0))
        return tally__error(TALLY_EINVAL, "parameter %s=%s: expected a positive number", key, v);
    *out = x;
    return TALLY_OK;
}

int tally__param_choice(int *out, const tally__params *p, const char *key,
                        const char *const *choices, int def)
{
    const char *v = tally__param_get(p, key);
    if (v == NULL) {
        *out = def;
        return TALLY_OK;
    }
    for (int i = 0; choices[i] != NULL; i++) {
        if (strcmp(v, choices[i]) == 0) {
            *out = i;
            return TALLY_OK;
        }
    }
    tally__buf list = TALLY__BUF_INIT;
    for (int i = 0; choices[i] != NULL; i++)
        tally__buf_printf(&list, "%s%s", i ? ", " : "", choices[i]);
    int rc = tally__error(TALLY_EINVAL, "parameter %s=%s: expected one of %s", key, v,
                          list.data ? list.data : "");
    tally__buf_dispose(&list);
    return rc;
}

int tally__sweep_long(long *out, const char *value, const char *what, long max)
{
    char *end;
    errno = 0;
    long x = strtol(value, &end, 10);
    if (value[0] == '\0' || *end != '\0' || errno != 0 || x < 1 || x > max)
        return tally__error(TALLY_EINVAL, "sweep value '%s': %s must be an integer from 1 to %ld",
                            value, what, max);
    *out = x;
    return TALLY_OK;
}

int tally__argv_new(char ***out, const char *const *pieces, size_t n)
{
    *out = NULL;
    char **argv = tally__calloc(n + 1, sizeof(*argv));
    if (argv == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (pieces[i] == NULL)
            continue;
        argv[k] = tally__strdup(pieces[i]);
        if (argv[k++] == NULL) {
            tally__free_argv(argv);
            return tally__error(TALLY_ENOMEM, "out of memory");
        }
    }
    *out = argv;
    return TALLY_OK;
}

void tally__free_argv(char **argv)
{
    if (argv == NULL)
        return;
    for (size_t i = 0; argv[i] != NULL; i++)
        tally__free_mem(argv[i]);
    tally__free_mem(argv);
}

int tally__find_executable(const char *name)
{
    if (name == NULL || name[0] == '\0')
        return 0;
    if (strchr(name, '/') != NULL)
        return access(name, X_OK) == 0;
    const char *path = getenv("PATH");
    if (path == NULL)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t dlen = colon ? (size_t)(colon - path) : strlen(path);
        char full[PATH_MAX];
        size_t nlen = strlen(name);
        if (dlen > 0 && dlen + nlen + 2 <= sizeof(full)) {
            memcpy(full, path, dlen);
            full[dlen] = '/';
            memcpy(full + dlen + 1, name, nlen + 1);
            if (access(full, X_OK) == 0)
                return 1;
        }
        if (colon == NULL)
            break;
        path = colon + 1;
    }
    return 0;
}

double tally__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *tally__tail(const char *s, size_t len, size_t max)
{
    if (len <= max)
        return s;
    const char *start = s + len - max;
    const char *nl = memchr(start, '\n', max);
    if (nl != NULL && nl + 1 < s + len)
        return nl + 1;
    return start;
}
