package ai.convo.query.graph;

import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Renderer;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.readmodel.ReadModel;
import ai.convo.query.web.AsOf;
import ai.convo.query.web.QueryParams;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.core.type.TypeReference;

/**
 * The official client's graphProject: {@code {[projectId]: {type: project, name, resources}}}, each resource
 * {@code {type, _id, referenceId, name, properties, dependencies}} (with {@code snapshots=true}, each snapshot of the
 * project as {@code {[snapshotId]: {type: snapshot, name, resources}}} too). Read from the resource types' own read
 * models in ONE statement, so from one database snapshot: every edge's both ends are of the same moment.
 * Dependencies, by the relation's name: a flow's {@code attachedIntent}, {@code attachedState},
 * {@code attachedSlotFiller}; a state's {@code attachedIntent}; an intent's {@code parentIntent}; a knowledge
 * store's {@code attachedSource}; a source's {@code attachedChunk}. This server has no packages, lexicons or flow
 * nodes, so {@code packages} adds nothing and no {@code attachedFlow}, {@code attachedLexicon} or {@code flowNode}
 * edge exists.
 */
@RestController
class ProjectGraphQueryController {

    /**
     * Every resource of the project: kind, id, referenceId, name, the owner it hangs under (a flow, a store, a
     * source), its other references as a JSON array of [relation, kind, id], its properties as a JSON object.
     */
    private static final String RESOURCES = """
            WITH p AS (SELECT id, name FROM project_view WHERE id = :project AND organisation_id = :org)
            SELECT r.* FROM p CROSS JOIN LATERAL (
              SELECT 0 AS rank, 'project' AS kind, p.id, NULL::text AS reference_id, p.name, NULL::text AS owner,
                     '[]'::text AS refs, '{}'::text AS properties, 0::bigint AS created_at
              UNION ALL
              SELECT 1, 'locale', id, reference_id, name, NULL, '[]',
                     jsonb_build_object('nluLanguage', nlu_language, 'isPrimary', is_primary)::text, created_at
              FROM locale_view WHERE project_id = p.id AND organisation_id = :org
              UNION ALL
              SELECT 2, 'snippet', id, reference_id, label, NULL, '[]',
                     jsonb_build_object('type', token_type)::text, created_at
              FROM token_view WHERE project_id = p.id AND organisation_id = :org AND NOT is_default
              UNION ALL
              SELECT 3, 'function', id, reference_id, name, NULL, '[]',
                     jsonb_build_object('isDisabled', is_disabled)::text, created_at
              FROM function_view WHERE project_id = p.id AND organisation_id = :org
              UNION ALL
              SELECT 4, 'flow', id, reference_id, name, NULL, '[]',
                     jsonb_build_object('description', description)::text, created_at
              FROM flow_view WHERE project_id = p.id AND organisation_id = :org
              UNION ALL
              SELECT 5, 'intent', id, reference_id, name, flow_id,
                     CASE WHEN parent_intent_id IS NULL THEN '[]'
                          ELSE jsonb_build_array(jsonb_build_array('parentIntent', 'intent', parent_intent_id))::text END,
                     jsonb_build_object('isDisabled', is_disabled, 'isRejectIntent', is_reject_intent)::text, created_at
              FROM intent_view WHERE project_id = p.id AND organisation_id = :org
              UNION ALL
              SELECT 6, 'flowState', id, reference_id, name, flow_id,
                     (SELECT coalesce(jsonb_agg(jsonb_build_array('attachedIntent', 'intent', i)), '[]'::jsonb)
                      FROM unnest(intent_ids) i)::text,
                     jsonb_build_object('type', type, 'isDefault', is_default)::text, created_at
              FROM state_view WHERE project_id = p.id AND organisation_id = :org
              UNION ALL
              SELECT 7, 'slotFiller', id, reference_id, name, flow_id, '[]',
                     jsonb_build_object('type', type)::text, created_at
              FROM slot_filler_view WHERE project_id = p.id AND organisation_id = :org
              UNION ALL
              SELECT 8, 'knowledgeStore', id, reference_id, name, NULL, '[]',
                     jsonb_build_object('language', language)::text, created_at
              FROM knowledge_store_view WHERE project_id = p.id AND organisation_id = :org
              UNION ALL
              SELECT 9, 'knowledgeSource', id, reference_id, name, store_id, '[]',
                     jsonb_build_object('type', source_type, 'status', status, 'chunkCount', chunk_count)::text,
                     created_at
              FROM knowledge_source_view WHERE project_id = p.id AND organisation_id = :org
              UNION ALL
              SELECT 10, 'knowledgeChunk', id, reference_id, left(text, 80), source_id, '[]',
                     jsonb_build_object('order', chunk_order, 'disabled', disabled)::text, created_at
              FROM knowledge_chunk_view WHERE project_id = p.id AND organisation_id = :org
              UNION ALL
              SELECT 11, 'snapshot', s.id, NULL, s.name, NULL, '[]', '{}', s.created_at
              FROM snapshot_view s WHERE :snapshots AND s.project_id = p.id AND s.organisation_id = :org
              UNION ALL
              SELECT 12, 'snapshotResource:' || r.resource_type, r.id, r.reference_id, r.name, r.snapshot_id, '[]', '{}',
                     r.created_at
              FROM snapshot_resource_view r JOIN snapshot_view s ON s.id = r.snapshot_id
              WHERE :snapshots AND s.project_id = p.id AND s.organisation_id = :org AND r.organisation_id = :org
            ) r ORDER BY r.rank, r.created_at, r.id
            """;

    /** Which owner kind each owned kind hangs under, and the relation its owner names it by. */
    private static final Map<String, String[]> OWNED = Map.of(
            "intent", new String[] {"flow", "attachedIntent"},
            "flowState", new String[] {"flow", "attachedState"},
            "slotFiller", new String[] {"flow", "attachedSlotFiller"},
            "knowledgeSource", new String[] {"knowledgeStore", "attachedSource"},
            "knowledgeChunk", new String[] {"knowledgeSource", "attachedChunk"});

    private final DatabaseClient db;

    ProjectGraphQueryController(@ReadModel DatabaseClient db) {
        this.db = db;
    }

    private record Row(String kind, String id, String referenceId, String name, String owner, String refs,
                       String properties) {
    }

    @GetMapping("/v2.0/projects/{projectId}/graph")
    public Mono<ResponseEntity<byte[]>> graph(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                              @PathVariable String projectId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("projectId", projectId);
        AsOf.refuse(exchange, "the graph is read as the project stands; each resource's read takes asOf");
        flag(exchange, "packages");
        boolean dependencies = !Boolean.FALSE.equals(flag(exchange, "dependencies"));
        boolean snapshots = Boolean.TRUE.equals(flag(exchange, "snapshots"));
        return db.sql(RESOURCES).bind("project", projectId).bind("org", caller.organisationId())
                .bind("snapshots", snapshots)
                .map(row -> new Row(row.get("kind", String.class), row.get("id", String.class),
                        row.get("reference_id", String.class), row.get("name", String.class),
                        row.get("owner", String.class), row.get("refs", String.class),
                        row.get("properties", String.class)))
                .all().collectList()
                .flatMap(rows -> rows.isEmpty()
                        ? Mono.error(ApiProblem.notFound("Project " + projectId + " does not exist."))
                        : Mono.just(ApiResponses.ok(exchange, media,
                                new Representation.Single("graph", graph(rows, dependencies)))));
    }

    /** A boolean query parameter: true, false, or absent (null); anything else is a 400 naming it. */
    private static Boolean flag(ServerWebExchange exchange, String name) {
        String value = exchange.getRequest().getQueryParams().getFirst(name);
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!value.equals("true") && !value.equals("false")) {
            String problem = "must be true or false";
            throw ApiProblem.badRequest(name + " " + problem + ".", Map.of(name, problem));
        }
        return Boolean.parseBoolean(value);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> graph(List<Row> rows, boolean withDependencies) {
        Map<String, Object> graph = new LinkedHashMap<>();
        Row project = rows.get(0);
        List<Map<String, Object>> resources = new ArrayList<>();
        graph.put(project.id(), entry("project", project.name(), resources));
        Map<String, List<Map<String, Object>>> snapshotResources = new LinkedHashMap<>();
        Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
        List<Row> projectRows = new ArrayList<>();
        for (Row row : rows.subList(1, rows.size())) {
            if (row.kind().equals("snapshot")) {
                List<Map<String, Object>> held = new ArrayList<>();
                snapshotResources.put(row.id(), held);
                graph.put(row.id(), entry("snapshot", row.name(), held));
                continue;
            }
            boolean inSnapshot = row.kind().startsWith("snapshotResource:");
            String kind = inSnapshot ? row.kind().substring("snapshotResource:".length()) : row.kind();
            Map<String, Object> resource = new LinkedHashMap<>();
            resource.put("type", kind);
            resource.put("_id", row.id());
            resource.put("referenceId", row.referenceId());
            resource.put("name", row.name());
            resource.put("properties", Renderer.JSON.readValue(row.properties(),
                    new TypeReference<LinkedHashMap<String, Object>>() { }));
            if (inSnapshot) {
                snapshotResources.getOrDefault(row.owner(), new ArrayList<>()).add(resource);
                continue;
            }
            if (withDependencies) {
                resource.put("dependencies", new ArrayList<Map<String, Object>>());
            }
            byId.put(kind + ":" + row.id(), resource);
            resources.add(resource);
            projectRows.add(row);
        }
        if (!withDependencies) {
            return graph;
        }
        // edges once every resource is known, so each names its target's referenceId
        for (Row row : projectRows) {
            Map<String, Object> resource = byId.get(row.kind() + ":" + row.id());
            List<Map<String, Object>> dependencies = (List<Map<String, Object>>) resource.get("dependencies");
            for (List<String> ref : Renderer.JSON.readValue(row.refs(), new TypeReference<List<List<String>>>() { })) {
                dependencies.add(dependency(ref.get(0), ref.get(1), ref.get(2), byId));
            }
            String[] owned = OWNED.get(row.kind());
            Map<String, Object> owner = owned == null ? null : byId.get(owned[0] + ":" + row.owner());
            if (owner != null) {
                ((List<Map<String, Object>>) owner.get("dependencies"))
                        .add(dependency(owned[1], row.kind(), row.id(), byId));
            }
        }
        return graph;
    }

    private static Map<String, Object> entry(String type, String name, List<Map<String, Object>> resources) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("type", type);
        entry.put("name", name);
        entry.put("resources", resources);
        return entry;
    }

    /** An edge: its relation, the resource it points at and that resource's referenceId (null when unknown). */
    private static Map<String, Object> dependency(String relation, String kind, String id,
                                                  Map<String, Map<String, Object>> known) {
        Map<String, Object> dependency = new LinkedHashMap<>();
        dependency.put("type", relation);
        dependency.put("resourceType", kind);
        dependency.put("_id", id);
        Map<String, Object> target = known.get(kind + ":" + id);
        dependency.put("referenceId", target == null ? null : target.get("referenceId"));
        return dependency;
    }
}
