"""Calls from several threads at once: cffi releases the GIL, the library's state is per thread."""

import threading

import numpy as np

import tally

from conftest import requires


@requires("tally_summarize", "tally_direction_from_name")
def test_concurrent_threads_agree():
    # cffi releases the GIL inside the library, so these calls run in parallel; each thread keeps
    # its own last-error state in the C library.
    data = [np.random.default_rng(seed).normal(10, 1, 2000) for seed in range(4)]
    expected = [tally.summary(x).stddev for x in data]
    errors = []

    def work(i):
        for _ in range(200):
            if tally.summary(data[i]).stddev != expected[i]:
                errors.append(i)
            try:
                tally.summary([])
            except tally.NotEnoughData as exc:
                if exc.code != tally._lib.TALLY_ENODATA:
                    errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
