#!/usr/bin/env bash
# Installs the Debian packages that tests drive as real clients: collectd with its write_http
# (libcurl, libyajl) and write_graphite plugins, and Prometheus with promtool (remote write and
# read against the server, PromQL answers compared), and Chromium with its WebDriver (the web
# console driven in a real browser). Run by the chronix-ingest build before its
# tests; does nothing when everything is there.
set -euo pipefail
packages=(collectd-core libcurl4 libyajl2 prometheus chromium chromium-driver)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "tests need Debian packages: ${missing[*]}; run as root: apt-get install --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
echo "installing test dependencies: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
