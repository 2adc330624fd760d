# Shared by the bench scripts that start their own processes (reads-ab.sh, commands-ab.sh, gateway-ab.sh,
# command-split.sh): a stack of this build on its own ports and data folder, the seeding helpers, and the processes
# stopped on exit. The caller sets BENCH_DIR, PORT, COMMAND_PORT, QUERY_PORT, DB_PORT as it needs them.
log() { echo "[$(date +%T)] $*" >&2; }

# The whole machine's CPU time so far, in clock ticks: all processes' user, nice, system, irq and softirq time.
machine() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }

PIDS=() # every process a script starts, stopped when it exits
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done; wait 2> /dev/null || true; }
trap cleanup EXIT

start_stack() { # -> the stack up, API_KEY exported (its bootstrap key)
  DATA_DIR="$BENCH_DIR/data" PORT=$PORT COMMAND_PORT=$COMMAND_PORT QUERY_PORT=$QUERY_PORT EMBEDDED_DB_PORT=$DB_PORT \
    java -jar deploy/launcher/target/launcher-0.1.0-SNAPSHOT-exec.jar > "$BENCH_DIR/stack.log" 2>&1 &
  PIDS+=($!)
  until grep -q "is up" "$BENCH_DIR/stack.log" 2> /dev/null; do
    grep -q "Stopped\|failed" "$BENCH_DIR/stack.log" 2> /dev/null && { cat "$BENCH_DIR/stack.log"; exit 1; }; sleep 1
  done
  # shellcheck disable=SC1091
  source "$BENCH_DIR/data/bootstrap.env"; export API_KEY=$BOOTSTRAP_API_KEY
}

post() { curl -sf -X POST "http://localhost:$PORT/new$1" -H "X-API-Key: $API_KEY" -H 'Content-Type: application/json' -d "$2"; echo; }
field() { sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p"; }

seed_locales() { # -> $BENCH_DIR/locales.txt: the primary locales of 64 new projects, one id per line
  log "seeding: 64 projects"
  : > "$BENCH_DIR/locales.txt"
  for i in $(seq 1 64); do
    post /v2.0/projects "{\"name\":\"commands $i\",\"locale\":\"en-US\"}" | field primaryLocaleReference >> "$BENCH_DIR/locales.txt"
  done
}
