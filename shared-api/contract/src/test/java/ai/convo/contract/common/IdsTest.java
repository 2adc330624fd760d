package ai.convo.contract.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ids are ObjectId-shaped and, within one process, sort in the order they were made. */
class IdsTest {

    @Test
    void idsOfOneProcessSortInCreationOrderAndNeverRepeat() {
        List<String> made = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            made.add(Ids.newId());
        }
        for (int i = 1; i < made.size(); i++) {
            assertTrue(made.get(i - 1).compareTo(made.get(i)) < 0, made.get(i - 1) + " sorts after " + made.get(i));
        }
        assertEquals(made.size(), new HashSet<>(made).size());
        made.forEach(id -> assertTrue(Ids.isValid(id), id));
    }

    @Test
    void isValidAcceptsExactlyWhatThePatternMatches() {
        java.util.List<String> values = new java.util.ArrayList<>(java.util.List.of("", "0123456789abcdef01234567",
                "0123456789abcdef0123456", "0123456789abcdef012345678", "0123456789ABCDEF01234567",
                "0123456789abcdef0123456-", "0123456789abcdef0123456\n", "0123456789abcdef0123456\u00e9",
                "zzzzzzzzzzzzzzzzzzzzzzzz", "/123456789abcdef01234567", ":123456789abcdef01234567",
                "`123456789abcdef01234567", "{123456789abcdef01234567"));
        java.util.Random random = new java.util.Random(13);
        for (int n = 0; n < 20_000; n++) {
            char[] chars = new char[22 + random.nextInt(4)];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = (char) (random.nextInt(8) == 0 ? random.nextInt(256) : "abcxyz0189".charAt(random.nextInt(10)));
            }
            values.add(new String(chars));
        }
        for (String value : values) {
            assertEquals(Ids.PATTERN.matcher(value).matches(), Ids.isValid(value), value);
        }
        assertFalse(Ids.isValid(null));
    }

    @Test
    void anIdStartsWithItsCreationSecond() {
        long now = System.currentTimeMillis() / 1000;
        long second = Long.parseLong(Ids.newId().substring(0, 8), 16);
        assertTrue(second >= now && second <= now + 1, "second " + second + ", now " + now);
    }

    @Test
    void aClockSteppingBackOrAFullCounterStillSortsForward() {
        Ids.Generator ids = new Ids.Generator(new java.security.SecureRandom());
        String before = ids.next(4_000_000_000L);
        String stepBack = ids.next(3_999_999_000L);
        assertTrue(before.compareTo(stepBack) < 0);
        String previous = stepBack;
        for (int i = 0; i < 0x1000001; i++) {
            String next = ids.next(3_999_999_000L);
            if (i % 4096 == 0 || i > 0xFFFFF0) {
                assertTrue(previous.compareTo(next) < 0, previous + " then " + next);
            }
            previous = next;
        }
        assertTrue(Long.parseLong(previous.substring(0, 8), 16) > 4_000_000_000L, previous);
    }
}
