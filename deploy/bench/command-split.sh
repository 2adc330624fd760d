#!/usr/bin/env bash
# Where a command's CPU goes: a stack of this build, 64 locales (64 projects) PATCHed at CONNECTIONS connections, run
# after run, directly on the command service or through the gateway. Each run prints req/s, p99, and per command: the
# CPU seconds of the command service, the query service (projecting the event), the gateway, PostgreSQL (all of its
# processes) and the whole machine, and the database's transaction commits. The first runs are the JIT warming up.
#   deploy/bench/command-split.sh                 # direct
#   TARGET=gateway deploy/bench/command-split.sh  # through the gateway
# Env: RUNS (16), SECONDS_EACH (15), CONNECTIONS (32), TARGET (direct | gateway).
# Needs wrk and psql (apt-get install wrk postgresql-client), the built jars, and /proc (Linux).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
RUNS=${RUNS:-16}; SECONDS_EACH=${SECONDS_EACH:-15}; CONNECTIONS=${CONNECTIONS:-32}; TARGET=${TARGET:-direct}
BENCH_DIR=${BENCH_DIR:-$(mktemp -d /tmp/convo-command-split.XXXXXX)}; mkdir -p "$BENCH_DIR"
PORT=18080; COMMAND_PORT=18081; QUERY_PORT=18082; DB_PORT=18432
# shellcheck source=deploy/bench/lib.sh
source deploy/bench/lib.sh
start_stack
seed_locales
url="http://localhost:$COMMAND_PORT"; [ "$TARGET" = gateway ] && url="http://localhost:$PORT"

command_pid=$(pgrep -f command-service-0.1.0 | head -1); query_pid=$(pgrep -f query-service-0.1.0 | head -1)
gateway_pid=$(pgrep -f gateway-0.1.0 | head -1)
ticks() { local sum=0 pid; for pid in "$@"; do sum=$((sum + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2> /dev/null || echo 0))); done; echo $sum; }
postgres() { ticks $(pgrep -x postgres); } # a backend that exits during the run loses its ticks: a slight undercount
commits() { psql -h 127.0.0.1 -p $DB_PORT -U postgres -d convo -qAt -c "SELECT xact_commit FROM pg_stat_database WHERE datname = 'convo'"; }
echo "run req/s p99 | per command: command-service query-service gateway postgres machine (µs CPU) commits"
for run in $(seq 1 "$RUNS"); do
  c0=$(ticks "$command_pid"); q0=$(ticks "$query_pid"); g0=$(ticks "$gateway_pid"); p0=$(postgres); m0=$(machine); x0=$(commits)
  LOCALES="$BENCH_DIR/locales.txt" BASE_PATH=/new wrk -t2 -c"$CONNECTIONS" -d"$SECONDS_EACH"s --latency \
    -s deploy/bench/patch.lua "$url" > "$BENCH_DIR/wrk.txt"
  c1=$(ticks "$command_pid"); q1=$(ticks "$query_pid"); g1=$(ticks "$gateway_pid"); p1=$(postgres); m1=$(machine); x1=$(commits)
  awk -v run="$run" -v s="$SECONDS_EACH" -v c=$((c1 - c0)) -v q=$((q1 - q0)) -v g=$((g1 - g0)) -v p=$((p1 - p0)) \
      -v m=$((m1 - m0)) -v x=$((x1 - x0)) '/Requests\/sec/ {r = $2} / 99%/ {p99 = $2} /Non-2xx/ {bad = " NON-2XX:" $5}
    END {n = r * s; printf "%d %.0f %s | %.0f %.0f %.0f %.0f %.0f %.2f%s\n", run, r, p99, c * 1e4 / n, q * 1e4 / n,
         g * 1e4 / n, p * 1e4 / n, m * 1e4 / n, x / n, bad}' "$BENCH_DIR/wrk.txt"
done
