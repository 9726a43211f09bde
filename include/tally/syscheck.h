/**
 * @file tally/syscheck.h
 * @brief Is this machine ready to benchmark? A read-only look at what makes runs noisy.
 *
 * In the manner of `pyperf system show`: frequency governor, turbo/boost, SMT, ASLR, load,
 * services known to wake up and steal CPU time, isolated CPUs, perf_event_paranoid, transparent
 * huge pages and the power source, each with what it is, whether it is a concern, and what to do
 * about it. Nothing is ever changed. Linux only (a build without the runner reports ::TALLY_ERUN).
 */
#ifndef TALLY_SYSCHECK_H
#define TALLY_SYSCHECK_H

#include <stddef.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How a finding bears on benchmark noise. */
typedef enum tally_check_level {
    TALLY_CHECK_OK = 0,      /**< As a benchmark wants it. */
    TALLY_CHECK_WARN = 1,    /**< A known source of noise: the advice says what to change. */
    TALLY_CHECK_INFO = 2,    /**< Worth knowing, not by itself a problem. */
    TALLY_CHECK_UNKNOWN = 3  /**< Could not be read here (containers hide parts of sysfs). */
} tally_check_level;

/**
 * One finding. Strings are owned by the check handle. A growable result struct like
 * ::tally_summary: set `size` before tally_system_check_item_at() fills it
 * (`tally_check_item it = { .size = sizeof it };`).
 */
typedef struct tally_check_item {
    size_t size;             /**< Set by the caller to sizeof (tally_check_item); on return, the
                                  bytes the library filled. */
    const char *name;        /**< What was looked at ("governor", "boost", "load", ...). */
    const char *value;       /**< What it is ("powersave", "on", "1.52", ...); "" when unknown. */
    tally_check_level level; /**< Whether it is a concern. */
    const char *advice;      /**< What to do, or why it is fine; never NULL. */
} tally_check_item;

typedef struct tally_system_check tally_system_check; /**< The findings of one look. */

/**
 * Look at this machine now. Reads /proc and /sys only; changes nothing.
 * @param out receives the findings; free with tally_system_check_free().
 * @return ::TALLY_OK, ::TALLY_EINVAL (NULL out), ::TALLY_ENOMEM, ::TALLY_ERUN (not Linux, or a
 *   build without the runner). Thread-safe.
 */
TALLY_API int tally_system_check_run(tally_system_check **out);

/** @return the number of findings (0 for NULL). */
TALLY_API size_t tally_system_check_count(const tally_system_check *c);

/**
 * Finding i.
 * @param out receives it, up to its `size` (set by the caller); its strings live as long as
 *   `c`.
 * @return ::TALLY_OK or ::TALLY_EINVAL (NULL argument, `size` not set, i out of range).
 */
TALLY_API int tally_system_check_item_at(tally_check_item *out, const tally_system_check *c, size_t i);

/** @return how many findings are ::TALLY_CHECK_WARN. */
TALLY_API size_t tally_system_check_warnings(const tally_system_check *c);

/** Free the findings; NULL is accepted. */
TALLY_API void tally_system_check_free(tally_system_check *c);

#ifdef __cplusplus
}
#endif

#endif /* TALLY_SYSCHECK_H */
