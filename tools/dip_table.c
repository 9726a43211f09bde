/* Generates the table of libstat/stats/dip_table.h: quantiles of sqrt(n) * D_n, Hartigan's dip
 * of n uniform samples, by simulation (xoshiro256** seeded by splitmix64 from a fixed seed).
 * Build and run from a configured build tree:
 *   cc -O2 -Ilibstat -Iinclude -Ibuild/include tools/dip_table.c build/libtally.a \
 *      -lgsl -lgslcblas -lcjson -lm -ldl -lpthread -o /tmp/dip_table && /tmp/dip_table
 * The uniform law is the least favourable unimodal distribution for the dip (Hartigan &
 * Hartigan 1985, theorem 5), so these quantiles give a conservative test for any unimodal law. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats/diag_internal.h"
#include "util/count.h"

static uint64_t s[4];
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t next(void)
{
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3], s[2] ^= t, s[3] = rotl(s[3], 45);
    return r;
}
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    static const size_t sizes[] = { 10, 11, 12, 13, 14, 15, 17, 20, 25, 30, 40, 50, 70, 100,
                                    150, 200, 300, 500, 1000, 2000 };
    static const double levels[] = { 0.5, 0.3, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001 };
    const size_t nlev = TALLY__COUNT(levels);
    uint64_t z = 20261201;
    for (int i = 0; i < 4; i++) {
        z += 0x9e3779b97f4a7c15u;
        uint64_t v = z;
        v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9u;
        v = (v ^ (v >> 27)) * 0x94d049bb133111ebu;
        s[i] = v ^ (v >> 31);
    }
    printf("/* sqrt(n) * D_n quantiles of uniform samples: rows n, columns P(D >= q) =");
    for (size_t l = 0; l < nlev; l++)
        printf(" %g", levels[l]);
    printf(" */\n");
    for (size_t k = 0; k < TALLY__COUNT(sizes); k++) {
        size_t n = sizes[k], reps = n <= 500 ? 200000 : n <= 1000 ? 60000 : 30000;
        double *x = malloc(n * sizeof *x), *d = malloc(reps * sizeof *d);
        for (size_t r = 0; r < reps; r++) {
            for (size_t i = 0; i < n; i++)
                x[i] = (double)(next() >> 11) * 0x1.0p-53;
            qsort(x, n, sizeof *x, cmp);
            tally__dip(&d[r], NULL, NULL, x, n);
            d[r] *= sqrt((double)n);
        }
        qsort(d, reps, sizeof *d, cmp);
        printf("    { %zu, {", n);
        for (size_t l = 0; l < nlev; l++)
            printf(" %.5f%s", d[(size_t)((1 - levels[l]) * (double)reps)], l + 1 < nlev ? "," : "");
        printf(" } }, /* %zu samples */\n", reps);
        fflush(stdout);
        free(x), free(d);
    }
    return 0;
}
