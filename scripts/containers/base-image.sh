#!/usr/bin/env bash
# Makes the local stand-in for node:20-bookworm-slim when the image store lacks it: Debian bookworm
# (debootstrap, from the mirror apt is configured with) plus this machine's Node 20 and npm, with
# the official image's layout (node in /usr/local/bin, its headers in /usr/local/include, user
# `node`, uid 1000) and tini as init.
# Machines without a reachable image registry build from it; the image store keeps it, so the next
# run skips this. Usage: base-image.sh IMAGE_NAME
set -euo pipefail
name=${1:?usage: base-image.sh IMAGE_NAME}

if podman image exists "$name"; then
  echo "containers: base image $name is in the image store"
  exit 0
fi
for tool in debootstrap node; do
  command -v "$tool" >/dev/null || { echo "containers: $tool is needed to make $name" >&2; exit 1; }
done
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" = 20 ] || { echo "containers: the base needs Node 20, this machine has $(node --version)" >&2; exit 1; }

# The Debian mirror apt uses here (one-line or deb822 sources), read now, never written down.
mirror=$(
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    if [ -f "$f" ]; then cat "$f"; fi
  done |
    awk '/^deb[[:space:]]/ && $3 == "bookworm" { print $2; exit }
         /^URIs:/ { uri = $2 } /^Suites:/ && uri != "" && $0 ~ /[[:space:]]bookworm([[:space:]]|$)/ { print uri; exit }'
)
[ -n "$mirror" ] || { echo "containers: no bookworm mirror in apt's sources; cannot make $name" >&2; exit 1; }

rootfs=$(mktemp -d /var/tmp/tps-base.XXXXXX)
trap 'rm -rf "$rootfs"' EXIT
echo "containers: making $name with debootstrap (a few minutes, once per machine)"
started=$SECONDS
debootstrap --variant=minbase --include=tini,ca-certificates bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1 ||
  { tail -n 30 "$rootfs.log" >&2; echo "containers: debootstrap failed" >&2; exit 1; }
rm -f "$rootfs.log"

node_bin=$(readlink -f "$(command -v node)")
npm_dir=$(dirname "$(dirname "$node_bin")")/lib/node_modules/npm
install -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
# Node's headers, as the official image has them: native packages build without downloading them.
node_headers=$(dirname "$(dirname "$node_bin")")/include/node
if [ -d "$node_headers" ]; then
  mkdir -p "$rootfs/usr/local/include"
  cp -a "$node_headers" "$rootfs/usr/local/include/node"
fi
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb

tar -C "$rootfs" -c . | podman import --change 'CMD ["node"]' - "$name" >/dev/null
echo "containers: $name made in $((SECONDS - started)) s"
