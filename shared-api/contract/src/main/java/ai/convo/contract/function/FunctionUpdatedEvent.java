package ai.convo.contract.function;

import java.util.List;
import org.axonframework.serialization.Revision;

/**
 * A Function after a PATCH: its full new state, which fields the PATCH changed, and who changed it when.
 * {@code changedFields} names the API's fields, so each names a field of this payload too.
 *
 * <p>Revision 2: {@code isDisabled}, the API's name for it (revision 1, stored without a revision, called it
 * {@code disabled} while its {@code changedFields} already said "isDisabled"). Stored revision-1 events are read
 * in this shape through {@code ai.convo.persistence.upcasting.FunctionUpdatedEventRevision2}.
 */
@Revision("2")
public record FunctionUpdatedEvent(
        String functionId,
        String projectId,
        String organisationId,
        List<String> changedFields,
        String name,
        String code,
        boolean isDisabled,
        String changedBy,
        long changedAt) {
}
