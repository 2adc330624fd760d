package ai.convo.command.eventsourcing;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.common.caching.Cache;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageDispatchInterceptor;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.axonframework.modelling.command.ConcurrencyException;

/**
 * When a command checks that the cached aggregates it was handed are current ({@link FreshAggregateCache}): at its
 * end, and only for those it appended nothing to. An append needs no check: were the cached aggregate behind the
 * store, the append collides with the stored sequence number and the command is decided again (DecidingAgain). A
 * refusal, or a change that changes nothing, appends nothing that could collide, so it is checked once the handler
 * finished; decided on an aggregate behind the store, it is decided again too. Most commands append, and save the
 * look-up's round trip.
 */
class CachedDecisions implements MessageHandlerInterceptor<CommandMessage<?>>,
        MessageDispatchInterceptor<EventMessage<?>> {

    private static final String RESOURCE = CachedDecisions.class.getName();

    private final EventStore eventStore;
    private final Cache cache;

    public CachedDecisions(EventStore eventStore, Cache cache) {
        this.eventStore = eventStore;
        this.cache = cache;
        eventStore.registerDispatchInterceptor(this);
    }

    /** The cached aggregates one command was handed unchecked (cache key to version), and those it appended to. */
    private static final class Unchecked {
        private final Map<Object, Long> handedOut = new LinkedHashMap<>();
        private final Set<String> appended = new HashSet<>();
    }

    /**
     * Whether the check of this cached aggregate is left to the end of the command that loads it. Only in a command
     * this interceptor runs around; anywhere else the cache checks at once.
     */
    static boolean deferred(Object key, Long version) {
        if (version == null || !CurrentUnitOfWork.isStarted()) {
            return false;
        }
        Unchecked unchecked = CurrentUnitOfWork.get().getResource(RESOURCE);
        if (unchecked == null) {
            return false; // not a command, or a command within another's handling
        }
        unchecked.handedOut.put(key, version);
        return true;
    }

    @Override
    public Object handle(UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain interceptorChain)
            throws Exception {
        if (unitOfWork.parent().isPresent()) {
            // a command sent while another is handled: its events reach the store only with the outer command's, so
            // the store cannot tell here whether its aggregates were current; the cache checks them when handing out
            return interceptorChain.proceed();
        }
        Unchecked unchecked = new Unchecked();
        unitOfWork.resources().put(RESOURCE, unchecked);
        // an append that collided: one of the aggregates handed out unchecked was behind the store
        unitOfWork.onRollback(rolledBack -> {
            if (rolledBack.getExecutionResult() != null
                    && collided(rolledBack.getExecutionResult().getExceptionResult())) {
                unchecked.handedOut.keySet().forEach(this::behindTheStore);
            }
        });
        Object result;
        try {
            result = interceptorChain.proceed();
        } catch (Exception refused) {
            // nothing is appended: a refusal on an aggregate behind the store is decided again
            String behind = behind(unchecked, false);
            if (behind != null) {
                // suppressed, not the cause: if every attempt is stale, the answer is "retry", not a refusal
                // decided on state the store had already left
                ConcurrencyException again = new ConcurrencyException(behindTheStore(behind));
                again.addSuppressed(refused);
                throw again;
            }
            throw refused;
        }
        // after the event store's own prepare-commit step (registered when the first event was published): the
        // append, and the dispatch interceptor below, ran before this
        unitOfWork.onPrepareCommit(committing -> {
            String behind = behind(unchecked, true);
            if (behind != null) {
                throw new ConcurrencyException(behindTheStore(behind));
            }
        });
        return result;
    }

    /** Notes the aggregates a command appends to, as their events are appended. */
    @Override
    public BiFunction<Integer, EventMessage<?>, EventMessage<?>> handle(List<? extends EventMessage<?>> messages) {
        return (index, message) -> {
            if (message instanceof DomainEventMessage<?> event && CurrentUnitOfWork.isStarted()) {
                Unchecked unchecked = CurrentUnitOfWork.get().getResource(RESOURCE);
                if (unchecked != null) {
                    unchecked.appended.add(event.getAggregateIdentifier());
                }
            }
            return message;
        };
    }

    private static boolean collided(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof ConcurrencyException) {
                return true;
            }
        }
        return false;
    }

    /** The first aggregate handed out that the store holds newer events of (dropped from the cache), or null. */
    private String behind(Unchecked unchecked, boolean skipAppended) {
        for (Map.Entry<Object, Long> entry : unchecked.handedOut.entrySet()) {
            String aggregateId = entry.getKey().toString();
            if (skipAppended && unchecked.appended.contains(aggregateId)) {
                continue;
            }
            Optional<Long> stored = eventStore.lastSequenceNumberFor(aggregateId);
            if (stored.isEmpty() || !stored.get().equals(entry.getValue())) {
                behindTheStore(entry.getKey());
                return aggregateId;
            }
        }
        return null;
    }

    private void behindTheStore(Object key) {
        if (cache instanceof FreshAggregateCache fresh) {
            fresh.behindTheStore(key);
        } else {
            cache.remove(key);
        }
    }

    private static String behindTheStore(String aggregateId) {
        return "Aggregate " + aggregateId + " was decided on from the cache, and the store holds newer events of it "
                + "(another replica wrote them): decided again on the latest state.";
    }
}
