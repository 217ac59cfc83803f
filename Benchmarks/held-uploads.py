#!/usr/bin/env python3
"""RSS of a running subscriptiond while N connections hold large intake uploads open.

Each connection declares `Content-Length: --declared` on POST /notifications/appstore, sends
`--sent` bytes of the body in 256 KiB pieces (50 ms apart) and then holds the connection
without sending the rest. Prints VmRSS of --pid before and (the peak) during, and how the
connections were answered meanwhile (issue 37, item 5: INTAKE_MAX_INFLIGHT_BYTES).

    Benchmarks/held-uploads.py --pid PID --port PORT [--connections 64] [--declared 4194304] [--sent 2097152]
"""
import argparse
import socket
import threading
import time


def rss(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise SystemExit(f"no VmRSS for pid {pid}")


def upload(port, declared, sent, sockets, index):
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    sockets[index] = connection
    head = (
        "POST /notifications/appstore HTTP/1.1\r\nHost: subscriptiond\r\nContent-Type: application/json\r\n"
        f"Content-Length: {declared}\r\n\r\n" + '{"latest_receipt":"'
    ).encode()
    try:
        connection.sendall(head)
        piece = b"A" * (256 * 1024)
        remaining = sent
        while remaining > 0:
            connection.sendall(piece[: min(len(piece), remaining)])
            remaining -= len(piece)
            time.sleep(0.05)
    except OSError:
        pass  # refused and closed by the server: its answer is read below


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--declared", type=int, default=4 * 1024 * 1024)
    parser.add_argument("--sent", type=int, default=2 * 1024 * 1024)
    arguments = parser.parse_args()

    before = rss(arguments.pid)
    sockets = [None] * arguments.connections
    threads = [
        threading.Thread(target=upload, args=(arguments.port, arguments.declared, arguments.sent, sockets, index))
        for index in range(arguments.connections)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    during = before
    for _ in range(20):
        during = max(during, rss(arguments.pid))
        time.sleep(0.1)

    answers = {}
    for connection in sockets:
        if connection is None:
            answers["not connected"] = answers.get("not connected", 0) + 1
            continue
        connection.settimeout(0.2)
        try:
            status = connection.recv(64).split(b"\r\n")[0].decode() or "closed"
        except socket.timeout:
            status = "no answer yet (held)"
        except OSError as error:
            status = f"error {error.errno}"
        answers[status] = answers.get(status, 0) + 1
        connection.close()
    mib = 1024 * 1024
    print(
        f"{arguments.connections} connections declaring {arguments.declared} bytes, {arguments.sent} sent each: "
        f"VmRSS {before / mib:.1f} MiB before, {during / mib:.1f} MiB during (+{(during - before) / mib:.1f} MiB)"
    )
    for status, count in sorted(answers.items()):
        print(f"  {count:3d} × {status}")


if __name__ == "__main__":
    main()
