#!/usr/bin/env python3
"""The restore drill: docs/operations.md, "Backup and restore", followed step by step on a
PostgreSQL cluster of its own (.local/restore-drill), with appstore-sim as Apple and a
webhook receiver as the app's backend.

  1. A cluster archiving its WAL as the procedure configures it; subscriptiond on it.
  2. Traffic: the older part of a simulated population's v2 notifications, posted as Apple
     would; then the base backup (`pg_basebackup` as written); then more traffic.
  3. The moment to restore to; then the newest notifications (the last two days of the
     population's history), and the simulator's check (it links every customer through
     POST /v1/receipts and compares): every customer agrees; every webhook delivered.
  4. The loss: subscriptiond and PostgreSQL killed, the data directory gone.
  5. The restore as written: the base backup, restore_command, recovery_target_time,
     recovery.signal; subscriptiond started; `notifications backfill --since` three days
     before the moment, for both environments, against the simulator's history.
  6. The simulator's check again: every customer agrees. Every webhook event the receiver
     got before the loss is in the restored database under the same id, and every event
     there was delivered: nothing lost, nothing duplicated beyond its id.

Its last line: `restore: N customers agree, E webhook events, 0 lost, 0 duplicated beyond
their id`. Usage: restore-drill.py [debug|release] (the build whose executables it runs)."""
import datetime
import http.client
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ha"))
from ha_cluster import ROOT, Failure, free_port, http_status, log, run, wait_until  # noqa: E402
from ha_recorders import WebhookReceiver  # noqa: E402
from simulated_apple import simulator_settings, write_apps_config  # noqa: E402

CONFIGURATION = sys.argv[1] if len(sys.argv) > 1 else "debug"
BIN = os.path.join(ROOT, ".build", CONFIGURATION)
WORK = os.path.join(ROOT, ".local", "restore-drill")
DATA = os.path.join(WORK, "data")
BACKUP = os.path.join(WORK, "backup")  # the procedure's /backup
CUSTOMERS = int(os.environ.get("RESTORE_DRILL_CUSTOMERS", "40"))
DAY_MS = 86_400_000
IS_ROOT = os.geteuid() == 0
STARTED_PROCESSES = []


def as_postgres(*args):
    """A PostgreSQL command as the server's owner (initdb refuses root)."""
    return ["runuser", "-u", "postgres", "--", *args] if IS_ROOT else list(args)


def pg(name):
    versions = sorted((d for d in os.listdir("/usr/lib/postgresql") if d.isdigit()), key=int) if os.path.isdir("/usr/lib/postgresql") else []
    for version in reversed(versions):
        path = f"/usr/lib/postgresql/{version}/bin/{name}"
        if os.path.exists(path):
            return path
    return shutil.which(name) or name


class Cluster:
    """The database machine: one PostgreSQL cluster archiving to BACKUP/wal."""

    def __init__(self):
        self.port = free_port(25633, 25699)
        self.url = f"postgresql://subscriptiond@127.0.0.1:{self.port}/subscriptiond"

    def create(self):
        run(*as_postgres(pg("initdb"), "-D", DATA, "-U", "subscriptiond", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"))
        # The procedure's postgresql.conf lines, with /backup where this drill keeps it.
        self.append_conf(f"""
wal_level = replica
archive_mode = on
archive_command = 'test ! -f {BACKUP}/wal/%f && cp %p {BACKUP}/wal/%f'
archive_timeout = 60
""")
        self.start()
        run("psql", "-q", f"postgresql://subscriptiond@127.0.0.1:{self.port}/postgres", "-c", "CREATE DATABASE subscriptiond")

    def append_conf(self, text):
        run(*as_postgres("sh", "-c", f"cat >> '{DATA}/postgresql.conf'"), input_text=text)

    def start(self):
        run(*as_postgres(pg("pg_ctl"), "-D", DATA, "-l", os.path.join(WORK, "postgres.log"), "-w", "-t", "300",
                         "-o", f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''", "start"), timeout=320)

    def kill(self):
        run(*as_postgres(pg("pg_ctl"), "-D", DATA, "-m", "immediate", "-w", "stop"))

    def sql(self, statement):
        return run("psql", "-qtAX", self.url, "-c", statement, timeout=60).strip()


def post(port, body):
    """One notification posted as Apple posts it; the intake's status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("POST", "/notifications/appstore", body, {"Content-Type": "application/json"})
    status = connection.getresponse().status
    connection.close()
    return status


def signed_date_ms(body):
    import base64
    payload = json.loads(body)["signedPayload"].split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["signedDate"]


class Drill:
    def __init__(self):
        self.cluster = Cluster()
        self.port = free_port(19600, 19699)
        self.sim_port = free_port(19700, 19799)
        self.hook_port = free_port(19900, 19999)
        self.token = secrets.token_hex(20)
        hook_secret = secrets.token_hex(24)
        self.webhooks = WebhookReceiver(self.hook_port, hook_secret)
        state = os.path.join(WORK, "sim")
        run(os.path.join(BIN, "appstore-sim"), "ca", "--state-dir", state, "--out", os.path.join(WORK, "sim-root.pem"))
        key = dict(line.split("=", 1) for line in run(os.path.join(BIN, "appstore-sim"), "api-key", "--state-dir", state,
                                                      "--out", os.path.join(WORK, "api-key.p8")).split())
        # Both apps of the simulator, each with the API key (the backfill reads their history).
        config = os.path.join(WORK, "subscriptiond-config.json")
        secrets_by_app = write_apps_config(config, api_key={
            "issuer_id": key["APPSTORE_ISSUER_ID"], "key_id": key["APPSTORE_KEY_ID"], "private_key_file": key["APPSTORE_PRIVATE_KEY_FILE"]})
        # Every scenario ends ten minutes ago, so nothing in it ends while the drill runs and
        # both runs of the simulator (before the loss and after the restore) are the same.
        end_ms = int(time.time() * 1000) - 10 * 60 * 1000
        self.end_ms = end_ms
        self.population = ["--customers", str(CUSTOMERS), "--seed", "4343", "--name-prefix", "drill", "--end-ms", str(end_ms),
                           "--sandbox-share", "0", "--notifications-version", "2", "--state-dir", state,
                           *[a for bundle, s in secrets_by_app.items() for a in ("--secret", f"{bundle}={s}")]]
        self.env = dict(os.environ)
        self.env.update(simulator_settings(self.sim_port, os.path.join(WORK, "sim-root.pem")))
        self.env.update({
            "DATABASE_URL": self.cluster.url, "SUBSCRIPTIOND_CONFIG": config, "ADMIN_TOKEN": self.token,
            "SUBSCRIPTIOND_PORT": str(self.port), "LOG_LEVEL": "info",
            "WEBHOOK_URL": f"http://127.0.0.1:{self.hook_port}/hooks", "WEBHOOK_SECRET": hook_secret,
        })
        self.server = None
        self.simulator = None

    # Processes ------------------------------------------------------------------------------

    def start_subscriptiond(self, name):
        self.server = subprocess.Popen([os.path.join(BIN, "subscriptiond")], env=self.env, stdout=subprocess.DEVNULL,
                                       stderr=open(os.path.join(WORK, f"subscriptiond-{name}.log"), "w"))
        STARTED_PROCESSES.append(self.server)
        wait_until("subscriptiond ready", 60, lambda: self.ready())

    def ready(self):
        return http_status(self.port, "/health/ready") == 200

    def kill_subscriptiond(self):
        self.server.kill()
        self.server.wait()

    def simulator_check(self, name, timeout):
        """`appstore-sim run` sending nothing (every v2 notification "dropped": what Apple sent
        is already posted, or is in its history), serving verifyReceipt and the App Store
        Server API, then checking every customer against subscriptiond."""
        self.simulator = subprocess.Popen(
            [os.path.join(BIN, "appstore-sim"), "run", *self.population, "--drop-rate", "1", "--port", str(self.sim_port),
             "--target", f"http://127.0.0.1:{self.port}/notifications/appstore",
             "--check-url", f"http://127.0.0.1:{self.port}", "--check-token", self.token, "--check-timeout", str(timeout),
             "--truth-out", os.path.join(WORK, f"truth-{name}.json")],
            stdout=open(os.path.join(WORK, f"check-{name}.txt"), "w"), stderr=open(os.path.join(WORK, f"appstore-sim-{name}.log"), "w"))
        STARTED_PROCESSES.append(self.simulator)
        wait_until("appstore-sim listening", 30, lambda: self.simulator_listening())

    def simulator_listening(self):
        return http_status(self.sim_port, "/control/stats") == 200

    def simulator_agrees(self, name):
        code = self.simulator.wait(600)
        with open(os.path.join(WORK, f"check-{name}.txt")) as out:
            check = out.read().strip().splitlines()
        last = check[-1] if check else ""
        if code != 0 or "agrees with the simulator" not in last:
            raise Failure(f"{name}: appstore-sim's check exited {code}: {' | '.join(check[-6:])}")
        return last

    # Traffic -------------------------------------------------------------------------------

    def post_all(self, bodies):
        for body in bodies:
            status = post(self.port, body)
            if status != 200:
                raise Failure(f"intake answered {status} to a notification")
        self.wait_processed()

    def wait_processed(self):
        wait_until("every notification processed", 180,
                   lambda: self.cluster.sql("SELECT count(*) FROM notifications WHERE state IN ('pending', 'retrying')") == "0",
                   interval=0.5)

    def wait_webhooks_delivered(self):
        """Until nothing is left to tell: every entitlement review due is done, and every event delivered."""
        wait_until("every entitlement review done and every webhook event delivered", 180,
                   lambda: self.cluster.sql(
                       "SELECT (SELECT count(*) FROM entitlement_reviews WHERE due_at <= now()) "
                       "+ (SELECT count(*) FROM webhook_events WHERE state <> 'delivered')") == "0", interval=0.5)

    def stored_event_ids(self):
        return set(filter(None, self.cluster.sql("SELECT event_id FROM webhook_events").splitlines()))

    # The drill -----------------------------------------------------------------------------

    def main(self):
        for path in (BACKUP, os.path.join(BACKUP, "wal"), os.path.join(BACKUP, "base")):
            os.makedirs(path)
            if IS_ROOT:
                shutil.chown(path, "postgres")
        self.cluster.create()
        run(os.path.join(BIN, "subscriptionctl"), "migrate", env=self.env)
        # The simulator's catalog, so entitlements and eligibility can agree too.
        catalog = os.path.join(WORK, "catalog.json")
        with open(catalog, "w") as out:
            out.write(run(os.path.join(BIN, "appstore-sim"), "catalog"))
        run(os.path.join(BIN, "subscriptionctl"), "products", "import", catalog, env=self.env)
        bodies = [line for line in run(os.path.join(BIN, "appstore-sim"), "notifications", *self.population).splitlines() if line.strip()]
        older = [b for b in bodies if signed_date_ms(b) < self.end_ms - 30 * DAY_MS]
        middle = [b for b in bodies if self.end_ms - 30 * DAY_MS <= signed_date_ms(b) < self.end_ms - 2 * DAY_MS]
        newest = [b for b in bodies if signed_date_ms(b) >= self.end_ms - 2 * DAY_MS]
        log(f"{CUSTOMERS} customers, {len(bodies)} v2 notifications: {len(older)} older than 30 days, {len(middle)} between, "
            f"{len(newest)} in the last two days")
        if not (older and middle and newest):
            raise Failure("the population's history does not fill all three phases")

        self.start_subscriptiond("before")
        # verifyReceipt and the API while notifications are applied (nothing sent).
        serve = subprocess.Popen([os.path.join(BIN, "appstore-sim"), "serve", *self.population, "--port", str(self.sim_port)],
                                 stdout=subprocess.DEVNULL, stderr=open(os.path.join(WORK, "appstore-sim-serve.log"), "w"))
        STARTED_PROCESSES.append(serve)
        wait_until("appstore-sim serving", 30, lambda: self.simulator_listening())
        self.post_all(older)
        log(f"posted {len(older)}; base backup")
        base = os.path.join(BACKUP, "base", datetime.date.today().isoformat())
        run(*as_postgres(pg("pg_basebackup"), "-h", "127.0.0.1", "-p", str(self.cluster.port), "-U", "subscriptiond",
                         "-D", base, "-X", "fetch", "--checkpoint=fast"), timeout=300)
        self.post_all(middle)
        moment = self.cluster.sql("SELECT now()")
        log(f"posted {len(middle)}; the moment to restore to: {moment}")
        time.sleep(1)
        self.post_all(newest)
        serve.terminate()
        serve.wait(30)
        self.simulator_check("before", 120)
        before = self.simulator_agrees("before")
        self.wait_webhooks_delivered()
        delivered_before = set(self.webhooks.arrivals())
        log(f"before the loss: {before}; {len(delivered_before)} webhook events delivered")
        # The archive reaches past the moment (archive_timeout would within a minute).
        segment = self.cluster.sql("SELECT pg_walfile_name(pg_switch_wal())")
        wait_until("WAL archived past the moment", 120,
                   lambda: self.cluster.sql("SELECT coalesce(last_archived_wal, '') FROM pg_stat_archiver") >= segment, interval=0.5)

        log("the loss: subscriptiond and PostgreSQL killed, the data directory gone")
        self.kill_subscriptiond()
        self.cluster.kill()
        shutil.move(DATA, DATA + ".lost")

        # Step 3: the base backup into an empty data directory, the recovery settings,
        # recovery.signal; start; wait for writes; remove the three lines.
        run(*as_postgres("cp", "-a", base, DATA))
        run(*as_postgres("chmod", "0700", DATA))
        self.cluster.append_conf(f"""
restore_command = 'cp {BACKUP}/wal/%f %p'
recovery_target_time = '{moment}'
recovery_target_action = 'promote'
""")
        run(*as_postgres("touch", os.path.join(DATA, "recovery.signal")))
        self.cluster.start()
        wait_until("PostgreSQL promoted", 120, lambda: self.cluster.sql("SELECT pg_is_in_recovery()") == "f", interval=0.5)
        with open(os.path.join(DATA, "postgresql.conf")) as conf:
            kept = [line for line in conf if not line.startswith(("restore_command", "recovery_target_time", "recovery_target_action"))]
        run(*as_postgres("sh", "-c", f"cat > '{DATA}/postgresql.conf'"), input_text="".join(kept))
        restored = int(self.cluster.sql("SELECT count(*) FROM notifications"))
        log(f"restored to the moment: {restored} of {len(bodies)} notifications stored")
        if restored >= len(bodies):
            raise Failure("the restore did not go back to the moment: every notification is still there")

        # Steps 4 and 5: subscriptiond; the backfill from three days before the moment, in
        # both environments, while the simulator (Apple) serves its history.
        self.start_subscriptiond("after")
        self.simulator_check("after", 300)
        since = (datetime.datetime.fromisoformat(moment) - datetime.timedelta(days=3)).astimezone(datetime.timezone.utc)
        since_text = since.strftime("%Y-%m-%dT%H:%M:%SZ")
        for app in ("com.example.app", "com.example.paidapp"):
            for environment in ("Production", "Sandbox"):
                summary = run(os.path.join(BIN, "subscriptionctl"), "notifications", "backfill", "--since", since_text,
                              "--app", app, "--environment", environment, env=self.env, timeout=300).strip().splitlines()
                log(f"backfill --since {since_text} --app {app} --environment {environment}: {summary[-1] if summary else ''}")
        after = self.simulator_agrees("after")
        self.wait_webhooks_delivered()
        stored = self.stored_event_ids()
        received = set(self.webhooks.arrivals())
        lost = stored - received
        beyond = received - stored
        missing_from_restore = delivered_before - stored
        log(f"after the restore: {after}; {len(stored)} webhook events stored, {len(received)} distinct ids received, "
            f"{self.webhooks.deliveries} deliveries")
        new_types = self.cluster.sql(
            "SELECT coalesce(string_agg(type || ' ×' || n, ', '), 'none') FROM (SELECT type, count(*) AS n FROM webhook_events "
            f"WHERE NOT event_id = ANY ('{{{','.join(sorted(delivered_before))}}}'::text[]) GROUP BY type ORDER BY type) t")
        log(f"events first written after the restore: {new_types}")
        if lost or beyond or missing_from_restore or self.webhooks.bad_signatures:
            raise Failure(f"webhooks: {len(lost)} stored but never received, {len(beyond)} received under ids the restored "
                          f"database does not hold (duplicates beyond their id, e.g. {sorted(beyond)[:3]}), "
                          f"{self.webhooks.bad_signatures} with a bad signature")
        agreeing = after.rsplit(": ", 1)[-1].split()[0]  # "subscriptiond agrees with the simulator: 40/40 customers"
        print(f"restore: {agreeing} customers agree, {len(stored)} webhook events, 0 lost, 0 duplicated beyond their id", flush=True)


def cleanup():
    for process in STARTED_PROCESSES:
        if process.poll() is None:
            process.kill()
            process.wait()
    if os.path.exists(os.path.join(DATA, "postmaster.pid")):
        subprocess.run(as_postgres(pg("pg_ctl"), "-D", DATA, "-m", "immediate", "-w", "stop"), capture_output=True, timeout=60)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    if IS_ROOT:
        shutil.chown(WORK, "postgres")
        directory = WORK
        while directory != "/":  # the server reaches its data directory through the checkout's path
            os.chmod(directory, os.stat(directory).st_mode | 0o001)
            directory = os.path.dirname(directory)
    status = 0
    try:
        Drill().main()
    except (Failure, subprocess.TimeoutExpired) as error:
        print(f"restore-drill: FAILED: {error} (logs in {os.path.relpath(WORK, ROOT)})", file=sys.stderr, flush=True)
        status = 1
    except KeyboardInterrupt:
        status = 130
    finally:
        cleanup()
    sys.exit(status)
