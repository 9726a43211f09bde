/**
 * @file tally/accum.h
 * @brief Summaries of samples spread over many partitions (files, machines, Dask tasks): mergeable
 * accumulators for the moments, and order statistics selected across partitions without moving
 * the samples.
 *
 * Moments: each partition adds its samples to a ::tally_accumulator in chunks; accumulators merge
 * in any order (a tree reduction) and serialise to bytes so they can travel between processes.
 * The merged accumulator holds count, extremes, compensated sums of x and 1/x, the product behind
 * the geometric mean and second moments merged by Chan, Golub and LeVeque's pairwise update; its
 * moments agree with tally_summarize()'s to within the bound documented in docs/statistics.md
 * ("Partitioned samples": <= 1e-12 relative on 10^8 samples in 1,000 chunks).
 *
 * Order statistics: a ::tally_partition_summary, made from the merged accumulator on the client,
 * asks for a few passes over the partitions (tally_partition_summary_request()); each partition
 * answers with tally_partition_scan() (bucket counts, then only the samples in the buckets that
 * hold the wanted ranks, then a few sums), the answers merge with tally_partition_merge() and the
 * merged answer is fed back (tally_partition_summary_feed()) until the summary is complete.
 * Median, percentiles, quartiles, median CI bounds, BAmean cuts and MAD equal tally_summarize()'s
 * bit for bit. Every byte string here is versioned and little-endian whatever the host.
 */
#ifndef TALLY_ACCUM_H
#define TALLY_ACCUM_H

#include "common.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Mergeable moments of a sample set. Not thread-safe; independent accumulators may be used from
 *  different threads. */
typedef struct tally_accumulator tally_accumulator;

/**
 * Create an empty accumulator.
 * @param out receives the accumulator (NULL on failure); free it with tally_accumulator_free().
 * @return ::TALLY_OK, ::TALLY_ENOMEM, ::TALLY_EINVAL (out is NULL).
 */
TALLY_API int tally_accumulator_new(tally_accumulator **out);

/** Free an accumulator; NULL is accepted. */
TALLY_API void tally_accumulator_free(tally_accumulator *a);

/**
 * Add a chunk of samples. The chunk is summarised in two passes as tally_summarize() does, then
 * merged into the accumulator as by tally_accumulator_merge().
 * @param a the accumulator.
 * @param x samples; not modified.
 * @param n number of samples; 0 is a no-op.
 * @return ::TALLY_OK; ::TALLY_ENONFINITE naming the first NaN or infinite sample of the chunk
 *   (nothing added); ::TALLY_EINVAL (a is NULL, or x is NULL with n > 0).
 */
TALLY_API int tally_accumulator_add(tally_accumulator *a, const double *x, size_t n);

/**
 * Merge `other` into `into`: afterwards `into` summarises the samples of both. The merge is
 * commutative and associative up to rounding (see the error bound in docs/statistics.md).
 * @param into the accumulator that receives the merge.
 * @param other the accumulator merged in; not modified; may be empty.
 * @return ::TALLY_OK, ::TALLY_EINVAL (NULL, or into == other).
 */
TALLY_API int tally_accumulator_merge(tally_accumulator *into, const tally_accumulator *other);

/** @return the number of samples added or merged in; 0 for NULL. */
TALLY_API size_t tally_accumulator_count(const tally_accumulator *a);

/**
 * The moments as a summary: n, min, max, amean, hmean, gmean, stddev, hstddev, cv, hcv, sem and
 * the mean CI, with their `defined` flags as tally_summarize() sets them. The order statistics
 * (median, median CI, BAmean, outlier counts) are left 0: they need a
 * ::tally_partition_summary.
 * @param out receives the summary (its `size` set by the caller, see ::tally_summary); zeroed
 *   first.
 * @param a the accumulator.
 * @param opts options (only `confidence` is used here), or NULL for the defaults.
 * @return ::TALLY_OK, ::TALLY_ENODATA (no samples), ::TALLY_EINVAL.
 */
TALLY_API int tally_accumulator_moments(tally_summary *out, const tally_accumulator *a,
                                        const tally_summary_options *opts);

/* Experimental API (docs/releasing.md, "API tiers"): the byte strings of accumulators and of the
 * partition protocol (their wire format) may change in any release, without a SONAME bump.
 * Define TALLY_EXPERIMENTAL_API before including tally.h to use it. */
#ifdef TALLY_EXPERIMENTAL_API

/**
 * Serialise an accumulator: a fixed-size, versioned, little-endian byte string.
 * @param out receives the bytes; release them with tally_free().
 * @param len receives their count.
 * @param a the accumulator.
 * @return ::TALLY_OK, ::TALLY_ENOMEM, ::TALLY_EINVAL.
 */
TALLY_API int tally_accumulator_serialize(unsigned char **out, size_t *len,
                                          const tally_accumulator *a);

/**
 * Rebuild an accumulator from tally_accumulator_serialize()'s bytes (from any host).
 * @param out receives a new accumulator (NULL on failure); free it with tally_accumulator_free().
 * @param data the bytes.
 * @param len their count.
 * @return ::TALLY_OK, ::TALLY_EFORMAT (not an accumulator, another version, a wrong length or
 *   inconsistent contents), ::TALLY_ENOMEM, ::TALLY_EINVAL.
 */
TALLY_API int tally_accumulator_deserialize(tally_accumulator **out, const unsigned char *data,
                                            size_t len);

/** Options for tally_partition_summary_new(). Initialise with
 *  ::TALLY_PARTITION_OPTIONS_INIT. */
typedef struct tally_partition_options {
    unsigned int version;          /**< ::TALLY_PARTITION_OPTIONS_VERSION. */
    const tally_summary_options *summary; /**< As for tally_summarize() (read at their own
                                               version, and copied), or NULL for the
                                               defaults. */
    const double *percentiles;     /**< Extra percentiles in [0, 100] (as
                                        tally_summarize_with_percentiles()), or NULL. */
    size_t percentile_count;       /**< Number of entries of `percentiles`. */
    const double *bamean_percents; /**< Extra BAmean-N percentages in (0, 100], or NULL. */
    size_t bamean_count;           /**< Number of entries of `bamean_percents` (at most 4). */
} tally_partition_options;

#define TALLY_PARTITION_OPTIONS_VERSION 1
#define TALLY_PARTITION_OPTIONS_INIT \
    { TALLY_PARTITION_OPTIONS_VERSION, NULL, NULL, 0, NULL, 0 }

/**
 * Fill `opts` with the defaults of options version `version`, as ::TALLY_PARTITION_OPTIONS_INIT does for the
 * current one. Pass the ::TALLY_PARTITION_OPTIONS_VERSION your code was written against: a struct of that
 * version is a prefix of today's, and the library reads any version from 1 to the current one.
 * @param opts the struct to fill (only the bytes of that version are written).
 * @param version 1 to ::TALLY_PARTITION_OPTIONS_VERSION.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `opts` or an unknown version. Thread-safe.
 */
TALLY_API int tally_partition_options_init(tally_partition_options *opts, unsigned int version);

/** The client side of a summary of partitioned samples: what to ask the partitions next, and
 *  the summary once every answer is in. Not thread-safe. */
typedef struct tally_partition_summary tally_partition_summary;

/**
 * Start the summary of the samples that `all` (the merge of every partition's accumulator)
 * summarises.
 * @param out receives the summary state; free it with tally_partition_summary_free().
 * @param all the merged accumulator; copied, so it may be freed afterwards.
 * @param opts options, or NULL for the defaults.
 * @return ::TALLY_OK, ::TALLY_ENODATA (no samples), ::TALLY_EINVAL (bad options), ::TALLY_ENOMEM.
 */
TALLY_API int tally_partition_summary_new(tally_partition_summary **out,
                                          const tally_accumulator *all,
                                          const tally_partition_options *opts);

/** Free a summary state; NULL is accepted. */
TALLY_API void tally_partition_summary_free(tally_partition_summary *s);

/**
 * The next request to send to every partition, as bytes for tally_partition_scan().
 * @param out receives the request (release with tally_free()), or NULL when the summary is
 *   complete.
 * @param len receives its length (0 when complete).
 * @param s the summary state.
 * @return ::TALLY_OK, ::TALLY_ENOMEM, ::TALLY_EINVAL.
 */
TALLY_API int tally_partition_summary_request(unsigned char **out, size_t *len,
                                              const tally_partition_summary *s);

/**
 * A partition's answer to a request: what it needs from this partition's samples (bucket counts,
 * the samples of a few buckets, sums beyond cuts). Runs on the worker; reentrant and
 * thread-safe.
 * @param out receives the answer; release it with tally_free().
 * @param len receives its length.
 * @param request the request bytes.
 * @param request_len their length.
 * @param x this partition's samples of the summarised set; not modified; n = 0 is accepted.
 * @param n number of samples.
 * @return ::TALLY_OK, ::TALLY_EFORMAT (not a request), ::TALLY_ENOMEM, ::TALLY_EINVAL.
 */
TALLY_API int tally_partition_scan(unsigned char **out, size_t *len,
                                   const unsigned char *request, size_t request_len,
                                   const double *x, size_t n);

/**
 * Merge two answers to the same request (any order, any tree). Reentrant and thread-safe.
 * @param out receives the merged answer; release it with tally_free().
 * @param len receives its length.
 * @param a one answer.
 * @param a_len its length.
 * @param b another answer to the same request.
 * @param b_len its length.
 * @return ::TALLY_OK, ::TALLY_EFORMAT (not answers, or answers to different requests),
 *   ::TALLY_ENOMEM, ::TALLY_EINVAL.
 */
TALLY_API int tally_partition_merge(unsigned char **out, size_t *len, const unsigned char *a,
                                    size_t a_len, const unsigned char *b, size_t b_len);

/**
 * Feed the merged answer of every partition to the current request.
 * @param s the summary state.
 * @param answer the merged answer.
 * @param len its length.
 * @return ::TALLY_OK; ::TALLY_EFORMAT (not an answer to the current request);
 *   ::TALLY_EMISMATCH (the answers do not add up to the accumulator's samples: a partition
 *   changed or is missing); ::TALLY_ENOMEM; ::TALLY_EINVAL (the summary is already complete).
 */
TALLY_API int tally_partition_summary_feed(tally_partition_summary *s, const unsigned char *answer,
                                           size_t len);

/** @return 1 when no request is left, 0 otherwise (and for NULL). */
TALLY_API int tally_partition_summary_done(const tally_partition_summary *s);

/**
 * The completed summary: the one tally_summarize() gives on all the samples at once (order
 * statistics bit for bit, moments as documented).
 * @param out receives the summary (its `size` set by the caller, see ::tally_summary).
 * @param percentiles receives the options' percentiles (may be NULL when there are none).
 * @param bameans receives the options' extra BAmeans (may be NULL when there are none).
 * @param s the summary state.
 * @return ::TALLY_OK, ::TALLY_EINVAL (NULL, or the summary is not complete).
 */
TALLY_API int tally_partition_summary_result(tally_summary *out, double *percentiles,
                                             double *bameans, const tally_partition_summary *s);

#endif /* TALLY_EXPERIMENTAL_API */

#ifdef __cplusplus
}
#endif

#endif /* TALLY_ACCUM_H */
