package ai.convo.command.eventsourcing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionSynchronizationUtils;

/** What a transaction caches is its own until it commits, and gone if it rolls back. */
class FreshAggregateCacheTest {

    private final FreshAggregateCache cache = new FreshAggregateCache(null, 10);

    @AfterEach
    void noTransactionLeft() {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.clearSynchronization();
        }
    }

    @Test
    void givenAnEntryCachedInATransaction_whenItCommits_thenOthersSeeItOnlyFromThen() {
        cache.put("project", "committed before");
        begin();
        // when
        cache.put("project", "this transaction's");
        // then
        assertThat((Object) cache.get("project")).isEqualTo("this transaction's");
        assertThat(elsewhere("project")).isEqualTo("committed before");
        end(TransactionSynchronization.STATUS_COMMITTED);
        assertThat(elsewhere("project")).isEqualTo("this transaction's");
    }

    @Test
    void givenAnEntryCachedInATransaction_whenItRollsBack_thenNobodySeesIt() {
        cache.put("project", "committed before");
        begin();
        cache.put("project", "rolled back");
        // when
        end(TransactionSynchronization.STATUS_ROLLED_BACK);
        // then: not even the version before, which a command of the transaction may have changed in memory
        assertThat((Object) cache.get("project")).isNull();
        assertThat(elsewhere("project")).isNull();
    }

    @Test
    void givenAnEntryRemovedInATransaction_thenItIsGoneForItAndAfterItsCommit() {
        cache.put("project", "committed before");
        begin();
        cache.put("project", "this transaction's");
        // when
        cache.remove("project");
        // then
        assertThat((Object) cache.get("project")).isNull();
        end(TransactionSynchronization.STATUS_COMMITTED);
        assertThat(elsewhere("project")).isNull();
    }

    private static void begin() {
        TransactionSynchronizationManager.initSynchronization();
    }

    private static void end(int status) {
        var synchronizations = TransactionSynchronizationManager.getSynchronizations();
        TransactionSynchronizationManager.clearSynchronization();
        TransactionSynchronizationUtils.invokeAfterCompletion(synchronizations, status);
    }

    /** What another thread, outside this transaction, is handed. */
    private Object elsewhere(String key) {
        return CompletableFuture.supplyAsync(() -> (Object) cache.get(key)).join();
    }
}
