package ai.convo.command.token;

import ai.convo.command.project.ProjectLookup;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import java.util.HashMap;
import java.util.Map;

/** The project lookup as the aggregates see it, kept in memory: which projects exist and whose they are. */
public class FakeProjects extends ProjectLookup {

    private final Map<String, String> owners = new HashMap<>();

    public FakeProjects() {
        super(null);
    }

    public FakeProjects with(String projectId, String organisationId) {
        owners.put(projectId, organisationId);
        return this;
    }

    public FakeProjects without(String projectId) {
        owners.remove(projectId);
        return this;
    }

    @Override
    public void requireVisible(String projectId, Actor actor) {
        String owner = owners.get(projectId);
        if (owner == null || !owner.equals(actor.organisationId())) {
            throw DomainException.notFound("Project " + projectId + " does not exist.");
        }
    }
}
