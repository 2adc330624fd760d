package ai.convo.testing;

/**
 * The guard of the fast tier ({@code ./mvnw test}): Surefire sets {@code convo.test.tier=fast} (root pom.xml), and then
 * starting PostgreSQL ({@link TestDatabase}) or a Spring application ({@link FastTierRunListener}) throws, so a test
 * that forgot its {@code @Tag("integration")} fails at once instead of slowing the inner loop.
 */
public final class FastTier {

    private FastTier() {
    }

    /** Throws if this JVM runs the fast tier. */
    public static void refuse(String what) {
        if ("fast".equals(System.getProperty("convo.test.tier"))) {
            throw new IllegalStateException("This test starts " + what + ", but ./mvnw test runs only tests that start"
                    + " neither Spring nor PostgreSQL: tag the test class (or its base class) @Tag(\"integration\")"
                    + " so that ./mvnw verify runs it.");
        }
    }
}
