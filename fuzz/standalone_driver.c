/*
 * Replays inputs through a fuzz target without libFuzzer, so that builds without clang's
 * -fsanitize=fuzzer (gcc, valgrind, plain CTest runs) still exercise every target on its corpus.
 *
 * Usage: <name>_fuzzer PATH...   where each PATH is a file or a directory of files (not recursive;
 * names starting with '.' are skipped). Files are replayed in name order so that runs are
 * repeatable. Each input is handed over in a buffer of exactly its size, without a trailing NUL,
 * as libFuzzer does, so that sanitizer builds catch reads past the end.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, size = 0;
    uint8_t *data = malloc(cap);
    for (;;) {
        if (data == NULL) {
            fprintf(stderr, "%s: out of memory\n", path);
            fclose(f);
            return -1;
        }
        size += fread(data + size, 1, cap - size, f);
        if (size < cap)
            break;
        cap *= 2;
        uint8_t *bigger = realloc(data, cap);
        if (bigger == NULL)
            free(data);
        data = bigger;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        fprintf(stderr, "%s: read error\n", path);
        free(data);
        return -1;
    }
    /* An exact-size copy: a read one byte past the input is then a heap overflow ASan reports. */
    uint8_t *exact = malloc(size ? size : 1);
    if (exact == NULL) {
        free(data);
        fprintf(stderr, "%s: out of memory\n", path);
        return -1;
    }
    memcpy(exact, data, size);
    free(data);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays every regular file of a directory; returns the number replayed or -1. */
static long replay_directory(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "%s: cannot open directory: %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    struct dirent *e;
    long result = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof(*names));
            if (grown == NULL) {
                result = -1;
                break;
            }
            names = grown;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if ((names[count] = malloc(len)) == NULL) {
            result = -1;
            break;
        }
        snprintf(names[count], len, "%s/%s", dir, e->d_name);
        count++;
    }
    closedir(d);
    if (result == 0 && count > 0)
        qsort(names, count, sizeof(*names), by_name);
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        if (result >= 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (replay_file(names[i]) != 0)
                result = -1;
            else
                result++;
        }
        free(names[i]);
    }
    free(names);
    if (result < 0)
        fprintf(stderr, "%s: replay failed\n", dir);
    return result;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE-OR-DIRECTORY...\n", argv[0]);
        return 2;
    }
    long total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
            return 1;
        }
        long n = S_ISDIR(st.st_mode) ? replay_directory(argv[i]) : (replay_file(argv[i]) ? -1 : 1);
        if (n < 0)
            return 1;
        total += n;
    }
    /* An empty corpus replays nothing and would hide a missing seed directory. */
    if (total == 0) {
        fprintf(stderr, "no inputs found in the given paths\n");
        return 1;
    }
    printf("%ld inputs replayed\n", total);
    return 0;
}
