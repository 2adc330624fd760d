#!/usr/bin/env bash
# The hostile corpus (ai.convo.testing.HostileCorpus) in a long run over every route of both services: PER_ROUTE
# requests per route (default 200) from SEED (default: the time), each on a connection of its own. Prints, per
# service, the number of requests, the statuses and every finding (a 5xx, a refusal without its problem body, a
# leak, a refusal that stored something); exits non-zero if there is any. Needs `./mvnw -B install -DskipTests`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
PER_ROUTE=${PER_ROUTE:-200}
SEED=${SEED:-$(date +%s)}
status=0
for module in command-service query-service; do
  ./mvnw -B -o test -pl "$module" -Dtest=HostileCorpusTest -Dsurefire.failIfNoSpecifiedTests=false \
      -DargLine="-Dcorpus.perRoute=$PER_ROUTE -Dcorpus.seed=$SEED" > "$module/target/hostile.log" 2>&1 || status=1
  grep -a -E "^hostile corpus|^FINDING" "$module/target/hostile.log" || true
done
echo "seed $SEED, $PER_ROUTE requests per route; logs in command-service/target/hostile.log, query-service/target/hostile.log"
exit $status
