package ai.convo.command.project;

import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.project.ProjectId;
import ai.convo.command.web.Absent;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;
import static org.axonframework.modelling.command.AggregateLifecycle.markDeleted;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.locale.CreateLocaleCommand;
import ai.convo.contract.locale.DeleteLocaleCommand;
import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocalePatch;
import ai.convo.contract.locale.LocaleRecord;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.locale.PrimaryLocaleChangedEvent;
import ai.convo.contract.locale.UpdateLocaleCommand;
import ai.convo.contract.project.CreateProjectCommand;
import ai.convo.contract.project.DeleteProjectCommand;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.project.ProjectPatch;
import ai.convo.contract.project.ProjectRecord;
import ai.convo.contract.project.ProjectSettingsUpdatedEvent;
import ai.convo.contract.project.ProjectUpdatedEvent;
import ai.convo.contract.project.UpdateProjectCommand;
import ai.convo.contract.project.UpdateProjectSettingsCommand;
import ai.convo.contract.settings.Settings;
import ai.convo.contract.settings.SettingsRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * A project and its locales. Locales live here so that "exactly one primary", "unique names" and
 * "fallbacks never form a cycle" are decided in one consistent place.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
public class ProjectAggregate {

    @AggregateIdentifier
    private String projectId;
    private String organisationId;
    private String primaryLocaleId;
    private String name;
    private String color;
    private long createdAt;
    private String createdBy;
    private long lastChanged;
    private String lastChangedBy;
    /** Settings a client set (dotted path to value); the rest are Settings.PROJECT's defaults. */
    private final Map<String, Object> settings = new LinkedHashMap<>();
    private long settingsChanged;
    private String settingsChangedBy;
    private final Map<String, LocaleRecord> locales = new LinkedHashMap<>();

    protected ProjectAggregate() {
        // for Axon
    }

    @CommandHandler
    public ProjectAggregate(CreateProjectCommand command) {
        Actor actor = command.actor();
        apply(new ProjectCreatedEvent(command.projectId().value(), actor.organisationId(), command.name(),
                command.color(), actor.userId(), command.at()));
        apply(new LocaleCreatedEvent(command.projectId().value(), actor.organisationId(),
                command.primaryLocaleId().value(), command.primaryLocaleReferenceId(), command.nluLanguage().code(),
                command.nluLanguage().code(), true, null, actor.userId(), command.at()));
    }

    /** Answers the project as it is afterwards; a PATCH that changes nothing stores nothing. */
    @CommandHandler
    public ProjectRecord handle(UpdateProjectCommand command) {
        visibleTo(command.actor());
        ProjectPatch patch = command.patch();
        List<String> changed = new ArrayList<>();
        String newName = name;
        if (patch.name() != null && !patch.name().equals(name)) {
            newName = patch.name();
            changed.add("name");
        }
        String newColor = color;
        if (patch.color() != null && !patch.color().equals(color)) {
            newColor = patch.color();
            changed.add("color");
        }
        if (!changed.isEmpty()) {
            apply(new ProjectUpdatedEvent(projectId, organisationId, changed, newName, newColor,
                    command.actor().userId(), command.at()));
        }
        return new ProjectRecord(projectId, name, color, primaryLocaleId, createdAt, lastChanged, createdBy,
                lastChangedBy);
    }

    /** Answers the settings as they are afterwards; values equal to the current ones are no change. */
    @CommandHandler
    public SettingsRecord handle(UpdateProjectSettingsCommand command) {
        visibleTo(command.actor());
        Map<String, Object> after = new LinkedHashMap<>(settings);
        after.putAll(command.changes());
        String crossed = Settings.thresholdProblem(Settings.PROJECT, after);
        if (crossed != null) {
            throw DomainException.invalid("intentThreshold", crossed);
        }
        Map<String, Object> changed = new LinkedHashMap<>();
        command.changes().forEach((path, value) -> {
            if (!Objects.equals(value, Settings.PROJECT.value(path, settings))) {
                changed.put(path, value);
            }
        });
        if (!changed.isEmpty()) {
            apply(new ProjectSettingsUpdatedEvent(projectId, organisationId, changed, command.actor().userId(),
                    command.at()));
        }
        return new SettingsRecord(projectId, new LinkedHashMap<>(settings), null, createdAt, createdBy,
                settingsChanged, settingsChangedBy);
    }

    @CommandHandler
    public void handle(DeleteProjectCommand command) {
        visibleTo(command.actor());
        apply(new ProjectDeletedEvent(projectId, organisationId, command.actor().userId(), command.at()));
    }

    @CommandHandler
    public LocaleRecord handle(CreateLocaleCommand command) {
        visibleTo(command.actor());
        String localeId = command.localeId().value();
        if (locales.containsKey(localeId)) {
            throw DomainException.conflict("A locale with id " + localeId + " already exists.");
        }
        requireUniqueName(command.name(), null);
        String fallback = command.fallbackLocaleReference() == null ? null : command.fallbackLocaleReference().value();
        if (fallback != null) {
            requireLocaleOfThisProject(fallback);
        }
        String by = command.actor().userId();
        apply(new LocaleCreatedEvent(projectId, organisationId, localeId, command.referenceId(), command.name(),
                command.nluLanguage().code(), command.primary(), fallback, by, command.at()));
        if (command.primary()) {
            apply(new PrimaryLocaleChangedEvent(projectId, organisationId, primaryLocaleId, localeId, by, command.at()));
        }
        return locales.get(localeId);
    }

    @CommandHandler
    public LocaleRecord handle(UpdateLocaleCommand command) {
        String localeId = command.localeId().value();
        localeVisibleTo(command.actor(), localeId);
        LocaleRecord current = requireLocale(localeId);
        LocalePatch patch = command.patch();
        List<String> changed = new ArrayList<>();

        String name = current.name();
        if (patch.name() != null && !patch.name().equals(current.name())) {
            requireUniqueName(patch.name(), localeId);
            name = patch.name();
            changed.add("name");
        }
        String language = current.nluLanguage();
        if (patch.nluLanguage() != null && !patch.nluLanguage().code().equals(language)) {
            language = patch.nluLanguage().code();
            changed.add("nluLanguage");
        }
        String fallback = current.fallbackLocaleReference();
        if (patch.fallbackPresent()) {
            String wanted = patch.fallbackLocaleReference() == null ? null : patch.fallbackLocaleReference().value();
            if (!Objects.equals(wanted, fallback)) {
                if (wanted != null) {
                    requireValidFallback(localeId, wanted);
                }
                fallback = wanted;
                changed.add("fallbackLocaleReference");
            }
        }
        boolean promote = false;
        if (patch.primary() != null && patch.primary() != current.primary()) {
            if (!patch.primary()) {
                throw DomainException.conflict("A project always has exactly one primary locale, so locale " + localeId
                        + " cannot stop being primary on its own. Make another locale primary instead; that demotes this one.");
            }
            promote = true;
            changed.add("primary");
        }
        if (changed.isEmpty()) {
            return current;
        }
        String by = command.actor().userId();
        apply(new LocaleUpdatedEvent(projectId, organisationId, localeId, changed, name, language,
                current.primary() || promote, fallback, by, command.at()));
        if (promote) {
            apply(new PrimaryLocaleChangedEvent(projectId, organisationId, primaryLocaleId, localeId, by, command.at()));
        }
        return locales.get(localeId);
    }

    @CommandHandler
    public void handle(DeleteLocaleCommand command) {
        String localeId = command.localeId().value();
        localeVisibleTo(command.actor(), localeId);
        LocaleRecord locale = requireLocale(localeId);
        if (locale.primary()) {
            throw DomainException.conflict("Locale " + localeId + " is the project's primary locale and cannot be "
                    + "deleted. Make another locale primary first.");
        }
        List<String> dependents = locales.values().stream()
                .filter(l -> localeId.equals(l.fallbackLocaleReference()))
                .map(LocaleRecord::id)
                .toList();
        if (!dependents.isEmpty()) {
            throw DomainException.conflict("Locale " + localeId + " is the fallback of " + String.join(", ", dependents)
                    + "; change their fallbackLocaleReference first.", Map.of("fallbackOf", dependents));
        }
        apply(new LocaleDeletedEvent(projectId, organisationId, localeId, command.actor().userId(), command.at()));
    }

    // ---- guard clauses

    /** Another organisation's project answers exactly as a missing one does. */
    private void visibleTo(Actor actor) {
        if (!organisationId.equals(actor.organisationId())) {
            throw Absent.of(ProjectId.class, projectId);
        }
    }

    /**
     * A locale is addressed by its own id (the project was found from it): to another organisation it does not exist,
     * in the same words as a locale that does not, and its project is not named.
     */
    private void localeVisibleTo(Actor actor, String localeId) {
        if (!organisationId.equals(actor.organisationId())) {
            throw Absent.of(LocaleId.class, localeId);
        }
    }

    private LocaleRecord requireLocale(String localeId) {
        LocaleRecord locale = locales.get(localeId);
        if (locale == null) {
            throw Absent.of(LocaleId.class, localeId);
        }
        return locale;
    }

    private void requireUniqueName(String name, String exceptLocaleId) {
        String wanted = name.toLowerCase(Locale.ROOT);
        for (LocaleRecord locale : locales.values()) {
            if (!locale.id().equals(exceptLocaleId) && locale.name().toLowerCase(Locale.ROOT).equals(wanted)) {
                throw DomainException.conflict("This project already has a locale named '" + locale.name()
                        + "' (" + locale.id() + "); locale names are unique per project, ignoring case.");
            }
        }
    }

    private void requireLocaleOfThisProject(String fallback) {
        if (!locales.containsKey(fallback)) {
            throw DomainException.invalid("fallbackLocaleReference", "fallbackLocaleReference " + fallback
                    + " is not a locale of this project.");
        }
    }

    private void requireValidFallback(String localeId, String fallback) {
        if (fallback.equals(localeId)) {
            throw DomainException.invalid("fallbackLocaleReference", "A locale cannot be its own fallback.");
        }
        requireLocaleOfThisProject(fallback);
        List<String> path = new ArrayList<>(List.of(localeId, fallback));
        for (String next = locales.get(fallback).fallbackLocaleReference(); next != null;
             next = locales.get(next).fallbackLocaleReference()) {
            path.add(next);
            if (next.equals(localeId)) {
                throw DomainException.conflict("Fallbacks would form a cycle: " + String.join(" -> ", path)
                        + ". Choose a fallback that does not lead back to this locale.", Map.of("cycle", path));
            }
        }
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(ProjectCreatedEvent event) {
        projectId = event.projectId();
        organisationId = event.organisationId();
        name = event.name();
        color = event.color();
        createdAt = event.createdAt();
        createdBy = event.createdBy();
        lastChanged = event.createdAt();
        lastChangedBy = event.createdBy();
        settingsChanged = event.createdAt();
        settingsChangedBy = event.createdBy();
    }

    @EventSourcingHandler
    void on(ProjectSettingsUpdatedEvent event) {
        settings.putAll(event.changed());
        settingsChanged = event.changedAt();
        settingsChangedBy = event.changedBy();
    }

    @EventSourcingHandler
    void on(ProjectUpdatedEvent event) {
        name = event.name();
        color = event.color();
        lastChanged = event.changedAt();
        lastChangedBy = event.changedBy();
    }

    @EventSourcingHandler
    void on(ProjectDeletedEvent event) {
        markDeleted();
    }

    @EventSourcingHandler
    void on(LocaleCreatedEvent event) {
        locales.put(event.localeId(), new LocaleRecord(event.localeId(), event.referenceId(), event.name(),
                event.primary(), event.nluLanguage(), event.fallbackLocaleReference(), event.createdAt(),
                event.createdAt(), event.createdBy(), event.createdBy()));
        if (event.primary() && primaryLocaleId == null) {
            primaryLocaleId = event.localeId();
        }
    }

    @EventSourcingHandler
    void on(LocaleUpdatedEvent event) {
        LocaleRecord old = locales.get(event.localeId());
        locales.put(event.localeId(), new LocaleRecord(old.id(), old.referenceId(), event.name(), event.primary(),
                event.nluLanguage(), event.fallbackLocaleReference(), old.createdAt(), event.changedAt(),
                old.createdBy(), event.changedBy()));
    }

    @EventSourcingHandler
    void on(PrimaryLocaleChangedEvent event) {
        LocaleRecord previous = event.previousPrimaryLocaleId() == null ? null : locales.get(event.previousPrimaryLocaleId());
        if (previous != null && !previous.id().equals(event.primaryLocaleId())) {
            locales.put(previous.id(), new LocaleRecord(previous.id(), previous.referenceId(), previous.name(), false,
                    previous.nluLanguage(), previous.fallbackLocaleReference(), previous.createdAt(),
                    event.changedAt(), previous.createdBy(), event.changedBy()));
        }
        primaryLocaleId = event.primaryLocaleId();
        // the project's record shows a primary switch as its last change (as the read model does)
        lastChanged = event.changedAt();
        lastChangedBy = event.changedBy();
    }

    @EventSourcingHandler
    void on(LocaleDeletedEvent event) {
        locales.remove(event.localeId());
    }
}
