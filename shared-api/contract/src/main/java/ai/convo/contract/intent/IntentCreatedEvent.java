package ai.convo.contract.intent;

import java.util.List;
import java.util.Map;

/**
 * An intent was created in a flow. Carries its project and organisation so read models need no other
 * projection. {@code parentIntentId} null: a root intent. {@code biasTowardsParentOrChildIntents} is the wire
 * code ("parents", "children") or null.
 */
public record IntentCreatedEvent(
        String intentId,
        String flowId,
        String projectId,
        String organisationId,
        String referenceId,
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
        String createdBy,
        long createdAt) {
}
