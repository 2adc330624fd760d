package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class UniqueViolationsTest {

    private final UniqueViolations resolver = new UniqueViolations();

    @Test
    void aBatchedAppendThatHitTheSequenceKeyIsADuplicate() {
        // given PostgreSQL's driver: the batch exception says nothing, its next exception carries 23505
        BatchUpdateException batch = new BatchUpdateException("Batch entry 0 INSERT INTO domain_event_entry ... aborted",
                null, 0, new int[0], null);
        batch.setNextException(new SQLException("duplicate key value violates unique constraint", "23505"));

        assertThat(resolver.isDuplicateKeyViolation(new RuntimeException("append failed", batch))).isTrue();
    }

    @Test
    void aPlainUniqueViolationIsADuplicate() {
        assertThat(resolver.isDuplicateKeyViolation(new SQLException("duplicate key", "23505"))).isTrue();
    }

    @Test
    void otherFailuresAreNot() {
        assertThat(resolver.isDuplicateKeyViolation(new SQLException("connection lost", "08006"))).isFalse();
        assertThat(resolver.isDuplicateKeyViolation(new IllegalStateException("no SQL at all"))).isFalse();
    }
}
