/* Options structs of any supported version (options.h). */
#include <string.h>

#include "util/internal.h"
#include "util/options.h"

int tally__options_check_version(unsigned int version, const tally__options_kind *k)
{
    if (version >= 1 && version <= k->current)
        return TALLY_OK;
    if (k->current == 1)
        return tally__error(TALLY_EINVAL, "%s: version %u, expected 1", k->name, version);
    return tally__error(TALLY_EINVAL, "%s: version %u, expected 1 to %u", k->name, version,
                        k->current);
}

int tally__options_init(void *opts, unsigned int version, const tally__options_kind *k)
{
    if (opts == NULL)
        return tally__error(TALLY_EINVAL, "%s: NULL options", k->name);
    int rc = tally__options_check_version(version, k);
    if (rc != TALLY_OK)
        return rc;
    memcpy(opts, k->defaults, k->sizes[version - 1]);
    memcpy(opts, &version, sizeof(version)); /* the first member of every options struct */
    return TALLY_OK;
}

int tally__options_read(void *out, const void *given, const tally__options_kind *k)
{
    memcpy(out, k->defaults, k->size);
    if (given == NULL)
        return TALLY_OK;
    unsigned int version;
    memcpy(&version, given, sizeof(version));
    int rc = tally__options_check_version(version, k);
    if (rc != TALLY_OK)
        return rc;
    memcpy(out, given, k->sizes[version - 1]);
    memcpy(out, &k->current, sizeof(k->current));
    return TALLY_OK;
}
