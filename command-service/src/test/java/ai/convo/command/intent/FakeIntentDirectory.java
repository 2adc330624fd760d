package ai.convo.command.intent;

import ai.convo.command.flow.FlowLookup;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The write-side lookups as plain maps, for aggregate tests. */
final class FakeIntentDirectory implements IntentDirectory {

    final Map<String, FlowLookup.Flow> flows = new HashMap<>();
    final Map<String, IntentEntry> intents = new HashMap<>();
    final Map<String, String> localeProjects = new HashMap<>();

    FakeIntentDirectory flow(String flowId, String projectId, String organisationId) {
        flows.put(flowId, new FlowLookup.Flow(flowId, projectId, organisationId));
        return this;
    }

    FakeIntentDirectory intent(String intentId, String flowId, String name, String parentIntentId) {
        intents.put(intentId, new IntentEntry(intentId, flowId, name, parentIntentId));
        return this;
    }

    FakeIntentDirectory locale(String localeId, String projectId) {
        localeProjects.put(localeId, projectId);
        return this;
    }

    @Override
    public FlowLookup.Flow requireVisibleFlow(String flowId, Actor actor) {
        FlowLookup.Flow flow = flows.get(flowId);
        if (flow == null || !flow.organisationId().equals(actor.organisationId())) {
            throw DomainException.notFound("Flow " + flowId + " does not exist.");
        }
        return flow;
    }

    @Override
    public Optional<IntentEntry> intent(String intentId) {
        return Optional.ofNullable(intents.get(intentId));
    }

    @Override
    public Optional<IntentEntry> intentNamed(String flowId, String name) {
        return intents.values().stream()
                .filter(i -> i.flowId().equals(flowId)
                        && i.name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT)))
                .findFirst();
    }

    @Override
    public List<String> ancestorsOf(String intentId) {
        List<String> ancestors = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        IntentEntry at = intents.get(intentId);
        while (at != null && at.parentIntentId() != null && seen.add(at.intentId())) {
            ancestors.add(at.parentIntentId());
            at = intents.get(at.parentIntentId());
        }
        return ancestors;
    }

    @Override
    public Optional<String> projectOfLocale(String localeId) {
        return Optional.ofNullable(localeProjects.get(localeId));
    }
}
