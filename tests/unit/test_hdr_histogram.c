/* HdrHistogram's bucket geometry and the latency recorder (stats/hdr_histogram.c). Expected
 * values: HdrHistogram's own tests for 3 significant digits (HistogramTest.java,
 * testSizeOfEquivalentValueRange, testLowestEquivalentValue, testHighestEquivalentValue), and
 * hand calculations from AbstractHistogram's definitions written out next to each. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "stats/hdr_histogram.h"
#include "util/internal.h"

static tally__hdr_geometry three_digits(void)
{
    tally__hdr_geometry g;
    CHECK(tally__hdr_geometry_init(&g, 3, 1) == NULL);
    return g;
}

static uint64_t lowest_of(const tally__hdr_geometry *g, uint64_t v)
{
    uint64_t low = 0, width = 0;
    CHECK(tally__hdr_index_range(&low, &width, g, tally__hdr_index_of(g, v)));
    return low;
}

static uint64_t width_of(const tally__hdr_geometry *g, uint64_t v)
{
    uint64_t low = 0, width = 0;
    CHECK(tally__hdr_index_range(&low, &width, g, tally__hdr_index_of(g, v)));
    return width;
}

static uint64_t highest_of(const tally__hdr_geometry *g, uint64_t v)
{
    return lowest_of(g, v) + width_of(g, v) - 1;
}

static void test_geometry(void)
{
    tally__hdr_geometry g = three_digits();
    /* 2 x 10^3 = 2000 sub-buckets round up to 2^11: half count 2^10, unit magnitude 0. */
    CHECK_INT(g.half_magnitude, 10);
    CHECK_INT(g.half_count, 1024);
    CHECK_INT(g.unit_magnitude, 0);
    /* HdrHistogram's testSizeOfEquivalentValueRange. */
    CHECK_INT(width_of(&g, 1), 1);
    CHECK_INT(width_of(&g, 2500), 2);
    CHECK_INT(width_of(&g, 8191), 4);
    CHECK_INT(width_of(&g, 8192), 8);
    CHECK_INT(width_of(&g, 10000), 8);
    /* testLowestEquivalentValue. */
    CHECK_INT(lowest_of(&g, 10007), 10000);
    CHECK_INT(lowest_of(&g, 10009), 10008);
    /* testHighestEquivalentValue. */
    CHECK_INT(highest_of(&g, 8180), 8183);
    CHECK_INT(highest_of(&g, 8191), 8191);
    CHECK_INT(highest_of(&g, 8193), 8199);
    CHECK_INT(highest_of(&g, 9995), 9999);
    CHECK_INT(highest_of(&g, 10007), 10007);
    CHECK_INT(highest_of(&g, 10008), 10015);
    /* Indexes by hand (countsArrayIndex = ((bucket + 1) << 10) + sub - 1024, bucket =
     * 53 - clz(v | 2047), sub = v >> bucket): 0 and 2047 are bucket 0, index = v; 2048 is
     * bucket 1, sub 1024, index 2048; 2049 the same; 2050 index 2049; 10000 is bucket 3
     * (2^13 <= 10000 < 2^14), sub 1250, index 4096 + 226 = 4322; 10^6 is bucket 9, sub
     * floor(10^6 / 512) = 1953, index 10240 + 929 = 11169, its range 999936 to 1000447. */
    CHECK_INT(tally__hdr_index_of(&g, 0), 0);
    CHECK_INT(tally__hdr_index_of(&g, 2047), 2047);
    CHECK_INT(tally__hdr_index_of(&g, 2048), 2048);
    CHECK_INT(tally__hdr_index_of(&g, 2049), 2048);
    CHECK_INT(tally__hdr_index_of(&g, 2050), 2049);
    CHECK_INT(tally__hdr_index_of(&g, 10000), 4322);
    CHECK_INT(tally__hdr_index_of(&g, 1000000), 11169);
    CHECK_INT(lowest_of(&g, 1000000), 999936);
    CHECK_INT(highest_of(&g, 1000000), 1000447);
    /* Every value lies in its own bucket, and the buckets tile the line: from 0 to 2^20 each
     * index's range starts one past the previous one's end. */
    uint64_t next = 0;
    for (uint64_t i = 0; i < tally__hdr_index_of(&g, UINT64_C(1) << 20); i++) {
        uint64_t low, width;
        CHECK(tally__hdr_index_range(&low, &width, &g, i));
        if (low != next) {
            CHECK_INT(low, next);
            break;
        }
        next = low + width;
    }
    /* The largest value a recorder takes, 2^62 - 1: bucket 51, a range within 2^63. */
    uint64_t top = TALLY__HDR_RECORD_MAX - 1;
    CHECK(highest_of(&g, top) >= top);
    CHECK_INT(tally__hdr_index_of(&g, top) >> g.half_magnitude, 52);
    /* The decoder's refusals. */
    CHECK_STR(tally__hdr_geometry_init(&g, 6, 1), "significant digits above 5");
    CHECK_STR(tally__hdr_geometry_init(&g, 3, 0), "lowest discernible value outside 1 to 2^62");
    /* 2 digits: 200 rounds up to 256 sub-buckets, half 128: 1000 lies in bucket 2 (512 to
     * 1023, step 4): 1000 to 1003. */
    CHECK(tally__hdr_geometry_init(&g, 2, 1) == NULL);
    CHECK_INT(g.half_count, 128);
    CHECK_INT(lowest_of(&g, 1001), 1000);
    CHECK_INT(highest_of(&g, 1001), 1003);
}

/* Values recorded in three recorders and merged: every count kept, each in its bucket. */
static void test_recorder(void)
{
    tally__hdr_recorder r[3], all;
    for (int i = 0; i < 3; i++)
        CHECK_INT(tally__hdr_recorder_init(&r[i], 3), TALLY_OK);
    CHECK_INT(tally__hdr_recorder_init(&all, 3), TALLY_OK);
    /* 10007 and 10000 share bucket [10000, 10007]; 10008 is the next; 1 and 0 exact. */
    tally__hdr_record(&r[0], 10007);
    tally__hdr_record(&r[0], 10000);
    tally__hdr_record(&r[1], 10008);
    tally__hdr_record(&r[1], 1);
    tally__hdr_record(&r[2], 0);
    tally__hdr_record(&r[2], 10003);
    tally__hdr_record(&r[2], TALLY__HDR_RECORD_MAX); /* too large: lost, not counted */
    uint64_t n = 0, lost = 0;
    for (int i = 0; i < 3; i++) {
        n += r[i].total;
        lost += r[i].lost;
        CHECK_INT(tally__hdr_recorder_merge(&all, &r[i]), TALLY_OK);
    }
    CHECK_INT(n, 6);
    CHECK_INT(all.total, 6);
    CHECK_INT(lost, 1);
    CHECK_INT(all.lost, 1);
    double *v = NULL, res = -1;
    uint64_t *k = NULL;
    size_t len = 0;
    CHECK_INT(tally__hdr_recorder_export(&v, &k, &len, &res, &all, 1000), TALLY_OK);
    /* Buckets: 0 (x1), 1 (x1), [10000, 10007] (x3), [10008, 10015] (x1), in usec: highest
     * equivalent value / 1000; the widest non-empty bucket is 8 ns = 0.008 usec. */
    CHECK_INT(len, 4);
    if (len == 4) {
        const double want_v[] = { 0, 0.001, 10.007, 10.015 };
        const uint64_t want_k[] = { 1, 1, 3, 1 };
        for (size_t i = 0; i < 4; i++) {
            CHECK(v[i] == want_v[i]);
            CHECK_INT(k[i], want_k[i]);
        }
    }
    CHECK(res == 0.008);
    tally__free_mem(v);
    tally__free_mem(k);
    /* Different digits do not merge. */
    tally__hdr_recorder two;
    CHECK_INT(tally__hdr_recorder_init(&two, 2), TALLY_OK);
    CHECK_INT(tally__hdr_recorder_merge(&all, &two), TALLY_EINVAL);
    CHECK_INT(tally__hdr_recorder_init(&two, 6), TALLY_EINVAL);
    CHECK_INT(tally__hdr_recorder_init(&two, 0), TALLY_EINVAL);
    /* An empty recorder exports nothing. */
    CHECK_INT(tally__hdr_recorder_init(&two, 3), TALLY_OK);
    CHECK_INT(tally__hdr_recorder_export(&v, &k, &len, &res, &two, 1), TALLY_OK);
    CHECK(len == 0 && v == NULL && k == NULL && res == 0);
    for (int i = 0; i < 3; i++)
        tally__hdr_recorder_free(&r[i]);
    tally__hdr_recorder_free(&all);
    tally__hdr_recorder_free(&two);
}

/* Many values: the count is conserved, and each exported value is within one bucket width
 * (1 part in 1024 at 3 digits) above every value recorded into it. */
static void test_many(void)
{
    tally__hdr_recorder r;
    CHECK_INT(tally__hdr_recorder_init(&r, 3), TALLY_OK);
    uint64_t x = 1;
    for (int i = 0; i < 1000000; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u; /* Knuth's MMIX LCG */
        tally__hdr_record(&r, (x >> 24) % 100000000u);
    }
    CHECK_INT(r.total, 1000000);
    CHECK_INT(r.lost, 0);
    double *v = NULL, res;
    uint64_t *k = NULL, sum = 0;
    size_t len = 0;
    CHECK_INT(tally__hdr_recorder_export(&v, &k, &len, &res, &r, 1), TALLY_OK);
    for (size_t i = 0; i < len; i++)
        sum += k[i];
    CHECK_INT(sum, 1000000);
    /* Values below 10^8 < 2^27: the widest bucket is 2^(27 - 11) = 65536. */
    CHECK(res == 65536);
    for (size_t i = 1; i < len; i++)
        CHECK(v[i] > v[i - 1]);
    tally__free_mem(v);
    tally__free_mem(k);
    tally__hdr_recorder_free(&r);
}

int main(void)
{
    test_geometry();
    test_recorder();
    test_many();
    return check_summary();
}
