package ai.convo.query.readmodel;

import ai.convo.persistence.DatabaseSettings;
import ai.convo.persistence.PersistenceConfiguration;
import ai.convo.persistence.PersistenceMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.netty.resources.LoopResources;

/**
 * Where projections are read: a PostgreSQL streaming replica (app.db.read.*, DB_READ_*) or, when none is set, the
 * primary's pool. Projections always write to the primary; a replica's own copy of their tokens says how far its rows
 * are (ProjectionProgress reads them there), so read-your-writes holds whatever the replica's lag.
 */
@Configuration(proxyBeanMethods = false)
public class ReadModelDatabase implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ReadModelDatabase.class);

    private final DatabaseSettings replica;
    private ConnectionPool pool;

    public ReadModelDatabase(DatabaseSettings primary,
                             @Value("${app.db.read.host:}") String host,
                             @Value("${app.db.read.port:0}") int port,
                             @Value("${app.db.read.name:}") String name,
                             @Value("${app.db.read.username:}") String username,
                             @Value("${app.db.read.password:}") String password,
                             @Value("${app.db.read.pool-size:0}") int poolSize) {
        this.replica = host.isBlank() ? null : new DatabaseSettings(host, port > 0 ? port : primary.port(),
                name.isBlank() ? primary.database() : name, username.isBlank() ? primary.username() : username,
                username.isBlank() && password.isBlank() ? primary.password() : password, primary.jdbcPoolSize(),
                poolSize > 0 ? poolSize : primary.r2dbcPoolSize());
    }

    /** Whether reads go to a replica (its progress must then be read there, and answers are not cached). */
    public boolean replica() {
        return replica != null;
    }

    @Bean
    @ReadModel
    public DatabaseClient readModelClient(DatabaseClient primary, LoopResources r2dbcLoops,
                                          ObjectProvider<MeterRegistry> meters) {
        if (replica == null) {
            return primary;
        }
        log.info("Projections are read from the replica {}:{}/{}", replica.host(), replica.port(), replica.database());
        pool = new ConnectionPool(ConnectionPoolConfiguration.builder(PersistenceConfiguration.postgres(replica, r2dbcLoops))
                .name("r2dbc-read")
                .initialSize(1)
                .maxSize(replica.r2dbcPoolSize())
                .maxIdleTime(Duration.ofMinutes(5))
                .build());
        meters.ifAvailable(registry -> PersistenceMetrics.r2dbc(registry, pool, "r2dbc-read"));
        return DatabaseClient.create(pool);
    }

    @Override
    public void destroy() {
        if (pool != null) {
            pool.dispose();
        }
    }
}
