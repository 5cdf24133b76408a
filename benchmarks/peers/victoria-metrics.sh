#!/usr/bin/env bash
# Makes sure VictoriaMetrics (Debian package victoria-metrics) is installed and prints the path of
# its server binary on stdout; everything else goes to stderr, so callers can read the path alone.
# Safe to run again: installs only when missing. Does not start VictoriaMetrics (the benchmark
# starts its own on 127.0.0.1 with a throwaway data directory).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

if ! dpkg-query -W -f='${Status}' victoria-metrics 2>/dev/null | grep -q 'install ok installed'; then
  apt-get update >&2
  apt-get install -y --no-install-recommends victoria-metrics >&2
fi

# The package also ships vmagent, vmalert, ... and an init script named like the server.
binary="$(dpkg -L victoria-metrics | grep -E '/s?bin/victoria-metrics$' | head -n 1 || true)"
[ -n "$binary" ] && [ -x "$binary" ] || { echo "victoria-metrics: no server binary in the package" >&2; exit 1; }

# A service started by the package would keep its own data directory and port 8428 busy. The
# package runs it as _victoria-metrics; the benchmark runs its instance as the caller, so matching
# on that user never touches an instance a concurrent benchmark started.
service_user=_victoria-metrics
service_pids() {
  # by command line: the kernel cuts the process name "victoria-metrics" to 15 characters
  pgrep -u "$service_user" -f "^$binary( |\$)" 2>/dev/null
}
if service_pids >/dev/null 2>&1; then
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet victoria-metrics 2>/dev/null; then
    systemctl stop victoria-metrics >&2 || true
  elif [ -x /etc/init.d/victoria-metrics ]; then
    /etc/init.d/victoria-metrics stop >&2 || true
  fi
  for attempt in $(seq 1 100); do
    service_pids >/dev/null 2>&1 || break
    if [ "$attempt" = 50 ]; then
      # started without the init script's pid file (or by hand as the service user): by pid, then
      for pid in $(service_pids); do kill "$pid" 2>/dev/null || true; done
    fi
    sleep 0.1
  done
  if service_pids >/dev/null 2>&1; then
    echo "victoria-metrics: the packaged service is still running; stop it and retry" >&2
    exit 1
  fi
  echo "victoria-metrics: stopped the service the package had started" >&2
fi

echo "$binary"
