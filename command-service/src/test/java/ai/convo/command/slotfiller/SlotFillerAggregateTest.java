package ai.convo.command.slotfiller;

import static ai.convo.command.token.DomainErrors.domainError;
import static ai.convo.command.token.DomainErrors.invalidField;

import ai.convo.command.flow.FlowLookup;
import ai.convo.command.web.Absent;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.identity.Role;
import ai.convo.contract.slotfiller.CreateSlotFillerCommand;
import ai.convo.contract.slotfiller.DeleteSlotFillerCommand;
import ai.convo.contract.slotfiller.SlotFillerCreatedEvent;
import ai.convo.contract.slotfiller.SlotFillerDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerId;
import ai.convo.contract.slotfiller.SlotFillerPatch;
import ai.convo.contract.slotfiller.SlotFillerSettings;
import ai.convo.contract.slotfiller.SlotFillerUpdatedEvent;
import ai.convo.contract.slotfiller.UpdateSlotFillerCommand;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The write model of a slot filler, in given (past events) / when (command) / then (events or error). */
class SlotFillerAggregateTest {

    static final String FLOW = "a00000000000000000000001";
    static final String OTHER_FLOW = "a00000000000000000000002";
    static final String PROJECT = "d00000000000000000000001";
    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String USER = "c00000000000000000000001";
    static final String FILLER = "f00000000000000000000001";
    static final String REF = "6f1c2a4e-0000-4000-8000-000000000001";
    static final long T0 = 1_700_000_000L;
    static final long T1 = 1_700_000_100L;
    static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    static final Actor STRANGER = new Actor(USER, OTHER_ORG, Role.ORG_ADMIN);

    /** The flows that exist, as the write-side lookup would answer. */
    static final class FakeFlows extends FlowLookup {
        final Map<String, Flow> flows = new HashMap<>();

        FakeFlows() {
            super(null);
        }

        @Override
        public Flow requireVisible(String flowId, Actor actor) {
            Flow flow = flows.get(flowId);
            if (flow == null || !flow.organisationId().equals(actor.organisationId())) {
                throw Absent.of(FlowId.class, flowId);
            }
            return flow;
        }
    }

    private FixtureConfiguration<SlotFillerAggregate> fixture;
    private FakeFlows flows;

    @BeforeEach
    void setUp() {
        flows = new FakeFlows();
        flows.flows.put(FLOW, new FlowLookup.Flow(FLOW, PROJECT, ORG));
        flows.flows.put(OTHER_FLOW, new FlowLookup.Flow(OTHER_FLOW, PROJECT, ORG));
        fixture = new AggregateTestFixture<>(SlotFillerAggregate.class);
        fixture.registerInjectableResource(flows);
    }

    static SlotFillerSettings settings(String type, String regex, String slot) {
        return new SlotFillerSettings("Zip", type, regex, slot, false, false, true, "zip", false, "", false, false,
                "", "");
    }

    static SlotFillerCreatedEvent created(String type, String regex, String slot) {
        return new SlotFillerCreatedEvent(FILLER, FLOW, PROJECT, ORG, REF, "Zip", type, regex, slot, false, false,
                true, "zip", false, "", false, false, "", "", USER, T0);
    }

    static SlotFillerPatch patch(String type, String regex, String slot) {
        return new SlotFillerPatch(null, type, regex, slot, null, null, null, null, null, null, null, null, null, null);
    }

    @Test
    void givenAFlow_whenARegexSlotFillerIsCreated_thenCreatedWithTheFlowsProjectAndAuthor() {
        fixture.givenNoPriorActivity()
                .when(new CreateSlotFillerCommand(SlotFillerId.of(FILLER), FlowId.of(FLOW), OWNER, REF,
                        settings("regex", "^[0-9]{5}$", null), T0))
                .expectEvents(created("regex", "^[0-9]{5}$", null));
    }

    @Test
    void givenAnInvalidPattern_whenCreated_thenRefusedNamingRegex() {
        fixture.givenNoPriorActivity()
                .when(new CreateSlotFillerCommand(SlotFillerId.of(FILLER), FlowId.of(FLOW), OWNER, REF,
                        settings("regex", "([0-9]", null), T0))
                .expectNoEvents().expectException(invalidField("regex"));
    }

    @Test
    void givenTypeSlotWithoutASlot_whenCreated_thenRefusedNamingSlot() {
        fixture.givenNoPriorActivity()
                .when(new CreateSlotFillerCommand(SlotFillerId.of(FILLER), FlowId.of(FLOW), OWNER, REF,
                        settings("slot", null, null), T0))
                .expectNoEvents().expectException(invalidField("slot"));
    }

    @Test
    void givenAnotherOrganisationsFlow_whenCreated_thenTheFlowIsMissing() {
        fixture.givenNoPriorActivity()
                .when(new CreateSlotFillerCommand(SlotFillerId.of(FILLER), FlowId.of(FLOW), STRANGER, REF,
                        settings("number", null, null), T0))
                .expectNoEvents().expectException(domainError(DomainException.Kind.NOT_FOUND, "Flow " + FLOW));
    }

    @Test
    void givenARegexFiller_whenItsTypeBecomesNumber_thenThePatternIsDroppedAndBothFieldsNamedChanged() {
        fixture.given(created("regex", "^a$", null))
                .when(new UpdateSlotFillerCommand(SlotFillerId.of(FILLER), FlowId.of(FLOW), OWNER,
                        patch("number", null, null), T1))
                .expectEvents(new SlotFillerUpdatedEvent(FILLER, FLOW, PROJECT, ORG, List.of("type", "regex"), "Zip",
                        "number", null, null, false, false, true, "zip", false, "", false, false, "", "", USER, T1));
    }

    @Test
    void givenANumberFiller_whenItsTypeBecomesRegexWithoutAPattern_thenRefusedNamingRegex() {
        fixture.given(created("number", null, null))
                .when(new UpdateSlotFillerCommand(SlotFillerId.of(FILLER), FlowId.of(FLOW), OWNER,
                        patch("regex", null, null), T1))
                .expectNoEvents().expectException(invalidField("regex"));
    }

    @Test
    void givenANumberFiller_whenASlotIsPatchedIn_thenRefusedNamingSlot() {
        fixture.given(created("number", null, null))
                .when(new UpdateSlotFillerCommand(SlotFillerId.of(FILLER), FlowId.of(FLOW), OWNER,
                        patch(null, null, "city"), T1))
                .expectNoEvents().expectException(invalidField("slot"));
    }

    @Test
    void givenAFiller_whenTheSameValuesArePatched_thenNoEvent() {
        fixture.given(created("number", null, null))
                .when(new UpdateSlotFillerCommand(SlotFillerId.of(FILLER), FlowId.of(FLOW), OWNER,
                        patch("number", null, null), T1))
                .expectNoEvents().expectSuccessfulHandlerExecution();
    }

    @Test
    void givenAFiller_whenAddressedUnderAnotherFlowOrByAStranger_thenItIsMissing() {
        fixture.given(created("number", null, null))
                .when(new DeleteSlotFillerCommand(SlotFillerId.of(FILLER), FlowId.of(OTHER_FLOW), OWNER, T1))
                .expectNoEvents().expectException(domainError(DomainException.Kind.NOT_FOUND, "Slot filler " + FILLER));
        fixture.given(created("number", null, null))
                .when(new DeleteSlotFillerCommand(SlotFillerId.of(FILLER), FlowId.of(FLOW), STRANGER, T1))
                .expectNoEvents().expectException(domainError(DomainException.Kind.NOT_FOUND, "Slot filler " + FILLER));
    }

    @Test
    void givenAFillerWhoseFlowWasDeleted_whenDeleted_thenItIsMissing() {
        flows.flows.remove(FLOW);
        fixture.given(created("number", null, null))
                .when(new DeleteSlotFillerCommand(SlotFillerId.of(FILLER), FlowId.of(FLOW), OWNER, T1))
                .expectNoEvents().expectException(domainError(DomainException.Kind.NOT_FOUND, "Slot filler " + FILLER));
    }

    @Test
    void givenAFiller_whenDeleted_thenDeletedWithTheAuthor() {
        fixture.given(created("number", null, null))
                .when(new DeleteSlotFillerCommand(SlotFillerId.of(FILLER), FlowId.of(FLOW), OWNER, T1))
                .expectEvents(new SlotFillerDeletedEvent(FILLER, FLOW, PROJECT, ORG, USER, T1));
    }
}
