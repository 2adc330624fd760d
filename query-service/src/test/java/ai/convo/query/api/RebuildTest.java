package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenUpdatedEvent;
import ai.convo.query.rebuild.Rebuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.util.ReflectionTestUtils;

/**
 * Rebuilding projections from the event log while the service serves: the new tables equal the live ones (digests),
 * reads and writes go on across the switch, a cancel leaves the live tables alone, a stopped rebuild resumes, and a
 * live table that went wrong is put right.
 */
class RebuildTest extends QueryTestBase {

    @Autowired
    Rebuilder rebuilder;

    private String request(List<String> projections, boolean requireIdentical) {
        return requestRebuild(projections, requireIdentical);
    }

    private Map<String, Object> awaitEnd(String id) {
        return awaitRebuild(id);
    }

    private String token(Caller caller, Project project, String label) {
        String id = Ids.newId();
        append(id, new TokenCreatedEvent(id, project.id(), caller.organisationId(), UUID.randomUUID().toString(),
                label, "custom", "s", caller.userId(), 1));
        return id;
    }

    private boolean schemaExists(String name) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = ?)",
                Boolean.class, name));
    }

    /** A rebuild of {@code projections} (identical required) over 50 new tokens, whose runner stopped after two batches. */
    private String stoppedHalfway(String name, List<String> projections) {
        Caller caller = newOrganisation();
        Project project = project(caller, name, 1);
        for (int i = 0; i < 50; i++) {
            token(caller, project, "token " + i);
        }
        // claimed by a runner that stopped, in the request's own statement (a request wakes the live runners at once)
        String id = Ids.newId();
        String stale = "stopped-" + id;
        jdbc.update("INSERT INTO projection_rebuild (id, projections, require_identical, runner, lease_until) "
                + "VALUES (?, ?, true, ?, now() + interval '1 hour')", id, projections.toArray(String[]::new), stale);
        AtomicInteger batches = new AtomicInteger();
        rebuilder.run(id, stale, () -> batches.incrementAndGet() < 3);
        return id;
    }

    @Test
    void aRebuildOfEverythingEqualsTheLiveTablesAndTheServiceGoesOnServing() {
        // given: a project with tokens, one renamed, as the log has them
        Caller caller = newOrganisation();
        Project project = project(caller, "Rebuilt", 1);
        String token = token(caller, project, "first");
        long renamed = append(token, new TokenUpdatedEvent(token, project.id(), caller.organisationId(), List.of("label"), "renamed",
                "custom", "s", caller.userId(), 2));
        http.get().uri("/v2.0/projects/{p}/snippets/{id}", project.id(), token).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(renamed)).exchange().expectStatus().isOk();
        Long oidBefore = jdbc.queryForObject("SELECT 'public.token_view'::regclass::oid::bigint", Long.class);

        // and: the read tables as the log says them. Other tests of this shared database change rows behind the log's
        // back (an intent renamed to show a cache miss, system messages removed to start from none); a first rebuild,
        // not required to be identical, puts them right, which is what a rebuild after a projection fix does.
        List<String> all = List.copyOf(ai.convo.query.rebuild.ReadModelTables.PROJECTIONS.keySet());
        Map<String, Object> repaired = awaitEnd(request(all, false));
        assertThat(repaired.get("status")).as("%s", repaired.get("fail_reason")).isEqualTo("done");

        // when: everything is rebuilt again, identical required
        String id = request(all, true);
        Map<String, Object> row = awaitEnd(id);

        // then: switched, identical, the new tables serve and follow new events
        assertThat(row.get("status")).as("%s %s", row.get("fail_reason"), row.get("digests")).isEqualTo("done");
        assertThat(row.get("identical")).isEqualTo(true);
        assertThat(jdbc.queryForObject("SELECT 'public.token_view'::regclass::oid::bigint", Long.class))
                .as("token_view is a new table").isNotEqualTo(oidBefore);
        assertThat(schemaExists("rebuild_" + id)).isFalse();
        assertThat(schemaExists("retired_" + id)).isFalse();
        http.get().uri("/v2.0/projects/{p}/snippets/{id}", project.id(), token).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.label").isEqualTo("renamed");
        String later = token(caller, project, "after the switch");
        long position = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
        http.get().uri("/v2.0/projects/{p}/snippets/{id}", project.id(), later).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.label").isEqualTo("after the switch");
        // the history trigger and the audit view came along with the new tables
        assertThat(jdbc.queryForObject("SELECT count(*) FROM row_history WHERE table_name = 'token_view' AND row_id = ?",
                Integer.class, later)).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM audit_event_view", Long.class))
                .isEqualTo(jdbc.queryForObject("SELECT (SELECT count(*) FROM audit_event) "
                        + "+ (SELECT count(*) FROM refused_request)", Long.class));
    }

    @Test
    void writesDuringTheRebuildAreInTheSwitchedTablesExactlyOnce() throws Exception {
        // given: a project receiving tokens from another thread all through the rebuild
        Caller caller = newOrganisation();
        Project project = project(caller, "Busy", 1);
        for (int i = 0; i < 200; i++) {
            token(caller, project, "before " + i);
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger written = new AtomicInteger();
        Thread writer = new Thread(() -> {
            while (writing.get()) {
                token(caller, project, "during " + written.incrementAndGet());
            }
        });
        writer.start();
        String id;
        Map<String, Object> row;
        try {
            // when: the tokens projection is rebuilt (small batches: several passes while the writer goes on)
            id = request(List.of("tokens"), true);
            row = awaitEnd(id);
        } finally {
            writing.set(false);
            writer.join();
        }
        long position = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);

        // then: identical at the switch, and every token written is there once
        assertThat(row.get("status")).as("%s", row.get("fail_reason")).isEqualTo("done");
        assertThat(row.get("identical")).isEqualTo(true);
        http.get().uri("/v2.0/projects/{id}/snippets?limit=1", project.id()).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.total").isEqualTo(200 + written.get()); // the list leaves out default tokens
    }

    @Test
    void aRequestWakesTheRunnerAtOnceWithoutWaitingForItsPoll() {
        // given
        long before = rebuildRunner.requestsHeard();
        // when: a request as the command service's task writes it
        String id = request(List.of("tokens"), true);
        // then: its notification reached the runner (the poll would not count), and the rebuild ran
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (rebuildRunner.requestsHeard() == before && System.nanoTime() < deadline) {
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
        assertThat(rebuildRunner.requestsHeard()).isGreaterThan(before);
        assertThat(awaitEnd(id)).containsEntry("status", "done");
    }

    @Test
    void aCancelledRebuildLeavesTheLiveTablesAndDropsItsOwn() {
        // given
        Caller caller = newOrganisation();
        project(caller, "Cancelled", 1);
        Long oidBefore = jdbc.queryForObject("SELECT 'public.token_view'::regclass::oid::bigint", Long.class);
        // a request cancelled before any runner took it (a request wakes the runners at once: one statement)
        String id = Ids.newId();
        jdbc.update("INSERT INTO projection_rebuild (id, projections, require_identical, cancel_requested) "
                + "VALUES (?, ?, false, true)", id, new String[] {"tokens"});

        // when
        Map<String, Object> row = awaitEnd(id);

        // then
        assertThat(row.get("status")).isEqualTo("cancelled");
        assertThat(schemaExists("rebuild_" + id)).isFalse();
        assertThat(jdbc.queryForObject("SELECT 'public.token_view'::regclass::oid::bigint", Long.class))
                .isEqualTo(oidBefore);
    }

    @Test
    void aRebuildStoppedHalfwayResumesFromItsProgress() {
        // given: a rebuild whose runner stopped after a few batches (as when its replica dies)
        String id = stoppedHalfway("Resumed", List.of("tokens", "projects"));
        Map<String, Object> halfway = jdbc.queryForMap("SELECT * FROM projection_rebuild WHERE id = ?", id);
        assertThat(halfway.get("status")).isEqualTo("running");
        assertThat(jdbc.queryForObject("SELECT max(s) FROM projection_rebuild, unnest(scanned_to) s WHERE id = ?",
                Long.class, id)).isGreaterThan(-1L);
        assertThat(schemaExists("rebuild_" + id)).isTrue();

        // when: its lease runs out and a runner claims it
        jdbc.update("UPDATE projection_rebuild SET lease_until = now() - interval '1 second' WHERE id = ?", id);
        Map<String, Object> row = awaitEnd(id);

        // then: it went on from where it stood and switched identical tables
        assertThat(row.get("status")).as("%s", row.get("fail_reason")).isEqualTo("done");
        assertThat(row.get("identical")).isEqualTo(true);
    }

    @Test
    void aRebuildWithTwoWorkersStoppedHalfwayResumesAndEqualsTheLiveTables() {
        // given: two workers, each applying its share of the sequences that one reader hands both, and a rebuild of
        // them stopped after two batches were handed out
        Object workers = ReflectionTestUtils.getField(rebuilder, "workers");
        try {
            ReflectionTestUtils.setField(rebuilder, "workers", 2);
            // the event log as the log says it (other tests change it behind the log's back)
            Map<String, Object> repaired = awaitEnd(request(List.of("eventlog"), false));
            assertThat(repaired.get("status")).as("%s", repaired.get("fail_reason")).isEqualTo("done");
            String id = stoppedHalfway("Two workers", List.of("tokens", "projects", "eventlog"));
            Map<String, Object> halfway = jdbc.queryForMap("SELECT status, array_length(scanned_to, 1) AS workers, "
                    + "(SELECT max(s) FROM unnest(scanned_to) s) AS furthest FROM projection_rebuild WHERE id = ?", id);
            assertThat(halfway.get("status")).isEqualTo("running");
            assertThat(halfway.get("workers")).isEqualTo(2);
            assertThat((Long) halfway.get("furthest")).as("the batches handed out were applied").isGreaterThan(-1L);

            // when: its lease runs out and a runner claims it
            jdbc.update("UPDATE projection_rebuild SET lease_until = now() - interval '1 second' WHERE id = ?", id);
            Map<String, Object> row = awaitEnd(id);

            // then: both workers went on from their own progress and the switched tables are identical
            assertThat(row.get("status")).as("%s %s", row.get("fail_reason"), row.get("digests")).isEqualTo("done");
            assertThat(row.get("identical")).isEqualTo(true);
        } finally {
            ReflectionTestUtils.setField(rebuilder, "workers", workers);
        }
    }

    @Test
    void aRebuildWhoseCopiesACrashEmptiedStartsAgain() {
        // given: a rebuild stopped halfway, whose unlogged copies PostgreSQL's crash recovery then emptied
        String id = stoppedHalfway("Crashed", List.of("tokens", "projects"));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM rebuild_" + id + ".token_view", Long.class)).isPositive();
        jdbc.queryForList("SELECT table_name FROM information_schema.tables WHERE table_schema = ?", String.class,
                "rebuild_" + id).forEach(table -> jdbc.execute("TRUNCATE rebuild_" + id + "." + table));

        // when: a runner claims it
        jdbc.update("UPDATE projection_rebuild SET lease_until = now() - interval '1 second' WHERE id = ?", id);
        Map<String, Object> row = awaitEnd(id);

        // then: it started again rather than go on over empty copies, and switched identical tables
        assertThat(row.get("status")).as("%s", row.get("fail_reason")).isEqualTo("done");
        assertThat(row.get("identical")).isEqualTo(true);
    }

    @Test
    void aLiveTableThatWentWrongIsRefusedWhenIdenticalIsRequiredAndPutRightOtherwise() {
        // given: a live row that no event explains (as a projection bug would leave it)
        Caller caller = newOrganisation();
        Project project = project(caller, "Repaired", 1);
        String token = token(caller, project, "true label");
        long position = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
        http.get().uri("/v2.0/projects/{p}/snippets/{id}", project.id(), token).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange().expectStatus().isOk();
        jdbc.update("UPDATE token_view SET label = 'corrupted' WHERE id = ?", token);

        // when: identical required
        Map<String, Object> refused = awaitEnd(request(List.of("tokens"), true));

        // then: refused, the live table kept as it was
        assertThat(refused.get("status")).isEqualTo("failed");
        assertThat(refused.get("identical")).isEqualTo(false);
        assertThat((String) refused.get("fail_reason")).contains("differ");
        assertThat(refused.get("digests").toString()).contains("token_view");
        assertThat(jdbc.queryForObject("SELECT label FROM token_view WHERE id = ?", String.class, token))
                .isEqualTo("corrupted");

        // when: rebuilt without that requirement
        Map<String, Object> repaired = awaitEnd(request(List.of("tokens"), false));

        // then: switched, and the row is what the log says
        assertThat(repaired.get("status")).isEqualTo("done");
        assertThat(repaired.get("identical")).isEqualTo(false);
        http.get().uri("/v2.0/projects/{p}/snippets/{id}", project.id(), token).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.label").isEqualTo("true label");
    }

    @Test
    void onlySystemAdministratorsSeeTheProjections() {
        Caller caller = newOrganisation();
        http.get().uri("/management/v2.0/projections").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isForbidden();
        Caller admin = colleague(caller, "SYSTEM_ADMIN");
        http.get().uri("/management/v2.0/projections").header("X-API-Key", admin.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.projections[0].name").isEqualTo("projects");
        http.get().uri("/management/v2.0/projections/digest?projection=tokens").header("X-API-Key", admin.apiKey())
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.tables.token_view.sum").isNotEmpty();
        http.get().uri("/management/v2.0/projections/digest?projection=nope").header("X-API-Key", admin.apiKey())
                .exchange().expectStatus().isBadRequest();
        http.get().uri("/management/v2.0/projections/rebuilds/{id}", Ids.newId()).header("X-API-Key", admin.apiKey())
                .exchange().expectStatus().isNotFound();
    }
}
