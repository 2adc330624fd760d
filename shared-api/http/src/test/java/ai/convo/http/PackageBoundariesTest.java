package ai.convo.http;

import ai.convo.testing.PackageRules;
import org.junit.jupiter.api.Test;

/**
 * No cycle between this module's packages (see {@link PackageRules}), over every production class (target/classes).
 * Its packages are not features but layers of one web stack (web, problem, media, body, param, list, audit,
 * security), so only the cycle rule applies: the services check the rule of lookups between their features.
 */
class PackageBoundariesTest {

    @Test
    void givenEveryProductionClass_whenItsPackagesAreDrawn_thenThereIsNoCycle() {
        PackageRules.noCycles("ai.convo.http").check(PackageRules.mainClasses(HttpConfiguration.class));
    }
}
