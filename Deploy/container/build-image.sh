#!/usr/bin/env bash
# `make image`: the container image from a release tarball, with podman (no RUN step, so it
# builds where containers cannot run). Stages the build context:
#   release/   the tarball's bin/ and share/ (installed as /usr/local/{bin,share})
#   runtime/   the dynamic loader and every library the executables and curl load (ldd's
#              closure on this host), the CA bundle, /etc/passwd and /etc/group with the
#              service user (uid 10001), nsswitch.conf and an empty /tmp
# then `podman build --format docker` (the OCI format has no HEALTHCHECK) with
# Deploy/container/Containerfile. Prints the image's name.
#   Deploy/container/build-image.sh [TARBALL]      (default: the newest dist/*.tar.gz)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tarball="${1:-$(ls -t "$root"/dist/subscriptiond-*-linux-*.tar.gz 2>/dev/null | head -n 1)}"
[ -f "$tarball" ] || { echo "build-image: no release tarball (run make release first)" >&2; exit 1; }
command -v podman >/dev/null || { echo "build-image: podman is not installed (apt-get install podman)" >&2; exit 1; }
context="$(mktemp -d /tmp/subscriptiond-image.XXXXXX)"
trap 'rm -rf "$context"' EXIT

tar -C "$context" -xzf "$tarball"
unpacked="$(find "$context" -mindepth 1 -maxdepth 1 -type d -name 'subscriptiond-*')"
version="$("$unpacked/bin/subscriptiond" --version | awk '{ print $2 }')"
commit="$("$unpacked/bin/subscriptiond" --version | sed -n 's/.*(commit \(.*\))$/\1/p')"
mkdir -p "$context/release"
mv "$unpacked/bin" "$unpacked/share" "$context/release/"

runtime="$context/runtime"
mkdir -p "$runtime/usr/lib" "$runtime/usr/bin" "$runtime/etc/ssl/certs" "$runtime/tmp"
chmod 1777 "$runtime/tmp"
# Debian's merged /usr: /lib and /lib64 point into /usr, where every library is copied.
ln -s usr/lib "$runtime/lib"
mkdir -p "$runtime/lib64"
cp /usr/bin/curl "$runtime/usr/bin/curl"
libraries() {
    for executable in "$@"; do
        ldd "$executable" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && $1 !~ /:$/ { print $1 }'
    done | sort -u
}
for library in $(libraries "$context"/release/bin/* /usr/bin/curl); do
    real="$(readlink -f "$library")"
    target="$runtime/usr/lib/$(basename "$(dirname "$real")")"
    mkdir -p "$target"
    cp "$real" "$target/$(basename "$library")"
done
loader="$(ldd /usr/bin/curl | awk '$1 ~ /^\/lib64\// { print $1 }')"
ln -s "/usr/lib/$(basename "$(dirname "$(readlink -f "$loader")")")/$(basename "$loader")" "$runtime$loader"
cp /etc/ssl/certs/ca-certificates.crt "$runtime/etc/ssl/certs/"
printf 'root:x:0:0:root:/:/usr/sbin/nologin\nsubscriptiond:x:10001:10001:subscriptiond:/:/usr/sbin/nologin\n' > "$runtime/etc/passwd"
printf 'root:x:0:\nsubscriptiond:x:10001:\n' > "$runtime/etc/group"
printf 'hosts: files dns\n' > "$runtime/etc/nsswitch.conf"
printf '127.0.0.1 localhost\n::1 localhost\n' > "$runtime/etc/hosts"

cp "$root/Deploy/container/Containerfile" "$context/Containerfile"
podman build --quiet --format docker --tag "subscriptiond:$version" --tag subscriptiond:latest \
    --label org.opencontainers.image.title=subscriptiond --label "org.opencontainers.image.version=$version" \
    --label "org.opencontainers.image.revision=$commit" \
    --file "$context/Containerfile" "$context" >&2
# The previous build's image, untagged by this one.
podman image prune --force --filter label=org.opencontainers.image.title=subscriptiond >/dev/null
echo "subscriptiond:$version"
