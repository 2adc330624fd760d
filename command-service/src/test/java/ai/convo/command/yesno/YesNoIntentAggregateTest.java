package ai.convo.command.yesno;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.Role;
import ai.convo.contract.yesno.CreateYesNoSentenceCommand;
import ai.convo.contract.yesno.DeleteYesNoIntentCommand;
import ai.convo.contract.yesno.UpdateYesNoIntentCommand;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoIntentResetEvent;
import ai.convo.contract.yesno.YesNoIntentSeededEvent;
import ai.convo.contract.yesno.YesNoIntentUpdatedEvent;
import ai.convo.contract.yesno.YesNoKind;
import ai.convo.contract.yesno.YesNoSeeds;
import ai.convo.contract.yesno.YesNoSentenceCreatedEvent;
import ai.convo.contract.yesno.YesNoTarget;
import java.util.List;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The write model of a yes/no intent, in given (past events) / when (command) / then (events or error). */
class YesNoIntentAggregateTest {

    static final String LOCALE = "a00000000000000000000001";
    static final String PROJECT = "d00000000000000000000001";
    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String USER = "c00000000000000000000001";
    static final YesNoIntentId YES = YesNoIntentId.of(LOCALE, YesNoKind.YES);
    static final YesNoTarget TARGET = new YesNoTarget(LOCALE, PROJECT, "en-US", YesNoKind.YES);
    static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    static final Actor STRANGER = new Actor(USER, OTHER_ORG, Role.ORG_ADMIN);
    static final long T0 = 1_700_000_000L;

    FixtureConfiguration<YesNoIntentAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(YesNoIntentAggregate.class);
    }

    private static YesNoIntentSeededEvent seeded() {
        return new YesNoIntentSeededEvent(YES.value(), LOCALE, PROJECT, ORG, "yes", "en-US",
                YesNoSeeds.sentences(YES, YesNoKind.YES, "en-US"), USER, T0);
    }

    @Test
    void givenNothing_whenASentenceIsAdded_thenTheIntentIsSeededWithTheBuiltInsFirst() {
        fixture.givenNoPriorActivity()
                .when(new CreateYesNoSentenceCommand(YES, TARGET, OWNER, "e00000000000000000000001", "yup", T0))
                .expectEvents(seeded(), new YesNoSentenceCreatedEvent(YES.value(), "e00000000000000000000001",
                        LOCALE, PROJECT, ORG, "yup", USER, T0));
    }

    @Test
    void givenASeededIntent_whenPatchedWithItsOwnValues_thenNothingIsStored() {
        fixture.given(seeded())
                .when(new UpdateYesNoIntentCommand(YES, TARGET, OWNER, List.of(), false, T0 + 1))
                .expectNoEvents();
    }

    @Test
    void givenADisabledIntent_whenDeleted_thenItIsResetToTheBuiltIns() {
        fixture.given(seeded(), new YesNoIntentUpdatedEvent(YES.value(), LOCALE, PROJECT, ORG, List.of("r"), true,
                        USER, T0 + 1))
                .when(new DeleteYesNoIntentCommand(YES, TARGET, OWNER, T0 + 2))
                .expectEvents(new YesNoIntentResetEvent(YES.value(), LOCALE, PROJECT, ORG, "en-US",
                        YesNoSeeds.sentences(YES, YesNoKind.YES, "en-US"), USER, T0 + 2));
    }

    @Test
    void givenAnotherOrganisationsIntent_whenPatched_thenNotFoundAndNothingStored() {
        fixture.given(seeded())
                .when(new UpdateYesNoIntentCommand(YES, TARGET, STRANGER, List.of("r"), null, T0 + 1))
                .expectException(DomainException.class)
                .expectNoEvents();
    }
}
