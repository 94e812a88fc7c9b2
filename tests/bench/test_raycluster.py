"""Stopping the benchmark's Ray cluster: by process id, its own processes only, children that ignore
SIGTERM or renamed themselves included (real processes standing in for Ray's; a real cluster takes a
minute to start here, so `python -m tests.bench.raycluster` checks that one)."""
from __future__ import annotations

import subprocess
import sys
import time

import psutil

from tests.bench.raycluster import RayCluster, stop

# A "raylet": names the cluster's temp folder on its command line and starts an "agent" that ignores
# SIGTERM and whose command line names nothing of the cluster (Ray's agents rename themselves).
NODE = """
import signal, subprocess, sys, time
agent = subprocess.Popen([sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"])
open(sys.argv[2], "w").write(str(agent.pid))
time.sleep(600)
"""


def _node(temp_dir, pid_file):
    process = subprocess.Popen([sys.executable, "-c", NODE, f"ray-node --temp-dir={temp_dir}", str(pid_file)])
    deadline = time.monotonic() + 30
    while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return process, int(pid_file.read_text())


def test_stop_ends_the_clusters_processes_and_their_children_and_nothing_else(tmp_path):
    ours, theirs = tmp_path / "ray-bench-ours", tmp_path / "ray-bench-theirs"
    node, agent = _node(ours, tmp_path / "ours.pid")
    other_node, other_agent = _node(theirs, tmp_path / "theirs.pid")
    try:
        cluster = RayCluster("127.0.0.1:1", ours, 1, nodes=1)
        assert {p.pid for p in cluster.processes()} == {node.pid, agent}
        assert stop(cluster, grace=1.0) == ()
        node.wait(timeout=10)
        assert not psutil.pid_exists(agent) or psutil.Process(agent).status() == psutil.STATUS_ZOMBIE
        assert other_node.poll() is None and psutil.pid_exists(other_agent)  # another cluster is left alone
    finally:
        for pid in (agent, other_agent, node.pid, other_node.pid):
            try:
                psutil.Process(pid).kill()
            except psutil.Error:
                pass
        node.wait(timeout=10)
        other_node.wait(timeout=10)
