package ai.convo.command;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.testing.ApplicationYaml;
import java.util.Map;
import org.axonframework.springboot.updates.UpdateCheckConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;

/** Axon's update checker calls its vendor at start; a server must not call home unless its operator asks. */
class CallingHomeTest {

    @Test
    void givenTheShippedSettings_whenAxonAsksWhetherToCheckForUpdates_thenItIsOff() {
        assertThat(updateCheckDisabled(Map.of())).isTrue();
    }

    @Test
    void givenAnOperatorTurnsItOn_whenAxonAsks_thenItIsOn() {
        assertThat(updateCheckDisabled(Map.of("AXON_UPDATECHECK_DISABLED", "false"))).isFalse();
    }

    private static Boolean updateCheckDisabled(Map<String, Object> environment) {
        UpdateCheckConfiguration settings = Binder.get(ApplicationYaml.withEnvironment(environment))
                .bindOrCreate("axon.update-check", UpdateCheckConfiguration.class);
        // Axon ranks these settings above its own environment variable and below -Daxoniq.update-checker.disabled
        // (which the test JVMs set, so the chain itself cannot be asked here)
        return settings.getDisabled();
    }
}
