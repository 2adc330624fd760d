package ai.convo.command.knowledge;

import static ai.convo.command.token.DomainErrors.domainError;

import ai.convo.command.token.DomainErrors;
import ai.convo.command.token.FakeProjects;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.Role;
import ai.convo.contract.knowledge.CreateKnowledgeStoreCommand;
import ai.convo.contract.knowledge.DeleteKnowledgeStoreCommand;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreId;
import ai.convo.contract.knowledge.KnowledgeStorePatch;
import ai.convo.contract.knowledge.KnowledgeStoreRecord;
import ai.convo.contract.knowledge.KnowledgeStoreUpdatedEvent;
import ai.convo.contract.knowledge.UpdateKnowledgeStoreCommand;
import ai.convo.contract.locale.NluLanguage;
import ai.convo.contract.project.ProjectId;
import java.util.List;
import org.axonframework.eventsourcing.AggregateDeletedException;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The write model of a Knowledge Store, in given (past events) / when (command) / then (events or error). */
class KnowledgeStoreAggregateTest {

    static final String PROJECT = "a00000000000000000000001";
    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String USER = "c00000000000000000000001";
    static final String STORE = "d00000000000000000000001";
    static final String REF = "6f1c2a4e-0000-4000-8000-000000000001";
    static final long T0 = 1_700_000_000L;
    static final long T1 = 1_700_000_100L;
    static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    static final Actor STRANGER = new Actor(USER, OTHER_ORG, Role.ORG_ADMIN);

    private FixtureConfiguration<KnowledgeStoreAggregate> fixture;
    private FakeProjects projects;

    @BeforeEach
    void setUp() {
        projects = new FakeProjects().with(PROJECT, ORG);
        fixture = new AggregateTestFixture<>(KnowledgeStoreAggregate.class);
        fixture.registerInjectableResource(projects);
    }

    static CreateKnowledgeStoreCommand create(Actor actor, String name, String description, NluLanguage language) {
        return new CreateKnowledgeStoreCommand(KnowledgeStoreId.of(STORE), ProjectId.of(PROJECT), actor, REF, name,
                description, language, T0);
    }

    static KnowledgeStoreCreatedEvent created() {
        return new KnowledgeStoreCreatedEvent(STORE, PROJECT, ORG, REF, "FAQ", "", "en-US", USER, T0);
    }

    @Test
    void givenAVisibleProject_whenCreatingAStore_thenStoreCreated() {
        // given
        fixture.givenNoPriorActivity()
                // when
                .when(create(OWNER, "FAQ", "Answers", NluLanguage.DE_DE))
                // then
                .expectEvents(new KnowledgeStoreCreatedEvent(STORE, PROJECT, ORG, REF, "FAQ", "Answers", "de-DE", USER, T0));
    }

    @Test
    void givenAnUnknownOrForeignProject_whenCreatingAStore_thenNotFound() {
        // given
        fixture.givenNoPriorActivity()
                // when
                .when(create(STRANGER, "FAQ", "", NluLanguage.EN_US))
                // then
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Project " + PROJECT + " does not exist."))
                .expectNoEvents();
        projects.without(PROJECT);
        fixture.givenNoPriorActivity().when(create(OWNER, "FAQ", "", NluLanguage.EN_US))
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Project " + PROJECT + " does not exist."));
    }

    @Test
    void givenAVisibleProject_whenTheNameIsBlankOrTooLong_thenInvalidNamingTheName() {
        // given / when / then
        fixture.givenNoPriorActivity().when(create(OWNER, " ", "", NluLanguage.EN_US))
                .expectException(DomainErrors.invalidField("name")).expectNoEvents();
        fixture.givenNoPriorActivity().when(create(OWNER, "n".repeat(201), "", NluLanguage.EN_US))
                .expectException(DomainErrors.invalidField("name")).expectNoEvents();
    }

    @Test
    void givenAVisibleProject_whenTheDescriptionIsTooLongOrTheLanguageMissing_thenInvalidNamingTheField() {
        // given / when / then
        fixture.givenNoPriorActivity().when(create(OWNER, "FAQ", "d".repeat(1001), NluLanguage.EN_US))
                .expectException(DomainErrors.invalidField("description")).expectNoEvents();
        fixture.givenNoPriorActivity().when(create(OWNER, "FAQ", "", null))
                .expectException(DomainErrors.invalidField("language")).expectNoEvents();
    }

    static UpdateKnowledgeStoreCommand update(Actor actor, String name, String description) {
        return new UpdateKnowledgeStoreCommand(KnowledgeStoreId.of(STORE), actor, new KnowledgeStorePatch(name, description),
                T1);
    }

    @Test
    void givenAStore_whenRenamingItAndChangingItsDescription_thenStoreUpdatedAndTheNewRecordAnswered() {
        // given
        fixture.given(created())
                // when
                .when(update(OWNER, "Manuals", "All manuals"))
                // then
                .expectEvents(new KnowledgeStoreUpdatedEvent(STORE, PROJECT, ORG, List.of("name", "description"), "Manuals",
                        "All manuals", USER, T1))
                .expectResultMessagePayload(new KnowledgeStoreRecord(STORE, REF, "Manuals", "All manuals", "en-US", PROJECT,
                        T0, T1, USER, USER));
    }

    @Test
    void givenAStore_whenThePatchChangesNothing_thenNoEventAndTheUnchangedRecord() {
        // given
        fixture.given(created())
                // when
                .when(update(OWNER, "FAQ", null))
                // then
                .expectNoEvents()
                .expectResultMessagePayload(new KnowledgeStoreRecord(STORE, REF, "FAQ", "", "en-US", PROJECT, T0, T0, USER,
                        USER));
    }

    @Test
    void givenAStore_whenTheNewNameIsBlankOrTheDescriptionTooLong_thenInvalidNamingTheField() {
        // given / when / then
        fixture.given(created()).when(update(OWNER, " ", null))
                .expectException(DomainErrors.invalidField("name")).expectNoEvents();
        fixture.given(created()).when(update(OWNER, null, "d".repeat(1001)))
                .expectException(DomainErrors.invalidField("description")).expectNoEvents();
    }

    @Test
    void givenAStore_whenAStrangerOrAfterItsProjectWasDeletedUpdatesIt_thenNotFound() {
        // given
        fixture.given(created())
                // when
                .when(update(STRANGER, "Mine", null))
                // then
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Knowledge store " + STORE + " does not exist."))
                .expectNoEvents();
        projects.without(PROJECT);
        fixture.given(created()).when(update(OWNER, "Orphan", null))
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Knowledge store " + STORE + " does not exist."))
                .expectNoEvents();
    }

    @Test
    void givenAStore_whenDeletingIt_thenStoreDeletedAndMarkedDeleted() {
        // given
        fixture.given(created())
                // when
                .when(new DeleteKnowledgeStoreCommand(KnowledgeStoreId.of(STORE), OWNER, T1))
                // then
                .expectEvents(new KnowledgeStoreDeletedEvent(STORE, PROJECT, ORG, USER, T1))
                .expectMarkedDeleted();
    }

    @Test
    void givenAStore_whenAStrangerDeletesIt_thenNotFound() {
        // given
        fixture.given(created())
                // when
                .when(new DeleteKnowledgeStoreCommand(KnowledgeStoreId.of(STORE), STRANGER, T1))
                // then
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Knowledge store " + STORE + " does not exist."))
                .expectNoEvents();
    }

    @Test
    void givenAStoreWhoseProjectWasDeleted_whenDeletingIt_thenNotFound() {
        // given
        projects.without(PROJECT);
        fixture.given(created())
                // when
                .when(new DeleteKnowledgeStoreCommand(KnowledgeStoreId.of(STORE), OWNER, T1))
                // then
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Knowledge store " + STORE + " does not exist."))
                .expectNoEvents();
    }

    @Test
    void givenADeletedStore_whenDeletingItAgain_thenTheAggregateIsGone() {
        // given
        fixture.given(created(), new KnowledgeStoreDeletedEvent(STORE, PROJECT, ORG, USER, T1))
                // when
                .when(new DeleteKnowledgeStoreCommand(KnowledgeStoreId.of(STORE), OWNER, T1))
                // then
                .expectException(AggregateDeletedException.class)
                .expectNoEvents();
    }
}
