package ai.convo.command.token;

import ai.convo.command.web.Absent;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;
import static org.axonframework.modelling.command.AggregateLifecycle.markDeleted;

import ai.convo.command.project.ProjectLookup;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.token.CreateTokenCommand;
import ai.convo.contract.token.DefaultTokens;
import ai.convo.contract.token.DeleteTokenCommand;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenDeletedEvent;
import ai.convo.contract.token.TokenId;
import ai.convo.contract.token.TokenPatch;
import ai.convo.contract.token.TokenRecord;
import ai.convo.contract.token.TokenType;
import ai.convo.contract.token.TokenUpdatedEvent;
import ai.convo.contract.token.UpdateTokenCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * A custom Token (the API's "snippet") of a project. The project must exist and be the caller's; labels are
 * unique per project ignoring case ({@link TokenLabels}) and never equal a default token's label.
 *
 * <p>Default tokens have no history: their ids are derived from the project id ({@link DefaultTokens}). Update
 * and delete therefore also run on an id without history ({@code CREATE_IF_MISSING}) so that they can tell a
 * built-in token (409) from an unknown one (404); both always throw, so nothing is ever created that way.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
public class TokenAggregate {

    @AggregateIdentifier
    private String tokenId;
    private String projectId;
    private String organisationId;
    private TokenRecord token;

    protected TokenAggregate() {
        // for Axon
    }

    @CommandHandler
    public TokenAggregate(CreateTokenCommand command, ProjectLookup projects, TokenLabels labels) {
        String project = command.projectId().value();
        projects.requireVisible(project, command.actor());
        requireLabel(command.label());
        requireType(command.type());
        requireScript(command.script());
        requireLabelFree(project, command.label(), command.tokenId().value(), labels);
        Actor actor = command.actor();
        apply(new TokenCreatedEvent(command.tokenId().value(), project, actor.organisationId(), command.referenceId(),
                command.label(), command.type().code(), command.script(), actor.userId(), command.at()));
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    public TokenRecord handle(UpdateTokenCommand command, ProjectLookup projects, TokenLabels labels) {
        requireExisting(command.projectId(), command.tokenId(), command.actor(), projects);
        TokenPatch patch = command.patch();
        List<String> changed = new ArrayList<>();

        String label = token.label();
        if (patch.label() != null && !patch.label().equals(label)) {
            requireLabel(patch.label());
            requireLabelFree(projectId, patch.label(), tokenId, labels);
            label = patch.label();
            changed.add("label");
        }
        String type = token.type();
        if (patch.type() != null && !patch.type().code().equals(type)) {
            type = patch.type().code();
            changed.add("type");
        }
        String script = token.script();
        if (patch.script() != null && !patch.script().equals(script)) {
            requireScript(patch.script());
            script = patch.script();
            changed.add("script");
        }
        if (changed.isEmpty()) {
            return token;
        }
        apply(new TokenUpdatedEvent(tokenId, projectId, organisationId, changed, label, type, script,
                command.actor().userId(), command.at()));
        return token;
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    public void handle(DeleteTokenCommand command, ProjectLookup projects) {
        requireExisting(command.projectId(), command.tokenId(), command.actor(), projects);
        apply(new TokenDeletedEvent(tokenId, projectId, organisationId, command.actor().userId(), command.at()));
    }

    // ---- guard clauses

    /**
     * The project named in the path must be the caller's and still exist (a deleted project takes its tokens
     * with it), and this token must be one of that project's. Anything else answers exactly like a missing token.
     */
    private void requireExisting(ProjectId pathProject, TokenId id, Actor actor, ProjectLookup projects) {
        projects.requireVisible(pathProject.value(), actor);
        if (tokenId == null) {
            Optional<DefaultTokens.Definition> builtIn = DefaultTokens.byId(pathProject.value(), id.value());
            if (builtIn.isPresent()) {
                throw DomainException.conflict("Token " + id.value() + " ('" + builtIn.get().label() + "') is a default "
                        + "token; default tokens are built in and cannot be changed or deleted.");
            }
            throw notFound(id.value());
        }
        if (!organisationId.equals(actor.organisationId()) || !projectId.equals(pathProject.value())) {
            throw notFound(id.value());
        }
    }

    private static DomainException notFound(String id) {
        return Absent.of(TokenId.class, id);
    }

    private static void requireLabel(String label) {
        if (label == null || label.isBlank() || label.length() > TokenRecord.MAX_LABEL_LENGTH) {
            throw DomainException.invalid("label", "label must be a string of 1 to " + TokenRecord.MAX_LABEL_LENGTH
                    + " characters (not blank).");
        }
    }

    private static void requireType(TokenType type) {
        if (type == null) {
            throw DomainException.invalid("type", "type is required: one of " + String.join(", ", TokenType.codes())
                    + ".");
        }
    }

    private static void requireScript(String script) {
        if (script == null || script.isBlank() || script.length() > TokenRecord.MAX_SCRIPT_LENGTH) {
            throw DomainException.invalid("script", "script must be a string of 1 to " + TokenRecord.MAX_SCRIPT_LENGTH
                    + " characters (not blank).");
        }
    }

    private static void requireLabelFree(String project, String label, String self, TokenLabels labels) {
        Optional<DefaultTokens.Definition> builtIn = DefaultTokens.byLabel(label);
        if (builtIn.isPresent()) {
            throw DomainException.conflict("'" + builtIn.get().label() + "' is the label of a default token; default "
                    + "tokens are built in, so choose another label.", Map.of("label", label));
        }
        Optional<String> holder = labels.holderOf(project, label);
        if (holder.isPresent() && !holder.get().equals(self)) {
            throw DomainException.conflict("This project already has a token labelled '" + label + "' ("
                    + holder.get() + "); token labels are unique per project, ignoring case.", Map.of("label", label));
        }
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(TokenCreatedEvent event) {
        tokenId = event.tokenId();
        projectId = event.projectId();
        organisationId = event.organisationId();
        token = new TokenRecord(event.tokenId(), event.label(), event.type(), event.script(), event.referenceId(),
                event.createdAt(), event.createdAt(), event.createdBy(), event.createdBy());
    }

    @EventSourcingHandler
    void on(TokenUpdatedEvent event) {
        token = new TokenRecord(token.id(), event.label(), event.type(), event.script(), token.referenceId(),
                token.createdAt(), event.changedAt(), token.createdBy(), event.changedBy());
    }

    @EventSourcingHandler
    void on(TokenDeletedEvent event) {
        markDeleted();
    }
}
