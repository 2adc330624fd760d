package ai.convo.command.knowledge;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Ids;
import ai.convo.contract.knowledge.CreateKnowledgeChunkCommand;
import ai.convo.contract.knowledge.DeleteKnowledgeChunkCommand;
import ai.convo.contract.knowledge.KnowledgeChunkId;
import ai.convo.contract.knowledge.KnowledgeChunkPatch;
import ai.convo.contract.knowledge.KnowledgeChunkRecord;
import ai.convo.contract.knowledge.KnowledgeRules;
import ai.convo.contract.knowledge.KnowledgeSourceId;
import ai.convo.contract.knowledge.KnowledgeStoreId;
import ai.convo.contract.knowledge.UpdateKnowledgeChunkCommand;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
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

/**
 * The official client's createKnowledgeChunk, updateKnowledgeChunk and deleteKnowledgeChunk. Each is a command on
 * the chunk's source, which holds its chunks; create and update answer the chunk as stored, delete a 204.
 */
@RestController
public class KnowledgeChunkController {

    private static final Set<String> CREATE_FIELDS = Set.of("text", "order", "data");
    private static final Set<String> PATCH_FIELDS = Set.of("text", "order", "data", "disabled");
    private static final String CHUNKS = "/v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}/chunks";

    private final Commands commands;

    public KnowledgeChunkController(Commands commands) {
        this.commands = commands;
    }

    @PostMapping(CHUNKS)
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String knowledgeStoreId, @PathVariable String sourceId,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("knowledgeStoreId", knowledgeStoreId);
        Ids.require("sourceId", sourceId);
        KnowledgeBody body = KnowledgeBody.parse(exchange, raw, true, CREATE_FIELDS);
        String text = body.scalars().requiredString("text", 1, KnowledgeRules.MAX_CHUNK_TEXT_LENGTH);
        Long order = body.scalars().optionalLong("order", 0, KnowledgeRules.MAX_CHUNK_ORDER);
        Map<String, Object> data = body.optionalData();
        body.validate();
        KnowledgeChunkId chunkId = KnowledgeChunkId.generate();
        CreateKnowledgeChunkCommand command = new CreateKnowledgeChunkCommand(KnowledgeSourceId.of(sourceId),
                KnowledgeStoreId.of(knowledgeStoreId), chunkId, caller.actor(), UUID.randomUUID().toString(), text,
                order == null ? null : order.intValue(), data == null ? Map.of() : data, Clock.nowSeconds());
        return commands.<KnowledgeChunkRecord>send(command, sourceId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("knowledgeChunk", sent.result().toWire()),
                        exchange.getRequest().getPath().value() + "/" + chunkId.value(), sent.position()));
    }

    @PatchMapping(CHUNKS + "/{chunkId}")
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String knowledgeStoreId, @PathVariable String sourceId,
                                               @PathVariable String chunkId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("knowledgeStoreId", knowledgeStoreId);
        Ids.require("sourceId", sourceId);
        Ids.require("chunkId", chunkId);
        KnowledgeBody body = KnowledgeBody.parse(exchange, raw, false, PATCH_FIELDS);
        String text = body.scalars().optionalString("text", 1, KnowledgeRules.MAX_CHUNK_TEXT_LENGTH);
        Long order = body.scalars().optionalLong("order", 0, KnowledgeRules.MAX_CHUNK_ORDER);
        Map<String, Object> data = body.optionalData();
        Boolean disabled = body.scalars().optionalBoolean("disabled");
        body.validate();
        UpdateKnowledgeChunkCommand command = new UpdateKnowledgeChunkCommand(KnowledgeSourceId.of(sourceId),
                KnowledgeStoreId.of(knowledgeStoreId), KnowledgeChunkId.of(chunkId), caller.actor(),
                new KnowledgeChunkPatch(text, order == null ? null : order.intValue(), data, disabled),
                Clock.nowSeconds());
        return commands.<KnowledgeChunkRecord>send(command, sourceId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("knowledgeChunk", sent.result().toWire()), null, sent.position()));
    }

    @DeleteMapping(CHUNKS + "/{chunkId}")
    public Mono<ResponseEntity<byte[]>> delete(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String knowledgeStoreId, @PathVariable String sourceId,
                                               @PathVariable String chunkId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("knowledgeStoreId", knowledgeStoreId);
        Ids.require("sourceId", sourceId);
        Ids.require("chunkId", chunkId);
        return commands.send(new DeleteKnowledgeChunkCommand(KnowledgeSourceId.of(sourceId),
                        KnowledgeStoreId.of(knowledgeStoreId), KnowledgeChunkId.of(chunkId), caller.actor(),
                        Clock.nowSeconds()), sourceId)
                .map(sent -> ApiResponses.noContent(sent.position()));
    }
}
