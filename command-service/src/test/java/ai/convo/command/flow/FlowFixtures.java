package ai.convo.command.flow;

import ai.convo.command.locale.LocaleLookup;
import ai.convo.command.project.ProjectLookup;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.identity.Role;
import ai.convo.contract.state.StateCreatedEvent;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.hamcrest.BaseMatcher;
import org.hamcrest.Description;
import org.hamcrest.Matcher;

/**
 * Shared history and fakes for the flow aggregate's tests: in-memory stand-ins for the write-side lookups the
 * aggregate's handlers take as injected parameters.
 */
public final class FlowFixtures {

    public static final String FLOW = "f00000000000000000000001";
    public static final String OTHER_FLOW = "f00000000000000000000002";
    public static final String PROJECT = "a00000000000000000000001";
    public static final String ORG = "b00000000000000000000001";
    public static final String OTHER_ORG = "b00000000000000000000002";
    public static final String USER = "c00000000000000000000001";
    public static final String EDITOR = "c00000000000000000000002";
    public static final String FLOW_REF = "7a1c2a4e-0000-4000-8000-000000000001";
    public static final long T0 = 1_700_000_000L;
    public static final long T1 = 1_700_000_100L;

    public static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    public static final Actor SAME_ORG_EDITOR = new Actor(EDITOR, ORG, Role.ORG_ADMIN);
    public static final Actor STRANGER = new Actor(EDITOR, OTHER_ORG, Role.ORG_ADMIN);

    private FlowFixtures() {
    }

    /** Projects the caller may see: everything but what a test hides (missing, foreign or deleted). */
    public static final class FakeProjects extends ProjectLookup {
        public final Set<String> hidden = new HashSet<>();

        public FakeProjects() {
            super(null);
        }

        @Override
        public void requireVisible(String projectId, Actor actor) {
            if (hidden.contains(projectId) || !actor.organisationId().equals(ORG)) {
                throw DomainException.notFound("Project " + projectId + " does not exist.");
            }
        }
    }

    /** Flows still visible: all but those a test hides (e.g. because their project was deleted). */
    public static final class FakeFlows extends FlowLookup {
        public final Set<String> hidden = new HashSet<>();

        public FakeFlows() {
            super(null);
        }

        @Override
        public Flow requireVisible(String flowId, Actor actor) {
            if (hidden.contains(flowId) || !actor.organisationId().equals(ORG)) {
                throw DomainException.notFound("Flow " + flowId + " does not exist.");
            }
            return new Flow(flowId, PROJECT, ORG);
        }
    }

    /** The intents of each flow, as cmd_intent_lookup would hold them. */
    public static final class FakeIntents implements FlowIntents {
        public final Map<String, Set<String>> byFlow = new HashMap<>();

        public FakeIntents with(String flowId, String... intentIds) {
            byFlow.computeIfAbsent(flowId, f -> new HashSet<>()).addAll(List.of(intentIds));
            return this;
        }

        @Override
        public Set<String> ofFlow(String flowId, Collection<String> intentIds) {
            Set<String> known = byFlow.getOrDefault(flowId, Set.of());
            return intentIds.stream().filter(known::contains).collect(Collectors.toSet());
        }
    }

    /** Which project each locale belongs to, as cmd_locale_lookup would hold it. */
    public static final class FakeLocales extends LocaleLookup {
        public final Map<String, String> projects = new HashMap<>();

        public FakeLocales() {
            super(null);
        }

        @Override
        public Optional<String> projectOf(String localeId) {
            return Optional.ofNullable(projects.get(localeId));
        }
    }

    public record Fakes(FakeProjects projects, FakeFlows flows, FakeIntents intents, FakeLocales locales) {
    }

    public static FixtureConfiguration<FlowAggregate> fixture(Fakes fakes) {
        FixtureConfiguration<FlowAggregate> fixture = new AggregateTestFixture<>(FlowAggregate.class);
        fixture.registerInjectableResource(fakes.projects());
        fixture.registerInjectableResource(fakes.flows());
        fixture.registerInjectableResource(fakes.intents());
        fixture.registerInjectableResource(fakes.locales());
        return fixture;
    }

    public static Fakes fakes() {
        return new Fakes(new FakeProjects(), new FakeFlows(), new FakeIntents(), new FakeLocales());
    }

    public static FlowCreatedEvent flowCreated() {
        return new FlowCreatedEvent(FLOW, PROJECT, ORG, FLOW_REF, "Main", "The main flow", USER, T0);
    }

    public static StateCreatedEvent stateCreated(String stateId, String ref, String name, String type, boolean isDefault,
                                                 String... intentIds) {
        return new StateCreatedEvent(FLOW, PROJECT, ORG, stateId, ref, name, type, isDefault, List.of(intentIds), USER, T0);
    }

    /** A DomainException of exactly this kind whose message contains the fragment and, if given, these details. */
    public static Matcher<Object> domainError(DomainException.Kind kind, String messageFragment,
                                              Map<String, Object> details) {
        return new BaseMatcher<>() {
            @Override
            public boolean matches(Object actual) {
                return actual instanceof DomainException e
                        && e.kind() == kind
                        && e.getMessage() != null && e.getMessage().contains(messageFragment)
                        && (details == null || details.equals(e.details()));
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("DomainException of kind " + kind + " with a message containing '"
                        + messageFragment + "'" + (details == null ? "" : " and details " + details));
            }

            @Override
            public void describeMismatch(Object actual, Description description) {
                if (actual instanceof DomainException e) {
                    description.appendText("was kind " + e.kind() + ", message '" + e.getMessage() + "', details "
                            + e.details());
                } else {
                    description.appendText("was " + actual);
                }
            }
        };
    }

    public static Matcher<Object> domainError(DomainException.Kind kind, String messageFragment) {
        return domainError(kind, messageFragment, null);
    }
}
