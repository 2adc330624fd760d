package ai.convo.testing;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;

/**
 * {@link FastTier}'s guard for Spring applications, from META-INF/spring.factories. A class of its own so that
 * FastTier loads where Spring Boot is absent (deploy/launcher).
 */
public final class FastTierRunListener implements SpringApplicationRunListener {

    /** Spring Boot's constructor for run listeners. */
    public FastTierRunListener(SpringApplication application, String[] args) {
        FastTier.refuse("a Spring application");
    }
}
