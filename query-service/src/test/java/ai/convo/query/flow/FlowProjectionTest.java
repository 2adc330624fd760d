package ai.convo.query.flow;

import ai.convo.query.ReadModelSchema;
import ai.convo.persistence.BatchingJdbcTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.flow.FlowUpdatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The flow projection is plain code: feed it events, look at the rows. */
@Tag("integration")
class FlowProjectionTest {

    static final String ORG = "000000000000000000000001";
    static final String USER = "000000000000000000000002";
    static final String EDITOR = "000000000000000000000003";
    static final String PROJECT = "0000000000000000000000a1";
    static final String OTHER_PROJECT = "0000000000000000000000a2";
    static final String MAIN = "0000000000000000000000f1";
    static final String SIDE = "0000000000000000000000f2";
    static final String ELSEWHERE = "0000000000000000000000f3";

    static BatchingJdbcTemplate jdbc;
    FlowProjection flows;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new BatchingJdbcTemplate(dataSource, 100);
    }

    @BeforeEach
    void empty() {
        jdbc.update("DELETE FROM flow_view");
        flows = new FlowProjection(jdbc);
    }

    private void given(Object... events) {
        for (Object event : events) {
            if (event instanceof FlowCreatedEvent e) {
                flows.on(e);
            } else if (event instanceof FlowUpdatedEvent e) {
                flows.on(e);
            } else if (event instanceof FlowDeletedEvent e) {
                flows.on(e);
            } else if (event instanceof ProjectDeletedEvent e) {
                flows.on(e);
            } else {
                throw new IllegalArgumentException("not a flow event: " + event);
            }
        }
    }

    private Map<String, Object> flow(String id) {
        return jdbc.queryForMap("SELECT * FROM flow_view WHERE id = ?", id);
    }

    private int count() {
        return jdbc.queryForObject("SELECT count(*) FROM flow_view", Integer.class);
    }

    private static final FlowCreatedEvent MAIN_CREATED =
            new FlowCreatedEvent(MAIN, PROJECT, ORG, "ref-main", "Main", "The main flow", USER, 100);
    private static final FlowCreatedEvent SIDE_CREATED =
            new FlowCreatedEvent(SIDE, PROJECT, ORG, "ref-side", "Side", null, USER, 110);
    private static final FlowCreatedEvent ELSEWHERE_CREATED =
            new FlowCreatedEvent(ELSEWHERE, OTHER_PROJECT, ORG, "ref-else", "Elsewhere", "", USER, 120);

    @Test
    void givenACreatedFlow_thenItsRowHoldsEveryFieldAndCreationMeta() {
        // when
        given(MAIN_CREATED, SIDE_CREATED);
        // then
        assertThat(flow(MAIN)).containsEntry("project_id", PROJECT).containsEntry("organisation_id", ORG)
                .containsEntry("reference_id", "ref-main").containsEntry("name", "Main")
                .containsEntry("description", "The main flow").containsEntry("created_at", 100L)
                .containsEntry("last_changed", 100L).containsEntry("created_by", USER)
                .containsEntry("last_changed_by", USER);
        assertThat(flow(SIDE)).containsEntry("description", "");
    }

    @Test
    void givenAnUpdate_thenTheNewStateAndWhoChangedItWhen() {
        // when
        given(MAIN_CREATED, new FlowUpdatedEvent(MAIN, PROJECT, ORG, List.of("name", "description"), "Checkout", "",
                EDITOR, 150));
        // then
        assertThat(flow(MAIN)).containsEntry("name", "Checkout").containsEntry("description", "")
                .containsEntry("last_changed", 150L).containsEntry("last_changed_by", EDITOR)
                .containsEntry("created_at", 100L).containsEntry("created_by", USER);
    }

    @Test
    void givenAnEventTwice_thenOneRow() {
        // when
        given(MAIN_CREATED, MAIN_CREATED);
        // then
        assertThat(count()).isEqualTo(1);
    }

    @Test
    void givenDeletions_thenTheRowsGoAndOnlyThose() {
        // when
        given(MAIN_CREATED, SIDE_CREATED, ELSEWHERE_CREATED, new FlowDeletedEvent(SIDE, PROJECT, ORG, USER, 200));
        // then
        assertThat(count()).isEqualTo(2);
        // when the project is deleted, its flows go, other projects' stay
        given(new ProjectDeletedEvent(PROJECT, ORG, USER, 300));
        assertThat(jdbc.queryForList("SELECT id FROM flow_view", String.class)).containsExactly(ELSEWHERE);
    }
}
