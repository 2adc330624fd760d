package ai.convo.query.web.list;

/** A sortable API field: the SQL expression it sorts by (never null) and how its values are bound. */
public record Column(String sql, Type type) {

    public enum Type { TEXT, LONG, BOOLEAN }

    public static Column text(String sql) {
        return new Column(sql, Type.TEXT);
    }

    public static Column number(String sql) {
        return new Column(sql, Type.LONG);
    }

    public static Column bool(String sql) {
        return new Column(sql, Type.BOOLEAN);
    }

    Class<?> javaType() {
        return switch (type) {
            case TEXT -> String.class;
            case LONG -> Long.class;
            case BOOLEAN -> Boolean.class;
        };
    }
}
