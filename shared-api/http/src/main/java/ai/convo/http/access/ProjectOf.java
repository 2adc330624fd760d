package ai.convo.http.access;

import reactor.core.publisher.Mono;

/**
 * The project a resource belongs to, by the path variable that names it (flowId, localeId, functionId,
 * knowledgeStoreId, snapshotId, taskId); empty when there is no such resource. Each service answers from its own
 * tables: the command service from its write-side lookups (current state), the query service from its views.
 */
public interface ProjectOf {

    Mono<String> projectOf(String variable, String id);
}
