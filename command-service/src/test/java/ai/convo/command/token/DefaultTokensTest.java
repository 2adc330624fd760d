package ai.convo.command.token;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.token.DefaultTokens;
import ai.convo.contract.token.TokenRecord;
import ai.convo.contract.token.TokenType;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The built-in tokens are computed, not stored: the same project always gets the same ones. */
class DefaultTokensTest {

    static final String PROJECT = "a00000000000000000000001";
    static final String OTHER = "a00000000000000000000002";

    @Test
    void givenAProject_whenItsDefaultTokensAreComputedTwice_thenTheyAreIdentical() {
        // given / when
        List<TokenRecord> first = DefaultTokens.forProject(PROJECT, "c00000000000000000000001", 100);
        List<TokenRecord> second = DefaultTokens.forProject(PROJECT, "c00000000000000000000001", 100);
        // then
        assertThat(first).isEqualTo(second).hasSize(DefaultTokens.DEFINITIONS.size()).hasSizeGreaterThanOrEqualTo(6);
        assertThat(first).extracting(TokenRecord::label)
                .contains("First Name", "Last Name", "E-Mail", "Input Text", "Context", "Flow Output");
        assertThat(first).allSatisfy(token -> {
            assertThat(Ids.isValid(token.id())).isTrue();
            assertThat(token.referenceId()).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
            assertThat(TokenType.fromCode(token.type())).isPresent();
            assertThat(token.createdAt()).isEqualTo(100);
        });
    }

    @Test
    void givenTwoProjects_whenTheirDefaultTokensAreComputed_thenNoIdIsShared() {
        // given / when
        Set<String> ids = new HashSet<>();
        DefaultTokens.forProject(PROJECT, "c00000000000000000000001", 1).forEach(t -> ids.add(t.id()));
        DefaultTokens.forProject(OTHER, "c00000000000000000000001", 1).forEach(t -> ids.add(t.id()));
        // then
        assertThat(ids).hasSize(2 * DefaultTokens.DEFINITIONS.size());
    }

    @Test
    void givenALabel_whenTheIdIsDerived_thenItIsTheFirst24HexCharactersOfSha256OfProjectColonLabel() throws Exception {
        // given
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                .digest((PROJECT + ":First Name").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        // when
        String id = DefaultTokens.idFor(PROJECT, "First Name");
        // then
        assertThat(id).isEqualTo(java.util.HexFormat.of().formatHex(digest).substring(0, 24));
    }

    @Test
    void givenADefaultId_whenLookedUp_thenOnlyItsOwnProjectKnowsIt() {
        // given
        String id = DefaultTokens.idFor(PROJECT, "Context");
        // when / then
        assertThat(DefaultTokens.byId(PROJECT, id)).map(DefaultTokens.Definition::label).contains("Context");
        assertThat(DefaultTokens.byId(OTHER, id)).isEmpty();
        assertThat(DefaultTokens.byLabel("cOnTeXt")).map(DefaultTokens.Definition::label).contains("Context");
        assertThat(DefaultTokens.byLabel("Contexts")).isEmpty();
    }
}
