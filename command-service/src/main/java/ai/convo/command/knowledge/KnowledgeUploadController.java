package ai.convo.command.knowledge;

import ai.convo.command.knowledge.ingest.DocumentText;
import ai.convo.command.knowledge.ingest.ProcessKnowledgeSourceFileWork;
import ai.convo.command.task.TaskRequests;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.command.web.UploadForm;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.Ids;
import ai.convo.contract.knowledge.KnowledgeRules;
import ai.convo.contract.knowledge.KnowledgeSourceId;
import ai.convo.contract.knowledge.KnowledgeStoreId;
import ai.convo.contract.knowledge.ReceiveKnowledgeSourceFileCommand;
import ai.convo.contract.knowledge.SourceType;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.openapi.BodyMedia;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.tika.mime.MediaType;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The official client's uploadKnowledgeSourceFile: multipart {@code file} (its type detected from its content, never
 * its name: the Node client names every file fake.txt) and optional {@code tags}. The source is created
 * {@code ingesting} and a processKnowledgeSourceFile Task ingests it, both in one transaction; the answer is the
 * Task (202). A file of a type not read here, or an empty one, is a 4xx at once and nothing is stored.
 */
@RestController
class KnowledgeUploadController {

    private static final Map<String, String> REQUIRED = Map.of("file", "the document: " + DocumentText.ACCEPTED);
    /** The Node client also sends every argument as a field: the store's id among them. */
    private static final Set<String> OPTIONAL = Set.of("tags", "fileName", "knowledgeStoreId");

    private final Commands commands;
    private final KnowledgeStoreLookup stores;
    private final TaskRequests tasks;
    private final DocumentText documents;
    private final JdbcTemplate jdbc;

    KnowledgeUploadController(Commands commands, KnowledgeStoreLookup stores, TaskRequests tasks,
                              DocumentText documents, JdbcTemplate jdbc) {
        this.commands = commands;
        this.stores = stores;
        this.tasks = tasks;
        this.documents = documents;
        this.jdbc = jdbc;
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
                Map<String, Object> parameters = new LinkedHashMap<>();
                parameters.put("knowledgeStoreId", knowledgeStoreId);
                parameters.put("sourceId", sourceId.value());
                parameters.put("fileName", name);
                parameters.put("type", received.type().code());
                parameters.put("mediaType", received.mediaType());
                parameters.put("bytes", file.length);
                parameters.put("sha256", sha256(file));
                return tasks.accept(exchange, media, ProjectId.of(received.store().projectId()), taskId,
                        ProcessKnowledgeSourceFileWork.TYPE, parameters, actor, () -> {
                            jdbc.update("INSERT INTO cmd_knowledge_upload (task_id, source_id, store_id, sha256, "
                                    + "media_type, content, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)", taskId.value(),
                                    sourceId.value(), knowledgeStoreId, parameters.get("sha256"),
                                    received.mediaType(), file, Clock.nowSeconds());
                            return new ReceiveKnowledgeSourceFileCommand(sourceId, KnowledgeStoreId.of(knowledgeStoreId),
                                    actor, UUID.randomUUID().toString(), name, received.type(), tags,
                                    Clock.nowSeconds());
                        });
            });
        });
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
