package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.StorableText;
import ai.convo.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The property the input boundary rests on, against a real PostgreSQL: a string passes {@link StorableText} exactly
 * when PostgreSQL stores it unchanged as {@code text} and inside {@code jsonb}. Strings are generated over all 17 planes,
 * with NUL, unpaired surrogates, noncharacters, BOMs and controls mixed in, from a fixed seed (others with
 * {@code -Dstorable.seed=}).
 */
@Tag("integration")
class StorableTextDatabaseTest {

    private static final int SAMPLES = 3_000;
    private static TestDatabase.Settings db;

    @BeforeAll
    static void database() {
        db = TestDatabase.newDatabase();
    }

    @Test
    void givenGeneratedStringsOfEveryPlane_whenStored_thenTheCheckSaysExactlyWhichPostgresqlKeepsUnchanged() throws SQLException {
        Random random = new Random(Long.getLong("storable.seed", 20261127L));
        List<String> disagreements = new ArrayList<>();
        int storable = 0;
        try (Connection connection = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password())) {
            connection.setAutoCommit(true);
            for (int n = 0; n < SAMPLES; n++) {
                String text = generate(random);
                boolean keptAsText = keptAsText(connection, text);
                boolean keptInJsonb = keptInJsonb(connection, text);
                boolean checked = StorableText.isStorable(text);
                storable += checked ? 1 : 0;
                if (checked != keptAsText || checked != keptInJsonb) {
                    disagreements.add(codePoints(text) + " check=" + checked + " text=" + keptAsText + " jsonb=" + keptInJsonb);
                }
            }
        }
        assertThat(disagreements).isEmpty();
        // both kinds were generated in good numbers, so the property was tried both ways
        assertThat(storable).isBetween(SAMPLES / 5, SAMPLES * 4 / 5);
    }

    private static boolean keptAsText(Connection connection, String text) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT ?::text")) {
            select.setString(1, text);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return text.equals(row.getString(1));
            }
        } catch (SQLException refused) {
            return false;
        }
    }

    /** As a projection writes JSON: the string escaped (every non-ASCII character as \\uXXXX), parsed by PostgreSQL. */
    private static boolean keptInJsonb(Connection connection, String text) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT (?::jsonb)->>0")) {
            select.setString(1, "[\"" + escaped(text) + "\"]");
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return text.equals(row.getString(1));
            }
        } catch (SQLException refused) {
            return false;
        }
    }

    private static String escaped(String text) {
        StringBuilder json = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        return json.toString();
    }

    /** 0 to 8 characters: mostly code points of a random plane, now and then one of the edge cases. */
    static String generate(Random random) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(9); i > 0; i--) {
            switch (random.nextInt(12)) {
                case 0 -> text.append('\u0000');
                case 1 -> text.append((char) (0xD800 + random.nextInt(0x400)));   // a high surrogate, maybe paired next
                case 2 -> text.append((char) (0xDC00 + random.nextInt(0x400)));   // a low surrogate
                case 3 -> text.append(new char[] {'\uFFFE', '\uFFFF', '\uFEFF', '\u0001', '\u007F', '\u2028', '\u202E'}[random.nextInt(7)]);
                default -> {
                    int plane = random.nextInt(17);
                    int codePoint = plane << 16 | random.nextInt(0x10000);
                    if (codePoint >= 0xD800 && codePoint <= 0xDFFF) {
                        text.append((char) codePoint);
                    } else {
                        text.appendCodePoint(codePoint);
                    }
                }
            }
        }
        return text.toString();
    }

    private static String codePoints(String text) {
        StringBuilder shown = new StringBuilder("[");
        text.chars().forEach(c -> shown.append(String.format(" %04X", c)));
        return shown.append(" ]").toString();
    }
}
