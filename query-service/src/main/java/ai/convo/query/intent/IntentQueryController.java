package ai.convo.query.intent;

import ai.convo.contract.intent.IntentLocales;
import ai.convo.contract.intent.IntentRecord;
import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.problem.LearningSentences;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.consistency.ReadYourWrites;
import ai.convo.query.web.ListResponses;
import ai.convo.query.web.QueryParams;
import ai.convo.query.web.Reads;
import ai.convo.query.web.ResponseCache;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.KeysetLists;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.ListOf;
import ai.convo.query.web.list.Scope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Reads of intents and their example sentences. The intent list is the specification's "GET list of Intents
 * of a Flow": the common list parameters plus parent, includeChildren, includeFeedbackReport and
 * preferredLocaleId. includeFeedbackReport=true adds each item's (and nested child's) {@code feedbackReport} in
 * its localeReference, as kept up to date by {@link IntentFeedbackRefresher}; {@code null} while a change to the
 * flow's intents or sentences in that locale is not analysed yet (see feedback/FEEDBACK.md).
 */
@RestController
class IntentQueryController {

    /**
     * Sortable fields of the intent list and their SQL (each NOT NULL, each backed by an index of V4__intents.sql).
     * localeReference and sentenceCount are computed per request from preferredLocaleId, so they cannot be
     * sorted on from an index and are not offered.
     */
    static final ListDefinition INTENTS = new ListDefinition("intents", "intent_view", Map.ofEntries(
            Map.entry("_id", Column.text("id")),
            Map.entry("referenceId", Column.text("reference_id")),
            Map.entry("name", Column.text("lower(name)")),
            Map.entry("description", Column.text("lower(left(description, 200))")),
            Map.entry("tags", Column.text("tags_key")),
            Map.entry("isRejectIntent", Column.bool("is_reject_intent")),
            Map.entry("isDisabled", Column.bool("is_disabled")),
            Map.entry("parentIntentId", Column.text("parent_intent_id")),
            Map.entry("createdAt", Column.number("created_at")),
            Map.entry("lastChanged", Column.number("last_changed"))), "name");

    /** Sortable fields of the sentence list; {@code filter} searches the text. */
    static final ListDefinition SENTENCES = new ListDefinition("sentences", "sentence_view", Map.of(
            "_id", Column.text("id"),
            "text", Column.text("lower(left(text, 200))"),
            "localeReference", Column.text("locale_id"),
            "createdAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed")), "text");

    /**
     * Sortable fields of the learning-sentence list, the client's item fields. No table holds learning sentences
     * (see {@link #learningSentences}), so the columns are never queried; they only describe the list.
     */
    static final ListDefinition LEARNING_SENTENCES = new ListDefinition("learningSentences", "learning_sentences",
            Map.of("_id", Column.text("id"),
                    "sentence", Column.text("sentence"),
                    "confirmedCount", Column.number("confirmed_count"),
                    "rejectedCount", Column.number("rejected_count"),
                    "createdAt", Column.number("created_at"),
                    "lastChanged", Column.number("last_changed")), "sentence");

    private final Reads reads;
    private final ReadYourWrites consistency;
    private final KeysetLists lists;
    private final IntentReads intents;
    private final IntentFeedbackReads feedback;
    private final ResponseCache cache;

    public IntentQueryController(Reads reads, KeysetLists lists, ReadYourWrites consistency, IntentReads intents,
                                 IntentFeedbackReads feedback, ResponseCache cache) {
        this.reads = reads;
        this.consistency = consistency;
        this.cache = cache;
        this.lists = lists;
        this.intents = intents;
        this.feedback = feedback;
    }

    /**
     * The intents of a flow. Without includeChildren every intent (or, with {@code parent}, that intent's
     * children) is an ordinary item. With includeChildren the page lists the root intents (or the children of
     * {@code parent}) and nests all their descendants under {@code children}, recursively, in creation order.
     * Answers are cached until the flow's intents, sentences, feedback or any locale change ({@link ResponseCache}).
     */
    @ListOf("INTENTS")
    @GetMapping("/v2.0/flows/{flowId}/intents")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String flowId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("flowId", flowId);
        ListRequest request = ListRequest.parse(exchange, INTENTS.sortableFields());
        String parent = QueryParams.optionalId(exchange, "parent");
        boolean includeChildren = booleanParameter(exchange, "includeChildren");
        boolean feedbackReport = booleanParameter(exchange, "includeFeedbackReport");
        String preferred = QueryParams.optionalId(exchange, "preferredLocaleId");
        String org = caller.organisationId();

        Map<String, Object> binds = new HashMap<>(Map.of("org", org, "flow", flowId));
        StringBuilder where = new StringBuilder("organisation_id = :org AND flow_id = :flow");
        String level;
        if (parent != null) {
            where.append(" AND parent_intent_id = :parent");
            binds.put("parent", parent);
            level = "children:" + parent;
        } else if (includeChildren) {
            where.append(" AND parent_intent_id = ''");
            level = "roots";
        } else {
            level = "all";
        }
        // The whole flow and its roots have kept counts (V8); one parent's children are few and counted.
        String total = parent != null ? null : "SELECT " + (includeChildren ? "root_count" : "intent_count")
                + " AS total FROM intent_flow_view WHERE id = :flow AND organisation_id = :org";
        Scope scope = new Scope(where.toString(), binds, "intents|" + org + "|" + flowId + "|" + level, total);

        return cache.answer(exchange, org, media, new String[] {"flow:" + flowId, "locales"}, () -> intents.flowLocales(flowId, org, preferred, "preferredLocaleId")
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Flow " + flowId + " does not exist.")))
                .flatMap(locales -> parent == null ? Mono.just(locales) : intents.intentExists(flowId, parent, org)
                        .flatMap(ok -> ok ? Mono.just(locales) : Mono.error(ApiProblem.invalidParameter("parent",
                                "parent " + parent + " is not an intent of flow " + flowId + "."))))
                .flatMap(locales -> lists.page(INTENTS, scope, request, IntentRows::listItem)
                        .flatMap(page -> localize(flowId, org, page.items(), includeChildren, locales)
                                .flatMap(shown -> feedbackReport
                                        ? withFeedback(exchange, flowId, shown, ReadYourWrites.required(exchange)) : Mono.empty())
                                .thenReturn(page)))
                .map(page -> ListResponses.page(exchange, media, page)));
    }

    /**
     * Learning sentences are what the NLU learns from live conversations (with learnNewExampleSentences on); this
     * server runs no conversations, so a visible flow has none: an empty page in the list envelope, after the
     * parameters are checked like every list's. A flow that is not the caller's is a 404, an intentId that is not
     * one of the flow's a 400, as on the intent list's {@code parent}.
     */
    @ListOf("LEARNING_SENTENCES")
    @GetMapping("/v2.0/flows/{flowId}/intents/learningsentences")
    public Mono<ResponseEntity<byte[]>> learningSentences(ServerWebExchange exchange,
                                                          @AuthenticationPrincipal ApiPrincipal caller,
                                                          @PathVariable String flowId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("flowId", flowId);
        ListRequest request = ListRequest.parse(exchange, LEARNING_SENTENCES.sortableFields());
        String intentId = QueryParams.optionalId(exchange, "intentId");
        QueryParams.optionalId(exchange, "flowReferenceId");
        if (request.hasCursor()) {
            // This list never issues a cursor, so any cursor is one of another list's.
            throw ApiProblem.invalidParameter(request.next() != null ? "next" : "previous",
                    "This cursor was issued for a different list; use cursors from this list's own responses.");
        }
        String org = caller.organisationId();
        return reads.row(exchange, "flow_view", flowId, org, Map.of(), row -> Boolean.TRUE)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Flow " + flowId + " does not exist.")))
                .flatMap(flow -> intentId == null ? Mono.just(true) : intents.intentExists(flowId, intentId, org))
                .flatMap(ok -> ok ? Mono.just(new KeysetLists.Page(List.of(), 0, null, null))
                        : Mono.error(ApiProblem.invalidParameter("intentId",
                                "intentId " + intentId + " is not an intent of flow " + flowId + ".")))
                .map(page -> ListResponses.page(exchange, media, page));
    }

    /** The client's readLearningSentence: no id names one here (see {@link #learningSentences}). */
    @GetMapping("/v2.0/flows/{flowId}/intents/learningsentences/{learningSentenceId}")
    public Mono<ResponseEntity<byte[]>> learningSentence(ServerWebExchange exchange, @PathVariable String flowId,
                                                         @PathVariable String learningSentenceId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("flowId", flowId);
        QueryParams.pathId("learningSentenceId", learningSentenceId);
        ai.convo.query.web.AsOf.refuse(exchange, "learning sentences come from live conversations, which this server "
                + "does not run, so none has a past.");
        return Mono.error(LearningSentences.notFound(learningSentenceId));
    }

    /** One intent, the full record; {@code preferredLocaleId} chooses its localeReference as on the list. */
    @GetMapping("/v2.0/flows/{flowId}/intents/{intentId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String flowId, @PathVariable String intentId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("flowId", flowId);
        QueryParams.pathId("intentId", intentId);
        String preferred = QueryParams.optionalId(exchange, "preferredLocaleId");
        String org = caller.organisationId();
        return reads.row(exchange, "intent_view", intentId, org, Map.of("flow_id", flowId),
                        row -> Map.entry(row.get("project_id", String.class), IntentRows.intent(row)))
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Intent " + intentId + " does not exist in flow "
                        + flowId + ".")))
                .flatMap(found -> {
                    IntentRecord record = found.getValue();
                    return intents.locales(found.getKey(), org, preferred, "preferredLocaleId")
                            .flatMap(locales -> intents.sentenceCounts(List.of(record.id()), locales.all())
                                    .map(counts -> record.toWire(locales.resolve(
                                            counts.getOrDefault(record.id(), Map.of())).localeId())));
                })
                .map(body -> ApiResponses.ok(exchange, media, new Representation.Single("intent", body)));
    }

    /**
     * The example sentences of an intent, optionally only those of one locale: {@code localeId}, or
     * {@code preferredLocaleId}, the name the official client's indexSentences gives that parameter.
     */
    @ListOf("SENTENCES")
    @GetMapping("/v2.0/flows/{flowId}/intents/{intentId}/sentences")
    public Mono<ResponseEntity<byte[]>> sentences(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                  @PathVariable String flowId, @PathVariable String intentId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("flowId", flowId);
        QueryParams.pathId("intentId", intentId);
        ListRequest request = ListRequest.parse(exchange, SENTENCES.sortableFields());
        String localeId = sentenceLocale(exchange);
        refuseSentenceFeedback(exchange);
        String org = caller.organisationId();
        Map<String, Object> binds = new HashMap<>(Map.of("org", org, "intent", intentId));
        String where = "organisation_id = :org AND intent_id = :intent";
        if (localeId != null) {
            where += " AND locale_id = :locale";
            binds.put("locale", localeId);
        }
        Scope scope = new Scope(where, binds, "sentences|" + org + "|" + intentId + "|" + (localeId == null ? "" : localeId));
        return reads.page(exchange, media, SENTENCES, request, scope, IntentReads.intentOf(flowId, intentId, org),
                IntentRows::sentenceWire);
    }

    @GetMapping("/v2.0/flows/{flowId}/intents/{intentId}/sentences/{sentenceId}")
    public Mono<ResponseEntity<byte[]>> sentence(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                 @PathVariable String flowId, @PathVariable String intentId,
                                                 @PathVariable String sentenceId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("flowId", flowId);
        QueryParams.pathId("intentId", intentId);
        QueryParams.pathId("sentenceId", sentenceId);
        return reads.row(exchange, "sentence_view", sentenceId, caller.organisationId(),
                        Map.of("intent_id", intentId, "flow_id", flowId), IntentRows::sentenceWire)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Sentence " + sentenceId + " does not exist in intent "
                        + intentId + ".")))
                .map(body -> ApiResponses.ok(exchange, media, new Representation.Single("sentence", body)));
    }

    // ---- helpers

    /**
     * Fills in each item's localeReference and sentenceCount and, with includeChildren, nests the descendants.
     * One query for the subtree, one for the counts of every intent shown in the locales of the chain.
     */
    private Mono<List<Map<String, Object>>> localize(String flowId, String organisationId, List<Map<String, Object>> items,
                                boolean includeChildren, IntentReads.Locales locales) {
        List<String> pageIds = items.stream().map(item -> (String) item.get("_id")).toList();
        Mono<List<Map<String, Object>>> nested = includeChildren
                ? intents.descendants(flowId, organisationId, pageIds)
                : Mono.just(List.of());
        return nested.flatMap(descendants -> {
            List<Map<String, Object>> shown = new ArrayList<>(items);
            shown.addAll(descendants);
            Set<String> ids = new LinkedHashSet<>();
            shown.forEach(item -> ids.add((String) item.get("_id")));
            return intents.sentenceCounts(ids, locales.all()).map(counts -> {
                for (Map<String, Object> item : shown) {
                    IntentLocales.Resolved resolved = locales.resolve(counts.getOrDefault((String) item.get("_id"), Map.of()));
                    item.put("localeReference", resolved.localeId());
                    item.put("sentenceCount", resolved.sentenceCount());
                }
                if (includeChildren) {
                    nest(items, descendants);
                }
                return shown;
            });
        });
    }

    /**
     * Puts each shown intent's feedback report in its localeReference under {@code feedbackReport} (nested
     * children included): one query for the reports of all shown intents ({@link IntentFeedbackReads}).
     */
    private Mono<Void> withFeedback(ServerWebExchange exchange, String flowId, List<Map<String, Object>> shown,
                                    ReadYourWrites.Required required) {
        Set<String> ids = new LinkedHashSet<>();
        Set<String> localeIds = new LinkedHashSet<>();
        for (Map<String, Object> item : shown) {
            ids.add((String) item.get("_id"));
            if (item.get("localeReference") != null) {
                localeIds.add((String) item.get("localeReference"));
            }
        }
        return feedback.reports(flowId, ids, localeIds, required.position(), required.deadlineNanos())
                .onErrorMap(IntentFeedbackReads.ReportsPending.class, pending -> consistency.catchingUp(pending.position))
                .doOnNext(reports -> {
                    // a cached copy reflects the feedback only as far as this read waited for it
                    ResponseCache.reflectsAtMost(exchange, required.position() > 0 ? required.position()
                            : reports.dirtyLocales().isEmpty() ? Long.MAX_VALUE : 0);
            for (Map<String, Object> item : shown) {
                String locale = (String) item.get("localeReference");
                item.put("feedbackReport", locale == null ? null : reports.of((String) item.get("_id"), locale));
            }
        }).then();
    }

    /**
     * Puts every intent's children under {@code children} (leaves get an empty list). The descendants come in
     * creation order, so every children list is in creation order.
     */
    private static void nest(List<Map<String, Object>> items, List<Map<String, Object>> descendants) {
        Map<String, List<Map<String, Object>>> childrenOf = new HashMap<>();
        for (List<Map<String, Object>> level : List.of(items, descendants)) {
            for (Map<String, Object> item : level) {
                item.put("children", childrenOf.computeIfAbsent((String) item.get("_id"), id -> new ArrayList<>()));
            }
        }
        for (Map<String, Object> descendant : descendants) {
            List<Map<String, Object>> siblings = childrenOf.get((String) descendant.get("parentIntentId"));
            if (siblings != null) {
                siblings.add(descendant);
            }
        }
    }

    /** The locale a sentence list is limited to: localeId and preferredLocaleId name it alike; both must agree. */
    private static String sentenceLocale(ServerWebExchange exchange) {
        String localeId = QueryParams.optionalId(exchange, "localeId");
        String preferred = QueryParams.optionalId(exchange, "preferredLocaleId");
        if (localeId != null && preferred != null && !localeId.equals(preferred)) {
            throw ApiProblem.invalidParameter("preferredLocaleId", "localeId " + localeId + " and preferredLocaleId "
                    + preferred + " name different locales; give one of them.");
        }
        return localeId != null ? localeId : preferred;
    }

    /**
     * The official client may ask for sentence feedback reports; this server keeps feedback per intent only
     * (the intent list's includeFeedbackReport), so asking is a 400 that says where the reports are, rather than
     * a list silently without them.
     */
    private static void refuseSentenceFeedback(ServerWebExchange exchange) {
        if (booleanParameter(exchange, "includeFeedbackReport")) {
            throw ApiProblem.invalidParameter("includeFeedbackReport", "Feedback reports are kept per intent, not per "
                    + "example sentence; list the sentences without includeFeedbackReport (or with false), and read "
                    + "the intent's report from the intent list with includeFeedbackReport=true.");
        }
    }

    /** An optional boolean query parameter: true or false (any case); anything else is a 400 naming it. */
    static boolean booleanParameter(ServerWebExchange exchange, String name) {
        List<String> values = exchange.getRequest().getQueryParams().get(name);
        if (values == null || values.isEmpty()) {
            return false;
        }
        if (new LinkedHashSet<>(values).size() > 1) {
            throw ApiProblem.invalidParameter(name, name + " was given " + values.size()
                    + " times with different values; give it once.");
        }
        String value = values.get(0).trim().toLowerCase(Locale.ROOT);
        if (!value.equals("true") && !value.equals("false")) {
            String shown = values.get(0).length() > 40 ? values.get(0).substring(0, 40) + "..." : values.get(0);
            throw ApiProblem.invalidParameter(name, name + " must be true or false; got '" + shown + "'.");
        }
        return value.equals("true");
    }
}
