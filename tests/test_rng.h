/*
 * Reproducible random numbers for the tests' seeded simulations and generated data: SplitMix64
 * (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014), its
 * top 53 bits as uniforms, and standard normals by Box-Muller (one value per pair: simple, and
 * fast enough here). The caller holds the state, so that a fixed seed gives the same numbers
 * on every run and machine. A test that draws one sequence defines TEST_RNG_SEED, its fixed
 * seed, before including this header and calls uniform01() and gauss(). Header-only, like
 * check.h.
 */
#ifndef TALLY_TESTS_TEST_RNG_H
#define TALLY_TESTS_TEST_RNG_H

#include <math.h>
#include <stdint.h>

/* The next 64 bits of the sequence of *state. */
static inline uint64_t rng_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform on [0, 1): the top 53 bits. */
static inline double rng_uniform(uint64_t *state)
{
    return (double)(rng_splitmix64(state) >> 11) * 0x1.0p-53;
}

/* Uniform on (0, 1): the top 53 bits, each value in the middle of its step, never 0 (so that
 * log() of it is finite). */
static inline double rng_uniform_open(uint64_t *state)
{
    return ((double)(rng_splitmix64(state) >> 11) + 0.5) * 0x1.0p-53;
}

/* Standard normal by Box-Muller, one value from each pair of uniforms (u first, then v). */
static inline double rng_gauss(uint64_t *state)
{
    double u = rng_uniform_open(state), v = rng_uniform_open(state);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

#ifdef TEST_RNG_SEED
/* The test's one sequence. */
static uint64_t rng_state = TEST_RNG_SEED;

static inline double uniform01(void)
{
    return rng_uniform_open(&rng_state);
}

static inline double gauss(void)
{
    return rng_gauss(&rng_state);
}
#endif

#endif /* TALLY_TESTS_TEST_RNG_H */
