/* Allocation wrappers. In fault-injection builds (TALLY_FAULT_INJECTION) a thread-local countdown
 * makes the Nth allocation fail, so tests can prove every path returns TALLY_ENOMEM cleanly. */
#define _DEFAULT_SOURCE /* madvise and its MADV_ advice, beside POSIX */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/internal.h"
#include "util/testing.h"

#ifdef TALLY_FAULT_INJECTION
static _Thread_local long fail_countdown = 0; /* 0: off; N: the Nth allocation from now fails */
static _Thread_local unsigned long allocation_count = 0;

static int should_fail(void)
{
    allocation_count++;
    if (fail_countdown > 0 && --fail_countdown == 0)
        return 1;
    return 0;
}

void tally_testing_fail_allocation(long n)
{
    fail_countdown = n > 0 ? n : 0;
    allocation_count = 0;
}

unsigned long tally_testing_allocation_count(void)
{
    return allocation_count;
}
#else
static int should_fail(void)
{
    return 0;
}
#endif

/* Blocks from this size on are backed by transparent huge pages where the kernel offers them
 * (THP in "madvise" mode): a first touch then faults 2 MiB at a time instead of 4 KiB, which on
 * virtual machines, where every fault is an expensive exit, made filling a fresh 16 MB array of
 * samples some 4x cheaper (28 ms -> 7 ms). */
#define HUGE_BLOCK ((size_t)4 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)
#define SMALL_PAGE ((uintptr_t)4096)
/* Below this, a few faults cost less than the call. */
#define PREFAULT_BLOCK ((size_t)64 << 10)

/* The whole pages of [p, p + size), aligned to `page`; 0 when there are none. */
static size_t inner_pages(uintptr_t *start, const void *p, size_t size, uintptr_t page)
{
    uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
    uintptr_t hi = ((uintptr_t)p + size) & ~(page - 1);
    *start = lo;
    return hi > lo ? (size_t)(hi - lo) : 0;
}

static void *advise_huge(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
    uintptr_t start;
    size_t len;
    if (p != NULL && size >= HUGE_BLOCK && (len = inner_pages(&start, p, size, HUGE_PAGE)) > 0)
        (void)madvise((void *)start, len, MADV_HUGEPAGE); /* a hint: failure changes nothing */
#else
    (void)size;
#endif
    return p;
}

void tally__prefault(void *p, size_t size)
{
#ifdef MADV_POPULATE_WRITE
    uintptr_t start;
    size_t len;
    if (size >= PREFAULT_BLOCK && (len = inner_pages(&start, p, size, SMALL_PAGE)) > 0)
        (void)madvise((void *)start, len, MADV_POPULATE_WRITE); /* kernels before 5.14: EINVAL */
#else
    (void)p;
    (void)size;
#endif
}

void *tally__malloc(size_t size)
{
    if (should_fail())
        return NULL;
    return advise_huge(malloc(size ? size : 1), size);
}

void *tally__calloc(size_t count, size_t size)
{
    if (should_fail())
        return NULL;
    if (count == 0 || size == 0)
        count = size = 1;
    return calloc(count, size);
}

void *tally__realloc(void *ptr, size_t size)
{
    if (should_fail())
        return NULL;
    return advise_huge(realloc(ptr, size ? size : 1), size);
}

void *tally__reallocarray(void *ptr, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    return tally__realloc(ptr, count * size);
}

char *tally__strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *copy = tally__malloc(len + 1);
    if (copy == NULL)
        return NULL;
    memcpy(copy, s, len);
    copy[len] = '\0';
    return copy;
}

char *tally__strdup(const char *s)
{
    return tally__strndup(s, strlen(s));
}

void tally__free_mem(void *ptr)
{
    free(ptr);
}

void tally_free(void *ptr)
{
    free(ptr);
}
