/* The size-prefixed result structs of the public API (util/result.h). */
#include <string.h>

#include "util/internal.h"
#include "util/result.h"

int tally__result_size(size_t *size, const void *given, const char *type)
{
    size_t s;
    if (given == NULL)
        return tally__error(TALLY_EINVAL, "%s: NULL pointer", type);
    memcpy(&s, given, sizeof s);
    if (s < sizeof(size_t))
        return tally__error(TALLY_EINVAL, "%s: size %zu, expected sizeof (%s)", type, s, type);
    *size = s;
    return TALLY_OK;
}

int tally__result_begin(size_t *size, const void *given, const char *type, void *full,
                        size_t full_size)
{
    memset(full, 0, full_size);
    return tally__result_size(size, given, type);
}

void tally__result_put(void *given, size_t size, const void *full, size_t full_size)
{
    size_t n = size < full_size ? size : full_size;
    memcpy((char *)given + sizeof(size_t), (const char *)full + sizeof(size_t),
           n - sizeof(size_t));
    memcpy(given, &n, sizeof n);
}

void tally__result_get(void *full, size_t full_size, const void *given, size_t size)
{
    size_t n = size < full_size ? size : full_size;
    memset(full, 0, full_size);
    memcpy(full, given, n);
    memcpy(full, &full_size, sizeof full_size);
}
