package ai.convo.query.api;

import ai.convo.contract.common.Ids;
import ai.convo.http.security.IdentityStore;
import ai.convo.http.security.Secrets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What the access decision costs a read, in one run: GET /v2.0/flows/{flowId} by an organisation administrator (the
 * filter decides at once) and by a basic member (current membership and the flow's project read per request),
 * interleaved in rounds after a warm-up; and the principal's current-state look-up on its own (what replaced a cache
 * hit). Medians. Run: -Dtest=AccessCostBench.
 */
class AccessCostBench extends QueryTestBase {

    @Autowired
    IdentityStore identities;

    @Test
    void measure() {
        Caller admin = newOrganisation();
        Project project = project(admin, "Bench", 1);
        String flowId = Ids.newId();
        Caller member = colleague(admin, "MEMBER");
        as(member, () -> append(flowId, new ai.convo.contract.flow.FlowCreatedEvent(flowId, project.id(),
                admin.organisationId(), java.util.UUID.randomUUID().toString(), "Main", "", admin.userId(), 1)));
        jdbc.update("INSERT INTO identity_member (project_id, user_id, organisation_id, roles, added_by, added_at) "
                + "VALUES (?, ?, ?, '{basic}', ?, 0)", project.id(), member.userId(), admin.organisationId(),
                admin.userId());
        int rounds = 10;
        int perRound = 200;
        long[] unchecked = new long[rounds * perRound];
        long[] checked = new long[rounds * perRound];
        read(member, flowId); // the member's read waits for the flow, their write, to be projected
        for (int warm = 0; warm < 500; warm++) {
            read(admin, flowId);
            read(member, flowId);
        }
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < perRound; i++) {
                unchecked[round * perRound + i] = read(admin, flowId);
                checked[round * perRound + i] = read(member, flowId);
            }
        }
        String hash = Secrets.hashApiKey(member.apiKey());
        long[] lookups = new long[4000];
        for (int i = 0; i < 1000; i++) {
            identities.findByApiKeyHash(hash).block();
        }
        for (int i = 0; i < lookups.length; i++) {
            long started = System.nanoTime();
            identities.findByApiKeyHash(hash).block();
            lookups[i] = System.nanoTime() - started;
        }
        long[] memberships = new long[4000];
        for (int i = 0; i < memberships.length; i++) {
            long started = System.nanoTime();
            identities.membership(member.userId(), project.id()).block();
            memberships[i] = System.nanoTime() - started;
        }
        System.out.printf("GET /v2.0/flows/{id}, %d each, interleaved: administrator (no check) median %.3f ms, "
                        + "basic member (membership + project look-up) median %.3f ms%n", unchecked.length,
                median(unchecked), median(checked));
        System.out.printf("principal by API key from current state: median %.3f ms; membership read: median %.3f ms%n",
                median(lookups), median(memberships));
    }

    private long read(Caller caller, String flowId) {
        long started = System.nanoTime();
        http.get().uri("/v2.0/flows/{id}", flowId).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectBody().returnResult();
        return System.nanoTime() - started;
    }

    private static double median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1_000_000.0;
    }
}
