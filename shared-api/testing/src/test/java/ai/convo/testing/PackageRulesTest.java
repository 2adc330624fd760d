package ai.convo.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link PackageRules} can fail: each is run on small packages planted under src/test (imported on their
 * own), one with a cycle and one with a forbidden reach, and must report exactly what was planted.
 */
class PackageRulesTest {

    private static final String PLANTED = "ai.convo.testing.planted";
    private static final Map<String, String> GROUND = Map.of("ground", "the shared clock");

    @Test
    void givenTwoPackagesThatUseEachOther_whenCheckedForCycles_thenTheCycleIsReported() {
        JavaClasses planted = new ClassFileImporter().importPackages(PLANTED + ".cycle");

        EvaluationResult result = PackageRules.noCycles(PLANTED + ".cycle").evaluate(planted);

        assertThat(result.hasViolation()).isTrue();
        String report = result.getFailureReport().toString();
        assertThat(report).contains("Cycle detected").contains("one").contains("two")
                .contains("First").contains("Second");
    }

    @Test
    void givenPackagesWithoutACycle_whenCheckedForCycles_thenNothingIsReported() {
        JavaClasses planted = new ClassFileImporter().importPackages(PLANTED + ".reach");

        EvaluationResult result = PackageRules.noCycles(PLANTED + ".reach").evaluate(planted);

        assertThat(result.hasViolation()).isFalse();
    }

    @Test
    void givenAFeatureThatUsesAnotherFeaturesAggregate_whenChecked_thenThatOneDependencyIsReported() {
        JavaClasses planted = new ClassFileImporter().importPackages(PLANTED + ".reach");

        EvaluationResult result = PackageRules.featuresMeetThroughLookups(PLANTED + ".reach", GROUND, Map.of())
                .evaluate(planted);

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .isNotEmpty()
                .allSatisfy(line -> assertThat(line).contains("package alpha reaches into package beta")
                        .contains("AlphaIntoBeta").contains("BetaAggregate"));
    }

    @Test
    void givenTheReachedTypeIsANamedEntryPoint_whenChecked_thenNothingIsReported() {
        JavaClasses planted = new ClassFileImporter().importPackages(PLANTED + ".reach");

        EvaluationResult result = PackageRules.featuresMeetThroughLookups(PLANTED + ".reach", GROUND,
                Map.of("beta.BetaAggregate", "planted: allowed by name")).evaluate(planted);

        assertThat(result.hasViolation()).isFalse();
    }

    @Test
    void givenTheGroundIsNotShared_whenChecked_thenItsUseIsReportedToo() {
        JavaClasses planted = new ClassFileImporter().importPackages(PLANTED + ".reach");

        EvaluationResult result = PackageRules.featuresMeetThroughLookups(PLANTED + ".reach", Map.of(),
                Map.of("beta.BetaAggregate", "planted: allowed by name")).evaluate(planted);

        assertThat(result.getFailureReport().getDetails())
                .isNotEmpty()
                .allSatisfy(line -> assertThat(line).contains("into package ground").contains("Clock"));
    }
}
