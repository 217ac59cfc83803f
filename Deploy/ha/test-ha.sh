#!/usr/bin/env bash
# `make test-ha`: installs what is missing (patroni, etcd, iptables), builds the executables,
# and runs Deploy/ha/test_ha.py, which starts the Patroni cluster, subscriptiond and
# appstore-sim, loses the primary four ways, and stops everything it started.
# Its log (cluster layout, timings, every check) is also kept in .local/test-ha/test-ha.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(id -u)" -eq 0 ] || { echo "test-ha: run as root (the cluster's nodes live in network namespaces)" >&2; exit 1; }
Deploy/local/install-deps.sh
Deploy/ha/cluster.sh deps
swift build ${BUILD_FLAGS:-}
mkdir -p .local/test-ha
HA_BIN="$(swift build --show-bin-path ${BUILD_FLAGS:-})" python3 -u Deploy/ha/test_ha.py 2>&1 | tee .local/test-ha/test-ha.log
exit "${PIPESTATUS[0]}"
