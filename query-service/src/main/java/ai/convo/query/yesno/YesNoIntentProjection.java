package ai.convo.query.yesno;

import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoIntentResetEvent;
import ai.convo.contract.yesno.YesNoIntentSeededEvent;
import ai.convo.contract.yesno.YesNoIntentUpdatedEvent;
import ai.convo.contract.yesno.YesNoKind;
import ai.convo.contract.yesno.YesNoSeeds;
import ai.convo.contract.yesno.YesNoSentence;
import ai.convo.contract.yesno.YesNoSentenceCreatedEvent;
import ai.convo.contract.yesno.YesNoSentenceDeletedEvent;
import ai.convo.contract.yesno.YesNoSentenceUpdatedEvent;
import ai.convo.http.media.Renderer;
import ai.convo.persistence.BatchingJdbcTemplate;
import java.util.List;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.stereotype.Component;

/**
 * The yes/no intents of each locale. A locale has its three from its creation, holding the built-in sentences of its
 * language (again after a language change) until the command side first writes one and stores its seed. Sequenced by
 * project ({@link YesNoIntentProcessing}), so nothing of a deleted locale comes back.
 */
@Component
@ProcessingGroup(YesNoIntentProjection.GROUP)
public class YesNoIntentProjection {

    public static final String GROUP = "yesnointents";

    private final BatchingJdbcTemplate jdbc;

    public YesNoIntentProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(LocaleCreatedEvent event) {
        for (YesNoKind kind : YesNoKind.values()) {
            String id = YesNoIntentId.of(event.localeId(), kind).value();
            jdbc.write("INSERT INTO yes_no_intent_view (id, locale_id, project_id, organisation_id, kind, rules, "
                            + "is_disabled, is_seeded, created_at, last_changed, created_by, last_changed_by) "
                            + "VALUES (?, ?, ?, ?, ?, '[]'::jsonb, false, false, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                    id, event.localeId(), event.projectId(), event.organisationId(), kind.wire(), event.createdAt(),
                    event.createdAt(), event.createdBy(), event.createdBy());
            insertSentences(id, event.localeId(), event.projectId(), event.organisationId(),
                    YesNoSeeds.sentences(YesNoIntentId.of(id), kind, event.nluLanguage()), event.createdAt());
        }
    }

    /** A new language gives a locale's unwritten yes/no intents that language's built-in sentences. */
    @EventHandler
    public void on(LocaleUpdatedEvent event) {
        if (!event.changedFields().contains("nluLanguage")) {
            return;
        }
        for (YesNoKind kind : YesNoKind.values()) {
            String id = YesNoIntentId.of(event.localeId(), kind).value();
            jdbc.write("DELETE FROM yes_no_sentence WHERE yes_no_intent_id = ? AND EXISTS (SELECT 1 FROM "
                    + "yes_no_intent_view WHERE id = ? AND NOT is_seeded)", id, id);
            jdbc.write("INSERT INTO yes_no_sentence (id, yes_no_intent_id, locale_id, project_id, organisation_id, text, "
                            + "created_at, last_changed) SELECT s.\"sentenceId\", ?, ?, ?, ?, s.text, ?, ? FROM "
                            + "jsonb_to_recordset(?::jsonb) AS s(\"sentenceId\" text, text text) WHERE EXISTS (SELECT 1 FROM "
                            + "yes_no_intent_view WHERE id = ? AND NOT is_seeded)",
                    id, event.localeId(), event.projectId(), event.organisationId(), event.changedAt(),
                    event.changedAt(), json(YesNoSeeds.sentences(YesNoIntentId.of(id), kind, event.nluLanguage())), id);
        }
    }

    /** The stored seed replaces the built-ins shown so far (they are the same unless the language changed since). */
    @EventHandler
    public void on(YesNoIntentSeededEvent event) {
        jdbc.write("UPDATE yes_no_intent_view SET is_seeded = true, last_changed = ?, last_changed_by = ? WHERE id = ?",
                event.seededAt(), event.seededBy(), event.yesNoIntentId());
        replaceSentences(event.yesNoIntentId(), event.localeId(), event.projectId(), event.organisationId(),
                event.sentences(), event.seededAt());
    }

    @EventHandler
    public void on(YesNoIntentUpdatedEvent event) {
        jdbc.write("UPDATE yes_no_intent_view SET rules = ?::jsonb, is_disabled = ?, last_changed = ?, "
                        + "last_changed_by = ? WHERE id = ?", json(event.rules()), event.disabled(), event.changedAt(),
                event.changedBy(), event.yesNoIntentId());
    }

    @EventHandler
    public void on(YesNoIntentResetEvent event) {
        jdbc.write("UPDATE yes_no_intent_view SET rules = '[]'::jsonb, is_disabled = false, last_changed = ?, "
                + "last_changed_by = ? WHERE id = ?", event.resetAt(), event.resetBy(), event.yesNoIntentId());
        replaceSentences(event.yesNoIntentId(), event.localeId(), event.projectId(), event.organisationId(),
                event.sentences(), event.resetAt());
    }

    @EventHandler
    public void on(YesNoSentenceCreatedEvent event) {
        jdbc.write("INSERT INTO yes_no_sentence (id, yes_no_intent_id, locale_id, project_id, organisation_id, text, "
                        + "created_at, last_changed) SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM "
                        + "yes_no_intent_view WHERE id = ?) ON CONFLICT (id) DO NOTHING", event.sentenceId(),
                event.yesNoIntentId(), event.localeId(), event.projectId(), event.organisationId(), event.text(),
                event.changedAt(), event.changedAt(), event.yesNoIntentId());
        touch(event.yesNoIntentId(), event.changedAt(), event.changedBy());
    }

    @EventHandler
    public void on(YesNoSentenceUpdatedEvent event) {
        jdbc.write("UPDATE yes_no_sentence SET text = ?, last_changed = ? WHERE id = ?", event.text(),
                event.changedAt(), event.sentenceId());
        touch(event.yesNoIntentId(), event.changedAt(), event.changedBy());
    }

    @EventHandler
    public void on(YesNoSentenceDeletedEvent event) {
        jdbc.write("DELETE FROM yes_no_sentence WHERE id = ?", event.sentenceId());
        touch(event.yesNoIntentId(), event.deletedAt(), event.deletedBy());
    }

    @EventHandler
    public void on(LocaleDeletedEvent event) {
        jdbc.write("DELETE FROM yes_no_sentence WHERE locale_id = ?", event.localeId());
        jdbc.write("DELETE FROM yes_no_intent_view WHERE locale_id = ?", event.localeId());
    }

    @EventHandler
    public void on(ProjectDeletedEvent event) {
        jdbc.write("DELETE FROM yes_no_sentence WHERE project_id = ?", event.projectId());
        jdbc.write("DELETE FROM yes_no_intent_view WHERE project_id = ?", event.projectId());
    }

    // ---- helpers

    private void touch(String intentId, long at, String by) {
        jdbc.write("UPDATE yes_no_intent_view SET last_changed = ?, last_changed_by = ? WHERE id = ?", at, by, intentId);
    }

    private void replaceSentences(String intentId, String localeId, String projectId, String organisationId,
                                  List<YesNoSentence> sentences, long at) {
        jdbc.write("DELETE FROM yes_no_sentence WHERE yes_no_intent_id = ?", intentId);
        jdbc.write("INSERT INTO yes_no_sentence (id, yes_no_intent_id, locale_id, project_id, organisation_id, text, "
                        + "created_at, last_changed) SELECT s.\"sentenceId\", ?, ?, ?, ?, s.text, ?, ? FROM "
                        + "jsonb_to_recordset(?::jsonb) AS s(\"sentenceId\" text, text text) WHERE EXISTS (SELECT 1 FROM "
                        + "yes_no_intent_view WHERE id = ?)",
                intentId, localeId, projectId, organisationId, at, at, json(sentences), intentId);
    }

    private void insertSentences(String intentId, String localeId, String projectId, String organisationId,
                                 List<YesNoSentence> sentences, long at) {
        jdbc.write("INSERT INTO yes_no_sentence (id, yes_no_intent_id, locale_id, project_id, organisation_id, text, "
                        + "created_at, last_changed) SELECT s.\"sentenceId\", ?, ?, ?, ?, s.text, ?, ? FROM "
                        + "jsonb_to_recordset(?::jsonb) AS s(\"sentenceId\" text, text text) ON CONFLICT (id) DO NOTHING",
                intentId, localeId, projectId, organisationId, at, at, json(sentences));
    }

    private static String json(Object value) {
        return Renderer.JSON.writeValueAsString(value);
    }
}
