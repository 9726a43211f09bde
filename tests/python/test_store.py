"""tally.Store and tally.dask.read(store=...) on SQLite and, when TALLY_TEST_PG_URL names a
server (.ci/test starts one), PostgreSQL: each run stamps its sets with a machine name of its
own and selects by it, so the shared database needs no cleaning."""

import math
import os
import uuid

import pytest

import tally

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "examples",
                    "hackbench-process-pipes.csv")


def _backends():
    yield "sqlite"
    if os.environ.get("TALLY_TEST_PG_URL"):
        yield "pg"


@pytest.fixture(params=list(_backends()))
def store(request, tmp_path):
    url = str(tmp_path / "store.db") if request.param == "sqlite" \
        else os.environ["TALLY_TEST_PG_URL"]
    with tally.Store(url) as s:
        yield s, url


def test_record_query_roundtrip(store):
    s, _ = store
    machine = "py-" + uuid.uuid4().hex[:12]
    meta = {"commit": "feedbeef01", "branch": "main", "machine": machine}
    assert s.record(DATA, meta=meta) == 3
    assert s.record(DATA, meta=meta) == 0  # the same content: a no-op
    assert s.schema_version == 3
    got = s.query(machine=machine)
    want = tally.load(DATA)
    assert got.labels == want.labels
    for a, b in zip(got, want):
        assert a.metadata["commit"] == "feedbeef01" and "store.id" in a.metadata
        for ba, bb in zip(a, b):
            assert (ba.name, ba.unit, ba.better) == (bb.name, bb.unit, bb.better)
            for ca, cb in zip(ba, bb):
                assert ca.name == cb.name and list(ca.samples) == list(cb.samples)
    latest = s.query(machine=machine, latest=True)
    assert len(latest) == 1
    # A Results recorded again (with the store's metadata on it) is the same content.
    assert s.record(got) == 0
    frame = s.query_frame(machine=machine, benchmark="hackbench*", case="1")
    # 3 configurations x 3 runs of case "1" (docs/examples/hackbench-process-pipes.csv).
    assert len(frame) == 9
    assert math.isclose(frame["value"].iloc[0], 0.371)
    assert s.benchmarks(machine=machine) == ["hackbench-process-pipes"]
    assert s.query(machine=machine, branch="nope").labels == []


def test_errors(tmp_path):
    with pytest.raises(tally.NotFound):
        tally.Store(str(tmp_path / "missing.db"), create=False)
    with pytest.raises(tally.TallyIOError) as err:
        tally.Store("postgresql://u:s3cret@/x?host=/nonexistent-socket-dir")
    assert "s3cret" not in str(err.value)
    with tally.Store(str(tmp_path / "s.db")) as s:
        with pytest.raises(TypeError):
            s.query(bogus="x")
        with pytest.raises(ValueError):
            s.query(limit=0)
        assert "s3cret" not in repr(s)
    assert "closed" in repr(s)


def test_dask_read_store(store):
    pytest.importorskip("dask")
    import tally.dask
    s, url = store
    machine = "py-" + uuid.uuid4().hex[:12]
    s.record(DATA, meta={"machine": machine, "branch": "dask"})
    frame = tally.dask.read(store=url, machine=machine)
    assert frame.npartitions == 1  # one benchmark
    data = frame.compute()
    # 3 configurations x 15 cases x 3 runs.
    assert len(data) == 135
    assert set(data["label"].astype(str)) == set(tally.load(DATA).labels)
    empty = tally.dask.read(store=url, machine=machine + "-none").compute()
    assert len(empty) == 0
