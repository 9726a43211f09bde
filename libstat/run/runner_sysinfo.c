/* Facts about the machine recorded with every run (the environment fingerprint: kernel and its
 * command line, CPU, SMT, governor, boost, THP, isolated CPUs, ASLR, memory, load), read by
 * `tally check` too. Each
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

/* The bracketed choice of a sysfs selector ("always [madvise] never" -> "madvise"). */
static int bracketed(char *out, size_t cap, const char *path)
{
    char line[256];
    if (!first_line(line, sizeof(line), path))
        return 0;
    const char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
    if (open == NULL || close == NULL)
        return 0;
    size_t n = (size_t)(close - open - 1);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, open + 1, n);
    out[n] = '\0';
    return 1;
}

/* A CPU list file ("2-3,6"), where empty and "(null)" mean none. */
static int cpu_list(char *out, size_t cap, const char *path)
{
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return 0;
    if (fgets(out, (int)cap, f) == NULL)
        out[0] = '\0';
    fclose(f);
    out[strcspn(out, "\n")] = '\0';
    if (out[0] == '\0' || strcmp(out, "(null)") == 0)
        snprintf(out, cap, "none");
    return 1;
}

int tally__sys_probe(char *out, size_t cap, const char *key)
{
    struct utsname u;
    if (strcmp(key, "kernel") == 0 || strcmp(key, "host") == 0 || strcmp(key, "arch") == 0) {
        if (uname(&u) != 0)
            return 0;
        snprintf(out, cap, "%s", key[0] == 'k' ? u.release : key[0] == 'h' ? u.nodename : u.machine);
        return 1;
    }
    if (strcmp(key, "kernel_cmdline") == 0)
        return first_line(out, cap, "/proc/cmdline");
    if (strcmp(key, "boot_id") == 0)
        return first_line(out, cap, "/proc/sys/kernel/random/boot_id");
    if (strcmp(key, "cpu_model") == 0)
        return proc_field(out, cap, "/proc/cpuinfo", "model name") ||
               proc_field(out, cap, "/proc/cpuinfo", "Model") ||
               proc_field(out, cap, "/proc/cpuinfo", "cpu model");
    if (strcmp(key, "cpu_count") == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        return cpus > 0 && snprintf(out, cap, "%ld", cpus) > 0;
    }
    if (strcmp(key, "memory") == 0)
        return proc_field(out, cap, "/proc/meminfo", "MemTotal");
    if (strcmp(key, "governor") == 0)
        return first_line(out, cap, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
    if (strcmp(key, "smt") == 0)
        return first_line(out, cap, "/sys/devices/system/cpu/smt/control");
    if (strcmp(key, "boost") == 0) {
        char v[32];
        if (first_line(v, sizeof v, "/sys/devices/system/cpu/cpufreq/boost"))
            return snprintf(out, cap, "%s", strcmp(v, "0") == 0 ? "off" : "on") > 0;
        /* intel_pstate says it the other way round. */
        if (first_line(v, sizeof v, "/sys/devices/system/cpu/intel_pstate/no_turbo"))
            return snprintf(out, cap, "%s", strcmp(v, "0") == 0 ? "on" : "off") > 0;
        return 0;
    }
    if (strcmp(key, "thp") == 0)
        return bracketed(out, cap, "/sys/kernel/mm/transparent_hugepage/enabled");
    if (strcmp(key, "isolcpus") == 0)
        return cpu_list(out, cap, "/sys/devices/system/cpu/isolated");
    if (strcmp(key, "nohz_full") == 0)
        return cpu_list(out, cap, "/sys/devices/system/cpu/nohz_full");
    if (strcmp(key, "aslr") == 0)
        return first_line(out, cap, "/proc/sys/kernel/randomize_va_space");
    if (strcmp(key, "perf_event_paranoid") == 0)
        return first_line(out, cap, "/proc/sys/kernel/perf_event_paranoid");
    if (strcmp(key, "load_avg") == 0) {
        char line[128];
        double a, b, c;
        if (!first_line(line, sizeof line, "/proc/loadavg") ||
            sscanf(line, "%lf %lf %lf", &a, &b, &c) != 3)
            return 0;
        /* The kernel writes two decimals; keep its text rather than reprint (no locale). */
        size_t n = 0;
        for (int fields = 0; line[n] && fields < 3; n++)
            if (line[n] == ' ' && ++fields == 3)
                break;
        line[n] = '\0';
        return snprintf(out, cap, "%s", line) > 0;
    }
    return 0;
}

/* What the runner records about the machine, in this order: the keys a comparison checks for
 * differences between configurations (docs/runners.md, "Environment"). */
static const char *const fingerprint_keys[] = {
    "kernel", "host", "arch", "kernel_cmdline", "boot_id", "cpu_model", "cpu_count", "smt",
    "governor", "boost", "thp", "isolcpus", "nohz_full", "aslr", "memory", "load_avg",
};

int tally__sysinfo_record(tally_resultset *rs)
{
    char text[4096];
    int rc = TALLY_OK;
    for (size_t i = 0; i < TALLY__COUNT(fingerprint_keys); i++)
        if (tally__sys_probe(text, sizeof text, fingerprint_keys[i]))
            rc |= tally_resultset_meta_set(rs, fingerprint_keys[i], text);
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm) != NULL && strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm))
        rc |= tally_resultset_meta_set(rs, "date", text);
    rc |= tally_resultset_meta_set(rs, "tally_version", tally_version());
    return rc == TALLY_OK ? TALLY_OK : tally__error(TALLY_ENOMEM, "out of memory");
}
