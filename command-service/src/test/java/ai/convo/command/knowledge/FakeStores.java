package ai.convo.command.knowledge;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import java.util.HashMap;
import java.util.Map;

/** The store lookup as the source aggregate sees it, kept in memory: which stores exist and whose they are. */
class FakeStores extends KnowledgeStoreLookup {

    private final Map<String, Store> stores = new HashMap<>();

    FakeStores() {
        super(null);
    }

    FakeStores with(String storeId, String projectId, String organisationId) {
        stores.put(storeId, new Store(storeId, projectId, organisationId));
        return this;
    }

    FakeStores without(String storeId) {
        stores.remove(storeId);
        return this;
    }

    @Override
    public Store requireVisible(String storeId, Actor actor) {
        Store store = stores.get(storeId);
        if (store == null || !store.organisationId().equals(actor.organisationId())) {
            throw DomainException.notFound("Knowledge store " + storeId + " does not exist.");
        }
        return store;
    }
}
