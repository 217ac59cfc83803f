#!/usr/bin/env bash
# Holds the unit's sandbox to a score: `systemd-analyze security` (offline, no running
# systemd needed) must rate Deploy/systemd/subscriptiond.service at MAX or better (lower
# is safer; 0 is fully locked down, 10 is unprotected). The unit's own syntax is checked on
# the way. Called by `make test` through Tests/ServerTests/DeployFilesTests.swift.
set -euo pipefail

max="${1:-2.0}"
unit="$(cd "$(dirname "$0")" && pwd)/subscriptiond.service"

command -v systemd-analyze >/dev/null 2>&1 \
    || { echo "check-unit: systemd-analyze is missing (INSTALL_TEST_TOOLS=1 Deploy/local/install-deps.sh installs systemd)" >&2; exit 1; }

report="$(systemd-analyze security --offline=true --no-pager "$unit" 2>&1)" \
    || { echo "$report" >&2; echo "check-unit: systemd-analyze security failed on $unit" >&2; exit 1; }
last="$(printf '%s\n' "$report" | grep 'Overall exposure level' | tail -n 1)"
score="$(printf '%s\n' "$last" | sed -n 's/.*: \([0-9][0-9.]*\) .*/\1/p')"
[ -n "$score" ] || { echo "$report" >&2; echo "check-unit: no score in systemd-analyze's report" >&2; exit 1; }

echo "$last"
if awk -v score="$score" -v max="$max" 'BEGIN { exit !(score > max) }'; then
    printf '%s\n' "$report" | grep '✗' >&2 || true
    echo "check-unit: exposure $score is above $max: each setting marked ✗ above would lower it" >&2
    exit 1
fi
