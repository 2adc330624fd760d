package ai.convo.http.access;

import ai.convo.http.security.IdentityStore;
import reactor.core.publisher.Mono;

/**
 * The caller's membership of the project a resource belongs to, by the path variable that names the resource
 * (flowId, localeId, functionId, knowledgeStoreId, snapshotId, taskId), in one statement per request; empty when the
 * resource does not exist or the caller is no member of its project (both are the same 404). Each service answers
 * from its own tables: the command service from its write-side lookups, the query service from its views.
 */
public interface ProjectOf {

    Mono<IdentityStore.Membership> membership(String userId, String variable, String id);
}
