package ai.convo.contract.identity;

import ai.convo.contract.common.Ids;

/** Id of a Organisation; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record OrganisationId(String value) {
    public OrganisationId {
        Ids.require("organisationId", value);
    }

    public static OrganisationId of(String value) {
        return new OrganisationId(value);
    }

    public static OrganisationId generate() {
        return new OrganisationId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
