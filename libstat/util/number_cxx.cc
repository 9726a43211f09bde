// The two C++ header-only libraries behind number.h: fast_float (Eisel-Lemire parsing) and
// Dragonbox (shortest round-trip digits). Built with -fno-exceptions -fno-rtti and no use of the
// C++ library at run time, so libtally links and loads without libstdc++ (tests/check-no-cxx-runtime
// checks it); only these functions are visible to the C code.
#include <fast_float/fast_float.h>
#include <dragonbox/dragonbox.h>

extern "C" {
#include "util/number.h"
}

extern "C" double tally__number_from_chars(const char *s, size_t len)
{
    double v = 0.0;
    // The grammar was checked by the caller; from_chars then always consumes the whole text.
    fast_float::from_chars(s, s + len, v, fast_float::chars_format::general);
    return v;
}

extern "C" const char *tally__number_from_chars_prefix(double *out, const char *s, const char *end)
{
    double v = 0.0;
    auto r = fast_float::from_chars(s, end, v, fast_float::chars_format::general);
    if (r.ec != std::errc())
        return nullptr;
    *out = v;
    return r.ptr;
}

extern "C" int tally__number_from_decimal(double *out, uint64_t w, int exponent)
{
    // What from_chars does once it has the digits as w and the exponent, when they are exact
    // (19 digits at most) and Clinger's fast path does not apply; its result for the text.
    using binary = fast_float::binary_format<double>;
    fast_float::adjusted_mantissa am = fast_float::compute_float<binary>(exponent, w);
    if (am.power2 < 0)
        return 0; // from_chars would compare digits here (digit_comp)
    fast_float::to_float(false, am, *out);
    return 1;
}

extern "C" void tally__number_shortest(double x, unsigned long long *digits, int *exponent)
{
    auto d = jkj::dragonbox::to_decimal(x, jkj::dragonbox::policy::sign::ignore);
    *digits = d.significand;
    *exponent = d.exponent;
}
