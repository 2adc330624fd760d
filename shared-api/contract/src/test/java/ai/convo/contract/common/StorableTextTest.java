package ai.convo.contract.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StorableTextTest {

    @Test
    void givenTextOfEveryPlane_whenChecked_thenStorable() {
        // BMP letters, a noncharacter, a private-use character, a supplementary emoji and a plane-2 ideograph, plane 16
        String text = "Aé€\uFFFF\uE000" + new String(Character.toChars(0x1F600)) + new String(Character.toChars(0x20000))
                + new String(Character.toChars(0x10FFFD)) + "\u0001\u007F";
        assertThat(StorableText.firstUnstorable(text)).isEqualTo(-1);
        assertThat(StorableText.problem(text)).isNull();
        assertThat(StorableText.isStorable(null)).isTrue();
    }

    @Test
    void givenNul_whenChecked_thenItsPositionIsNamed() {
        assertThat(StorableText.firstUnstorable("ab\u0000c")).isEqualTo(2);
        assertThat(StorableText.problem("ab\u0000c")).startsWith("holds U+0000 (NUL) at character 3; text must not");
    }

    @Test
    void givenUnpairedSurrogates_whenChecked_thenEachIsFound() {
        assertThat(StorableText.firstUnstorable("a\uD800")).isEqualTo(1);          // high at the end
        assertThat(StorableText.firstUnstorable("a\uD800b")).isEqualTo(1);         // high before a non-low
        assertThat(StorableText.firstUnstorable("a\uDC00b")).isEqualTo(1);         // low alone
        assertThat(StorableText.firstUnstorable("\uD83D\uDE00\uDE00")).isEqualTo(2); // a pair, then a low alone
        assertThat(StorableText.firstUnstorable("\uDBFF\uDFFF")).isEqualTo(-1);    // U+10FFFF, a pair
        assertThat(StorableText.problem("x\uDC01")).startsWith("holds an unpaired surrogate U+DC01 at character 2");
    }
}
