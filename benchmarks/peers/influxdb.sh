#!/usr/bin/env bash
# Makes sure InfluxDB 1.x (Debian package influxdb) is installed and prints the path of its server
# binary (influxd) on stdout; everything else goes to stderr. Installs only when missing; stops the
# service the package starts, so that the benchmark's own instance (its own config, data directory
# and loopback ports) is the only one.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

if ! dpkg-query -W -f='${Status}' influxdb 2>/dev/null | grep -q 'install ok installed'; then
  apt-get update >&2
  apt-get install -y --no-install-recommends influxdb >&2
fi

binary="$(dpkg -L influxdb | grep -E '/s?bin/influxd$' | head -n 1 || true)"
[ -n "$binary" ] && [ -x "$binary" ] || { echo "influxdb: no influxd in the package" >&2; exit 1; }

service_pids() { pgrep -u influxdb -f "^$binary( |\$)" 2>/dev/null; }
if service_pids >/dev/null 2>&1; then
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet influxdb 2>/dev/null; then
    systemctl stop influxdb >&2 || true
  elif [ -x /etc/init.d/influxdb ]; then
    /etc/init.d/influxdb stop >&2 || true
  fi
  for attempt in $(seq 1 100); do
    service_pids >/dev/null 2>&1 || break
    [ "$attempt" = 50 ] && for pid in $(service_pids); do kill "$pid" 2>/dev/null || true; done
    sleep 0.1
  done
  if service_pids >/dev/null 2>&1; then
    echo "influxdb: the packaged service is still running; stop it and retry" >&2
    exit 1
  fi
  echo "influxdb: stopped the service the package had started" >&2
fi

echo "$binary"
