package ai.convo.persistence;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.messaging.StreamableMessageSource;

/**
 * The event store as pooled processors see it, plus wake-ups. Axon's pooled processor re-checks a stream
 * without availability callbacks only every 500 ms; this stream offers the callback, fired by
 * {@link EventNotifications}, so a processor reacts within milliseconds of a commit.
 */
public final class NotifiedEventSource implements StreamableMessageSource<TrackedEventMessage<?>> {

    /** How long a woken stream waits for the event store to hand over the events it was woken for. */
    static final int HANDOVER_MILLIS = 100;

    private final StreamableMessageSource<TrackedEventMessage<?>> delegate;
    private final EventNotifications notifications;

    public NotifiedEventSource(StreamableMessageSource<TrackedEventMessage<?>> delegate, EventNotifications notifications) {
        this.delegate = delegate;
        this.notifications = notifications;
    }

    @Override
    public BlockingStream<TrackedEventMessage<?>> openStream(TrackingToken token) {
        return new Stream(delegate.openStream(token));
    }

    @Override
    public TrackingToken createTailToken() {
        return delegate.createTailToken();
    }

    @Override
    public TrackingToken createHeadToken() {
        return delegate.createHeadToken();
    }

    @Override
    public TrackingToken createTokenAt(Instant dateTime) {
        return delegate.createTokenAt(dateTime);
    }

    @Override
    public TrackingToken createTokenSince(Duration duration) {
        return delegate.createTokenSince(duration);
    }

    private final class Stream implements BlockingStream<TrackedEventMessage<?>> {

        private final BlockingStream<TrackedEventMessage<?>> events;
        private volatile boolean woken;
        private volatile Runnable registered;

        Stream(BlockingStream<TrackedEventMessage<?>> events) {
            this.events = events;
        }

        @Override
        public boolean hasNextAvailable() {
            if (events.hasNextAvailable()) {
                return true;
            }
            if (woken) {
                woken = false;
                // The commit is done, but the event store's reader may not have fetched it yet: give it a moment.
                try {
                    return events.hasNextAvailable(HANDOVER_MILLIS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return false;
        }

        @Override
        public boolean setOnAvailableCallback(Runnable callback) {
            Runnable previous = registered;
            if (previous != null) {
                notifications.unregister(previous);
            }
            Runnable wake = () -> {
                woken = true;
                callback.run();
            };
            registered = wake;
            notifications.register(wake);
            return true;
        }

        @Override
        public Optional<TrackedEventMessage<?>> peek() {
            return events.peek();
        }

        @Override
        public boolean hasNextAvailable(int timeout, TimeUnit unit) throws InterruptedException {
            return events.hasNextAvailable(timeout, unit);
        }

        @Override
        public TrackedEventMessage<?> nextAvailable() throws InterruptedException {
            return events.nextAvailable();
        }

        @Override
        public void skipMessagesWithPayloadTypeOf(TrackedEventMessage<?> ignored) {
            events.skipMessagesWithPayloadTypeOf(ignored);
        }

        @Override
        public void close() {
            Runnable previous = registered;
            if (previous != null) {
                notifications.unregister(previous);
            }
            events.close();
        }
    }
}
