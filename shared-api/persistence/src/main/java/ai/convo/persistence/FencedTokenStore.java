package ai.convo.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalLong;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.WrappedToken;
import org.axonframework.eventhandling.tokenstore.UnableToClaimTokenException;
import org.axonframework.eventhandling.tokenstore.jdbc.JdbcTokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.axonframework.serialization.SimpleSerializedObject;

/**
 * A JDBC token store that never lets a node that lost its claim commit an older batch. Axon's store, when a node
 * stores a token for a segment it no longer owns and nobody owns now (the node that took it over has released it
 * again, e.g. to balance), claims it and writes its token over the later one. A node stalled past the claim timeout
 * (GC, a starved CPU) would then commit its batch (the projection rows with it, same transaction) after the other
 * node had committed later events: rows and token move back, and a read that saw the later token sees older rows.
 * Here a store whose token is behind the stored one is refused (a reset's is not), as is any store over another
 * owner's claim, so the stalled batch rolls back whole and its events are processed again by the segment's owner.
 */
public class FencedTokenStore extends JdbcTokenStore {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(FencedTokenStore.class);

    private final String nodeId;
    private final TokenSchema schema;

    public FencedTokenStore(JdbcTokenStore.Builder builder, String nodeId, TokenSchema schema) {
        super(builder.nodeId(nodeId).schema(schema));
        this.nodeId = nodeId;
        this.schema = schema;
    }

    /** Reached only when the row is not owned by this node (Axon first updates a row it owns); the row is locked. */
    @Override
    protected void updateToken(Connection connection, ResultSet resultSet, TrackingToken token, String processorName,
                               int segment) throws SQLException {
        try (PreparedStatement current = connection.prepareStatement("SELECT " + schema.ownerColumn() + ", "
                + schema.tokenColumn() + ", " + schema.tokenTypeColumn() + " FROM " + schema.tokenTable() + " WHERE "
                + schema.processorNameColumn() + " = ? AND " + schema.segmentColumn() + " = ?")) {
            current.setString(1, processorName);
            current.setInt(2, segment);
            try (ResultSet row = current.executeQuery()) {
                if (row.next()) {
                    String owner = row.getString(1);
                    if (owner != null && !owner.equals(nodeId)) {
                        throw new UnableToClaimTokenException(String.format("Segment %s[%d] is owned by %s: this "
                                + "node lost its claim, so its batch is rolled back", processorName, segment, owner));
                    }
                    byte[] stored = row.getBytes(2);
                    if (owner == null && stored != null
                            && behind(token, deserialize(stored, row.getString(3)))) {
                        log.warn("Refused to store an older token for {}[{}]: this node lost its claim meanwhile and "
                                + "its batch is rolled back", processorName, segment);
                        throw new UnableToClaimTokenException(String.format("Segment %s[%d] was released further on "
                                + "than this node's token: its batch is rolled back", processorName, segment));
                    }
                }
            }
        }
        super.updateToken(connection, resultSet, token, processorName, segment);
    }

    private TrackingToken deserialize(byte[] data, String type) {
        return serializer().deserialize(new SimpleSerializedObject<>(data, byte[].class, type, null));
    }

    /** Whether {@code token} would move the segment back: its furthest position is before the stored one's. */
    static boolean behind(TrackingToken token, TrackingToken stored) {
        if (token == null || stored == null) {
            return false;
        }
        TrackingToken nextBound = WrappedToken.unwrapUpperBound(token);
        TrackingToken nowBound = WrappedToken.unwrapUpperBound(stored);
        if (nextBound == null || nowBound == null) {
            return false;
        }
        OptionalLong next = nextBound.position();
        OptionalLong now = nowBound.position();
        return next.isPresent() && now.isPresent() && next.getAsLong() < now.getAsLong();
    }
}
