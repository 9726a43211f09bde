#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>
static unsigned long fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
TEST_CASE("Fibonacci") {
    BENCHMARK("fib 10") { return fib(10); };
    BENCHMARK("fib <15> & \"q\"") { return fib(15); };
}
