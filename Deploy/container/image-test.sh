#!/usr/bin/env bash
# The container image as an operator gets it, run by `make test` after the install test:
# built with podman from the release tarball (build-tarball.sh CONFIG, default debug), then
#   - run with `podman run` where this machine allows it; where it does not (here: crun
#     cannot set RLIMIT_NOFILE inside this sandbox), the exact reason is printed and the
#     image's filesystem is exported (podman create + export) and run with chroot instead;
#   - as the image's USER (not root), with the image's ENV and ENTRYPOINT;
#   - --version on the three executables, from the image's libraries alone;
#   - migrate, the simulator's v1 notifications end to end, and the image's HEALTHCHECK
#     command answering healthy against the running service.
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
image="$(Deploy/container/build-image.sh "$tarball" 2>/dev/null | tail -n 1)" || fail "podman build"
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

inspect() { podman image inspect "$image" --format "$1"; }
user="$(inspect '{{.Config.User}}')"
[ "${user%%:*}" != 0 ] && [ -n "$user" ] || fail "the image runs as root (USER '$user')"
entrypoint="$(inspect '{{index .Config.Entrypoint 0}}')"
health="$(podman image inspect "$image" | python3 -c 'import json, sys; image = json.load(sys.stdin)[0]; print("\n".join((image.get("Healthcheck") or image["HealthCheck"])["Test"][1:]))')" \
    || fail "the image has no HEALTHCHECK"

if podman_run="$(podman run --rm --network host "$image" --version 2>&1)"; then
    echo "image-test: podman run works here: $podman_run"
else
    echo "image-test: podman run cannot run containers on this machine ($(echo "$podman_run" | grep -m 1 'Error:' | sed 's/^Error: //')); running the image's files with chroot instead"
fi

container="$(podman create "$image")"
mkdir "$work/rootfs"
podman export "$container" | tar -C "$work/rootfs" -xf -
# What a container runtime provides: /proc (Swift reads its arguments there) and the
# basic devices (device nodes, not a bind mount of the host's /dev).
mkdir -p "$work/rootfs/proc" "$work/rootfs/dev" "$work/rootfs/tmp/end-to-end"
mount -t proc proc "$work/rootfs/proc"
proc_mounted=1
for device in null:3 zero:5 random:8 urandom:9; do mknod -m 666 "$work/rootfs/dev/${device%%:*}" c 1 "${device##*:}"; done
chown "$user" "$work/rootfs/tmp/end-to-end"
run="chroot --userspec=$user $work/rootfs"
bin="$(dirname "$entrypoint")"
for binary in subscriptiond subscriptionctl appstore-sim; do
    $run "$bin/$binary" --version | grep -q "^$binary [0-9]" || fail "$binary --version in the image: $($run "$bin/$binary" --version 2>&1 | tail -n 1)"
done
echo "image-test: $image: $($run "$entrypoint" --version), $(du -shx "$work/rootfs" | cut -f 1) unpacked, user $user"

# The image's ENV, as podman run would set it (the test's own settings come after).
while IFS= read -r setting; do
    case "$setting" in ""|PATH=*) ;; *) export "${setting?}" ;; esac
done < <(podman image inspect "$image" --format '{{range .Config.Env}}{{println .}}{{end}}')
create_scratch_database image_test
end_to_end "$run" "$bin" "$work/rootfs/tmp/end-to-end" /tmp/end-to-end
# The HEALTHCHECK as the image states it, but on the port the test gave the service.
mapfile -t health_command < <(echo "$health" | sed "s|127.0.0.1:8080/|127.0.0.1:$end_to_end_port/|")
$run "${health_command[@]}" || fail "the image's HEALTHCHECK (${health_command[*]}) says unhealthy"
echo "image-test: passed: the image's HEALTHCHECK answers healthy, $end_to_end_summary"
