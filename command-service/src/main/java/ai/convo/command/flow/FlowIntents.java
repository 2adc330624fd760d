package ai.convo.command.flow;

import java.util.Collection;
import java.util.Set;

/**
 * Which intents exist in which flow, as the intents feature's write-side lookup ({@code cmd_intent_lookup}) has
 * them. Injected into the flow aggregate's state command handlers, so "a state only names intents of its own
 * flow" is decided by the write model, in the command's transaction.
 */
interface FlowIntents {

    /** Those of {@code intentIds} that are intents of the flow; an unknown id or one of another flow is left out. */
    Set<String> ofFlow(String flowId, Collection<String> intentIds);
}
