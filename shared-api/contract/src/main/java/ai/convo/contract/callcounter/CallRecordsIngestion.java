package ai.convo.contract.callcounter;

import java.util.LinkedHashMap;
import java.util.Map;

/** What POST /management/v2.0/callrecords answers: how many records were new and how many were duplicates. */
public record CallRecordsIngestion(String batchId, String organisationId, int received, int ingested, int duplicates) {

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("batchId", batchId);
        wire.put("organisationId", organisationId);
        wire.put("received", received);
        wire.put("ingested", ingested);
        wire.put("duplicates", duplicates);
        return wire;
    }
}
