#!/usr/bin/env python3
"""`make test-ha`: subscriptiond against PostgreSQL under Patroni (Deploy/ha/cluster.sh:
three etcd members, three PostgreSQL nodes, synchronous replication), losing the primary in
the middle of bursts of v1 and v2 notifications from appstore-sim, four times:

  failover (postmaster)  kill -9 of the primary's postmaster; Patroni fails over at once
  failover (whole node)  kill -9 of the primary's Patroni, PostgreSQL and etcd member;
                         the node is started again once another has taken over
  switchover             patronictl switchover to the synchronous standby (planned)
  partition              the primary cut off from the other nodes (iptables in its network
                         namespace), still reachable from subscriptiond: it must stop
                         taking writes (Patroni demotes it) before another is promoted

After each: every notification that got a 200 is in the new primary (same id, same
notification) and ends processed; every customer agrees with the simulator (its own
check); the old primary is back as a replica. At the end, every webhook event was
delivered, each subscription's and user's in order. Times are measured and printed, bounds
are generous. The last line: `ha: N acknowledged, 0 lost, 503 for S s, rejoined in R s`
(the postmaster failover's window and rejoin; the others are printed above it).

Run as root (network namespaces); `make test-ha` builds first. Leaves nothing running."""
import os
import secrets
import signal
import subprocess
import sys
import time


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ha_cluster import (BIN, CLUSTER, WORK, Failure, cluster, free_port, is_replica_again, leader,  # noqa: E402
                        log, query_json, run, wait_until)
from ha_faults import kill_node, kill_postmaster, partition, switchover  # noqa: E402
from ha_recorders import IntakeRecorder, WebhookReceiver  # noqa: E402
from simulated_apple import simulator_settings, write_apps_config  # noqa: E402

CUSTOMERS = int(os.environ.get("HA_CUSTOMERS", "120"))
# Every process the test starts, stopped on every way out.
STARTED_PROCESSES = []
# Bounds that only catch a hang or a broken failover: the measured times are printed.
WINDOW_BOUND_SECONDS = 60
SWITCHOVER_WINDOW_BOUND_SECONDS = 15
REJOIN_BOUND_SECONDS = 180
# How long appstore-sim keeps serving verifyReceipt after its check (see Burst).
LINGER_SECONDS = 45


class Service:
    """subscriptiond and the recorders around it, for the whole run."""

    def __init__(self):
        self.port = free_port(19600, 19699)
        self.sim_port = free_port(19700, 19799)
        self.proxy_port = free_port(19800, 19899)
        self.hook_port = free_port(19900, 19999)
        self.token = secrets.token_hex(20)
        self.shared_secrets = write_apps_config(os.path.join(WORK, "subscriptiond-config.json"))
        hook_secret = secrets.token_hex(24)
        self.intake = IntakeRecorder(self.proxy_port, self.port)
        self.webhooks = WebhookReceiver(self.hook_port, hook_secret)
        run(os.path.join(BIN, "appstore-sim"), "ca", "--state-dir", os.path.join(WORK, "sim"), "--out", os.path.join(WORK, "sim-root.pem"))
        env = dict(os.environ)
        env.update(simulator_settings(self.sim_port, os.path.join(WORK, "sim-root.pem")))
        env.update({
            "SUBSCRIPTIOND_CONFIG": os.path.join(WORK, "subscriptiond-config.json"),
            "ADMIN_TOKEN": self.token, "SUBSCRIPTIOND_PORT": str(self.port), "LOG_LEVEL": "info",
            "WEBHOOK_URL": f"http://127.0.0.1:{self.hook_port}/hooks", "WEBHOOK_SECRET": hook_secret,
        })
        self.env = env
        self.log_path = os.path.join(WORK, "subscriptiond.log")
        self.process = subprocess.Popen([os.path.join(BIN, "subscriptiond")], env=env, stdout=subprocess.DEVNULL,
                                        stderr=open(self.log_path, "w"))
        STARTED_PROCESSES.append(self.process)
        wait_until("subscriptiond ready", 60, lambda: self.get("/health/ready") == 200)

    def get(self, path):
        import urllib.request
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=5) as answer:
                return answer.status
        except OSError as error:
            return getattr(error, "code", None)

    def metrics(self, prefixes):
        import urllib.request
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5) as answer:
            text = answer.read().decode()
        return [line for line in text.splitlines() if line.startswith(prefixes)]

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.intake.close()
        self.webhooks.close()


class Burst:
    """One appstore-sim run: its customers' notifications through the recorder, then its check."""

    def __init__(self, service, name, seed):
        self.log_path = os.path.join(WORK, f"appstore-sim-{name}.log")
        self.out_path = os.path.join(WORK, f"check-{name}.txt")
        retries = ",".join(["250", "500"] + ["1000"] * 120)
        self.process = subprocess.Popen(
            [os.path.join(BIN, "appstore-sim"), "run", "--customers", str(CUSTOMERS), "--seed", str(seed), "--name-prefix", name,
             "--notifications-version", "mixed",
             *[argument for bundle, secret in service.shared_secrets.items() for argument in ("--secret", f"{bundle}={secret}")],
             "--state-dir", os.path.join(WORK, "sim"), "--port", str(service.sim_port),
             # Every notification three times, shuffled, as Apple may: a burst long enough
             # (about ten seconds) that the fault lands in its middle, and redeliveries in flight.
             "--duplicates", "3", "--shuffle",
             "--target", f"http://127.0.0.1:{service.proxy_port}/notifications/appstore", "--concurrency", "4",
             # Production customers only: Apple sends a sandbox v2 notification once, never
             # again after a 503, and this test is about what Apple retries.
             "--sandbox-share", "0", "--retry-delays-ms", retries, "--timeout-ms", "60000",
             "--check-url", f"http://127.0.0.1:{service.port}", "--check-token", service.token, "--check-timeout", "240",
             # Still Apple for a while after the check: a notification whose attempt the fault
             # cut short is retried after its lease and backoff, and a v1 one needs verifyReceipt.
             "--linger", str(LINGER_SECONDS),
             "--truth-out", os.path.join(WORK, f"truth-{name}.json")],
            stdout=open(self.out_path, "w"), stderr=open(self.log_path, "w"))
        STARTED_PROCESSES.append(self.process)

    def planned(self):
        with open(self.log_path) as log_file:
            for line in log_file:
                if "sending " in line and " notifications of " in line:
                    return int(line.split("sending ", 1)[1].split()[0])
        return None

    def finish(self):
        """The simulator's exit code and the last line of its check."""
        try:
            code = self.process.wait(420 + LINGER_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return -1, "appstore-sim did not finish within 420 s"
        with open(self.out_path) as out:
            check = out.read().strip().splitlines()
        return code, (check[-1] if check else "")


def verify_acknowledged(answers):
    """Every 200: the notification with that id is in the primary, the same one, processed."""
    acknowledged = {}
    for answer in answers:
        if answer.status == 200 and answer.notification_id is not None:
            acknowledged[answer.notification_id] = answer.key
    ids = ",".join(str(i) for i in acknowledged)

    def stored():
        rows = query_json(f"SELECT coalesce(json_agg(json_build_object('id', id, 'key', dedupe_key, 'state', state, 'body', body)), '[]') "
                          f"FROM notifications WHERE id IN ({ids})") if ids else []
        return {row["id"]: row for row in rows}

    def settled():
        rows = stored()
        return rows if all(i in rows and rows[i]["state"] == "processed" for i in acknowledged) else None

    # The simulator's check already waited for the statuses; processing may trail a moment.
    try:
        rows = wait_until("every acknowledged notification processed", 120, settled, interval=1.0)
    except Failure:
        rows = stored()
    lost = [i for i, key in acknowledged.items() if i not in rows or not _same(rows[i], key)]
    unprocessed = [i for i in acknowledged if i in rows and rows[i]["state"] != "processed"]
    return len(acknowledged), lost, unprocessed


def _same(row, key):
    version, value = key
    if version == "v2":
        return row["key"] == f"v2:{value}"
    return row["key"].startswith("v1:") and row["body"] == value


def window(answers, since, status):
    """(count, seconds from the first to the last) of the answers with `status` from `since` on."""
    times = [a.at for a in answers if a.at >= since and a.status == status]
    return len(times), (max(times) - min(times) if times else 0.0)


def round_(service, name, seed, fault):
    log(f"round {name}: cluster before")
    print(cluster("list", timeout=30).rstrip(), flush=True)
    burst = Burst(service, name, seed)
    planned = wait_until("appstore-sim started sending", 60, burst.planned)
    base = len(service.intake.snapshot())
    log(f"round {name}: appstore-sim sends {planned} notifications ({CUSTOMERS} customers, v1 and v2, each three times)")
    wait_until("half the burst acknowledged", 120,
               lambda: sum(a.status == 200 for a in service.intake.snapshot()[base:]) >= planned // 2, interval=0.05)
    old = leader()
    fault_at = time.time()
    facts = fault(old)
    new = wait_until("a new leader", 120, lambda: (lambda l: l if l and l != old else None)(leader()))
    promoted_after = facts.get("promoted_after", time.time() - fault_at)
    log(f"round {name}: {new} leads (was {old}), {promoted_after:.1f} s after the fault")
    rejoin_from = facts.get("restarted_at", fault_at)
    rejoined = None
    try:
        wait_until(f"{old} back as a replica", REJOIN_BOUND_SECONDS, lambda: is_replica_again(old), interval=0.5)
        rejoined = time.time() - fault_at
    except Failure as error:
        log(f"round {name}: {error}")
    code, verdict = burst.finish()
    answers = service.intake.snapshot()[base:]
    unavailable, seconds = window(answers, fault_at - 1, 503)
    others = [a.status for a in answers if a.status not in (200, 503)]
    # The longest time without an acknowledgment around the fault: the 503s' span, plus
    # the time requests spent waiting on a primary that could no longer commit.
    acknowledged_at = sorted(a.at for a in answers if a.status == 200)
    silence = max((b - a for a, b in zip(acknowledged_at, acknowledged_at[1:]) if b >= fault_at), default=0.0)
    acknowledged, lost, unprocessed = verify_acknowledged(answers)
    result = {"name": name, "planned": planned, "acknowledged": acknowledged, "lost": len(lost), "unprocessed": len(unprocessed),
              "unavailable": unavailable, "window": seconds, "silence": silence, "rejoined": rejoined, "old": old, "new": new, "verdict": verdict, **facts}
    log(f"round {name}: {acknowledged} acknowledged, {len(lost)} lost, {len(unprocessed)} not processed; "
        f"{unavailable} answers 503 over {seconds:.1f} s, {len(others)} other than 200 or 503, nothing acknowledged for {silence:.1f} s; "
        + (f"{old} rejoined as a replica {rejoined:.1f} s after the fault" if rejoined is not None else f"{old} did not rejoin")
        + (f" ({time.time() - rejoin_from:.1f} s after it was started again)" if "restarted_at" in facts and rejoined else "")
        + f"; {verdict}")
    print(cluster("list", timeout=30).rstrip(), flush=True)
    if lost:
        raise Failure(f"round {name}: acknowledged notifications missing from the new primary: ids {lost[:20]}")
    if unprocessed:
        raise Failure(f"round {name}: acknowledged notifications not processed: ids {unprocessed[:20]}")
    if code != 0 or "agrees with the simulator" not in verdict:
        raise Failure(f"round {name}: subscriptiond does not agree with appstore-sim (exit {code}): {verdict}; "
                      f"see {burst.out_path}, {burst.log_path}")
    if others:
        raise Failure(f"round {name}: intake answered other than 200 or 503: {sorted(set(others))}")
    if rejoined is None:
        raise Failure(f"round {name}: {old} was not a caught-up replica within {REJOIN_BOUND_SECONDS} s")
    bound = SWITCHOVER_WINDOW_BOUND_SECONDS if name == "switchover" else WINDOW_BOUND_SECONDS
    if seconds > bound:
        raise Failure(f"round {name}: intake answered 503 for {seconds:.1f} s (bound {bound} s)")
    return result


def main():
    if os.geteuid() != 0:
        raise Failure("run as root: the cluster's nodes live in network namespaces")
    os.makedirs(WORK, exist_ok=True)
    # A fresh cluster: a previous run's data would carry its timelines and rows.
    cluster("destroy", timeout=60)
    log(run("patroni", "--version").strip() + ", " + run("etcd", "--version").splitlines()[0].strip())
    cluster("up", timeout=400)
    for line in cluster("env").splitlines():
        key, _, value = line.removeprefix("export ").partition("=")
        os.environ[key] = value.strip('"')
    os.environ["HA_SUBNET"] = os.environ.get("HA_SUBNET", "10.213.47")
    log("cluster up: 3 etcd members, 3 PostgreSQL nodes, one namespace each; DATABASE_URL names all three, target_session_attrs=read-write")
    run(os.path.join(BIN, "subscriptionctl"), "migrate")
    catalog = os.path.join(WORK, "catalog.json")
    with open(catalog, "w") as out:
        out.write(run(os.path.join(BIN, "appstore-sim"), "catalog"))
    run(os.path.join(BIN, "subscriptionctl"), "products", "import", catalog)
    service = Service()
    try:
        results = [
            round_(service, "postmaster", 101, kill_postmaster),
            round_(service, "node", 102, kill_node),
            round_(service, "switchover", 103, switchover),
        ]
        partitioned = round_(service, "partition", 104, partition)
        results.append(partitioned)
        # The old primary's side: from a second after the cut (answers already on their way)
        # to a second before the promotion was seen (the poll's resolution), when no other
        # node took writes.
        late = [a for a in service.intake.snapshot()
                if a.status == 200 and partitioned["cut_at"] + 1 <= a.at < partitioned["cut_at"] + partitioned["promoted_after"] - 1]
        refused = sum("not taken as committed" in line for line in open(service.log_path))
        log(f"partition: {len(late)} notifications acknowledged between the cut and the promotion (the old primary's side); "
            f"{partitioned['cancelled']} commits cancelled there, {refused} refused by subscriptiond as unconfirmed by the standby")
        if late:
            earlier = {a.notification_id for a in service.intake.snapshot() if a.status == 200 and a.at < partitioned["cut_at"]}
            described = ", ".join(f"id {a.notification_id} at +{a.at - partitioned['cut_at']:.1f} s"
                                  + (" (a redelivery of one acknowledged before the cut)" if a.notification_id in earlier else "")
                                  for a in late[:10])
            raise Failure(f"{len(late)} notifications were acknowledged by the old primary after the partition: {described}")
        check_webhooks(service)
        log("subscriptiond's own view (metrics):")
        for line in service.metrics(("subscriptiond_database_server", "subscriptiond_database_connects_total",
                                     'subscriptiond_notifications_received_total')):
            print("  " + line, flush=True)
        for r in results:
            log(f"{r['name']:>10}: {r['acknowledged']} acknowledged, {r['lost']} lost, 503 for {r['window']:.1f} s "
                f"(nothing acknowledged for {r['silence']:.1f} s), "
                f"{r['old']} → {r['new']}, old primary a replica again after {r['rejoined']:.1f} s")
        first = results[0]
        total = sum(r["acknowledged"] for r in results)
        lost = sum(r["lost"] for r in results)
        print(f"ha: {total} acknowledged, {lost} lost, 503 for {first['window']:.1f} s, rejoined in {first['rejoined']:.1f} s", flush=True)
    finally:
        service.stop()


def check_webhooks(service):
    """Every event in the database delivered; each subscription's and user's in order of creation."""
    wait_until("every webhook event delivered", 180,
               lambda: query_json("SELECT count(*) FROM webhook_events WHERE state IN ('pending', 'retrying')") == 0, interval=1.0)
    events = query_json("SELECT coalesce(json_agg(json_build_object('id', id, 'event', event_id, 'state', state, "
                        "'subscription', environment || ':' || original_transaction_id, 'user', app_user_id) ORDER BY id), '[]') "
                        "FROM webhook_events")
    arrivals = service.webhooks.arrivals()
    missing = [e["event"] for e in events if e["event"] not in arrivals]
    dead = [e["event"] for e in events if e["state"] != "delivered"]
    out_of_order = 0
    for key in ("subscription", "user"):
        last = {}
        for e in events:
            group = e[key]
            if group is None or e["event"] not in arrivals:
                continue
            if group in last and arrivals[e["event"]] < last[group]:
                out_of_order += 1
            last[group] = arrivals[e["event"]]
    stored = {e["event"] for e in events}
    phantoms = sum(1 for event in arrivals if event not in stored)
    log(f"webhooks: {len(events)} events, {len(events) - len(missing)} received, {service.webhooks.deliveries} deliveries, "
        f"{out_of_order} out of order, {len(dead)} not delivered; {phantoms} received that the database does not hold")
    if missing or dead or out_of_order or service.webhooks.bad_signatures:
        raise Failure(f"webhooks: {len(missing)} never arrived, {len(dead)} not delivered, {out_of_order} out of order, "
                      f"{service.webhooks.bad_signatures} with a bad signature")


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    status = 0
    try:
        main()
    except (Failure, subprocess.TimeoutExpired) as error:
        print(f"test-ha: FAILED: {error}", file=sys.stderr, flush=True)
        status = 1
    except KeyboardInterrupt:
        status = 130
    finally:
        for process in STARTED_PROCESSES:
            if process.poll() is None:
                process.kill()
                process.wait()
        try:
            print(cluster("list", timeout=30).rstrip(), file=sys.stderr, flush=True)
        except Exception:  # the cluster may be half gone already
            pass
        subprocess.run([CLUSTER, "down"], capture_output=True, timeout=60)
    sys.exit(status)
