#!/usr/bin/env bash
# What read-your-writes costs and gives. Reads that need no wait: a list (GET /v2.0/locales?projectId=..&limit=25,
# 25 locales) from a principal with no pending write, on the stack's query service (the mechanism on) and on a second
# query service started here with READ_YOUR_WRITES=false (the baseline), same database, interleaved runs. Then the
# write-then-read pairs through the gateway, and another principal's lag (ReadYourWritesBench.java).
#
# Needs: a running stack (./deploy/run-local.sh), wrk (apt-get install wrk), API_KEY (from .data/bootstrap.env).
# Env: GATEWAY_URL (http://localhost:8080/new), QUERY_URL (http://localhost:8082/new), BASELINE_PORT (8092),
#      DB_HOST/DB_PORT/DB_NAME/DB_USERNAME/DB_PASSWORD (the embedded default 127.0.0.1:54329/convo/postgres),
#      CONNECTIONS (32), WARMUP (30 s), DURATION (15 s per run), RUNS (5), PAIRS (1000).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
: "${API_KEY:?set API_KEY}"
GATEWAY_URL=${GATEWAY_URL:-http://localhost:8080/new}
QUERY_URL=${QUERY_URL:-http://localhost:8082/new}
BASELINE_PORT=${BASELINE_PORT:-8092}
CONNECTIONS=${CONNECTIONS:-32}
WARMUP=${WARMUP:-30}
DURATION=${DURATION:-15}
RUNS=${RUNS:-5}
PAIRS=${PAIRS:-1000}

JAR=query-service/target/query-service-0.1.0-SNAPSHOT-exec.jar
[ -f "$JAR" ] || ./mvnw -B -q -pl query-service -am -DskipTests package
SERVER_PORT=$BASELINE_PORT READ_YOUR_WRITES=false AXONIQ_UPDATE_CHECKER_DISABLED=true \
  DB_HOST=${DB_HOST:-127.0.0.1} DB_PORT=${DB_PORT:-54329} DB_NAME=${DB_NAME:-convo} \
  DB_USERNAME=${DB_USERNAME:-postgres} DB_PASSWORD=${DB_PASSWORD:-} \
  java -XX:+UseSerialGC -Xmx512m -Dreactor.netty.ioWorkerCount=2 -jar "$JAR" > /tmp/ryw-baseline.log 2>&1 &
BASELINE_PID=$!
trap 'kill $BASELINE_PID 2>/dev/null || true' EXIT
BASELINE_URL="http://localhost:$BASELINE_PORT/new"
until curl -sf "$BASELINE_URL/health/ready" > /dev/null; do sleep 0.5; done

post() { curl -sf -X POST "$GATEWAY_URL$1" -H "X-API-Key: $API_KEY" -H 'Content-Type: application/json' -d "$2"; }
PROJECT=$(post /v2.0/projects '{"name":"ryw list bench","locale":"en-US"}' | sed -n 's/.*"_id":"\([a-z0-9]*\)".*/\1/p')
for i in $(seq 1 24); do
  post /v2.0/locales "{\"projectId\":\"$PROJECT\",\"name\":\"Locale $i\",\"nluLanguage\":\"de-DE\"}" > /dev/null
done
LIST="/v2.0/locales?projectId=$PROJECT&limit=25"
# The writes above are this key's newest: reads from here on need no wait.
curl -sf -H "X-API-Key: $API_KEY" "$QUERY_URL$LIST" > /dev/null

run() { # url seconds -> "rps p50ms p99ms"
  wrk -t2 -c"$CONNECTIONS" -d"$2"s --latency -H "X-API-Key: $API_KEY" -H "Accept: application/json" "$1" |
    awk 'function ms(v) { if (v ~ /ms$/) {sub("ms","",v); return v} if (v ~ /us$/) {sub("us","",v); return v/1000}
                          if (v ~ /s$/) {sub("s","",v); return v*1000} return v }
         /Requests\/sec/ {rps=$2} / 50%/ {p50=ms($2)} / 99%/ {p99=ms($2)} END {print rps, p50, p99}'
}
echo "warm-up: ${WARMUP}s each"
run "$BASELINE_URL$LIST" "$WARMUP" > /dev/null
run "$QUERY_URL$LIST" "$WARMUP" > /dev/null

printf "%-4s %12s %9s %9s %12s %9s %9s %7s\n" run base_rps base_p50 base_p99 ryw_rps ryw_p50 ryw_p99 ratio
: > /tmp/ryw-runs.txt
for r in $(seq 1 "$RUNS"); do
  read -r brps bp50 bp99 <<< "$(run "$BASELINE_URL$LIST" "$DURATION")"
  read -r rrps rp50 rp99 <<< "$(run "$QUERY_URL$LIST" "$DURATION")"
  ratio=$(awk -v a="$rrps" -v b="$brps" 'BEGIN {printf "%.3f", a/b}')
  printf "%-4s %12s %9s %9s %12s %9s %9s %7s\n" "$r" "$brps" "$bp50" "$bp99" "$rrps" "$rp50" "$rp99" "$ratio"
  echo "$brps $bp50 $bp99 $rrps $rp50 $rp99 $ratio" >> /tmp/ryw-runs.txt
done
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
printf "%-4s %12s %9s %9s %12s %9s %9s %7s\n" median \
  "$(cut -d' ' -f1 /tmp/ryw-runs.txt | median)" "$(cut -d' ' -f2 /tmp/ryw-runs.txt | median)" \
  "$(cut -d' ' -f3 /tmp/ryw-runs.txt | median)" "$(cut -d' ' -f4 /tmp/ryw-runs.txt | median)" \
  "$(cut -d' ' -f5 /tmp/ryw-runs.txt | median)" "$(cut -d' ' -f6 /tmp/ryw-runs.txt | median)" \
  "$(cut -d' ' -f7 /tmp/ryw-runs.txt | median)"

curl -sf -X DELETE -H "X-API-Key: $API_KEY" "$GATEWAY_URL/v2.0/projects/$PROJECT" > /dev/null || true
java deploy/bench/ReadYourWritesBench.java "$GATEWAY_URL" "$PAIRS" 3 200 "$BASELINE_URL"
