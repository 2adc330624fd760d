#!/usr/bin/env bash
# Two settings of the same jars compared in interleaved rounds: A B A B ... Each round starts the stack afresh with
# that setting's environment (ENV_A, ENV_B: space-separated NAME=value pairs), warms up, then measures on a quiet
# system: the bare WebFlux endpoint, the uncached token list on the query service, the pgbench append ceiling, and the
# PATCH of 64 locales through the gateway and directly. Prints every round and the medians per setting, with the
# same-round ratios (tokens / bare, commands / ceiling).
#   ENV_A="MANAGEMENT_OBSERVATIONS_ENABLE_SPRING_SECURITY=true MANAGEMENT_METRICS_OBSERVATIONS_IGNORED_METERS=" \
#   ENV_B="" ROUNDS=3 deploy/bench/ab.sh
# WARMUP (60 s) is per target on each fresh stack: with 20 s, C2 was still compiling in all three JVMs during the
# measured commands, and they came out at a third to a half of the warm rate (this machine, 2 cores).
# Needs wrk, pgbench, psql and the built jars (./mvnw -B install -DskipTests).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROUNDS=${ROUNDS:-3}; WARMUP=${WARMUP:-60}; DURATION=${DURATION:-10}; CONNECTIONS=${CONNECTIONS:-32}
BENCH_DIR=${BENCH_DIR:-$(mktemp -d /tmp/convo-ab.XXXXXX)}; mkdir -p "$BENCH_DIR"
PORT=18080; COMMAND_PORT=18081; QUERY_PORT=18082; DB_PORT=18432; BASELINE_PORT=18090
LAUNCHER=deploy/launcher/target/launcher-0.1.0-SNAPSHOT-exec.jar
BASELINE_JAR=deploy/baseline/target/baseline-0.1.0-SNAPSHOT-exec.jar
PIDS=(); STACK=
cleanup() { [ -n "$STACK" ] && kill "$STACK" 2> /dev/null; for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
  wait 2> /dev/null || true; }
trap cleanup EXIT
log() { echo "[$(date +%T)] $*" >&2; }

start_stack() { # env...
  log "stack with: ${*:-(defaults)}"
  env "$@" DATA_DIR="$BENCH_DIR/data" PORT=$PORT COMMAND_PORT=$COMMAND_PORT QUERY_PORT=$QUERY_PORT \
    EMBEDDED_DB_PORT=$DB_PORT java -jar "$LAUNCHER" > "$BENCH_DIR/stack.log" 2>&1 &
  STACK=$!
  until grep -q "is up" "$BENCH_DIR/stack.log" 2> /dev/null; do
    grep -q "Stopped\|failed" "$BENCH_DIR/stack.log" 2> /dev/null && { cat "$BENCH_DIR/stack.log"; exit 1; }; sleep 1
  done
}
stop_stack() { kill "$STACK"; wait "$STACK" 2> /dev/null || true; STACK=; : > "$BENCH_DIR/stack.log"; }
run() { # url seconds connections [script] -> "rps p50ms p99ms non2xx"
  wrk -t2 -c"$3" -d"$2"s --latency ${4:+-s "$4"} -H "X-API-Key: $API_KEY" -H "Accept: application/json" "$1" | awk '
    function ms(v) { if (v ~ /ms$/) { sub("ms", "", v); return v } if (v ~ /us$/) { sub("us", "", v); return v / 1000 }
                     if (v ~ /s$/) { sub("s", "", v); return v * 1000 } return v }
    /Requests\/sec/ { rps = $2 } / 50%/ { p50 = ms($2) } / 99%/ { p99 = ms($2) } /Non-2xx/ { bad = $5 }
    END { printf "%.0f %.1f %.1f %d\n", rps, p50, p99, bad }'
}
post() { curl -sf -X POST "http://localhost:$PORT/new$1" -H "X-API-Key: $API_KEY" -H 'Content-Type: application/json' -d "$2"; echo; }
field() { sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p"; }

SERVER_PORT=$BASELINE_PORT java -XX:+UseSerialGC -Xmx256m -Dreactor.netty.ioWorkerCount=2 -jar "$BASELINE_JAR" \
  > "$BENCH_DIR/baseline.log" 2>&1 &
PIDS+=($!)
start_stack
# shellcheck disable=SC1091
source "$BENCH_DIR/data/bootstrap.env"; export API_KEY=$BOOTSTRAP_API_KEY
log "seeding: 64 projects, a token list of 36"
: > "$BENCH_DIR/locales.txt"
for i in $(seq 1 64); do
  post /v2.0/projects "{\"name\":\"commands $i\",\"locale\":\"en-US\"}" | field primaryLocaleReference >> "$BENCH_DIR/locales.txt"
done
TOKENS=$(post /v2.0/projects '{"name":"token list","locale":"en-US"}' | field _id)
for i in $(seq 1 36); do
  post "/v2.0/projects/$TOKENS/snippets" "{\"label\":\"token $i\",\"type\":\"custom\",\"script\":\"value $i\"}" > /dev/null
done
PSQL="psql -h 127.0.0.1 -p $DB_PORT -U postgres -d convo -qAt"
$PSQL -c "CREATE SEQUENCE bench_append_seq; CREATE TABLE bench_event_entry (LIKE domain_event_entry INCLUDING
  CONSTRAINTS INCLUDING INDEXES); ALTER TABLE bench_event_entry ALTER COLUMN global_index SET DEFAULT nextval('bench_append_seq')"
# the ceiling's Axon-shaped append, as run-all.sh defines it
sed -n '/^BEGIN;/,/^COMMIT;/p' deploy/bench/run-all.sh > "$BENCH_DIR/append.sql"
stop_stack

BASE="http://localhost:$BASELINE_PORT/fixed"
TOKEN_LIST="http://localhost:$QUERY_PORT/new/v2.0/projects/$TOKENS/snippets?limit=25"
export BASE_PATH=/new LOCALES="$BENCH_DIR/locales.txt"
for round in $(seq 1 "$ROUNDS"); do
  for setting in A B; do
    var="ENV_$setting"; read -r -a envs <<< "${!var:-}"
    start_stack "${envs[@]}"
    run "$BASE" "$WARMUP" "$CONNECTIONS" > /dev/null
    run "$TOKEN_LIST" "$WARMUP" "$CONNECTIONS" > /dev/null
    run "http://localhost:$PORT" "$WARMUP" "$CONNECTIONS" deploy/bench/patch.lua > /dev/null
    out="$BENCH_DIR/$setting.$round"
    echo "base $(run "$BASE" "$DURATION" "$CONNECTIONS")" > "$out"
    echo "tokens $(run "$TOKEN_LIST" "$DURATION" "$CONNECTIONS")" >> "$out"
    echo "ceiling $(pgbench -h 127.0.0.1 -p $DB_PORT -U postgres -n -c "$CONNECTIONS" -j 2 -T "$DURATION" \
      -f "$BENCH_DIR/append.sql" convo 2> /dev/null | awk '/^tps/ { printf "%.0f\n", $3 }')" >> "$out"
    echo "commands $(run "http://localhost:$PORT" "$DURATION" "$CONNECTIONS" deploy/bench/patch.lua)" >> "$out"
    echo "commands-direct $(run "http://localhost:$COMMAND_PORT" "$DURATION" "$CONNECTIONS" deploy/bench/patch.lua)" >> "$out"
    sed "s/^/$setting round $round: /" "$out" >&2
    stop_stack
  done
done

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for setting in A B; do
  col() { awk -v k="$1" -v c="$2" '$1 == k {print $c}' "$BENCH_DIR/$setting".* | median; }
  ratio() { for f in "$BENCH_DIR/$setting".*; do
      awk -v a="$1" -v b="$2" '$1 == a {x = $2} $1 == b {y = $2} END {printf "%.4f\n", x / y}' "$f"; done | median; }
  echo "$setting: tokens $(col tokens 2) req/s p99 $(col tokens 4) ms = $(ratio tokens base) of bare ($(col base 2));" \
    "commands $(col commands 2) req/s p99 $(col commands 4) ms = $(ratio commands ceiling) of the ceiling ($(col ceiling 2));" \
    "direct $(col commands-direct 2) req/s = $(ratio commands-direct ceiling)"
done
