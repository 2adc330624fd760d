package ai.convo.testing.planted.reach.alpha;

import ai.convo.testing.planted.reach.beta.BetaLookup;
import ai.convo.testing.planted.reach.ground.Clock;

/** Planted for PackageRulesTest: alpha uses beta only through its lookup (and the shared ground): allowed. */
public class AlphaThroughLookup {

    long at(BetaLookup lookup) {
        BetaLookup.Row row = lookup.find("x");
        return Math.max(row.at(), Clock.now());
    }
}
