package ai.convo.baseline;

import java.nio.charset.StandardCharsets;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * The yardstick of the list benchmarks: the same server stack (Spring WebFlux on Netty) doing no work but
 * answering a fixed 1 KB JSON. Ratios against it are stable on a shared, noisy machine; absolute numbers are not.
 */
@SpringBootApplication
@RestController
public class BaselineApplication {

    static final byte[] BODY = body();

    public static void main(String[] args) {
        SpringApplication.run(BaselineApplication.class, args);
    }

    @GetMapping("/fixed")
    public Mono<ResponseEntity<byte[]>> fixed() {
        return Mono.just(ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(BODY));
    }

    static byte[] body() {
        StringBuilder json = new StringBuilder("{\"items\":[");
        int i = 0;
        while (json.length() < 1000) {
            json.append(i == 0 ? "" : ",").append("{\"_id\":\"").append(String.format("%024x", i))
                    .append("\",\"name\":\"item ").append(i).append("\"}");
            i++;
        }
        json.append("],\"total\":").append(i).append('}');
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }
}
