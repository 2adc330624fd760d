package ai.convo.query.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.persistence.DatabaseSettings;
import ai.convo.persistence.PersistenceConfiguration;
import ai.convo.query.readmodel.ReadModelDatabase;
import ai.convo.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.TreeSet;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.netty.resources.LoopResources;

/**
 * One principal, two clients: write A gets position 41, write B 42; B commits and is read by the processors first,
 * so their tokens say "read up to 42, 41 missing". The principal's newest write is 42; a read of it must still wait
 * for 41, its own write too. A gap no event fills (an append that rolled back) is not waited for.
 */
@Tag("integration")
class ProjectionProgressTest {

    private static final LoopResources LOOPS = LoopResources.create("progress-test", 1, true);
    private static TestDatabase.Settings db;
    private static ProjectionProgress progress;

    @BeforeAll
    static void database() throws Exception {
        db = TestDatabase.newDatabase();
        Flyway.configure().dataSource(db.jdbcUrl(), db.username(), db.password()).locations("classpath:db/common")
                .table("flyway_history_common").load().migrate();
        DatabaseSettings settings = new DatabaseSettings(db.host(), db.port(), db.database(), db.username(),
                db.password(), 2, 2);
        DatabaseClient client = DatabaseClient.create(PersistenceConfiguration.postgres(settings, LOOPS));
        progress = new ProjectionProgress(null, client, client,
                new ReadModelDatabase(settings, "", 0, "", "", "", 0));
    }

    @AfterAll
    static void close() {
        LOOPS.dispose();
    }

    private static void append(long globalIndex) throws Exception {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
             Statement s = c.createStatement()) {
            s.execute("INSERT INTO domain_event_entry (global_index, event_identifier, aggregate_identifier, "
                    + "sequence_number, type, time_stamp, payload_type, payload) VALUES (" + globalIndex + ", 'e"
                    + globalIndex + "', 'agg" + globalIndex + "', 0, 'T', '2026-11-24T00:00:00Z', 'P', '\\x7b7d')");
        }
    }

    private static ProjectionProgress.Covered token(long index, Long... gaps) {
        return new ProjectionProgress.Covered(index, new TreeSet<>(List.of(gaps)));
    }

    @Test
    void givenTheNewestWriteReadButAnEarlierCommittedOneStillAGap_whenAsked_thenNotReached() throws Exception {
        append(41);
        append(42);

        assertThat(progress.decide(List.of(token(42, 41L), token(42)), 42).block()).isFalse();
        // once both segments have read 41 as well
        assertThat(progress.decide(List.of(token(42), token(43)), 42).block()).isTrue();
    }

    @Test
    void givenAGapNoEventFills_whenAsked_thenReached() throws Exception {
        append(52);

        assertThat(progress.decide(List.of(token(52, 51L), token(53, 51L)), 52).block()).isTrue();
    }

    @Test
    void givenASegmentNotYetPastThePosition_whenAsked_thenNotReached() {
        assertThat(progress.decide(List.of(token(60), token(59)), 60).block()).isFalse();
    }

    @Test
    void givenAGapTheReadsOwnLookUpFoundEmpty_whenAsked_thenReachedWithoutLookingAgain() throws Exception {
        // the read's look-up, made after it arrived, found 71 empty; what commits there later is no write of its
        append(71);
        append(72);

        assertThat(progress.decide(List.of(token(72, 71L)), 72, java.util.Set.of(71L)).block()).isTrue();
        assertThat(progress.decide(List.of(token(72, 71L)), 72, java.util.Set.of()).block()).isFalse();
    }

    @Test
    void givenGapsSomeFoundEmpty_whenWorkingOutHowFarEverythingIsProjected_thenOnlyTheOthersHoldItBack() {
        ProjectionProgress.Covered segment = token(95, 91L, 93L);

        assertThat(segment.safeBut(java.util.Set.of())).isEqualTo(90);
        assertThat(segment.safeBut(java.util.Set.of(91L))).isEqualTo(92);
        assertThat(segment.safeBut(java.util.Set.of(91L, 93L))).isEqualTo(95);
    }
}
