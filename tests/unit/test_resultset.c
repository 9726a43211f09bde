/* The data model (libstat/resultset.c): building, finding, duplicates, metadata, appending
 * samples, and merging lists all or nothing. Expected values are the inputs themselves. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "util/internal.h"
#include "tally.h"

static tally_resultset *new_set(const char *label)
{
    tally_resultset *rs = NULL;
    CHECK_INT(tally_resultset_new(&rs, label), TALLY_OK);
    return rs;
}

static void test_build_and_find(void)
{
    tally_results *r;
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    CHECK_INT(tally_results_count(r), 0);
    tally_resultset *tip = new_set("tip"), *eie = new_set("eie");
    CHECK_INT(tally_results_add(r, tip), TALLY_OK);
    CHECK_INT(tally_results_add(r, eie), TALLY_OK);
    CHECK_INT(tally_results_count(r), 2);
    CHECK(tally_results_at(r, 0) == tip && tally_results_at(r, 1) == eie);
    CHECK(tally_results_at(r, 2) == NULL);
    CHECK(tally_results_find(r, "eie") == eie);
    CHECK(tally_results_find(r, "EIE") == NULL);

    tally_benchmark *hb, *st;
    CHECK_INT(tally_resultset_benchmark_add(&hb, tip, "hackbench", "s", TALLY_LOWER_IS_BETTER),
              TALLY_OK);
    CHECK_INT(tally_resultset_benchmark_add(&st, tip, "stream", NULL, TALLY_HIGHER_IS_BETTER),
              TALLY_OK);
    CHECK_STR(tally_benchmark_unit(st), "");
    CHECK_INT(tally_benchmark_statistic(hb), TALLY_STAT_DEFAULT);
    CHECK_INT(tally_benchmark_set_statistic(hb, TALLY_STAT_MEDIAN), TALLY_OK);
    CHECK_INT(tally_benchmark_statistic(hb), TALLY_STAT_MEDIAN);
    CHECK_INT(tally_benchmark_set_statistic(hb, (tally_statistic)42), TALLY_EINVAL);
    CHECK(tally_resultset_benchmark_find(tip, "stream") == st);
    CHECK(tally_resultset_benchmark_at(tip, 2) == NULL);

    tally_case *c1, *c4;
    CHECK_INT(tally_benchmark_case_add(&c1, hb, "1"), TALLY_OK);
    CHECK_INT(tally_benchmark_case_add(&c4, hb, "4"), TALLY_OK);
    CHECK(tally_benchmark_case_find(hb, "4") == c4);
    CHECK(tally_benchmark_case_at(hb, 0) == c1);
    CHECK_INT(tally_benchmark_case_count(hb), 2);

    /* Samples keep run order across appends; growth past the first capacity keeps them. */
    double first[3] = { 3.0, 1.0, 2.0 };
    CHECK_INT(tally_case_append(c1, first, 3), TALLY_OK);
    for (int i = 0; i < 40; i++) {
        double v = 100.0 + i;
        CHECK_INT(tally_case_append(c1, &v, 1), TALLY_OK);
    }
    CHECK_INT(tally_case_sample_count(c1), 43);
    CHECK(tally_case_samples(c1)[0] == 3.0 && tally_case_samples(c1)[2] == 2.0);
    CHECK(tally_case_samples(c1)[42] == 139.0);
    CHECK_INT(tally_case_append(c1, NULL, 0), TALLY_OK);
    tally_results_free(r);
}

static void test_invalid_and_duplicates(void)
{
    tally_resultset *rs = NULL;
    CHECK_INT(tally_resultset_new(&rs, ""), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "result set name must not be empty");
    CHECK_INT(tally_resultset_new(&rs, NULL), TALLY_EINVAL);
    rs = new_set("a");
    tally_benchmark *b;
    CHECK_INT(tally_resultset_benchmark_add(&b, rs, "b", "s", TALLY_LOWER_IS_BETTER), TALLY_OK);
    CHECK_INT(tally_resultset_benchmark_add(NULL, rs, "b", "ms", TALLY_LOWER_IS_BETTER),
              TALLY_EEXISTS);
    CHECK_STR(tally_error_last()->message, "result set 'a' already has a benchmark 'b'");
    CHECK_INT(tally_resultset_benchmark_add(NULL, rs, "", "s", TALLY_LOWER_IS_BETTER), TALLY_EINVAL);
    CHECK_INT(tally_resultset_benchmark_add(NULL, rs, "x", "s", (tally_direction)7), TALLY_EINVAL);
    CHECK_INT(tally_benchmark_case_add(NULL, b, "c"), TALLY_OK);
    CHECK_INT(tally_benchmark_case_add(NULL, b, "c"), TALLY_EEXISTS);
    CHECK_STR(tally_error_last()->message, "benchmark 'b' already has a case 'c'");
    CHECK_INT(tally_benchmark_case_add(NULL, b, ""), TALLY_EINVAL);

    /* A non-finite sample rejects the whole append. */
    tally_case *c = tally_benchmark_case_find(b, "c");
    double x[3] = { 1.0, NAN, 2.0 };
    CHECK_INT(tally_case_append(c, x, 3), TALLY_ENONFINITE);
    CHECK_STR(tally_error_last()->message, "case 'c': sample 2 is not finite");
    CHECK_INT(tally_case_sample_count(c), 0);
    x[1] = INFINITY;
    CHECK_INT(tally_case_append(c, x, 3), TALLY_ENONFINITE);
    CHECK_INT(tally_case_sample_count(c), 0);

    tally_results *r;
    tally_results_new(&r);
    CHECK_INT(tally_results_add(r, rs), TALLY_OK);
    tally_resultset *again = new_set("a");
    CHECK_INT(tally_results_add(r, again), TALLY_EEXISTS);
    CHECK_STR(tally_error_last()->message, "duplicate result set label 'a'");
    CHECK_INT(tally_results_count(r), 1);
    tally_resultset_free(again); /* not taken by the list */
    tally_results_free(r);
}

static void test_metadata(void)
{
    tally_resultset *rs = new_set("tip");
    CHECK_INT(tally_resultset_meta_set(rs, "kernel", "6.8.0"), TALLY_OK);
    CHECK_INT(tally_resultset_meta_set(rs, "host", "marvin2"), TALLY_OK);
    CHECK_INT(tally_resultset_meta_set(rs, "kernel", "6.9.0"), TALLY_OK); /* replaces in place */
    CHECK_INT(tally_resultset_meta_count(rs), 2);
    const char *k, *v;
    CHECK_INT(tally_resultset_meta_at(&k, &v, rs, 0), TALLY_OK);
    CHECK_STR(k, "kernel");
    CHECK_STR(v, "6.9.0");
    CHECK_INT(tally_resultset_meta_at(&k, &v, rs, 2), TALLY_EINVAL);
    CHECK(tally_resultset_meta_get(rs, "cpu") == NULL);
    CHECK_INT(tally_resultset_meta_set(rs, "", "x"), TALLY_EINVAL);
    CHECK_INT(tally_resultset_meta_set(rs, "k", NULL), TALLY_EINVAL);
    CHECK_INT(tally_resultset_meta_set(rs, "empty", ""), TALLY_OK);
    CHECK_STR(tally_resultset_meta_get(rs, "empty"), "");

    tally_benchmark *b;
    tally_case *c;
    tally_resultset_benchmark_add(&b, rs, "b", "s", TALLY_LOWER_IS_BETTER);
    tally_benchmark_case_add(&c, b, "1");
    CHECK_INT(tally_case_meta_count(c), 0);
    CHECK_INT(tally_case_meta_set(c, "reported.mean", "0.5"), TALLY_OK);
    CHECK_INT(tally_case_meta_set(c, "failed_runs", "2"), TALLY_OK);
    CHECK_STR(tally_case_meta_get(c, "reported.mean"), "0.5");
    CHECK_INT(tally_case_meta_at(&k, &v, c, 1), TALLY_OK);
    CHECK_STR(k, "failed_runs");

    CHECK_INT(tally_resultset_set_label(rs, "renamed"), TALLY_OK);
    CHECK_STR(tally_resultset_label(rs), "renamed");
    CHECK_INT(tally_resultset_set_label(rs, ""), TALLY_EINVAL);
    CHECK_STR(tally_resultset_label(rs), "renamed");
    tally_resultset_free(rs);
}

/* The pairs of the set, in order, as "key=value;..." */
static void pairs_of(char *out, size_t cap, const tally_resultset *rs)
{
    out[0] = '\0';
    for (size_t i = 0; i < tally_resultset_meta_count(rs); i++) {
        const char *k, *v;
        tally_resultset_meta_at(&k, &v, rs, i);
        snprintf(out + strlen(out), cap - strlen(out), "%s=%s;", k, v);
    }
}

/* Metadata taken in one block (a store's series): the same pairs as one meta_set each, then
 * set, replaced and added to as any; blocks that are not key/value lists are refused whole. */
static void test_metadata_block(void)
{
    tally_resultset *rs = NULL;
    char got[256];
    CHECK_INT(tally_resultset_new(&rs, "base"), TALLY_OK);
    static const char block[] = "kernel\0" "6.8\0" "host\0" "\0" "cpu\0" "x86";
    CHECK_INT(tally__resultset_meta_adopt(rs, block, sizeof block), TALLY_OK);
    pairs_of(got, sizeof got, rs);
    CHECK_STR(got, "kernel=6.8;host=;cpu=x86;");
    /* Replacing a pair of the block, its value with itself, and growing past the block's items. */
    CHECK_INT(tally_resultset_meta_set(rs, "host", "marvin"), TALLY_OK);
    CHECK_INT(tally_resultset_meta_set(rs, "cpu", tally_resultset_meta_get(rs, "cpu")), TALLY_OK);
    for (int i = 0; i < 5; i++) {
        char key[8];
        snprintf(key, sizeof key, "k%d", i);
        CHECK_INT(tally_resultset_meta_set(rs, key, "v"), TALLY_OK);
    }
    pairs_of(got, sizeof got, rs);
    CHECK_STR(got, "kernel=6.8;host=marvin;cpu=x86;k0=v;k1=v;k2=v;k3=v;k4=v;");
    /* A second block onto a list that has pairs: one meta_set each (later values win). */
    static const char more[] = "kernel\0" "6.9\0" "new\0" "1";
    CHECK_INT(tally__resultset_meta_adopt(rs, more, sizeof more), TALLY_OK);
    CHECK_STR(tally_resultset_meta_get(rs, "kernel"), "6.9");
    CHECK_STR(tally_resultset_meta_get(rs, "new"), "1");
    CHECK_INT(tally_resultset_meta_count(rs), 9);
    tally_resultset_free(rs);

    /* A key twice in one block: the later value, in the first one's place. */
    CHECK_INT(tally_resultset_new(&rs, "twice"), TALLY_OK);
    static const char twice[] = "a\0" "1\0" "b\0" "2\0" "a\0" "3";
    CHECK_INT(tally__resultset_meta_adopt(rs, twice, sizeof twice), TALLY_OK);
    pairs_of(got, sizeof got, rs);
    CHECK_STR(got, "a=3;b=2;");
    CHECK_INT(tally__resultset_meta_adopt(rs, "", 0), TALLY_OK); /* no pairs */
    CHECK_INT(tally_resultset_meta_count(rs), 2);
    /* Not lists: a text without its NUL, a key without a value, an empty key; nothing set. */
    CHECK_INT(tally__resultset_meta_adopt(rs, "x\0y", 3), TALLY_EINVAL);
    CHECK_INT(tally__resultset_meta_adopt(rs, "x\0y\0z", 6), TALLY_EINVAL);
    CHECK_INT(tally__resultset_meta_adopt(rs, "\0y", 3), TALLY_EINVAL);
    CHECK_INT(tally__resultset_meta_adopt(rs, NULL, 2), TALLY_EINVAL);
    CHECK_INT(tally_resultset_meta_count(rs), 2);
    tally_resultset_free(rs);

    /* More keys than are compared pairwise (32): the general path, the same pairs. */
    CHECK_INT(tally_resultset_new(&rs, "many"), TALLY_OK);
    char big[40 * 8];
    size_t len = 0;
    for (int i = 0; i < 40; i++) {
        int n = snprintf(big + len, sizeof big - len, "k%02d", i);
        len += (size_t)n + 1; /* the key and its NUL */
        big[len++] = 'v';
        big[len++] = '\0';
    }
    CHECK_INT(tally__resultset_meta_adopt(rs, big, len), TALLY_OK);
    CHECK_INT(tally_resultset_meta_count(rs), 40);
    CHECK_STR(tally_resultset_meta_get(rs, "k39"), "v");
    tally_resultset_free(rs);
}

static void test_merge(void)
{
    tally_results *into, *from;
    tally_results_new(&into);
    tally_results_new(&from);
    tally_results_add(into, new_set("base"));
    tally_results_add(from, new_set("p1"));
    tally_results_add(from, new_set("p2"));
    CHECK_INT(tally_results_merge(into, from), TALLY_OK);
    CHECK_INT(tally_results_count(into), 3);
    CHECK_INT(tally_results_count(from), 0);
    CHECK_STR(tally_resultset_label(tally_results_at(into, 2)), "p2");

    /* One clash and nothing moves: not even the set before it. */
    tally_results_add(from, new_set("p3"));
    tally_results_add(from, new_set("p1"));
    CHECK_INT(tally_results_merge(into, from), TALLY_EEXISTS);
    CHECK_STR(tally_error_last()->message, "duplicate result set label 'p1'");
    CHECK_INT(tally_results_count(into), 3);
    CHECK_INT(tally_results_count(from), 2);
    CHECK(tally_results_find(into, "p3") == NULL);
    tally_results_free(from);

    /* Duplicates inside `from` are refused as well. */
    tally_results_new(&from);
    tally_results_add(from, new_set("q"));
    tally_resultset *dup = new_set("x");
    tally_results_add(from, dup);
    CHECK_INT(tally_resultset_set_label(dup, "q"), TALLY_OK); /* renamed after adding */
    CHECK_INT(tally_results_merge(into, from), TALLY_EEXISTS);
    CHECK_INT(tally_results_count(into), 3);
    tally_results_free(from);

    /* Merging an empty list changes nothing. */
    tally_results_new(&from);
    CHECK_INT(tally_results_merge(into, from), TALLY_OK);
    CHECK_INT(tally_results_count(into), 3);
    tally_results_free(from);
    tally_results_free(into);
    tally_results_free(NULL);
    tally_resultset_free(NULL);
}

/* Samples written in place: reserve, write into the spare room, commit; appends mix in. */
static void test_samples_in_place(void)
{
    tally_resultset *rs = new_set("tip");
    tally_benchmark *b;
    tally_case *c;
    CHECK_INT(tally_resultset_benchmark_add(&b, rs, "b", "s", TALLY_LOWER_IS_BETTER), TALLY_OK);
    CHECK_INT(tally_benchmark_case_add(&c, b, "c"), TALLY_OK);
    CHECK_INT(tally__case_reserve(c, 3), TALLY_OK);
    size_t room = 0;
    double *x = tally__case_spare(c, &room);
    CHECK(room >= 3);
    x[0] = 1.5;
    x[1] = 2.5;
    tally__case_commit(c, 2);
    CHECK_INT(tally_case_sample_count(c), 2);
    double more[2] = { 4, 8 };
    CHECK_INT(tally_case_append(c, more, 2), TALLY_OK);
    CHECK_INT(tally__case_reserve(c, 1000), TALLY_OK); /* regrows, keeping the 4 samples */
    x = tally__case_spare(c, &room);
    CHECK(room >= 1000);
    for (size_t i = 0; i < 1000; i++)
        x[i] = 1;
    tally__case_commit(c, 1000);
    /* 1.5 + 2.5 + 4 + 8 + 1000 * 1 = 1016 */
    const double *all = tally_case_samples(c);
    double sum = 0;
    for (size_t i = 0; i < tally_case_sample_count(c); i++)
        sum += all[i];
    CHECK_INT(tally_case_sample_count(c), 1004);
    CHECK(all[0] == 1.5 && all[3] == 8 && sum == 1016);
    /* A reservation that fits changes nothing; an impossible one fails cleanly. */
    x = tally__case_spare(c, &room);
    CHECK_INT(tally__case_reserve(c, room), TALLY_OK);
    CHECK(tally__case_spare(c, &room) == x);
    CHECK_INT(tally__case_reserve(c, (size_t)-1 / 2), TALLY_ENOMEM);
    CHECK_INT(tally_case_sample_count(c), 1004);
    tally_resultset_free(rs);
}

int main(void)
{
    test_samples_in_place();
    test_build_and_find();
    test_invalid_and_duplicates();
    test_metadata();
    test_metadata_block();
    test_merge();
    return check_summary();
}
