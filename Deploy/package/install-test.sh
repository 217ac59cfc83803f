#!/usr/bin/env bash
# The release as an operator installs it, run by `make test`: the tarball
# (build-tarball.sh CONFIG, default debug; `make release` makes the release one) unpacked and
# installed with its install.sh into a temporary prefix, then only the installed files:
#   - no Swift runtime library is needed (ldd), libpq and libcurl are;
#   - --version on the three executables;
#   - subscriptionctl migrate finds the installed Schema/ by itself;
#   - subscriptiond (its Certificates/ found the same way) takes v1 notifications from the
#     installed appstore-sim, processes them, and agrees with it on every customer.
# Needs DATABASE_URL (the test cluster that `make test` started).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
config="${1:-debug}"
: "${DATABASE_URL:?install-test: DATABASE_URL must name the test cluster}"
cd "$root"
tarball="$(Deploy/package/build-tarball.sh "$config" | tail -n 1)"
work="$(mktemp -d /tmp/subscriptiond-install-test.XXXXXX)"
. "$root/Deploy/package/end-to-end.sh"
end_to_end_server=""
cleanup() {
    [ -n "$end_to_end_server" ] && { kill "$end_to_end_server" 2>/dev/null || true; wait "$end_to_end_server" 2>/dev/null || true; }
    drop_scratch_database
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "install-test: FAILED: $*" >&2; exit 1; }

tar -C "$work" -xzf "$tarball"
"$work"/subscriptiond-*/install.sh --prefix "$work/prefix" >/dev/null
prefix="$work/prefix"
# From here on nothing of the checkout is used: another working directory, only the prefix.
cd "$work"
for binary in subscriptiond subscriptionctl appstore-sim; do
    if ldd "$prefix/bin/$binary" | grep -q 'libswift\|libFoundation'; then
        fail "$binary needs the Swift runtime: $(ldd "$prefix/bin/$binary" | grep 'libswift\|libFoundation' | head -n 3 | tr '\n' ' ')"
    fi
    "$prefix/bin/$binary" --version | grep -q "^$binary [0-9]" || fail "$binary --version"
done
echo "install-test: $("$prefix/bin/subscriptiond" --version), runtime libraries: $(ldd "$prefix/bin/subscriptiond" | awk '/libpq|libcurl/ { print $1 }' | tr '\n' ' ')"
grep -q "ExecStart=$prefix/bin/subscriptiond" "$prefix/share/subscriptiond/subscriptiond.service" || fail "the unit's ExecStart does not name the prefix"

create_scratch_database install_test
end_to_end "" "$prefix/bin" "$work" "$work"
echo "install-test: passed: installed under a temporary prefix, $end_to_end_summary"
