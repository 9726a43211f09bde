/* Every importer and tally_validate() under allocation failure: in fault-injection builds
 * (-DTALLY_FAULT_INJECTION=ON), the n-th allocation fails for n = 1, 2, ... until the call
 * succeeds; each failing call must return TALLY_ENOMEM and leave nothing behind (the sanitizer
 * build checks for leaks). Other builds only check that the files still load. The importers
 * are the registry's rows, each on the first file (by name) of tests/data/NAME/ it accepts. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>

#include "check.h"
#include "import_helpers.h"
#include "util/testing.h"

/* The registry rows whose files test_alloc_failure.c loads under allocation failure instead,
 * through the loader (native JSON, CSV, TSV, plain numbers, run journals). */
static const char *const elsewhere[] = {"json", "csv", "tsv", "plain", "journal"};

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The first file of tests/data/<imp->name>/ by name that `imp` parses, as "NAME/FILE" in `out`;
 * 0 when there is none. */
static int first_accepted(char *out, size_t cap, const tally__importer *imp)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", TALLY_TEST_DATA, imp->name);
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0;
    char *names[256];
    size_t n = 0;
    for (struct dirent *e; n < TALLY__COUNT(names) && (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.' && strcmp(e->d_name, "README.md") != 0)
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof names[0], by_name);
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        if (!found && names[i] != NULL) {
            tally_results *r = NULL;
            snprintf(out, cap, "%s/%s", imp->name, names[i]);
            found = import_file(&r, imp, out, NULL) == TALLY_OK;
            tally_results_free(r);
        }
        free(names[i]);
    }
    return found;
}

/* Parse tests/data/<file> with `imp`, then validate it, failing each allocation in turn. */
static int load_and_validate(const tally__importer *imp, const char *file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TALLY_TEST_DATA, file);
    char *data = NULL;
    size_t len = 0;
    /* read outside the injection window: the file helper is not under test here */
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return TALLY_EIO;
    static char buf[1 << 16];
    len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    data = buf;
#ifdef TALLY_FAULT_INJECTION
    int rc = TALLY_ENOMEM;
    long n;
    for (n = 1; rc == TALLY_ENOMEM && n < 100000; n++) {
        tally_results *r = NULL;
        tally_validation *v = NULL;
        tally_testing_fail_allocation(0);
        if (tally_results_new(&r) != TALLY_OK)
            return TALLY_ENOMEM;
        tally_testing_fail_allocation(n);
        rc = imp->parse(r, data, len, file, NULL);
        if (rc == TALLY_OK)
            rc = tally_validate(&v, r, NULL);
        tally_testing_fail_allocation(0);
        if (rc != TALLY_OK && rc != TALLY_ENOMEM)
            fprintf(stderr, "%s: allocation %ld: %s\n", file, n, last_message());
        tally_validation_free(v);
        tally_results_free(r);
    }
    CHECK(n > 2); /* at least one failure was injected */
    return rc;
#else
    tally_results *r = NULL;
    int rc = tally_results_new(&r);
    if (rc == TALLY_OK)
        rc = imp->parse(r, data, len, file, NULL);
    tally_results_free(r);
    return rc;
#endif
}

int main(void)
{
    size_t tested = 0;
    for (size_t i = 0; i < tally__importer_count; i++) {
        const tally__importer *imp = tally__importers[i];
        int skip = 0;
        for (size_t j = 0; j < TALLY__COUNT(elsewhere); j++)
            skip |= strcmp(imp->name, elsewhere[j]) == 0;
        if (skip)
            continue;
        char file[256];
        if (!first_accepted(file, sizeof file, imp)) {
            fprintf(stderr, "no file of tests/data/%s/ that the %s importer accepts\n", imp->name,
                    imp->name);
            CHECK(!"every importer has a file of its own in tests/data/NAME/");
            continue;
        }
        CHECK_INT(load_and_validate(imp, file), TALLY_OK);
        tested++;
    }
    /* today's nine importers of tools' files, at least */
    CHECK(tested >= 9);
    return check_summary();
}
