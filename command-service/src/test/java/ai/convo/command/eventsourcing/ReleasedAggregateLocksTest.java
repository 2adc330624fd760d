package ai.convo.command.eventsourcing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.axonframework.common.lock.Lock;
import org.axonframework.common.lock.PessimisticLockFactory;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.axonframework.spring.stereotype.Aggregate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AnnotationTypeFilter;

/** An aggregate lock taken in a unit of work is free once that unit of work ended, whoever forgot to release it. */
class ReleasedAggregateLocksTest {

    /** Fails at once when the lock is held elsewhere (Axon's default waits a minute). */
    private final ReleasedAggregateLocks locks = new ReleasedAggregateLocks(PessimisticLockFactory.builder()
            .acquireAttempts(1).lockAttemptTimeout(10).build());

    @Test
    void givenALockTheRepositoryDidNotRelease_whenItsUnitOfWorkRollsBack_thenAnotherThreadTakesItAtOnce() throws Exception {
        // given a unit of work that took the lock and failed without releasing it (as Axon 4.13's doLoadOrCreate
        // does on a deleted aggregate)
        UnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
        Lock leaked = locks.obtainLock("aggregate-1");
        assertThat(leaked.isHeld()).isTrue();
        // when it rolls back
        unitOfWork.rollback(new IllegalStateException("aggregate deleted"));
        // then the lock is free for another thread
        assertThat(leaked.isHeld()).isFalse();
        assertThat(takenOnAnotherThread("aggregate-1")).isTrue();
    }

    @Test
    void givenALockTheRepositoryReleased_whenItsUnitOfWorkCommits_thenItIsNotReleasedTwice() throws Exception {
        // given a lock taken twice on one thread (reentrant) in a unit of work, one of them released by its holder
        UnitOfWork<?> outerUnitOfWork = DefaultUnitOfWork.startAndGet(null);
        Lock outer = locks.obtainLock("aggregate-2");
        UnitOfWork<?> inner = DefaultUnitOfWork.startAndGet(null);
        Lock released = locks.obtainLock("aggregate-2");
        released.release();
        // when the inner unit of work ends too
        inner.commit();
        // then the other hold is still there: the lock was released once, not twice
        assertThat(outer.isHeld()).isTrue();
        outerUnitOfWork.commit();
        assertThat(takenOnAnotherThread("aggregate-2")).isTrue();
    }

    @AfterEach
    void endUnitsOfWork() {
        while (CurrentUnitOfWork.isStarted()) {
            CurrentUnitOfWork.get().rollback();
        }
    }

    @Test
    void everyAggregateTakesTheseLocks() throws Exception {
        // given every aggregate of the command service
        var scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(Aggregate.class));
        var aggregates = scanner.findCandidateComponents("ai.convo.command");
        assertThat(aggregates).hasSizeGreaterThan(10);
        // then each names these locks: Axon's default ones leak on a deleted aggregate
        for (var candidate : aggregates) {
            Class<?> type = Class.forName(candidate.getBeanClassName());
            assertThat(type.getAnnotation(Aggregate.class).lockFactory()).as(type.getSimpleName())
                    .isEqualTo("aggregateLocks");
        }
    }

    private boolean takenOnAnotherThread(String id) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            Lock lock = locks.obtainLock(id);
            lock.release();
            return true;
        }).get(5, TimeUnit.SECONDS);
    }
}
