package ai.convo.command.intent;

import ai.convo.command.flow.FlowLookup;
import ai.convo.command.web.BatchBody;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.BatchOperations;
import ai.convo.contract.common.BatchResult;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.AddIntentLocalizationCommand;
import ai.convo.contract.intent.BatchSentencesCommand;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.CreateIntentCommand;
import ai.convo.contract.intent.CreateSentenceCommand;
import ai.convo.contract.intent.DeleteIntentCommand;
import ai.convo.contract.intent.DeleteSentenceCommand;
import ai.convo.contract.intent.IntentBias;
import ai.convo.contract.intent.IntentContent;
import ai.convo.contract.intent.IntentId;
import ai.convo.contract.intent.IntentPatch;
import ai.convo.contract.intent.IntentRecord;
import ai.convo.contract.intent.RemoveIntentLocalizationCommand;
import ai.convo.contract.intent.SentenceId;
import ai.convo.contract.intent.SentenceOperation;
import ai.convo.contract.intent.SentenceRecord;
import ai.convo.contract.intent.UpdateIntentCommand;
import ai.convo.contract.intent.UpdateSentenceCommand;
import ai.convo.contract.locale.LocaleId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.problem.LearningSentences;
import ai.convo.http.security.ApiPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Writes of intents and their example sentences; reads are the query service's. */
@RestController
class IntentController {

    static final int NAME_MAX = 200;
    static final int DESCRIPTION_MAX = 1000;
    static final int TAGS_MAX = 10;
    static final int TAG_MAX = 30;
    static final int TEXT_MAX = 2000;
    static final int SENTENCE_LIST_MAX = 20;
    static final int DATA_MAX = 65_536;
    static final int CHILD_FEATURES_MAX = 100;

    private static final Set<String> CONTENT_FIELDS = Set.of("name", "description", "tags", "isRejectIntent",
            "isDisabled", "parentIntentId", "condition", "confirmationSentences", "disambiguationSentence", "rules",
            "data", "childFeatures", "biasTowardsParentOrChildIntents");
    private static final Set<String> PATCH_FIELDS = union(CONTENT_FIELDS, "localeId");
    private static final Set<String> SENTENCE_CREATE_FIELDS = Set.of("text", "localeId", "slots");
    // localeReference: the official client's type for the PATCH body requires it (the sentence's own locale).
    private static final Set<String> SENTENCE_PATCH_FIELDS = Set.of("text", "slots", "localeReference");
    private static final Set<String> SENTENCE_BATCH_FIELDS = Set.of("text", "slots", "localeReference", "localeId");
    private static final Set<String> SENTENCE_BATCH_SKIPPED = Set.of("_id", "createdAt", "lastChanged", "createdBy",
            "lastChangedBy", "feedbackReport");
    // what a read shows but a write does not take: sent back inside a batch value, they are skipped
    private static final Set<String> BATCH_SKIPPED = Set.of("_id", "referenceId", "createdAt", "lastChanged",
            "createdBy", "lastChangedBy", "localeReference", "feedbackReport");
    private static final String NO_SLOTS = "slot annotations of sentences are not supported";

    private final Commands commands;
    private final IntentLookup lookup;

    public IntentController(Commands commands, IntentLookup lookup) {
        this.commands = commands;
        this.lookup = lookup;
    }

    @PostMapping("/v2.0/flows/{flowId}/intents")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        refuseSentenceGeneration(exchange.getRequest().getQueryParams());
        CreateIntentCommand command = createCommand(exchange, raw, flowId, caller);
        IntentId intentId = command.intentId();
        IntentContent content = command.content();
        String name = content.name();
        String parent = content.parentIntentId() == null ? null : content.parentIntentId().value();
        long now = command.at();
        IntentRecord record = new IntentRecord(intentId.value(), command.referenceId(), name, content.description(),
                content.tags(), content.rejectIntent(), content.disabled(), parent, content.condition(),
                content.confirmationSentences(), content.disambiguationSentence(), content.rules(), content.data(),
                content.childFeatures(), content.bias() == null ? null : content.bias().code(), now, now,
                caller.userId(), caller.userId());
        // A new intent has no sentences: its localeReference is the project's primary locale.
        return commands.send(command, intentId.value())
                .flatMap(sent -> commands.blocking(() -> lookup.primaryLocaleOfIntent(intentId.value()))
                        .map(primary -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                                new Representation.Single("intent", record.toWire(primary.orElse(null))),
                                exchange.getRequest().getPath().value() + "/" + intentId.value(), sent.position())));
    }

    @PatchMapping("/v2.0/flows/{flowId}/intents/{intentId}")
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId, @PathVariable String intentId,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("intentId", intentId);
        UpdateIntentCommand command = updateCommand(exchange, raw, flowId, intentId, caller);
        String localeId = command.localeId() == null ? null : command.localeId().value();
        return commands.<IntentResult>send(command, intentId)
                .flatMap(sent -> commands.blocking(() -> lookup.resolveLocale(sent.result().projectId(), localeId,
                                sent.result().sentencesPerLocale()))
                        .map(locale -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                                new Representation.Single("intent", sent.result().record().toWire(locale.localeId())),
                                null, sent.position())));
    }

    /**
     * The official client's batchIntents: creates, updates and deletes of a flow's intents, each read as its own
     * request would be and sent as its own command, all in one transaction (Commands#sendTogether): a later operation
     * sees an earlier one (a child of an intent the batch creates, a name another operation gave up), and all of them
     * are stored or none. Answers {created, updated, deleted}.
     */
    @PatchMapping("/v2.0/flows/{flowId}/intents")
    public Mono<ResponseEntity<byte[]>> batch(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                              @PathVariable String flowId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        BatchBody batch = BatchBody.parse(JsonBody.parse(exchange, raw, true), PATCH_FIELDS, BATCH_SKIPPED);
        List<Object> operations = batch.read((o, value) -> switch (o.op()) {
            case CREATE -> {
                if (o.value().containsKey("localeId")) {
                    throw ApiProblem.badRequest("localeId", Map.of("localeId",
                            "is for an update (the locale its answer shows); a create takes none"));
                }
                yield createCommand(exchange, value, flowId, caller);
            }
            case UPDATE -> updateCommand(exchange, value, flowId, o.id(), caller);
            case DELETE -> new DeleteIntentCommand(IntentId.of(o.id()), FlowId.of(flowId), caller.actor(),
                    Clock.nowSeconds());
        });
        List<String> ids = batch.ids(operations, command -> ((CreateIntentCommand) command).intentId().value());
        return commands.blocking(() -> {
                    // deleting an intent also changes its children (they become root intents)
                    List<String> touched = new ArrayList<>(ids);
                    batch.operations().stream().filter(o -> o.op() == BatchOperations.Op.DELETE)
                            .forEach(o -> touched.addAll(lookup.childrenOf(o.id())));
                    return touched;
                })
                .flatMap(touched -> commands.sendTogether(operations, batch.labels(), touched))
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("batch", BatchBody.wire(batch.result(ids))), null,
                        sent.position()));
    }

    /**
     * The official client's addIntentLocalization: copies the intent's sentences of {@code inheritFromLocaleId} into
     * {@code localeId} (those it lacks there). Translating them on the way needs a translation provider this server
     * does not have: {@code intentTranslationSettings} answers 501. Answers {} like the client's type.
     */
    @PostMapping("/v2.0/flows/{flowId}/intents/{intentId}/addlocalization")
    public Mono<ResponseEntity<byte[]>> addLocalization(ServerWebExchange exchange,
                                                        @AuthenticationPrincipal ApiPrincipal caller,
                                                        @PathVariable String flowId, @PathVariable String intentId,
                                                        @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("intentId", intentId);
        AddIntentLocalizationCommand command = addedLocale(exchange, raw).command(intentId, flowId, caller);
        return commands.send(command, intentId).map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                new Representation.Single("localization", Map.of()), null, sent.position()));
    }

    /** The official client's removeIntentLocalization: deletes the intent's sentences of {@code localeId}. */
    @PostMapping("/v2.0/flows/{flowId}/intents/{intentId}/removelocalization")
    public Mono<ResponseEntity<byte[]>> removeLocalization(ServerWebExchange exchange,
                                                           @AuthenticationPrincipal ApiPrincipal caller,
                                                           @PathVariable String flowId, @PathVariable String intentId,
                                                           @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("intentId", intentId);
        LocaleId localeId = removedLocale(exchange, raw);
        return commands.send(new RemoveIntentLocalizationCommand(IntentId.of(intentId), FlowId.of(flowId),
                        caller.actor(), localeId, Clock.nowSeconds()), intentId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("localization", Map.of()), null, sent.position()));
    }

    /**
     * The official client's addFlowLocalization and removeFlowLocalization. A flow's localized content here is its
     * intents' example sentences, so they localize every intent of the flow, in one transaction.
     */
    @PostMapping({"/v2.0/flows/{flowId}/addlocalization", "/v2.0/flows/{flowId}/removelocalization"})
    public Mono<ResponseEntity<byte[]>> flowLocalization(ServerWebExchange exchange,
                                                         @AuthenticationPrincipal ApiPrincipal caller,
                                                         @PathVariable String flowId,
                                                         @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        boolean add = exchange.getRequest().getPath().value().endsWith("/addlocalization");
        AddedLocale added = add ? addedLocale(exchange, raw) : null;
        LocaleId locale = add ? added.localeId() : removedLocale(exchange, raw);
        return commands.blocking(() -> {
                    FlowLookup.Flow flow = lookup.requireVisibleFlow(flowId, caller.actor());
                    if (!lookup.projectOfLocale(locale.value()).map(flow.projectId()::equals).orElse(false)) {
                        throw DomainException.invalid("localeId", "localeId " + locale.value()
                                + " is not a locale of this flow's project.");
                    }
                    return lookup.intentsOf(flowId);
                })
                .flatMap(intents -> {
                    List<Object> each = intents.stream().<Object>map(id -> add ? added.command(id, flowId, caller)
                            : new RemoveIntentLocalizationCommand(IntentId.of(id), FlowId.of(flowId), caller.actor(),
                                    locale, Clock.nowSeconds())).toList();
                    return commands.sendTogether(each, intents.stream().map(id -> "intent " + id).toList(), intents);
                })
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("localization", Map.of()), null, sent.position()));
    }

    /** An addlocalization body: the locale to add, and the one its sentences are copied from (or none). */
    private record AddedLocale(LocaleId localeId, LocaleId inheritFrom) {

        AddIntentLocalizationCommand command(String intentId, String flowId, ApiPrincipal caller) {
            return new AddIntentLocalizationCommand(IntentId.of(intentId), FlowId.of(flowId), caller.actor(), localeId,
                    inheritFrom, Clock.nowSeconds());
        }
    }

    private static AddedLocale addedLocale(ServerWebExchange exchange, byte[] raw) {
        JsonBody body = JsonBody.parse(exchange, raw, true)
                .allowOnly(Set.of("localeId", "inheritFromLocaleId", "intentTranslationSettings"));
        String localeId = body.requiredId("localeId");
        String from = body.optionalId("inheritFromLocaleId");
        body.validate();
        if (body.has("intentTranslationSettings") && !body.isNull("intentTranslationSettings")) {
            throw new ApiProblem(HttpStatus.NOT_IMPLEMENTED, "Translating sentences needs a translation provider, "
                    + "which this server does not have; add the localization without intentTranslationSettings "
                    + "(the sentences are copied untranslated).",
                    Map.of("intentTranslationSettings", "translation is not available"));
        }
        return new AddedLocale(LocaleId.of(localeId), from == null ? null : LocaleId.of(from));
    }

    private static LocaleId removedLocale(ServerWebExchange exchange, byte[] raw) {
        // the client's type for removeFlowLocalization repeats flowId in the body
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("localeId", "flowId"));
        String localeId = body.requiredId("localeId");
        body.validate();
        return LocaleId.of(localeId);
    }

    /** A create as POST .../intents reads it. */
    private static CreateIntentCommand createCommand(ServerWebExchange exchange, byte[] raw, String flowId,
                                                     ApiPrincipal caller) {
        IntentBody body = IntentBody.parse(exchange, raw, true, CONTENT_FIELDS);
        JsonBody scalars = body.scalars();
        String name = scalars.requiredString("name", 1, NAME_MAX);
        Fields fields = fields(body);
        String parent = scalars.optionalId("parentIntentId");
        body.validate();
        IntentContent content = new IntentContent(name, or(fields.description, ""), or(fields.tags, List.of()),
                Boolean.TRUE.equals(fields.reject), Boolean.TRUE.equals(fields.disabled),
                parent == null ? null : IntentId.of(parent), or(fields.condition, ""), or(fields.confirmations, List.of()),
                or(fields.disambiguation, ""), or(fields.rules, List.of()), or(fields.data, Map.of()),
                or(fields.childFeatures, ChildFeatures.NONE), fields.bias);
        return new CreateIntentCommand(IntentId.generate(), FlowId.of(flowId), caller.actor(),
                UUID.randomUUID().toString(), content, Clock.nowSeconds());
    }

    /** An update as PATCH .../intents/{intentId} reads it. */
    private static UpdateIntentCommand updateCommand(ServerWebExchange exchange, byte[] raw, String flowId,
                                                     String intentId, ApiPrincipal caller) {
        IntentBody body = IntentBody.parse(exchange, raw, false, PATCH_FIELDS);
        JsonBody scalars = body.scalars();
        String name = scalars.optionalString("name", 1, NAME_MAX);
        Fields fields = fields(body);
        String parent = scalars.optionalId("parentIntentId");
        String localeId = scalars.optionalId("localeId");
        body.validate();
        IntentPatch patch = new IntentPatch(name, fields.description, fields.tags, fields.reject, fields.disabled,
                body.has("parentIntentId"), parent == null ? null : IntentId.of(parent), fields.condition,
                fields.confirmations, fields.disambiguation, fields.rules, fields.data, fields.childFeatures,
                body.has("biasTowardsParentOrChildIntents"), fields.bias);
        return new UpdateIntentCommand(IntentId.of(intentId), FlowId.of(flowId), caller.actor(), patch,
                localeId == null ? null : LocaleId.of(localeId), Clock.nowSeconds());
    }

    /** The client's deleteLearningSentence: there are none here (see the query service's learning-sentence reads). */
    @DeleteMapping("/v2.0/flows/{flowId}/intents/learningsentences/{learningSentenceId}")
    public Mono<ResponseEntity<byte[]>> deleteLearningSentence(ServerWebExchange exchange, @PathVariable String flowId,
                                                               @PathVariable String learningSentenceId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("learningSentenceId", learningSentenceId);
        return Mono.error(LearningSentences.notFound(learningSentenceId));
    }

    /** Deletes the intent and its sentences; its children become root intents in the same transaction. */
    @DeleteMapping("/v2.0/flows/{flowId}/intents/{intentId}")
    public Mono<ResponseEntity<byte[]>> delete(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId, @PathVariable String intentId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("intentId", intentId);
        DeleteIntentCommand command = new DeleteIntentCommand(IntentId.of(intentId), FlowId.of(flowId), caller.actor(),
                Clock.nowSeconds());
        return commands.blocking(() -> lookup.childrenOf(intentId))
                .flatMap(children -> {
                    List<String> touched = new ArrayList<>(children);
                    touched.add(intentId);
                    return commands.send(command, touched.toArray(String[]::new));
                })
                .map(sent -> ApiResponses.noContent(sent.position()));
    }

    // ---- example sentences

    @PostMapping("/v2.0/flows/{flowId}/intents/{intentId}/sentences")
    public Mono<ResponseEntity<byte[]>> createSentence(ServerWebExchange exchange,
                                                       @AuthenticationPrincipal ApiPrincipal caller,
                                                       @PathVariable String flowId, @PathVariable String intentId,
                                                       @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("intentId", intentId);
        IntentBody body = IntentBody.parse(exchange, raw, true, SENTENCE_CREATE_FIELDS);
        String text = body.scalars().requiredString("text", 1, TEXT_MAX);
        String localeId = body.scalars().requiredId("localeId");
        body.onlyEmptyArray("slots", NO_SLOTS);
        body.validate();
        SentenceId sentenceId = SentenceId.generate();
        CreateSentenceCommand command = new CreateSentenceCommand(IntentId.of(intentId), FlowId.of(flowId), sentenceId,
                caller.actor(), text, LocaleId.of(localeId), Clock.nowSeconds());
        return commands.<SentenceRecord>send(command, intentId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("sentence", sent.result().toWire()),
                        exchange.getRequest().getPath().value() + "/" + sentenceId.value(), sent.position()));
    }

    /**
     * The official client's batchIntentSentences: creates, updates and deletes of one intent's sentences, all in one
     * command, so all of them or none are stored. Answers {created, updated, deleted} with the ids, in operation order.
     * A create names its locale as {@code localeReference} (the sentence's field) or {@code localeId}.
     */
    @PatchMapping("/v2.0/flows/{flowId}/intents/{intentId}/sentences")
    public Mono<ResponseEntity<byte[]>> batchSentences(ServerWebExchange exchange,
                                                       @AuthenticationPrincipal ApiPrincipal caller,
                                                       @PathVariable String flowId, @PathVariable String intentId,
                                                       @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("intentId", intentId);
        BatchBody batch = BatchBody.parse(JsonBody.parse(exchange, raw, true), SENTENCE_BATCH_FIELDS,
                SENTENCE_BATCH_SKIPPED);
        List<SentenceOperation> operations = new ArrayList<>();
        for (BatchBody.Operation o : batch.operations()) {
            Object slots = o.value().get("slots");
            if (slots != null && !(slots instanceof List<?> list && list.isEmpty())) {
                batch.problem(o, "slots", NO_SLOTS + "; send an empty list or leave it out");
            }
            switch (o.op()) {
                case CREATE -> {
                    String text = batch.string(o, "text", 1, TEXT_MAX, true);
                    boolean both = o.value().containsKey("localeId") && o.value().containsKey("localeReference");
                    String locale = batch.id(o, o.value().containsKey("localeId") ? "localeId" : "localeReference", true);
                    if (both) {
                        batch.problem(o, "localeId", "name the locale once: localeReference or localeId");
                    }
                    operations.add(new SentenceOperation(BatchOperations.Op.CREATE, SentenceId.generate(), text,
                            locale == null ? null : LocaleId.of(locale)));
                }
                case UPDATE -> {
                    String text = batch.string(o, "text", 1, TEXT_MAX, false);
                    String locale = batch.id(o, "localeReference", false);
                    if (o.value().containsKey("localeId")) {
                        batch.problem(o, "localeId", "a sentence's locale is fixed; an update may only name it as "
                                + "localeReference");
                    }
                    operations.add(new SentenceOperation(BatchOperations.Op.UPDATE, SentenceId.of(o.id()), text,
                            locale == null ? null : LocaleId.of(locale)));
                }
                case DELETE -> operations.add(new SentenceOperation(BatchOperations.Op.DELETE, SentenceId.of(o.id()),
                        null, null));
            }
        }
        batch.validate();
        return commands.<BatchResult>send(new BatchSentencesCommand(IntentId.of(intentId), FlowId.of(flowId),
                        caller.actor(), operations, Clock.nowSeconds()), intentId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("batch", BatchBody.wire(sent.result())), null, sent.position()));
    }

    @PatchMapping("/v2.0/flows/{flowId}/intents/{intentId}/sentences/{sentenceId}")
    public Mono<ResponseEntity<byte[]>> updateSentence(ServerWebExchange exchange,
                                                       @AuthenticationPrincipal ApiPrincipal caller,
                                                       @PathVariable String flowId, @PathVariable String intentId,
                                                       @PathVariable String sentenceId,
                                                       @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("intentId", intentId);
        Ids.require("sentenceId", sentenceId);
        IntentBody body = IntentBody.parse(exchange, raw, false, SENTENCE_PATCH_FIELDS);
        String text = body.scalars().optionalString("text", 1, TEXT_MAX);
        String localeReference = body.scalars().optionalId("localeReference");
        body.onlyEmptyArray("slots", NO_SLOTS);
        body.validate();
        UpdateSentenceCommand command = new UpdateSentenceCommand(IntentId.of(intentId), FlowId.of(flowId),
                SentenceId.of(sentenceId), caller.actor(), text,
                localeReference == null ? null : LocaleId.of(localeReference), Clock.nowSeconds());
        return commands.<SentenceRecord>send(command, intentId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("sentence", sent.result().toWire()), null, sent.position()));
    }

    @DeleteMapping("/v2.0/flows/{flowId}/intents/{intentId}/sentences/{sentenceId}")
    public Mono<ResponseEntity<byte[]>> deleteSentence(ServerWebExchange exchange,
                                                       @AuthenticationPrincipal ApiPrincipal caller,
                                                       @PathVariable String flowId, @PathVariable String intentId,
                                                       @PathVariable String sentenceId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("intentId", intentId);
        Ids.require("sentenceId", sentenceId);
        return commands.send(new DeleteSentenceCommand(IntentId.of(intentId), FlowId.of(flowId), SentenceId.of(sentenceId),
                        caller.actor(), Clock.nowSeconds()), intentId)
                .map(sent -> ApiResponses.noContent(sent.position()));
    }

    // ---- body fields shared by create and update

    /** The optional fields of an intent body, null when absent. */
    record Fields(String description, List<String> tags, Boolean reject, Boolean disabled, String condition,
                          List<String> confirmations, String disambiguation, List<String> rules, Map<String, Object> data,
                          ChildFeatures childFeatures, IntentBias bias) {
    }

    static Fields fields(IntentBody body) {
        JsonBody scalars = body.scalars();
        String description = scalars.optionalString("description", 0, DESCRIPTION_MAX);
        List<String> tags = body.optionalStrings("tags", TAGS_MAX, 1, TAG_MAX);
        Boolean reject = scalars.optionalBoolean("isRejectIntent");
        Boolean disabled = scalars.optionalBoolean("isDisabled");
        String condition = scalars.optionalString("condition", 0, TEXT_MAX);
        List<String> confirmations = body.optionalStrings("confirmationSentences", SENTENCE_LIST_MAX, 1, TEXT_MAX);
        String disambiguation = scalars.optionalString("disambiguationSentence", 0, TEXT_MAX);
        List<String> rules = body.optionalStrings("rules", SENTENCE_LIST_MAX, 1, TEXT_MAX);
        Map<String, Object> data = body.optionalObject("data", DATA_MAX);
        ChildFeatures childFeatures = body.optionalChildFeatures("childFeatures", CHILD_FEATURES_MAX);
        IntentBias bias = scalars.isNull("biasTowardsParentOrChildIntents") ? null
                : scalars.optionalEnum("biasTowardsParentOrChildIntents", IntentBias::fromCode, IntentBias.codes());
        return new Fields(description, tags, reject, disabled, condition, confirmations, disambiguation, rules, data,
                childFeatures, bias);
    }

    /**
     * The official client may ask to generate example sentences on create; that needs an NLU service this
     * server does not have. The parameters are validated, and asking for generation is a 501.
     */
    private static void refuseSentenceGeneration(MultiValueMap<String, String> query) {
        String limit = query.getFirst("generateSentenceLimit");
        if (limit != null && !limit.isEmpty()) {
            Long value = ai.convo.http.param.WholeNumbers.parse(limit);
            if (value == null || value < 5 || value > 20) {
                throw ApiProblem.invalidParameter("generateSentenceLimit",
                        "generateSentenceLimit must be an integer from 5 to 20; got '" + abbreviate(limit) + "'.");
            }
        }
        String generate = query.getFirst("shouldGenerateSentences");
        if (generate == null || generate.isEmpty() || generate.equalsIgnoreCase("false")) {
            return;
        }
        if (!generate.equalsIgnoreCase("true")) {
            throw ApiProblem.invalidParameter("shouldGenerateSentences",
                    "shouldGenerateSentences must be true or false; got '" + abbreviate(generate) + "'.");
        }
        throw new ApiProblem(HttpStatus.NOT_IMPLEMENTED, "Generating example sentences is not available on this "
                + "server; create the intent without shouldGenerateSentences and add sentences yourself.",
                Map.of("shouldGenerateSentences", "generation is not available"));
    }

    private static <T> T or(T value, T fallback) {
        return value == null ? fallback : value;
    }

    private static Set<String> union(Set<String> fields, String... more) {
        Set<String> all = new java.util.HashSet<>(fields);
        all.addAll(List.of(more));
        return Set.copyOf(all);
    }

    private static String abbreviate(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }
}
