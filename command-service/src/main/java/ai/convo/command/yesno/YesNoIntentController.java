package ai.convo.command.yesno;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.Ids;
import ai.convo.contract.yesno.CreateYesNoSentenceCommand;
import ai.convo.contract.yesno.DeleteYesNoIntentCommand;
import ai.convo.contract.yesno.DeleteYesNoSentenceCommand;
import ai.convo.contract.yesno.UpdateYesNoIntentCommand;
import ai.convo.contract.yesno.UpdateYesNoSentenceCommand;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoIntentRecord;
import ai.convo.contract.yesno.YesNoSentence;
import ai.convo.contract.yesno.YesNoTarget;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The official client's updateYesNoIntents, deleteYesNoIntents and the yes/no sentence writes. Reads are the
 * query service's. Deleting a yes/no intent resets it to its built-in sentences: a locale always has all three.
 */
@RestController
class YesNoIntentController {

    private static final String BASE = "/v2.0/locales/{localeId}/yesnointents/{yesNoIntentId}";

    private final Commands commands;
    private final YesNoTargets targets;

    YesNoIntentController(Commands commands, YesNoTargets targets) {
        this.commands = commands;
        this.targets = targets;
    }

    /** Answers the whole yes/no item. */
    @PatchMapping(BASE)
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String localeId, @PathVariable("yesNoIntentId") String intentId,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        requireIds(localeId, intentId);
        JsonBody body = JsonBody.parse(exchange, raw, false).allowOnly(Set.of("rules", "isDisabled"));
        Map<String, Object> errors = new LinkedHashMap<>();
        List<String> rules = rules(body.asMap().get("rules"), body.has("rules"), errors);
        Boolean disabled = body.optionalBoolean("isDisabled");
        body.validate(errors);
        Actor actor = caller.actor();
        long at = Clock.nowSeconds();
        return send(localeId, intentId, actor, target -> new UpdateYesNoIntentCommand(YesNoIntentId.of(intentId),
                target, actor, rules, disabled, at))
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media, new Representation.Single(
                        "yesNoIntent", ((YesNoIntentRecord) sent.result()).toWire()), null, sent.position()));
    }

    @DeleteMapping(BASE)
    public Mono<ResponseEntity<byte[]>> delete(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String localeId, @PathVariable("yesNoIntentId") String intentId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        requireIds(localeId, intentId);
        Actor actor = caller.actor();
        long at = Clock.nowSeconds();
        return send(localeId, intentId, actor, target -> new DeleteYesNoIntentCommand(YesNoIntentId.of(intentId),
                target, actor, at))
                .map(sent -> ApiResponses.noContent(sent.position()));
    }

    @PostMapping(BASE + "/sentences")
    public Mono<ResponseEntity<byte[]>> createSentence(ServerWebExchange exchange,
                                                       @AuthenticationPrincipal ApiPrincipal caller,
                                                       @PathVariable String localeId, @PathVariable("yesNoIntentId") String intentId,
                                                       @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        requireIds(localeId, intentId);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("text"));
        String text = body.requiredString("text", 1, YesNoIntentRecord.MAX_SENTENCE_LENGTH);
        body.validate();
        Actor actor = caller.actor();
        long at = Clock.nowSeconds();
        String sentenceId = Ids.newId();
        return send(localeId, intentId, actor, target -> new CreateYesNoSentenceCommand(YesNoIntentId.of(intentId),
                target, actor, sentenceId, text.strip(), at))
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("sentence", wire((YesNoSentence) sent.result())),
                        exchange.getRequest().getPath().value() + "/" + sentenceId, sent.position()));
    }

    @PatchMapping(BASE + "/sentences/{sentenceId}")
    public Mono<ResponseEntity<byte[]>> updateSentence(ServerWebExchange exchange,
                                                       @AuthenticationPrincipal ApiPrincipal caller,
                                                       @PathVariable String localeId, @PathVariable("yesNoIntentId") String intentId,
                                                       @PathVariable String sentenceId,
                                                       @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        requireIds(localeId, intentId);
        Ids.require("sentenceId", sentenceId);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("text"));
        String text = body.requiredString("text", 1, YesNoIntentRecord.MAX_SENTENCE_LENGTH);
        body.validate();
        Actor actor = caller.actor();
        long at = Clock.nowSeconds();
        return send(localeId, intentId, actor, target -> new UpdateYesNoSentenceCommand(YesNoIntentId.of(intentId),
                target, actor, sentenceId, text.strip(), at))
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("sentence", wire((YesNoSentence) sent.result())), null,
                        sent.position()));
    }

    @DeleteMapping(BASE + "/sentences/{sentenceId}")
    public Mono<ResponseEntity<byte[]>> deleteSentence(ServerWebExchange exchange,
                                                       @AuthenticationPrincipal ApiPrincipal caller,
                                                       @PathVariable String localeId, @PathVariable("yesNoIntentId") String intentId,
                                                       @PathVariable String sentenceId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        requireIds(localeId, intentId);
        Ids.require("sentenceId", sentenceId);
        Actor actor = caller.actor();
        long at = Clock.nowSeconds();
        return send(localeId, intentId, actor, target -> new DeleteYesNoSentenceCommand(YesNoIntentId.of(intentId),
                target, actor, sentenceId, at))
                .map(sent -> ApiResponses.noContent(sent.position()));
    }

    // ---- helpers

    /** Finds the target off the event loop (the locale must be the caller's), then sends the command to it. */
    private Mono<Commands.Sent<Object>> send(String localeId, String intentId, Actor actor,
                                             Function<YesNoTarget, Object> command) {
        return commands.blocking(() -> targets.find(localeId, intentId, actor))
                .flatMap(target -> commands.send(command.apply(target), intentId));
    }

    private static void requireIds(String localeId, String intentId) {
        Ids.require("localeId", localeId);
        Ids.require("yesNoIntentId", intentId);
    }

    private static Map<String, Object> wire(YesNoSentence sentence) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", sentence.sentenceId());
        wire.put("text", sentence.text());
        return wire;
    }

    /** rules: an array of at most MAX_RULES strings of 1 to MAX_RULE_LENGTH characters; null when absent. */
    private static List<String> rules(Object value, boolean present, Map<String, Object> errors) {
        if (!present) {
            return null;
        }
        String rule = "must be an array of at most " + YesNoIntentRecord.MAX_RULES + " strings of 1 to "
                + YesNoIntentRecord.MAX_RULE_LENGTH + " characters";
        if (!(value instanceof List<?> items)) {
            errors.put("rules", rule + "; got " + (value == null ? "null" : "a " + value.getClass().getSimpleName()));
            return null;
        }
        if (items.size() > YesNoIntentRecord.MAX_RULES) {
            errors.put("rules", rule + "; got " + items.size() + " items");
            return null;
        }
        List<String> rules = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            if (!(items.get(i) instanceof String text) || text.isBlank()
                    || text.length() > YesNoIntentRecord.MAX_RULE_LENGTH) {
                errors.put("rules", rule + " (not blank); item " + i + " is not");
                return null;
            }
            rules.add(text);
        }
        return rules;
    }
}
