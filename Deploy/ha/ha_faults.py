"""The four ways `make test-ha` loses the primary (each takes the old leader's name and
returns facts for the round's report), and the watch that times the partition's fencing
against the promotion."""
import threading
import time

from ha_cluster import Failure, cancel_synchronous_waits, cluster, leader, log, members, sync_standby, wait_until, writable


class FenceWatch(threading.Thread):
    """Polls every node every 100 ms: when the old primary stopped taking writes, and when
    another started to. Until the old primary is fenced, it also cancels the commits stuck
    waiting there for the unreachable standby: PostgreSQL then calls them committed (with a
    warning), and subscriptiond must not."""

    def __init__(self, old, others):
        super().__init__(daemon=True)
        self.old, self.others = old, others
        self.fenced_at = self.promoted_at = None
        self.promoted = None
        self.cancelled = 0
        self.stop = False

    def run(self):
        started = time.time()
        while not self.stop and (self.fenced_at is None or self.promoted_at is None):
            now = time.time()
            if self.fenced_at is None and not writable(self.old):
                self.fenced_at = now
            if self.fenced_at is None and now - started > 1:
                self.cancelled += cancel_synchronous_waits(self.old)
            for other in self.others:
                if self.promoted_at is None and writable(other):
                    self.promoted_at, self.promoted = time.time(), other
            time.sleep(0.1)


def kill_postmaster(old):
    cluster("kill-postmaster", old)
    log(f"kill -9 of {old}'s postmaster")
    return {}


def kill_node(old):
    cluster("kill-node", old)
    log(f"kill -9 of {old}'s Patroni, PostgreSQL and etcd member")
    wait_until("a new leader", 120, lambda: (lambda l: l if l and l != old else None)(leader()))
    cluster("start-node", old)
    log(f"{old} started again (etcd member, Patroni)")
    return {"restarted_at": time.time()}


def switchover(old):
    candidate = wait_until("a synchronous standby", 60, sync_standby)
    log(f"patronictl switchover {old} → {candidate}")
    cluster("patronictl", "switchover", "--leader", old, "--candidate", candidate, "--force", timeout=120)
    return {}


def partition(old):
    others = [m["name"] for m in members() if m["name"] != old]
    watch = FenceWatch(old, others)
    watch.start()
    cut_at = time.time()
    cluster("partition", old)
    log(f"{old} cut off from the other nodes and their etcd members (subscriptiond still reaches it)")
    wait_until("the partition's fencing and promotion", 120, lambda: watch.fenced_at and watch.promoted_at, interval=0.2)
    watch.stop = True
    time.sleep(2)
    cluster("heal", old)
    log(f"partition healed; {old} stopped taking writes {watch.fenced_at - cut_at:.1f} s after the cut, "
        f"{watch.promoted} was promoted {watch.promoted_at - cut_at:.1f} s after it; meanwhile {watch.cancelled} commits "
        f"waiting on {old} for the standby were cancelled (pg_cancel_backend)")
    if watch.fenced_at >= watch.promoted_at:
        raise Failure(f"{old} still took writes when {watch.promoted} was promoted: two primaries")
    return {"cut_at": cut_at, "fenced_after": watch.fenced_at - cut_at, "promoted_after": watch.promoted_at - cut_at,
            "cancelled": watch.cancelled}
