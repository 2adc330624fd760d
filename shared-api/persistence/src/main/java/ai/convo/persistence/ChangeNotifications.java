package ai.convo.persistence;

/** A source of PostgreSQL change notifications that caches can follow ({@link CacheValidity}). */
public interface ChangeNotifications {

    void subscribe(EventNotifications.ChangeListener listener);

    /** Whether notifications are being received right now (nothing may be cached while not). */
    boolean listening();
}
