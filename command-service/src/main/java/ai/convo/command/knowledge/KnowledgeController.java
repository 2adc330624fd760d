package ai.convo.command.knowledge;

import ai.convo.command.knowledge.ingest.ProcessKnowledgeSourceUrlWork;
import ai.convo.command.task.TaskRequests;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Ids;
import ai.convo.contract.knowledge.CreateKnowledgeSourceCommand;
import ai.convo.contract.knowledge.CreateKnowledgeStoreCommand;
import ai.convo.contract.knowledge.DeleteKnowledgeSourceCommand;
import ai.convo.contract.knowledge.DeleteKnowledgeStoreCommand;
import ai.convo.contract.knowledge.KnowledgeRules;
import ai.convo.contract.knowledge.KnowledgeSourceId;
import ai.convo.contract.knowledge.KnowledgeSourcePatch;
import ai.convo.contract.knowledge.KnowledgeSourceRecord;
import ai.convo.contract.knowledge.KnowledgeStoreId;
import ai.convo.contract.knowledge.KnowledgeStorePatch;
import ai.convo.contract.knowledge.KnowledgeStoreRecord;
import ai.convo.contract.knowledge.SourceStatus;
import ai.convo.contract.knowledge.SourceType;
import ai.convo.contract.knowledge.UpdateKnowledgeSourceCommand;
import ai.convo.contract.knowledge.UpdateKnowledgeStoreCommand;
import ai.convo.contract.locale.NluLanguage;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
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

/** Writes of knowledge stores and their sources, including the specification's source PATCH. */
@RestController
class KnowledgeController {

    private static final Set<String> STORE_FIELDS = Set.of("projectId", "name", "description", "language");
    private static final Set<String> STORE_PATCH_FIELDS = Set.of("name", "description");
    private static final Set<String> SOURCE_FIELDS = Set.of("name", "description", "type", "metaData", "data", "url");
    private static final Set<String> PATCH_FIELDS = Set.of("name", "description", "status", "metaData", "data");

    private final Commands commands;
    private final KnowledgeStoreLookup stores;
    private final TaskRequests tasks;

    public KnowledgeController(Commands commands, KnowledgeStoreLookup stores, TaskRequests tasks) {
        this.commands = commands;
        this.stores = stores;
        this.tasks = tasks;
    }

    @PostMapping("/v2.0/knowledgestores")
    public Mono<ResponseEntity<byte[]>> createStore(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                    @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(STORE_FIELDS);
        String projectId = body.requiredId("projectId");
        String name = body.requiredString("name", 1, KnowledgeRules.MAX_NAME_LENGTH);
        String description = body.optionalString("description", 0, KnowledgeRules.MAX_DESCRIPTION_LENGTH);
        NluLanguage language = body.requiredEnum("language", NluLanguage::fromCode, NluLanguage.codes());
        body.validate();
        KnowledgeStoreId storeId = KnowledgeStoreId.generate();
        long now = Clock.nowSeconds();
        CreateKnowledgeStoreCommand command = new CreateKnowledgeStoreCommand(storeId, ProjectId.of(projectId),
                caller.actor(), UUID.randomUUID().toString(), name, description == null ? "" : description, language, now);
        KnowledgeStoreRecord record = new KnowledgeStoreRecord(storeId.value(), command.referenceId(), name,
                command.description(), language.code(), projectId, now, now, caller.userId(), caller.userId());
        return commands.send(command, storeId.value())
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("knowledgeStore", record.toWire()),
                        exchange.getRequest().getPath().value() + "/" + storeId.value(), sent.position()));
    }

    /** The official client's updateKnowledgeStore: name and description; answers the full updated store. */
    @PatchMapping("/v2.0/knowledgestores/{knowledgeStoreId}")
    public Mono<ResponseEntity<byte[]>> updateStore(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                    @PathVariable String knowledgeStoreId,
                                                    @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("knowledgeStoreId", knowledgeStoreId);
        JsonBody body = JsonBody.parse(exchange, raw, false).allowOnly(STORE_PATCH_FIELDS);
        String name = body.optionalString("name", 1, KnowledgeRules.MAX_NAME_LENGTH);
        String description = body.optionalString("description", 0, KnowledgeRules.MAX_DESCRIPTION_LENGTH);
        body.validate();
        return commands.<KnowledgeStoreRecord>send(new UpdateKnowledgeStoreCommand(KnowledgeStoreId.of(knowledgeStoreId),
                        caller.actor(), new KnowledgeStorePatch(name, description), Clock.nowSeconds()), knowledgeStoreId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("knowledgeStore", sent.result().toWire()), null, sent.position()));
    }

    @DeleteMapping("/v2.0/knowledgestores/{knowledgeStoreId}")
    public Mono<ResponseEntity<byte[]>> deleteStore(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                    @PathVariable String knowledgeStoreId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("knowledgeStoreId", knowledgeStoreId);
        return commands.send(new DeleteKnowledgeStoreCommand(KnowledgeStoreId.of(knowledgeStoreId), caller.actor(),
                        Clock.nowSeconds()), knowledgeStoreId)
                .map(sent -> ApiResponses.noContent(sent.position()));
    }

    /**
     * Manual and ctxt sources answer {@code ready}; the others {@code ingesting}, until the ingestion step ends. The
     * answer is the official client's {@code {knowledgeSource, taskData}}. A url source with a URL is fetched and
     * ingested by a processKnowledgeSourceUrl Task, created with the source in one transaction: {@code taskData} is
     * that Task. Other sources carry no task ({@code taskData} is optional in the client's type): their status is
     * their progress.
     */
    @PostMapping("/v2.0/knowledgestores/{knowledgeStoreId}/sources")
    public Mono<ResponseEntity<byte[]>> createSource(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                     @PathVariable String knowledgeStoreId,
                                                     @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("knowledgeStoreId", knowledgeStoreId);
        KnowledgeBody body = KnowledgeBody.parse(exchange, raw, true, SOURCE_FIELDS);
        String name = body.scalars().requiredString("name", 1, KnowledgeRules.MAX_NAME_LENGTH);
        String description = body.scalars().optionalString("description", 0, KnowledgeRules.MAX_DESCRIPTION_LENGTH);
        SourceType type = body.scalars().requiredEnum("type", SourceType::fromCode, SourceType.codes());
        List<String> tags = body.optionalTags();
        Map<String, Object> data = body.optionalData();
        data = body.withUrl(type, data);
        body.validate();
        KnowledgeSourceId sourceId = KnowledgeSourceId.generate();
        long now = Clock.nowSeconds();
        CreateKnowledgeSourceCommand command = new CreateKnowledgeSourceCommand(sourceId,
                KnowledgeStoreId.of(knowledgeStoreId), caller.actor(), UUID.randomUUID().toString(), name,
                description == null ? "" : description, type, tags == null ? List.of() : tags,
                data == null ? Map.of() : data, now);
        KnowledgeSourceRecord record = new KnowledgeSourceRecord(sourceId.value(), command.referenceId(), name,
                command.description(), type.code(), type.initialStatus().code(), type.initialChunkCount(command.data()),
                command.tags(), command.data(), knowledgeStoreId, now, now, caller.userId(), caller.userId());
        String location = exchange.getRequest().getPath().value() + "/" + sourceId.value();
        if (type == SourceType.URL && command.data().get("url") instanceof String url) {
            TaskId taskId = TaskId.generate();
            Map<String, Object> parameters = new LinkedHashMap<>();
            parameters.put("knowledgeStoreId", knowledgeStoreId);
            parameters.put("sourceId", sourceId.value());
            parameters.put("url", url);
            return commands.blocking(() -> stores.requireVisible(knowledgeStoreId, caller.actor()))
                    .flatMap(store -> tasks.submit(ProjectId.of(store.projectId()), taskId,
                            ProcessKnowledgeSourceUrlWork.TYPE, parameters, caller.actor(), () -> command))
                    .map(submitted -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                            new Representation.Single("createdKnowledgeSource", Map.of("knowledgeSource",
                                    record.toWire(), "taskData", submitted.record())), location,
                            submitted.eventPosition()));
        }
        return commands.send(command, sourceId.value())
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("createdKnowledgeSource", Map.of("knowledgeSource", record.toWire())),
                        location, sent.position()));
    }

    /**
     * The specification's update: name, description, status (ready or disabled), metaData.tags (replaces the list)
     * and data (replaces the object). Answers the full record the command just wrote, and its event position.
     */
    @PatchMapping("/v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}")
    public Mono<ResponseEntity<byte[]>> updateSource(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                     @PathVariable String knowledgeStoreId, @PathVariable String sourceId,
                                                     @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("knowledgeStoreId", knowledgeStoreId);
        Ids.require("sourceId", sourceId);
        KnowledgeBody body = KnowledgeBody.parse(exchange, raw, false, PATCH_FIELDS);
        String name = body.scalars().optionalString("name", 1, KnowledgeRules.MAX_NAME_LENGTH);
        String description = body.scalars().optionalString("description", 0, KnowledgeRules.MAX_DESCRIPTION_LENGTH);
        SourceStatus status = body.scalars().optionalEnum("status", SourceStatus::fromCode, SourceStatus.codes());
        List<String> tags = body.optionalTags();
        Map<String, Object> data = body.optionalData();
        body.validate();
        UpdateKnowledgeSourceCommand command = new UpdateKnowledgeSourceCommand(KnowledgeSourceId.of(sourceId),
                KnowledgeStoreId.of(knowledgeStoreId), caller.actor(),
                new KnowledgeSourcePatch(name, description, status, tags, data), Clock.nowSeconds());
        return commands.<KnowledgeSourceRecord>send(command, sourceId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("knowledgeSource", sent.result().toWire()), null, sent.position()));
    }

    @DeleteMapping("/v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}")
    public Mono<ResponseEntity<byte[]>> deleteSource(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                     @PathVariable String knowledgeStoreId, @PathVariable String sourceId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("knowledgeStoreId", knowledgeStoreId);
        Ids.require("sourceId", sourceId);
        return commands.send(new DeleteKnowledgeSourceCommand(KnowledgeSourceId.of(sourceId),
                        KnowledgeStoreId.of(knowledgeStoreId), caller.actor(), Clock.nowSeconds()), sourceId)
                .map(sent -> ApiResponses.noContent(sent.position()));
    }
}
