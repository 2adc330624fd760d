package ai.convo.testing.planted.reach.ground;

/** Planted for PackageRulesTest: a shared package every feature may use. */
public final class Clock {

    private Clock() {
    }

    public static long now() {
        return 1;
    }
}
