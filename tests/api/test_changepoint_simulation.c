/* The seeded simulations of docs/history.md ("Accuracy"): steps, spikes and stationary noise,
 * with the bounds the detector must meet. About 3 s; memcheck leaves it out (.ci/memcheck,
 * SKIP_SLOW): the same code paths as test_changepoint, repeated. */
#include <stdlib.h>

#include "check.h"
#include "tally.h"
#define TEST_RNG_SEED 0x30C4A17E5EEDull
#include "test_rng.h"

/* ---- the seeded simulations (docs/history.md, "Accuracy") ---- */

typedef struct sim_totals {
    size_t series, points, steps, found, false_cps, spikes, spike_cps;
} sim_totals;

/* One series of n points of `runs` runs each, noise CV 1 %, 0-3 steps of 3-10 % (either sign)
 * at least 15 points apart and 10 from the ends, 0-3 single-point spikes of +30-50 % (every
 * run of the point), unless `stationary`. */
static void simulate(sim_totals *t, size_t n, size_t runs, int stationary)
{
    double *v = malloc(n * runs * sizeof *v);
    size_t *off = malloc((n + 1) * sizeof *off);
    size_t steps[3], spikes[3], nsteps = 0, nspikes = 0;
    if (!stationary) {
        size_t want = (size_t)(uniform01() * 4);
        for (int tries = 0; nsteps < want && tries < 100; tries++) {
            size_t at = 10 + (size_t)(uniform01() * (double)(n - 20));
            int ok = 1;
            for (size_t k = 0; k < nsteps; k++)
                ok &= (at > steps[k] ? at - steps[k] : steps[k] - at) >= 15;
            if (ok)
                steps[nsteps++] = at;
        }
        nspikes = (size_t)(uniform01() * 4);
        for (size_t k = 0; k < nspikes; k++)
            spikes[k] = 1 + (size_t)(uniform01() * (double)(n - 2));
    }
    double shift[3];
    for (size_t k = 0; k < nsteps; k++)
        shift[k] = (uniform01() < 0.5 ? -1 : 1) * (0.03 + 0.07 * uniform01());
    for (size_t i = 0; i < n; i++) {
        double level = 100;
        for (size_t k = 0; k < nsteps; k++)
            if (i >= steps[k])
                level *= 1 + shift[k];
        double spike = 1;
        for (size_t k = 0; k < nspikes; k++)
            if (spikes[k] == i)
                spike = 1.3 + 0.2 * uniform01();
        off[i] = i * runs;
        for (size_t r = 0; r < runs; r++)
            v[i * runs + r] = level * spike * (1 + 0.01 * gauss());
    }
    off[n] = n * runs;
    tally_changepoints *cp = NULL;
    if (tally_changepoints_detect(&cp, v, off, n, NULL) != TALLY_OK) {
        CHECK(0);
        free(v);
        free(off);
        return;
    }
    int matched[3] = { 0, 0, 0 };
    for (size_t i = 0; i < tally_changepoints_count(cp); i++) {
        tally_changepoint c = { .size = sizeof c };
        tally_changepoints_at(&c, cp, i);
        int hit = 0;
        for (size_t k = 0; k < nsteps && !hit; k++) {
            size_t d = c.index > steps[k] ? c.index - steps[k] : steps[k] - c.index;
            if (d <= 2 && !matched[k])
                hit = matched[k] = 1;
        }
        if (!hit) {
            t->false_cps++;
            for (size_t k = 0; k < nspikes; k++)
                if (c.index == spikes[k] || c.index == spikes[k] + 1)
                    t->spike_cps++;
        }
    }
    for (size_t k = 0; k < nsteps; k++)
        t->found += (size_t)matched[k];
    t->steps += nsteps;
    t->spikes += nspikes;
    t->series++;
    t->points += n;
    tally_changepoints_free(cp);
    free(v);
    free(off);
}

static void report(const char *what, const sim_totals *t)
{
    printf("%s: %zu series, %zu points: %zu of %zu steps found within 2 points (%.1f %%), "
           "%zu false change points (%.3f per series, %.2f per 2,000 points), %zu spikes, %zu "
           "reported as changes\n", what, t->series, t->points, t->found, t->steps,
           t->steps ? 100.0 * (double)t->found / (double)t->steps : 100.0, t->false_cps,
           (double)t->false_cps / (double)t->series,
           2000.0 * (double)t->false_cps / (double)t->points, t->spikes, t->spike_cps);
}

static void check_steps(const sim_totals *t)
{
    CHECK(t->found * 10 >= t->steps * 9);         /* at least 90 % of the steps */
    CHECK(t->false_cps * 2 <= t->series);         /* at most 0.5 false per series */
    CHECK_INT(t->spike_cps, 0);                   /* no spike a change */
}

static void test_simulation(void)
{
    sim_totals one = { 0 }, five = { 0 }, flat = { 0 };
    for (int s = 0; s < 300; s++)
        simulate(&one, 300, 1, 0);
    report("steps and spikes, 1 value per point", &one);
    check_steps(&one);
    for (int s = 0; s < 300; s++)
        simulate(&five, 300, 5, 0);
    report("steps and spikes, 5 runs per point", &five);
    check_steps(&five);
    for (int s = 0; s < 100; s++)
        simulate(&flat, 2000, 1, 1);
    for (int s = 0; s < 100; s++)
        simulate(&flat, 2000, 5, 1);
    report("stationary noise", &flat);
    CHECK(flat.false_cps * 2000 <= flat.points); /* at most 1 per 2,000 points */
}

int main(void)
{
    test_simulation();
    return check_summary();
}
