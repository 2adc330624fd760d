package ai.convo.command.knowledge;

import ai.convo.command.knowledge.ingest.DocumentText;
import ai.convo.command.knowledge.ingest.ProcessKnowledgeSourceFileWork;
import ai.convo.command.task.TaskRequests;
import ai.convo.command.task.TaskSubmitter;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.command.web.UploadForm;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.Ids;
import ai.convo.contract.knowledge.KnowledgeRules;
import ai.convo.contract.knowledge.KnowledgeSourceDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceIngestionFailedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceId;
import ai.convo.contract.knowledge.KnowledgeStoreId;
import ai.convo.contract.knowledge.ReceiveKnowledgeSourceFileCommand;
import ai.convo.contract.knowledge.SourceType;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Representation;
import ai.convo.http.media.Negotiation;
import ai.convo.http.openapi.BodyMedia;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import java.security.MessageDigest;
import java.time.Duration;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.tika.mime.MediaType;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official client's uploadKnowledgeSourceFile: multipart {@code file} (its type detected from its content, never
 * its name: the Node client names every file fake.txt) and optional {@code tags}. The source is created
 * {@code ingesting} and a processKnowledgeSourceFile Task ingests it, both in one transaction; the answer is the
 * Task (202). A file of a type not read here, or an empty one, is a 4xx at once and nothing is stored. The same bytes
 * under the same name into the same store again within {@code app.knowledge.upload.idempotency-window} (10 min),
 * while that source is neither deleted nor failed, answer the first upload's Task and create nothing: the client
 * retries every 5xx, and a retried upload must not make two sources.
 */
@RestController
class KnowledgeUploadController {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Map<String, String> REQUIRED = Map.of("file", "the document: " + DocumentText.ACCEPTED);
    /** The Node client also sends every argument as a field: the store's id among them. */
    private static final Set<String> OPTIONAL = Set.of("tags", "fileName", "knowledgeStoreId");

    private final Commands commands;
    private final KnowledgeStoreLookup stores;
    private final TaskRequests tasks;
    private final DocumentText documents;
    private final JdbcTemplate jdbc;
    private final CommandGateway gateway;
    private final Duration idempotencyWindow;

    KnowledgeUploadController(Commands commands, KnowledgeStoreLookup stores, TaskRequests tasks,
                              DocumentText documents, JdbcTemplate jdbc, CommandGateway gateway,
                              @Value("${app.knowledge.upload.idempotency-window:10m}") Duration idempotencyWindow) {
        this.commands = commands;
        this.stores = stores;
        this.tasks = tasks;
        this.documents = documents;
        this.jdbc = jdbc;
        this.gateway = gateway;
        this.idempotencyWindow = idempotencyWindow;
    }

    @BodyMedia("multipart/form-data")
    @PostMapping("/v2.0/knowledgestores/{knowledgeStoreId}/sources/upload")
    public Mono<ResponseEntity<byte[]>> upload(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String knowledgeStoreId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("knowledgeStoreId", knowledgeStoreId);
        Actor actor = caller.actor();
        int maxBytes = (int) documents.limits().maxBytes();
        return UploadForm.read(exchange, REQUIRED, OPTIONAL, maxBytes).flatMap(form -> {
            String pathStore = form.field("knowledgeStoreId");
            if (pathStore != null && !pathStore.isEmpty() && !pathStore.equals(knowledgeStoreId)) {
                throw ApiProblem.invalidParameter("knowledgeStoreId", "The field knowledgeStoreId differs from the "
                        + "store in the path; send the same one, or leave the field out.");
            }
            byte[] file = form.file();
            if (file.length == 0) {
                throw ApiProblem.invalidParameter("file", "The uploaded file is empty.");
            }
            List<String> tags = tags(form.field("tags"));
            String name = name(form.field("fileName"), form.fileName());
            TaskId taskId = TaskId.generate();
            KnowledgeSourceId sourceId = KnowledgeSourceId.generate();
            return commands.blocking(() -> {
                MediaType detected = documents.detect(file);
                SourceType type = DocumentText.typeOf(detected, file).orElseThrow(() -> new ApiProblem(
                        HttpStatus.UNSUPPORTED_MEDIA_TYPE, "The file's content is " + detected + ", which is not read "
                        + "here (the type is told from the content, not the name); accepted: " + DocumentText.ACCEPTED
                        + ".", Map.of("file", "detected " + detected)));
                KnowledgeStoreLookup.Store store = stores.requireVisible(knowledgeStoreId, actor);
                return new Received(store, type, detected.toString());
            }).flatMap(received -> {
                String sha256 = sha256(file);
                Map<String, Object> parameters = new LinkedHashMap<>();
                parameters.put("knowledgeStoreId", knowledgeStoreId);
                parameters.put("sourceId", sourceId.value());
                parameters.put("fileName", name);
                parameters.put("type", received.type().code());
                parameters.put("mediaType", received.mediaType());
                parameters.put("bytes", file.length);
                parameters.put("sha256", sha256);
                return tasks.inTransaction(submitter -> {
                    // Uploads of one file to one store are decided one at a time, so twenty copies of a request
                    // (the client retries every 5xx) find the first one's row, not each other's absence.
                    jdbc.query("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", rs -> null,
                            knowledgeStoreId + ":" + sha256);
                    Accepted earlier = earlier(knowledgeStoreId, sha256, name);
                    if (earlier != null) {
                        return earlier;
                    }
                    gateway.sendAndWait(new ReceiveKnowledgeSourceFileCommand(sourceId,
                            KnowledgeStoreId.of(knowledgeStoreId), actor, UUID.randomUUID().toString(), name,
                            received.type(), tags, Clock.nowSeconds()));
                    TaskSubmitter.Submitted submitted = submitter.submit(taskId, ProcessKnowledgeSourceFileWork.TYPE,
                            ProjectId.of(received.store().projectId()), parameters, actor);
                    jdbc.update("INSERT INTO cmd_knowledge_upload (task_id, source_id, store_id, sha256, media_type, "
                            + "content, received_at, file_name, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            taskId.value(), sourceId.value(), knowledgeStoreId, sha256, received.mediaType(), file,
                            Clock.nowSeconds(), name, JSON.writeValueAsString(submitted.record()));
                    return new Accepted(taskId, submitted.record(), submitted.eventPosition());
                });
            }).map(accepted -> ApiResponses.respond(exchange, HttpStatus.ACCEPTED, media,
                    new Representation.Single("task", accepted.record()), TaskRequests.location(exchange,
                            accepted.taskId()), accepted.eventPosition()));
        });
    }

    private record Accepted(TaskId taskId, Map<String, Object> record, Long eventPosition) {
    }

    /**
     * The same file (bytes and name) accepted into the same store within the window, while its source is still there
     * and not failed: its Task as first answered. A deleted or failed source is uploaded anew.
     */
    @SuppressWarnings("unchecked")
    private Accepted earlier(String storeId, String sha256, String name) {
        List<Map<String, Object>> rows = jdbc.queryForList("SELECT u.task_id, u.answer FROM cmd_knowledge_upload u "
                + "WHERE u.store_id = ? AND u.sha256 = ? AND u.file_name = ? AND u.received_at >= ? "
                + "AND u.answer IS NOT NULL AND NOT EXISTS (SELECT 1 FROM domain_event_entry e "
                + "WHERE e.aggregate_identifier = u.source_id AND e.payload_type IN (?, ?)) "
                + "ORDER BY u.received_at DESC LIMIT 1", storeId, sha256, name,
                Clock.nowSeconds() - idempotencyWindow.toSeconds(),
                KnowledgeSourceDeletedEvent.class.getName(), KnowledgeSourceIngestionFailedEvent.class.getName());
        if (rows.isEmpty()) {
            return null;
        }
        Map<String, Object> row = rows.get(0);
        return new Accepted(TaskId.of((String) row.get("task_id")),
                JSON.readValue((String) row.get("answer"), LinkedHashMap.class), null);
    }

    private record Received(KnowledgeStoreLookup.Store store, SourceType type, String mediaType) {
    }

    /** form-data cannot send an array, so tags arrive as one string: comma-separated tags. */
    private static List<String> tags(String field) {
        if (field == null || field.isBlank()) {
            return List.of();
        }
        List<String> tags = Arrays.stream(field.split(",")).map(String::strip).filter(t -> !t.isEmpty()).toList();
        String problem = KnowledgeRules.tagsProblem(tags);
        if (problem != null) {
            throw ApiProblem.invalidParameter("tags", "tags (comma-separated) " + problem.substring("metaData.tags ".length()));
        }
        return tags;
    }

    private static String name(String field, String partName) {
        String name = field != null && !field.isBlank() ? field : partName != null && !partName.isBlank() ? partName
                : "upload";
        return name.length() > KnowledgeRules.MAX_NAME_LENGTH ? name.substring(0, KnowledgeRules.MAX_NAME_LENGTH) : name;
    }

    private static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
