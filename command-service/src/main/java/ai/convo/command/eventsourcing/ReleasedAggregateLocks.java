package ai.convo.command.eventsourcing;

import java.util.concurrent.atomic.AtomicBoolean;
import org.axonframework.common.lock.Lock;
import org.axonframework.common.lock.LockFactory;
import org.axonframework.common.lock.PessimisticLockFactory;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;

/**
 * Axon's pessimistic aggregate locks, each also released when the unit of work that took it ends, whatever the
 * repository did. Axon 4.13's {@code LockingRepository.doLoadOrCreate} keeps the lock when a CREATE_IF_MISSING
 * command meets a deleted aggregate (its AggregateDeletedException is rethrown past the release; AxonFramework
 * #4659, fixed after 4.13.0, no release on Maven Central has it): a second DELETE of a token left its lock owned by an
 * idle command thread forever, so every later command of that token waited 60 s inside a transaction, holding a pooled
 * connection, until the pool was gone for every organisation (issue 37, finding 4). Releasing twice is harmless.
 * Aggregates opt in with {@code @Aggregate(lockFactory = "aggregateLocks")}.
 */
final class ReleasedAggregateLocks implements LockFactory {

    private final LockFactory delegate;

    public ReleasedAggregateLocks(LockFactory delegate) {
        this.delegate = delegate;
    }

    public ReleasedAggregateLocks() {
        this(PessimisticLockFactory.usingDefaults());
    }

    @Override
    public Lock obtainLock(String identifier) {
        Lock lock = delegate.obtainLock(identifier);
        if (!CurrentUnitOfWork.isStarted()) {
            return lock;
        }
        Lock once = new Once(lock);
        // cleanup runs on the thread that took the lock, which a reentrant lock needs
        CurrentUnitOfWork.get().onCleanup(unitOfWork -> once.release());
        return once;
    }

    /** A lock released at most once, by whichever of the repository and the unit of work's cleanup comes first. */
    private static final class Once implements Lock {
        private final Lock lock;
        private final AtomicBoolean held = new AtomicBoolean(true);

        Once(Lock lock) {
            this.lock = lock;
        }

        @Override
        public void release() {
            if (held.compareAndSet(true, false)) {
                lock.release();
            }
        }

        @Override
        public boolean isHeld() {
            return held.get() && lock.isHeld();
        }
    }
}
