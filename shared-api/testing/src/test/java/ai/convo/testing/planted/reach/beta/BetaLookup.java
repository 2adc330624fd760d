package ai.convo.testing.planted.reach.beta;

import ai.convo.testing.planted.reach.ground.Clock;

/** Planted for PackageRulesTest: what beta answers other features. */
public class BetaLookup {

    public record Row(String id, long at) {
    }

    public Row find(String id) {
        return new Row(id, Clock.now());
    }
}
