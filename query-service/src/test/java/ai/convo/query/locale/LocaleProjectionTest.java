package ai.convo.query.locale;

import ai.convo.query.ReadModelSchema;
import ai.convo.persistence.BatchingJdbcTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.locale.PrimaryLocaleChangedEvent;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.query.project.ProjectProjection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The locale and project projections are plain code: feed them events, look at the rows. */
@Tag("integration")
class LocaleProjectionTest {

    static final String ORG = "000000000000000000000001";
    static final String USER = "000000000000000000000002";
    static final String PROJECT = "0000000000000000000000a1";
    static final String EN = "0000000000000000000000e1";
    static final String DE = "0000000000000000000000d1";

    static BatchingJdbcTemplate jdbc;
    LocaleProjection locales;
    ProjectProjection projects;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new BatchingJdbcTemplate(dataSource, 100);
    }

    @BeforeEach
    void empty() {
        jdbc.update("DELETE FROM locale_view");
        jdbc.update("DELETE FROM project_view");
        locales = new LocaleProjection(jdbc);
        projects = new ProjectProjection(jdbc);
    }

    private void given(Object... events) {
        for (Object event : events) {
            // Each projection takes the events it has a handler for, as Axon would route them.
            if (event instanceof ProjectCreatedEvent e) {
                projects.on(e);
            } else if (event instanceof LocaleCreatedEvent e) {
                projects.on(e);
                locales.on(e);
            } else if (event instanceof LocaleUpdatedEvent e) {
                locales.on(e);
            } else if (event instanceof PrimaryLocaleChangedEvent e) {
                projects.on(e);
                locales.on(e);
            } else if (event instanceof LocaleDeletedEvent e) {
                locales.on(e);
            } else if (event instanceof ProjectDeletedEvent e) {
                projects.on(e);
                locales.on(e);
            }
        }
    }

    private Map<String, Object> locale(String id) {
        return jdbc.queryForMap("SELECT * FROM locale_view WHERE id = ?", id);
    }

    private static final ProjectCreatedEvent CREATED = new ProjectCreatedEvent(PROJECT, ORG, "P", "", USER, 100);
    private static final LocaleCreatedEvent ENGLISH =
            new LocaleCreatedEvent(PROJECT, ORG, EN, "ref-en", "en-US", "en-US", true, null, USER, 100);
    private static final LocaleCreatedEvent GERMAN =
            new LocaleCreatedEvent(PROJECT, ORG, DE, "ref-de", "German", "de-DE", false, EN, USER, 110);

    @Test
    void aCreatedProjectPointsAtItsFirstPrimaryLocale() {
        given(CREATED, ENGLISH, GERMAN);
        assertThat(jdbc.queryForObject("SELECT primary_locale_reference FROM project_view WHERE id = ?", String.class,
                PROJECT)).isEqualTo(EN);
        assertThat(locale(DE)).containsEntry("fallback_locale_reference", EN).containsEntry("is_primary", false)
                .containsEntry("created_at", 110L).containsEntry("last_changed", 110L);
    }

    @Test
    void anUpdateSetsTheNewStateAndWhoChangedItWhen() {
        given(CREATED, ENGLISH, GERMAN, new LocaleUpdatedEvent(PROJECT, ORG, DE, List.of("name", "fallbackLocaleReference"),
                "Deutsch", "de-DE", false, null, "000000000000000000000003", 150));
        assertThat(locale(DE)).containsEntry("name", "Deutsch").containsEntry("fallback_locale_reference", null)
                .containsEntry("last_changed", 150L).containsEntry("last_changed_by", "000000000000000000000003")
                .containsEntry("created_at", 110L).containsEntry("created_by", USER);
    }

    @Test
    void aNewPrimaryDemotesThePreviousOneAndMovesTheProjectReference() {
        given(CREATED, ENGLISH, GERMAN,
                new LocaleUpdatedEvent(PROJECT, ORG, DE, List.of("primary"), "German", "de-DE", true, EN, USER, 200),
                new PrimaryLocaleChangedEvent(PROJECT, ORG, EN, DE, USER, 200));
        assertThat(locale(DE)).containsEntry("is_primary", true);
        assertThat(locale(EN)).containsEntry("is_primary", false).containsEntry("last_changed", 200L);
        assertThat(jdbc.queryForObject("SELECT primary_locale_reference FROM project_view WHERE id = ?", String.class,
                PROJECT)).isEqualTo(DE);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM locale_view WHERE is_primary", Integer.class)).isEqualTo(1);
    }

    @Test
    void replayingAnEventTwiceLeavesOneRow() {
        given(CREATED, ENGLISH, GERMAN, GERMAN, CREATED);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM locale_view", Integer.class)).isEqualTo(2);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM project_view", Integer.class)).isEqualTo(1);
    }

    @Test
    void deletionsRemoveTheRows() {
        given(CREATED, ENGLISH, GERMAN, new LocaleDeletedEvent(PROJECT, ORG, DE, USER, 300));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM locale_view", Integer.class)).isEqualTo(1);
        given(new ProjectDeletedEvent(PROJECT, ORG, USER, 400));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM locale_view", Integer.class)).isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM project_view", Integer.class)).isZero();
    }
}
