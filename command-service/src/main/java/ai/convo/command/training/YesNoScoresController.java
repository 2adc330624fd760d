package ai.convo.command.training;

import ai.convo.command.locale.LocaleLookup;
import ai.convo.command.project.ProjectLookup;
import ai.convo.command.web.Absent;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.project.ProjectSettingsUpdatedEvent;
import ai.convo.contract.settings.Settings;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoKind;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.persistence.upcasting.StoredEvents;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Beyond the vendor (whose Question nodes use the yes/no model at run time, with no route of their own): one
 * sentence read as yes, no or reject the way the project's settings say. {@code yesNoLogic} "yesNoIntents" (and
 * "yesNoIntentsWithRules", whose rules are scripts run against a conversation's input, which this API does not
 * run; the answer says so) ranks the locale's last trained yes/no model and answers the top kind when its
 * probability reaches {@code yesNoIntentThreshold}, else none; "confirmationWords" answers yes or no when the
 * sentence is one of the project's positive or negative confirmation words (case and surrounding space ignored).
 */
@RestController
class YesNoScoresController {

    private static final String SETTINGS = "SELECT aggregate_identifier, sequence_number, payload_type, "
            + "payload_revision, payload FROM domain_event_entry WHERE aggregate_identifier = ? AND payload_type = "
            + "'ai.convo.contract.project.ProjectSettingsUpdatedEvent' ORDER BY sequence_number";

    private final Commands commands;
    private final LocaleLookup locales;
    private final ProjectLookup projects;
    private final IntentModels models;
    private final JdbcTemplate jdbc;
    private final StoredEvents storedEvents;

    YesNoScoresController(Commands commands, LocaleLookup locales, ProjectLookup projects, IntentModels models,
                          JdbcTemplate jdbc, StoredEvents storedEvents) {
        this.commands = commands;
        this.locales = locales;
        this.projects = projects;
        this.models = models;
        this.jdbc = jdbc;
        this.storedEvents = storedEvents;
    }

    @PostMapping("/v2.0/locales/{localeId}/yesnointents/scores")
    public Mono<ResponseEntity<byte[]>> scores(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String localeId,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("localeId", localeId);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("sentence"));
        String sentence = body.requiredString("sentence", 1, NluScoresController.MAX_SENTENCE);
        body.validate();
        return commands.blocking(() -> {
            String projectId = locales.projectOf(localeId).orElseThrow(() -> Absent.of(LocaleId.class, localeId));
            try {
                projects.requireVisible(projectId, caller.actor());
            } catch (DomainException notVisible) {
                throw Absent.of(LocaleId.class, localeId);
            }
            return answer(projectId, localeId, sentence);
        }).map(answer -> ApiResponses.ok(exchange, media, new Representation.Single("scores", answer)));
    }

    private Map<String, Object> answer(String projectId, String localeId, String sentence) {
        Map<String, Object> settings = settingsOf(projectId);
        String logic = String.valueOf(Settings.PROJECT.value("yesNoLogic", settings));
        double threshold = ((Number) Settings.PROJECT.value("yesNoIntentThreshold", settings)).doubleValue();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("yesNoLogic", logic);
        if ("confirmationWords".equals(logic)) {
            String said = sentence.strip().toLowerCase(Locale.ROOT);
            String result = null;
            if (words(Settings.PROJECT.value("positiveConfirmationWords", settings)).contains(said)) {
                result = YesNoKind.YES.wire();
            } else if (words(Settings.PROJECT.value("negativeConfirmationWords", settings)).contains(said)) {
                result = YesNoKind.NO.wire();
            }
            answer.put("result", result);
            return answer;
        }
        String modelId = models.lastTrainedYesNo(YesNoIntentId.of(localeId, YesNoKind.YES).value()).orElseThrow(
                () -> DomainException.conflict("The yes/no intents of locale " + localeId + " have not been trained: "
                        + "train them first (POST /v2.0/locales/" + localeId + "/yesnointents/train).",
                        Map.of("localeId", localeId)));
        IntentModel model = models.model(modelId).orElseThrow(() -> DomainException.conflict("The last yes/no model "
                + "trained for locale " + localeId + " (" + modelId + ") is no longer stored; train the yes/no intents "
                + "again to derive it.", Map.of("localeId", localeId, "modelId", modelId)));
        List<Map<String, Object>> scores = new ArrayList<>();
        for (IntentModel.Score score : model.rank(sentence)) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("id", score.intentId());
            item.put("name", score.intentName());
            item.put("score", score.score());
            scores.add(item);
        }
        answer.put("threshold", threshold);
        answer.put("result", !scores.isEmpty() && ((Double) scores.get(0).get("score")) >= threshold
                ? scores.get(0).get("name") : null);
        if ("yesNoIntentsWithRules".equals(logic)) {
            answer.put("rulesEvaluated", false);
        }
        answer.put("scores", scores);
        answer.put("modelId", modelId);
        return answer;
    }

    /** The project's stored settings (dotted path to value), as its settings events leave them. */
    private Map<String, Object> settingsOf(String projectId) {
        Map<String, Object> settings = new HashMap<>();
        jdbc.query(SETTINGS, row -> {
            storedEvents.payloads(StoredEvents.row(null, row.getString(1), row.getLong(2), null, null,
                    row.getString(3), row.getString(4), row.getBytes(5), null)).forEach(event -> {
                        if (event instanceof ProjectSettingsUpdatedEvent e) {
                            settings.putAll(e.changed());
                        }
                    });
        }, projectId);
        return settings;
    }

    private static List<String> words(Object value) {
        List<String> words = new ArrayList<>();
        if (value instanceof List<?> list) {
            list.forEach(word -> words.add(String.valueOf(word).strip().toLowerCase(Locale.ROOT)));
        }
        return words;
    }
}
