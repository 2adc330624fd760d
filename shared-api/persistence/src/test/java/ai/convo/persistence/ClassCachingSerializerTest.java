package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import org.axonframework.serialization.SerializedType;
import org.axonframework.serialization.SimpleSerializedType;
import org.axonframework.serialization.UnknownSerializedType;
import org.junit.jupiter.api.Test;

/** The serializer's class cache answers what Axon's own resolution answers, for known, unknown and empty types. */
class ClassCachingSerializerTest {

    @Test
    void givenTypesReadTwice_whenResolved_thenTheSameAnswersAsAxonsOwnResolution() {
        var serializer = AxonSerializers.jackson3();
        SerializedType known = new SimpleSerializedType(java.time.Duration.class.getName(), null);
        SerializedType unknown = new SimpleSerializedType("ai.convo.contract.NoSuchEvent", null);

        for (int round = 0; round < 2; round++) {
            assertThat(serializer.classForType(known)).isEqualTo(java.time.Duration.class);
            assertThat(serializer.classForType(unknown)).isEqualTo(UnknownSerializedType.class);
            assertThat(serializer.classForType(SimpleSerializedType.emptyType())).isEqualTo(Void.class);
        }
    }
}
