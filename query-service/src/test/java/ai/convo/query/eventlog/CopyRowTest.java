package ai.convo.query.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The rows EventLogLoad sends with COPY: PostgreSQL's text format, whatever a name or payload holds. */
class CopyRowTest {

    @Test
    void givenPlainValues_whenWritten_thenTabSeparatedWithNullsAsBackslashN() {
        StringBuilder out = new StringBuilder();

        EventLogLoad.row(out, "org", 42L, null, "{\"a\": 1}", -7L);

        assertThat(out).hasToString("org\t42\t\\N\t{\"a\": 1}\t-7\n");
    }

    @Test
    void givenTheCharactersCopyGivesMeaning_whenWritten_thenEachIsEscapedAndTheRestKept() {
        StringBuilder out = new StringBuilder();

        EventLogLoad.row(out, "a\tb\nc\rd\\e", "\\", "\t\t", "ends\n", "\\N", "", "tab at end\t");

        assertThat(out).hasToString("a\\tb\\nc\\rd\\\\e\t\\\\\t\\t\\t\tends\\n\t\\\\N\t\ttab at end\\t\n");
    }

    @Test
    void givenNonAsciiText_whenWritten_thenUnchanged() {
        StringBuilder out = new StringBuilder();

        EventLogLoad.row(out, "Grüße 👋 ünïcödé", 1L);

        assertThat(out).hasToString("Grüße 👋 ünïcödé\t1\n");
    }
}
