package ai.convo.command.intent;

import ai.convo.command.flow.FlowLookup;
import ai.convo.contract.common.Actor;
import java.util.List;
import java.util.Optional;

/**
 * What the intent aggregate needs to know beyond itself: flows, the other intents of a flow, and locales.
 * Passed to its command handlers as an injected resource, so the set-based rules (unique name per flow,
 * parent in the same flow, no cycle) stay in the write model. {@link IntentLookup} is the implementation;
 * tests give a map-based one.
 */
interface IntentDirectory {

    /** An intent of a flow as the lookup knows it; {@code parentIntentId} null for a root. */
    record IntentEntry(String intentId, String flowId, String name, String parentIntentId) {
    }

    /** The flow, or a 404-kind DomainException when it does not exist or belongs to another organisation. */
    FlowLookup.Flow requireVisibleFlow(String flowId, Actor actor);

    Optional<IntentEntry> intent(String intentId);

    /** The intent of the flow with this name, ignoring case. */
    Optional<IntentEntry> intentNamed(String flowId, String name);

    /** The parent, grandparent, ... of an intent, nearest first (empty for a root or an unknown intent). */
    List<String> ancestorsOf(String intentId);

    /** The project a locale belongs to. */
    Optional<String> projectOfLocale(String localeId);
}
