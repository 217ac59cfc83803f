#!/usr/bin/env bash
# Signed-payload verifications per second on one core: a full chain validation each time
# (what an unseen certificate chain costs) next to the steady state (chain cached, one ES256
# check per JWS), measured in the same run on Apple's genuine TEST notification.
#   Benchmarks/signature-verify.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product signature-bench >/dev/null
binary="$(swift build -c release --show-bin-path)/signature-bench"
fixtures="${FIXTURES:-../shared/fixtures/realworld}"
exec taskset -c 0 "$binary" "$fixtures" "${1:-3}"
