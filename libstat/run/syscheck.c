/* `tally check`: a read-only readiness report of this machine (include/tally/syscheck.h). The
 * facts come from the same probes as the runner's environment fingerprint (runner_sysinfo.c),
 * so what the check looks at is what a result set records. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/runner_internal.h"
#include "util/result.h"

typedef struct item {
    char *name, *value, *advice;
    tally_check_level level;
} item;

struct tally_system_check {
    item *items;
    size_t count, cap;
    int failed;
};

static void add(tally_system_check *c, const char *name, const char *value, tally_check_level lv,
                const char *advice)
{
    if (c->failed)
        return;
    if (c->count == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        item *grown = tally__reallocarray(c->items, cap, sizeof *grown);
        if (grown == NULL) {
            c->failed = 1;
            return;
        }
        c->items = grown;
        c->cap = cap;
    }
    item *it = &c->items[c->count];
    it->name = tally__strdup(name);
    it->value = tally__strdup(value ? value : "");
    /* Unreadable is not the same as bad: say so instead of advising a change. */
    it->advice = tally__strdup(value ? advice : "cannot be read here (a virtual machine or "
                                                "container may hide it)");
    it->level = value ? lv : TALLY_CHECK_UNKNOWN;
    if (!it->name || !it->value || !it->advice) {
        tally__free_mem(it->name), tally__free_mem(it->value), tally__free_mem(it->advice);
        c->failed = 1;
        return;
    }
    c->count++;
}

/* A probe's value, or NULL when it cannot be read. */
static const char *probe(char *buf, size_t cap, const char *key)
{
    return tally__sys_probe(buf, cap, key) ? buf : NULL;
}

/* Processes whose name is one of `names`, as a comma-separated list into out. */
static void running(char *out, size_t cap, const char *const *names, size_t count)
{
    out[0] = '\0';
    DIR *d = opendir("/proc");
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[64], comm[64];
        snprintf(path, sizeof path, "/proc/%.20s/comm", e->d_name);
        FILE *f = fopen(path, "re");
        if (f == NULL)
            continue;
        int ok = fgets(comm, sizeof comm, f) != NULL;
        fclose(f);
        if (!ok)
            continue;
        comm[strcspn(comm, "\n")] = '\0';
        for (size_t i = 0; i < count; i++) {
            if (strcmp(comm, names[i]) != 0 || strstr(out, comm) != NULL)
                continue;
            size_t len = strlen(out);
            snprintf(out + len, cap - len, "%s%s", len ? ", " : "", comm);
        }
    }
    closedir(d);
}

/* On battery when a battery reports Discharging and no mains supply is online. */
static const char *power_source(char *out, size_t cap)
{
    DIR *d = opendir("/sys/class/power_supply");
    if (d == NULL)
        return NULL;
    int battery = 0, discharging = 0, mains_online = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[512], v[64];
        snprintf(path, sizeof path, "/sys/class/power_supply/%.200s/type", e->d_name);
        FILE *f = fopen(path, "re");
        if (f == NULL)
            continue;
        int ok = fgets(v, sizeof v, f) != NULL;
        fclose(f);
        if (!ok)
            continue;
        if (strncmp(v, "Battery", 7) == 0) {
            battery = 1;
            snprintf(path, sizeof path, "/sys/class/power_supply/%.200s/status", e->d_name);
            if ((f = fopen(path, "re")) != NULL) {
                if (fgets(v, sizeof v, f) && strncmp(v, "Discharging", 11) == 0)
                    discharging = 1;
                fclose(f);
            }
        } else if (strncmp(v, "Mains", 5) == 0) {
            snprintf(path, sizeof path, "/sys/class/power_supply/%.200s/online", e->d_name);
            if ((f = fopen(path, "re")) != NULL) {
                if (fgets(v, sizeof v, f) && v[0] == '1')
                    mains_online = 1;
                fclose(f);
            }
        }
    }
    closedir(d);
    if (!battery)
        return NULL; /* a desktop or server: nothing to say */
    snprintf(out, cap, "%s", discharging && !mains_online ? "battery" : "mains");
    return out;
}

/* The settings judged by one value: the level and advice when the probe reads `match`, and when
 * it reads anything else (or nothing). */
static const struct setting {
    const char *name, *match;
    tally_check_level if_match, if_other;
    const char *advice_match, *advice_other;
} settings[] = {
    { "governor", "performance", TALLY_CHECK_OK, TALLY_CHECK_WARN,
      "CPUs run at their highest frequency",
      "frequency scaling changes the speed between runs: cpupower frequency-set -g "
      "performance" },
    { "boost", "off", TALLY_CHECK_OK, TALLY_CHECK_WARN, "turbo frequencies are off",
      "turbo frequencies depend on temperature and load: echo 0 > "
      "/sys/devices/system/cpu/cpufreq/boost (intel_pstate: echo 1 > .../no_turbo)" },
    { "smt", "on", TALLY_CHECK_INFO, TALLY_CHECK_OK,
      "SMT siblings share a core: pin the benchmark to one thread per core, or echo "
      "off > /sys/devices/system/cpu/smt/control",
      "no SMT siblings to share a core with" },
    { "aslr", "0", TALLY_CHECK_OK, TALLY_CHECK_INFO,
      "address space layout is the same in every run",
      "randomised layout varies cache and TLB behaviour between runs; for "
      "microbenchmarks: setarch -R CMD, or echo 0 > /proc/sys/kernel/randomize_va_space" },
};

static void look(tally_system_check *c)
{
    char v[4096];
    const char *s;

    for (size_t i = 0; i < TALLY__COUNT(settings); i++) {
        const struct setting *st = &settings[i];
        s = probe(v, sizeof v, st->name);
        int match = s && strcmp(s, st->match) == 0;
        add(c, st->name, s, match ? st->if_match : st->if_other,
            match ? st->advice_match : st->advice_other);
    }

    char cpus[32] = "";
    int ncpu = tally__sys_probe(cpus, sizeof cpus, "cpu_count") ? atoi(cpus) : 0;
    s = probe(v, sizeof v, "load_avg");
    double load = s ? strtod(s, NULL) : 0; /* the kernel's "0.52": strtod sees '.' as in C */
    int busy = s && ncpu > 0 && load > 0.1 * ncpu;
    add(c, "load", s, busy ? TALLY_CHECK_WARN : TALLY_CHECK_OK,
        busy ? "other work is running (1, 5 and 15 minute load averages): wait for it or stop "
               "it; benchmarks on a busy machine compare the other work"
             : "the machine is idle");

    static const char *const noisy[] = {
        "cron", "crond", "anacron", "atd", "packagekitd", "unattended-upgr", "apt-get", "dpkg",
        "snapd", "fwupd", "updatedb", "updatedb.mlocat", "tracker-miner-f", "baloo_file",
        "mandb", "irqbalance", "tuned", "thermald", "docker", "dockerd", "containerd",
    };
    char found[1024];
    running(found, sizeof found, noisy, TALLY__COUNT(noisy));
    add(c, "services", found[0] ? found : "none",
        found[0] ? TALLY_CHECK_WARN : TALLY_CHECK_OK,
        found[0] ? "these wake up on their own and take CPU time, caches and I/O: stop them for "
                   "the benchmark (systemctl stop ...)"
                 : "no known noisy service runs");

    s = probe(v, sizeof v, "isolcpus");
    int isolated = s && strcmp(s, "none") != 0;
    add(c, "isolcpus", s, isolated ? TALLY_CHECK_OK : TALLY_CHECK_INFO,
        isolated ? "isolated CPUs: pin the benchmark there (taskset -c LIST)"
                 : "no isolated CPUs: the scheduler may put other tasks beside the benchmark; "
                   "isolcpus= and nohz_full= on the kernel command line keep some CPUs free");

    s = probe(v, sizeof v, "nohz_full");
    add(c, "nohz_full", s, TALLY_CHECK_INFO,
        s && strcmp(s, "none") != 0 ? "tick-less CPUs: fewer timer interrupts there"
                                    : "every CPU takes the periodic timer tick");

    s = probe(v, sizeof v, "perf_event_paranoid");
    int paranoid = s ? atoi(s) : 0;
    add(c, "perf_event_paranoid", s, s && paranoid > 1 ? TALLY_CHECK_INFO : TALLY_CHECK_OK,
        s && paranoid > 1 ? "perf stat cannot count CPU events for unprivileged users: sysctl "
                            "kernel.perf_event_paranoid=1 to measure cycles and instructions"
                          : "perf can count CPU events");

    s = probe(v, sizeof v, "thp");
    add(c, "thp", s, s && strcmp(s, "always") == 0 ? TALLY_CHECK_WARN : TALLY_CHECK_OK,
        s && strcmp(s, "always") == 0
            ? "huge pages are assembled in the background (khugepaged) and on faults: memory "
              "behaviour varies between runs; echo madvise > "
              "/sys/kernel/mm/transparent_hugepage/enabled"
            : "huge pages only where a program asks for them");

    s = power_source(v, sizeof v);
    if (s)
        add(c, "power", s, strcmp(s, "battery") == 0 ? TALLY_CHECK_WARN : TALLY_CHECK_OK,
            strcmp(s, "battery") == 0 ? "on battery the firmware lowers frequencies: plug in"
                                      : "on mains power");
}

int tally_system_check_run(tally_system_check **out)
{
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "tally_system_check_run: NULL argument");
    *out = NULL;
    tally_system_check *c = tally__calloc(1, sizeof *c);
    if (c == NULL)
        return tally__oom();
    look(c);
    if (c->failed) {
        tally_system_check_free(c);
        return tally__oom();
    }
    *out = c;
    return TALLY_OK;
}

size_t tally_system_check_count(const tally_system_check *c)
{
    return c ? c->count : 0;
}

size_t tally_system_check_warnings(const tally_system_check *c)
{
    size_t n = 0;
    for (size_t i = 0; c && i < c->count; i++)
        n += c->items[i].level == TALLY_CHECK_WARN;
    return n;
}

int tally_system_check_item_at(tally_check_item *out, const tally_system_check *c, size_t i)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_check_item");
    if (rc)
        return rc;
    if (c == NULL || i >= c->count)
        return tally__error(TALLY_EINVAL, "tally_system_check_item_at: invalid argument");
    const item *it = &c->items[i];
    tally_check_item full = { sizeof full, it->name, it->value, it->level, it->advice };
    tally__result_put(out, size, &full, sizeof full);
    return TALLY_OK;
}

void tally_system_check_free(tally_system_check *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->count; i++) {
        tally__free_mem(c->items[i].name);
        tally__free_mem(c->items[i].value);
        tally__free_mem(c->items[i].advice);
    }
    tally__free_mem(c->items);
    tally__free_mem(c);
}
