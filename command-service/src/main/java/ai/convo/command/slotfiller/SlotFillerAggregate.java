package ai.convo.command.slotfiller;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;
import static org.axonframework.modelling.command.AggregateLifecycle.markDeleted;

import ai.convo.command.flow.FlowLookup;
import ai.convo.command.web.Absent;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.slotfiller.CreateSlotFillerCommand;
import ai.convo.contract.slotfiller.DeleteSlotFillerCommand;
import ai.convo.contract.slotfiller.SlotFillerCreatedEvent;
import ai.convo.contract.slotfiller.SlotFillerDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerId;
import ai.convo.contract.slotfiller.SlotFillerPatch;
import ai.convo.contract.slotfiller.SlotFillerRecord;
import ai.convo.contract.slotfiller.SlotFillerRules;
import ai.convo.contract.slotfiller.SlotFillerSettings;
import ai.convo.contract.slotfiller.SlotFillerUpdatedEvent;
import ai.convo.contract.slotfiller.UpdateSlotFillerCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * A slot filler of a flow. Its flow must exist and be the caller's, on creation and on every later change (a
 * deleted flow takes its slot fillers with it); one of another flow or organisation answers as a missing one.
 * The type rules (a valid pattern for regex, a slot for slot, neither elsewhere) hold for the state after the change.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
public class SlotFillerAggregate {

    @AggregateIdentifier
    private String slotFillerId;
    private String flowId;
    private String projectId;
    private String organisationId;
    private SlotFillerRecord current;

    protected SlotFillerAggregate() {
        // for Axon
    }

    @CommandHandler
    public SlotFillerAggregate(CreateSlotFillerCommand command, FlowLookup flows) {
        Actor actor = command.actor();
        FlowLookup.Flow flow = flows.requireVisible(command.flowId().value(), actor);
        SlotFillerSettings s = command.settings();
        requireValid(s);
        apply(new SlotFillerCreatedEvent(command.slotFillerId().value(), flow.flowId(), flow.projectId(),
                flow.organisationId(), command.referenceId(), s.name(), s.type(), s.regex(), s.slot(),
                s.usePositiveOnly(), s.removeNegated(), s.storeResultInContext(), s.contextKey(),
                s.storeInContactProfile(), s.profileKey(), s.storeDetailedResults(), s.skipIfResultInContext(),
                s.additionalValidation(), s.resultLocation(), actor.userId(), command.at()));
    }

    @CommandHandler
    public SlotFillerRecord handle(UpdateSlotFillerCommand command, FlowLookup flows) {
        requireVisible(command.flowId().value(), command.actor(), flows);
        SlotFillerSettings was = current.settings();
        SlotFillerSettings now = merged(was, command.patch());
        requireValid(now);
        List<String> changed = changed(was, now);
        if (changed.isEmpty()) {
            return current;
        }
        apply(new SlotFillerUpdatedEvent(slotFillerId, flowId, projectId, organisationId, changed, now.name(),
                now.type(), now.regex(), now.slot(), now.usePositiveOnly(), now.removeNegated(),
                now.storeResultInContext(), now.contextKey(), now.storeInContactProfile(), now.profileKey(),
                now.storeDetailedResults(), now.skipIfResultInContext(), now.additionalValidation(),
                now.resultLocation(), command.actor().userId(), command.at()));
        return current;
    }

    @CommandHandler
    public void handle(DeleteSlotFillerCommand command, FlowLookup flows) {
        requireVisible(command.flowId().value(), command.actor(), flows);
        apply(new SlotFillerDeletedEvent(slotFillerId, flowId, projectId, organisationId, command.actor().userId(),
                command.at()));
    }

    /**
     * The settings after a patch. A pattern or slot the patch does not give is kept only while the type still
     * takes one: changing a regex filler to number drops its pattern, and changing it back asks for one again.
     */
    static SlotFillerSettings merged(SlotFillerSettings was, SlotFillerPatch p) {
        String type = p.type() != null ? p.type() : was.type();
        String regex = p.regex() != null ? p.regex() : SlotFillerRules.REGEX.equals(type) ? was.regex() : null;
        String slot = p.slot() != null ? p.slot() : SlotFillerRules.SLOT.equals(type) ? was.slot() : null;
        return new SlotFillerSettings(
                p.name() != null ? p.name() : was.name(), type, regex, slot,
                p.usePositiveOnly() != null ? p.usePositiveOnly() : was.usePositiveOnly(),
                p.removeNegated() != null ? p.removeNegated() : was.removeNegated(),
                p.storeResultInContext() != null ? p.storeResultInContext() : was.storeResultInContext(),
                p.contextKey() != null ? p.contextKey() : was.contextKey(),
                p.storeInContactProfile() != null ? p.storeInContactProfile() : was.storeInContactProfile(),
                p.profileKey() != null ? p.profileKey() : was.profileKey(),
                p.storeDetailedResults() != null ? p.storeDetailedResults() : was.storeDetailedResults(),
                p.skipIfResultInContext() != null ? p.skipIfResultInContext() : was.skipIfResultInContext(),
                p.additionalValidation() != null ? p.additionalValidation() : was.additionalValidation(),
                p.resultLocation() != null ? p.resultLocation() : was.resultLocation());
    }

    /** The API names of the fields that differ. */
    static List<String> changed(SlotFillerSettings a, SlotFillerSettings b) {
        Map<String, Boolean> differs = new LinkedHashMap<>();
        differs.put("name", !Objects.equals(a.name(), b.name()));
        differs.put("type", !Objects.equals(a.type(), b.type()));
        differs.put("regex", !Objects.equals(a.regex(), b.regex()));
        differs.put("slot", !Objects.equals(a.slot(), b.slot()));
        differs.put("usePositiveOnly", a.usePositiveOnly() != b.usePositiveOnly());
        differs.put("removeNegated", a.removeNegated() != b.removeNegated());
        differs.put("storeResultInContext", a.storeResultInContext() != b.storeResultInContext());
        differs.put("contextKey", !Objects.equals(a.contextKey(), b.contextKey()));
        differs.put("storeInContactProfile", a.storeInContactProfile() != b.storeInContactProfile());
        differs.put("profileKey", !Objects.equals(a.profileKey(), b.profileKey()));
        differs.put("storeDetailedResults", a.storeDetailedResults() != b.storeDetailedResults());
        differs.put("skipIfResultInContext", a.skipIfResultInContext() != b.skipIfResultInContext());
        differs.put("additionalValidation", !Objects.equals(a.additionalValidation(), b.additionalValidation()));
        differs.put("resultLocation", !Objects.equals(a.resultLocation(), b.resultLocation()));
        List<String> changed = new ArrayList<>();
        differs.forEach((field, yes) -> {
            if (yes) {
                changed.add(field);
            }
        });
        return changed;
    }

    // ---- guard clauses

    private static void requireValid(SlotFillerSettings settings) {
        Map<String, String> problems = SlotFillerRules.problems(settings);
        if (!problems.isEmpty()) {
            StringBuilder detail = new StringBuilder("The slot filler is invalid: ");
            problems.forEach((field, problem) -> detail.append(field).append(' ').append(problem).append("; "));
            detail.setLength(detail.length() - 2);
            throw new DomainException(DomainException.Kind.INVALID, detail.append('.').toString(),
                    new LinkedHashMap<>(problems));
        }
    }

    /** Another organisation's slot filler, another flow's, or one whose flow is gone answers as a missing one. */
    private void requireVisible(String inFlow, Actor actor, FlowLookup flows) {
        if (!organisationId.equals(actor.organisationId()) || !flowId.equals(inFlow)) {
            throw Absent.of(SlotFillerId.class, slotFillerId);
        }
        try {
            flows.requireVisible(flowId, actor);
        } catch (DomainException flowGone) {
            throw Absent.of(SlotFillerId.class, slotFillerId);
        }
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(SlotFillerCreatedEvent e) {
        slotFillerId = e.slotFillerId();
        flowId = e.flowId();
        projectId = e.projectId();
        organisationId = e.organisationId();
        current = new SlotFillerRecord(e.slotFillerId(), e.referenceId(), new SlotFillerSettings(e.name(), e.type(),
                e.regex(), e.slot(), e.usePositiveOnly(), e.removeNegated(), e.storeResultInContext(), e.contextKey(),
                e.storeInContactProfile(), e.profileKey(), e.storeDetailedResults(), e.skipIfResultInContext(),
                e.additionalValidation(), e.resultLocation()), e.createdAt(), e.createdAt(), e.createdBy(),
                e.createdBy());
    }

    @EventSourcingHandler
    void on(SlotFillerUpdatedEvent e) {
        current = new SlotFillerRecord(slotFillerId, current.referenceId(), new SlotFillerSettings(e.name(), e.type(),
                e.regex(), e.slot(), e.usePositiveOnly(), e.removeNegated(), e.storeResultInContext(), e.contextKey(),
                e.storeInContactProfile(), e.profileKey(), e.storeDetailedResults(), e.skipIfResultInContext(),
                e.additionalValidation(), e.resultLocation()), current.createdAt(), e.changedAt(), current.createdBy(),
                e.changedBy());
    }

    @EventSourcingHandler
    void on(SlotFillerDeletedEvent e) {
        markDeleted();
    }
}
