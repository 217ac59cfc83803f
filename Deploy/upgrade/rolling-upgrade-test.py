#!/usr/bin/env python3
"""The rolling upgrade, done as docs/upgrading.md says, with the previous release's own
binaries (Deploy/upgrade/previous-release names its tag and commit; built here from that
commit, kept in .local/previous-release/ for the next run) and this checkout's:

  1. The previous release migrates an empty database and serves; appstore-sim's customers
     (v1 and v2 notifications) agree with it.
  2. This release's `subscriptionctl migrate` runs while notifications stream into the old
     process; the old process stays ready and its customers agree with it, on the newer
     schema. Another old process started then (a rollback) serves too, naming the newer
     migrations in its startup warning.
  3. This release's subscriptiond starts beside it, taking intake only; notifications go to
     both in turn, like instances behind a load balancer, and the old release's worker
     processes what either stored (this release's v2 bodies without their certificate
     chains included); every customer agrees.
  4. The old process stops gracefully; a process of this release with its worker takes its
     place; every customer agrees, and every notification acknowledged is processed.

Its last line: `upgrade: VERSION (commit C) took N notifications on schema S (it migrated to
S0), then served beside VERSION (commit C2) (M between them; its worker processed K v2 bodies
this release stored) and handed over; T processed, N/N customers agree`. Needs DATABASE_URL (a server where it
may create a scratch database). Usage: rolling-upgrade-test.py [debug|release]."""
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ha"))
from ha_cluster import ROOT, Failure, free_port, http_status, log, wait_until  # noqa: E402
from ha_cluster import run as run_in
from simulated_apple import simulator_settings, write_apps_config  # noqa: E402

CONFIGURATION = sys.argv[1] if len(sys.argv) > 1 else "debug"
NEW_BIN = os.path.join(ROOT, ".build", CONFIGURATION)
WORK = os.path.join(ROOT, ".local", "rolling-upgrade")
STARTED_PROCESSES = []


def run(*args, env=None, timeout=120, cwd=WORK):
    """ha_cluster's run, in WORK unless told: no executable here finds this checkout's files
    through its working directory."""
    return run_in(*args, env=env, timeout=timeout, cwd=cwd)


def previous_release():
    """(tag, commit) of the previous release, the commit checked to be in this clone."""
    with open(os.path.join(ROOT, "Deploy", "upgrade", "previous-release")) as listing:
        tag, commit = next(line.split() for line in listing if line.strip() and not line.startswith("#"))
    tagged = subprocess.run(["git", "-C", ROOT, "rev-parse", "--verify", "-q", f"{tag}^{{commit}}"], capture_output=True, text=True)
    if tagged.returncode == 0 and tagged.stdout.strip() != commit:
        raise Failure(f"tag {tag} names {tagged.stdout.strip()[:12]}, Deploy/upgrade/previous-release says {commit[:12]}")
    if subprocess.run(["git", "-C", ROOT, "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True).returncode != 0:
        raise Failure(f"{tag}'s commit {commit[:12]} is not in this clone (a shallow clone? `git fetch --unshallow`)")
    return tag, commit


def build_previous(tag, commit):
    """The previous release's subscriptiond and subscriptionctl, built once from its commit (a
    detached worktree, so the build stamps that commit) and laid out as `make install` lays
    them out: PREFIX/bin beside PREFIX/share/subscriptiond with that release's Schema,
    Certificates and Templates, which its executables find there (every executable here runs
    in WORK, so none finds this checkout's through its working directory)."""
    prefix = os.path.join(ROOT, ".local", "previous-release", f"{tag}-{commit[:12]}")
    binaries = os.path.join(prefix, "bin")
    if all(os.path.exists(os.path.join(binaries, name)) for name in ("subscriptiond", "subscriptionctl")):
        return binaries
    source = os.path.join(ROOT, ".local", "previous-release", "src")
    subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", source], capture_output=True)
    shutil.rmtree(source, ignore_errors=True)
    run("git", "-C", ROOT, "worktree", "add", "--detach", source, commit)
    try:
        log(f"building {tag} (commit {commit[:12]}) from the git history; kept in {os.path.relpath(prefix, ROOT)} for the next run")
        started = time.time()
        for product in ("subscriptiond", "subscriptionctl"):
            run("swift", "build", "--product", product, timeout=3600, cwd=source)
        built = run("swift", "build", "--show-bin-path", cwd=source).strip()
        share = os.path.join(prefix, "share", "subscriptiond")
        shutil.rmtree(prefix, ignore_errors=True)
        os.makedirs(binaries)
        for name in ("subscriptiond", "subscriptionctl"):
            shutil.copy2(os.path.join(built, name), os.path.join(binaries, name))
        for name in ("Schema", "Certificates", "Templates"):
            shutil.copytree(os.path.join(source, name), os.path.join(share, name))
        log(f"built {tag} in {time.time() - started:.0f} s")
    finally:
        subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", source], capture_output=True)
        shutil.rmtree(source, ignore_errors=True)
    return binaries


class Instance:
    """One subscriptiond process of one release."""

    def __init__(self, name, binaries, env):
        self.name = name
        self.port = free_port(19600, 19699)
        self.log_path = os.path.join(WORK, f"subscriptiond-{name}.log")
        self.process = subprocess.Popen([os.path.join(binaries, "subscriptiond")], env=dict(env, SUBSCRIPTIOND_PORT=str(self.port)),
                                        stdout=subprocess.DEVNULL, stderr=open(self.log_path, "w"), cwd=WORK)
        STARTED_PROCESSES.append(self.process)
        wait_until(f"{name} ready", 60, self.ready)

    def ready(self):
        return http_status(self.port, "/health/ready") == 200

    @property
    def intake(self):
        return f"http://127.0.0.1:{self.port}/notifications/appstore"

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(60)
        if code != 0:
            raise Failure(f"{self.name} exited {code} on SIGTERM: {self.log_tail()}")

    def log_tail(self):
        with open(self.log_path) as log_file:
            return " | ".join(log_file.read().strip().splitlines()[-5:])


class Upgrade:
    def __init__(self, old_bin, database_url):
        self.old_bin = old_bin
        self.database_url = database_url
        self.token = secrets.token_hex(20)
        self.sim_port = free_port(19700, 19799)
        state = os.path.join(WORK, "sim")
        run(os.path.join(NEW_BIN, "appstore-sim"), "ca", "--state-dir", state, "--out", os.path.join(WORK, "sim-root.pem"))
        config = os.path.join(WORK, "subscriptiond-config.json")
        self.secrets = write_apps_config(config)
        self.state = state
        self.env = dict(os.environ)
        self.env.update(simulator_settings(self.sim_port, os.path.join(WORK, "sim-root.pem")))
        self.env.update({"DATABASE_URL": database_url, "SUBSCRIPTIOND_CONFIG": config, "ADMIN_TOKEN": self.token, "LOG_LEVEL": "info"})

    def traffic(self, name, seed, targets, check, customers=30, concurrency=2):
        """One appstore-sim run to its end: its check's last line (see start_traffic)."""
        return self.agrees(name, self.start_traffic(name, seed, targets, check, customers, concurrency))

    def start_traffic(self, name, seed, targets, check, customers=30, concurrency=2):
        """An appstore-sim run started: its customers' v1 and v2 notifications, each twice, to
        `targets` in turn; then its check against `check`. The process; `agrees` waits for it."""
        process = subprocess.Popen(
            [os.path.join(NEW_BIN, "appstore-sim"), "run", "--customers", str(customers), "--seed", str(seed), "--name-prefix", name,
             "--notifications-version", "mixed", "--sandbox-share", "0", "--state-dir", self.state,
             *[a for bundle, s in self.secrets.items() for a in ("--secret", f"{bundle}={s}")],
             "--port", str(self.sim_port), "--duplicates", "2", "--shuffle", "--concurrency", str(concurrency),
             "--target", ",".join(t.intake for t in targets), "--check-url", f"http://127.0.0.1:{check.port}",
             "--check-token", self.token, "--check-timeout", "180", "--truth-out", os.path.join(WORK, f"truth-{name}.json")],
            stdout=open(os.path.join(WORK, f"check-{name}.txt"), "w"), stderr=open(os.path.join(WORK, f"appstore-sim-{name}.log"), "w"),
            cwd=WORK)
        STARTED_PROCESSES.append(process)
        return process

    def agrees(self, name, process):
        code = process.wait(600)
        with open(os.path.join(WORK, f"check-{name}.txt")) as out:
            lines = out.read().strip().splitlines()
        with open(os.path.join(WORK, f"appstore-sim-{name}.log")) as sim_log:
            delivered = [line for line in sim_log if "delivered " in line]
        if code != 0 or not lines or "agrees with the simulator" not in lines[-1]:
            raise Failure(f"{name}: appstore-sim exited {code}: {' | '.join(lines[-6:])}")
        log(f"{name}: {delivered[-1].strip() if delivered else ''}; {lines[-1]}")
        return lines[-1]

    def sql(self, statement):
        return run("psql", "-qtAX", self.database_url, "-c", statement, timeout=60).strip()

    def schema(self):
        return self.sql("SELECT max(version) FROM schema_migrations")

    def main(self, tag):
        old_version = run(os.path.join(self.old_bin, "subscriptiond"), "--version").strip()
        new_version = run(os.path.join(NEW_BIN, "subscriptiond"), "--version").strip()
        log(f"previous release: {old_version}; this release: {new_version}")
        run(os.path.join(self.old_bin, "subscriptionctl"), "migrate", env=self.env)
        old_schema = self.schema()
        catalog = os.path.join(WORK, "catalog.json")
        with open(catalog, "w") as out:
            out.write(run(os.path.join(NEW_BIN, "appstore-sim"), "catalog"))
        run(os.path.join(self.old_bin, "subscriptionctl"), "products", "import", catalog, env=self.env)

        old = Instance("previous", self.old_bin, self.env)
        self.traffic("before", 1, [old], old)
        before = self.count()

        # Step 4 of docs/upgrading.md while Apple keeps sending to the old process.
        sender = self.start_traffic("during", 2, [old], old, customers=80, concurrency=1)
        wait_until("notifications streaming to the old process", 30, lambda: self.count() > before + 20, interval=0.2)
        run(os.path.join(NEW_BIN, "subscriptionctl"), "migrate", env=self.env, timeout=600)
        if sender.poll() is not None:
            raise Failure("the notifications stopped before the migration ended: it did not run under traffic")
        new_schema = self.schema()
        if new_schema <= old_schema:
            raise Failure(f"this release's migrate left the schema at {new_schema}: nothing newer than {tag}'s {old_schema} to test against")
        if not old.ready():
            raise Failure(f"{tag} is not ready on schema {new_schema}: {old.log_tail()}")
        self.agrees("during", sender)
        during = self.count()
        # A rollback (step 6): another process of the previous release started on the newer
        # schema serves, naming the newer migrations in its startup warning.
        rollback = Instance("rollback", self.old_bin, self.env)
        rollback.stop()
        with open(rollback.log_path) as log_file:
            if "the database schema is ahead of this release" not in log_file.read():
                raise Failure(f"{tag} started on schema {new_schema} without its warning: {rollback.log_tail()}")
        log(f"{tag} took {during - before} notifications while migrated from {old_schema} to {new_schema} under it, and agrees")

        # Step 5: the new release beside the old one, then the old one stopped. This
        # release's first process takes intake only (WORKER_CONCURRENCY=0), so what it stores
        # in its own form (a v2 body without its certificate chains) is processed by the old
        # release's worker; its second process, with a worker, replaces the old one.
        new = Instance("this", NEW_BIN, dict(self.env, WORKER_CONCURRENCY="0"))
        self.traffic("side-by-side", 3, [old, new], new)
        if not old.ready():
            raise Failure(f"{tag} stopped being ready beside this release: {old.log_tail()}")
        side = self.count()
        # Bodies this release stored (half the length of the longest, which still has its chains).
        compact = int(self.sql(
            "SELECT count(*) FROM notifications WHERE source = 'v2' AND state = 'processed' AND octet_length(body->>'signedPayload') * 2 "
            "< (SELECT max(octet_length(body->>'signedPayload')) FROM notifications WHERE source = 'v2')"))
        if compact == 0:
            raise Failure("no v2 notification stored by this release was processed by the previous release's worker")
        old.stop()
        worker = Instance("this-with-worker", NEW_BIN, self.env)
        last = self.traffic("after", 4, [new, worker], worker)
        wait_until("every notification processed", 120,
                   lambda: self.sql("SELECT count(*) FROM notifications WHERE state <> 'processed'") == "0", interval=0.5)
        print(f"upgrade: {release(old_version)} took {during - before} notifications on schema {new_schema} (it migrated to "
              f"{old_schema}), then served beside {release(new_version)} ({side - during} between them; its worker processed "
              f"{compact} v2 bodies this release stored) and handed over; {self.count()} processed, {last.rsplit(': ', 1)[-1]} agree",
              flush=True)

    def count(self):
        return int(self.sql("SELECT count(*) FROM notifications"))


def release(version_line):
    """`0.10.0 (commit f6f042b1399e)` from `subscriptiond 0.10.0 (commit f6f042b1399e)`."""
    return version_line.split(" ", 1)[1]


def main():
    database_url = os.environ.get("DATABASE_URL")
    if not database_url:
        raise Failure("DATABASE_URL must name a PostgreSQL server where a scratch database may be created")
    tag, commit = previous_release()
    old_bin = build_previous(tag, commit)
    admin = database_url.rsplit("/", 1)[0] + "/postgres"
    scratch = f"rolling_upgrade_{os.getpid()}"
    run("psql", "-q", admin, "-c", f"DROP DATABASE IF EXISTS {scratch}", "-c", f"CREATE DATABASE {scratch}")
    try:
        Upgrade(old_bin, database_url.rsplit("/", 1)[0] + "/" + scratch).main(tag)
    finally:
        for process in STARTED_PROCESSES:
            if process.poll() is None:
                process.kill()
                process.wait()
        subprocess.run(["psql", "-q", admin, "-c", f"DROP DATABASE IF EXISTS {scratch} WITH (FORCE)"], capture_output=True)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    status = 0
    try:
        main()
    except (Failure, subprocess.TimeoutExpired, subprocess.CalledProcessError) as error:
        print(f"rolling-upgrade-test: FAILED: {error} (logs in {os.path.relpath(WORK, ROOT)})", file=sys.stderr, flush=True)
        status = 1
    except KeyboardInterrupt:
        status = 130
    sys.exit(status)
