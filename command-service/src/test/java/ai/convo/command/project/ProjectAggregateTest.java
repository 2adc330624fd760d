package ai.convo.command.project;

import static org.hamcrest.Matchers.containsString;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.Role;
import ai.convo.contract.locale.CreateLocaleCommand;
import ai.convo.contract.locale.DeleteLocaleCommand;
import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.locale.LocalePatch;
import ai.convo.contract.locale.LocaleRecord;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.locale.NluLanguage;
import ai.convo.contract.locale.PrimaryLocaleChangedEvent;
import ai.convo.contract.locale.UpdateLocaleCommand;
import ai.convo.contract.project.CreateProjectCommand;
import ai.convo.contract.project.DeleteProjectCommand;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.project.ProjectPatch;
import ai.convo.contract.project.ProjectRecord;
import ai.convo.contract.project.ProjectSettingsUpdatedEvent;
import ai.convo.contract.project.ProjectUpdatedEvent;
import ai.convo.contract.project.UpdateProjectCommand;
import ai.convo.contract.project.UpdateProjectSettingsCommand;
import ai.convo.contract.settings.SettingsRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.axonframework.eventsourcing.AggregateDeletedException;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.hamcrest.BaseMatcher;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The write model of a project and its locales, in given (past events) / when (command) / then (events or error). */
class ProjectAggregateTest {

    static final String PROJECT = "a00000000000000000000001";
    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String USER = "c00000000000000000000001";
    static final String EDITOR = "c00000000000000000000002";
    static final String EN = "d00000000000000000000001";
    static final String DE = "d00000000000000000000002";
    static final String FR = "d00000000000000000000003";
    static final String NEW = "d00000000000000000000009";
    static final String UNKNOWN = "d0000000000000000000dead";
    static final String EN_REF = "6f1c2a4e-0000-4000-8000-000000000001";
    static final String DE_REF = "6f1c2a4e-0000-4000-8000-000000000002";
    static final String FR_REF = "6f1c2a4e-0000-4000-8000-000000000003";
    static final String NEW_REF = "6f1c2a4e-0000-4000-8000-000000000009";
    static final long T0 = 1_700_000_000L;
    static final long T1 = 1_700_000_100L;

    static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    static final Actor SAME_ORG_EDITOR = new Actor(EDITOR, ORG, Role.ORG_ADMIN);
    static final Actor STRANGER = new Actor(EDITOR, OTHER_ORG, Role.ORG_ADMIN);

    private FixtureConfiguration<ProjectAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(ProjectAggregate.class);
    }

    // ---- history building blocks

    static ProjectCreatedEvent projectCreated() {
        return new ProjectCreatedEvent(PROJECT, ORG, "Shop bot", "#ff0000", USER, T0);
    }

    static LocaleCreatedEvent localeCreated(String id, String ref, String name, NluLanguage language, boolean primary,
                                            String fallback) {
        return new LocaleCreatedEvent(PROJECT, ORG, id, ref, name, language.code(), primary, fallback, USER, T0);
    }

    static LocaleCreatedEvent primaryEnCreated() {
        return localeCreated(EN, EN_REF, "en-US", NluLanguage.EN_US, true, null);
    }

    static LocaleCreatedEvent germanCreated() {
        return localeCreated(DE, DE_REF, "German", NluLanguage.DE_DE, false, null);
    }

    /** A project with its primary locale EN ("en-US") and a second locale DE ("German"). */
    static Object[] projectWithTwoLocales(Object... more) {
        List<Object> events = new ArrayList<>(List.of(projectCreated(), primaryEnCreated(), germanCreated()));
        events.addAll(List.of(more));
        return events.toArray();
    }

    static LocaleRecord germanRecord() {
        return new LocaleRecord(DE, DE_REF, "German", false, "de-DE", null, T0, T0, USER, USER);
    }

    static UpdateLocaleCommand update(String localeId, LocalePatch patch) {
        return new UpdateLocaleCommand(ProjectId.of(PROJECT), LocaleId.of(localeId), SAME_ORG_EDITOR, patch, T1);
    }

    static LocalePatch rename(String name) {
        return new LocalePatch(name, null, null, false, null);
    }

    static LocalePatch primary(boolean primary) {
        return new LocalePatch(null, primary, null, false, null);
    }

    static LocalePatch fallback(String localeId) {
        return new LocalePatch(null, null, null, true, localeId == null ? null : LocaleId.of(localeId));
    }

    static CreateLocaleCommand createLocale(String localeId, String name, boolean primary, String fallback) {
        return new CreateLocaleCommand(ProjectId.of(PROJECT), LocaleId.of(localeId), SAME_ORG_EDITOR, NEW_REF, name,
                NluLanguage.FR_FR, primary, fallback == null ? null : LocaleId.of(fallback), T1);
    }

    static DeleteLocaleCommand deleteLocale(String localeId) {
        return new DeleteLocaleCommand(ProjectId.of(PROJECT), LocaleId.of(localeId), SAME_ORG_EDITOR, T1);
    }

    /** A DomainException of exactly this kind whose message contains the fragment. */
    static Matcher<Object> domainError(DomainException.Kind kind, String messageFragment) {
        return domainError(kind, messageFragment, null);
    }

    /** As above and, when {@code details} is not null, with exactly these details. */
    static Matcher<Object> domainError(DomainException.Kind kind, String messageFragment, Map<String, Object> details) {
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

    // ---- update project

    @Nested
    @DisplayName("UpdateProjectCommand")
    class UpdateProject {

        UpdateProjectCommand update(Actor actor, String name, String color) {
            return new UpdateProjectCommand(ProjectId.of(PROJECT), actor, new ProjectPatch(name, color), T1);
        }

        @Test
        void givenAProject_whenRenamingAndRecolouring_thenProjectUpdatedWithTheFullNewStateAndTheRecordAnswered() {
            // given
            fixture.given(projectCreated(), primaryEnCreated())
                    // when
                    .when(update(SAME_ORG_EDITOR, "Shop assistant", "blue"))
                    // then
                    .expectEvents(new ProjectUpdatedEvent(PROJECT, ORG, List.of("name", "color"), "Shop assistant", "blue",
                            EDITOR, T1))
                    .expectResultMessagePayload(new ProjectRecord(PROJECT, "Shop assistant", "blue", EN, T0, T1, USER,
                            EDITOR));
        }

        @Test
        void givenAProject_whenOnlyTheColorChanges_thenOnlyColorIsNamedChangedAndTheNameKept() {
            // given
            fixture.given(projectCreated(), primaryEnCreated())
                    // when: the same name, a new color
                    .when(update(SAME_ORG_EDITOR, "Shop bot", "green"))
                    // then
                    .expectEvents(new ProjectUpdatedEvent(PROJECT, ORG, List.of("color"), "Shop bot", "green", EDITOR, T1));
        }

        @Test
        void givenAProject_whenThePatchChangesNothing_thenNoEventAndTheUnchangedRecord() {
            // given
            fixture.given(projectCreated(), primaryEnCreated())
                    // when
                    .when(update(SAME_ORG_EDITOR, null, "#ff0000"))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(new ProjectRecord(PROJECT, "Shop bot", "#ff0000", EN, T0, T0, USER, USER));
        }

        @Test
        void givenARenamedProject_whenUpdatingAgain_thenTheRecordShowsTheLastChange() {
            // given
            fixture.given(projectCreated(), primaryEnCreated(),
                            new ProjectUpdatedEvent(PROJECT, ORG, List.of("name"), "Renamed", "#ff0000", EDITOR, T1))
                    // when: nothing new
                    .when(update(OWNER, "Renamed", null))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(new ProjectRecord(PROJECT, "Renamed", "#ff0000", EN, T0, T1, USER, EDITOR));
        }

        @Test
        void givenAProjectOfAnotherOrganisation_whenUpdating_thenNotFoundAndNothingStored() {
            // given
            fixture.given(projectCreated(), primaryEnCreated())
                    // when
                    .when(update(STRANGER, "Mine now", null))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Project " + PROJECT + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenADeletedProject_whenUpdating_thenTheAggregateIsGone() {
            // given
            fixture.given(projectCreated(), primaryEnCreated(), new ProjectDeletedEvent(PROJECT, ORG, USER, T0))
                    // when
                    .when(update(OWNER, "Back", null))
                    // then
                    .expectException(AggregateDeletedException.class)
                    .expectNoEvents();
        }
    }

    // ---- project settings

    @Nested
    @DisplayName("UpdateProjectSettingsCommand")
    class UpdateProjectSettings {

        UpdateProjectSettingsCommand settings(Actor actor, Map<String, Object> changes) {
            return new UpdateProjectSettingsCommand(ProjectId.of(PROJECT), actor, changes, T1);
        }

        @Test
        void givenAProject_whenSettingsChange_thenOnlyTheChangedOnesAreInTheEventAndTheRecordShowsThem() {
            // given
            Map<String, Object> changes = new java.util.LinkedHashMap<>();
            changes.put("timezone", "Europe/Berlin");
            changes.put("collectAnalytics", true); // the default: no change
            changes.put("audioPreviewSettings.provider", "aws");
            fixture.given(projectCreated(), primaryEnCreated())
                    // when
                    .when(settings(SAME_ORG_EDITOR, changes))
                    // then
                    .expectEvents(new ProjectSettingsUpdatedEvent(PROJECT, ORG,
                            Map.of("timezone", "Europe/Berlin", "audioPreviewSettings.provider", "aws"), EDITOR, T1))
                    .expectResultMessagePayload(new SettingsRecord(PROJECT,
                            Map.of("timezone", "Europe/Berlin", "audioPreviewSettings.provider", "aws"), null, T0, USER,
                            T1, EDITOR));
        }

        @Test
        void givenASettingSetBefore_whenItIsSetBackToItsDefault_thenThatIsAChangeToo() {
            // given
            fixture.given(projectCreated(), primaryEnCreated(),
                            new ProjectSettingsUpdatedEvent(PROJECT, ORG, Map.of("timezone", "Asia/Tokyo"), EDITOR, T1))
                    // when
                    .when(settings(OWNER, Map.of("timezone", "UTC")))
                    // then
                    .expectEvents(new ProjectSettingsUpdatedEvent(PROJECT, ORG, Map.of("timezone", "UTC"), USER, T1));
        }

        @Test
        void givenAProject_whenTheIntentThresholdsWouldCross_thenInvalidNamingThemAndNothingStored() {
            // given
            fixture.given(projectCreated(), primaryEnCreated(),
                            new ProjectSettingsUpdatedEvent(PROJECT, ORG, Map.of("intentThreshold.upper", 0.5), EDITOR, T1))
                    // when
                    .when(settings(OWNER, Map.of("intentThreshold.lower", 0.55)))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID,
                            "intentThreshold.lower (0.55) must not be above intentThreshold.upper (0.5)"))
                    .expectNoEvents();
        }

        @Test
        void givenAProjectOfAnotherOrganisation_whenItsSettingsChange_thenNotFound() {
            // given
            fixture.given(projectCreated(), primaryEnCreated())
                    // when
                    .when(settings(STRANGER, Map.of("timezone", "Europe/Paris")))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Project " + PROJECT + " does not exist."))
                    .expectNoEvents();
        }
    }

    // ---- create project

    @Nested
    @DisplayName("CreateProjectCommand")
    class CreateProject {

        @Test
        void givenNothing_whenCreatingAProject_thenProjectCreatedAndItsPrimaryLocaleNamedAfterTheLanguageCode() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateProjectCommand(ProjectId.of(PROJECT), OWNER, "Shop bot", "#ff0000", LocaleId.of(EN),
                            EN_REF, NluLanguage.DE_DE, T0))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectEvents(
                            new ProjectCreatedEvent(PROJECT, ORG, "Shop bot", "#ff0000", USER, T0),
                            new LocaleCreatedEvent(PROJECT, ORG, EN, EN_REF, "de-DE", "de-DE", true, null, USER, T0))
                    .expectNotMarkedDeleted();
        }

        @Test
        void givenACreatedProject_whenAnotherLocaleTakesThePrimaryLanguageCodeAsNameInOtherCase_thenConflict() {
            // given: the primary locale got the language code as its name
            fixture.given(projectCreated(), primaryEnCreated())
                    // when
                    .when(createLocale(NEW, "EN-us", false, null))
                    // then
                    .expectException(DomainException.class)
                    .expectException(domainError(DomainException.Kind.CONFLICT, "already has a locale named 'en-US'"))
                    .expectNoEvents();
        }
    }

    // ---- delete project

    @Nested
    @DisplayName("DeleteProjectCommand")
    class DeleteProject {

        @Test
        void givenAProject_whenDeletingIt_thenProjectDeletedAndAggregateMarkedDeleted() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(new DeleteProjectCommand(ProjectId.of(PROJECT), SAME_ORG_EDITOR, T1))
                    // then
                    .expectEvents(new ProjectDeletedEvent(PROJECT, ORG, EDITOR, T1))
                    .expectMarkedDeleted();
        }

        @Test
        void givenADeletedProject_whenCreatingALocale_thenTheAggregateIsGone() {
            // given
            fixture.given(projectWithTwoLocales(new ProjectDeletedEvent(PROJECT, ORG, USER, T0)))
                    // when
                    .when(createLocale(NEW, "French", false, null))
                    // then
                    .expectException(AggregateDeletedException.class)
                    .expectNoEvents();
        }

        @Test
        void givenADeletedProject_whenDeletingItAgain_thenTheAggregateIsGone() {
            // given
            fixture.given(projectWithTwoLocales(new ProjectDeletedEvent(PROJECT, ORG, USER, T0)))
                    // when
                    .when(new DeleteProjectCommand(ProjectId.of(PROJECT), SAME_ORG_EDITOR, T1))
                    // then
                    .expectException(AggregateDeletedException.class)
                    .expectNoEvents();
        }

        @Test
        void givenADeletedProject_whenUpdatingALocale_thenTheAggregateIsGone() {
            // given
            fixture.given(projectWithTwoLocales(new ProjectDeletedEvent(PROJECT, ORG, USER, T0)))
                    // when
                    .when(update(DE, rename("Deutsch")))
                    // then
                    .expectException(AggregateDeletedException.class)
                    .expectNoEvents();
        }
    }

    // ---- other organisation

    static Stream<Arguments> commandsOfAnotherOrganisation() {
        ProjectId project = ProjectId.of(PROJECT);
        String noProject = "Project " + PROJECT + " does not exist.";
        // a locale is addressed by its own id: the refusal is that of a locale that does not exist, naming no project
        String noLocale = "Locale " + DE + " does not exist.";
        return Stream.of(
                Arguments.of("delete project", new DeleteProjectCommand(project, STRANGER, T1), noProject),
                Arguments.of("create locale", new CreateLocaleCommand(project, LocaleId.of(NEW), STRANGER, NEW_REF,
                        "French", NluLanguage.FR_FR, false, null, T1), noProject),
                Arguments.of("update locale", new UpdateLocaleCommand(project, LocaleId.of(DE), STRANGER,
                        rename("Deutsch"), T1), noLocale),
                Arguments.of("delete locale", new DeleteLocaleCommand(project, LocaleId.of(DE), STRANGER, T1), noLocale));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandsOfAnotherOrganisation")
    void givenAProject_whenAnActorOfAnotherOrganisationSendsACommand_thenNotFoundAsIfItDidNotExist(String name,
                                                                                                    Object command,
                                                                                                    String refusal) {
        // given
        fixture.given(projectWithTwoLocales())
                // when
                .when(command)
                // then
                .expectException(DomainException.class)
                .expectException(domainError(DomainException.Kind.NOT_FOUND, refusal))
                .expectExceptionMessage(refusal)
                .expectNoEvents();
    }

    // ---- create locale

    @Nested
    @DisplayName("CreateLocaleCommand")
    class CreateLocale {

        @Test
        void givenAProject_whenCreatingANonPrimaryLocale_thenLocaleCreatedAndItsRecordReturned() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(createLocale(NEW, "French", false, null))
                    // then
                    .expectEvents(new LocaleCreatedEvent(PROJECT, ORG, NEW, NEW_REF, "French", "fr-FR", false, null,
                            EDITOR, T1))
                    .expectResultMessagePayload(new LocaleRecord(NEW, NEW_REF, "French", false, "fr-FR", null, T1, T1,
                            EDITOR, EDITOR));
        }

        @Test
        void givenAProject_whenCreatingALocaleWithAnExistingFallback_thenTheFallbackIsRecorded() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(createLocale(NEW, "French", false, DE))
                    // then
                    .expectEvents(new LocaleCreatedEvent(PROJECT, ORG, NEW, NEW_REF, "French", "fr-FR", false, DE,
                            EDITOR, T1))
                    .expectResultMessagePayload(new LocaleRecord(NEW, NEW_REF, "French", false, "fr-FR", DE, T1, T1,
                            EDITOR, EDITOR));
        }

        @Test
        void givenALocaleNamedGerman_whenCreatingOneNamedGERMAN_thenConflictBecauseNamesIgnoreCase() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(createLocale(NEW, "GERMAN", false, null))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT,
                            "already has a locale named 'German' (" + DE + ")"))
                    .expectNoEvents();
        }

        @Test
        void givenALocale_whenCreatingAnotherWithTheSameId_thenConflict() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(createLocale(DE, "Another", false, null))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "A locale with id " + DE + " already exists."))
                    .expectNoEvents();
        }

        @Test
        void givenAProject_whenCreatingALocaleWithAnUnknownFallback_thenInvalidNamingTheField() {
            // given
            String detail = "fallbackLocaleReference " + UNKNOWN + " is not a locale of this project.";
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(createLocale(NEW, "French", false, UNKNOWN))
                    // then
                    .expectException(DomainException.class)
                    .expectException(domainError(DomainException.Kind.INVALID, detail,
                            Map.of("fallbackLocaleReference", detail)))
                    .expectNoEvents();
        }

        @Test
        void givenADeletedLocale_whenUsingItAsFallback_thenInvalid() {
            // given
            fixture.given(projectWithTwoLocales(new LocaleDeletedEvent(PROJECT, ORG, DE, USER, T0)))
                    // when
                    .when(createLocale(NEW, "French", false, DE))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "is not a locale of this project"))
                    .expectNoEvents();
        }

        @Test
        void givenAProject_whenCreatingAPrimaryLocale_thenLocaleCreatedAndPrimaryMovesFromThePreviousPrimary() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(createLocale(NEW, "French", true, null))
                    // then
                    .expectEvents(
                            new LocaleCreatedEvent(PROJECT, ORG, NEW, NEW_REF, "French", "fr-FR", true, null, EDITOR, T1),
                            new PrimaryLocaleChangedEvent(PROJECT, ORG, EN, NEW, EDITOR, T1))
                    .expectResultMessagePayload(new LocaleRecord(NEW, NEW_REF, "French", true, "fr-FR", null, T1, T1,
                            EDITOR, EDITOR));
        }

        @Test
        void givenADeletedLocale_whenCreatingOneWithItsName_thenTheNameIsFreeAgain() {
            // given
            fixture.given(projectWithTwoLocales(new LocaleDeletedEvent(PROJECT, ORG, DE, USER, T0)))
                    // when
                    .when(createLocale(NEW, "German", false, null))
                    // then
                    .expectEvents(new LocaleCreatedEvent(PROJECT, ORG, NEW, NEW_REF, "German", "fr-FR", false, null,
                            EDITOR, T1));
        }
    }

    // ---- update locale

    @Nested
    @DisplayName("UpdateLocaleCommand")
    class UpdateLocale {

        @Test
        void givenALocale_whenPatchIsEmpty_thenNoEventsAndTheCurrentRecordIsReturned() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(DE, LocalePatch.empty()))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectNoEvents()
                    .expectResultMessagePayload(germanRecord());
        }

        @Test
        void givenALocale_whenPatchRepeatsEveryCurrentValue_thenNoEventsAndTheCurrentRecordIsReturned() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(DE, new LocalePatch("German", false, NluLanguage.DE_DE, true, null)))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(germanRecord());
        }

        @Test
        void givenALocale_whenRenamed_thenLocaleUpdatedWithOnlyNameChangedAndTheNewRecordReturned() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(DE, rename("Deutsch")))
                    // then
                    .expectEvents(new LocaleUpdatedEvent(PROJECT, ORG, DE, List.of("name"), "Deutsch", "de-DE", false,
                            null, EDITOR, T1))
                    .expectResultMessagePayload(new LocaleRecord(DE, DE_REF, "Deutsch", false, "de-DE", null, T0, T1,
                            USER, EDITOR));
        }

        @Test
        void givenTwoLocales_whenRenamingOneToTheOthersNameInAnotherCase_thenConflict() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(DE, rename("EN-us")))
                    // then
                    .expectException(DomainException.class)
                    .expectException(domainError(DomainException.Kind.CONFLICT,
                            "already has a locale named 'en-US' (" + EN + ")"))
                    .expectNoEvents();
        }

        @Test
        void givenALocale_whenRenamingItToItsOwnNameInAnotherCase_thenAllowed() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(DE, rename("GERMAN")))
                    // then
                    .expectEvents(new LocaleUpdatedEvent(PROJECT, ORG, DE, List.of("name"), "GERMAN", "de-DE", false,
                            null, EDITOR, T1))
                    .expectResultMessagePayload(new LocaleRecord(DE, DE_REF, "GERMAN", false, "de-DE", null, T0, T1,
                            USER, EDITOR));
        }

        @Test
        void givenALocale_whenOnlyTheLanguageChangesAndTheNameIsRepeated_thenChangedFieldsIsExactlyNluLanguage() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(DE, new LocalePatch("German", null, NluLanguage.EN_GB, false, null)))
                    // then
                    .expectEvents(new LocaleUpdatedEvent(PROJECT, ORG, DE, List.of("nluLanguage"), "German", "en-GB",
                            false, null, EDITOR, T1));
        }

        @Test
        void givenALocale_whenEveryFieldChanges_thenChangedFieldsListsExactlyThoseFields() {
            // given
            fixture.given(projectWithTwoLocales(localeCreated(FR, FR_REF, "French", NluLanguage.FR_FR, false, null)))
                    // when
                    .when(update(DE, new LocalePatch("Deutsch", true, NluLanguage.EN_GB, true, LocaleId.of(FR))))
                    // then
                    .expectEventsMatching(payloads(events -> {
                        if (events.size() != 2 || !(events.get(0) instanceof LocaleUpdatedEvent updated)) {
                            return false;
                        }
                        return updated.changedFields().size() == 4
                                && new HashSet<>(updated.changedFields()).equals(
                                        java.util.Set.of("name", "primary", "nluLanguage", "fallbackLocaleReference"))
                                && updated.name().equals("Deutsch") && updated.nluLanguage().equals("en-GB")
                                && updated.primary() && FR.equals(updated.fallbackLocaleReference())
                                && updated.localeId().equals(DE) && updated.changedBy().equals(EDITOR)
                                && updated.changedAt() == T1
                                && events.get(1).equals(new PrimaryLocaleChangedEvent(PROJECT, ORG, EN, DE, EDITOR, T1));
                    }, "LocaleUpdatedEvent changing name, primary, nluLanguage, fallbackLocaleReference, then "
                            + "PrimaryLocaleChangedEvent EN -> DE"))
                    .expectResultMessagePayload(new LocaleRecord(DE, DE_REF, "Deutsch", true, "en-GB", FR, T0, T1,
                            USER, EDITOR));
        }

        @Test
        void givenThePrimaryLocale_whenSettingPrimaryFalse_thenConflict() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(EN, primary(false)))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "exactly one primary locale"))
                    .expectExceptionMessage(containsString(EN))
                    .expectNoEvents();
        }

        @Test
        void givenThePrimaryLocale_whenSettingPrimaryTrue_thenNothingChanges() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(EN, primary(true)))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(new LocaleRecord(EN, EN_REF, "en-US", true, "en-US", null, T0, T0,
                            USER, USER));
        }

        @Test
        void givenANonPrimaryLocale_whenSettingPrimaryFalse_thenNothingChanges() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(DE, primary(false)))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(germanRecord());
        }

        @Test
        void givenANonPrimaryLocale_whenPromoted_thenLocaleUpdatedWithPrimaryAndPrimaryLocaleChanged() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(DE, primary(true)))
                    // then
                    .expectEvents(
                            new LocaleUpdatedEvent(PROJECT, ORG, DE, List.of("primary"), "German", "de-DE", true, null,
                                    EDITOR, T1),
                            new PrimaryLocaleChangedEvent(PROJECT, ORG, EN, DE, EDITOR, T1))
                    .expectResultMessagePayload(new LocaleRecord(DE, DE_REF, "German", true, "de-DE", null, T0, T1,
                            USER, EDITOR));
        }

        @Test
        void givenAPromotedLocale_whenTheFormerPrimaryIsSetPrimaryFalse_thenNothingChangesBecauseItWasDemoted() {
            // given: DE was promoted, which demoted EN
            fixture.given(projectWithTwoLocales(
                            new LocaleUpdatedEvent(PROJECT, ORG, DE, List.of("primary"), "German", "de-DE", true, null,
                                    EDITOR, T0),
                            new PrimaryLocaleChangedEvent(PROJECT, ORG, EN, DE, EDITOR, T0)))
                    // when
                    .when(update(EN, primary(false)))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(new LocaleRecord(EN, EN_REF, "en-US", false, "en-US", null, T0, T0,
                            USER, EDITOR));
        }

        @Test
        void givenAPromotedLocale_whenTheFormerPrimaryIsPromotedBack_thenPrimaryMovesBackFromTheNewPrimary() {
            // given
            fixture.given(projectWithTwoLocales(
                            new LocaleUpdatedEvent(PROJECT, ORG, DE, List.of("primary"), "German", "de-DE", true, null,
                                    EDITOR, T0),
                            new PrimaryLocaleChangedEvent(PROJECT, ORG, EN, DE, EDITOR, T0)))
                    // when
                    .when(update(EN, primary(true)))
                    // then
                    .expectEvents(
                            new LocaleUpdatedEvent(PROJECT, ORG, EN, List.of("primary"), "en-US", "en-US", true, null,
                                    EDITOR, T1),
                            new PrimaryLocaleChangedEvent(PROJECT, ORG, DE, EN, EDITOR, T1));
        }

        @Test
        void givenALocale_whenItIsMadeItsOwnFallback_thenInvalid() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(DE, fallback(DE)))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "A locale cannot be its own fallback.",
                            Map.of("fallbackLocaleReference", "A locale cannot be its own fallback.")))
                    .expectNoEvents();
        }

        @Test
        void givenALocale_whenTheFallbackIsUnknown_thenInvalid() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(DE, fallback(UNKNOWN)))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID,
                            "fallbackLocaleReference " + UNKNOWN + " is not a locale of this project."))
                    .expectNoEvents();
        }

        @Test
        void givenFrenchFallsBackToGerman_whenGermanIsSetToFallBackToFrench_thenConflictNamingTheCycle() {
            // given: FR -> DE
            fixture.given(projectWithTwoLocales(localeCreated(FR, FR_REF, "French", NluLanguage.FR_FR, false, DE)))
                    // when: DE -> FR
                    .when(update(DE, fallback(FR)))
                    // then
                    .expectException(DomainException.class)
                    .expectException(domainError(DomainException.Kind.CONFLICT, "cycle",
                            Map.of("cycle", List.of(DE, FR, DE))))
                    .expectExceptionMessage(containsString(DE + " -> " + FR + " -> " + DE))
                    .expectNoEvents();
        }

        @Test
        void givenAChainOfThreeFallbacks_whenTheLastPointsBackToTheFirst_thenConflictNamingTheWholeCycle() {
            // given: EN -> FR -> DE
            fixture.given(projectCreated(),
                            localeCreated(DE, DE_REF, "German", NluLanguage.DE_DE, false, null),
                            localeCreated(FR, FR_REF, "French", NluLanguage.FR_FR, false, DE),
                            localeCreated(EN, EN_REF, "en-US", NluLanguage.EN_US, true, FR))
                    // when: DE -> EN
                    .when(update(DE, fallback(EN)))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "cycle",
                            Map.of("cycle", List.of(DE, EN, FR, DE))))
                    .expectNoEvents();
        }

        @Test
        void givenAFallbackChain_whenALocaleOutsideItFallsBackIntoIt_thenAllowed() {
            // given: FR -> DE
            fixture.given(projectWithTwoLocales(localeCreated(FR, FR_REF, "French", NluLanguage.FR_FR, false, DE)))
                    // when: EN -> FR
                    .when(update(EN, fallback(FR)))
                    // then
                    .expectEvents(new LocaleUpdatedEvent(PROJECT, ORG, EN, List.of("fallbackLocaleReference"), "en-US",
                            "en-US", true, FR, EDITOR, T1))
                    .expectResultMessagePayload(new LocaleRecord(EN, EN_REF, "en-US", true, "en-US", FR, T0, T1,
                            USER, EDITOR));
        }

        @Test
        void givenALocaleWithAFallback_whenFallbackIsExplicitlyNull_thenTheFallbackIsCleared() {
            // given: FR -> DE
            fixture.given(projectWithTwoLocales(localeCreated(FR, FR_REF, "French", NluLanguage.FR_FR, false, DE)))
                    // when
                    .when(update(FR, fallback(null)))
                    // then
                    .expectEvents(new LocaleUpdatedEvent(PROJECT, ORG, FR, List.of("fallbackLocaleReference"), "French",
                            "fr-FR", false, null, EDITOR, T1))
                    .expectResultMessagePayload(new LocaleRecord(FR, FR_REF, "French", false, "fr-FR", null, T0, T1,
                            USER, EDITOR));
        }

        @Test
        void givenALocaleWithAFallback_whenTheFallbackIsAbsentFromThePatch_thenItIsKept() {
            // given: FR -> DE
            fixture.given(projectWithTwoLocales(localeCreated(FR, FR_REF, "French", NluLanguage.FR_FR, false, DE)))
                    // when: fallbackPresent=false
                    .when(update(FR, new LocalePatch(null, null, null, false, null)))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(new LocaleRecord(FR, FR_REF, "French", false, "fr-FR", DE, T0, T0,
                            USER, USER));
        }

        @Test
        void givenALocaleWithAClearedFallback_whenTheOldFallbackIsDeleted_thenItIsAllowed() {
            // given: FR -> DE, then cleared
            fixture.given(projectWithTwoLocales(
                            localeCreated(FR, FR_REF, "French", NluLanguage.FR_FR, false, DE),
                            new LocaleUpdatedEvent(PROJECT, ORG, FR, List.of("fallbackLocaleReference"), "French",
                                    "fr-FR", false, null, EDITOR, T0)))
                    // when
                    .when(deleteLocale(DE))
                    // then
                    .expectEvents(new LocaleDeletedEvent(PROJECT, ORG, DE, EDITOR, T1));
        }

        @Test
        void givenAProject_whenUpdatingAnUnknownLocale_thenNotFound() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(update(UNKNOWN, rename("Whatever")))
                    // then
                    .expectException(DomainException.class)
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Locale " + UNKNOWN + " does not exist."))
                    .expectNoEvents();
        }
    }

    // ---- delete locale

    @Nested
    @DisplayName("DeleteLocaleCommand")
    class DeleteLocale {

        @Test
        void givenThePrimaryLocale_whenDeletingIt_thenConflict() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(deleteLocale(EN))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "is the project's primary locale"))
                    .expectExceptionMessage(containsString(EN))
                    .expectNoEvents();
        }

        @Test
        void givenALocaleThatIsAnothersFallback_whenDeletingIt_thenConflictNamingTheDependent() {
            // given: FR -> DE
            fixture.given(projectWithTwoLocales(localeCreated(FR, FR_REF, "French", NluLanguage.FR_FR, false, DE)))
                    // when
                    .when(deleteLocale(DE))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "is the fallback of " + FR,
                            Map.of("fallbackOf", List.of(FR))))
                    .expectNoEvents();
        }

        @Test
        void givenANonPrimaryLocale_whenDeletingIt_thenLocaleDeleted() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(deleteLocale(DE))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectEvents(new LocaleDeletedEvent(PROJECT, ORG, DE, EDITOR, T1))
                    .expectNotMarkedDeleted();
        }

        @Test
        void givenADeletedLocale_whenDeletingItAgain_thenNotFound() {
            // given
            fixture.given(projectWithTwoLocales(new LocaleDeletedEvent(PROJECT, ORG, DE, USER, T0)))
                    // when
                    .when(deleteLocale(DE))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Locale " + DE + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenAProject_whenDeletingAnUnknownLocale_thenNotFound() {
            // given
            fixture.given(projectWithTwoLocales())
                    // when
                    .when(deleteLocale(UNKNOWN))
                    // then
                    .expectException(DomainException.class)
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Locale " + UNKNOWN + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenANewPrimaryCreated_whenDeletingTheFormerPrimary_thenAllowedBecauseItWasDemoted() {
            // given
            fixture.given(projectWithTwoLocales(
                            new LocaleCreatedEvent(PROJECT, ORG, NEW, NEW_REF, "French", "fr-FR", true, null, EDITOR, T0),
                            new PrimaryLocaleChangedEvent(PROJECT, ORG, EN, NEW, EDITOR, T0)))
                    // when
                    .when(deleteLocale(EN))
                    // then
                    .expectEvents(new LocaleDeletedEvent(PROJECT, ORG, EN, EDITOR, T1));
        }

        @Test
        void givenANewPrimaryCreated_whenDeletingTheNewPrimary_thenConflict() {
            // given
            fixture.given(projectWithTwoLocales(
                            new LocaleCreatedEvent(PROJECT, ORG, NEW, NEW_REF, "French", "fr-FR", true, null, EDITOR, T0),
                            new PrimaryLocaleChangedEvent(PROJECT, ORG, EN, NEW, EDITOR, T0)))
                    // when
                    .when(deleteLocale(NEW))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "is the project's primary locale"))
                    .expectNoEvents();
        }
    }

    // ---- helpers

    /** Matches the list of published event messages when the predicate holds for their payloads. */
    static Matcher<List<? super org.axonframework.eventhandling.EventMessage<?>>> payloads(
            java.util.function.Predicate<List<Object>> predicate, String description) {
        return new BaseMatcher<>() {
            @Override
            public boolean matches(Object actual) {
                if (!(actual instanceof List<?> messages)) {
                    return false;
                }
                List<Object> payloads = messages.stream()
                        .map(m -> ((org.axonframework.eventhandling.EventMessage<?>) m).getPayload())
                        .map(Object.class::cast)
                        .toList();
                return predicate.test(payloads);
            }

            @Override
            public void describeTo(Description text) {
                text.appendText(description);
            }

            @Override
            public void describeMismatch(Object actual, Description text) {
                if (actual instanceof List<?> messages) {
                    text.appendText("payloads were " + messages.stream()
                            .map(m -> Objects.toString(((org.axonframework.eventhandling.EventMessage<?>) m).getPayload()))
                            .toList());
                } else {
                    text.appendText("was " + actual);
                }
            }
        };
    }
}
