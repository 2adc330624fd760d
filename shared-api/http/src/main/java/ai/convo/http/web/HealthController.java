package ai.convo.http.web;

import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Liveness for launchers and load balancers; no authentication, no data. */
@RestController
public class HealthController {

    @GetMapping(value = "/health", produces = "application/json")
    public Map<String, String> health() {
        return Map.of("status", "UP");
    }
}
