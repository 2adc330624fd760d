package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.callcounter.CallRecord;
import ai.convo.contract.callcounter.CallRecordsIngestedEvent;
import ai.convo.contract.common.Ids;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.EntityExchangeResult;

/**
 * The counters against a brute-force computation over a generated data set: short, long, multi-day, zero-length,
 * touching and midnight-spanning calls, sent as out-of-order batches (later batches carry calls of earlier days)
 * with repeated callIds (deduplicated as the write side does: the first ingested wins) and one event delivered
 * twice, all through the real event store and processor.
 */
class CallCounterScaleTest extends QueryTestBase {

    static final int CALLS = 12_000;
    static final int DAYS = 14;
    static final int BATCHES = 9;
    static final int PER_EVENT = 1_000;

    @Test
    void theCountersEqualABruteForceComputationAfterLateDuplicateAndOutOfOrderBatches() {
        Caller caller = newOrganisation();
        Random random = new Random(20_251_122L);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        LocalDate last = today.minusDays(3);
        LocalDate first = last.minusDays(DAYS - 1);
        long windowStart = first.atStartOfDay().toEpochSecond(ZoneOffset.UTC) - 86_400; // calls from the day before
        long windowSeconds = (DAYS + 1) * 86_400L;
        String project = Ids.newId();

        List<CallRecord> calls = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            long start;
            long duration;
            int kind = random.nextInt(100);
            if (kind < 8) {
                // around midnight, often running into the next day
                long day = windowStart / 86_400 + random.nextInt(DAYS + 1);
                start = (day + 1) * 86_400 - 1 - random.nextInt(1_800);
                duration = random.nextInt(3_600);
            } else if (kind < 11) {
                start = windowStart + (long) (random.nextDouble() * windowSeconds);
                duration = 0;
            } else if (kind < 12) {
                start = windowStart + (long) (random.nextDouble() * windowSeconds);
                duration = 86_400L + random.nextInt(3 * 86_400);
            } else if (kind < 20 && !calls.isEmpty()) {
                // starts exactly when an earlier call ends
                start = calls.get(random.nextInt(calls.size())).endedAt();
                duration = 1 + random.nextInt(900);
            } else if (kind < 30) {
                start = windowStart + (long) (random.nextDouble() * windowSeconds);
                duration = 600 + random.nextInt(3 * 3_600);
            } else {
                // busy hours: many calls close together
                long day = windowStart / 86_400 + random.nextInt(DAYS + 1);
                start = day * 86_400 + 9 * 3_600 + random.nextInt(8 * 3_600);
                duration = 1 + random.nextInt(600);
            }
            calls.add(new CallRecord("call-" + i, project, start, start + duration, random.nextInt(10) < 7));
        }

        // Batches by start time, sent in shuffled order; some records repeated (same callId, other data) later.
        List<CallRecord> byStart = new ArrayList<>(calls);
        byStart.sort((a, b) -> Long.compare(a.startedAt(), b.startedAt()));
        List<List<CallRecord>> batches = new ArrayList<>();
        int size = CALLS / BATCHES + 1;
        for (int from = 0; from < CALLS; from += size) {
            batches.add(new ArrayList<>(byStart.subList(from, Math.min(CALLS, from + size))));
        }
        Collections.shuffle(batches, random);
        for (int b = 1; b < batches.size(); b++) {
            for (int r = 0; r < 150; r++) {
                CallRecord earlier = batches.get(random.nextInt(b)).get(0);
                batches.get(b).add(random.nextInt(batches.get(b).size()),
                        new CallRecord(earlier.callId(), project, earlier.startedAt() + 5, earlier.endedAt() + 500, true));
            }
        }

        // The write side's deduplication: a callId counts once, as the first ingested record.
        Set<String> taken = new HashSet<>();
        List<CallRecord> counted = new ArrayList<>();
        long position = 0;
        CallRecordsIngestedEvent redelivered = null;
        for (List<CallRecord> batch : batches) {
            List<CallRecord> fresh = new ArrayList<>();
            for (CallRecord record : batch) {
                if (taken.add(record.callId())) {
                    fresh.add(record);
                }
            }
            counted.addAll(fresh);
            String batchId = Ids.newId();
            int parts = (fresh.size() + PER_EVENT - 1) / PER_EVENT;
            for (int part = 0; part < parts; part++) {
                CallRecordsIngestedEvent event = new CallRecordsIngestedEvent(batchId, caller.organisationId(), part,
                        parts, List.copyOf(fresh.subList(part * PER_EVENT, Math.min(fresh.size(), (part + 1) * PER_EVENT))),
                        batch.size(), batch.size() - fresh.size(), caller.userId(), 0);
                position = append(batchId, event);
                if (redelivered == null) {
                    redelivered = event;
                }
            }
        }
        assertThat(counted).hasSize(CALLS);
        // The same event part once more (as an at-least-once transport might deliver it): counted once.
        position = append(Ids.newId(), redelivered);

        List<Map<String, Object>> expected = CallCounterBruteForce.days(counted, first, last).stream()
                .map(CallCounterBruteForce.Day::toWire).toList();
        List<Map<String, Object>> actual = read(caller, "/v3.0/callcounter?from=" + first + "&to=" + last, position);

        assertThat(actual).hasSize(DAYS);
        for (int i = 0; i < DAYS; i++) {
            assertThat(normalised(actual.get(i))).as("day " + first.plusDays(i)).isEqualTo(expected.get(i));
        }
        assertThat(expected.stream().mapToLong(d -> ((Number) d.get("maxConcurrency")).longValue()).max().orElse(0))
                .as("the data set really overlaps").isGreaterThan(20);
    }

    /** Ingesting this many records takes longer than one read may wait: a 503 (catching up) is asked again. */
    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> read(Caller caller, String uri, long position) {
        long deadline = System.currentTimeMillis() + 60_000;
        while (true) {
            EntityExchangeResult<Map> result = http.get().uri(uri).header("X-API-Key", caller.apiKey())
                    .header("X-Event-Position", Long.toString(position))
                    .exchange().expectBody(Map.class).returnResult();
            if (result.getStatus().value() == 503 && System.currentTimeMillis() < deadline) {
                continue;
            }
            assertThat(result.getStatus().value()).as(String.valueOf(result.getResponseBody())).isEqualTo(200);
            assertThat(result.getResponseHeaders().getFirst("X-Event-Position-Reached")).isEqualTo("true");
            return (List<Map<String, Object>>) result.getResponseBody().get("items");
        }
    }

    private static Map<String, Object> normalised(Map<String, Object> entry) {
        Map<String, Object> out = new LinkedHashMap<>();
        entry.forEach((key, value) -> out.put(key, key.equals("day") || key.equals("month") || key.equals("year")
                ? value : ((Number) value).longValue()));
        return out;
    }
}
