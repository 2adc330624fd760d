import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.stream.Stream;

/**
 * Follows an organisation's event log live (GET /v2.0/eventlog as text/event-stream) and prints each event as one
 * JSON line. When the connection drops (a replica restarted, a proxy timed out), it reconnects with Last-Event-ID,
 * the position of the last event it printed, and goes on after it: no event is missed and none printed twice.
 *
 * Run (JDK only): API_KEY=... java deploy/examples/FollowEventLog.java [baseUrl] [fromPosition]
 * e.g. java deploy/examples/FollowEventLog.java http://localhost:8080/new 1
 */
public class FollowEventLog {

    public static void main(String[] args) throws Exception {
        String base = args.length > 0 ? args[0] : "http://localhost:8080/new";
        long last = args.length > 1 ? Long.parseLong(args[1]) - 1 : 0;
        String key = System.getenv("API_KEY");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        while (true) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/v2.0/eventlog"))
                    .header("X-API-Key", key).header("Accept", "text/event-stream");
            if (last > 0) {
                request.header("Last-Event-ID", Long.toString(last));
            }
            try {
                HttpResponse<Stream<String>> response = http.send(request.build(), HttpResponse.BodyHandlers.ofLines());
                if (response.statusCode() != 200) {
                    System.err.println("eventlog answered " + response.statusCode() + "; retrying in 1 s");
                } else {
                    String id = null;
                    for (Iterator<String> lines = response.body().iterator(); lines.hasNext(); ) {
                        String line = lines.next();
                        if (line.startsWith("id: ")) {
                            id = line.substring(4);
                        } else if (line.startsWith("data: ")) {
                            System.out.println(line.substring(6));
                        } else if (line.isEmpty() && id != null) {
                            last = Long.parseLong(id); // the event is complete: resume after it
                            id = null;
                        }
                    }
                }
            } catch (IOException e) {
                System.err.println("connection lost (" + e.getMessage() + "); resuming after " + last);
            }
            Thread.sleep(1000);
        }
    }
}
