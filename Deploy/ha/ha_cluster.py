"""The pieces of `make test-ha` that talk to the cluster and the machine: commands with
deadlines, Patroni's view of the cluster (its REST API, through cluster.sh), and probes of
each PostgreSQL node. Shared by test_ha.py and ha_faults.py."""
import json
import os
import subprocess
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("HA_BIN", os.path.join(ROOT, ".build", "debug"))
CLUSTER = os.path.join(ROOT, "Deploy", "ha", "cluster.sh")
WORK = os.path.join(ROOT, ".local", "test-ha")
STARTED = time.time()


class Failure(Exception):
    pass


def log(message):
    print(f"[{time.time() - STARTED:6.1f}s] {message}", flush=True)


def run(*args, env=None, timeout=120, input_text=None, cwd=None):
    """Runs a command to completion (with `input_text` on its stdin, in `cwd`); its stdout,
    or Failure with its stderr."""
    done = subprocess.run(args, env=env, input=input_text, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    if done.returncode != 0:
        raise Failure(f"{' '.join(args[:4])}… exited {done.returncode}: {done.stderr.strip()[-1200:]}")
    return done.stdout


def http_status(port, path, timeout=2):
    """The status of GET http://127.0.0.1:port/path, or None when nothing answers."""
    import http.client
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        connection.request("GET", path)
        return connection.getresponse().status
    except OSError:
        return None


def cluster(*args, timeout=240):
    return run(CLUSTER, *args, timeout=timeout)


def wait_until(what, seconds, predicate, interval=0.2):
    deadline = time.time() + seconds
    while True:
        try:
            value = predicate()
        except (Failure, OSError, ValueError, subprocess.TimeoutExpired):
            value = None
        if value:
            return value
        if time.time() > deadline:
            raise Failure(f"{what}: not within {seconds} s")
        time.sleep(interval)


def free_port(first, last):
    return int(run(os.path.join(ROOT, "Deploy", "local", "free-port.sh"), str(first), str(last)).strip())


def members():
    return json.loads(cluster("cluster", timeout=15))["members"]


def leader():
    return next((m["name"] for m in members() if m["role"] in ("leader", "master")), None)


def sync_standby():
    return next((m["name"] for m in members() if m["role"] == "sync_standby" and m["state"] in ("running", "streaming")), None)


def is_replica_again(name):
    """True once `name` is a running replica of the current leader, caught up."""
    member = next((m for m in members() if m["name"] == name), None)
    lag = member.get("lag") if member else None
    return (member is not None and member["role"] in ("replica", "sync_standby") and member["state"] in ("running", "streaming")
            and isinstance(lag, int) and lag < 1024 * 1024)


def node_ip(name):
    return f"{os.environ['HA_SUBNET']}.{name[1:]}"


def writable(name):
    """True when node `name` accepts connections and is not in recovery (it takes writes)."""
    try:
        done = subprocess.run(["psql", "-qtAX", f"postgresql://postgres@{node_ip(name)}:5432/postgres?connect_timeout=1",
                               "-c", "SET statement_timeout = 1000", "-c", "SELECT NOT pg_is_in_recovery()"],
                              capture_output=True, text=True, timeout=3)
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0 and done.stdout.strip() == "t"


def query_json(sql):
    """One JSON value from the current primary (DATABASE_URL picks it)."""
    out = run("psql", "-qtAX", os.environ["DATABASE_URL"], "-c", sql, timeout=30).strip()
    return json.loads(out) if out else None


def cancel_synchronous_waits(name):
    """On node `name`, cancels every session waiting for the synchronous standby (what an
    operator might do to "unstick" a primary); how many it cancelled."""
    try:
        done = subprocess.run(["psql", "-qtAX", f"postgresql://postgres@{node_ip(name)}:5432/postgres?connect_timeout=1",
                               "-c", "SELECT count(*) FILTER (WHERE pg_cancel_backend(pid)) FROM pg_stat_activity WHERE wait_event = 'SyncRep'"],
                              capture_output=True, text=True, timeout=3)
    except subprocess.TimeoutExpired:
        return 0
    return int(done.stdout.strip() or 0) if done.returncode == 0 else 0
