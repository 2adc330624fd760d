package ai.convo.query.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.http.security.Secrets;
import ai.convo.persistence.DatabaseSettings;
import ai.convo.query.api.QueryTestBase;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.netty.resources.LoopResources;

/**
 * While the consistency channel is down, reads look their keys and writes up through the pool with the same
 * statement: the same principal and the same newest write.
 */
class LookupOverPoolTest extends QueryTestBase {

    @Autowired
    DatabaseClient db;
    @Autowired
    JdbcTemplate sql;
    @Autowired
    DatabaseSettings settings;
    @Autowired
    LoopResources r2dbcLoops;
    @Autowired
    ProjectionProgress progress;
    @Autowired
    LatestWrites overChannel;

    @Test
    void aKeyAndItsUsersNewestWriteAreFoundThroughThePoolAsThroughTheChannel() {
        // given a user with a key and two recorded writes, another key revoked
        String org = Ids.newId();
        String user = Ids.newId();
        String key = Secrets.newApiKey();
        String revoked = Secrets.newApiKey();
        sql.update("INSERT INTO identity_organisation (id, name, created_at) VALUES (?, 'Pool', 0)", org);
        sql.update("INSERT INTO identity_user (id, organisation_id, email, password_hash, role, created_at) "
                + "VALUES (?, ?, ?, 'x', 'ORG_ADMIN', 0)", user, org, user + "@example.com");
        sql.update("INSERT INTO identity_api_key (id, user_id, organisation_id, label, key_hash, created_at) "
                + "VALUES (?, ?, ?, 'a', ?, 0)", Ids.newId(), user, org, Secrets.hashApiKey(key));
        sql.update("INSERT INTO identity_api_key (id, user_id, organisation_id, label, key_hash, created_at, revoked_at) "
                + "VALUES (?, ?, ?, 'b', ?, 0, 1)", Ids.newId(), user, org, Secrets.hashApiKey(revoked));
        sql.update("INSERT INTO principal_write (principal_key, position) VALUES (?, 7), (?, 9)", user, user);

        // when a channel that is not connected looks them up (through the pool), and the service's channel does
        LatestWrites overPool = new LatestWrites(db, new ConsistencyChannel(settings, r2dbcLoops), progress);
        LatestWrites.Keyed pooled = overPool.ofApiKey(Secrets.hashApiKey(key)).block();
        LatestWrites.Keyed channelled = overChannel.ofApiKey(Secrets.hashApiKey(key)).block();

        // then both find the user and its newest write, and nobody for the revoked key
        assertThat(pooled.principal()).isEqualTo(channelled.principal());
        assertThat(pooled.principal().userId()).isEqualTo(user);
        assertThat(pooled.newest().position()).isEqualTo(9).isEqualTo(channelled.newest().position());
        assertThat(overPool.ofApiKey(Secrets.hashApiKey(revoked)).blockOptional()).isEmpty();
        assertThat(overPool.of(List.of(user)).block().position()).isEqualTo(9);
    }
}
