package ai.convo.contract.intent;

import java.util.List;
import java.util.Map;

/**
 * An intent after a change: its full new state, which API fields changed ({@code changedFields}, e.g.
 * "name", "parentIntentId"), and who changed it when. Also emitted for each child of a deleted intent,
 * which becomes a root ({@code changedFields} = ["parentIntentId"], {@code parentIntentId} null).
 */
public record IntentUpdatedEvent(
        String intentId,
        String flowId,
        String projectId,
        String organisationId,
        List<String> changedFields,
        String name,
        String description,
        List<String> tags,
        boolean rejectIntent,
        boolean disabled,
        String parentIntentId,
        String condition,
        List<String> confirmationSentences,
        String disambiguationSentence,
        List<String> rules,
        Map<String, Object> data,
        ChildFeatures childFeatures,
        String biasTowardsParentOrChildIntents,
        String changedBy,
        long changedAt) {
}
