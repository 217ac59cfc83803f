#!/usr/bin/env bash
# `make image`: the container image from a release tarball, with podman (no RUN step, so it
# builds where containers cannot run).
#   1. The base: a minimal Debian bookworm root filesystem (Deploy/container/make-base.sh:
#      debootstrap --variant=minbase with libpq5, libcurl4, ca-certificates and curl, brought
#      up to date from bookworm-updates and bookworm-security, the service user uid/gid 10001
#      added), cached under .local/image-base/ (keyed by the suite, the architecture, the
#      mirrors, the package list and make-base.sh itself; IMAGE_BASE_REFRESH=1 makes it
#      again, to take the mirror's newest packages) and imported with `podman import` as
#      localhost/subscriptiond-base:bookworm-HASH (HASH: of that key and the package
#      versions). Making it needs root (sudo otherwise) and installs debootstrap if missing.
#   2. The build context: the tarball's bin/ without appstore-sim (subscriptiond and
#      subscriptionctl only) and share/, installed as /usr/local/{bin,share}, and the manifest.
#   3. `podman build --format docker` (the OCI format has no HEALTHCHECK) with
#      Deploy/container/Containerfile FROM that base.
# The manifest (image-manifest.txt: every Debian package with its version, the executables
# with their version, commit and SHA-256, the libraries they load and what is statically
# linked into them) is in the image as /usr/local/share/subscriptiond/image-manifest.txt
# and beside the tarball as dist/subscriptiond-VERSION-linux-ARCH.image-manifest.txt.
# Prints the image's name.
#   Deploy/container/build-image.sh [TARBALL]      (default: the newest dist/*.tar.gz)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tarball="${1:-$(ls -t "$root"/dist/subscriptiond-*-linux-*.tar.gz 2>/dev/null | head -n 1)}"
[ -f "$tarball" ] || { echo "build-image: no release tarball (run make release first)" >&2; exit 1; }
suite=bookworm
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
security_mirror="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
# What the executables load (libpq.so.5, libcurl.so.4 and, through them, OpenSSL and the
# rest), the CA certificates libcurl verifies with, and curl for the HEALTHCHECK.
packages=(libpq5 libcurl4 ca-certificates curl)
executables=(subscriptiond subscriptionctl)
manifest_path=/usr/local/share/subscriptiond/image-manifest.txt

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
# install_missing COMMAND:PACKAGE...
install_missing() {
    local needed=() pair
    for pair in "$@"; do command -v "${pair%%:*}" >/dev/null 2>&1 || needed+=("${pair#*:}"); done
    [ ${#needed[@]} -eq 0 ] && return 0
    command -v apt-get >/dev/null 2>&1 || { echo "build-image: missing ${needed[*]}; install them with your package manager" >&2; exit 1; }
    echo "build-image: installing ${needed[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${needed[@]}" >/dev/null
}
# debootstrap lives in /usr/sbin, which a user's PATH may lack.
PATH="$PATH:/usr/sbin:/sbin"
install_missing podman:podman readelf:binutils

# 1. The base.
architecture="$(dpkg --print-architecture 2>/dev/null || uname -m)"
key="$( { printf '%s\n' "$suite" "$architecture" "$mirror" "$security_mirror" "${packages[@]}"; cat "$root/Deploy/container/make-base.sh"; } | sha256sum | cut -c 1-12)"
cache="$root/.local/image-base/$suite-$architecture-$key"
if [ ! -f "$cache/rootfs.tar" ] || [ "${IMAGE_BASE_REFRESH:-0}" = 1 ]; then
    install_missing debootstrap:debootstrap
    mkdir -p "$root/.local/image-base"
    # Only the current key's root filesystem is kept.
    $sudo rm -rf --one-file-system "$root"/.local/image-base/*
    mkdir -p "$cache.partial"
    started=$(date +%s)
    $sudo "$root/Deploy/container/make-base.sh" "$suite" "$mirror" "$security_mirror" "$cache.partial" "${packages[@]}"
    mv "$cache.partial" "$cache"
    echo "build-image: base root filesystem made in $(( $(date +%s) - started ))s" >&2
fi
# Named by how it was made and what it holds: the same recipe and package versions, the same name.
base="localhost/subscriptiond-base:$suite-$( { echo "$key"; cat "$cache/packages.tsv"; } | sha256sum | cut -c 1-12)"
if ! podman image exists "$base"; then
    podman import --quiet --change "ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
        "$cache/rootfs.tar" "$base" >/dev/null
fi
echo "build-image: base $base ($(wc -l < "$cache/packages.tsv") Debian packages)" >&2

# 2. The build context.
scratch="$(mktemp -d /tmp/subscriptiond-image.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
context="$scratch/context"
mkdir "$context"
tar -C "$scratch" -xzf "$tarball"
unpacked="$(find "$scratch" -mindepth 1 -maxdepth 1 -type d -name 'subscriptiond-*')"
version="$("$unpacked/bin/subscriptiond" --version | awk '{ print $2 }')"
commit="$("$unpacked/bin/subscriptiond" --version | sed -n 's/.*(commit \(.*\))$/\1/p')"
release="$context/release"
mkdir -p "$release/bin"
for executable in "${executables[@]}"; do mv "$unpacked/bin/$executable" "$release/bin/"; done
mv "$unpacked/share" "$release/"

# Which package provides a library: dpkg's file lists in the base.
tar -C "$scratch" -xf "$cache/rootfs.tar" ./var/lib/dpkg/info
provider() {
    local list
    list="$(grep -l -E "/$(printf '%s' "$1" | sed 's/[.+]/\\&/g')\$" "$scratch"/var/lib/dpkg/info/*.list 2>/dev/null | head -n 1)"
    [ -n "$list" ] || return 1
    basename "$list" .list | sed 's/:.*//'
}
# The Swift compiler that built an executable: as the executable says (a debug build's
# debugging information does), else this host's when the tarball was built from this checkout.
compiler() {
    grep -a -o -m 1 'Swift version [0-9][0-9.]* ([^)]*)' "$1" && return
    if [ "$from_checkout" = 1 ] && swift_version="$(swift --version 2>/dev/null | grep -o -m 1 'Swift version [0-9][0-9.]* ([^)]*)')"; then
        echo "$swift_version (the toolchain of the host that built the image)"
    else
        echo "Swift version not recorded"
    fi
}
# Package.resolved is the build's only when the tarball was built from this checkout.
from_checkout=0
[ -f "$root/Package.resolved" ] && [ "${commit%-dirty}" = "$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null)" ] && from_checkout=1

manifest="$release/share/subscriptiond/image-manifest.txt"
{
    echo "# subscriptiond $version (commit $commit) container image: what it carries. Written by"
    echo "# Deploy/container/build-image.sh when the image was built; in the image as $manifest_path."
    echo "# Tab-separated; the first field says what a line is:"
    echo "#   image       NAME  VERSION  COMMIT  BUILT (UTC)"
    echo "#   base        IMAGE  WHAT"
    echo "#   executable  PATH  VERSION  COMMIT  SHA256"
    echo "#   loads       EXECUTABLE  LIBRARY  DEBIAN PACKAGE   (the shared libraries it names; theirs are among the packages)"
    echo "#   static      EXECUTABLE  WHAT  VERSION             (linked into the executable, in no Debian package)"
    echo "#   swiftpm     PACKAGE  VERSION  REVISION  LOCATION   (Package.resolved: the Swift packages the build resolved; the executables compile in those they use)"
    echo "#   package     NAME  VERSION  ARCHITECTURE  SOURCE  SOURCE VERSION   (every installed Debian package, from dpkg's database)"
    printf 'image\tsubscriptiond:%s\t%s\t%s\t%s\n' "$version" "$version" "$commit" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    printf 'base\t%s\tDebian %s %s, debootstrap --variant=minbase from %s with %s-updates and %s-security from %s\n' \
        "$base" "$suite" "$architecture" "$mirror" "$suite" "$suite" "$security_mirror"
    for executable in "${executables[@]}"; do
        file="$release/bin/$executable"
        executable_version="$("$file" --version)"
        printf 'executable\t/usr/local/bin/%s\t%s\t%s\t%s\n' "$executable" "$(echo "$executable_version" | awk '{ print $2 }')" \
            "$(echo "$executable_version" | sed -n 's/.*(commit \(.*\))$/\1/p')" "$(sha256sum "$file" | cut -d ' ' -f 1)"
    done
    for executable in "${executables[@]}"; do
        file="$release/bin/$executable"
        interpreter="$(readelf -l "$file" | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')"
        libraries="$( { readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'; [ -z "$interpreter" ] || basename "$interpreter"; } | awk '!seen[$0]++')"
        for library in $libraries; do
            case "$library" in
                libswift*|libFoundation*|libdispatch*|libBlocksRuntime*)
                    echo "build-image: $executable loads $library: the Swift runtime must be linked statically (--static-swift-stdlib)" >&2
                    exit 1 ;;
            esac
            package="$(provider "$library")" || { echo "build-image: $executable loads $library, which no package in the base provides" >&2; exit 1; }
            printf 'loads\t%s\t%s\t%s\n' "$executable" "$library" "$package"
        done
        printf 'static\t%s\tSwift standard library, Foundation, Dispatch (--static-swift-stdlib)\t%s\n' "$executable" "$(compiler "$file")"
    done
    if [ "$from_checkout" = 1 ]; then
        python3 - "$root/Package.resolved" <<'EOF'
import json, sys
for pin in sorted(json.load(open(sys.argv[1]))["pins"], key=lambda pin: pin["identity"]):
    state = pin["state"]
    print("swiftpm\t%s\t%s\t%s\t%s" % (pin["identity"], state.get("version") or state.get("branch") or "-", state.get("revision", "-"), pin["location"]))
EOF
        echo "#   (swift-crypto and swift-nio-ssl compile in their own copies of BoringSSL; libpq5 and libcurl4 use Debian's OpenSSL, libssl3.)"
    else
        printf 'swiftpm\tunknown\t-\t-\tthe tarball was not built from this checkout (commit %s)\n' "$commit"
    fi
    sed 's/^/package\t/' "$cache/packages.tsv"
} > "$manifest"
chmod 644 "$manifest"
cp "$manifest" "${tarball%.tar.gz}.image-manifest.txt"

# 3. The image.
cp "$root/Deploy/container/Containerfile" "$context/Containerfile"
podman build --quiet --format docker --build-arg "BASE=$base" --tag "subscriptiond:$version" --tag subscriptiond:latest \
    --label org.opencontainers.image.title=subscriptiond --label "org.opencontainers.image.version=$version" \
    --label "org.opencontainers.image.revision=$commit" --label "org.opencontainers.image.base.name=$base" \
    --file "$context/Containerfile" "$context" >&2
# The previous build's image, untagged by this one, and bases no longer current.
podman image prune --force --filter label=org.opencontainers.image.title=subscriptiond >/dev/null
podman images --format '{{.Repository}}:{{.Tag}}' localhost/subscriptiond-base | grep -vxF "$base" \
    | xargs -r podman rmi >/dev/null 2>&1 || true
echo "build-image: manifest in the image as $manifest_path and beside the tarball as ${tarball%.tar.gz}.image-manifest.txt" >&2
echo "subscriptiond:$version"
