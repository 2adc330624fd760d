package ai.convo.command.task;

import static ai.convo.command.token.DomainErrors.domainError;
import static ai.convo.command.token.DomainErrors.invalidField;

import ai.convo.command.token.FakeProjects;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.Role;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.CompleteTaskCommand;
import ai.convo.contract.task.ConfirmTaskCancelledCommand;
import ai.convo.contract.task.CreateTaskCommand;
import ai.convo.contract.task.FailTaskCommand;
import ai.convo.contract.task.RecordTaskProgressCommand;
import ai.convo.contract.task.RequestTaskCancelCommand;
import ai.convo.contract.task.StartTaskCommand;
import ai.convo.contract.task.SystemTasks;
import ai.convo.contract.task.TaskCancelRequestedEvent;
import ai.convo.contract.task.TaskCancelledEvent;
import ai.convo.contract.task.TaskCompletedEvent;
import ai.convo.contract.task.TaskCreatedEvent;
import ai.convo.contract.task.TaskFailedEvent;
import ai.convo.contract.task.TaskId;
import ai.convo.contract.task.TaskProgressedEvent;
import ai.convo.contract.task.TaskRecord;
import ai.convo.contract.task.TaskStartedEvent;
import ai.convo.contract.task.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The write model of a Task, in given (past events) / when (command) / then (events or error): every allowed move
 * ({@code queued -> active -> done | error}, {@code queued | active -> cancelling -> cancelled}) and every refused one.
 */
class TaskAggregateTest {

    static final String PROJECT = "a00000000000000000000001";
    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String USER = "c00000000000000000000001";
    static final String CANCELLER = "c00000000000000000000002";
    static final String TASK = "d00000000000000000000001";
    static final String RUNNER = "runner-1";
    static final Map<String, Object> PARAMETERS = Map.of("snapshotId", "e00000000000000000000001");
    static final long T0 = 1_700_000_000L;
    static final long T1 = 1_700_000_100L;

    static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    static final Actor COLLEAGUE = new Actor(CANCELLER, ORG, Role.ORG_ADMIN);
    static final Actor STRANGER = new Actor(CANCELLER, OTHER_ORG, Role.ORG_ADMIN);
    static final TaskId ID = TaskId.of(TASK);

    private FixtureConfiguration<TaskAggregate> fixture;
    private FakeProjects projects;

    @BeforeEach
    void setUp() {
        projects = new FakeProjects().with(PROJECT, ORG);
        fixture = new AggregateTestFixture<>(TaskAggregate.class);
        fixture.registerInjectableResource(projects);
    }

    // ---- histories

    static TaskCreatedEvent created() {
        return new TaskCreatedEvent(TASK, PROJECT, ORG, "restoreSnapshot", PARAMETERS, USER, "MEMBER", T0);
    }

    static TaskStartedEvent started(int attempt) {
        return new TaskStartedEvent(TASK, PROJECT, ORG, RUNNER, attempt, T0);
    }

    static TaskCancelRequestedEvent cancelRequested() {
        return new TaskCancelRequestedEvent(TASK, PROJECT, ORG, CANCELLER, T0);
    }

    /** A history that leaves the task in the given status, on attempt 1 where it started. */
    static List<Object> historyOf(TaskStatus status) {
        List<Object> events = new ArrayList<>(List.of(created()));
        switch (status) {
            case queued -> { }
            case active -> events.add(started(1));
            case done -> events.addAll(List.of(started(1), new TaskCompletedEvent(TASK, PROJECT, ORG, T0)));
            case error -> events.addAll(List.of(started(1), new TaskFailedEvent(TASK, PROJECT, ORG, "broken", T0)));
            case cancelling -> events.addAll(List.of(started(1), cancelRequested()));
            case cancelled -> events.addAll(List.of(started(1), cancelRequested(),
                    new TaskCancelledEvent(TASK, PROJECT, ORG, T0)));
        }
        return events;
    }

    // ---- create

    @Nested
    @DisplayName("CreateTaskCommand")
    class Create {

        @Test
        void givenAVisibleProject_whenCreating_thenTaskCreatedQueuedWithTheCreatorAndRole() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateTaskCommand(ID, ProjectId.of(PROJECT), OWNER, "restoreSnapshot", PARAMETERS, T0))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectEvents(created())
                    .expectState(task -> org.assertj.core.api.Assertions.assertThat(task.record())
                            .isEqualTo(new TaskRecord(TASK, TaskStatus.queued, "restoreSnapshot", PARAMETERS, 0, 0, null,
                                    T0, T0, USER, USER)));
        }

        @Test
        void givenNoParameters_whenCreating_thenAnEmptyObject() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateTaskCommand(ID, ProjectId.of(PROJECT), OWNER, "createSnapshot", null, T0))
                    // then
                    .expectEvents(new TaskCreatedEvent(TASK, PROJECT, ORG, "createSnapshot", Map.of(), USER, "MEMBER", T0));
        }

        @Test
        void givenAnUnknownOrForeignProject_whenCreating_thenNotFoundAndNoEvent() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateTaskCommand(ID, ProjectId.of(PROJECT), STRANGER, "createSnapshot", Map.of(), T0))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, PROJECT))
                    .expectNoEvents();
        }

        @Test
        void givenASystemAdministrator_whenCreatingATaskOfTheSystem_thenCreatedUnderTheReservedProjectId() {
            // given
            Actor admin = new Actor(USER, ORG, Role.SYSTEM_ADMIN);
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateTaskCommand(ID, ProjectId.of(SystemTasks.PROJECT_ID), admin, "rebuildProjections",
                            Map.of("projections", List.of("tokens")), T0))
                    // then
                    .expectEvents(new TaskCreatedEvent(TASK, SystemTasks.PROJECT_ID, ORG, "rebuildProjections",
                            Map.of("projections", List.of("tokens")), USER, "SYSTEM_ADMIN", T0));
        }

        @ParameterizedTest
        @EnumSource(value = Role.class, names = {"ORG_ADMIN", "MEMBER"})
        void givenAnyoneElse_whenCreatingATaskOfTheSystem_thenForbiddenAndNoEvent(Role role) {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateTaskCommand(ID, ProjectId.of(SystemTasks.PROJECT_ID), new Actor(USER, ORG, role),
                            "rebuildProjections", Map.of(), T0))
                    // then
                    .expectException(domainError(DomainException.Kind.FORBIDDEN, "system administrator"))
                    .expectNoEvents();
        }

        @ParameterizedTest
        @MethodSource("ai.convo.command.task.TaskAggregateTest#badTypes")
        void givenABadType_whenCreating_thenInvalidNamingType(String type) {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateTaskCommand(ID, ProjectId.of(PROJECT), OWNER, type, Map.of(), T0))
                    // then
                    .expectException(invalidField("type"))
                    .expectNoEvents();
        }
    }

    static Stream<String> badTypes() {
        return Stream.of(null, "", "   ", "x".repeat(TaskRecord.MAX_TYPE_LENGTH + 1));
    }

    // ---- start

    @Nested
    @DisplayName("StartTaskCommand")
    class Start {

        @Test
        void givenAQueuedTask_whenAttemptOneStarts_thenStartedActive() {
            // given
            fixture.given(created())
                    // when
                    .when(new StartTaskCommand(ID, RUNNER, 1, T1))
                    // then
                    .expectEvents(new TaskStartedEvent(TASK, PROJECT, ORG, RUNNER, 1, T1))
                    .expectState(task -> org.assertj.core.api.Assertions.assertThat(task.record().status())
                            .isEqualTo(TaskStatus.active));
        }

        @Test
        void givenAnActiveTaskWithProgress_whenTheNextAttemptTakesOver_thenStartedAgainFromStepZero() {
            // given
            fixture.given(created(), started(1), new TaskProgressedEvent(TASK, PROJECT, ORG, 3, 5, T0))
                    // when
                    .when(new StartTaskCommand(ID, "runner-2", 2, T1))
                    // then
                    .expectEvents(new TaskStartedEvent(TASK, PROJECT, ORG, "runner-2", 2, T1))
                    .expectState(task -> org.assertj.core.api.Assertions.assertThat(task.record())
                            .extracting(TaskRecord::currentStep, TaskRecord::totalStep).containsExactly(0, 0));
        }

        @ParameterizedTest
        @EnumSource(value = TaskStatus.class, names = {"cancelling", "cancelled", "done", "error"})
        void givenATaskThatIsNotQueuedOrActive_whenStarting_thenConflictNamingTheStatus(TaskStatus status) {
            // given
            fixture.given(historyOf(status))
                    // when
                    .when(new StartTaskCommand(ID, RUNNER, 2, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "is " + status))
                    .expectNoEvents();
        }

        @Test
        void givenAQueuedTask_whenAnAttemptOtherThanTheNextStarts_thenConflict() {
            // given
            fixture.given(created())
                    // when
                    .when(new StartTaskCommand(ID, RUNNER, 2, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "must be attempt 1"))
                    .expectNoEvents();
        }

        @Test
        void givenAnActiveTask_whenTheSameAttemptStartsAgain_thenConflict() {
            // given: two runners raced for attempt 1
            fixture.given(created(), started(1))
                    // when
                    .when(new StartTaskCommand(ID, "runner-2", 1, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "must be attempt 2"))
                    .expectNoEvents();
        }

        @Test
        void givenAQueuedTask_whenNoRunnerIsNamed_thenInvalid() {
            // given
            fixture.given(created())
                    // when
                    .when(new StartTaskCommand(ID, " ", 1, T1))
                    // then
                    .expectException(invalidField("runnerId"))
                    .expectNoEvents();
        }
    }

    // ---- progress

    @Nested
    @DisplayName("RecordTaskProgressCommand")
    class Progress {

        @Test
        void givenAnActiveTask_whenProgressIsRecorded_thenProgressedAndTheStatusIsAnswered() {
            // given
            fixture.given(created(), started(1), new TaskProgressedEvent(TASK, PROJECT, ORG, 0, 4, T0))
                    // when
                    .when(new RecordTaskProgressCommand(ID, 1, 2, null, T1))
                    // then
                    .expectEvents(new TaskProgressedEvent(TASK, PROJECT, ORG, 2, 4, T1))
                    .expectResultMessagePayload(TaskStatus.active);
        }

        @Test
        void givenACancellingTask_whenProgressIsRecorded_thenProgressedAndCancellingIsAnswered() {
            // given
            fixture.given(created(), started(1), cancelRequested())
                    // when
                    .when(new RecordTaskProgressCommand(ID, 1, 1, 3, T1))
                    // then
                    .expectEvents(new TaskProgressedEvent(TASK, PROJECT, ORG, 1, 3, T1))
                    .expectResultMessagePayload(TaskStatus.cancelling);
        }

        @Test
        void givenTheSameProgress_whenRecordedAgain_thenNoEventButTheStatus() {
            // given
            fixture.given(created(), started(1), new TaskProgressedEvent(TASK, PROJECT, ORG, 2, 4, T0))
                    // when
                    .when(new RecordTaskProgressCommand(ID, 1, 2, 4, T1))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(TaskStatus.active);
        }

        @ParameterizedTest
        @EnumSource(value = TaskStatus.class, names = {"queued", "done", "error", "cancelled"})
        void givenATaskThatIsNotRunning_whenProgressIsRecorded_thenConflict(TaskStatus status) {
            // given
            fixture.given(historyOf(status))
                    // when
                    .when(new RecordTaskProgressCommand(ID, status == TaskStatus.queued ? 0 : 1, 1, 2, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "is " + status))
                    .expectNoEvents();
        }

        @Test
        void givenATakenOverTask_whenTheEarlierAttemptReportsProgress_thenConflictAndNoEvent() {
            // given
            fixture.given(created(), started(1), started(2))
                    // when
                    .when(new RecordTaskProgressCommand(ID, 1, 1, 2, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "on attempt 2"))
                    .expectNoEvents();
        }

        @ParameterizedTest
        @MethodSource("ai.convo.command.task.TaskAggregateTest#impossibleProgress")
        void givenAnActiveTask_whenImpossibleProgressIsRecorded_thenInvalid(Integer current, Integer total) {
            // given
            fixture.given(created(), started(1), new TaskProgressedEvent(TASK, PROJECT, ORG, 0, 4, T0))
                    // when
                    .when(new RecordTaskProgressCommand(ID, 1, current, total, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "Step"))
                    .expectNoEvents();
        }
    }

    static Stream<Arguments> impossibleProgress() {
        return Stream.of(Arguments.of(-1, null), Arguments.of(null, -2), Arguments.of(5, null), Arguments.of(3, 2));
    }

    // ---- complete and fail

    @Nested
    @DisplayName("CompleteTaskCommand and FailTaskCommand")
    class Ends {

        @Test
        void givenAnActiveTask_whenCompleted_thenDone() {
            // given
            fixture.given(created(), started(1))
                    // when
                    .when(new CompleteTaskCommand(ID, 1, T1))
                    // then
                    .expectEvents(new TaskCompletedEvent(TASK, PROJECT, ORG, T1))
                    .expectState(task -> org.assertj.core.api.Assertions.assertThat(task.record())
                            .extracting(TaskRecord::status, TaskRecord::lastChanged, TaskRecord::lastChangedBy)
                            .containsExactly(TaskStatus.done, T1, USER));
        }

        @Test
        void givenAnActiveTask_whenFailed_thenErrorWithTheReason() {
            // given
            fixture.given(created(), started(2))
                    // when
                    .when(new FailTaskCommand(ID, 2, "The snapshot is damaged.", T1))
                    // then
                    .expectEvents(new TaskFailedEvent(TASK, PROJECT, ORG, "The snapshot is damaged.", T1))
                    .expectState(task -> org.assertj.core.api.Assertions.assertThat(task.record().failReason())
                            .isEqualTo("The snapshot is damaged."));
        }

        @ParameterizedTest
        @EnumSource(value = TaskStatus.class, names = {"queued", "cancelling", "cancelled", "done", "error"})
        void givenATaskThatIsNotActive_whenCompleted_thenConflictNamingTheStatus(TaskStatus status) {
            // given
            fixture.given(historyOf(status))
                    // when
                    .when(new CompleteTaskCommand(ID, 1, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "is " + status,
                            Map.of("status", status.name())))
                    .expectNoEvents();
        }

        @ParameterizedTest
        @EnumSource(value = TaskStatus.class, names = {"queued", "cancelling", "cancelled", "done", "error"})
        void givenATaskThatIsNotActive_whenFailed_thenConflictNamingTheStatus(TaskStatus status) {
            // given
            fixture.given(historyOf(status))
                    // when
                    .when(new FailTaskCommand(ID, 1, "reason", T1))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "is " + status))
                    .expectNoEvents();
        }

        @Test
        void givenATakenOverTask_whenTheEarlierAttemptCompletesOrFails_thenConflict() {
            // given
            fixture.given(created(), started(1), started(2))
                    // when
                    .when(new CompleteTaskCommand(ID, 1, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "on attempt 2"))
                    .expectNoEvents();
            fixture.given(created(), started(1), started(2))
                    .when(new FailTaskCommand(ID, 1, "late", T1))
                    .expectException(domainError(DomainException.Kind.CONFLICT, "on attempt 2"))
                    .expectNoEvents();
        }

        @ParameterizedTest
        @MethodSource("ai.convo.command.task.TaskAggregateTest#badReasons")
        void givenAnActiveTask_whenFailedWithoutAUsableReason_thenInvalid(String reason) {
            // given
            fixture.given(created(), started(1))
                    // when
                    .when(new FailTaskCommand(ID, 1, reason, T1))
                    // then
                    .expectException(invalidField("failReason"))
                    .expectNoEvents();
        }
    }

    static Stream<String> badReasons() {
        return Stream.of(null, "", " ", "x".repeat(TaskRecord.MAX_FAIL_REASON_LENGTH + 1));
    }

    // ---- cancel

    @Nested
    @DisplayName("RequestTaskCancelCommand and ConfirmTaskCancelledCommand")
    class Cancel {

        @ParameterizedTest
        @EnumSource(value = TaskStatus.class, names = {"queued", "active"})
        void givenAQueuedOrActiveTask_whenACancelIsRequested_thenCancellingByTheRequester(TaskStatus status) {
            // given
            fixture.given(historyOf(status))
                    // when
                    .when(new RequestTaskCancelCommand(ID, COLLEAGUE, T1))
                    // then
                    .expectEvents(new TaskCancelRequestedEvent(TASK, PROJECT, ORG, CANCELLER, T1))
                    .expectResultMessagePayload(new TaskRecord(TASK, TaskStatus.cancelling, "restoreSnapshot",
                            PARAMETERS, 0, 0, null, T0, T1, USER, CANCELLER));
        }

        @ParameterizedTest
        @EnumSource(value = TaskStatus.class, names = {"cancelling", "cancelled"})
        void givenACancellingOrCancelledTask_whenACancelIsRequestedAgain_thenNoEventAndTheSameRecord(TaskStatus status) {
            // given
            fixture.given(historyOf(status))
                    // when
                    .when(new RequestTaskCancelCommand(ID, COLLEAGUE, T1))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(new TaskRecord(TASK, status, "restoreSnapshot", PARAMETERS, 0, 0, null,
                            T0, T0, USER, CANCELLER));
        }

        @ParameterizedTest
        @EnumSource(value = TaskStatus.class, names = {"done", "error"})
        void givenAFinishedTask_whenACancelIsRequested_thenConflictNamingTheStatus(TaskStatus status) {
            // given
            fixture.given(historyOf(status))
                    // when
                    .when(new RequestTaskCancelCommand(ID, COLLEAGUE, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "is " + status,
                            Map.of("status", status.name())))
                    .expectNoEvents();
        }

        @ParameterizedTest
        @EnumSource(TaskStatus.class)
        void givenATaskOfAnotherOrganisation_whenACancelIsRequested_thenNotFoundWhateverItsStatus(TaskStatus status) {
            // given
            fixture.given(historyOf(status))
                    // when
                    .when(new RequestTaskCancelCommand(ID, STRANGER, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Task " + TASK + " does not exist"))
                    .expectNoEvents();
        }

        @Test
        void givenACancellingRunningTask_whenItsAttemptConfirms_thenCancelled() {
            // given
            fixture.given(created(), started(1), cancelRequested())
                    // when
                    .when(new ConfirmTaskCancelledCommand(ID, 1, T1))
                    // then
                    .expectEvents(new TaskCancelledEvent(TASK, PROJECT, ORG, T1));
        }

        @Test
        void givenATaskCancelledBeforeItStarted_whenConfirmedAtAttemptZero_thenCancelled() {
            // given
            fixture.given(created(), cancelRequested())
                    // when
                    .when(new ConfirmTaskCancelledCommand(ID, 0, T1))
                    // then
                    .expectEvents(new TaskCancelledEvent(TASK, PROJECT, ORG, T1));
        }

        @Test
        void givenACancelledTask_whenConfirmedAgain_thenNoEvent() {
            // given
            fixture.given(historyOf(TaskStatus.cancelled))
                    // when
                    .when(new ConfirmTaskCancelledCommand(ID, 1, T1))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectNoEvents();
        }

        @ParameterizedTest
        @EnumSource(value = TaskStatus.class, names = {"queued", "active", "done", "error"})
        void givenATaskThatIsNotCancelling_whenConfirmedCancelled_thenConflict(TaskStatus status) {
            // given
            fixture.given(historyOf(status))
                    // when
                    .when(new ConfirmTaskCancelledCommand(ID, status == TaskStatus.queued ? 0 : 1, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "is " + status))
                    .expectNoEvents();
        }

        @Test
        void givenACancellingTaskTakenOver_whenTheEarlierAttemptConfirms_thenConflict() {
            // given
            fixture.given(created(), started(1), started(2), cancelRequested())
                    // when
                    .when(new ConfirmTaskCancelledCommand(ID, 1, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "on attempt 2"))
                    .expectNoEvents();
        }
    }
}
