package ai.convo.http.openapi;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The media types a handler answers in where they are not the API's five representations (a stream written to the
 * exchange): for the API description only, it changes nothing in how the request is handled.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AnswerMedia {

    String[] value();
}
