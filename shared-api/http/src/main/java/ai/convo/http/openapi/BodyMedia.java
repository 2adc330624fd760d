package ai.convo.http.openapi;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The media types of a handler's request body where the signature does not show them (a multipart form read from
 * the exchange): for the API description only, it changes nothing in how the request is handled.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface BodyMedia {

    String[] value();
}
