package ai.convo.http.openapi;

import ai.convo.http.media.Renderer;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/**
 * The service's own OpenAPI document, {@code {base-path}/openapi.json}, public like the health route. The gateway
 * merges the documents of both services into the one it serves at the same path.
 */
@RestController
public class ApiDescriptionController {

    private final ObjectProvider<RequestMappingHandlerMapping> mappings;
    private final ObjectProvider<OperationFacts> facts;
    private final String title;
    private final String version;
    private final String basePath;
    /** Built at the first request: the route table is complete by then and does not change. */
    private volatile byte[] document;

    public ApiDescriptionController(ObjectProvider<RequestMappingHandlerMapping> mappings,
                                    ObjectProvider<OperationFacts> facts,
                                    @Value("${app.api-title:Conversational AI platform REST API}") String title,
                                    @Value("${app.api-version:2026.18.0}") String version,
                                    @Value("${app.base-path:/new}") String basePath) {
        this.mappings = mappings;
        this.facts = facts;
        this.title = title;
        this.version = version;
        this.basePath = basePath;
    }

    @GetMapping("/openapi.json")
    public ResponseEntity<byte[]> document() {
        byte[] built = document;
        if (built == null) {
            built = Renderer.JSON.writeValueAsBytes(ApiDescription.build(title, version, basePath,
                    mappings.orderedStream().toList(), List.copyOf(facts.orderedStream().toList())));
            document = built;
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(built);
    }
}
