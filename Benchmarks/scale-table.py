#!/usr/bin/env python3
"""The table at the end of Benchmarks/scale.sh: every figure of its parts' logs by size.

    python3 Benchmarks/scale-table.py LOG_DIR SIZE...

Reads LOG_DIR/scale-<size>-{reads,intake,drain}.log and prints, for each figure, its value
at each size (a ratio to the ceiling of its own run, with its p99 where it has one), then
the largest size's ratio over the smallest's; goal: within 0.9, so at least 0.9 where higher
is better (reads, intake, drain rate) and at most 1/0.9 where lower is (drain CPU).
"""
import re
import sys

from bench_logs import READS, read_log, search


def figures(directory, size):
    """Maps a row name to (value, shown text, higher_is_better) for one size."""
    reads = read_log(directory, f"scale-{size}-reads")
    intake = read_log(directory, f"scale-{size}-intake")
    drain = read_log(directory, f"scale-{size}-drain")
    rows = {}
    loaded = search(r"^loaded subscribers \d+ to \d+ in (\d+)s; database (.+)$", reads)
    if loaded:
        rows["subscribers loaded (this step), database size"] = (None, f"{loaded[0]} s, {loaded[1]}", None)
    rebuilt = search(r"^answers rebuilt in (\d+)s: (.+)$", reads)
    if rebuilt:
        rows["answers rebuild"] = (None, f"{rebuilt[0]} s ({rebuilt[1]})", None)
    inbox = search(r"^loaded \d+ notifications in (\d+)s; the inbox takes (.+)$", intake)
    if inbox:
        rows["inbox loaded"] = (None, f"{inbox[0]} s, {inbox[1]}", None)
    for answers, label in (("stored answers", "stored"), ("computed answers", "first read")):
        for _, endpoint in READS:
            found = search(
                r"^reads " + re.escape(endpoint) + r" \(" + answers
                + r"\): (\d+)/s p99 ([\d.]+) ms, (\d+) errors, ceiling (\d+)/s: ratio ([\d.]+)$", reads)
            if found:
                rate, p99, errors, ceiling, ratio = found
                note = f" {errors} errors" if errors != "0" else ""
                rows[f"{endpoint}, {label}"] = (float(ratio), f"{ratio} (p99 {p99} ms{note})", True)
    for version, ceiling in (("v1", "C"), ("v2", "C2")):
        found = search(
            r"^intake " + version + r" with \d+ stored ([\d.]+) notifications/s \(p99 ([\d.]+) ms, non-2xx (\d+)\): vs "
            + ceiling + r" ratio ([\d.]+)", intake)
        if found:
            rate, p99, non2xx, ratio = found
            note = f", {non2xx} non-2xx" if non2xx != "0" else ""
            rows[f"intake {version}, an inbox of as many, vs {ceiling}"] = (float(ratio), f"{ratio} (p99 {p99} ms{note})", True)
    cpu = search(r"^drain CPU per notification .*: (\d+) µs = ([\d.]+) pgbench inserts", drain)
    if cpu:
        rows["drain CPU per notification, pgbench inserts"] = (float(cpu[1]), f"{cpu[1]} ({cpu[0]} µs)", False)
    zero = search(r"^pipeline ceiling \(latency 0\): .* mean (\d+)/s$", drain)
    if zero:
        rows["drain at 0 ms, notifications/s"] = (float(zero[0]), zero[0], True)
    ratio = search(r"^drain at \d+ ms / drain at 0 ms: ratio ([\d.]+)", drain)
    if ratio:
        rows["drain at 200 ms / at 0 ms"] = (float(ratio[0]), ratio[0], True)
    return rows


def main():
    directory, sizes = sys.argv[1], sys.argv[2:]
    by_size = {size: figures(directory, size) for size in sizes}
    names = []
    for size in sizes:
        names += [name for name in by_size[size] if name not in names]
    header = ["figure"] + [f"{int(size):,}" for size in sizes]
    if len(sizes) > 1:
        header.append(f"{int(sizes[-1]):,} / {int(sizes[0]):,}")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name in names:
        cells = [by_size[size].get(name, (None, "—", None))[1] for size in sizes]
        if len(sizes) > 1:
            first, last = by_size[sizes[0]].get(name), by_size[sizes[-1]].get(name)
            if first and last and first[0] and last[0] is not None and first[2] is not None:
                change = last[0] / first[0]
                within = change >= 0.9 if first[2] else change <= 1 / 0.9
                cells.append(f"{change:.2f} ({'within 0.9' if within else 'not within 0.9'})")
            else:
                cells.append("")
        print("| " + " | ".join([name] + cells) + " |")


if __name__ == "__main__":
    main()
