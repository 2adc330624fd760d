package ai.convo.query.web.list;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Says which list a handler answers: the name of the {@link ListDefinition} constant of its class. The API
 * description ({@link ListDescriptions}) takes the list's parameters and sortable fields from it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ListOf {

    /** The name of the static ListDefinition field of the handler's class. */
    String value();
}
