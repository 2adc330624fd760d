package ai.convo.query.systemmessage;

import ai.convo.query.ReadModelSchema;
import ai.convo.persistence.BatchingJdbcTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.systemmessage.SystemMessageCreatedEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The system message projection is plain code: feed it events, look at the rows. */
@Tag("integration")
class SystemMessageProjectionTest {

    static final String ADMIN = "000000000000000000000001";
    static final String MESSAGE = "0000000000000000000000d1";

    static BatchingJdbcTemplate jdbc;
    SystemMessageProjection messages;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new BatchingJdbcTemplate(dataSource, 100);
    }

    @BeforeEach
    void empty() {
        jdbc.update("DELETE FROM system_message_view");
        messages = new SystemMessageProjection(jdbc);
    }

    @Test
    void givenNothing_whenAMessageIsCreated_thenItsRowHasEveryFieldAndTheCreationAsMeta() {
        // when
        messages.on(new SystemMessageCreatedEvent(MESSAGE, "Maintenance", 2_000_000_000L, true, ADMIN, 1_700_000_000L));
        // then
        List<Map<String, Object>> rows = jdbc.queryForList("SELECT * FROM system_message_view");
        assertThat(rows).singleElement().satisfies(row -> assertThat(row)
                .containsEntry("id", MESSAGE).containsEntry("message", "Maintenance")
                .containsEntry("until", 2_000_000_000L).containsEntry("show_on_login", true)
                .containsEntry("created_at", 1_700_000_000L).containsEntry("last_changed", 1_700_000_000L)
                .containsEntry("created_by", ADMIN).containsEntry("last_changed_by", ADMIN));
    }

    @Test
    void givenAMessage_whenItsEventIsReplayed_thenStillOneUnchangedRow() {
        // given
        SystemMessageCreatedEvent event = new SystemMessageCreatedEvent(MESSAGE, "Once", 5, false, ADMIN, 1);
        messages.on(event);
        // when
        messages.on(event);
        // then
        assertThat(jdbc.queryForList("SELECT message FROM system_message_view", String.class)).containsExactly("Once");
    }
}
