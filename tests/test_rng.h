/*
 * The seeded random numbers of the simulation tests: splitmix64 (Steele, Lea & Flood 2014), its
 * top 53 bits as a uniform in (0, 1) that is never 0, and standard normals by Box-Muller (one
 * value per pair: simple, and fast enough here). A test defines TEST_RNG_SEED, its fixed seed,
 * before including this header, so each run draws the same numbers.
 */
#ifndef TALLY_TESTS_TEST_RNG_H
#define TALLY_TESTS_TEST_RNG_H

#include <math.h>
#include <stdint.h>

#ifndef TEST_RNG_SEED
#error "define TEST_RNG_SEED (the test's fixed seed) before including test_rng.h"
#endif

static uint64_t rng_state = TEST_RNG_SEED;

static double uniform01(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
    double u = uniform01(), v = uniform01();
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

#endif /* TALLY_TESTS_TEST_RNG_H */
