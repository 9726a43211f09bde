/**
 * @file util/testing.h
 * @brief Test hooks, present only in libraries built with -DTALLY_FAULT_INJECTION=ON.
 *
 * These functions exist so that the test suite can prove that every public function returns
 * ::TALLY_ENOMEM and leaks nothing when an allocation fails. Production builds do not export them.
 */
#ifndef TALLY_TESTING_H
#define TALLY_TESTING_H

#include "tally/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef TALLY_FAULT_INJECTION
/**
 * Make the calling thread's n-th allocation inside tally (counting from this call) fail.
 * @param n 1 for the next allocation; 0 or negative turns injection off. Thread-local.
 */
TALLY_API void tally_testing_fail_allocation(long n);

/** @return the number of allocations the calling thread made since the last
 *  tally_testing_fail_allocation() call. Thread-local. */
TALLY_API unsigned long tally_testing_allocation_count(void);
#endif

#ifdef __cplusplus
}
#endif

#endif /* TALLY_TESTING_H */
