package ai.convo.testing.planted.reach.beta;

/** Planted for PackageRulesTest: beta's inside, which no other feature may use. */
public class BetaAggregate {

    public String decide() {
        return "decided";
    }
}
