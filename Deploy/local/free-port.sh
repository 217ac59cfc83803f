#!/usr/bin/env bash
# Prints the first port of FIRST..LAST (default 25432..25632) on which nothing listens on 127.0.0.1.
#   Deploy/local/free-port.sh 18000 18100
set -euo pipefail
for port in $(seq "${1:-25432}" "${2:-25632}"); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        echo "$port"
        exit 0
    fi
done
echo "free-port.sh: no free port between ${1:-25432} and ${2:-25632}" >&2
exit 1
