#!/usr/bin/env bash
# Installs the Debian packages saturn needs, if any is missing.
set -euo pipefail
need=(gcc make cmake pkg-config libcmocka-dev libinih-dev libcjson-dev libpng-dev libcairo2-dev gnuplot-nox libopenmpi-dev openmpi-bin)
missing=()
for p in "${need[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "saturn: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
