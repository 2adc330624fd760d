#!/usr/bin/env bash
# Two gateway builds (or settings) side by side in front of the bare WebFlux endpoint (deploy/baseline), so nothing but
# the gateway is measured: A and B run at once (ports 18180 and 18181), every route of both leads to the bare endpoint,
# and interleaved runs (A B B A) of GET /fixed through each report req/s and the gateway process's CPU per request.
#   ENV_A="SPRING_CLOUD_GATEWAY_SERVER_WEBFLUX_OBSERVABILITY_ENABLED=true" deploy/bench/gateway-ab.sh
#   JAR_A=/tmp/gateway-before.jar JAR_B=deploy/gateway/target/gateway-0.1.0-SNAPSHOT-exec.jar deploy/bench/gateway-ab.sh
# ENV_A, ENV_B: space-separated NAME=value pairs for one side only. JAR_A, JAR_B: this build's gateway by default.
# Env: ROUNDS (4), SECONDS_EACH (8), WARMUP (2 passes of 20 s per side), CONNECTIONS (32).
# Needs wrk and the built jars (./mvnw -B install -DskipTests).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
GATEWAY_JAR=deploy/gateway/target/gateway-0.1.0-SNAPSHOT-exec.jar
JAR_A=$(realpath "${JAR_A:-$GATEWAY_JAR}"); JAR_B=$(realpath "${JAR_B:-$GATEWAY_JAR}")
ROUNDS=${ROUNDS:-4}; SECONDS_EACH=${SECONDS_EACH:-8}; WARMUP=${WARMUP:-20}; CONNECTIONS=${CONNECTIONS:-32}
BENCH_DIR=${BENCH_DIR:-$(mktemp -d /tmp/convo-gateway-ab.XXXXXX)}; mkdir -p "$BENCH_DIR"
BASELINE_PORT=18090
# shellcheck source=deploy/bench/lib.sh
source deploy/bench/lib.sh

SERVER_PORT=$BASELINE_PORT java -XX:+UseSerialGC -Xmx256m -Dreactor.netty.ioWorkerCount=2 \
  -jar deploy/baseline/target/baseline-0.1.0-SNAPSHOT-exec.jar > "$BENCH_DIR/baseline.log" 2>&1 &
PIDS+=($!)
declare -A SIDE_PID
for side in A:18180 B:18181; do
  name=${side%%:*}; port=${side##*:}; jar_var="JAR_$name"; env_var="ENV_$name"
  read -r -a extra <<< "${!env_var:-}"
  env "${extra[@]}" SERVER_PORT="$port" MANAGEMENT_PORT=$((port + 1000)) \
    COMMAND_SERVICE_URI=http://localhost:$BASELINE_PORT QUERY_SERVICE_URI=http://localhost:$BASELINE_PORT \
    COMMAND_HEALTH_PATH=/fixed QUERY_HEALTH_PATH=/fixed \
    java -XX:+UseSerialGC -Xmx256m -Dreactor.netty.ioWorkerCount=2 -jar "${!jar_var}" > "$BENCH_DIR/gateway-$name.log" 2>&1 &
  PIDS+=($!); SIDE_PID[$port]=$!
done
for port in 18180 18181 $BASELINE_PORT; do
  until curl -s -o /dev/null "http://localhost:$port/fixed"; do sleep 1; done
done

cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; } # clock ticks (1/100 s), user + system
run() { # port seconds -> "req/s CPU-µs-per-request" of that gateway
  local before after
  before=$(cpu "${SIDE_PID[$1]}")
  wrk -t2 -c"$CONNECTIONS" -d"$2"s "http://localhost:$1/fixed" > "$BENCH_DIR/wrk.txt"
  after=$(cpu "${SIDE_PID[$1]}")
  awk -v ticks=$((after - before)) -v s="$2" '/Requests\/sec/ {r = $2} /Non-2xx/ {bad = " NON-2XX:" $5}
    END {printf "%.0f %.1f%s", r, ticks * 1e4 / (r * s), bad}' "$BENCH_DIR/wrk.txt"
}
log "warm-up: 2 passes of ${WARMUP}s per side"
for pass in 1 2; do run 18180 "$WARMUP" > /dev/null; run 18181 "$WARMUP" > /dev/null; done
: > "$BENCH_DIR/rounds.txt" # a reused BENCH_DIR must not mix in an earlier run's rounds
for round in $(seq 1 "$ROUNDS"); do
  line=""
  for step in 18180:A 18181:B 18181:B 18180:A; do
    line="$line ${step#*:} $(run "${step%:*}" "$SECONDS_EACH")"
  done
  echo "${line# }" | tee -a "$BENCH_DIR/rounds.txt" >&2
done
awk '{for (i = 1; i <= NF; i += 3) {r[$i] += $(i + 1); c[$i] += $(i + 2); n[$i]++}}
  END {printf "means over %d runs each: A %.0f req/s, %.1f us CPU/request; B %.0f req/s, %.1f us CPU/request (B/A %.3f, CPU %.3f)\n",
       n["A"], r["A"] / n["A"], c["A"] / n["A"], r["B"] / n["B"], c["B"] / n["B"],
       (r["B"] / n["B"]) / (r["A"] / n["A"]), (c["B"] / n["B"]) / (c["A"] / n["A"])}' "$BENCH_DIR/rounds.txt"
