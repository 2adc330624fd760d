package ai.convo.query.api;

import org.axonframework.serialization.SimpleSerializedType;
import org.axonframework.serialization.upcasting.event.EventUpcaster;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;
import org.axonframework.serialization.upcasting.event.SingleEventUpcaster;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A made-up older shape of a shipped event (FunctionDeletedEvent at revision "0", its actor field called removedBy)
 * and the upcaster to today's, in every test context of the query service: one context for all API tests, since a
 * second one on the same database would run a second set of processors under the same node id.
 */
@TestConfiguration(proxyBeanMethods = false)
class OldShapes {

    static final String FUNCTION_DELETED = "ai.convo.contract.function.FunctionDeletedEvent";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Bean
    EventUpcaster removedByBecameDeletedBy() {
        return new SingleEventUpcaster() {
            @Override
            protected boolean canUpcast(IntermediateEventRepresentation representation) {
                return representation.getType().getName().equals(FUNCTION_DELETED)
                        && "0".equals(representation.getType().getRevision());
            }

            @Override
            protected IntermediateEventRepresentation doUpcast(IntermediateEventRepresentation representation) {
                return representation.upcastPayload(new SimpleSerializedType(FUNCTION_DELETED, null), byte[].class,
                        bytes -> {
                            ObjectNode node = (ObjectNode) JSON.readTree(bytes);
                            node.set("deletedBy", node.remove("removedBy"));
                            return JSON.writeValueAsBytes(node);
                        });
            }
        };
    }
}
