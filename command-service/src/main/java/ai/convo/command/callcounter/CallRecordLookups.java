package ai.convo.command.callcounter;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The write-side tables of call records, one statement each whatever the batch size: the projects' owners
 * (read from the project lookup) and the callIds taken per organisation ({@code cmd_call_record_id}).
 */
@Component
class CallRecordLookups implements ProjectOwners, CallIdClaims {

    private final JdbcTemplate jdbc;

    public CallRecordLookups(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Map<String, String> ownersOf(Collection<String> projectIds) {
        if (projectIds.isEmpty()) {
            return Map.of();
        }
        Map<String, String> owners = new HashMap<>();
        jdbc.query(con -> {
            PreparedStatement statement = con.prepareStatement(
                    "SELECT project_id, organisation_id FROM cmd_project_lookup WHERE project_id = ANY (?)");
            statement.setArray(1, con.createArrayOf("varchar", projectIds.toArray()));
            return statement;
        }, row -> {
            owners.put(row.getString(1), row.getString(2));
        });
        return owners;
    }

    /**
     * One INSERT ... ON CONFLICT DO NOTHING RETURNING for the whole batch. Must run inside the command's
     * transaction, or claims would outlive a failed command: refuses to run without one.
     */
    @Override
    public Set<String> claim(String organisationId, String batchId, Collection<String> callIds) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("callIds must be claimed inside the command's transaction");
        }
        if (callIds.isEmpty()) {
            return Set.of();
        }
        Set<String> claimed = new HashSet<>(callIds.size() * 2);
        jdbc.query(con -> {
            PreparedStatement statement = con.prepareStatement(
                    "INSERT INTO cmd_call_record_id (organisation_id, call_id, batch_id) "
                            + "SELECT ?, call_id, ? FROM unnest(?::text[]) WITH ORDINALITY AS ids (call_id, n) ORDER BY n "
                            + "ON CONFLICT (organisation_id, call_id) DO NOTHING RETURNING call_id");
            statement.setString(1, organisationId);
            statement.setString(2, batchId);
            Array ids = con.createArrayOf("text", callIds.toArray());
            statement.setArray(3, ids);
            return statement;
        }, row -> {
            claimed.add(row.getString(1));
        });
        return claimed;
    }

    /** Whether the organisation exists (a system administrator may name any organisation). */
    public boolean organisationExists(String organisationId) {
        List<Integer> found = jdbc.queryForList("SELECT 1 FROM identity_organisation WHERE id = ?", Integer.class,
                organisationId);
        return !found.isEmpty();
    }
}
