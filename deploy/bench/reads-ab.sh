#!/usr/bin/env bash
# Two builds of the query service side by side on one stack's database, for changes of the read path: A and B run at
# once (ports 18092 and 18093, beside the stack's own query service), and are measured in interleaved short runs,
# A B B A, so both see the same machine. Prints every round and the mean per target: the bare WebFlux endpoint, the
# uncached token list (36 tokens, limit=25) and the cached intent list (a flow of INTENTS intents, limit=25).
#   cp query-service/target/query-service-0.1.0-SNAPSHOT-exec.jar /tmp/a.jar   # before the change
#   ... change, ./mvnw -B -q install -DskipTests ...
#   JAR_A=/tmp/a.jar JAR_B=query-service/target/query-service-0.1.0-SNAPSHOT-exec.jar deploy/bench/reads-ab.sh
# ENV_A, ENV_B: space-separated NAME=value pairs for one side only (e.g. ENV_B=APP_CONSISTENCY_PER_PRINCIPAL=false).
# Env: ROUNDS (3), SECONDS_EACH (6), WARMUP (30 s per target and side), CONNECTIONS (32), INTENTS (2000), GAP (0; 1
#      leaves a position no event takes, as an append that rolled back does, below a write of the bench's principal:
#      what run-all's history runs leave, where two command services write the same aggregates).
# Needs wrk and the built jars (./mvnw -B install -DskipTests).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
JAR_A=$(realpath "${JAR_A:?the query service jar before}"); JAR_B=$(realpath "${JAR_B:?the query service jar after}")
ROUNDS=${ROUNDS:-3}; SECONDS_EACH=${SECONDS_EACH:-6}; WARMUP=${WARMUP:-30}; CONNECTIONS=${CONNECTIONS:-32}
INTENTS=${INTENTS:-2000}
BENCH_DIR=${BENCH_DIR:-$(mktemp -d /tmp/convo-reads-ab.XXXXXX)}; mkdir -p "$BENCH_DIR"
PORT=18080; COMMAND_PORT=18081; QUERY_PORT=18082; DB_PORT=18432; BASELINE_PORT=18090
BASELINE_JAR=deploy/baseline/target/baseline-0.1.0-SNAPSHOT-exec.jar
# shellcheck source=deploy/bench/lib.sh
source deploy/bench/lib.sh
start_stack
SERVER_PORT=$BASELINE_PORT java -XX:+UseSerialGC -Xmx256m -Dreactor.netty.ioWorkerCount=2 -jar "$BASELINE_JAR" \
  > "$BENCH_DIR/baseline.log" 2>&1 &
PIDS+=($!)

log "seeding: a token list of 36, a flow of $INTENTS intents"
TOKENS=$(post /v2.0/projects '{"name":"token list","locale":"en-US"}' | field _id)
for i in $(seq 1 36); do
  post "/v2.0/projects/$TOKENS/snippets" "{\"label\":\"token $i\",\"type\":\"custom\",\"script\":\"value $i\"}" > /dev/null
done
FLOW=$(java deploy/bench/SeedFlow.java "http://localhost:$PORT/new" "$INTENTS" 10 16 2> /dev/null | tail -1)
if [ "${GAP:-0}" = 1 ]; then
  psql -h 127.0.0.1 -p $DB_PORT -U postgres -d convo -qAt \
    -c "SELECT nextval(pg_get_serial_sequence('domain_event_entry', 'global_index'))" > /dev/null
  post /v2.0/projects '{"name":"after the gap","locale":"en-US"}' > /dev/null
fi

for side in A:18092 B:18093; do
  name=${side%%:*}; port=${side##*:}; jar_var="JAR_$name"; env_var="ENV_$name"
  read -r -a extra <<< "${!env_var:-}"
  env "${extra[@]}" SERVER_PORT="$port" MANAGEMENT_PORT=$((port + 1000)) \
    DB_HOST=127.0.0.1 DB_PORT=$DB_PORT DB_NAME=convo DB_USERNAME=postgres AXONIQ_UPDATE_CHECKER_DISABLED=true \
    java -XX:+UseSerialGC -Xmx512m -Dreactor.netty.ioWorkerCount=2 -jar "${!jar_var}" > "$BENCH_DIR/query-$name.log" 2>&1 &
  PIDS+=($!)
done
for port in 18092 18093 $BASELINE_PORT; do
  until curl -s -o /dev/null "http://localhost:$port/"; do sleep 1; done
done

run() { # url seconds -> req/s
  wrk -t2 -c"$CONNECTIONS" -d"$2"s -H "X-API-Key: $API_KEY" -H "Accept: application/json" "$1" |
    awk '/Requests\/sec/ {r = $2} /Non-2xx/ {bad = " NON-2XX:" $5} END {printf "%.0f%s", r, bad}'
}
tokens() { echo "http://localhost:$1/new/v2.0/projects/$TOKENS/snippets?limit=25"; }
intents() { echo "http://localhost:$1/new/v2.0/flows/$FLOW/intents?limit=25"; }
log "warm-up ${WARMUP}s per target and side"
run "http://localhost:$BASELINE_PORT/fixed" "$WARMUP" > /dev/null
for port in 18092 18093; do run "$(tokens $port)" "$WARMUP" > /dev/null; run "$(intents $port)" "$WARMUP" > /dev/null; done
: > "$BENCH_DIR/rounds.txt" # a reused BENCH_DIR must not mix in an earlier run's rounds
for round in $(seq 1 "$ROUNDS"); do
  line="bare $(run "http://localhost:$BASELINE_PORT/fixed" "$SECONDS_EACH")"
  for step in tokens:18092:tokA tokens:18093:tokB intents:18092:intA intents:18093:intB \
              tokens:18093:tokB tokens:18092:tokA intents:18093:intB intents:18092:intA; do
    IFS=: read -r what port label <<< "$step"
    line="$line $label $(run "$($what "$port")" "$SECONDS_EACH")"
  done
  echo "$line" | tee -a "$BENCH_DIR/rounds.txt" >&2
done
awk '{for (i = 1; i < NF; i += 2) {sum[$i] += $(i + 1); n[$i]++}}
  END {printf "means over %d runs each: bare %.0f, token list A %.0f B %.0f (B/A %.3f), intent list A %.0f B %.0f (B/A %.3f)\n",
       n["tokA"], sum["bare"] / n["bare"], sum["tokA"] / n["tokA"], sum["tokB"] / n["tokB"],
       (sum["tokB"] / n["tokB"]) / (sum["tokA"] / n["tokA"]), sum["intA"] / n["intA"], sum["intB"] / n["intB"],
       (sum["intB"] / n["intB"]) / (sum["intA"] / n["intA"])}' "$BENCH_DIR/rounds.txt"
