package ai.convo.persistence.snapshots;

import com.fasterxml.jackson.annotation.JsonCreator;
import org.axonframework.commandhandling.CommandHandler;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.JacksonAnnotationIntrospector;

/**
 * An aggregate's creating command handler is a one-argument constructor, which Jackson would otherwise take for a
 * delegating creator and call with null: a snapshot is read through the aggregate's no-argument constructor and its
 * fields instead.
 */
final class AggregateStateIntrospector extends JacksonAnnotationIntrospector {

    @Override
    public JsonCreator.Mode findCreatorAnnotation(MapperConfig<?> config, Annotated annotated) {
        if (annotated.hasAnnotation(CommandHandler.class)) {
            return JsonCreator.Mode.DISABLED;
        }
        return super.findCreatorAnnotation(config, annotated);
    }
}
