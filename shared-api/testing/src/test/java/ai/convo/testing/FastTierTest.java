package ai.convo.testing;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FastTierTest {

    private final String tier = System.getProperty("convo.test.tier");

    @AfterEach
    void restore() {
        if (tier == null) {
            System.clearProperty("convo.test.tier");
        } else {
            System.setProperty("convo.test.tier", tier);
        }
    }

    @Test
    void givenTheFastTier_whenATestAsksForADatabase_thenItFailsAskingForTheTag() {
        // given
        System.setProperty("convo.test.tier", "fast");

        // when / then
        assertThatThrownBy(TestDatabase::newDatabase)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("starts PostgreSQL")
                .hasMessageContaining("@Tag(\"integration\")");
    }

    @Test
    void givenAnotherTier_whenATestStartsPostgres_thenTheGuardLetsItStart() {
        // given
        System.setProperty("convo.test.tier", "named");

        // when / then
        assertThatCode(() -> FastTier.refuse("PostgreSQL")).doesNotThrowAnyException();
    }
}
