package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.intent.IntentUpdatedEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** The intent list's tree parameters: parent and includeChildren (nested recursively). */
class IntentTreeListTest extends IntentQuerySupport {

    private Caller caller;
    private Project project;
    private String flow;
    private String base;
    private long position;
    // root1 { a1 { b1 { c1 } }, a2 }, root2 { a3 }, root3
    private final String root1 = Ids.newId();
    private final String root2 = Ids.newId();
    private final String root3 = Ids.newId();
    private final String a1 = Ids.newId();
    private final String a2 = Ids.newId();
    private final String a3 = Ids.newId();
    private final String b1 = Ids.newId();
    private final String c1 = Ids.newId();

    @BeforeEach
    void seed() {
        // given
        caller = newOrganisation();
        project = project(caller, "Tree", 1000);
        flow = newFlow(caller, project.id(), 1000);
        base = "/v2.0/flows/" + flow + "/intents";
        intent(caller, project.id(), flow, root1, "root one", null, 1001);
        intent(caller, project.id(), flow, root2, "root two", null, 1002);
        intent(caller, project.id(), flow, root3, "root three", null, 1003);
        intent(caller, project.id(), flow, a2, "a two", root1, 1004);
        intent(caller, project.id(), flow, a1, "a one", root1, 1005);
        intent(caller, project.id(), flow, b1, "b one", a1, 1006);
        intent(caller, project.id(), flow, c1, "c one", b1, 1007);
        intent(caller, project.id(), flow, a3, "a three", root2, 1008);
        position = sentences(caller, project.id(), flow, b1, project.primaryLocaleId(), 2);
    }

    private Map<String, Object> list(String query) {
        return get(base + "?" + query, caller, position);
    }

    private static Map<String, Object> item(List<Map<String, Object>> items, String id) {
        return items.stream().filter(i -> i.get("_id").equals(id)).findFirst().orElseThrow();
    }

    private static List<String> idsOf(List<Map<String, Object>> items) {
        return items.stream().map(i -> (String) i.get("_id")).toList();
    }

    @Test
    void givenATree_whenListingWithoutTreeParameters_thenEveryIntentIsAnOrdinaryItem() {
        // when
        Map<String, Object> page = list("limit=100");
        // then
        assertThat(page.get("total")).isEqualTo(8);
        assertThat(ids(page)).containsExactly(root1, root2, root3, a2, a1, b1, c1, a3);
        assertThat(items(page)).allSatisfy(i -> assertThat(i).doesNotContainKey("children"));
        assertThat(item(items(page), c1)).containsEntry("parentIntentId", b1);
    }

    @Test
    void givenATree_whenListingTheChildrenOfAParent_thenOnlyItsDirectChildren() {
        // when / then
        Map<String, Object> page = list("parent=" + root1);
        assertThat(ids(page)).containsExactly(a2, a1);
        assertThat(page.get("total")).isEqualTo(2);
        assertThat(items(page)).allSatisfy(i -> assertThat(i).doesNotContainKey("children"));
        assertThat(ids(list("parent=" + root1 + "&sort=name:asc"))).containsExactly(a1, a2);
        assertThat(ids(list("parent=" + c1))).isEmpty();
        assertThat(ids(list("parent=" + root1 + "&filter=ONE"))).containsExactly(a1);
    }

    @Test
    void givenATree_whenIncludingChildren_thenTheRootsAreListedAndEveryDescendantIsNestedInCreationOrder() {
        // when
        Map<String, Object> page = list("includeChildren=true");
        // then
        assertThat(page.get("total")).isEqualTo(3);
        List<Map<String, Object>> roots = items(page);
        assertThat(idsOf(roots)).containsExactly(root1, root2, root3);
        List<Map<String, Object>> ofRoot1 = children(item(roots, root1));
        assertThat(idsOf(ofRoot1)).containsExactly(a2, a1);
        assertThat(children(item(ofRoot1, a2))).isEmpty();
        List<Map<String, Object>> ofA1 = children(item(ofRoot1, a1));
        assertThat(idsOf(ofA1)).containsExactly(b1);
        Map<String, Object> nestedB1 = ofA1.get(0);
        assertThat(nestedB1).containsEntry("sentenceCount", 2).containsEntry("localeReference", project.primaryLocaleId())
                .containsEntry("parentIntentId", a1).containsEntry("name", "b one");
        assertThat(idsOf(children(nestedB1))).containsExactly(c1);
        assertThat(children(children(nestedB1).get(0))).isEmpty();
        assertThat(idsOf(children(item(roots, root2)))).containsExactly(a3);
        assertThat(children(item(roots, root3))).isEmpty();
    }

    @Test
    void givenATree_whenIncludingChildrenUnderAParent_thenItsChildrenAreListedWithTheirDescendantsNested() {
        // when
        Map<String, Object> page = list("includeChildren=true&parent=" + root1 + "&sort=name:asc");
        // then
        assertThat(ids(page)).containsExactly(a1, a2);
        assertThat(page.get("total")).isEqualTo(2);
        Map<String, Object> nestedB1 = children(items(page).get(0)).get(0);
        assertThat(nestedB1.get("_id")).isEqualTo(b1);
        assertThat(idsOf(children(nestedB1))).containsExactly(c1);
    }

    @Test
    void givenATree_whenIncludingChildrenWithPagingFilterAndCursors_thenTheRootsArePagedAndEachKeepsItsSubtree() {
        // when
        Map<String, Object> first = list("includeChildren=true&limit=2&sort=name:desc");
        Map<String, Object> second = list("includeChildren=true&limit=2&sort=name:desc&next=" + first.get("nextCursor"));
        // then: "root two", "root three" | "root one"
        assertThat(ids(first)).containsExactly(root2, root3);
        assertThat(idsOf(children(items(first).get(0)))).containsExactly(a3);
        assertThat(ids(second)).containsExactly(root1);
        assertThat(idsOf(children(items(second).get(0)))).containsExactly(a2, a1);
        assertThat(second.get("nextCursor")).isNull();
        assertThat(ids(list("includeChildren=true&skip=2"))).containsExactly(root3);
        // The filter applies to the listed level; the nested subtree is complete.
        Map<String, Object> filtered = list("includeChildren=true&filter=one");
        assertThat(ids(filtered)).containsExactly(root1);
        assertThat(idsOf(children(items(filtered).get(0)))).containsExactly(a2, a1);
        assertThat(list("includeChildren=false&limit=100").get("total")).isEqualTo(8);
    }

    @Test
    void givenANestedList_whenAskedForXmlAndCsv_thenTheChildrenAreRenderedToo() {
        String xml = http.get().uri(base + "?includeChildren=true").header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).accept(MediaType.APPLICATION_XML)
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).contains("<children><item><_id>" + a2 + "</_id>", "<total>3</total>");
        String csv = http.get().uri(base + "?includeChildren=true").header("X-API-Key", caller.apiKey())
                .accept(MediaType.parseMediaType("text/csv"))
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(csv.split("\r\n")[0]).endsWith(",sentenceCount,children");
        assertThat(csv.split("\r\n")).hasSize(4);
    }

    @Test
    void givenParentsOutsideTheFlow_whenListingTheirChildren_then400NamingParent() {
        // given
        String otherFlow = newFlow(caller, project.id(), 1000);
        String elsewhere = Ids.newId();
        position = intent(caller, project.id(), otherFlow, elsewhere, "elsewhere", null, 1000);
        // when / then
        Map<String, Object> problem = problem(base + "?parent=" + elsewhere, caller, position, 400);
        assertThat((String) problem.get("detail")).contains("not an intent of flow " + flow);
        assertThat((Map<String, Object>) problem.get("details")).containsKey("parent");
        problem(base + "?parent=" + Ids.newId() + "&includeChildren=true", caller, position, 400);
    }

    @Test
    void givenAParentIsDeleted_whenListing_thenItsChildrenAreRootsAndItsSubtreeMovesUp() {
        // when: a1 is deleted; the write side detaches b1 with an IntentUpdatedEvent right after
        append(a1, new IntentDeletedEvent(a1, flow, project.id(), caller.organisationId(), caller.userId(), 2000));
        position = append(b1, new IntentUpdatedEvent(b1, flow, project.id(), caller.organisationId(),
                List.of("parentIntentId"), "b one", "", List.of(), false, false, null, "", List.of(), "", List.of(),
                Map.of(), ChildFeatures.NONE, null, caller.userId(), 2000));
        // then
        Map<String, Object> page = list("includeChildren=true");
        assertThat(ids(page)).containsExactly(root1, root2, root3, b1);
        assertThat(idsOf(children(items(page).get(0)))).containsExactly(a2);
        assertThat(idsOf(children(items(page).get(3)))).containsExactly(c1);
        assertThat(items(page).get(3)).containsEntry("parentIntentId", null).containsEntry("sentenceCount", 2);
    }
}
