package ai.convo.command.function.js;

import com.caoccao.javet.swc4j.Swc4j;
import com.caoccao.javet.swc4j.ast.interfaces.ISwc4jAst;
import com.caoccao.javet.swc4j.ast.interfaces.ISwc4jAstModuleItem;
import com.caoccao.javet.swc4j.ast.module.Swc4jAstExportDefaultDecl;
import com.caoccao.javet.swc4j.ast.module.Swc4jAstExportDefaultExpr;
import com.caoccao.javet.swc4j.ast.module.Swc4jAstImportDecl;
import com.caoccao.javet.swc4j.ast.module.Swc4jAstTsImportEqualsDecl;
import com.caoccao.javet.swc4j.ast.program.Swc4jAstModule;
import com.caoccao.javet.swc4j.enums.Swc4jMediaType;
import com.caoccao.javet.swc4j.enums.Swc4jParseMode;
import com.caoccao.javet.swc4j.enums.Swc4jSourceMapOption;
import com.caoccao.javet.swc4j.exceptions.Swc4jCoreException;
import com.caoccao.javet.swc4j.options.Swc4jParseOptions;
import com.caoccao.javet.swc4j.options.Swc4jTranspileOptions;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a function's code (the vendor's form: an ES module whose default export is the function, JavaScript or
 * TypeScript) into a module the engine runs, whose default export is assigned to {@link #MAIN}. Plain JavaScript runs
 * as written, so error lines are the user's; TypeScript is stripped of its types by swc (on the JVM, natively), and a
 * syntax error names the line and column of the code as written.
 */
public final class FunctionScript {

    /** The global the prepared module assigns its default export to. */
    public static final String MAIN = "__functionMain__";

    public record Prepared(String module, boolean transpiled) {
    }

    /** The code cannot run; the message names the line and column. */
    public static final class CodeError extends RuntimeException {
        public CodeError(String message) {
            super(message);
        }
    }

    private static final Pattern AT = Pattern.compile("^(.*?) at file:///main\\.js:(\\d+):(\\d+)", Pattern.DOTALL);

    private final Swc4j swc = new Swc4j();

    /**
     * The code as written when swc reads it as JavaScript (so error lines are the user's), else stripped of its types.
     * swc's JavaScript reading is lenient; when the engine then finds a syntax error, {@link #typeScript} is the
     * second try.
     */
    public Prepared prepare(String code) {
        try {
            return new Prepared(splice(code, (Swc4jAstModule) swc.parse(code, javaScript()).getProgram()), false);
        } catch (Swc4jCoreException notJavaScript) {
            return typeScript(code);
        }
    }

    /** The code stripped of its TypeScript types; a syntax error names the line and column as written. */
    public Prepared typeScript(String code) {
        String stripped;
        try {
            stripped = swc.transpile(code, new Swc4jTranspileOptions().setMediaType(Swc4jMediaType.TypeScript)
                    .setParseMode(Swc4jParseMode.Module).setSourceMap(Swc4jSourceMapOption.None)
                    .setInlineSources(false).setKeepComments(true)).getCode();
        } catch (Swc4jCoreException e) {
            throw new CodeError(describe(e.getMessage()));
        }
        try {
            return new Prepared(splice(stripped, (Swc4jAstModule) swc.parse(stripped, javaScript()).getProgram()), true);
        } catch (Swc4jCoreException e) {
            throw new CodeError(describe(e.getMessage()));
        }
    }

    private static Swc4jParseOptions javaScript() {
        return new Swc4jParseOptions().setMediaType(Swc4jMediaType.JavaScript).setParseMode(Swc4jParseMode.Module)
                .setCaptureAst(true);
    }

    /** swc's "message at file:///main.js:3:10 ..." as "SyntaxError at line 3, column 10: message". */
    static String describe(String swcMessage) {
        String message = swcMessage == null ? "" : swcMessage.strip();
        Matcher at = AT.matcher(message);
        if (at.find()) {
            return "SyntaxError at line " + at.group(2) + ", column " + at.group(3) + ": " + at.group(1).strip();
        }
        int cut = message.indexOf('\n');
        return "SyntaxError: " + (cut < 0 ? message : message.substring(0, cut));
    }

    private static String splice(String code, Swc4jAstModule module) {
        List<ISwc4jAstModuleItem> body = module.getBody();
        ISwc4jAst exported = null;
        int exportStart = -1;
        for (ISwc4jAstModuleItem item : body) {
            if (item instanceof Swc4jAstImportDecl || item instanceof Swc4jAstTsImportEqualsDecl) {
                throw new CodeError("Line " + item.getSpan().getLine() + ": a function cannot import modules; "
                        + "use api.httpRequest to call other services.");
            }
            ISwc4jAst value = item instanceof Swc4jAstExportDefaultExpr e ? e.getExpr()
                    : item instanceof Swc4jAstExportDefaultDecl d ? d.getDecl() : null;
            if (value != null) {
                exported = value;
                exportStart = item.getSpan().getStart();
            }
        }
        if (exported == null) {
            throw new CodeError("The code has no default export; write it as "
                    + "`export default async ({ parameters, api }) => { ... }`.");
        }
        int valueStart = exported.getSpan().getStart();
        int valueEnd = exported.getSpan().getEnd();
        return code.substring(0, exportStart) + "globalThis." + MAIN + " = " + code.substring(valueStart, valueEnd)
                + ";" + code.substring(valueEnd);
    }
}
