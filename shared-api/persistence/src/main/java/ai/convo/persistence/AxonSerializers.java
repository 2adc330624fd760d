package ai.convo.persistence;

import ai.convo.persistence.snapshots.AggregateShapes;
import com.fasterxml.jackson.annotation.JsonAutoDetect;
import tools.jackson.databind.MapperFeature;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.jackson3.Jackson3Serializer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import tools.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
import tools.jackson.databind.jsontype.PolymorphicTypeValidator;

/**
 * Jackson 3 for everything Axon stores. Tokens nest other tokens by class name (a replay token holds the
 * token at reset), and Jackson 3 refuses such polymorphism by default: allow Axon's types and ours, nothing else.
 */
@Configuration(proxyBeanMethods = false)
public class AxonSerializers {

    static final PolymorphicTypeValidator TYPES = BasicPolymorphicTypeValidator.builder()
            .allowIfSubType("org.axonframework.")
            .allowIfSubType("ai.convo.")
            .build();

    static Serializer jackson3() {
        return new ClassCachingSerializer(Jackson3Serializer.builder()
                .jsonMapperBuilderCustomizer(builder -> builder.polymorphicTypeValidator(TYPES)));
    }

    @Bean
    @Primary
    public Serializer serializer() {
        return jackson3();
    }

    /**
     * Aggregate snapshots: an aggregate's state is its fields (no getters, no setters), and a snapshot's revision is
     * the fingerprint of the aggregate's shape ({@link AggregateShapes}), so a snapshot of another shape is ignored.
     */
    @Bean
    @Qualifier("snapshotSerializer")
    public Serializer snapshotSerializer() {
        return Jackson3Serializer.builder()
                .revisionResolver(new AggregateShapes())
                .jsonMapperBuilderCustomizer(builder -> builder.polymorphicTypeValidator(TYPES)
                        // aggregates keep their collections in final fields
                        .enable(MapperFeature.ALLOW_FINAL_FIELDS_AS_MUTATORS)
                        .annotationIntrospector(AggregateShapes.introspector())
                        .changeDefaultVisibility(checker -> checker
                                .withFieldVisibility(JsonAutoDetect.Visibility.ANY)
                                .withGetterVisibility(JsonAutoDetect.Visibility.NONE)
                                .withIsGetterVisibility(JsonAutoDetect.Visibility.NONE)
                                .withSetterVisibility(JsonAutoDetect.Visibility.NONE)))
                .build();
    }

    @Bean
    @Qualifier("eventSerializer")
    public Serializer eventSerializer() {
        return jackson3();
    }

    @Bean
    @Qualifier("messageSerializer")
    public Serializer messageSerializer() {
        return jackson3();
    }
}
