package ai.convo.contract.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.contract.rebuild.Projections;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the shared machinery reads off the resource types: event owners, id fields, history routes, projections. */
class ResourceTypesTest {

    @Test
    void givenAnEventTypeName_whenLookedUp_thenItsTypeAndTheFieldWithItsIdAreFound() {
        assertThat(ResourceTypes.ofEvent("PrimaryLocaleChanged").name()).isEqualTo("locale");
        assertThat(ResourceTypes.ofEvent("PrimaryLocaleChanged").idFieldOf("PrimaryLocaleChanged"))
                .isEqualTo("primaryLocaleId");
        assertThat(ResourceTypes.ofEvent("LocaleUpdated").idFieldOf("LocaleUpdated")).isEqualTo("localeId");
        assertThat(ResourceTypes.ofEvent("DefaultStateChanged").idFieldOf("DefaultStateChanged"))
                .isEqualTo("defaultStateId");
        assertThat(ResourceTypes.ofEvent("SentenceDeleted").parents()).containsExactly(
                new ResourceType.Parent("flow", "flowId"), new ResourceType.Parent("intent", "intentId"));
        assertThat(ResourceTypes.ofEvent("SomethingNobodyOwns")).isNull();
    }

    @Test
    void givenAHistoryRoute_whenRead_thenItsIdVariableAndItsParentsFieldsFollowFromThePath() {
        ResourceType.History source = ResourceTypes.ofEvent("KnowledgeSourceCreated").history();
        assertThat(source.idVariable()).isEqualTo("sourceId");
        assertThat(source.parentFields()).isEqualTo(Map.of("knowledgeStoreId", "storeId"));
        ResourceType.History sentence = ResourceTypes.ofEvent("SentenceCreated").history();
        assertThat(sentence.parentFields().keySet()).containsExactly("flowId", "intentId");
        assertThat(ResourceTypes.ofEvent("ApiKeyIssued").history().kept()).isFalse();
        assertThatThrownBy(() -> ResourceType.History.at("Nothing", "/v2.0/nothing/history"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void givenTheResourceTypes_whenTheProjectionsAreDerived_thenTheShippedOnesKeepTheirOrderAndTheLogComesLast() {
        assertThat(Projections.NAMES).startsWith("projects", "locales", "tokens", "functions", "flows", "states",
                "intents", "knowledge", "snapshots", "tasks", "system-messages", "voice-assistant-links",
                "login-attempts", "callcounter").endsWith(Projections.EVENT_LOG).doesNotHaveDuplicates();
        assertThat(ResourceTypes.names()).contains("project", "snippet", "flowState", "examplesentence", "analytics")
                .hasSize(ResourceTypes.ALL.size());
    }
}
