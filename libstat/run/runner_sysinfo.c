/* Facts about the machine recorded with every run: kernel, CPU, memory, governor, date. Each
 * source that cannot be read is skipped (containers hide some of sysfs), never guessed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "run/runner_internal.h"

/* The value after "key<blanks>:" on the first matching line of a /proc file. */
static int proc_field(char *out, size_t cap, const char *path, const char *key)
{
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return 0;
    char line[512];
    size_t klen = strlen(key);
    int found = 0;
    while (!found && fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, key, klen) != 0)
            continue;
        char *p = line + klen;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != ':')
            continue;
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strcspn(p, "\n");
        if (n >= cap)
            n = cap - 1;
        memcpy(out, p, n);
        out[n] = '\0';
        found = 1;
    }
    fclose(f);
    return found;
}

static int first_line(char *out, size_t cap, const char *path)
{
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return 0;
    int ok = fgets(out, (int)cap, f) != NULL;
    fclose(f);
    if (ok)
        out[strcspn(out, "\n")] = '\0';
    return ok && out[0] != '\0';
}

size_t tally__llc_bytes(void)
{
    size_t best = 0;
    for (int i = 0; i < 16; i++) {
        char path[96], text[64];
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!first_line(text, sizeof(text), path))
            continue;
        char *end;
        unsigned long long v = strtoull(text, &end, 10);
        if (*end == 'K')
            v *= 1024ULL;
        else if (*end == 'M')
            v *= 1024ULL * 1024ULL;
        if (v > best)
            best = (size_t)v;
    }
    return best;
}

int tally__sysinfo_record(tally_resultset *rs)
{
    char text[512];
    int rc = TALLY_OK;
    struct utsname u;
    if (uname(&u) == 0) {
        rc |= tally_resultset_meta_set(rs, "kernel", u.release);
        rc |= tally_resultset_meta_set(rs, "host", u.nodename);
        rc |= tally_resultset_meta_set(rs, "arch", u.machine);
    }
    /* Changes at every boot: a journal resumed after a reboot is told apart (docs/runners.md). */
    if (first_line(text, sizeof(text), "/proc/sys/kernel/random/boot_id"))
        rc |= tally_resultset_meta_set(rs, "boot_id", text);
    if (proc_field(text, sizeof(text), "/proc/cpuinfo", "model name") ||
        proc_field(text, sizeof(text), "/proc/cpuinfo", "Model") ||
        proc_field(text, sizeof(text), "/proc/cpuinfo", "cpu model"))
        rc |= tally_resultset_meta_set(rs, "cpu_model", text);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus > 0) {
        snprintf(text, sizeof(text), "%ld", cpus);
        rc |= tally_resultset_meta_set(rs, "cpu_count", text);
    }
    if (proc_field(text, sizeof(text), "/proc/meminfo", "MemTotal"))
        rc |= tally_resultset_meta_set(rs, "memory", text);
    if (first_line(text, sizeof(text), "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"))
        rc |= tally_resultset_meta_set(rs, "governor", text);
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm) != NULL && strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm))
        rc |= tally_resultset_meta_set(rs, "date", text);
    rc |= tally_resultset_meta_set(rs, "tally_version", tally_version());
    return rc == TALLY_OK ? TALLY_OK : tally__error(TALLY_ENOMEM, "out of memory");
}
