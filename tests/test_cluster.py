"""Tournaments on a real dask.distributed cluster: the same rows as a serial run.

The cluster is a `LocalCluster` of two single-threaded worker *processes*, so the
bots, the rules and the rows really cross process boundaries (pickled, rebuilt in
workers that import `needle_widget` themselves), as on a cluster of machines.
In-process (thread) workers would skip that, which is the part worth testing; two
spawned workers start in about a second and a half on a 2-core machine.

Needs the `[cluster]` extra. Without dask the module is skipped, except where
NEEDLE_REQUIRE_BROWSER=1 (CI), where a missing dask fails the run instead.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import pytest

from needle_widget import Rules, bots
from needle_widget.players.sim import round_robin

try:
    from distributed import Client, LocalCluster, get_task_stream
except ImportError as missing:  # pragma: no cover - only without the [cluster] extra
    if os.environ.get("NEEDLE_REQUIRE_BROWSER") == "1":
        raise ImportError(
            f"NEEDLE_REQUIRE_BROWSER=1 but dask.distributed is missing ({missing}): pip install -e '.[cluster]'"
        ) from missing
    pytest.skip("dask.distributed is missing: pip install -e '.[cluster]'", allow_module_level=True)


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def test_the_workers_are_other_processes(client: Client) -> None:
    pids = client.run(os.getpid)
    assert len(pids) == 2 and os.getpid() not in pids.values()


def test_a_cluster_tournament_gives_the_rows_of_a_serial_run(client: Client) -> None:
    entrants = [bots.RandomBot(seed=8), bots.GreedyBot(), bots.OddsBot()]
    serial = round_robin(entrants, games=60, seed=2, progress=False, chunk=7)
    with get_task_stream(client) as stream:
        distributed = round_robin(entrants, games=60, seed=2, executor=client.get_executor(), progress=False, chunk=7)
    assert distributed.names == serial.names == ["random", "greedy", "odds"]
    assert len(distributed.rows) == 180
    assert distributed.rows == serial.rows
    assert distributed.summary == serial.summary
    # every chunk (180 games in chunks of 7) ran as a task on a worker, not here
    tasks = [t for t in stream.data if "_play_specs" in str(t["key"])]
    assert len(tasks) == 26
    assert {t["worker"] for t in tasks} <= set(client.scheduler_info()["workers"])


def test_rule_variants_travel_to_the_workers(client: Client) -> None:
    rules = Rules(ace="wrap")
    entrants = [bots.GreedyBot(), bots.RandomBot(seed=3)]
    serial = round_robin(entrants, games=40, seed=11, progress=False, rules=rules, chunk=9)
    distributed = round_robin(
        entrants, games=40, seed=11, executor=client.get_executor(), progress=False, rules=rules, chunk=9
    )
    assert distributed.rows == serial.rows


def test_a_bot_the_workers_cannot_import_is_sent_by_value(client: Client) -> None:
    """As a notebook's own bot is: cloudpickle sends a class that cannot be imported along with its code."""

    class FirstLegal:  # a local class: no worker can import it by name
        name = "first"

        def choose(self, view, legal_actions):
            return legal_actions[0]

        def explain(self) -> str:
            return "My first option."

    entrants = [FirstLegal(), bots.GreedyBot()]
    serial = round_robin(entrants, games=30, seed=5, progress=False, chunk=4)
    distributed = round_robin(entrants, games=30, seed=5, executor=client.get_executor(), progress=False, chunk=4)
    assert distributed.rows == serial.rows
    assert distributed.names == ["first", "greedy"]


def test_an_error_on_a_worker_reaches_the_caller(client: Client) -> None:
    class Broken:
        name = "broken"

        def choose(self, view, legal_actions):
            raise RuntimeError("this bot is broken")

        def explain(self) -> str:
            return ""

    with pytest.raises(RuntimeError, match="this bot is broken"):
        round_robin([Broken(), bots.GreedyBot()], games=20, seed=0, executor=client.get_executor(), progress=False)
