package ai.convo.testing.planted.cycle.two;

import ai.convo.testing.planted.cycle.one.First;

/** Planted for PackageRulesTest: the way back from two to one. */
public class Second {

    First back() {
        return new First();
    }
}
