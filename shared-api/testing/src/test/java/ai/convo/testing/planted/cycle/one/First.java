package ai.convo.testing.planted.cycle.one;

import ai.convo.testing.planted.cycle.two.Second;

/** Planted for PackageRulesTest: one → two → one, a package cycle. */
public class First {

    Second next() {
        return new Second();
    }
}
