package ai.convo.query.task;

import ai.convo.query.ReadModelSchema;
import ai.convo.persistence.BatchingJdbcTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.task.TaskCancelRequestedEvent;
import ai.convo.contract.task.TaskCancelledEvent;
import ai.convo.contract.task.TaskCompletedEvent;
import ai.convo.contract.task.TaskCreatedEvent;
import ai.convo.contract.task.TaskFailedEvent;
import ai.convo.contract.task.TaskProgressedEvent;
import ai.convo.contract.task.TaskStartedEvent;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The task projection is plain code: feed it events, look at the rows. */
@Tag("integration")
class TaskProjectionTest {

    static final String ORG = "000000000000000000000001";
    static final String USER = "000000000000000000000002";
    static final String CANCELLER = "000000000000000000000003";
    static final String PROJECT = "0000000000000000000000a1";
    static final String TASK = "0000000000000000000000d1";

    static BatchingJdbcTemplate jdbc;
    TaskProjection tasks;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new BatchingJdbcTemplate(dataSource, 100);
    }

    @BeforeEach
    void empty() {
        jdbc.update("DELETE FROM task_view");
        tasks = new TaskProjection(jdbc);
        tasks.on(new TaskCreatedEvent(TASK, PROJECT, ORG, "restoreSnapshot", Map.of("snapshotId", "x", "n", 2), USER,
                "MEMBER", 100));
    }

    private Map<String, Object> task() {
        return jdbc.queryForMap("SELECT * FROM task_view WHERE id = ?", TASK);
    }

    @Test
    void givenACreatedTask_thenAQueuedRowWithItsParametersAndMeta() {
        // given / when: created in setUp
        // then
        assertThat(task()).containsEntry("status", "queued").containsEntry("type", "restoreSnapshot")
                .containsEntry("project_id", PROJECT).containsEntry("organisation_id", ORG)
                .containsEntry("current_step", 0L).containsEntry("total_step", 0L).containsEntry("fail_reason", null)
                .containsEntry("created_at", 100L).containsEntry("last_changed", 100L)
                .containsEntry("created_by", USER).containsEntry("last_changed_by", USER);
        assertThat((String) task().get("parameters")).contains("\"snapshotId\":\"x\"", "\"n\":2");
    }

    @Test
    void givenARunningTask_whenItProgressesAndCompletes_thenTheRowFollows() {
        // given
        tasks.on(new TaskStartedEvent(TASK, PROJECT, ORG, "r", 1, 110));
        // when
        tasks.on(new TaskProgressedEvent(TASK, PROJECT, ORG, 2, 5, 120));
        // then
        assertThat(task()).containsEntry("status", "active").containsEntry("current_step", 2L)
                .containsEntry("total_step", 5L).containsEntry("last_changed", 120L);
        tasks.on(new TaskCompletedEvent(TASK, PROJECT, ORG, 130));
        assertThat(task()).containsEntry("status", "done").containsEntry("last_changed", 130L)
                .containsEntry("last_changed_by", USER).as("done means every step").containsEntry("current_step", 5L);
    }

    @Test
    void givenATakenOverTask_whenItStartsAgain_thenProgressStartsFromZero() {
        // given
        tasks.on(new TaskStartedEvent(TASK, PROJECT, ORG, "r", 1, 110));
        tasks.on(new TaskProgressedEvent(TASK, PROJECT, ORG, 3, 5, 120));
        // when
        tasks.on(new TaskStartedEvent(TASK, PROJECT, ORG, "r2", 2, 140));
        // then
        assertThat(task()).containsEntry("status", "active").containsEntry("current_step", 0L)
                .containsEntry("total_step", 0L).containsEntry("last_changed", 140L);
    }

    @Test
    void givenAFailure_thenErrorWithTheReason() {
        // given
        tasks.on(new TaskStartedEvent(TASK, PROJECT, ORG, "r", 1, 110));
        // when
        tasks.on(new TaskFailedEvent(TASK, PROJECT, ORG, "No worker for task type 'x'.", 150));
        // then
        assertThat(task()).containsEntry("status", "error").containsEntry("fail_reason", "No worker for task type 'x'.")
                .containsEntry("last_changed", 150L);
    }

    @Test
    void givenACancelRequest_thenCancellingByTheRequesterAndThenCancelled() {
        // given / when
        tasks.on(new TaskCancelRequestedEvent(TASK, PROJECT, ORG, CANCELLER, 160));
        // then
        assertThat(task()).containsEntry("status", "cancelling").containsEntry("last_changed_by", CANCELLER)
                .containsEntry("last_changed", 160L);
        tasks.on(new TaskCancelledEvent(TASK, PROJECT, ORG, 170));
        assertThat(task()).containsEntry("status", "cancelled").containsEntry("last_changed_by", CANCELLER)
                .containsEntry("last_changed", 170L);
    }

    @Test
    void givenACreationReplayed_thenTheRowIsKeptAsItWas() {
        // given
        tasks.on(new TaskStartedEvent(TASK, PROJECT, ORG, "r", 1, 110));
        // when: a batch is retried after a crash
        tasks.on(new TaskCreatedEvent(TASK, PROJECT, ORG, "restoreSnapshot", Map.of(), USER, "MEMBER", 100));
        // then
        assertThat(task()).containsEntry("status", "active");
    }
}
