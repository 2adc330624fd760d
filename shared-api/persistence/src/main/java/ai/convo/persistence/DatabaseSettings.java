package ai.convo.persistence;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/** One set of connection settings; the JDBC and the R2DBC pool are both built from it. */
@Component
public record DatabaseSettings(
        @Value("${app.db.host:localhost}") String host,
        @Value("${app.db.port:5432}") int port,
        @Value("${app.db.name:convo}") String database,
        @Value("${app.db.username:postgres}") String username,
        @Value("${app.db.password:}") String password,
        @Value("${app.db.jdbc-pool-size:10}") int jdbcPoolSize,
        @Value("${app.db.r2dbc-pool-size:10}") int r2dbcPoolSize) {

    public String jdbcUrl() {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database + "?reWriteBatchedInserts=true";
    }
}
