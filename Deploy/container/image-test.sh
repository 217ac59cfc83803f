#!/usr/bin/env bash
# The container image as an operator gets it, run by `make test` after the install test:
# built with podman from the release tarball (build-tarball.sh CONFIG, default debug), then
#   - run with `podman run` where this machine allows it; where it does not (here: crun
#     cannot set RLIMIT_NOFILE inside this sandbox), the exact reason is printed and the
#     image's filesystem is exported (podman create + export) and run with chroot instead;
#   - the image runs as uid 10001, which its /etc/passwd names (no login shell), and carries
#     subscriptiond and subscriptionctl but no appstore-sim;
#   - its manifest (/usr/local/share/subscriptiond/image-manifest.txt, the same as the one
#     beside the tarball) lists exactly the packages the image's dpkg database has installed,
#     libpq5, libcurl4, ca-certificates and curl among them, and the executables' SHA-256
#     and version;
#   - as the image's USER, with the image's ENV and ENTRYPOINT: --version, migrate, the
#     simulator's v1 notifications end to end (appstore-sim from the tarball, on this host),
#     and the image's HEALTHCHECK command answering healthy against the running service.
# Needs DATABASE_URL (the test cluster), podman and root (chroot).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
config="${1:-debug}"
: "${DATABASE_URL:?image-test: DATABASE_URL must name the test cluster}"
cd "$root"
. "$root/Deploy/package/end-to-end.sh"
fail() { echo "image-test: FAILED: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root (podman export and chroot)"
tarball="$(Deploy/package/build-tarball.sh "$config" | tail -n 1)"
work="$(mktemp -d /tmp/subscriptiond-image-test.XXXXXX)"
container=""
proc_mounted=""
end_to_end_server=""
cleanup() {
    [ -n "$end_to_end_server" ] && { kill "$end_to_end_server" 2>/dev/null || true; wait "$end_to_end_server" 2>/dev/null || true; }
    [ -n "$container" ] && podman rm --force "$container" >/dev/null 2>&1
    drop_scratch_database
    if [ -n "$proc_mounted" ]; then umount "$work/rootfs/proc" || return; fi
    rm -rf "$work"
}
trap cleanup EXIT

image="$(Deploy/container/build-image.sh "$tarball" 2> "$work/build-image.log" | tail -n 1)" \
    || fail "build-image.sh: $(tail -n 20 "$work/build-image.log")"
sed -n 's/^build-image: base /image-test: base /p' "$work/build-image.log"

inspect() { podman image inspect "$image" --format "$1"; }
user="$(inspect '{{.Config.User}}')"
[ "${user%%:*}" = 10001 ] || fail "the image runs as '$user', not uid 10001"
entrypoint="$(inspect '{{index .Config.Entrypoint 0}}')"
health="$(podman image inspect "$image" | python3 -c 'import json, sys; image = json.load(sys.stdin)[0]; print("\n".join((image.get("Healthcheck") or image["HealthCheck"])["Test"][1:]))')" \
    || fail "the image has no HEALTHCHECK"

if podman_run="$(podman run --rm --network host "$image" --version 2>&1)"; then
    echo "image-test: podman run works here: $podman_run"
else
    echo "image-test: podman run cannot run containers on this machine ($(echo "$podman_run" | grep -m 1 'Error:' | sed 's/^Error: //')); running the image's files with chroot instead"
fi

container="$(podman create "$image")"
rootfs="$work/rootfs"
mkdir "$rootfs"
podman export "$container" | tar -C "$rootfs" -xf -
bin="$(dirname "$entrypoint")"

# What the image carries.
passwd="$(awk -F : '$3 == 10001' "$rootfs/etc/passwd")"
[ -n "$passwd" ] || fail "the image's /etc/passwd has no uid 10001"
case "$(echo "$passwd" | cut -d : -f 7)" in */nologin|*/false) ;; *) fail "uid 10001 has a login shell: $passwd" ;; esac
awk -F : '$3 == 10001' "$rootfs/etc/group" | grep -q . || fail "the image's /etc/group has no gid 10001"
[ "$(ls "$rootfs$bin" | tr '\n' ' ')" = "subscriptionctl subscriptiond " ] || fail "$bin holds $(ls "$rootfs$bin" | tr '\n' ' ')"
simulators="$(find "$rootfs" -xdev -name 'appstore-sim*' | sed "s|^$rootfs||")"
[ -z "$simulators" ] || fail "the image carries the simulator: $simulators"
manifest="$rootfs/usr/local/share/subscriptiond/image-manifest.txt"
[ -f "$manifest" ] || fail "no /usr/local/share/subscriptiond/image-manifest.txt in the image"
cmp -s "$manifest" "${tarball%.tar.gz}.image-manifest.txt" || fail "the manifest beside the tarball is not the image's"
installed="$(dpkg-query --admindir="$rootfs/var/lib/dpkg" -W \
    -f '${db:Status-Abbrev}\t${Package}\t${Version}\t${Architecture}\t${source:Package}\t${source:Version}\n' \
    | awk -F '\t' -v OFS='\t' '$1 ~ /^ii/ { print $2, $3, $4, $5, $6 }' | LC_ALL=C sort)"
listed="$(awk -F '\t' -v OFS='\t' '$1 == "package" { print $2, $3, $4, $5, $6 }' "$manifest")"
[ "$listed" = "$installed" ] || fail "the manifest's packages differ from the image's dpkg database: $(diff <(echo "$listed") <(echo "$installed") | head -n 6 | tr '\n' ' ')"
for package in libpq5 libcurl4 ca-certificates curl; do
    version="$(echo "$installed" | awk -F '\t' -v p="$package" '$1 == p { print $2 }')"
    [ -n "$version" ] || fail "$package is not installed in the image"
    grep -q "^package	$package	$version	" "$manifest" || fail "the manifest does not list $package $version"
done
for binary in subscriptiond subscriptionctl; do
    sha="$(sha256sum "$rootfs$bin/$binary" | cut -d ' ' -f 1)"
    grep -q "^executable	$bin/$binary	[^	]*	[^	]*	$sha\$" "$manifest" || fail "the manifest does not give $binary's SHA-256 ($sha)"
done

# What a container runtime provides: /proc (Swift reads its arguments there) and the
# basic devices (device nodes, not a bind mount of the host's /dev).
mkdir -p "$rootfs/proc" "$rootfs/dev"
mount -t proc proc "$rootfs/proc"
proc_mounted=1
for device in null:3 zero:5 random:8 urandom:9; do mknod -m 666 "$rootfs/dev/${device%%:*}" c 1 "${device##*:}"; done
in_image="chroot --userspec=$user $rootfs"
for binary in subscriptiond subscriptionctl; do
    $in_image "$bin/$binary" --version | grep -q "^$binary [0-9]" || fail "$binary --version in the image: $($in_image "$bin/$binary" --version 2>&1 | tail -n 1)"
done
version="$($in_image "$entrypoint" --version)"
grep -q "^executable	$entrypoint	$(echo "$version" | awk '{ print $2 }')	$(echo "$version" | sed -n 's/.*(commit \(.*\))$/\1/p')	" "$manifest" \
    || fail "the manifest does not give $entrypoint's version and commit ($version)"
echo "image-test: $image: $version, $(du -shx "$rootfs" | cut -f 1) unpacked, user $user, $(grep -c '^package' "$manifest") Debian packages in the manifest ($(grep -E '^package	(libpq5|libcurl4)	' "$manifest" | cut -f 2,3 | tr '\t\n' '  ' | sed 's/ $//'))"

# end_to_end's RUN: the image's executables chrooted as its user, except appstore-sim, which
# the image does not carry: the tarball's, on this host. Its work directory has one path
# both inside the image's filesystem and here (a symbolic link to it).
tar -C "$work" -xzf "$tarball"
simulator="$(echo "$work"/subscriptiond-*/bin/appstore-sim)"
shared="$work/end-to-end"
mkdir -p "$rootfs$shared"
chown "$user" "$rootfs$shared"
ln -s "$rootfs$shared" "$shared"
cat > "$work/run" <<EOF
#!/bin/sh
if [ "\$1" = "$bin/appstore-sim" ]; then shift; exec "$simulator" "\$@"; fi
exec $in_image "\$@"
EOF
chmod 755 "$work/run"

# The image's ENV, as podman run would set it (the test's own settings come after).
while IFS= read -r setting; do
    case "$setting" in ""|PATH=*) ;; *) export "${setting?}" ;; esac
done < <(podman image inspect "$image" --format '{{range .Config.Env}}{{println .}}{{end}}')
create_scratch_database image_test
end_to_end "$work/run" "$bin" "$shared" "$shared"
# The HEALTHCHECK as the image states it, but on the port the test gave the service.
mapfile -t health_command < <(echo "$health" | sed "s|127.0.0.1:8080/|127.0.0.1:$end_to_end_port/|")
$in_image "${health_command[@]}" || fail "the image's HEALTHCHECK (${health_command[*]}) says unhealthy"
echo "image-test: passed: the image's HEALTHCHECK answers healthy, $end_to_end_summary"
