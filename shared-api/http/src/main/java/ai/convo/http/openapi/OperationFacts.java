package ai.convo.http.openapi;

import java.util.Map;
import org.springframework.web.method.HandlerMethod;

/**
 * What a service knows about one of its operations beyond the route table (a list's parameters and envelope, say):
 * a bean of this type is asked for every operation while the document is built, and adds to it.
 */
public interface OperationFacts {

    /**
     * Adds to {@code operation} (an OpenAPI Operation object as maps and lists); {@code components} holds the
     * document's shared schemas, to which it may add.
     */
    void describe(HandlerMethod handler, String method, String pattern, Map<String, Object> operation,
                  Map<String, Object> components);
}
