#!/usr/bin/env python3
"""The goal table at the end of `make bench`: each goal beside the ceiling of its own run,
met or not, and what bounds it, from the parts' logs.

    python3 Benchmarks/goals.py LOG_DIR

Reads LOG_DIR/{intake,reads,drain}.log. "What bounds it" is the process that spent the most
CPU per request (subscriptiond, PostgreSQL or the load generator: on two saturated cores the
rate is the cores over the sum) and, when the part ran with BENCH_PROFILE=1, that process's
costliest functions in the profile taken during the same run.
"""
import re
import sys

from bench_logs import READS, read_log, search


def process_of(command):
    """The process a profile line's thread belongs to."""
    if command.startswith("postgres"):
        return "PostgreSQL"
    if command in ("wrk", "pgbench"):
        return "load generator"
    if command.startswith("appstore-sim"):
        return "appstore-sim"
    if command in ("swapper", "perf") or command.startswith(("kworker", "ksoftirqd", "rcu_", "migration", "psql")):
        return None
    return "subscriptiond"  # its threads: NIO event loops, the concurrency pool, the poller


def profile_top(log, title, process, count=4):
    """The costliest functions of `process` in the profile section `title` of `log`, each
    summed over the process's threads."""
    section = re.search(r"^== profile: " + re.escape(title) + r" \(.*\n((?: +[0-9.]+%.*\n?)*)", log, re.MULTILINE)
    if not section:
        return ""
    totals = {}
    for line in section.group(1).splitlines():
        fields = line.split(None, 4)
        if len(fields) < 5 or process_of(fields[1]) != process:
            continue
        symbol = fields[4].removeprefix("[.] ").removeprefix("[k] ").strip()[:70]
        totals[symbol] = totals.get(symbol, 0.0) + float(fields[0].rstrip("%"))
    top = sorted(totals.items(), key=lambda item: -item[1])[:count]
    return "; profile: " + ", ".join(f"{symbol} {share:.1f}%" for symbol, share in top) if top else ""


def cpu_line(log, name):
    """The line `name: …` of a part's result that gives a run's CPU per request, or ""."""
    found = search(r"^(" + re.escape(name) + r": .*)$", log)
    return found[0] if found else ""


def bound(costs, log, title):
    """'<process> N of T µs' for the process that spent most CPU per request, with its profile."""
    if not costs:
        return "—"
    shares = [(float(us), name.strip()) for name, us in re.findall(r"([A-Za-z][\w -]*?) (\d+) µs", costs)]
    total = search(r"(\d+) µs of CPU per (?:request|notification)", costs)
    if not shares:
        return "—"
    us, name = max(shares)
    process = {"wrk": "load generator", "pgbench": "load generator"}.get(name, name)
    return f"{name} {us:.0f} of {total[0] if total else '?'} µs per request{profile_top(log, title, process)}"


def row(goal, ceiling, measured, target, met, bounded):
    print(f"| {goal} | {ceiling} | {measured} | {target} | {'met' if met else 'not met'} | {'' if met else bounded} |")


def intake_rows(log):
    ceilings = search(r"^ceilings: H ([\d.]+)/s, P ([\d.]+)/s, E (\d+)/s; C = .* = (\d+)/s, C2 = .* = (\d+)/s", log)
    if not ceilings:
        return
    health, insert, verify, c1, c2 = ceilings
    found = search(r"^intake v2 ([\d.]+) accepted notifications/s \(2xx only; (\d+) sent, non-2xx (\d+).*?p99 ([\d.]+) ms.*ratio ([\d.]+) \(goal", log)
    if found:
        rate, sent, non2xx, p99, ratio = found
        row("v2 intake", f"C2 {c2}/s (H {float(health):.0f}, P {float(insert):.0f}, E {verify})",
            f"{float(rate):.0f}/s, p99 {p99} ms, {non2xx} non-2xx: **{ratio}**", "≥ 0.8, p99 ≤ 10 ms, no non-2xx",
            float(ratio) >= 0.8 and float(p99) <= 10 and non2xx == "0",
            bound(cpu_line(log, "intake v2"), log, "intake v2"))
    # Each v1 run: its label, and its result line with the rate, p99, non-2xx and ratio named.
    runs = [("made-up bodies, tuned settings", "v1",
             r"^intake v1 (?P<rate>[\d.]+) accepted notifications/s \(2xx only; \d+ sent, non-2xx (?P<non2xx>\d+).*?"
             r"p99 (?P<p99>[\d.]+) ms.*ratio (?P<ratio>[\d.]+) \(goal")]
    for settings in ("default", "tuned"):
        for kind, what in (("sim", "distinct notifications"), ("sim-one", "one subscription's notifications")):
            runs.append((f"appstore-sim's bodies, {what}, {settings} settings", f"v1-{kind}-{settings}",
                         r"^intake v1, appstore-sim's bodies, " + re.escape(what) + ", " + settings
                         + r" settings: (?P<rate>[\d.]+) notifications/s \(p99 (?P<p99>[\d.]+) ms, non-2xx (?P<non2xx>\d+)\): "
                         r"vs C \d+/s ratio (?P<ratio>[\d.]+)"))
    for label, run, pattern in runs:
        match = re.search(pattern, log, re.MULTILINE)
        if not match:
            continue
        rate, p99, non2xx, ratio = match["rate"], match["p99"], match["non2xx"], match["ratio"]
        row(f"v1 intake, worker off, {label}", f"C {c1}/s", f"{float(rate):.0f}/s, p99 {p99} ms, {non2xx} non-2xx: **{ratio}**",
            "≥ 0.9, p99 ≤ 10 ms, no non-2xx", float(ratio) >= 0.9 and float(p99) <= 10 and non2xx == "0",
            bound(cpu_line(log, f"intake {run}"), log, f"intake {run}"))
    worker = search(r"^intake v1 with the worker on and draining \d+ of appstore-sim's: ([\d.]+) notifications/s \(p99 ([\d.]+) ms, "
                    r"non-2xx (\d+);.*vs the worker off \(step 2\) ratio ([\d.]+)", log)
    if worker:
        rate, p99, non2xx, ratio = worker
        row("v1 intake, worker on and draining, against worker off", "the worker-off run",
            f"{float(rate):.0f}/s, p99 {p99} ms, {non2xx} non-2xx: **{ratio}**", "p99 ≤ 10 ms, no non-2xx",
            float(p99) <= 10 and non2xx == "0",
            bound(cpu_line(log, "intake v1 with the worker on (its draining included)"), log, "intake v1-worker"))


def reads_rows(log):
    header = search(r"^== result \((\d+) subscribers, .*; H = ([\d.]+)/s, S = ([\d.]+)/s\)", log)
    if not header:
        return
    users, health, select = header
    for answers, goal, target, ratio_goal, p99_goal in (
        ("stored answers", "stored read", "≥ 0.8, p99 ≤ 5 ms", 0.8, 5.0),
        ("computed answers", "first read after a change", "≥ 0.5", 0.5, None),
    ):
        for key, label in READS:
            found = search(r"^reads " + re.escape(label) + r" \(" + answers
                           + r"\): (\d+)/s p99 ([\d.]+) ms, (\d+) errors, ceiling (\d+)/s: ratio ([\d.]+)$", log)
            if not found:
                continue
            rate, p99, errors, ceiling, ratio = found
            run = key if answers == "stored answers" else f"{key}-computed"
            met = float(ratio) >= ratio_goal and (p99_goal is None or float(p99) <= p99_goal) and errors == "0"
            row(f"{goal} at {int(users):,}: {label}", f"{ceiling}/s (H {float(health):.0f}, S {float(select):.0f})",
                f"{rate}/s, p99 {p99} ms: **{ratio}**", target, met, bound(cpu_line(log, run), log, f"reads {run}"))


def drain_rows(log):
    cpu = search(r"^drain CPU per notification .*: (\d+) µs = ([\d.]+) pgbench inserts of (\d+) µs", log)
    title = search(r"^== profile: (drain at 0 ms[^(]*) \(", log)
    statements = search(r"^latency 0 ms: PostgreSQL ran ([\d.]+) statements per notification, (\d+) µs", log)
    costliest = re.search(r"^== statements of the drain at 0 ms.*\n((?:[\d.]+ \| .*\n?)*)", log, re.MULTILINE)
    if cpu:
        us, inserts, insert = cpu
        bounded = bound(cpu_line(log, "latency 0, last run"), log, title[0].strip() if title else "")
        if statements:
            bounded += f"; PostgreSQL ran {statements[0]} statements per notification"
            if costliest:
                top = [line.split(" | ") for line in costliest.group(1).splitlines()[:3]]
                bounded += ", costliest: " + ", ".join(f"{q[3][:50]}… {q[1]} µs" for q in top if len(q) == 4)
        row("drain CPU per notification", f"one pgbench insert: {insert} µs", f"{us} µs: **{inserts}** inserts", "≤ 4",
            float(inserts) <= 4, bounded)
    ratio = search(r"^drain at (\d+) ms / drain at 0 ms: ratio ([\d.]+)", log)
    rates = search(r"^latency \d+ ms: .* mean (\d+)/s", log)
    ceiling = search(r"^pipeline ceiling \(latency 0\): .* mean (\d+)/s$", log)
    if ratio and rates and ceiling:
        row(f"drain at {ratio[0]} ms / drain at 0 ms", f"{ceiling[0]}/s at 0 ms", f"{rates[0]}/s: **{ratio[1]}**", "≥ 0.9",
            float(ratio[1]) >= 0.9, "not profiled: the 0 ms run's profile is above")
    memory = search(r"^drain \d+ notifications/s vs ceiling .* peak RSS ([\d.]+) MB \(limit (\d+)\)", log)
    if memory:
        peak, limit = memory
        row("drain peak RSS", "—", f"**{peak} MB**", f"≤ {limit} MB", float(peak) <= float(limit),
            "subscriptiond's VmHWM through the drain at 200 ms; what held it: docs/performance.md §3")


def main():
    directory = sys.argv[1]
    print("| goal | ceiling (same run) | measured | target | met | what bounds it (CPU per request; profile, % of all samples) |")
    print("|---|---|---|---|---|---|")
    intake_rows(read_log(directory, "intake"))
    reads_rows(read_log(directory, "reads"))
    drain_rows(read_log(directory, "drain"))


if __name__ == "__main__":
    main()
