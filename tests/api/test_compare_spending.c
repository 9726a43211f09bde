/*
 * The O'Brien-Fleming-type alpha-spending function of Lan & DeMets (1983) and the per-look
 * levels of adaptive runs (docs/statistics.md, "Adaptive runs"), against R 4 (r-base-core).
 * A(t) = 2 - 2 pnorm(z / sqrt(t)) is computed as the upper tail 2 pnorm(z / sqrt(t),
 * lower.tail = FALSE), the same number without the cancellation (at t = 0.1, 2 - 2 pnorm(...)
 * has only 7 correct digits in R too):
 *   Rscript -e 'a<-0.05; t<-c(0.1,0.2,0.25,0.5,0.75,0.9); options(digits=17);
 *               print(2*pnorm(qnorm(1-a/2)/sqrt(t), lower.tail=FALSE))'
 *   [1] 5.7203187904254934e-10 1.1726446842521239e-05 8.8575438321404358e-05
 *   [4] 5.5745966807844247e-03 2.3625121317601232e-02 3.8830043164523785e-02
 *   Rscript -e 'a<-0.05; t2<-c(5,10,15,20)/20; A<-2*pnorm(qnorm(1-a/2)/sqrt(t2),
 *               lower.tail=FALSE); A[4]<-a; options(digits=17); print(diff(c(0,A)))'
 *   [1] 8.8575438321404358e-05 5.4860212424630208e-03 1.8050524636816806e-02
 *   [4] 2.6374878682398770e-02
 *   Rscript -e 'a<-0.01; options(digits=17);
 *               print(2*pnorm(qnorm(1-a/2)/sqrt(0.5), lower.tail=FALSE))'
 *   [1] 0.00026971695663148467
 */
#include "check.h"
#include "tally.h"

static void test_spending(void)
{
    static const double t[] = { 0.1, 0.2, 0.25, 0.5, 0.75, 0.9 };
    static const double r[] = { 5.7203187904254934e-10, 1.1726446842521239e-05,
                                8.8575438321404358e-05, 5.5745966807844247e-03,
                                2.3625121317601232e-02, 3.8830043164523785e-02 };
    for (size_t i = 0; i < TALLY__COUNT(t); i++) {
        double a = -1;
        CHECK_INT(tally_alpha_spending(&a, t[i], 0.05), TALLY_OK);
        CHECK(fabs(a - r[i]) <= 1e-12 * r[i]);
    }
    double a = -1;
    CHECK_INT(tally_alpha_spending(&a, 0.5, 0.01), TALLY_OK);
    CHECK(fabs(a - 0.00026971695663148467) <= 1e-12 * 0.00026971695663148467);
    /* The ends exactly: nothing spent before the first run, all of alpha at the last. */
    CHECK_INT(tally_alpha_spending(&a, 0, 0.05), TALLY_OK);
    CHECK(a == 0);
    CHECK_INT(tally_alpha_spending(&a, 1, 0.05), TALLY_OK);
    CHECK(a == 0.05);
    CHECK_INT(tally_alpha_spending(&a, 1.5, 0.05), TALLY_EINVAL);
    CHECK_INT(tally_alpha_spending(&a, -0.1, 0.05), TALLY_EINVAL);
    CHECK_INT(tally_alpha_spending(&a, 0.5, 0), TALLY_EINVAL);
    CHECK_INT(tally_alpha_spending(&a, 0.5, 1), TALLY_EINVAL);
    CHECK_INT(tally_alpha_spending(NULL, 0.5, 0.05), TALLY_EINVAL);
}

static void test_levels(void)
{
    /* Looks after 5, 10, 15 and 20 of at most 20 runs. */
    static const double t[] = { 0.25, 0.5, 0.75, 1.0 };
    static const double r[] = { 8.8575438321404358e-05, 5.4860212424630208e-03,
                                1.8050524636816806e-02, 2.6374878682398770e-02 };
    double lv[4];
    CHECK_INT(tally_alpha_spending_levels(lv, t, 4, 0.05), TALLY_OK);
    double sum = 0;
    for (size_t i = 0; i < 4; i++) {
        CHECK(fabs(lv[i] - r[i]) <= 1e-12 * r[i]);
        sum += lv[i];
    }
    /* The levels add up to alpha (a telescoping sum ending at A(1) = alpha). */
    CHECK(fabs(sum - 0.05) <= 1e-15);
    /* One look: the whole alpha, a fixed-n test. */
    static const double one[] = { 1.0 };
    CHECK_INT(tally_alpha_spending_levels(lv, one, 1, 0.05), TALLY_OK);
    CHECK(lv[0] == 0.05);
    static const double bad_end[] = { 0.5, 0.9 };
    CHECK_INT(tally_alpha_spending_levels(lv, bad_end, 2, 0.05), TALLY_EINVAL);
    static const double not_increasing[] = { 0.5, 0.5, 1.0 };
    CHECK_INT(tally_alpha_spending_levels(lv, not_increasing, 3, 0.05), TALLY_EINVAL);
    CHECK_INT(tally_alpha_spending_levels(lv, t, 0, 0.05), TALLY_EINVAL);
}

int main(void)
{
    test_spending();
    test_levels();
    return check_summary();
}
