package ai.convo.query.readmodel;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.beans.factory.annotation.Qualifier;

/**
 * The database that HTTP reads of projections go to: a streaming read replica when DB_READ_HOST is set, else the
 * primary. Only projection tables are read there; what is written outside the event log (identity, list cursors) and
 * the principals' newest writes are read on the primary, where they are written.
 */
@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Qualifier
public @interface ReadModel {
}
