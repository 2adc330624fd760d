#!/usr/bin/env bash
# Throughput and latency of the spec's intent list (GET .../intents?limit=25) on a flow of 10,000 intents and
# 100,000 sentences, against a bare WebFlux endpoint answering a fixed 1 KB JSON, measured in the same run.
#
# Needs: a running stack (./deploy/run-local.sh), wrk (apt-get install wrk), API_KEY (from .data/bootstrap.env).
# Usage: API_KEY=... deploy/bench/intent-list.sh [flowId]   (without flowId a flow is seeded first, ~minutes)
# Env: QUERY_URL (default http://localhost:8082/new: the query service itself), GATEWAY_URL (default
#      http://localhost:8080/new), CONNECTIONS (64), WARMUP (60 s), DURATION (20 s per run), RUNS (5).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
: "${API_KEY:?set API_KEY}"
QUERY_URL=${QUERY_URL:-http://localhost:8082/new}
GATEWAY_URL=${GATEWAY_URL:-http://localhost:8080/new}
CONNECTIONS=${CONNECTIONS:-64}
WARMUP=${WARMUP:-60}
DURATION=${DURATION:-20}
RUNS=${RUNS:-5}
FLOW=${1:-}

if [ -z "$FLOW" ]; then
  FLOW=$(java deploy/bench/SeedFlow.java "$GATEWAY_URL" 10000 10 16 | tee /dev/stderr | tail -1)
fi
# Wait until the projection has every intent.
until [ "$(curl -s -H "X-API-Key: $API_KEY" "$QUERY_URL/v2.0/flows/$FLOW/intents?limit=1" | sed -n 's/.*"total":\([0-9]*\).*/\1/p')" -ge 10000 ]; do sleep 2; done

BASELINE_JAR=deploy/baseline/target/baseline-0.1.0-SNAPSHOT-exec.jar
[ -f "$BASELINE_JAR" ] || ./mvnw -B -q -pl deploy/baseline -DskipTests package
SERVER_PORT=8090 java -XX:+UseSerialGC -Xmx256m -Dreactor.netty.ioWorkerCount=2 -jar "$BASELINE_JAR" > /tmp/baseline.log 2>&1 &
BASELINE_PID=$!
trap 'kill $BASELINE_PID 2>/dev/null || true' EXIT
until curl -sf http://localhost:8090/fixed > /dev/null; do sleep 0.5; done

INTENTS="$QUERY_URL/v2.0/flows/$FLOW/intents?limit=25"
BASE="http://localhost:8090/fixed"
run() { # url seconds -> "rps p99ms"
  wrk -t2 -c"$CONNECTIONS" -d"$2"s --latency -H "X-API-Key: $API_KEY" -H "Accept: application/json" "$1" |
    awk '/Requests\/sec/ {rps=$2} / 99%/ {v=$2; if (v ~ /ms$/) {sub("ms","",v)} else if (v ~ /us$/) {sub("us","",v); v=v/1000} else if (v ~ /s$/) {sub("s","",v); v=v*1000}; p99=v} END {print rps, p99}'
}
echo "warm-up: ${WARMUP}s each"
run "$BASE" "$WARMUP" > /dev/null
run "$INTENTS" "$WARMUP" > /dev/null
for i in $(seq 1 "$RUNS"); do
  b=$(run "$BASE" "$DURATION"); l=$(run "$INTENTS" "$DURATION")
  echo "run $i: baseline rps/p99ms $b | intents rps/p99ms $l"
  echo "$b $l" >> /tmp/intent-list-runs.$$
done
sort -n -k1 /tmp/intent-list-runs.$$ | awk -v runs="$RUNS" '{b[NR]=$1} END {print "median baseline rps", b[int((runs+1)/2)]}'
sort -n -k3 /tmp/intent-list-runs.$$ | awk -v runs="$RUNS" '{l[NR]=$3} END {print "median intents rps", l[int((runs+1)/2)]}'
sort -n -k4 /tmp/intent-list-runs.$$ | awk -v runs="$RUNS" '{p[NR]=$4} END {print "median intents p99 ms", p[int((runs+1)/2)]}'
awk '{print $3/$1}' /tmp/intent-list-runs.$$ | sort -n | awk -v runs="$RUNS" '{r[NR]=$1} END {printf "median ratio intents/baseline %.1f%%\n", 100*r[int((runs+1)/2)]}'
rm -f /tmp/intent-list-runs.$$
