package ai.convo.command.callcounter;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.callcounter.CallRecord;
import ai.convo.contract.callcounter.CallRecordBatchId;
import ai.convo.contract.callcounter.CallRecordsIngestedEvent;
import ai.convo.contract.callcounter.CallRecordsIngestion;
import ai.convo.contract.callcounter.IngestCallRecordsCommand;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.Role;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.hamcrest.BaseMatcher;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The ingest command of a batch of call records: given (no history) / when (command) / then (events or error). */
class CallRecordBatchAggregateTest {

    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String PROJECT = "a00000000000000000000001";
    static final String SECOND_PROJECT = "a00000000000000000000002";
    static final String STRANGERS_PROJECT = "a00000000000000000000003";
    static final String UNKNOWN_PROJECT = "a0000000000000000000dead";
    static final String USER = "c00000000000000000000001";
    static final String BATCH = "d00000000000000000000001";
    static final long T0 = 1_767_225_600L; // 2026-01-01T00:00:00Z
    static final long NOW = 1_770_000_000L;
    static final Actor ADMIN = new Actor(USER, ORG, Role.ORG_ADMIN);

    /** The callIds taken per organisation, in memory, with the same contract as the real claims. */
    static final class FakeClaims implements CallIdClaims {
        final Map<String, Set<String>> taken = new HashMap<>();
        final List<Collection<String>> calls = new ArrayList<>();

        FakeClaims with(String organisationId, String... callIds) {
            taken.computeIfAbsent(organisationId, o -> new HashSet<>()).addAll(List.of(callIds));
            return this;
        }

        @Override
        public Set<String> claim(String organisationId, String batchId, Collection<String> callIds) {
            calls.add(List.copyOf(callIds));
            Set<String> mine = taken.computeIfAbsent(organisationId, o -> new HashSet<>());
            Set<String> fresh = new HashSet<>();
            for (String callId : callIds) {
                if (mine.add(callId)) {
                    fresh.add(callId);
                }
            }
            return fresh;
        }
    }

    private FixtureConfiguration<CallRecordBatchAggregate> fixture;
    private FakeClaims claims;

    @BeforeEach
    void setUp() {
        Map<String, String> owners = Map.of(PROJECT, ORG, SECOND_PROJECT, ORG, STRANGERS_PROJECT, OTHER_ORG);
        ProjectOwners projects = ids -> {
            Map<String, String> found = new HashMap<>();
            ids.forEach(id -> {
                if (owners.containsKey(id)) {
                    found.put(id, owners.get(id));
                }
            });
            return found;
        };
        claims = new FakeClaims();
        fixture = new AggregateTestFixture<>(CallRecordBatchAggregate.class);
        fixture.registerInjectableResource(projects);
        fixture.registerInjectableResource(claims);
    }

    static CallRecord call(String callId, long start, long end, boolean billable) {
        return new CallRecord(callId, PROJECT, start, end, billable);
    }

    static IngestCallRecordsCommand ingest(List<CallRecord> records) {
        return new IngestCallRecordsCommand(CallRecordBatchId.of(BATCH), ORG, ADMIN, records, NOW);
    }

    static CallRecordsIngestedEvent ingested(int part, int parts, List<CallRecord> records, int received, int duplicates) {
        return new CallRecordsIngestedEvent(BATCH, ORG, part, parts, records, received, duplicates, USER, NOW);
    }

    @Test
    void newRecordsBecomeOneEventWithTheCountsAsResult() {
        CallRecord a = call("call-a", T0, T0 + 90, true);
        CallRecord b = new CallRecord("call-b", SECOND_PROJECT, T0 + 10, T0 + 10, false);

        fixture.givenNoPriorActivity()
                .when(ingest(List.of(a, b)))
                .expectSuccessfulHandlerExecution()
                .expectEvents(ingested(0, 1, List.of(a, b), 2, 0))
                .expectResultMessagePayload(new CallRecordsIngestion(BATCH, ORG, 2, 2, 0));
    }

    @Test
    void recordsWhoseCallIdIsTakenAreLeftOutAndCounted() {
        claims.with(ORG, "call-a").with(OTHER_ORG, "call-b");
        CallRecord a = call("call-a", T0, T0 + 60, true);
        CallRecord b = call("call-b", T0, T0 + 60, true);

        // call-b is taken only by another organisation: callIds are unique per organisation.
        fixture.givenNoPriorActivity()
                .when(ingest(List.of(a, b)))
                .expectEvents(ingested(0, 1, List.of(b), 2, 1))
                .expectResultMessagePayload(new CallRecordsIngestion(BATCH, ORG, 2, 1, 1));
    }

    @Test
    void aCallIdRepeatedWithinTheBatchCountsOnceAsItsFirstOccurrence() {
        CallRecord first = call("call-a", T0, T0 + 60, true);
        CallRecord repeat = call("call-a", T0 + 500, T0 + 900, false);
        CallRecord other = call("call-z", T0, T0 + 1, false);

        fixture.givenNoPriorActivity()
                .when(ingest(List.of(first, repeat, other)))
                .expectEvents(ingested(0, 1, List.of(first, other), 3, 1))
                .expectResultMessagePayload(new CallRecordsIngestion(BATCH, ORG, 3, 2, 1));
        // Claimed once each, sorted (concurrent batches lock shared callIds in the same order).
        assertThat(claims.calls).containsExactly(List.of("call-a", "call-z"));
    }

    @Test
    void aBatchOfOnlyDuplicatesIsStillOneEventWithoutRecords() {
        claims.with(ORG, "call-a", "call-b");

        fixture.givenNoPriorActivity()
                .when(ingest(List.of(call("call-a", T0, T0 + 60, true), call("call-b", T0, T0 + 60, true))))
                .expectEvents(ingested(0, 1, List.of(), 2, 2))
                .expectResultMessagePayload(new CallRecordsIngestion(BATCH, ORG, 2, 0, 2));
    }

    @Test
    void aLargeBatchIsSplitIntoEventsOfAtMostOneThousandRecordsInOrder() {
        List<CallRecord> records = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            records.add(call(String.format("call-%05d", i), T0 + i, T0 + i + 30, i % 2 == 0));
        }

        fixture.givenNoPriorActivity()
                .when(ingest(records))
                .expectEvents(ingested(0, 3, records.subList(0, 1000), 2500, 0),
                        ingested(1, 3, records.subList(1000, 2000), 2500, 0),
                        ingested(2, 3, records.subList(2000, 2500), 2500, 0))
                .expectResultMessagePayload(new CallRecordsIngestion(BATCH, ORG, 2500, 2500, 0));
    }

    @Test
    void projectsThatAreUnknownOrOfAnotherOrganisationRejectTheBatchByIndex() {
        List<CallRecord> records = List.of(
                call("ok", T0, T0 + 60, true),
                new CallRecord("unknown", UNKNOWN_PROJECT, T0, T0 + 60, true),
                new CallRecord("foreign", STRANGERS_PROJECT, T0, T0 + 60, true));

        fixture.givenNoPriorActivity()
                .when(ingest(records))
                .expectNoEvents()
                .expectException(invalid(Map.of(
                        "records[1].projectId", "project " + UNKNOWN_PROJECT + " does not exist in organisation " + ORG,
                        "records[2].projectId", "project " + STRANGERS_PROJECT + " does not exist in organisation " + ORG)));
        assertThat(claims.calls).as("nothing is claimed for a rejected batch").isEmpty();
    }

    @Test
    void recordsBreakingTheRulesRejectTheWholeBatchListingEveryProblem() {
        List<CallRecord> records = List.of(
                call("fine", T0, T0 + 60, true),
                call("backwards", T0 + 60, T0, true),
                call("", -1, 2_147_483_648L, false),
                new CallRecord("x".repeat(65), "not-an-id", T0, T0, false));
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("records[1].endedAt", "must not be before startedAt; got endedAt " + T0 + " < startedAt " + (T0 + 60));
        expected.put("records[2].callId", "must be " + CallRecordProblems.CALL_ID_RULE + "; got '' (0 characters)");
        expected.put("records[2].startedAt", "must be " + CallRecordProblems.TIME_RULE + "; got -1");
        expected.put("records[2].endedAt", "must be " + CallRecordProblems.TIME_RULE + "; got 2147483648");
        expected.put("records[3].callId", "must be " + CallRecordProblems.CALL_ID_RULE + "; got '"
                + "x".repeat(40) + "...' (65 characters)");
        expected.put("records[3].projectId", "must be an id of 24 characters [a-z0-9]; got 'not-an-id' (9 characters)");

        fixture.givenNoPriorActivity()
                .when(ingest(records))
                .expectNoEvents()
                .expectException(invalid(expected));
    }

    @Test
    void aBatchMustHoldOneToTenThousandRecords() {
        List<CallRecord> tooMany = new ArrayList<>();
        for (int i = 0; i <= 10_000; i++) {
            tooMany.add(call("c" + i, T0, T0 + 1, false));
        }
        fixture.givenNoPriorActivity()
                .when(ingest(tooMany))
                .expectNoEvents()
                .expectException(invalid(Map.of("records", "must hold 1 to 10000 call records; got 10001")));
        fixture.givenNoPriorActivity()
                .when(ingest(List.of()))
                .expectNoEvents()
                .expectException(invalid(Map.of("records", "must hold 1 to 10000 call records; got 0")));
    }

    /** An INVALID DomainException with exactly these details. */
    static Matcher<Object> invalid(Map<String, Object> details) {
        return new BaseMatcher<>() {
            @Override
            public boolean matches(Object actual) {
                return actual instanceof DomainException e && e.kind() == DomainException.Kind.INVALID
                        && e.details().equals(details) && e.getMessage().contains("nothing was stored");
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("an INVALID DomainException with details " + details);
            }

            @Override
            public void describeMismatch(Object actual, Description description) {
                description.appendText("was " + (actual instanceof DomainException e
                        ? e.kind() + " '" + e.getMessage() + "' details " + e.details() : actual));
            }
        };
    }
}
