package ai.convo.query.slotfiller;

import ai.convo.query.ReadModelSchema;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerCreatedEvent;
import ai.convo.contract.slotfiller.SlotFillerDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerUpdatedEvent;
import ai.convo.persistence.BatchingJdbcTemplate;
import ai.convo.testing.ContractEvents;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The slot filler projection is plain code: feed it events, look at the rows. */
@Tag("integration")
class SlotFillerProjectionTest {

    static final String ORG = "000000000000000000000001";
    static final String USER = "000000000000000000000002";
    static final String EDITOR = "000000000000000000000003";
    static final String PROJECT = "0000000000000000000000a1";
    static final String FLOW = "0000000000000000000000b1";
    static final String OTHER_FLOW = "0000000000000000000000b2";
    static final String FILLER = "0000000000000000000000c1";
    static final String OTHER_FILLER = "0000000000000000000000c2";

    static BatchingJdbcTemplate jdbc;
    SlotFillerProjection fillers;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new BatchingJdbcTemplate(dataSource, 100);
    }

    @BeforeEach
    void empty() {
        jdbc.update("DELETE FROM slot_filler_view");
        jdbc.update("DELETE FROM slot_filler_flow");
        fillers = new SlotFillerProjection(jdbc);
    }

    private void given(Object... events) {
        for (Object event : events) {
            if (event instanceof FlowCreatedEvent e) {
                fillers.on(e);
            } else if (event instanceof SlotFillerCreatedEvent e) {
                fillers.on(e);
            } else if (event instanceof SlotFillerUpdatedEvent e) {
                fillers.on(e);
            } else if (event instanceof SlotFillerDeletedEvent e) {
                fillers.on(e);
            } else if (event instanceof FlowDeletedEvent e) {
                fillers.on(e);
            } else if (event instanceof ProjectDeletedEvent e) {
                fillers.on(e);
            } else {
                throw new IllegalArgumentException(event.toString());
            }
        }
    }

    private static FlowCreatedEvent flow(String id) {
        return new FlowCreatedEvent(id, PROJECT, ORG, "ref-" + id, "Main", "", USER, 100);
    }

    private static SlotFillerCreatedEvent filler(String id, String flow) {
        return new SlotFillerCreatedEvent(id, flow, PROJECT, ORG, "ref-" + id, "Zip", "regex", "^[0-9]{5}$", null,
                false, false, true, "zip", false, "", false, false, "", "", USER, 110);
    }

    private int count(String where, Object... args) {
        Integer n = jdbc.queryForObject("SELECT count(*) FROM slot_filler_view WHERE " + where, Integer.class, args);
        return n == null ? 0 : n;
    }

    @Test
    void givenACreatedFiller_whenProjectedTwiceAndUpdated_thenOneRowWithTheNewStateAndItsAuthors() {
        // given / when
        given(flow(FLOW), filler(FILLER, FLOW), filler(FILLER, FLOW), new SlotFillerUpdatedEvent(FILLER, FLOW, PROJECT,
                ORG, List.of("type", "regex", "slot"), "City", "slot", null, "DE-CITY", true, false, true, "city",
                false, "", false, true, "", "", EDITOR, 150));
        // then
        assertThat(count("true")).isEqualTo(1);
        Map<String, Object> row = jdbc.queryForMap("SELECT * FROM slot_filler_view WHERE id = ?", FILLER);
        assertThat(row).containsEntry("type", "slot").containsEntry("slot", "DE-CITY").containsEntry("regex", null)
                .containsEntry("use_positive_only", true).containsEntry("created_by", USER)
                .containsEntry("last_changed_by", EDITOR).containsEntry("last_changed", 150L);
    }

    @Test
    void givenFillersOfTwoFlows_whenOneFlowIsDeleted_thenOnlyItsFillersGoAndALateOneLeavesNoOrphan() {
        // given
        given(flow(FLOW), flow(OTHER_FLOW), filler(FILLER, FLOW), filler(OTHER_FILLER, OTHER_FLOW));
        // when
        given(new FlowDeletedEvent(FLOW, PROJECT, ORG, USER, 200), filler("0000000000000000000000c3", FLOW));
        // then
        assertThat(count("flow_id = ?", FLOW)).isZero();
        assertThat(count("flow_id = ?", OTHER_FLOW)).isEqualTo(1);
        // and a project's deletion takes the rest
        given(new ProjectDeletedEvent(PROJECT, ORG, USER, 300));
        assertThat(count("true")).isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM slot_filler_flow", Integer.class)).isZero();
    }

    @Test
    void givenEveryEventTheProjectionHandles_whenSequenced_thenByItsProject() throws Exception {
        for (Class<?> type : List.of(SlotFillerCreatedEvent.class, SlotFillerUpdatedEvent.class,
                SlotFillerDeletedEvent.class, FlowCreatedEvent.class, FlowDeletedEvent.class, ProjectDeletedEvent.class)) {
            assertThat(SlotFillerProcessing.projectOf(ContractEvents.sample(type))).as(type.getSimpleName())
                    .isEqualTo("projectId-v");
        }
    }
}
