package ai.convo.query.flow;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.flow.FlowUpdatedEvent;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.state.DefaultStateChangedEvent;
import ai.convo.contract.state.StateCreatedEvent;
import ai.convo.contract.state.StateDeletedEvent;
import ai.convo.contract.state.StateUpdatedEvent;
import java.util.List;
import java.util.stream.Stream;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Events of flows, states, intents and projects that touch the same rows are applied in one sequence per project. */
class FlowProcessingTest {

    static final String PROJECT = "0000000000000000000000a1";
    static final String ORG = "000000000000000000000001";
    static final String FLOW = "0000000000000000000000f1";
    static final String STATE = "0000000000000000000000e1";
    static final String INTENT = "0000000000000000000000d1";
    static final String USER = "000000000000000000000002";

    static Stream<Object> eventsOfAProject() {
        return Stream.of(
                new FlowCreatedEvent(FLOW, PROJECT, ORG, "ref", "Main", "", USER, 1),
                new FlowUpdatedEvent(FLOW, PROJECT, ORG, List.of("name"), "Main", "", USER, 2),
                new FlowDeletedEvent(FLOW, PROJECT, ORG, USER, 3),
                new StateCreatedEvent(FLOW, PROJECT, ORG, STATE, "ref", "s", "blacklist", false, List.of(), USER, 1),
                new StateUpdatedEvent(FLOW, PROJECT, ORG, STATE, List.of("name"), "t", "blacklist", false, List.of(),
                        USER, 2),
                new DefaultStateChangedEvent(FLOW, PROJECT, ORG, null, STATE, USER, 2),
                new StateDeletedEvent(FLOW, PROJECT, ORG, STATE, USER, 3),
                new IntentDeletedEvent(INTENT, FLOW, PROJECT, ORG, USER, 3),
                new ProjectDeletedEvent(PROJECT, ORG, USER, 4));
    }

    @ParameterizedTest
    @MethodSource("eventsOfAProject")
    void givenAnEventOfAProjectFromAnyAggregate_whenSequenced_thenItsSequenceIsTheProject(Object payload) {
        // given: stored by whichever aggregate appends it
        var message = new GenericDomainEventMessage<>("SomeAggregate", "00000000000000000000beef", 0, payload);
        // when / then
        assertThat(FlowProcessing.BY_PROJECT.getSequenceIdentifierFor(message)).isEqualTo(PROJECT);
    }

    @Test
    void givenAnEventThatNamesNoProjectOfOurs_whenSequenced_thenItFallsBackToItsAggregate() {
        // given
        var message = new GenericDomainEventMessage<>("ProjectAggregate", "00000000000000000000beef", 0,
                new LocaleDeletedEvent(PROJECT, ORG, STATE, USER, 1));
        // when / then
        assertThat(FlowProcessing.BY_PROJECT.getSequenceIdentifierFor(message)).isEqualTo("00000000000000000000beef");
    }
}
