package ai.convo.command.project;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.persistence.AxonSerializers;
import ai.convo.testing.TestDatabase;
import org.axonframework.serialization.SerializedObject;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * V12 gives the write side's project lookup the project names: a project created before it existed gets the name
 * its stored ProjectCreatedEvent carries, read from the payload exactly as the event store wrote it.
 */
@Tag("integration")
class ProjectNamesMigrationTest {

    @Test
    void givenAProjectCreatedBeforeV12_whenMigrated_thenItsLookupRowCarriesTheNameOfItsCreationEvent() {
        // given: a database at V11 with one project, stored as the services store it
        TestDatabase.Settings db = TestDatabase.newDatabase();
        DriverManagerDataSource dataSource = new DriverManagerDataSource(db.jdbcUrl(), db.username(), db.password());
        Flyway.configure().dataSource(dataSource).locations("classpath:db/common").table("flyway_history_common")
                .load().migrate();
        Flyway.configure().dataSource(dataSource).locations("classpath:db/command").table("flyway_history_command")
                .baselineOnMigrate(true).baselineVersion("0").target("11").load().migrate();
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        String projectId = "a00000000000000000000042";
        SerializedObject<byte[]> payload = new AxonSerializers().eventSerializer().serialize(
                new ProjectCreatedEvent(projectId, "b00000000000000000000001", "Shop bot ü", "red",
                        "c00000000000000000000001", 1_700_000_000L), byte[].class);
        jdbc.update("INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, sequence_number, type, "
                        + "time_stamp, payload_type, payload_revision, payload, meta_data) VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?)",
                "e1", projectId, "ProjectAggregate", "2026-11-26T00:00:00Z", payload.getType().getName(),
                payload.getType().getRevision(), payload.getData(), "{}".getBytes());
        jdbc.update("INSERT INTO cmd_project_lookup (project_id, organisation_id) VALUES (?, ?)", projectId,
                "b00000000000000000000001");

        // when
        Flyway.configure().dataSource(dataSource).locations("classpath:db/command").table("flyway_history_command")
                .baselineOnMigrate(true).baselineVersion("0").load().migrate();

        // then
        assertThat(jdbc.queryForObject("SELECT name FROM cmd_project_lookup WHERE project_id = ?", String.class, projectId))
                .isEqualTo("Shop bot ü");
    }
}
