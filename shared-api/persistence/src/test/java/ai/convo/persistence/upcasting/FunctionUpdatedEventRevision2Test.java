package ai.convo.persistence.upcasting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionUpdatedEvent;
import ai.convo.persistence.AxonSerializers;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.axonframework.serialization.SerializationException;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;
import org.junit.jupiter.api.Test;

/** FunctionUpdatedEvent revision 1 (stored without a revision, {@code disabled}) reads as revision 2 ({@code isDisabled}). */
class FunctionUpdatedEventRevision2Test {

    private static final String TYPE = FunctionUpdatedEvent.class.getName();
    /** Exactly what revision 1 stored: the record's components in order, with {@code disabled}. */
    static final String OLD = "{\"functionId\":\"f1\",\"projectId\":\"p1\",\"organisationId\":\"o1\","
            + "\"changedFields\":[\"isDisabled\"],\"name\":\"Send mail\",\"code\":\"return 1;\",\"disabled\":true,"
            + "\"changedBy\":\"u1\",\"changedAt\":1700000000}";

    private final Serializer serializer = new AxonSerializers().eventSerializer();
    private final StoredEvents withUpcaster = new StoredEvents(List.of(new FunctionUpdatedEventRevision2()), serializer);
    private final StoredEvents withoutUpcaster = new StoredEvents(List.of(), serializer);

    private static byte[] utf8(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static String json(IntermediateEventRepresentation event) {
        return new String(event.getData(byte[].class).getData(), StandardCharsets.UTF_8);
    }

    private static org.axonframework.eventhandling.DomainEventData<byte[]> stored(String type, String revision,
                                                                                   String json) {
        return StoredEvents.row("FunctionAggregate", "f1", 1, "e1", "2023-11-14T22:13:20Z", type, revision, utf8(json),
                null);
    }

    @Test
    void theOldShapeBecomesTheNewOneWithItsFieldsInTheSameOrder() {
        List<IntermediateEventRepresentation> current = withUpcaster.current(stored(TYPE, null, OLD));

        assertThat(current).hasSize(1);
        assertThat(current.get(0).getType().getName()).isEqualTo(TYPE);
        assertThat(current.get(0).getType().getRevision()).isEqualTo("2");
        assertThat(json(current.get(0))).isEqualTo(OLD.replace("\"disabled\"", "\"isDisabled\""));
    }

    @Test
    void theOldShapeLoadsAsTheRecordWithTheValueItHad() {
        assertThat(withUpcaster.payloads(stored(TYPE, null, OLD))).containsExactly(new FunctionUpdatedEvent("f1", "p1",
                "o1", List.of("isDisabled"), "Send mail", "return 1;", true, "u1", 1_700_000_000L));
    }

    @Test
    void withoutTheUpcasterTheOldShapeWouldNotLoad() {
        // why the upcaster and its raw-shape tests exist: the serializer ignores the unknown "disabled" and finds no
        // "isDisabled" for a primitive, so the aggregate would not load and the processors would stop at the event
        // (a missing field of an object type would load, silently, as null)
        assertThatThrownBy(() -> withoutUpcaster.payloads(stored(TYPE, null, OLD)))
                .isInstanceOf(SerializationException.class).rootCause().hasMessageContaining("boolean");
    }

    @Test
    void anEventWrittenTodayIsStoredAsRevision2WithIsDisabledAndPassesUntouched() {
        FunctionUpdatedEvent event = new FunctionUpdatedEvent("f1", "p1", "o1", List.of("isDisabled"), "Send mail",
                "return 1;", true, "u1", 1_700_000_000L);
        SerializedObject<byte[]> written = serializer.serialize(event, byte[].class);
        assertThat(written.getType().getRevision()).isEqualTo("2");
        String json = new String(written.getData(), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo(OLD.replace("\"disabled\"", "\"isDisabled\""));

        List<IntermediateEventRepresentation> current = withUpcaster.current(stored(TYPE, "2", json));

        assertThat(current).hasSize(1);
        assertThat(current.get(0).getType().getRevision()).isEqualTo("2");
        assertThat(current.get(0).getData().getData()).isEqualTo(written.getData()); // the very bytes, not re-written
        assertThat(withUpcaster.payloads(stored(TYPE, "2", json))).containsExactly(event);
    }

    @Test
    void otherEventsPassUntouchedEvenWithAFieldOfThatName() {
        String created = "{\"functionId\":\"f1\",\"projectId\":\"p1\",\"organisationId\":\"o1\",\"referenceId\":\"r\","
                + "\"name\":\"n\",\"code\":\"c\",\"disabled\":true,\"createdBy\":\"u1\",\"createdAt\":1}";

        List<IntermediateEventRepresentation> current = withUpcaster.current(
                stored(FunctionCreatedEvent.class.getName(), null, created));

        assertThat(current).hasSize(1);
        assertThat(current.get(0).getType().getRevision()).isNull();
        assertThat(json(current.get(0))).isEqualTo(created);
        assertThat(((FunctionCreatedEvent) withUpcaster.payloads(
                stored(FunctionCreatedEvent.class.getName(), null, created)).get(0)).disabled()).isTrue();
    }

    @Test
    void aRevision1PayloadAlreadyWithoutDisabledIsLeftAsItIs() {
        String odd = "{\"functionId\":\"f1\",\"name\":\"n\"}";
        assertThat(json(withUpcaster.current(stored(TYPE, null, odd)).get(0))).isEqualTo(odd);
    }
}
