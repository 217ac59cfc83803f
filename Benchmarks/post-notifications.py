#!/usr/bin/env python3
"""POSTs one JSON notification body per stdin line to URL, CONCURRENCY at a time, over
keep-alive connections; prints the count per HTTP status and exits 1 unless all got 200.

    appstore-sim notifications ... | Benchmarks/post-notifications.py URL [CONCURRENCY]
"""
import collections
import http.client
import sys
import threading
import urllib.parse


def main() -> int:
    url = urllib.parse.urlsplit(sys.argv[1])
    concurrency = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    bodies = [line.encode() for line in sys.stdin.read().splitlines() if line.strip()]
    statuses = collections.Counter()
    lock = threading.Lock()
    next_index = [0]

    def worker() -> None:
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        while True:
            with lock:
                index = next_index[0]
                next_index[0] += 1
            if index >= len(bodies):
                break
            try:
                connection.request("POST", url.path, bodies[index], {"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                connection.close()
                connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
                status = "error"
            with lock:
                statuses[status] += 1
        connection.close()

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(" ".join(f"HTTP {status}×{count}" for status, count in sorted(statuses.items(), key=str)), file=sys.stderr)
    return 0 if statuses.get(200, 0) == len(bodies) else 1


if __name__ == "__main__":
    sys.exit(main())
