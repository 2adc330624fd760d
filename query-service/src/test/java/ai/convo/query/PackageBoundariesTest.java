package ai.convo.query;

import ai.convo.testing.PackageRules;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The query service's packages (see {@link PackageRules}): no cycle between them, and a feature uses another only
 * through a {@code *Lookup} or one of the shared packages and named entry points below. Every production class is
 * checked (target/classes); a new cross-feature use either goes through one of these or is added here with its reason.
 */
class PackageBoundariesTest {

    private static final String ROOT = "ai.convo.query";

    /** The ground every read stands on. */
    static final Map<String, String> SHARED_PACKAGES = Map.of(
            "web", "the one list engine every read route uses: Reads, ListDefinition, QueryParams, the response cache",
            "readmodel", "where projections are read: the read-model database (a replica or the primary)",
            "consistency", "read-your-writes and projection progress: reads wait for their principal's writes",
            "eventlog", "the event log as a read model: EventFacts names the resource of each event; audit and"
                    + " history are views of it",
            "feedback", "the sentence-overlap engine (computation only) behind the intents' feedback reads");

    /** Types that are not called *Lookup but are used like one by another feature. */
    static final Map<String, String> ENTRY_POINTS = Map.of(
            "settings.SettingsRows", "the settings columns that project and flow rows both carry",
            "state.StateProjection", "its processing group: FlowProcessing sequences states with their flows, by project",
            "audit.AuditRetention", "a rebuild of the audit keeps to its retention",
            "deadletter.ParkedSequences", "a rebuild replays what is parked and clears what it applied",
            "deadletter.ParkingPolicy", "a rebuild parks an event as the live processors would");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = PackageRules.mainClasses(QueryServiceApplication.class);
    }

    @Test
    void givenEveryProductionClass_whenItsPackagesAreDrawn_thenThereIsNoCycle() {
        PackageRules.noCycles(ROOT).check(classes);
    }

    @Test
    void givenEveryProductionClass_whenItUsesAnotherPackage_thenThroughALookupOrTheSharedGround() {
        PackageRules.featuresMeetThroughLookups(ROOT, SHARED_PACKAGES, ENTRY_POINTS).check(classes);
    }
}
