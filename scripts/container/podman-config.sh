#!/usr/bin/env bash
# Podman on machines whose cgroups run in hybrid mode and whose sandbox cannot raise the open-files
# or process limits: the runc runtime (crun fails there) and no default ulimits. Written into
# /etc/containers/containers.conf when absent; run again it changes nothing.
set -euo pipefail
conf=/etc/containers/containers.conf
mkdir -p /etc/containers
if [ -f "$conf" ] && grep -q '^runtime *= *"runc"' "$conf" && grep -q '^default_ulimits *= *\[\]' "$conf"; then
  exit 0
fi
if [ -f "$conf" ] && grep -q '^\[' "$conf"; then
  echo "$conf exists with other settings: add default_ulimits = [] under [containers] and runtime = \"runc\" under [engine]" >&2
  exit 1
fi
cat >"$conf" <<'CONF'
[containers]
default_ulimits = []

[engine]
runtime = "runc"
CONF
echo "wrote $conf"
