/* The options pattern (docs/internals/CODE_STYLE.md): every public options struct starts with
 * `unsigned int version`; a caller built against an older header passes an older version, whose
 * struct is a prefix of today's. One check and one message for all of them, and one way to fill
 * the defaults (tally_*_options_init) and to read a caller's struct of any supported version. */
#ifndef TALLY_OPTIONS_H
#define TALLY_OPTIONS_H

#include <stddef.h>

/* What the library knows of one options struct. */
typedef struct tally__options_kind {
    const char *name;       /* "tally_summary_options", for messages */
    unsigned int current;   /* the header's TALLY_*_OPTIONS_VERSION */
    const size_t *sizes;    /* sizes[v - 1]: bytes of the struct as version v defined it */
    const void *defaults;   /* a current struct holding every default (the INIT macro) */
    size_t size;            /* sizeof the current struct */
} tally__options_kind;

/* Whether `version` lies in 1 .. k->current; else TALLY_EINVAL recorded as
 * "NAME: version V, expected 1" (or "expected 1 to N" once there are several). */
int tally__options_check_version(unsigned int version, const tally__options_kind *k);

/* tally_*_options_init: the defaults of version `version` into the caller's struct (only the
 * bytes that version has), with `version` set. TALLY_EINVAL for a NULL struct or an unknown
 * version. */
int tally__options_init(void *opts, unsigned int version, const tally__options_kind *k);

/* A caller's struct (NULL: the defaults) as a current one in `out` (k->size bytes): the fields
 * its version has, the defaults for the later ones, `version` set to the current one.
 * TALLY_EINVAL for an unknown version. The values are not checked here. */
int tally__options_read(void *out, const void *given, const tally__options_kind *k);

/* Define, for the options struct TYPE whose macros are PREFIX_VERSION and PREFIX_INIT:
 * `static const tally__options_kind TYPE_kind` and the public `int TYPE_init(TYPE *, unsigned)`.
 * The arguments after PREFIX are the struct's size in each version, oldest first (one per
 * version: a struct that grows gains an entry, e.g. offsetof(TYPE, first_new_field)). */
#define TALLY__OPTIONS_FUNCTIONS(TYPE, PREFIX, ...)                                            \
    static const TYPE TYPE##_defaults = PREFIX##_INIT;                                        \
    static const size_t TYPE##_sizes[] = { __VA_ARGS__ };                                     \
    _Static_assert(sizeof(TYPE##_sizes) / sizeof(size_t) == PREFIX##_VERSION,                 \
                   #TYPE ": one size per version");                                           \
    static const tally__options_kind TYPE##_kind = { #TYPE, PREFIX##_VERSION, TYPE##_sizes,   \
                                                     &TYPE##_defaults, sizeof(TYPE) };        \
    int TYPE##_init(TYPE *opts, unsigned int version)                                         \
    {                                                                                         \
        return tally__options_init(opts, version, &TYPE##_kind);                              \
    }

#endif /* TALLY_OPTIONS_H */
