package ai.convo.query.function;

import ai.convo.query.ReadModelSchema;
import ai.convo.persistence.BatchingJdbcTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionDeletedEvent;
import ai.convo.contract.function.FunctionUpdatedEvent;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The function projection is plain code: feed it events, look at the rows. */
@Tag("integration")
class FunctionProjectionTest {

    static final String ORG = "000000000000000000000001";
    static final String USER = "000000000000000000000002";
    static final String EDITOR = "000000000000000000000003";
    static final String PROJECT = "0000000000000000000000a1";
    static final String OTHER_PROJECT = "0000000000000000000000a2";
    static final String FUNCTION = "0000000000000000000000c1";
    static final String OTHER_FUNCTION = "0000000000000000000000c2";

    static BatchingJdbcTemplate jdbc;
    FunctionProjection functions;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new BatchingJdbcTemplate(dataSource, 100);
    }

    @BeforeEach
    void empty() {
        jdbc.update("DELETE FROM function_view");
        jdbc.update("DELETE FROM function_project");
        functions = new FunctionProjection(jdbc);
    }

    private void given(Object... events) {
        for (Object event : events) {
            if (event instanceof ProjectCreatedEvent e) {
                functions.on(e);
            } else if (event instanceof FunctionCreatedEvent e) {
                functions.on(e);
            } else if (event instanceof FunctionUpdatedEvent e) {
                functions.on(e);
            } else if (event instanceof FunctionDeletedEvent e) {
                functions.on(e);
            } else if (event instanceof ProjectDeletedEvent e) {
                functions.on(e);
            }
        }
    }

    private Map<String, Object> function(String id) {
        return jdbc.queryForMap("SELECT * FROM function_view WHERE id = ?", id);
    }

    private int count(String where, Object... args) {
        Integer n = jdbc.queryForObject("SELECT count(*) FROM function_view WHERE " + where, Integer.class, args);
        return n == null ? 0 : n;
    }

    private static final ProjectCreatedEvent CREATED = new ProjectCreatedEvent(PROJECT, ORG, "P", "", USER, 100);
    private static final ProjectCreatedEvent OTHER_CREATED =
            new ProjectCreatedEvent(OTHER_PROJECT, ORG, "Q", "", USER, 100);
    private static final FunctionCreatedEvent SEND_MAIL =
            new FunctionCreatedEvent(FUNCTION, PROJECT, ORG, "ref-1", "Send mail", "return 1;", false, USER, 110);

    @Test
    void givenACreatedFunction_whenProjectedTwice_thenOneRowWithItsState() {
        // given / when
        given(CREATED, CREATED, SEND_MAIL, SEND_MAIL);
        // then
        assertThat(count("true")).isEqualTo(1);
        assertThat(function(FUNCTION)).containsEntry("name", "Send mail").containsEntry("code", "return 1;")
                .containsEntry("is_disabled", false).containsEntry("reference_id", "ref-1")
                .containsEntry("project_id", PROJECT).containsEntry("organisation_id", ORG)
                .containsEntry("created_at", 110L).containsEntry("last_changed", 110L).containsEntry("created_by", USER);
    }

    @Test
    void givenAFunction_whenUpdated_thenTheNewStateAndWhoChangedItWhen() {
        // given / when
        given(CREATED, SEND_MAIL, new FunctionUpdatedEvent(FUNCTION, PROJECT, ORG, List.of("isDisabled", "code"), "Send mail",
                "x".repeat(500_000), true, EDITOR, 150));
        // then
        assertThat(function(FUNCTION)).containsEntry("is_disabled", true).containsEntry("last_changed", 150L)
                .containsEntry("last_changed_by", EDITOR).containsEntry("created_by", USER);
        assertThat((String) function(FUNCTION).get("code")).hasSize(500_000);
    }

    @Test
    void givenAFunction_whenDeleted_thenOnlyItsRowGoes() {
        // given / when
        given(CREATED, SEND_MAIL, new FunctionCreatedEvent(OTHER_FUNCTION, PROJECT, ORG, "ref-2", "Other", "", true, USER, 120),
                new FunctionDeletedEvent(FUNCTION, PROJECT, ORG, USER, 130));
        // then
        assertThat(count("id = ?", FUNCTION)).isZero();
        assertThat(count("id = ?", OTHER_FUNCTION)).isEqualTo(1);
    }

    @Test
    void givenFunctionsOfTwoProjects_whenOneProjectIsDeleted_thenOnlyItsFunctionsGo() {
        // given / when
        given(CREATED, OTHER_CREATED, SEND_MAIL, new FunctionCreatedEvent(OTHER_FUNCTION, OTHER_PROJECT, ORG, "ref-2", "Other", "", true,
                USER, 120), new ProjectDeletedEvent(PROJECT, ORG, USER, 200));
        // then
        assertThat(count("project_id = ?", PROJECT)).isZero();
        assertThat(count("project_id = ?", OTHER_PROJECT)).isEqualTo(1);
    }

    @Test
    void givenADeletedProject_whenAFunctionCreationCommitsAfterTheDeletion_thenNoOrphanRowAppears() {
        // given / when
        given(CREATED, new ProjectDeletedEvent(PROJECT, ORG, USER, 200), SEND_MAIL);
        // then
        assertThat(count("true")).isZero();
    }

    @Test
    void givenAnUnknownProject_whenAFunctionIsCreatedInIt_thenNoRowAppears() {
        // given / when
        given(OTHER_CREATED, SEND_MAIL);
        // then
        assertThat(count("true")).isZero();
    }

    @Test
    void givenTheEventsOfAProject_whenSequenced_thenTheyShareTheProjectAsSequenceKey() {
        // given
        List<Object> ofProject = List.of(CREATED, SEND_MAIL,
                new FunctionUpdatedEvent(FUNCTION, PROJECT, ORG, List.of("name"), "n", "", false, USER, 1),
                new FunctionDeletedEvent(FUNCTION, PROJECT, ORG, USER, 1), new ProjectDeletedEvent(PROJECT, ORG, USER, 1));
        // when / then
        for (Object payload : ofProject) {
            assertThat(FunctionProcessing.BY_PROJECT.getSequenceIdentifierFor(
                    new GenericDomainEventMessage<>("Any", FUNCTION, 0, payload))).isEqualTo(PROJECT);
        }
        assertThat(FunctionProcessing.BY_PROJECT.getSequenceIdentifierFor(
                new GenericDomainEventMessage<>("Any", OTHER_FUNCTION, 0, "something else"))).isEqualTo(OTHER_FUNCTION);
    }
}
