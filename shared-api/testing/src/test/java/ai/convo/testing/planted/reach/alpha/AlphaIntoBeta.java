package ai.convo.testing.planted.reach.alpha;

import ai.convo.testing.planted.reach.beta.BetaAggregate;

/** Planted for PackageRulesTest: alpha reaches into beta's aggregate, the one forbidden dependency here. */
public class AlphaIntoBeta {

    String reach() {
        return new BetaAggregate().decide();
    }
}
