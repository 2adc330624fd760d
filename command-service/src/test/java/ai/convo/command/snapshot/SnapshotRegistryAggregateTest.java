package ai.convo.command.snapshot;

import static ai.convo.command.token.DomainErrors.domainError;
import static ai.convo.command.token.DomainErrors.invalidField;

import ai.convo.command.token.FakeProjects;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.Role;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.snapshot.AbandonSnapshotCommand;
import ai.convo.contract.snapshot.CompleteSnapshotCommand;
import ai.convo.contract.snapshot.DeleteSnapshotCommand;
import ai.convo.contract.snapshot.RequestSnapshotCommand;
import ai.convo.contract.snapshot.RequestSnapshotDeletionCommand;
import ai.convo.contract.snapshot.RequestSnapshotRestoreCommand;
import ai.convo.contract.snapshot.SnapshotAbandonedEvent;
import ai.convo.contract.snapshot.SnapshotCounts;
import ai.convo.contract.snapshot.SnapshotCreatedEvent;
import ai.convo.contract.snapshot.SnapshotDeletedEvent;
import ai.convo.contract.snapshot.SnapshotDeletionRequestedEvent;
import ai.convo.contract.snapshot.SnapshotId;
import ai.convo.contract.snapshot.SnapshotRegistryId;
import ai.convo.contract.snapshot.SnapshotResource;
import ai.convo.contract.snapshot.SnapshotResourcesListedEvent;
import ai.convo.contract.snapshot.SnapshotRequestedEvent;
import ai.convo.contract.snapshot.SnapshotRestoreRequestedEvent;
import ai.convo.contract.task.TaskId;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The snapshot registry of a project, in given (past events) / when (command) / then (events or error). */
class SnapshotRegistryAggregateTest {

    static final String PROJECT = "a00000000000000000000001";
    static final String TARGET = "a00000000000000000000002";
    static final String STRANGERS_PROJECT = "a00000000000000000000003";
    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String USER = "c00000000000000000000001";
    static final String SNAP = "d0000000000000000000ffff";
    static final String TASK = "e00000000000000000000001";
    static final String HASH = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    static final SnapshotCounts COUNTS = new SnapshotCounts(1, 2, 3, 4, 5, 6, 7);
    static final long T0 = 1_700_000_000L;
    static final long T1 = 1_700_000_100L;

    static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    static final Actor STRANGER = new Actor(USER, OTHER_ORG, Role.ORG_ADMIN);
    static final SnapshotRegistryId REGISTRY = SnapshotRegistryId.of(PROJECT);

    private FixtureConfiguration<SnapshotRegistryAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(SnapshotRegistryAggregate.class);
        fixture.registerInjectableResource(new FakeProjects().with(PROJECT, ORG).with(TARGET, ORG)
                .with(STRANGERS_PROJECT, OTHER_ORG));
    }

    static String snap(int n) {
        return String.format("d%023d", n);
    }

    static RequestSnapshotCommand request(String snapshotId, String name, String description, Actor actor) {
        return new RequestSnapshotCommand(REGISTRY, SnapshotId.of(snapshotId), TaskId.of(TASK), name, description,
                actor, T0);
    }

    static SnapshotRequestedEvent requested(String snapshotId) {
        return new SnapshotRequestedEvent(snapshotId, PROJECT, ORG, TASK, "Before release", "", USER, T0);
    }

    static SnapshotCreatedEvent createdEvent(String snapshotId) {
        return new SnapshotCreatedEvent(snapshotId, PROJECT, ORG, "Before release", "", HASH, COUNTS, USER, T1);
    }

    static List<Object> existing(int count) {
        List<Object> events = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            events.add(requested(snap(i)));
            events.add(createdEvent(snap(i)));
        }
        return events;
    }

    // ---- request

    @Test
    void givenNoSnapshots_whenOneIsRequested_thenItIsPending() {
        fixture.givenNoPriorActivity()
                .when(request(SNAP, "Before release", null, OWNER))
                .expectEvents(requested(SNAP));
    }

    @Test
    void givenNineSnapshots_whenATenthIsRequested_thenItIsAccepted() {
        fixture.given(existing(9))
                .when(request(SNAP, "Before release", "", OWNER))
                .expectEvents(requested(SNAP));
    }

    @Test
    void givenTenSnapshots_whenAnEleventhIsRequested_then409NamingTheLimit() {
        fixture.given(existing(10))
                .when(request(SNAP, "Before release", "", OWNER))
                .expectNoEvents()
                .expectException(domainError(DomainException.Kind.CONFLICT, "at most 10"));
    }

    @Test
    void givenTenPendingSnapshots_whenAnotherIsRequested_thenPendingOnesCountToo() {
        List<Object> pending = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            pending.add(requested(snap(i)));
        }
        fixture.given(pending)
                .when(request(SNAP, "Before release", "", OWNER))
                .expectException(domainError(DomainException.Kind.CONFLICT, "at most 10"));
    }

    @Test
    void givenTenSnapshotsOfWhichOneWasAbandoned_whenAnotherIsRequested_thenTheSlotIsFree() {
        List<Object> events = existing(9);
        events.add(requested(snap(10)));
        events.add(new SnapshotAbandonedEvent(snap(10), PROJECT, ORG, "failed", T1));
        fixture.given(events)
                .when(request(SNAP, "Before release", "", OWNER))
                .expectEvents(requested(SNAP));
    }

    @Test
    void givenTenSnapshotsOfWhichOneWasDeleted_whenAnotherIsRequested_thenTheSlotIsFree() {
        List<Object> events = existing(10);
        events.add(new SnapshotDeletionRequestedEvent(snap(10), PROJECT, ORG, TASK, USER, T1));
        events.add(new SnapshotDeletedEvent(snap(10), PROJECT, ORG, USER, T1));
        fixture.given(events)
                .when(request(SNAP, "Before release", "", OWNER))
                .expectEvents(requested(SNAP));
    }

    @Test
    void givenTenSnapshotsOfWhichOneIsBeingDeleted_whenAnotherIsRequested_thenItStillHoldsItsSlot() {
        List<Object> events = existing(10);
        events.add(new SnapshotDeletionRequestedEvent(snap(10), PROJECT, ORG, TASK, USER, T1));
        fixture.given(events)
                .when(request(SNAP, "Before release", "", OWNER))
                .expectException(domainError(DomainException.Kind.CONFLICT, "at most 10"));
    }

    @Test
    void givenAProjectOfAnotherOrganisation_whenASnapshotIsRequested_then404() {
        fixture.givenNoPriorActivity()
                .when(new RequestSnapshotCommand(SnapshotRegistryId.of(STRANGERS_PROJECT), SnapshotId.of(SNAP),
                        TaskId.of(TASK), "x", "", OWNER, T0))
                .expectNoEvents()
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist"));
    }

    @Test
    void givenABlankName_whenASnapshotIsRequested_then400NamingName() {
        fixture.givenNoPriorActivity()
                .when(request(SNAP, "  ", "", OWNER))
                .expectException(invalidField("name"));
    }

    @Test
    void givenATooLongDescription_whenASnapshotIsRequested_then400NamingDescription() {
        fixture.givenNoPriorActivity()
                .when(request(SNAP, "ok", "x".repeat(1001), OWNER))
                .expectException(invalidField("description"));
    }

    // ---- complete and abandon

    @Test
    void givenAPendingSnapshot_whenItIsCompleted_thenItIsCreatedWithTheRequestersNameAndTheHash() {
        fixture.given(requested(SNAP))
                .when(new CompleteSnapshotCommand(REGISTRY, SnapshotId.of(SNAP), HASH, COUNTS, T1))
                .expectEvents(createdEvent(SNAP));
    }

    @Test
    void givenAPendingSnapshot_whenItIsCompletedWithItsResources_thenCreatedAndTheResourcesListed() {
        List<SnapshotResource> resources = List.of(new SnapshotResource("flow", "f00000000000000000000001", "ref-f", "Main"),
                new SnapshotResource("locale", "d00000000000000000000001", "ref-l", "en-US"));
        fixture.given(requested(SNAP))
                .when(new CompleteSnapshotCommand(REGISTRY, SnapshotId.of(SNAP), HASH, COUNTS, T1, resources))
                .expectEvents(createdEvent(SNAP), new SnapshotResourcesListedEvent(SNAP, PROJECT, ORG, resources, T1));
    }

    @Test
    void givenACreatedSnapshot_whenItIsCompletedAgain_thenNothingHappens() {
        fixture.given(requested(SNAP), createdEvent(SNAP))
                .when(new CompleteSnapshotCommand(REGISTRY, SnapshotId.of(SNAP), HASH, COUNTS, T1))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void givenAnAbandonedSnapshot_whenItIsCompleted_then409() {
        fixture.given(requested(SNAP), new SnapshotAbandonedEvent(SNAP, PROJECT, ORG, "cancelled", T1))
                .when(new CompleteSnapshotCommand(REGISTRY, SnapshotId.of(SNAP), HASH, COUNTS, T1))
                .expectException(domainError(DomainException.Kind.CONFLICT, "not pending"));
    }

    @Test
    void givenAPendingSnapshot_whenItIsCompletedWithABadHash_then400() {
        fixture.given(requested(SNAP))
                .when(new CompleteSnapshotCommand(REGISTRY, SnapshotId.of(SNAP), "nope", COUNTS, T1))
                .expectException(invalidField("hash"));
    }

    @Test
    void givenAPendingSnapshot_whenItIsAbandoned_thenItsSlotIsFreed() {
        fixture.given(requested(SNAP))
                .when(new AbandonSnapshotCommand(REGISTRY, SnapshotId.of(SNAP), "cancelled", T1))
                .expectEvents(new SnapshotAbandonedEvent(SNAP, PROJECT, ORG, "cancelled", T1));
    }

    @Test
    void givenACreatedSnapshot_whenItIsAbandoned_thenNothingHappens() {
        fixture.given(requested(SNAP), createdEvent(SNAP))
                .when(new AbandonSnapshotCommand(REGISTRY, SnapshotId.of(SNAP), "failed", T1))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    // ---- delete

    @Test
    void givenACreatedSnapshot_whenItsDeletionIsRequested_thenItIsBeingDeleted() {
        fixture.given(requested(SNAP), createdEvent(SNAP))
                .when(new RequestSnapshotDeletionCommand(REGISTRY, SnapshotId.of(SNAP), TaskId.of(TASK), OWNER, T1))
                .expectEvents(new SnapshotDeletionRequestedEvent(SNAP, PROJECT, ORG, TASK, USER, T1));
    }

    @Test
    void givenASnapshotOfAnotherOrganisation_whenItsDeletionIsRequested_then404() {
        fixture.given(requested(SNAP), createdEvent(SNAP))
                .when(new RequestSnapshotDeletionCommand(REGISTRY, SnapshotId.of(SNAP), TaskId.of(TASK), STRANGER, T1))
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist"));
    }

    @Test
    void givenAPendingSnapshot_whenItsDeletionIsRequested_then409() {
        fixture.given(requested(SNAP))
                .when(new RequestSnapshotDeletionCommand(REGISTRY, SnapshotId.of(SNAP), TaskId.of(TASK), OWNER, T1))
                .expectException(domainError(DomainException.Kind.CONFLICT, "still being created"));
    }

    @Test
    void givenASnapshotBeingDeleted_whenItsDeletionIsRequestedAgain_then409() {
        fixture.given(requested(SNAP), createdEvent(SNAP),
                        new SnapshotDeletionRequestedEvent(SNAP, PROJECT, ORG, TASK, USER, T1))
                .when(new RequestSnapshotDeletionCommand(REGISTRY, SnapshotId.of(SNAP), TaskId.of(TASK), OWNER, T1))
                .expectException(domainError(DomainException.Kind.CONFLICT, "already being deleted"));
    }

    @Test
    void givenASnapshotBeingDeleted_whenTheTaskDeletesIt_thenItIsGone() {
        fixture.given(requested(SNAP), createdEvent(SNAP),
                        new SnapshotDeletionRequestedEvent(SNAP, PROJECT, ORG, TASK, USER, T1))
                .when(new DeleteSnapshotCommand(REGISTRY, SnapshotId.of(SNAP), T1))
                .expectEvents(new SnapshotDeletedEvent(SNAP, PROJECT, ORG, USER, T1));
    }

    @Test
    void givenACreatedSnapshotNotAskedToBeDeleted_whenTheDeleteCommandArrives_then409() {
        fixture.given(requested(SNAP), createdEvent(SNAP))
                .when(new DeleteSnapshotCommand(REGISTRY, SnapshotId.of(SNAP), T1))
                .expectException(domainError(DomainException.Kind.CONFLICT, "not asked to be deleted"));
    }

    // ---- restore

    @Test
    void givenACreatedSnapshot_whenARestoreIntoAnotherProjectOfTheOrganisationIsRequested_thenItIsAccepted() {
        fixture.given(requested(SNAP), createdEvent(SNAP))
                .when(new RequestSnapshotRestoreCommand(REGISTRY, SnapshotId.of(SNAP), ProjectId.of(TARGET),
                        TaskId.of(TASK), OWNER, T1))
                .expectEvents(new SnapshotRestoreRequestedEvent(SNAP, PROJECT, ORG, TARGET, TASK, USER, T1));
    }

    @Test
    void givenACreatedSnapshot_whenARestoreIntoAProjectOfAnotherOrganisationIsRequested_then404() {
        fixture.given(requested(SNAP), createdEvent(SNAP))
                .when(new RequestSnapshotRestoreCommand(REGISTRY, SnapshotId.of(SNAP), ProjectId.of(STRANGERS_PROJECT),
                        TaskId.of(TASK), OWNER, T1))
                .expectNoEvents()
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist"));
    }

    @Test
    void givenASnapshot_whenAStrangerRequestsARestore_then404() {
        fixture.given(requested(SNAP), createdEvent(SNAP))
                .when(new RequestSnapshotRestoreCommand(REGISTRY, SnapshotId.of(SNAP), ProjectId.of(PROJECT),
                        TaskId.of(TASK), STRANGER, T1))
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Snapshot"));
    }

    @Test
    void givenAPendingSnapshot_whenARestoreIsRequested_then409() {
        fixture.given(requested(SNAP))
                .when(new RequestSnapshotRestoreCommand(REGISTRY, SnapshotId.of(SNAP), ProjectId.of(PROJECT),
                        TaskId.of(TASK), OWNER, T1))
                .expectException(domainError(DomainException.Kind.CONFLICT, "still being created"));
    }
}
