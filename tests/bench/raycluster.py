"""A real local Ray cluster for the benchmarks: a head node (`ray start --head`) and worker nodes
(`ray start --address=…`), as a cluster of machines runs them, all on this machine; stopped whatever
happens in between.

    with local_ray_cluster(worker_nodes=1, cpus_per_node=1) as cluster:
        ... RAY_ADDRESS=cluster.address ...
    cluster.left  # pids of this cluster's processes still running after the stop: () when all are gone

Stopping never uses `ray stop` (it stops every Ray cluster of this user on the machine, other jobs'
too): the cluster's processes are the ones whose command line names its own temp folder or its GCS
port, found by process id, sent SIGTERM, and SIGKILL after a grace period. A benchmark ended by
SIGTERM or Ctrl-C stops its cluster too; only SIGKILL of the benchmark itself leaves one running, and
`kill` of the pids in `<temp>/pids` then ends it.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[2]
STOP_GRACE_SECONDS = 15.0
START_TIMEOUT_SECONDS = 180.0


@dataclass
class RayCluster:
    address: str
    temp_dir: Path
    port: int
    nodes: int
    left: tuple[int, ...] = field(default=())
    known: dict[int, psutil.Process] = field(default_factory=dict)  # every process of it seen so far

    def processes(self) -> list[psutil.Process]:
        """This cluster's processes: those whose command line names its temp folder or its GCS address,
        their descendants (Ray's agents rename themselves "ray::DashboardAgent" and outlive a killed
        raylet), and every one of them seen before that still runs (psutil checks the pid was not reused)."""
        port = re.compile(rf"127\.0\.0\.1:{self.port}(?!\d)")  # its port, not one that starts with it
        for process in psutil.process_iter(["cmdline"]):
            line = " ".join(process.info["cmdline"] or ())
            if process.pid != os.getpid() and "ray" in line and (str(self.temp_dir) in line or port.search(line)):
                self.known.setdefault(process.pid, process)
        for process in list(self.known.values()):
            try:
                for child in process.children(recursive=True):
                    self.known.setdefault(child.pid, child)
            except psutil.Error:
                continue
        return [p for p in self.known.values() if _alive(p)]


def _alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _ray_command() -> str:
    beside = Path(sys.executable).with_name("ray")
    return str(beside) if beside.exists() else (shutil.which("ray") or "ray")


def _start(arguments: list[str], env: dict[str, str]) -> None:
    done = subprocess.run([_ray_command(), "start", *arguments], env=env, capture_output=True, text=True,
                          timeout=START_TIMEOUT_SECONDS)
    if done.returncode != 0:
        raise RuntimeError(f"ray start {' '.join(arguments)} failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")


def stop(cluster: RayCluster, grace: float = STOP_GRACE_SECONDS) -> tuple[int, ...]:
    """SIGTERM to each of the cluster's processes, SIGKILL to those left after `grace` seconds; returns
    the pids still running after that (none, normally)."""
    processes = cluster.processes()
    for process in processes:
        try:
            process.terminate()
        except psutil.Error:
            continue
    _, alive = psutil.wait_procs(processes, timeout=grace)
    for process in alive:
        try:
            process.kill()
        except psutil.Error:
            continue
    psutil.wait_procs(alive, timeout=5)
    return tuple(p.pid for p in cluster.processes())


def _raise_on_sigterm(signum, frame):  # noqa: ARG001 (signal handler signature)
    raise SystemExit(f"stopped by signal {signum}")


@contextmanager
def local_ray_cluster(worker_nodes: int = 1, cpus_per_node: int = 1) -> Iterator[RayCluster]:
    """A head node and `worker_nodes` more, `cpus_per_node` CPUs each; the workers import the pipeline
    from this checkout (PYTHONPATH), as every node of a real cluster must have it installed."""
    temp_dir = Path(tempfile.mkdtemp(prefix="ray-bench-", dir="/tmp"))  # short: Ray's socket paths are limited
    port = _free_port()
    cluster = RayCluster(f"127.0.0.1:{port}", temp_dir, port, 1 + worker_nodes)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
               RAY_USAGE_STATS_ENABLED="0")
    env.pop("RAY_ADDRESS", None)
    previous = signal.signal(signal.SIGTERM, _raise_on_sigterm)
    try:
        _start(["--head", f"--port={port}", f"--num-cpus={cpus_per_node}", f"--temp-dir={temp_dir}",
                "--include-dashboard=false", "--disable-usage-stats"], env)
        for _ in range(worker_nodes):
            _start([f"--address={cluster.address}", f"--num-cpus={cpus_per_node}", "--disable-usage-stats"], env)
        (temp_dir / "pids").write_text(" ".join(str(p.pid) for p in cluster.processes()) + "\n")
        yield cluster
    finally:
        cluster.left = stop(cluster)
        signal.signal(signal.SIGTERM, previous)
        shutil.rmtree(temp_dir, ignore_errors=True)


if __name__ == "__main__":  # a quick check: start, list, stop
    started = time.perf_counter()
    with local_ray_cluster() as running:
        print(f"cluster at {running.address}: {len(running.processes())} processes, up in {time.perf_counter() - started:.1f} s")
    print(f"stopped; processes left: {list(running.left) or 'none'}")
