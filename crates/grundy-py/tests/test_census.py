"""Issue 19: ``grundy.census`` in this process, on a process pool and on a
real Dask cluster of worker processes (``distributed.LocalCluster`` on
loopback) gives the rows the ``grundy census`` command prints."""

import json
import os
import subprocess
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import grundy

FAMILY = "0.?[0-7]"
MAX = 1 << 10

# What differs between runs: wall time, and the sparse engine's statistics
# (the table solver picks its engine per stretch of heaps by measured
# cost); values, periods and classes do not.
VARYING = ("seconds", "rare_mask", "rare_count", "last_rare", "position_parity")


def steady(rows):
    return [{k: v for k, v in row.items() if k not in VARYING} for row in rows]


def grundy_binary():
    root = Path(__file__).resolve().parents[3]
    target = Path(os.environ.get("CARGO_TARGET_DIR", root / "target"))
    for path in (os.environ.get("GRUNDY_BIN"), target / "debug" / "grundy"):
        if path and Path(path).is_file():
            return str(path)
    pytest.skip("the grundy binary is not built (cargo build -p grundy-cli)")


@pytest.fixture(scope="module")
def local_rows():
    return grundy.census(FAMILY, max=MAX)


def test_rows_equal_the_command_line(local_rows):
    printed = subprocess.run(
        [grundy_binary(), "census", FAMILY, "--max", str(MAX), "--format", "json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    cli_rows = [json.loads(line) for line in printed.splitlines()]
    assert len(cli_rows) == 63
    assert steady(local_rows) == steady(cli_rows)


def test_known_games_and_classes(local_rows):
    row = {r["game"]: r for r in local_rows}
    assert (row["0.77"]["preperiod"], row["0.77"]["period"], row["0.77"]["proven"]) == (71, 12, True)
    # GameLookup.md: .07 is .4 one heap on.
    assert row["0.07"]["class"] == "0.4" and row["0.07"]["class_offset"] == 1
    assert row["0.07"]["class_proven"]
    assert not row["0.6"]["proven"]


def test_a_process_pool_gives_the_same_rows(local_rows):
    with ProcessPoolExecutor(max_workers=2) as pool:
        rows = grundy.census(FAMILY, max=MAX, executor=pool)
    assert steady(rows) == steady(local_rows)


def test_a_dask_cluster_gives_the_same_rows(local_rows):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster, distributed.Client(cluster) as client:
        rows = grundy.census(FAMILY, max=MAX, executor=client.get_executor())
        # The rows were computed in the workers, not here.
        assert len(client.scheduler_info()["workers"]) == 2
    assert steady(rows) == steady(local_rows)


def test_shards_join_into_the_whole_census(local_rows):
    parts = [grundy.census(FAMILY, max=MAX, shard=(k, 2)) for k in (1, 2)]
    assert [len(p) for p in parts] == [32, 31]
    assert steady(grundy.census_classify(parts[0] + parts[1])) == steady(local_rows)


@pytest.mark.parametrize("name", ["rows.jsonl", "rows.csv"])
def test_a_census_resumes_from_its_output_file(tmp_path, local_rows, name):
    output = tmp_path / name
    first = grundy.census("0.?7", max=MAX, output=output)
    assert output.read_text().startswith("game,") == name.endswith(".csv")
    # The last line cut short, as by a kill: that game runs again.
    text = output.read_text()
    output.write_text(text[:-5])
    cut = first[-1]["game"]
    with ProcessPoolExecutor(max_workers=2) as pool:
        rows = grundy.census(FAMILY, max=MAX, output=str(output), executor=pool)
    assert steady(rows) == steady(local_rows)
    seconds = {r["game"]: r["seconds"] for r in rows}
    kept = [r["game"] for r in first if seconds[r["game"]] == r["seconds"]]
    assert sorted(kept) == sorted(r["game"] for r in first if r["game"] != cut)
    # The file holds the classified rows, which the command line reads.
    merged = subprocess.run(
        [grundy_binary(), "census", "merge", str(output), "--format", "json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert [json.loads(line) for line in merged.splitlines()] == rows


def test_bad_input_raises():
    with pytest.raises(grundy.GrundyError):
        grundy.census("0.[z]")
    with pytest.raises(grundy.GrundyError):
        grundy.census_row("0.7", time_per_game=-1.0)
    with pytest.raises(grundy.GrundyError):
        grundy.census("0.?", shard=(3, 2))
    run = grundy.CensusRun(["0.?"])
    # A row of a game outside the family, or one it holds, is refused.
    with pytest.raises(grundy.GrundyError, match="outside this census"):
        run.record(grundy.census_row("4.7", max=2**8))
    run.record(grundy.census_row("0.7", max=2**8))
    with pytest.raises(grundy.GrundyError, match="holds already"):
        run.record(grundy.census_row("0.7", max=2**8))
    run.finish()
    with pytest.raises(grundy.GrundyError, match="finished"):
        run.todo
