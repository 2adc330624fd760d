package ai.convo.command;

import ai.convo.testing.PackageRules;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The command service's packages (see {@link PackageRules}): no cycle between them, and a feature uses another only
 * through a {@code *Lookup} or one of the few shared packages and named entry points below. Every production class is
 * checked (target/classes); a new cross-feature use either goes through a lookup or is added here with its reason.
 */
class PackageBoundariesTest {

    private static final String ROOT = "ai.convo.command";

    /** The ground every feature stands on. */
    static final Map<String, String> SHARED_PACKAGES = Map.of(
            "web", "the command side's plumbing: Commands (sending), Clock, Absent (404s), processing groups",
            "task", "the task runner: a feature's long work implements TaskWork and is started through TaskRequests");

    /** Types that are not called *Lookup but are read like one by other features. */
    static final Map<String, String> ENTRY_POINTS = Map.of(
            "snapshot.ProjectCapture", "a project (or one flow) as it stands in the event log at one consistent"
                    + " point: read, never written, by flow copies and intent export/import");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = PackageRules.mainClasses(CommandServiceApplication.class);
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
