package ai.convo.command;

import ai.convo.http.HttpConfiguration;
import ai.convo.persistence.PersistenceConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/** The write side: HTTP writes become Axon commands, aggregates decide, events are appended to PostgreSQL. */
@SpringBootApplication
@Import({HttpConfiguration.class, PersistenceConfiguration.class})
public class CommandServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(CommandServiceApplication.class, args);
    }
}
