package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Events are handled carefully only after a failure, for the window, or when a retry forces it. */
class CarefulProjectionsTest {

    @Test
    void givenNoFailure_thenEventsAreNotHandledCarefully() throws Exception {
        CarefulProjections careful = new CarefulProjections(Duration.ofSeconds(30));
        assertThat(careful.now()).isFalse();
        assertThat(CarefulProjections.during(careful::now)).isTrue();
        assertThat(careful.now()).isFalse();
    }

    @Test
    void givenAFailure_thenEventsAreHandledCarefullyForTheWindowOnly() {
        CarefulProjections careful = new CarefulProjections(Duration.ofSeconds(30));
        careful.failed();
        assertThat(careful.now()).isTrue();
        CarefulProjections none = new CarefulProjections(Duration.ZERO);
        none.failed();
        assertThat(none.now()).isFalse();
    }
}
