package ai.convo.query.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.contract.project.ProjectCreatedEvent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericDomainEventEntry;
import org.axonframework.eventhandling.TrackedDomainEventData;
import org.axonframework.eventhandling.TrackedEventData;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.jackson3.Jackson3Serializer;
import org.axonframework.serialization.upcasting.event.EventUpcasterChain;
import org.junit.jupiter.api.Test;

/**
 * The rebuild's reader deserializes each payload before the workers get it; a payload it cannot read is handed on as
 * it was, to fail where the workers' handlers read it (their careful path decides what becomes of it).
 */
class ReadAheadPayloadsTest {

    private final Serializer serializer = Jackson3Serializer.builder().build();

    @Test
    void givenAReadableAndAnUnreadablePayload_whenReadAhead_thenBothAreHandedOnAndOnlyTheSecondFailsWhenRead() {
        String good = "{\"projectId\":\"p1\",\"organisationId\":\"o1\",\"name\":\"Bench\",\"color\":\"\","
                + "\"createdBy\":\"u1\",\"createdAt\":1700000000}";
        List<TrackedEventData<?>> rows = List.of(row(1, good), row(2, "{\"projectId\": [unterminated"));

        List<TrackedEventMessage<?>> messages = Rebuilder.readAhead(rows, serializer,
                new EventUpcasterChain(List.of()));

        assertThat(messages).hasSize(2);
        assertThat(messages.get(0).getPayload()).isInstanceOf(ProjectCreatedEvent.class);
        assertThat(((ProjectCreatedEvent) messages.get(0).getPayload()).name()).isEqualTo("Bench");
        assertThat(messages.get(1).trackingToken().position()).hasValue(2L);
        assertThatThrownBy(() -> messages.get(1).getPayload()).isInstanceOf(RuntimeException.class);
    }

    private static TrackedEventData<?> row(long index, String payload) {
        return new TrackedDomainEventData<>(GapAwareTrackingToken.newInstance(index, Set.of()),
                new GenericDomainEventEntry<>("ProjectAggregate", "p" + index, 0, "event-" + index,
                        "2026-11-28T12:00:00.000Z", ProjectCreatedEvent.class.getName(), null,
                        payload.getBytes(StandardCharsets.UTF_8), "{}".getBytes(StandardCharsets.UTF_8)));
    }
}
