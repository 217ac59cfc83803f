#!/usr/bin/env bash
# Installs an unpacked subscriptiond release under a prefix (default /usr/local):
#   PREFIX/bin/{subscriptiond,subscriptionctl,appstore-sim}
#   PREFIX/share/subscriptiond/{Schema,Certificates,Templates,...}   (found by the binaries on their own)
#   PREFIX/share/subscriptiond/subscriptiond.service        (ExecStart pointing at PREFIX/bin)
# Usage: ./install.sh [--prefix DIR]      (see INSTALL.md for the service user and settings)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
prefix=/usr/local
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        *) echo "install.sh: unknown argument $1 (usage: ./install.sh [--prefix DIR])" >&2; exit 2 ;;
    esac
done
mkdir -p "$prefix/bin" "$prefix/share/subscriptiond"
install -m 0755 "$here"/bin/* "$prefix/bin/"
rm -rf "$prefix/share/subscriptiond/Schema" "$prefix/share/subscriptiond/Certificates" "$prefix/share/subscriptiond/Templates"
cp -R "$here/share/subscriptiond/." "$prefix/share/subscriptiond/"
sed -i "s|/usr/local/bin/|$prefix/bin/|g" "$prefix/share/subscriptiond/subscriptiond.service"
echo "installed $("$prefix/bin/subscriptiond" --version) under $prefix"
