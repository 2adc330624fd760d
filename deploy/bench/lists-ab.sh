#!/usr/bin/env bash
# The two list targets of issue 44 against their floors, for two builds of the query service side by side: the
# uncached token list (36 tokens, limit=25) against the floor-page (the same 25 tokens read over R2DBC and rendered
# with Jackson behind a Spring Security chain), the cached intent list (a flow of INTENTS intents, limit=25) against
# the floor-bytes (a fixed answer of the intent page's size behind that chain); both floors are deploy/baseline, as in
# run-all.sh. A and B run at once on one stack's database and are measured in interleaved runs (floor A B B A per
# target and round), so every ratio is of the same minute of the same machine. Prints every round, then the medians
# over rounds of each list's req/s and of its ratio to its floor (per round, then the median).
#   cp query-service/target/query-service-0.1.0-SNAPSHOT-exec.jar /tmp/a.jar   # before the change
#   ... change, ./mvnw -B -q -pl query-service -am package -DskipTests ...
#   JAR_A=/tmp/a.jar JAR_B=query-service/target/query-service-0.1.0-SNAPSHOT-exec.jar deploy/bench/lists-ab.sh
# Env: ROUNDS (5), SECONDS_EACH (8), WARMUP (40 s per target and side), CONNECTIONS (32), INTENTS (2000),
#      PORT_BASE (28000: the stack on +80.., the sides on +92/+93, the floors on +94/+95), ENV_A/ENV_B (as reads-ab.sh),
#      BENCH_DIR (a fresh temporary directory; one of an earlier run is reused with its seeded data),
#      PROFILE (0; 1 records a JFR profile of side B during one more run of each list, not measured, in BENCH_DIR;
#      JFR_SETTINGS: a .jfc for it, e.g. one sampling every 1 ms).
# Needs wrk, psql and the built jars (launcher, services, gateway, baseline).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
JAR_A=$(realpath "${JAR_A:?the query service jar before}")
JAR_B=$(realpath "${JAR_B:-query-service/target/query-service-0.1.0-SNAPSHOT-exec.jar}")
ROUNDS=${ROUNDS:-5}; SECONDS_EACH=${SECONDS_EACH:-8}; WARMUP=${WARMUP:-40}; CONNECTIONS=${CONNECTIONS:-32}
INTENTS=${INTENTS:-2000}; PROFILE=${PROFILE:-0}; PB=${PORT_BASE:-28000}
BENCH_DIR=${BENCH_DIR:-$(mktemp -d /tmp/convo-lists-ab.XXXXXX)}; mkdir -p "$BENCH_DIR"
PORT=$((PB + 80)); COMMAND_PORT=$((PB + 81)); QUERY_PORT=$((PB + 82)); DB_PORT=$((PB + 432))
A_PORT=$((PB + 92)); B_PORT=$((PB + 93)); BYTES_FLOOR_PORT=$((PB + 94)); PAGE_FLOOR_PORT=$((PB + 95))
BASELINE_JAR=deploy/baseline/target/baseline-0.1.0-SNAPSHOT-exec.jar
# shellcheck source=deploy/bench/lib.sh
source deploy/bench/lib.sh
log "stack in $BENCH_DIR"
start_stack
PSQL="psql -h 127.0.0.1 -p $DB_PORT -U postgres -d convo -qAt"

if [ -f "$BENCH_DIR/seeded" ]; then # a reused BENCH_DIR: its stack's data is seeded already
  TOKENS=$($PSQL -c "SELECT id FROM project_view WHERE name = 'token list' LIMIT 1")
  FLOW=$($PSQL -c "SELECT id FROM flow_view WHERE name = 'bench flow' LIMIT 1")
else
  log "seeding: a token list of 36, a flow of $INTENTS intents"
  TOKENS=$(post /v2.0/projects '{"name":"token list","locale":"en-US"}' | field _id)
  for i in $(seq 1 36); do
    post "/v2.0/projects/$TOKENS/snippets" "{\"label\":\"token $i\",\"type\":\"custom\",\"script\":\"value $i\"}" > /dev/null
  done
  FLOW=$(java deploy/bench/SeedFlow.java "http://localhost:$PORT/new" "$INTENTS" 10 16 2> /dev/null | tail -1)
  touch "$BENCH_DIR/seeded"
fi

for side in A:$A_PORT B:$B_PORT; do
  name=${side%%:*}; port=${side##*:}; jar_var="JAR_$name"; env_var="ENV_$name"
  read -r -a extra <<< "${!env_var:-}"
  env "${extra[@]}" SERVER_PORT="$port" MANAGEMENT_PORT=$((port + 1000)) \
    DB_HOST=127.0.0.1 DB_PORT=$DB_PORT DB_NAME=convo DB_USERNAME=postgres AXONIQ_UPDATE_CHECKER_DISABLED=true \
    java -XX:+UseSerialGC -Xmx512m -Dreactor.netty.ioWorkerCount=2 -jar "${!jar_var}" > "$BENCH_DIR/query-$name.log" 2>&1 &
  PIDS+=($!)
  eval "PID_$name=$!"
done
TOKEN_LIST() { echo "http://localhost:$1/new/v2.0/projects/$TOKENS/snippets?limit=25"; }
INTENT_LIST() { echo "http://localhost:$1/new/v2.0/flows/$FLOW/intents?limit=25"; }
for port in $A_PORT $B_PORT; do
  until [ "$(curl -s -H "X-API-Key: $API_KEY" "$(INTENT_LIST "$port")" | sed -n 's/.*"total":\([0-9]*\).*/\1/p')" = "$INTENTS" ]; do
    sleep 1
  done
done

INTENT_BYTES=$(curl -sf -H "X-API-Key: $API_KEY" "$(INTENT_LIST $A_PORT)" | wc -c)
API_KEY=$API_KEY SERVER_PORT=$BYTES_FLOOR_PORT java -XX:+UseSerialGC -Xmx256m -Dreactor.netty.ioWorkerCount=2 \
  -Dbaseline.secured=true -Dbaseline.body-bytes="$INTENT_BYTES" -jar "$BASELINE_JAR" > "$BENCH_DIR/floor-bytes.log" 2>&1 &
PIDS+=($!)
API_KEY=$API_KEY SERVER_PORT=$PAGE_FLOOR_PORT java -XX:+UseSerialGC -Xmx256m -Dreactor.netty.ioWorkerCount=2 \
  -Dbaseline.secured=true -Dbaseline.page-database="127.0.0.1:$DB_PORT/convo/postgres" -jar "$BASELINE_JAR" \
  > "$BENCH_DIR/floor-page.log" 2>&1 &
PIDS+=($!)
FLOOR_BYTES="http://localhost:$BYTES_FLOOR_PORT/fixed"
FLOOR_PAGE="http://localhost:$PAGE_FLOOR_PORT/page?org=$($PSQL -c "SELECT organisation_id FROM project_view WHERE id = '$TOKENS'")&project=$TOKENS"
until curl -sf -H "X-API-Key: $API_KEY" "$FLOOR_BYTES" > /dev/null; do sleep 0.5; done
until curl -sf -H "X-API-Key: $API_KEY" "$FLOOR_PAGE" > /dev/null; do sleep 0.5; done

run() { # url seconds -> req/s (NON-2XX:n appended when any)
  wrk -t2 -c"$CONNECTIONS" -d"$2"s -H "X-API-Key: $API_KEY" -H "Accept: application/json" "$1" |
    awk '/Requests\/sec/ {r = $2} /Non-2xx/ {bad = " NON-2XX:" $5} END {printf "%.0f%s", r, bad}'
}
log "warm-up ${WARMUP}s per target and side"
for url in "$FLOOR_PAGE" "$FLOOR_BYTES" "$(TOKEN_LIST $A_PORT)" "$(TOKEN_LIST $B_PORT)" \
           "$(INTENT_LIST $A_PORT)" "$(INTENT_LIST $B_PORT)"; do
  run "$url" "$WARMUP" > /dev/null
done
: > "$BENCH_DIR/rounds.txt"
for round in $(seq 1 "$ROUNDS"); do
  line="pageFloor $(run "$FLOOR_PAGE" "$SECONDS_EACH")"
  line="$line tokA $(run "$(TOKEN_LIST $A_PORT)" "$SECONDS_EACH") tokB $(run "$(TOKEN_LIST $B_PORT)" "$SECONDS_EACH")"
  line="$line tokB $(run "$(TOKEN_LIST $B_PORT)" "$SECONDS_EACH") tokA $(run "$(TOKEN_LIST $A_PORT)" "$SECONDS_EACH")"
  line="$line pageFloor $(run "$FLOOR_PAGE" "$SECONDS_EACH")"
  line="$line bytesFloor $(run "$FLOOR_BYTES" "$SECONDS_EACH")"
  line="$line intA $(run "$(INTENT_LIST $A_PORT)" "$SECONDS_EACH") intB $(run "$(INTENT_LIST $B_PORT)" "$SECONDS_EACH")"
  line="$line intB $(run "$(INTENT_LIST $B_PORT)" "$SECONDS_EACH") intA $(run "$(INTENT_LIST $A_PORT)" "$SECONDS_EACH")"
  line="$line bytesFloor $(run "$FLOOR_BYTES" "$SECONDS_EACH")"
  echo "$line" | tee -a "$BENCH_DIR/rounds.txt" >&2
done
# Per round: the mean of each key's two runs; each list's ratio to its floor of that round. Then medians over rounds.
awk '{delete s; delete n; for (i = 1; i < NF; i += 2) {s[$i] += $(i + 1); n[$i]++}
      for (k in s) m[k] = s[k] / n[k]
      print m["tokA"], m["tokB"], m["pageFloor"], m["tokA"] / m["pageFloor"], m["tokB"] / m["pageFloor"],
            m["intA"], m["intB"], m["bytesFloor"], m["intA"] / m["bytesFloor"], m["intB"] / m["bytesFloor"]}' \
  "$BENCH_DIR/rounds.txt" > "$BENCH_DIR/per-round.txt"
med() { cut -d' ' -f"$1" "$BENCH_DIR/per-round.txt" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
printf 'medians of %d rounds, %d connections, %d s runs:\n' "$ROUNDS" "$CONNECTIONS" "$SECONDS_EACH"
printf '  token list:  A %.0f, B %.0f req/s; its floor %.0f; A %.1f%%, B %.1f%% of the floor\n' \
  "$(med 1)" "$(med 2)" "$(med 3)" "$(awk -v r="$(med 4)" 'BEGIN {print 100 * r}')" "$(awk -v r="$(med 5)" 'BEGIN {print 100 * r}')"
printf '  intent list: A %.0f, B %.0f req/s; its floor %.0f (%d bytes); A %.1f%%, B %.1f%% of the floor\n' \
  "$(med 6)" "$(med 7)" "$(med 8)" "$INTENT_BYTES" "$(awk -v r="$(med 9)" 'BEGIN {print 100 * r}')" "$(awk -v r="$(med 10)" 'BEGIN {print 100 * r}')"

if [ "$PROFILE" = 1 ]; then # after the measured rounds: JFR's profile settings slow the service
  for list in TOKEN_LIST INTENT_LIST; do
    jcmd "$PID_B" JFR.start name=lists settings="${JFR_SETTINGS:-profile}" filename="$BENCH_DIR/$list-B.jfr" > /dev/null
    run "$($list $B_PORT)" 20 > /dev/null
    jcmd "$PID_B" JFR.stop name=lists > /dev/null
  done
  log "profiles: $BENCH_DIR/*.jfr"
fi
log "raw rounds in $BENCH_DIR/rounds.txt"
