package ai.convo.contract.yesno;

import java.util.List;

/** A yes/no intent's rules or isDisabled changed; both carry their new values. */
public record YesNoIntentUpdatedEvent(
        String yesNoIntentId,
        String localeId,
        String projectId,
        String organisationId,
        List<String> rules,
        boolean disabled,
        String changedBy,
        long changedAt) {
}
