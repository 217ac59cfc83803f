#!/usr/bin/env bash
# `make release`: subscriptiond, subscriptionctl and appstore-sim built with the static Swift
# standard library (the host needs no Swift runtime, only libpq and libcurl), and everything
# they read at run time, in one versioned tarball:
#   dist/subscriptiond-VERSION-linux-ARCH.tar.gz
#     bin/                       the three executables
#     share/subscriptiond/       Schema/, Certificates/, Templates/ (the console), subscriptiond.service,
#                                subscriptiond.env.example, prometheus/, grafana/, caddy/
#     install.sh INSTALL.md LICENSE CHANGELOG.md
#   Deploy/package/build-tarball.sh [release|debug]     (PACKAGE_SCRATCH: the build folder)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
config="${1:-release}"
scratch="${PACKAGE_SCRATCH:-.build-static-$config}"
# The commit --version prints: git's, or what the caller says (a build from a tarball).
if [ -z "${SUBSCRIPTIOND_COMMIT:-}" ]; then
    SUBSCRIPTIOND_COMMIT="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
    if [ "$SUBSCRIPTIOND_COMMIT" != unknown ] && ! git diff --quiet HEAD -- 2>/dev/null; then
        SUBSCRIPTIOND_COMMIT="$SUBSCRIPTIOND_COMMIT-dirty"
    fi
fi
export SUBSCRIPTIOND_COMMIT
for product in subscriptiond subscriptionctl appstore-sim; do
    echo "release: building $product ($config, static Swift standard library)" >&2
    swift build -c "$config" --static-swift-stdlib --scratch-path "$scratch" --product "$product" 2>&1 \
        | grep -v -e "found 1 file(s) which are unhandled" -e "CMakeLists.txt" >&2 || true
    [ -x "$(swift build -c "$config" --scratch-path "$scratch" --show-bin-path)/$product" ] || { echo "release: $product did not build" >&2; exit 1; }
done
bin="$(swift build -c "$config" --scratch-path "$scratch" --show-bin-path)"
version="$("$bin/subscriptiond" --version | awk '{ print $2 }')"
name="subscriptiond-$version-linux-$(uname -m)"
stage="dist/$name"
rm -rf "$stage" "dist/$name.tar.gz"
mkdir -p "$stage/bin" "$stage/share/subscriptiond"
for product in subscriptiond subscriptionctl appstore-sim; do
    cp "$bin/$product" "$stage/bin/"
    [ "$config" = release ] && strip --strip-debug "$stage/bin/$product"
done
cp -R Schema Certificates Templates "$stage/share/subscriptiond/"
cp Deploy/systemd/subscriptiond.service Deploy/subscriptiond.env.example "$stage/share/subscriptiond/"
cp -R Deploy/prometheus Deploy/grafana Deploy/caddy "$stage/share/subscriptiond/"
cp Deploy/package/install.sh Deploy/package/INSTALL.md LICENSE CHANGELOG.md "$stage/"
tar -C dist -czf "dist/$name.tar.gz" "$name"
echo "dist/$name.tar.gz"
