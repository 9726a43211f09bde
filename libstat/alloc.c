/* Allocation wrappers. In fault-injection builds (TALLY_FAULT_INJECTION) a thread-local countdown
 * makes the Nth allocation fail, so tests can prove every path returns TALLY_ENOMEM cleanly. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tally/testing.h"

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

void *tally__malloc(size_t size)
{
    if (should_fail())
        return NULL;
    return malloc(size ? size : 1);
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
    return realloc(ptr, size ? size : 1);
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
