#!/usr/bin/env bash
# Two builds of the command service side by side on one stack's database, for changes of the write path: A and B run
# at once (ports 18083 and 18084, beside the stack's own command service) and are measured in interleaved runs, A B B A,
# so both see the same machine. Each run PATCHes the names of 64 locales (64 projects) directly on one side; it prints
# req/s, p99, that process's CPU per request and the whole machine's (PostgreSQL and the stack's query service
# projecting the side's events included), every round, then the means per side.
#   cp command-service/target/command-service-0.1.0-SNAPSHOT-exec.jar /tmp/a.jar   # before the change
#   ... change, ./mvnw -B -q install -DskipTests ...
#   JAR_A=/tmp/a.jar JAR_B=command-service/target/command-service-0.1.0-SNAPSHOT-exec.jar deploy/bench/commands-ab.sh
# ENV_A, ENV_B: space-separated NAME=value pairs for one side only (e.g. ENV_B=AXON_TIMEOUT_ENABLED=true).
# Env: ROUNDS (3), SECONDS_EACH (10), WARMUP (3 passes of 20 s per side), CONNECTIONS (32).
# Both sides decide on the same 64 aggregates: each run first reloads those the other side changed (64 loads in a run
# of about 10,000 commands). Needs wrk and the built jars (./mvnw -B install -DskipTests).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
JAR_A=$(realpath "${JAR_A:?the command service jar before}"); JAR_B=$(realpath "${JAR_B:?the command service jar after}")
ROUNDS=${ROUNDS:-3}; SECONDS_EACH=${SECONDS_EACH:-10}; WARMUP=${WARMUP:-20}; CONNECTIONS=${CONNECTIONS:-32}
BENCH_DIR=${BENCH_DIR:-$(mktemp -d /tmp/convo-commands-ab.XXXXXX)}; mkdir -p "$BENCH_DIR"
PORT=18080; COMMAND_PORT=18081; QUERY_PORT=18082; DB_PORT=18432
# shellcheck source=deploy/bench/lib.sh
source deploy/bench/lib.sh
start_stack

seed_locales

declare -A SIDE_PID
for side in A:18083 B:18084; do
  name=${side%%:*}; port=${side##*:}; jar_var="JAR_$name"; env_var="ENV_$name"
  read -r -a extra <<< "${!env_var:-}"
  env "${extra[@]}" SERVER_PORT="$port" MANAGEMENT_PORT=$((port + 1000)) BASE_PATH=/new \
    DB_HOST=127.0.0.1 DB_PORT=$DB_PORT DB_NAME=convo DB_USERNAME=postgres AXONIQ_UPDATE_CHECKER_DISABLED=true \
    java -XX:+UseSerialGC -Xmx512m -Dreactor.netty.ioWorkerCount=2 -jar "${!jar_var}" > "$BENCH_DIR/command-$name.log" 2>&1 &
  PIDS+=($!); SIDE_PID[$port]=$!
done
for port in 18083 18084; do
  until curl -s -o /dev/null "http://localhost:$port/"; do sleep 1; done
done

cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; } # clock ticks (1/100 s), user + system
run() { # port seconds -> "req/s p99 CPU-µs-per-request machine-CPU-µs-per-request" of that side
  local before after m0 m1
  before=$(cpu "${SIDE_PID[$1]}"); m0=$(machine)
  LOCALES="$BENCH_DIR/locales.txt" BASE_PATH=/new wrk -t2 -c"$CONNECTIONS" -d"$2"s --latency -s deploy/bench/patch.lua \
    "http://localhost:$1" > "$BENCH_DIR/wrk.txt"
  after=$(cpu "${SIDE_PID[$1]}"); m1=$(machine)
  awk -v ticks=$((after - before)) -v all=$((m1 - m0)) -v s="$2" '/Requests\/sec/ {r = $2} / 99%/ {p = $2}
    /Non-2xx/ {bad = " NON-2XX:" $5}
    END {printf "%.0f %s %.0f %.0f%s", r, p, ticks * 1e4 / (r * s), all * 1e4 / (r * s), bad}' "$BENCH_DIR/wrk.txt"
}
log "warm-up: 3 passes of ${WARMUP}s per side"
for pass in 1 2 3; do run 18083 "$WARMUP" > /dev/null; run 18084 "$WARMUP" > /dev/null; done
: > "$BENCH_DIR/rounds.txt" # a reused BENCH_DIR must not mix in an earlier run's rounds
for round in $(seq 1 "$ROUNDS"); do
  line=""
  for step in 18083:A 18084:B 18084:B 18083:A; do
    line="$line ${step#*:} $(run "${step%:*}" "$SECONDS_EACH")"
  done
  echo "${line# }" | tee -a "$BENCH_DIR/rounds.txt" >&2
done
awk '{for (i = 1; i <= NF; i += 5) {r[$i] += $(i + 1); c[$i] += $(i + 3); m[$i] += $(i + 4); n[$i]++}}
  END {printf "means over %d runs each: A %.0f req/s, %.0f us CPU/request, machine %.0f us/request; " \
              "B %.0f req/s, %.0f us CPU/request, machine %.0f us/request (B/A %.3f, CPU %.3f, machine %.3f)\n",
       n["A"], r["A"] / n["A"], c["A"] / n["A"], m["A"] / n["A"], r["B"] / n["B"], c["B"] / n["B"], m["B"] / n["B"],
       (r["B"] / n["B"]) / (r["A"] / n["A"]), (c["B"] / n["B"]) / (c["A"] / n["A"]), (m["B"] / n["B"]) / (m["A"] / n["A"])}' "$BENCH_DIR/rounds.txt"
