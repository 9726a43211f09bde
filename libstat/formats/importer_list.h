/* The registry of importers: one row per importer, in detection-priority order (on equal sniff
 * scores the earlier row wins): formats with an unambiguous signature first, the permissive ones
 * (CSV, plain numbers) last. TALLY__IMPORTER(NAME) names the descriptor tally__importer_NAME,
 * defined in the importer's own file. No include guard: importer.h includes this list to declare
 * every descriptor and importers.c to build the table, each with its own TALLY__IMPORTER. */
TALLY__IMPORTER(native_json) /* native_json_read.c */
TALLY__IMPORTER(hyperfine)   /* import_hyperfine.c, and so on */
TALLY__IMPORTER(hyperfine_csv)
TALLY__IMPORTER(gbench)
TALLY__IMPORTER(pyperf)
TALLY__IMPORTER(k6)
TALLY__IMPORTER(gotest)
TALLY__IMPORTER(hackbench)
TALLY__IMPORTER(stream)
TALLY__IMPORTER(schbench)
TALLY__IMPORTER(netperf)
TALLY__IMPORTER(tbench)
TALLY__IMPORTER(hdrlog)      /* import_hdrlog.c */
TALLY__IMPORTER(hgrm)
TALLY__IMPORTER(fio)         /* import_fio.c */
TALLY__IMPORTER(fio_hist)    /* import_fio_hist.c */
TALLY__IMPORTER(pytest)          /* pytest-benchmark */
TALLY__IMPORTER(jmh)
TALLY__IMPORTER(criterion)
TALLY__IMPORTER(criterion_csv)
TALLY__IMPORTER(nanobench)
TALLY__IMPORTER(benchmarkdotnet) /* import_bdn.c */
TALLY__IMPORTER(catch2)
TALLY__IMPORTER(perf_stat)
TALLY__IMPORTER(sysbench)
TALLY__IMPORTER(pgbench)
TALLY__IMPORTER(pgbench_log)
TALLY__IMPORTER(json_path)
TALLY__IMPORTER(journal)     /* journal_read.c */
TALLY__IMPORTER(csv)         /* csv_read.c */
TALLY__IMPORTER(tsv)
TALLY__IMPORTER(plain)       /* plain_read.c */
