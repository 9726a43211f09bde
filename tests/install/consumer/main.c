/* Uses the installed headers and library: a summary of three samples. mean(1, 2, 6) = 3 by hand. */
#include <stdio.h>

#include <tally.h>

int main(void)
{
    const double x[] = { 1.0, 2.0, 6.0 };
    tally_summary s = { .size = sizeof s };
    if (tally_summarize(&s, x, 3, NULL) != TALLY_OK) {
        fprintf(stderr, "tally_summarize: %s\n", tally_error_last());
        return 1;
    }
    printf("%s mean %.1f\n", tally_version(), s.amean);
    return s.amean == 3.0 ? 0 : 1;
}
