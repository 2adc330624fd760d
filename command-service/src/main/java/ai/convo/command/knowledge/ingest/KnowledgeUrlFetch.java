package ai.convo.command.knowledge.ingest;

import ai.convo.http.outbound.GuardedFetch;

/** The fetch url sources use (its own bean, so another feature's outbound client never gets its limits). */
record KnowledgeUrlFetch(GuardedFetch fetch) {
}
