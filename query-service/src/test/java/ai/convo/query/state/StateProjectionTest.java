package ai.convo.query.state;

import ai.convo.query.ReadModelSchema;
import ai.convo.persistence.BatchingJdbcTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.state.DefaultStateChangedEvent;
import ai.convo.contract.state.StateCreatedEvent;
import ai.convo.contract.state.StateDeletedEvent;
import ai.convo.contract.state.StateUpdatedEvent;
import java.sql.Array;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The state projection is plain code: feed it events, look at the rows. */
@Tag("integration")
class StateProjectionTest {

    static final String ORG = "000000000000000000000001";
    static final String USER = "000000000000000000000002";
    static final String EDITOR = "000000000000000000000003";
    static final String PROJECT = "0000000000000000000000a1";
    static final String OTHER_PROJECT = "0000000000000000000000a2";
    static final String FLOW = "0000000000000000000000f1";
    static final String OTHER_FLOW = "0000000000000000000000f2";
    static final String FAR_FLOW = "0000000000000000000000f3";
    static final String START = "0000000000000000000000e1";
    static final String QUIET = "0000000000000000000000e2";
    static final String SIBLING = "0000000000000000000000e3";
    static final String FAR = "0000000000000000000000e4";
    static final String GREET = "0000000000000000000000d1";
    static final String ORDER = "0000000000000000000000d2";

    static BatchingJdbcTemplate jdbc;
    StateProjection states;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new BatchingJdbcTemplate(dataSource, 100);
    }

    @BeforeEach
    void empty() {
        jdbc.update("DELETE FROM state_view");
        states = new StateProjection(jdbc);
    }

    private void given(Object... events) {
        for (Object event : events) {
            if (event instanceof StateCreatedEvent e) {
                states.on(e);
            } else if (event instanceof StateUpdatedEvent e) {
                states.on(e);
            } else if (event instanceof DefaultStateChangedEvent e) {
                states.on(e);
            } else if (event instanceof StateDeletedEvent e) {
                states.on(e);
            } else if (event instanceof IntentDeletedEvent e) {
                states.on(e);
            } else if (event instanceof FlowDeletedEvent e) {
                states.on(e);
            } else if (event instanceof ProjectDeletedEvent e) {
                states.on(e);
            } else {
                throw new IllegalArgumentException("not a state event: " + event);
            }
        }
    }

    private Map<String, Object> state(String id) {
        return jdbc.queryForMap("SELECT * FROM state_view WHERE id = ?", id);
    }

    private List<String> intentIds(String id) {
        return jdbc.queryForObject("SELECT intent_ids FROM state_view WHERE id = ?", (row, n) -> {
            Array array = row.getArray(1);
            try {
                return Arrays.asList((String[]) array.getArray());
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, id);
    }

    private List<String> ids() {
        return jdbc.queryForList("SELECT id FROM state_view ORDER BY id", String.class);
    }

    private static StateCreatedEvent created(String flowId, String projectId, String stateId, String name,
                                             boolean isDefault, String... intents) {
        return new StateCreatedEvent(flowId, projectId, ORG, stateId, "ref-" + name, name, "blacklist", isDefault,
                List.of(intents), USER, 100);
    }

    private static final StateCreatedEvent START_CREATED = created(FLOW, PROJECT, START, "Start", true, GREET);
    private static final StateCreatedEvent QUIET_CREATED = created(FLOW, PROJECT, QUIET, "Quiet", false, ORDER, GREET);
    private static final StateCreatedEvent SIBLING_CREATED = created(OTHER_FLOW, PROJECT, SIBLING, "Sibling", false, GREET);
    private static final StateCreatedEvent FAR_CREATED = created(FAR_FLOW, OTHER_PROJECT, FAR, "Far", false);

    @Test
    void givenACreatedState_thenItsRowHoldsEveryFieldAndTheIntentsInOrder() {
        // when
        given(START_CREATED, QUIET_CREATED, FAR_CREATED);
        // then
        assertThat(state(START)).containsEntry("flow_id", FLOW).containsEntry("project_id", PROJECT)
                .containsEntry("organisation_id", ORG).containsEntry("reference_id", "ref-Start")
                .containsEntry("name", "Start").containsEntry("type", "blacklist").containsEntry("is_default", true)
                .containsEntry("created_at", 100L).containsEntry("last_changed", 100L)
                .containsEntry("created_by", USER).containsEntry("last_changed_by", USER);
        assertThat(intentIds(QUIET)).containsExactly(ORDER, GREET);
        assertThat(intentIds(FAR)).isEmpty();
    }

    @Test
    void givenAnUpdate_thenTheFullNewStateAndWhoChangedItWhen() {
        // when
        given(QUIET_CREATED, new StateUpdatedEvent(FLOW, PROJECT, ORG, QUIET, List.of("name", "type", "intentIds"),
                "Silent", "whitelist", false, List.of(GREET), EDITOR, 150));
        // then
        assertThat(state(QUIET)).containsEntry("name", "Silent").containsEntry("type", "whitelist")
                .containsEntry("last_changed", 150L).containsEntry("last_changed_by", EDITOR)
                .containsEntry("created_at", 100L).containsEntry("created_by", USER);
        assertThat(intentIds(QUIET)).containsExactly(GREET);
    }

    @Test
    void givenANewDefault_thenThePreviousDefaultIsDemotedAndOnlyOneRemains() {
        // when
        given(START_CREATED, QUIET_CREATED,
                new StateUpdatedEvent(FLOW, PROJECT, ORG, QUIET, List.of("isDefault"), "Quiet", "blacklist", true,
                        List.of(ORDER, GREET), EDITOR, 200),
                new DefaultStateChangedEvent(FLOW, PROJECT, ORG, START, QUIET, EDITOR, 200));
        // then
        assertThat(state(START)).containsEntry("is_default", false).containsEntry("last_changed", 200L)
                .containsEntry("last_changed_by", EDITOR);
        assertThat(state(QUIET)).containsEntry("is_default", true);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM state_view WHERE is_default", Integer.class)).isEqualTo(1);
    }

    @Test
    void givenAFirstDefault_thenNothingIsDemoted() {
        // when
        given(QUIET_CREATED, new DefaultStateChangedEvent(FLOW, PROJECT, ORG, null, QUIET, EDITOR, 200));
        // then
        assertThat(state(QUIET)).containsEntry("last_changed", 100L);
    }

    @Test
    void givenADeletedIntent_thenItLeavesTheStatesOfItsFlowOnly() {
        // when
        given(START_CREATED, QUIET_CREATED, SIBLING_CREATED,
                new IntentDeletedEvent(GREET, FLOW, PROJECT, ORG, EDITOR, 300));
        // then
        assertThat(intentIds(START)).isEmpty();
        assertThat(intentIds(QUIET)).containsExactly(ORDER);
        assertThat(intentIds(SIBLING)).containsExactly(GREET);
    }

    @Test
    void givenAnEventTwice_thenOneRow() {
        // when
        given(START_CREATED, START_CREATED);
        // then
        assertThat(ids()).containsExactly(START);
    }

    @Test
    void givenDeletionsOfAStateAFlowAndAProject_thenTheirStatesGoAndOnlyThose() {
        // given
        given(START_CREATED, QUIET_CREATED, SIBLING_CREATED, FAR_CREATED);
        // when
        given(new StateDeletedEvent(FLOW, PROJECT, ORG, QUIET, USER, 400));
        // then
        assertThat(ids()).containsExactly(START, SIBLING, FAR);
        // when
        given(new FlowDeletedEvent(FLOW, PROJECT, ORG, USER, 500));
        // then
        assertThat(ids()).containsExactly(SIBLING, FAR);
        // when
        given(new ProjectDeletedEvent(PROJECT, ORG, USER, 600));
        // then
        assertThat(ids()).containsExactly(FAR);
    }
}
