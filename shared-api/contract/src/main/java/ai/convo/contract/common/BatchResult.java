package ai.convo.contract.common;

import java.util.List;

/** What a batch of operations did, in the order of its operations: the ids created, updated and deleted. */
public record BatchResult(List<String> created, List<String> updated, List<String> deleted) {
}
