#!/usr/bin/env bash
# Install the Debian packages k2grb needs (apt-get; sudo when not root). Skips what is there.
set -euo pipefail
pkgs=(build-essential cmake pkg-config libgraphblas-dev libcmocka-dev zlib1g-dev libxxhash-dev)
[ "${K2_WITH_FUZZ:-0}" = 1 ] && pkgs+=(clang libclang-rt-14-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "k2grb: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
