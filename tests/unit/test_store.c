/* The results store (libstat/store/) against the back end that TALLY_STORE_URL names (an empty
 * store: tests/store_db.sh makes one per run, an SQLite file or a new PostgreSQL database), or
 * against a new SQLite file when it is unset. The same checks run on both back ends. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "store/store_internal.h"
#include "util/sha256.h"

static char url[4096];

/* FIPS 180-2, appendix B.1-B.3 (the digests printed there), and the empty message
 * (python3 -c 'import hashlib; print(hashlib.sha256(b"").hexdigest())'). */
static void test_sha256(void)
{
    char hex[65];
    tally__sha256_hex(hex, "abc", 3);
    CHECK(strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") == 0);
    tally__sha256_hex(hex, "", 0);
    CHECK(strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") == 0);
    const char *b2 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    tally__sha256_hex(hex, b2, strlen(b2));
    CHECK(strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1") == 0);
    /* One million 'a', fed in pieces of 1000 (crossing block boundaries). */
    tally__sha256 c;
    unsigned char d[32], a[1000];
    memset(a, 'a', sizeof a);
    tally__sha256_init(&c);
    for (int i = 0; i < 1000; i++)
        tally__sha256_update(&c, a, sizeof a);
    tally__sha256_final(&c, d);
    static const unsigned char want[32] = {
        0xcd, 0xc7, 0x6e, 0x5c, 0x99, 0x14, 0xfb, 0x92, 0x81, 0xa1, 0xc7, 0xe2, 0x84, 0xd7, 0x3e, 0x67,
        0xf1, 0x80, 0x9a, 0x48, 0xa4, 0x97, 0x20, 0x0e, 0x04, 0x6d, 0x39, 0xcc, 0xc7, 0x11, 0x2c, 0xd0};
    CHECK(memcmp(d, want, 32) == 0);
}

static void test_scrub(void)
{
    char buf[256];
    tally__store_scrub_url(buf, sizeof buf, "postgresql://ci:s3cret@db.example/results");
    CHECK(strcmp(buf, "postgresql://ci:***@db.example/results") == 0);
    tally__store_scrub_url(buf, sizeof buf, "postgres://db/results?user=ci&password=s3cret&x=1");
    CHECK(strcmp(buf, "postgres://db/results?user=ci&password=***&x=1") == 0);
    tally__store_scrub_url(buf, sizeof buf, "/tmp/a:b@c.db");
    CHECK(strcmp(buf, "/tmp/a:b@c.db") == 0);
}

/* One result set: benchmark "lat" (usec, lower), cases "p50" and "p99" whose samples start at
 * `base`; "thr" (MB/s, higher, HMean) with one case. */
static tally_resultset *make_set(const char *label, const char *commit, const char *branch,
                                 const char *machine, const char *time, double base)
{
    tally_resultset *rs = NULL;
    tally_benchmark *b;
    tally_case *c;
    CHECK_INT(tally_resultset_new(&rs, label), TALLY_OK);
    if (commit)
        tally_resultset_meta_set(rs, "commit", commit);
    if (branch)
        tally_resultset_meta_set(rs, "branch", branch);
    if (machine)
        tally_resultset_meta_set(rs, "machine", machine);
    if (time)
        tally_resultset_meta_set(rs, "time", time);
    tally_resultset_meta_set(rs, "source_file", label);
    tally_resultset_benchmark_add(&b, rs, "lat", "usec", TALLY_LOWER_IS_BETTER);
    double x[] = {base, base + 0.5, base + 0.25, 1e-300, 0.1};
    tally_benchmark_case_add(&c, b, "p50");
    tally_case_append(c, x, 5);
    tally_case_meta_set(c, "param.workers", "4");
    tally_benchmark_case_add(&c, b, "p99");
    tally_case_append(c, x, 3);
    tally_resultset_benchmark_add(&b, rs, "thr", "MB/s", TALLY_HIGHER_IS_BETTER);
    tally_benchmark_set_statistic(b, TALLY_STAT_HMEAN);
    tally_benchmark_case_add(&c, b, "Triad");
    tally_case_append(c, x, 2);
    return rs;
}

static size_t record(tally_store *s, tally_resultset *rs)
{
    tally_results *r = NULL;
    tally_results_new(&r);
    tally_results_add(r, rs);
    size_t added = 99;
    CHECK_INT(tally_store_record(&added, s, r), TALLY_OK);
    tally_results_free(r);
    return added;
}

static tally_results *select_q(tally_store *s, const tally_store_query *q)
{
    tally_results *r = NULL;
    tally_results_new(&r);
    int rc = tally_store_select(r, s, q);
    if (rc != TALLY_OK)
        fprintf(stderr, "  select: %s\n", tally_error_last()->message);
    CHECK_INT(rc, TALLY_OK);
    return r;
}

static size_t count_q(tally_store *s, const tally_store_query *q)
{
    tally_results *r = select_q(s, q);
    size_t n = tally_results_count(r);
    tally_results_free(r);
    return n;
}

static int one(void *ctx, const tally__db_value *cols, size_t n)
{
    (void)cols;
    (void)n;
    *(int *)ctx = 1;
    return 0;
}

static int has_index(tally_store *s, const char *name)
{
    /* The catalogues differ: sqlite_master, pg_indexes. */
    int found = 0;
    tally__db_value p = tally__db_text(name);
    const char *sql = s->ops == &tally__db_sqlite
                          ? "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?"
                          : "SELECT 1 FROM pg_indexes WHERE indexname = ?";
    CHECK_INT(s->ops->query(s->db, sql, &p, 1, one, &found), TALLY_OK);
    return found;
}

/* The metadata of the set of this label, in order, as "key=value;..." (store.* keys left out:
 * their values differ from run to run). */
static void meta_of(char *out, size_t cap, tally_store *s, const char *label)
{
    tally_store_query q = TALLY_STORE_QUERY_INIT;
    q.label = label;
    tally_results *r = select_q(s, &q);
    out[0] = '\0';
    const tally_resultset *rs = tally_results_count(r) == 1 ? tally_results_at(r, 0) : NULL;
    for (size_t i = 0; rs && i < tally_resultset_meta_count(rs); i++) {
        const char *key, *value;
        tally_resultset_meta_at(&key, &value, rs, i);
        if (strncmp(key, "store.", 6) != 0)
            snprintf(out + strlen(out), cap - strlen(out), "%s=%s;", key, value);
    }
    tally_results_free(r);
}

static int count_row(void *ctx, const tally__db_value *cols, size_t n)
{
    if (n == 1 && cols[0].type == TALLY__DB_INT)
        *(long long *)ctx = cols[0].i;
    return 0;
}

/* Version 1 first (the store is new), a set recorded in it; then version 2, another set
 * recorded; opening it again migrates it to the current version 3, keeping both sets with their
 * metadata in order (version 3 fills result_set.meta from set_meta) and adding the indexes of
 * versions 2 and 3. */
static void test_migration(void)
{
    tally_store *s = NULL;
    CHECK_INT(tally__store_open_at(&s, url, NULL, 1), TALLY_OK);
    if (s == NULL) {
        fprintf(stderr, "  %s\n", tally_error_last()->message);
        return;
    }
    CHECK_INT(tally_store_schema_version(s), 1);
    CHECK(!has_index(s, "result_set_latest"));
    CHECK_INT(record(s, make_set("v1", "0000aaaa", "main", "m1", "2026-01-01T00:00:00Z", 1.0)),
              1);
    /* Selecting needs the current version: only these tests open an older one. */
    tally_results *none = NULL;
    tally_store_query all = TALLY_STORE_QUERY_INIT;
    tally_results_new(&none);
    CHECK_INT(tally_store_select(none, s, &all), TALLY_EINVAL);
    tally_results_free(none);
    tally_store_close(s);
    CHECK_INT(tally__store_open_at(&s, url, NULL, 2), TALLY_OK);
    if (s == NULL)
        return;
    CHECK_INT(tally_store_schema_version(s), 2);
    CHECK(has_index(s, "result_set_latest"));
    tally_resultset *v2 = make_set("v2", "0000bbbb", NULL, "m1", "2026-01-02T00:00:00Z", 2.0);
    tally_resultset_meta_set(v2, "kernel", "6.1 \"x\"; =y");
    CHECK_INT(record(s, v2), 1);
    tally_store_close(s);
    CHECK_INT(tally_store_open(&s, url, NULL), TALLY_OK);
    if (s == NULL)
        return;
    CHECK_INT(tally_store_schema_version(s), 3);
    CHECK_INT(tally_store_schema_current(), 3);
    CHECK(has_index(s, "result_set_latest"));
    CHECK(has_index(s, "benchmark_set"));
    CHECK(has_index(s, "benchmark_series"));
    long long filled = -1;
    CHECK_INT(s->ops->query(s->db, "SELECT COUNT(*) FROM result_set WHERE meta IS NOT NULL",
                            NULL, 0, count_row, &filled),
              TALLY_OK);
    CHECK_INT(filled, 2);
    /* make_set's keys in the order it set them (the store's own keys aside). */
    char meta[512];
    meta_of(meta, sizeof meta, s, "v1");
    CHECK_STR(meta, "commit=0000aaaa;branch=main;machine=m1;time=2026-01-01T00:00:00Z;"
                    "source_file=v1;");
    meta_of(meta, sizeof meta, s, "v2");
    CHECK_STR(meta, "commit=0000bbbb;machine=m1;time=2026-01-02T00:00:00Z;source_file=v2;"
                    "kernel=6.1 \"x\"; =y;");
    tally_store_close(s);
}

static const double want_x[] = {2.0, 2.5, 2.25, 1e-300, 0.1};

static void test_round_trip(tally_store *s)
{
    CHECK_INT(record(s, make_set("base", "1111aaaa", "main", "m1", "2026-01-02T00:00:00Z", 2.0)),
              1);
    /* The same content again, from another file: a duplicate. */
    tally_resultset *again = make_set("base", "1111aaaa", "main", "m1", "2026-01-02T00:00:00Z", 2.0);
    tally_resultset_meta_set(again, "source_file", "elsewhere.json");
    CHECK_INT(record(s, again), 0);
    tally_store_query q = TALLY_STORE_QUERY_INIT;
    q.label = "base";
    tally_results *r = select_q(s, &q);
    CHECK_INT(tally_results_count(r), 1);
    tally_resultset *rs = tally_results_at(r, 0);
    if (rs == NULL)
        return;
    CHECK(strcmp(tally_resultset_label(rs), "base") == 0);
    CHECK(strcmp(tally_resultset_meta_get(rs, "commit"), "1111aaaa") == 0);
    CHECK(strcmp(tally_resultset_meta_get(rs, "store.time"), "2026-01-02T00:00:00Z") == 0);
    CHECK(tally_resultset_meta_get(rs, "store.id") != NULL);
    CHECK_INT(tally_resultset_benchmark_count(rs), 2);
    tally_benchmark *b = tally_resultset_benchmark_at(rs, 0);
    CHECK(strcmp(tally_benchmark_name(b), "lat") == 0 && strcmp(tally_benchmark_unit(b), "usec") == 0);
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_benchmark_statistic(b), TALLY_STAT_DEFAULT);
    tally_case *c = tally_benchmark_case_at(b, 0);
    CHECK(strcmp(tally_case_name(c), "p50") == 0);
    CHECK(strcmp(tally_case_meta_get(c, "param.workers"), "4") == 0);
    /* Bit for bit, in run order (the values given to make_set). */
    CHECK_INT(tally_case_sample_count(c), 5);
    CHECK(memcmp(tally_case_samples(c), want_x, sizeof want_x) == 0);
    CHECK_INT(tally_case_sample_count(tally_benchmark_case_at(b, 1)), 3);
    b = tally_resultset_benchmark_at(rs, 1);
    CHECK_INT(tally_benchmark_direction(b), TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally_benchmark_statistic(b), TALLY_STAT_HMEAN);
    /* The selection recorded again is the same content. */
    size_t added = 9;
    CHECK_INT(tally_store_record(&added, s, r), TALLY_OK);
    CHECK_INT(added, 0);
    tally_results_free(r);
}

/* The labels of sets that share one (docs/store.md "Selections"): LABEL@COMMIT (12 characters)
 * when that tells them apart, else LABEL#ID; a set of a label of its own keeps it. Expected
 * labels written by hand from that rule. */
static void test_shared_labels(tally_store *s)
{
    record(s, make_set("dup", "aaaabbbbcccc1111", "dups", "m1", "2026-03-01T00:00:00Z", 21.0));
    record(s, make_set("dup", "aaaabbbbcccc2222", "dups", "m1", "2026-03-02T00:00:00Z", 22.0));
    record(s, make_set("dup", "ddddeeeeffff0000", "dups", "m1", "2026-03-03T00:00:00Z", 23.0));
    record(s, make_set("dup", NULL, "dups", "m1", "2026-03-04T00:00:00Z", 24.0));
    record(s, make_set("solo", "9999", "dups", "m1", "2026-03-05T00:00:00Z", 25.0));
    tally_store_query q = TALLY_STORE_QUERY_INIT;
    q.branch = "dups";
    tally_results *r = select_q(s, &q);
    CHECK_INT(tally_results_count(r), 5);
    /* In time order; the first two share 12 characters of the commit, the fourth has none. */
    const char *want[] = {"dup#", "dup#", "dup@ddddeeeeffff", "dup#", "solo"};
    for (size_t i = 0; i < tally_results_count(r) && i < 5; i++) {
        tally_resultset *rs = tally_results_at(r, i);
        char expect[64];
        if (want[i][strlen(want[i]) - 1] == '#')
            snprintf(expect, sizeof expect, "%s%s", want[i],
                     tally_resultset_meta_get(rs, "store.id"));
        else
            snprintf(expect, sizeof expect, "%s", want[i]);
        CHECK(strcmp(tally_resultset_label(rs), expect) == 0);
    }
    tally_results_free(r);
    /* A commit is compared within its label: both "x" sets keep their commits although one of
     * them is also a commit of the "y" sets, which share it and so take their ids. */
    record(s, make_set("x", "c1c1c1c1c1c1", "dups2", "m1", "2026-03-06T00:00:00Z", 26.0));
    record(s, make_set("x", "c2c2c2c2c2c2", "dups2", "m1", "2026-03-07T00:00:00Z", 27.0));
    record(s, make_set("y", "c1c1c1c1c1c1", "dups2", "m1", "2026-03-08T00:00:00Z", 28.0));
    record(s, make_set("y", "c1c1c1c1c1c1ff", "dups2", "m1", "2026-03-09T00:00:00Z", 29.0));
    q.branch = "dups2";
    r = select_q(s, &q);
    CHECK_INT(tally_results_count(r), 4);
    const char *want2[] = {"x@c1c1c1c1c1c1", "x@c2c2c2c2c2c2", "y#", "y#"};
    for (size_t i = 0; i < tally_results_count(r) && i < 4; i++) {
        tally_resultset *rs = tally_results_at(r, i);
        char expect[64];
        snprintf(expect, sizeof expect, "%s%s", want2[i],
                 want2[i][1] == '#' ? tally_resultset_meta_get(rs, "store.id") : "");
        CHECK(strcmp(tally_resultset_label(rs), expect) == 0);
    }
    tally_results_free(r);
}

static void test_filters(tally_store *s)
{
    record(s, make_set("run", "2222bbbb", "main", "m1", "2026-01-03T00:00:00Z", 3.0));
    record(s, make_set("run", "3333cccc", "main", "m2", "2026-01-04T00:00:00Z", 4.0));
    record(s, make_set("run", "4444dddd", "feature", "m1", "2026-01-05T00:00:00Z", 5.0));
    record(s, make_set("run", "5555eeee", "main", "m1", "2026-01-06T00:00:00Z", 6.0));
    /* Stored now (v1 2026-01-01 main m1, v2 01-02 no branch m1, base 01-02 and the four above):
     * counted by hand. */
    tally_store_query q = TALLY_STORE_QUERY_INIT;
    CHECK_INT(count_q(s, &q), 7);
    q.branch = "main";
    CHECK_INT(count_q(s, &q), 5);
    q.machine = "m1";
    CHECK_INT(count_q(s, &q), 4);
    q.limit = 1; /* latest of main on m1: 5555eeee */
    tally_results *r = select_q(s, &q);
    CHECK_INT(tally_results_count(r), 1);
    if (tally_results_count(r) == 1)
        CHECK(strcmp(tally_resultset_meta_get(tally_results_at(r, 0), "commit"), "5555eeee") == 0);
    tally_results_free(r);
    q.limit = 2; /* the two newest, oldest first: 2222bbbb, 5555eeee */
    r = select_q(s, &q);
    CHECK_INT(tally_results_count(r), 2);
    if (tally_results_count(r) == 2) {
        CHECK(strcmp(tally_resultset_meta_get(tally_results_at(r, 0), "commit"), "2222bbbb") == 0);
        /* Two sets labelled "run": each gets its commit. */
        CHECK(strcmp(tally_resultset_label(tally_results_at(r, 0)), "run@2222bbbb") == 0);
        CHECK(strcmp(tally_resultset_label(tally_results_at(r, 1)), "run@5555eeee") == 0);
    }
    tally_results_free(r);
    tally_store_query q2 = TALLY_STORE_QUERY_INIT;
    q2.commit = "3333"; /* an abbreviated commit */
    CHECK_INT(count_q(s, &q2), 1);
    q2.commit = "333"; /* too short to abbreviate: exact match only */
    CHECK_INT(count_q(s, &q2), 0);
    q2.commit = "3333cccc";
    r = select_q(s, &q2);
    if (tally_results_count(r) == 1)
        CHECK(strcmp(tally_resultset_label(tally_results_at(r, 0)), "run") == 0);
    tally_results_free(r);
    tally_store_query t = TALLY_STORE_QUERY_INIT;
    t.since = "2026-01-03T00:00:00Z";
    t.until = "2026-01-05T00:00:00Z"; /* 01-03 and 01-04 */
    CHECK_INT(count_q(s, &t), 2);
    tally_store_query g = TALLY_STORE_QUERY_INIT;
    g.benchmark = "th?";
    g.commit = "2222bbbb";
    r = select_q(s, &g);
    CHECK_INT(tally_results_count(r), 1);
    if (tally_results_count(r) == 1) {
        tally_resultset *rs = tally_results_at(r, 0);
        CHECK_INT(tally_resultset_benchmark_count(rs), 1);
        CHECK(tally_resultset_benchmark_find(rs, "thr") != NULL);
    }
    tally_results_free(r);
    g.benchmark = "lat";
    g.case_name = "p9*";
    r = select_q(s, &g);
    if (tally_results_count(r) == 1) {
        tally_benchmark *b = tally_resultset_benchmark_at(tally_results_at(r, 0), 0);
        CHECK_INT(tally_benchmark_case_count(b), 1);
        CHECK(strcmp(tally_case_name(tally_benchmark_case_at(b, 0)), "p99") == 0);
    }
    tally_results_free(r);
    g.benchmark = "nothing*"; /* no set keeps a benchmark: none returned */
    CHECK_INT(count_q(s, &g), 0);
    /* The benchmarks of a selection: "lat" and "thr" (make_set), each once, sorted. */
    char *names = NULL;
    size_t len = 0;
    tally_store_query nb = TALLY_STORE_QUERY_INIT;
    nb.branch = "main";
    CHECK_INT(tally_store_benchmark_names(&names, &len, s, &nb), TALLY_OK);
    CHECK_INT(len, 8);
    CHECK(names && memcmp(names, "lat\0thr\0", 8) == 0);
    tally_free(names);
    nb.benchmark = "t*";
    CHECK_INT(tally_store_benchmark_names(&names, &len, s, &nb), TALLY_OK);
    CHECK(len == 4 && names && memcmp(names, "thr\0", 4) == 0);
    tally_free(names);
    nb.branch = "none";
    CHECK_INT(tally_store_benchmark_names(&names, &len, s, &nb), TALLY_OK);
    CHECK(names == NULL && len == 0);
    tally_store_query id = TALLY_STORE_QUERY_INIT;
    id.id = 1;
    CHECK_INT(count_q(s, &id), 1);
    /* A label already in the caller's list: the selected one is renamed. */
    tally_results *into = NULL;
    tally_results_new(&into);
    tally_resultset *mine;
    tally_resultset_new(&mine, "run");
    tally_results_add(into, mine);
    CHECK_INT(tally_store_select(into, s, &q2), TALLY_OK);
    CHECK_INT(tally_results_count(into), 2);
    if (tally_results_count(into) == 2)
        CHECK(strcmp(tally_resultset_label(tally_results_at(into, 1)), "run@3333cccc") == 0);
    tally_results_free(into);
}

/* A case without samples: refused before anything is written, the store unchanged. */
static void test_refused(tally_store *s)
{
    tally_store_query all = TALLY_STORE_QUERY_INIT;
    size_t before = count_q(s, &all);
    tally_results *r = NULL;
    tally_results_new(&r);
    tally_results_add(r, make_set("good", "6666", "main", "m1", NULL, 7.0));
    tally_resultset *bad = make_set("bad", "7777", "main", "m1", NULL, 8.0);
    tally_case *c;
    tally_benchmark_case_add(&c, tally_resultset_benchmark_at(bad, 0), "empty");
    tally_results_add(r, bad);
    size_t added = 9;
    CHECK_INT(tally_store_record(&added, s, r), TALLY_ENODATA);
    CHECK_INT(added, 0);
    CHECK_INT(count_q(s, &all), before);
    tally_results_free(r);
    CHECK_INT(tally_store_record(NULL, NULL, NULL), TALLY_EINVAL);
    CHECK_INT(tally_store_select(NULL, s, NULL), TALLY_EINVAL);
    tally_store_query v = TALLY_STORE_QUERY_INIT;
    v.version = 99;
    tally_results_new(&r);
    CHECK_INT(tally_store_select(r, s, &v), TALLY_EINVAL);
    tally_results_free(r);
}

/* The order of a selection whatever the order rows are stored in: the set query asks for none
 * and the sets are put in order after reading. A set recorded last with the earliest time comes
 * first (time order, docs/store.md); a set's metadata comes back in the order of its block
 * (result_set.meta), not sorted (c, b, a: the order written here). */
static void test_order(tally_store *s)
{
    record(s, make_set("early", "8888", "main", "m9", "2025-06-01T00:00:00Z", 1.0));
    tally_store_query q = TALLY_STORE_QUERY_INIT;
    q.machine = "m9";
    record(s, make_set("earlier", "9999", "main", "m9", "2025-05-01T00:00:00Z", 1.5));
    tally_results *r = select_q(s, &q);
    CHECK_INT(tally_results_count(r), 2);
    if (tally_results_count(r) == 2) {
        CHECK_STR(tally_resultset_label(tally_results_at(r, 0)), "earlier");
        CHECK_STR(tally_resultset_label(tally_results_at(r, 1)), "early");
    }
    const char *id = tally_results_count(r) == 2
                         ? tally_resultset_meta_get(tally_results_at(r, 1), "store.id")
                         : NULL;
    CHECK(id != NULL);
    static const char block[] = "c\0" "z\0" "b\0" "y\0" "a\0" "x";
    tally__db_value p[2] = {tally__db_blob(block, sizeof block),
                            tally__db_int(id ? atoll(id) : 0)};
    CHECK_INT(s->ops->exec(s->db, "UPDATE result_set SET meta = ? WHERE id = ?", p, 2), TALLY_OK);
    tally_results_free(r);
    r = select_q(s, &q);
    tally_resultset *rs = tally_results_count(r) == 2 ? tally_results_at(r, 1) : NULL;
    CHECK(rs != NULL);
    if (rs) {
        const char *key = NULL, *value = NULL;
        static const char *const want[] = {"c", "b", "a", "store.id"};
        for (size_t i = 0; i < 4; i++) {
            CHECK_INT(tally_resultset_meta_at(&key, &value, rs, i), TALLY_OK);
            CHECK_STR(key, want[i]);
        }
        CHECK_STR(tally_resultset_meta_get(rs, "a"), "x");
        CHECK_INT(tally_case_sample_count(tally_benchmark_case_at(
                      tally_resultset_benchmark_at(rs, 0), 0)), 5);
    }
    tally_results_free(r);
}

typedef struct plan {
    int series, cases, other;
} plan;

static int plan_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    plan *p = ctx;
    /* SQLite: id, parent, notused, detail. */
    const char *line = ncols == 4 && cols[3].type == TALLY__DB_TEXT ? cols[3].s : "";
    if (strcmp(line, "SEARCH b USING COVERING INDEX benchmark_series (name=?)") == 0)
        p->series++;
    else if (strcmp(line, "SEARCH c USING INDEX case_series (benchmark_id=? AND name=?)") == 0)
        p->cases++;
    else
        p->other++;
    return 0;
}

/* The series of one benchmark's case reads only its rows, through the two series indexes (the
 * benchmark's covering: no benchmark row is read), with no scan and no sort (SQLite's EXPLAIN QUERY PLAN text, the same lines bench_store prints on
 * a store of 10,000 sets, docs/store.md "Speed"; on this store of a few sets too, since without
 * ANALYZE the planner's choice does not depend on the table sizes). */
static void test_plan(tally_store *s)
{
    if (s->ops != &tally__db_sqlite)
        return; /* PostgreSQL's planner chooses by its statistics: docs/store.md shows both */
    tally_store_query q = TALLY_STORE_QUERY_INIT;
    q.benchmark = "lat";
    q.case_name = "p50";
    plan p = {0, 0, 0};
    CHECK_INT(tally__store_explain(s, &q, plan_row, &p), TALLY_OK);
    CHECK_INT(p.series, 1);
    CHECK_INT(p.cases, 1);
    CHECK_INT(p.other, 0);
    /* The bare series query is the one explained: its SQL names both indexed conditions. */
    char *sql = NULL;
    tally__db_value params[TALLY__STORE_MAX_PARAMS];
    size_t n = 0;
    CHECK_INT(tally__store_data_sql(&sql, params, &n, &q), TALLY_OK);
    CHECK(sql && strstr(sql, "b.name = ?") && strstr(sql, "c.name = ?"));
    CHECK_INT(n, 2);
    tally_free(sql);
}

/* A stored sample that is not finite (a store written by something else, or damaged) fails the
 * selection with an error naming the set, benchmark and case, as tally_case_append refuses it;
 * nothing is returned. The last case stored gets one NaN (IEEE 754 quiet NaN, packed as the
 * store packs samples). */
static void test_not_finite(tally_store *s)
{
    unsigned char blob[8];
    double nan = NAN;
    tally__store_pack(blob, &nan, 1);
    tally__db_value p = tally__db_blob(blob, sizeof blob);
    CHECK_INT(s->ops->exec(s->db, "UPDATE case_result SET n = 1, samples = ? "
                                  "WHERE id = (SELECT MAX(id) FROM case_result)", &p, 1),
              TALLY_OK);
    tally_store_query all = TALLY_STORE_QUERY_INIT;
    tally_results *r = NULL;
    tally_results_new(&r);
    CHECK_INT(tally_store_select(r, s, &all), TALLY_ENONFINITE);
    CHECK(strstr(tally_error_last()->message, "sample 1 is not finite") != NULL);
    CHECK_INT(tally_results_count(r), 0);
    tally_results_free(r);
}

/* A set's metadata block (result_set.meta) that another writer damaged: a key without its value
 * fails the selection naming the set, nothing returned; a key given twice keeps the later value,
 * as tally_resultset_meta_set would. The block is put back afterwards. */
static void test_bad_meta(tally_store *s)
{
    tally_resultset *rs = make_set("meta", "0000cccc", "main", "m1", "2026-02-01T00:00:00Z", 3.0);
    CHECK_INT(record(s, rs), 1);
    long long id = 0;
    tally__db_value label = tally__db_text("meta");
    CHECK_INT(s->ops->query(s->db, "SELECT id FROM result_set WHERE label = ?", &label, 1,
                            count_row, &id),
              TALLY_OK);
    tally_store_query q = TALLY_STORE_QUERY_INIT;
    q.id = id;
    static const char open_key[] = "commit\0" "0000cccc\0" "branch";
    static const char twice[] = "a\0" "1\0" "b\0" "2\0" "a\0" "3";
    tally__db_value p[] = {tally__db_blob(open_key, sizeof open_key), tally__db_int(id)};
    CHECK_INT(s->ops->exec(s->db, "UPDATE result_set SET meta = ? WHERE id = ?", p, 2), TALLY_OK);
    tally_results *r = NULL;
    tally_results_new(&r);
    CHECK_INT(tally_store_select(r, s, &q), TALLY_EFORMAT);
    char want[64];
    snprintf(want, sizeof want, "set %lld: its metadata", id);
    CHECK(strstr(tally_error_last()->message, want) != NULL);
    CHECK_INT(tally_results_count(r), 0);
    tally_results_free(r);
    p[0] = tally__db_blob(twice, sizeof twice);
    CHECK_INT(s->ops->exec(s->db, "UPDATE result_set SET meta = ? WHERE id = ?", p, 2), TALLY_OK);
    r = select_q(s, &q);
    const tally_resultset *got = tally_results_count(r) == 1 ? tally_results_at(r, 0) : NULL;
    CHECK(got != NULL);
    if (got) {
        CHECK_STR(tally_resultset_meta_get(got, "a"), "3");
        CHECK_STR(tally_resultset_meta_get(got, "b"), "2");
        CHECK_INT(tally_resultset_meta_count(got), 2 + 3); /* a, b, store.id/time/recorded */
    }
    tally_results_free(r);
    CHECK_INT(s->ops->exec(s->db, "UPDATE result_set SET meta = NULL WHERE id = ?", &p[1], 1),
              TALLY_OK);
}

/* A store of a newer schema is refused, naming both versions; restored afterwards. */
static void test_newer(void)
{
    tally_store *s = NULL;
    CHECK_INT(tally_store_open(&s, url, NULL), TALLY_OK);
    if (s == NULL)
        return;
    CHECK_INT(s->ops->exec(s->db, "UPDATE schema_version SET version = 99", NULL, 0), TALLY_OK);
    tally_store *t = NULL;
    CHECK_INT(tally_store_open(&t, url, NULL), TALLY_EFORMAT);
    CHECK(t == NULL);
    CHECK(strstr(tally_error_last()->message, "schema version 99") != NULL);
    char up_to[32];
    snprintf(up_to, sizeof up_to, "up to %d)", tally_store_schema_current());
    CHECK(strstr(tally_error_last()->message, up_to) != NULL);
    tally__db_value v = tally__db_int(tally_store_schema_current());
    CHECK_INT(s->ops->exec(s->db, "UPDATE schema_version SET version = ?", &v, 1), TALLY_OK);
    tally_store_close(s);
}

static void test_bad_locations(void)
{
    tally_store *s = (tally_store *)1;
    CHECK_INT(tally_store_open(&s, "/nonexistent-dir/x/store.db", NULL), TALLY_EIO);
    CHECK(s == NULL);
    tally_store_options o = TALLY_STORE_OPTIONS_INIT;
    o.create = 0;
    char path[512];
    snprintf(path, sizeof path, "%s/store-missing-%d.db", TALLY_TEST_TMP, (int)getpid());
    CHECK_INT(tally_store_open(&s, path, &o), TALLY_ENOTFOUND);
    /* Not an SQLite file. */
    snprintf(path, sizeof path, "%s/store-text-%d.db", TALLY_TEST_TMP, (int)getpid());
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("this is not a database, it is a text file long enough to hold a header\n", f);
        fclose(f);
    }
    CHECK_INT(tally_store_open(&s, path, NULL), TALLY_EFORMAT);
    unlink(path);
    CHECK_INT(tally_store_open(&s, "", NULL), TALLY_EINVAL);
    o.retries = 0;
    CHECK_INT(tally_store_open(&s, path, &o), TALLY_EINVAL);
    /* A password in the URL never reaches the message. */
    CHECK(tally_store_open(&s, "postgresql://ci:s3cret@/nodb?host=/nonexistent-socket-dir",
                           NULL) == TALLY_EIO);
    CHECK(strstr(tally_error_last()->message, "s3cret") == NULL);
    CHECK(strstr(tally_error_last()->message, "***") != NULL);
}

int main(void)
{
    const char *given = getenv("TALLY_STORE_URL");
    char scratch[512] = "";
    if (given && given[0]) {
        snprintf(url, sizeof url, "%s", given);
    } else {
        snprintf(scratch, sizeof scratch, "%s/test-store-%d.db", TALLY_TEST_TMP, (int)getpid());
        snprintf(url, sizeof url, "%s", scratch);
        unlink(scratch);
    }
    test_sha256();
    test_scrub();
    test_migration();
    tally_store *s = NULL;
    CHECK_INT(tally_store_open(&s, url, NULL), TALLY_OK);
    if (s) {
        test_round_trip(s);
        test_filters(s);
        test_refused(s);
        test_order(s);
        test_plan(s);
        test_bad_meta(s);
        test_not_finite(s);
        test_shared_labels(s);
        tally_store_close(s);
    }
    test_newer();
    test_bad_locations();
    if (scratch[0]) {
        char side[600];
        unlink(scratch);
        snprintf(side, sizeof side, "%s-wal", scratch);
        unlink(side);
        snprintf(side, sizeof side, "%s-shm", scratch);
        unlink(side);
    }
    return check_summary();
}
