package ai.convo.query;

import ai.convo.http.HttpConfiguration;
import ai.convo.persistence.PersistenceConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/** The read side: streaming processors keep projections; lists and reads are served from them over R2DBC. */
@SpringBootApplication
@Import({HttpConfiguration.class, PersistenceConfiguration.class})
public class QueryServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(QueryServiceApplication.class, args);
    }
}
