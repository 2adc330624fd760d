package ai.convo.command.function;

import static ai.convo.command.token.DomainErrors.domainError;

import ai.convo.command.token.FakeProjects;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.function.CheckFunctionRunnableCommand;
import ai.convo.contract.function.FailFunctionInstanceCommand;
import ai.convo.contract.function.FinishFunctionInstanceCommand;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionId;
import ai.convo.contract.function.FunctionInstanceFailedEvent;
import ai.convo.contract.function.FunctionInstanceFinishedEvent;
import ai.convo.contract.function.FunctionInstanceId;
import ai.convo.contract.function.FunctionInstanceLoggedEvent;
import ai.convo.contract.function.FunctionInstanceRun;
import ai.convo.contract.function.FunctionInstanceStartedEvent;
import ai.convo.contract.function.FunctionInstanceStoppedEvent;
import ai.convo.contract.function.FunctionInstanceTriggeredEvent;
import ai.convo.contract.function.FunctionRunnable;
import ai.convo.contract.function.FunctionUpdatedEvent;
import ai.convo.contract.function.RecordFunctionInstanceLogsCommand;
import ai.convo.contract.function.StartFunctionInstanceCommand;
import ai.convo.contract.function.StopFunctionInstanceCommand;
import ai.convo.contract.function.TriggerFunctionCommand;
import ai.convo.contract.identity.Role;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import java.util.List;
import java.util.Map;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The write model of a function instance, and the function's trigger check: given / when / then. */
class FunctionInstanceAggregateTest {

    static final String PROJECT = "a00000000000000000000001";
    static final String ORG = "b00000000000000000000001";
    static final String USER = "c00000000000000000000001";
    static final String FUNCTION = "f00000000000000000000001";
    static final String INSTANCE = "e00000000000000000000001";
    static final String TASK = "d00000000000000000000001";
    static final String CODE = "export default () => 1;";
    static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    static final Actor STRANGER = new Actor(USER, "b00000000000000000000002", Role.ORG_ADMIN);

    private FixtureConfiguration<FunctionInstanceAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(FunctionInstanceAggregate.class);
    }

    private static FunctionInstanceTriggeredEvent triggered() {
        return new FunctionInstanceTriggeredEvent(INSTANCE, FUNCTION, PROJECT, ORG, "manual", Map.of("a", 1), CODE, TASK,
                USER, 1L);
    }

    private static FunctionInstanceStartedEvent started() {
        return new FunctionInstanceStartedEvent(INSTANCE, FUNCTION, PROJECT, ORG, "r1", 2L);
    }

    private static FunctionInstanceId id() {
        return FunctionInstanceId.of(INSTANCE);
    }

    @Test
    void a_trigger_queues_an_instance_with_the_code_as_triggered() {
        fixture.givenNoPriorActivity()
                .when(new TriggerFunctionCommand(id(), FunctionId.of(FUNCTION), ProjectId.of(PROJECT), OWNER, "manual",
                        Map.of("a", 1), CODE, TaskId.of(TASK), 1L))
                .expectEvents(triggered());
    }

    @Test
    void the_first_start_activates_and_a_second_start_says_the_run_was_already_active() {
        fixture.given(triggered())
                .when(new StartFunctionInstanceCommand(id(), "r1", 2L))
                .expectEvents(started())
                .expectResultMessagePayload(new FunctionInstanceRun(FUNCTION, CODE, Map.of("a", 1), false));
        fixture.given(triggered(), started())
                .when(new StartFunctionInstanceCommand(id(), "r2", 3L))
                .expectNoEvents()
                .expectResultMessagePayload(new FunctionInstanceRun(FUNCTION, CODE, Map.of("a", 1), true));
    }

    @Test
    void an_active_instance_logs_and_finishes() {
        fixture.given(triggered(), started())
                .when(new RecordFunctionInstanceLogsCommand(id(), List.of("a", "b"), 3L))
                .expectEvents(new FunctionInstanceLoggedEvent(INSTANCE, FUNCTION, PROJECT, ORG, List.of("a", "b"), 3L));
        fixture.given(triggered(), started())
                .when(new FinishFunctionInstanceCommand(id(), 4L))
                .expectEvents(new FunctionInstanceFinishedEvent(INSTANCE, FUNCTION, PROJECT, ORG, 4L));
    }

    @Test
    void a_stop_ends_the_instance_once_and_then_changes_nothing() {
        fixture.given(triggered(), started())
                .when(new StopFunctionInstanceCommand(id(), FunctionId.of(FUNCTION), OWNER, 5L))
                .expectEvents(new FunctionInstanceStoppedEvent(INSTANCE, FUNCTION, PROJECT, ORG, USER, 5L))
                .expectResultMessagePayload(TASK);
        fixture.given(triggered(), started(), new FunctionInstanceStoppedEvent(INSTANCE, FUNCTION, PROJECT, ORG, USER, 5L))
                .when(new StopFunctionInstanceCommand(id(), FunctionId.of(FUNCTION), OWNER, 6L))
                .expectNoEvents().expectResultMessagePayload(null);
        fixture.given(triggered(), started(), new FunctionInstanceStoppedEvent(INSTANCE, FUNCTION, PROJECT, ORG, USER, 5L))
                .when(new FinishFunctionInstanceCommand(id(), 7L))
                .expectException(domainError(DomainException.Kind.CONFLICT, "is error"));
    }

    @Test
    void another_organisation_or_another_function_cannot_stop_it() {
        fixture.given(triggered())
                .when(new StopFunctionInstanceCommand(id(), FunctionId.of(FUNCTION), STRANGER, 5L))
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist"));
        fixture.given(triggered())
                .when(new StopFunctionInstanceCommand(id(), FunctionId.of("f00000000000000000000009"), OWNER, 5L))
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist"));
    }

    @Test
    void a_failure_is_kept_short_and_an_ended_instance_cannot_fail_again() {
        String longError = "x".repeat(3_000);
        fixture.given(triggered(), started())
                .when(new FailFunctionInstanceCommand(id(), longError, 4L))
                .expectEvents(new FunctionInstanceFailedEvent(INSTANCE, FUNCTION, PROJECT, ORG, "x".repeat(1_997) + "...", 4L));
        fixture.given(triggered(), started(), new FunctionInstanceFinishedEvent(INSTANCE, FUNCTION, PROJECT, ORG, 4L))
                .when(new FailFunctionInstanceCommand(id(), "late", 5L))
                .expectException(domainError(DomainException.Kind.CONFLICT, "is done already"));
    }

    @Test
    void a_disabled_function_cannot_run_and_an_enabled_one_answers_its_project_and_code() {
        FixtureConfiguration<FunctionAggregate> functions = new AggregateTestFixture<>(FunctionAggregate.class);
        functions.registerInjectableResource(new FakeProjects().with(PROJECT, ORG));
        FunctionCreatedEvent created = new FunctionCreatedEvent(FUNCTION, PROJECT, ORG, "6f1c2a4e-0000-4000-8000-000000000001",
                "f", CODE, false, USER, 1L);
        functions.given(created)
                .when(new CheckFunctionRunnableCommand(FunctionId.of(FUNCTION), OWNER))
                .expectNoEvents().expectResultMessagePayload(new FunctionRunnable(PROJECT, CODE));
        functions.given(created, new FunctionUpdatedEvent(FUNCTION, PROJECT, ORG, List.of("isDisabled"), "f", CODE, true,
                        USER, 2L))
                .when(new CheckFunctionRunnableCommand(FunctionId.of(FUNCTION), OWNER))
                .expectException(domainError(DomainException.Kind.CONFLICT, "is disabled"));
        functions.given(created)
                .when(new CheckFunctionRunnableCommand(FunctionId.of(FUNCTION), STRANGER))
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist"));
    }
}
