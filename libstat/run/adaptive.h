/* Adaptive runs (docs/statistics.md and docs/runners.md, "Adaptive runs"): the look schedule,
 * each look's nominal level from the alpha-spending function, and the stopping rule of one
 * point (one sweep value of one configuration, all of its metrics). Used by sweep.c; the
 * seeded simulation of tests/unit/test_runner_adaptive.c calls the same functions. */
#ifndef TALLY_RUN_ADAPTIVE_H
#define TALLY_RUN_ADAPTIVE_H

#include <stddef.h>

#include "tally.h"
#include "util/internal.h"

/* The rule. precision and margin_pct 0: that criterion is off. */
typedef struct tally__adaptive {
    double precision;   /* --until-precision: relative half-width wanted, a fraction */
    double margin_pct;  /* --against --mde: equivalence margin, percent (> 0 with a baseline) */
    double alpha;       /* overall level; the precision intervals are at 1 - alpha */
    unsigned int min_runs, step, max_runs; /* looks at min_runs, +step, ..., max_runs */
} tally__adaptive;

/* Why a point stopped (the journal and the case metadata name them, tally__stop_name). */
typedef enum tally__stop {
    TALLY__STOP_CONTINUE = 0,
    TALLY__STOP_PRECISION = 1,
    TALLY__STOP_SIGNIFICANT = 2,
    TALLY__STOP_EQUIVALENT = 3,
    TALLY__STOP_MAX_RUNS = 4
} tally__stop;

/* One metric of the point at a look: its counted samples so far, and with a baseline the
 * baseline's samples of the same (benchmark, case). */
typedef struct tally__adaptive_cell {
    const double *x;
    size_t n;
    const double *base; /* NULL without a baseline */
    size_t nb;
    tally_statistic statistic;
    tally_direction direction;
} tally__adaptive_cell;

/* "precision", "significant", "equivalent", "max-runs"; NULL for CONTINUE. */
const char *tally__stop_name(tally__stop s);
/* Number of looks. */
size_t tally__adaptive_looks(const tally__adaptive *a);
/* Counted runs at look k (1-based). */
unsigned int tally__adaptive_look_runs(const tally__adaptive *a, size_t k);
/* The look (1-based) taken after `runs` counted runs, or 0 when none is. */
size_t tally__adaptive_look_at(const tally__adaptive *a, unsigned int runs);
/* Nominal level of look k: the spending increment at information fraction runs / max_runs. */
int tally__adaptive_level(double *out, const tally__adaptive *a, size_t k);
/* Relative half-width (hi - lo) / (2 |statistic|) of the 1 - alpha interval of the statistic
 * (t interval of the mean; of the mean of 1/x inverted for HMean, of log x exponentiated for
 * GMean; order-statistic interval for the median; the mean's for the others). *defined = 0
 * when there is no interval yet (n < 2, a median with too few runs, non-positive samples).
 * `bounds` (may be NULL) receives the interval's low and high ends when defined. */
int tally__adaptive_precision(double *out, int *defined, double *bounds, const double *x,
                              size_t n, tally_statistic statistic, double confidence);
/* The decision at look k for a point's cells; `detail` (may be NULL) receives why, e.g.
 * "±1.73 % <= 2 %" or "p = 0.0012 < 0.0055 (look 3 of 10)". */
int tally__adaptive_decide(tally__stop *out, tally__buf *detail, const tally__adaptive *a,
                           size_t k, const tally__adaptive_cell *cells, size_t count);

#endif /* TALLY_RUN_ADAPTIVE_H */
