#!/usr/bin/env bash
# The container image's base, run as root by build-image.sh (which caches what it writes
# under .local/image-base/ and imports it with `podman import`): a minimal Debian root
# filesystem whose packages image scanners can read.
#   - debootstrap --variant=minbase of SUITE from MIRROR, with PACKAGE... (what the
#     executables load at run time, and curl for the HEALTHCHECK) and their dependencies;
#   - brought up to date from SUITE-updates and SUITE-security (apt-get upgrade, chrooted);
#   - apt's package lists and downloads, logs, man pages, info pages and translations
#     removed; dpkg's database (/var/lib/dpkg: what scanners read) and every package's
#     copyright file stay;
#   - the service user subscriptiond, uid and gid 10001, no login shell, no home
#     (/nonexistent), added to /etc/passwd, /etc/group, /etc/shadow and /etc/gshadow;
#   - no /dev entries, resolv.conf or hostname (a container runtime provides them).
# Writes OUT/rootfs.tar (numeric owners) and OUT/packages.tsv (every installed package:
# name, version, architecture, source package, source version; sorted), owned by OUT's owner.
#   Deploy/container/make-base.sh SUITE MIRROR SECURITY_MIRROR OUT PACKAGE...
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 SUITE MIRROR SECURITY_MIRROR OUT PACKAGE..." >&2; exit 2; }
suite="$1" mirror="$2" security="$3" out="$4"
shift 4
[ "$(id -u)" -eq 0 ] || { echo "make-base: needs root (debootstrap, chroot)" >&2; exit 1; }
[ -d "$out" ] || { echo "make-base: $out is not a directory" >&2; exit 1; }
target="$out/rootfs.partial"
log="$out/make-base.log"

unmount_under() {
    # debootstrap mounts /proc and /sys in the target and may leave them behind on failure.
    local mounts
    mounts="$(awk -v prefix="$1/" 'index($2, prefix) == 1 { print $2 }' /proc/mounts | sort -r)"
    for mount in $mounts; do umount -l "$mount" 2>/dev/null || true; done
}
cleanup() {
    [ -d "$target" ] || return 0
    unmount_under "$target"
    rm -rf --one-file-system "$target"
}
trap cleanup EXIT
failed() { echo "make-base: $1 failed; the end of $log:" >&2; tail -n 20 "$log" >&2; exit 1; }
cleanup
: > "$log"

keyring=()
[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] && keyring=(--keyring=/usr/share/keyrings/debian-archive-keyring.gpg)
include="$(IFS=,; echo "$*")"
echo "make-base: debootstrap --variant=minbase --include=$include $suite from $mirror" >&2
debootstrap --variant=minbase --include="$include" "${keyring[@]}" "$suite" "$target" "$mirror" >> "$log" 2>&1 \
    || failed debootstrap
unmount_under "$target"

in_target() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C DEBIAN_FRONTEND=noninteractive chroot "$target" "$@"; }
cat > "$target/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
EOF
echo "make-base: apt-get upgrade from $suite-updates and $suite-security" >&2
in_target apt-get update -q >> "$log" 2>&1 || failed "apt-get update"
in_target apt-get upgrade -y -q -o Dpkg::Use-Pty=0 -o Dpkg::Options::=--force-confold >> "$log" 2>&1 || failed "apt-get upgrade"
in_target apt-get clean >> "$log" 2>&1
unmount_under "$target"

# What a scanner need not see and the service never reads. /var/lib/dpkg stays whole.
rm -rf "${target:?}"/var/lib/apt/lists/* "$target"/var/cache/apt/* "$target"/var/cache/debconf/*-old \
    "$target"/var/log/* "$target"/usr/share/man/* "$target"/usr/share/info/* "$target"/usr/share/locale/* \
    "$target"/usr/share/doc-base "$target"/tmp/* "$target"/var/tmp/* "${target:?}"/dev/*
find "$target/usr/share/doc" -mindepth 1 ! -type d ! -type l ! -name copyright -delete
find "$target/usr/share/doc" -mindepth 1 -type d -empty -delete
# Copied from this host by debootstrap; a container runtime mounts its own.
rm -f "$target/etc/resolv.conf" "$target/etc/hostname"
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' > "$target/etc/hosts"

# The service user, as `adduser --system --group --no-create-home --home /nonexistent` would
# write it (no RUN step in the image build, so it is written here).
grep -q '^subscriptiond:' "$target/etc/passwd" || {
    echo 'subscriptiond:x:10001:10001:subscriptiond:/nonexistent:/usr/sbin/nologin' >> "$target/etc/passwd"
    echo 'subscriptiond:x:10001:' >> "$target/etc/group"
    echo "subscriptiond:!:$(( $(date +%s) / 86400 ))::::::" >> "$target/etc/shadow"
    echo 'subscriptiond:!::' >> "$target/etc/gshadow"
}

dpkg-query --admindir="$target/var/lib/dpkg" -W \
    -f '${db:Status-Abbrev}\t${Package}\t${Version}\t${Architecture}\t${source:Package}\t${source:Version}\n' \
    | awk -F '\t' -v OFS='\t' '$1 ~ /^ii/ { print $2, $3, $4, $5, $6 }' | LC_ALL=C sort > "$out/packages.tsv"
for package in "$@"; do
    grep -q "^$package	" "$out/packages.tsv" || { echo "make-base: $package is not installed in the root filesystem" >&2; exit 1; }
done
tar --numeric-owner -C "$target" -cf "$out/rootfs.tar" .
chown "$(stat -c %u:%g "$out")" "$out/rootfs.tar" "$out/packages.tsv" "$log"
echo "make-base: $(wc -l < "$out/packages.tsv") packages, $(du -sh --apparent-size "$out/rootfs.tar" | cut -f 1) root filesystem" >&2
