package ai.convo.edge;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Requests Netty refuses before any handler sees them (a request line or headers over the limits, a request that is
 * not HTTP) get an empty 414, 431 or 400 from Reactor Netty. This outbound handler, right after the HTTP codec, gives
 * those answers the problem body every other error has (with CORS and a trace id); nothing else is touched: an
 * application response (it has a trace id) is never touched. Every server of the system installs it: the gateway, and
 * each service on its own port.
 * <p>
 * Every connection the server closes is closed the lingering way: what was written goes out, the server's side is shut
 * down, and what the client still sends is read and dropped for up to {@link #LINGER_MILLIS} before the close.
 * Closing at once with the rest of a request unread (an oversized one, or a body an early 401 or 415 never read) makes
 * the kernel reset the connection, and a client still sending it then gets "connection reset" instead of the answer
 * (on native epoll every time; on NIO now and then).
 */
@ChannelHandler.Sharable
public final class NettyRefusals extends ChannelDuplexHandler {

    private static final NettyRefusals HANDLER = new NettyRefusals();
    static final long LINGER_MILLIS = 2_000;
    private static final AttributeKey<Boolean> LINGERING = AttributeKey.valueOf("convo.lingering");
    /** The path of the request being read (the instance of its refusal); null when its request line was unreadable. */
    private static final AttributeKey<String> PATH = AttributeKey.valueOf("convo.path");
    private static final AttributeKey<Boolean> REFUSED = AttributeKey.valueOf("convo.refused");
    /** What Netty names a request whose request line it could not read. */
    private static final String INVALID_URI = "/bad-request";
    /** The request line's limit: Netty's default, what the 414 says. */
    public static final int MAX_INITIAL_LINE = 4096;
    /**
     * The headers' limit in total: what the 431 says and every server of the system is given
     * ({@link #install}); JWTs in Authorization and X-ContactCenter-Authorization can exceed Netty's 8 KB default.
     */
    public static final int MAX_HEADER_BYTES = 64 * 1024;

    private NettyRefusals() {
    }

    /** The server with the handler on every connection (a Spring Boot NettyServerCustomizer body). */
    public static HttpServer install(HttpServer server) {
        return server.doOnChannelInit((observer, channel, address) -> {
            if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, "nettyRefusals", HANDLER);
            }
        });
    }

    /**
     * Remembers each request's path (the instance of a refusal Netty answers for it) and refuses at once what no
     * handler should see: an HTTP version other than 1.0 and 1.1 (505), an HTTP/1.1 request without Host, and a
     * request target with raw bytes outside printable ASCII (400). An HTTP/1.0 request without Host (legal) is given the
     * server's own address as its Host, so it is served like any other.
     */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel channel = ctx.channel();
        if (channel.hasAttr(REFUSED) && channel.attr(REFUSED).get() != null) {
            // the rest of a request already answered: dropped until the connection closes
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest request) {
            String uri = request.uri();
            channel.attr(PATH).set(request.decoderResult().isFailure() && INVALID_URI.equals(uri) ? null : path(uri));
            if (request.decoderResult().isSuccess()) {
                Refusal refusal = refusal(request);
                if (refusal != null) {
                    channel.attr(REFUSED).set(Boolean.TRUE);
                    ReferenceCountUtil.release(msg);
                    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, refusal.status());
                    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                    ctx.writeAndFlush(problem(channel, response, refusal.detail())).addListener(done -> channel.close());
                    return;
                }
                if (request.protocolVersion().equals(HttpVersion.HTTP_1_0) && !request.headers().contains(HttpHeaderNames.HOST)
                        && channel.localAddress() instanceof InetSocketAddress local) {
                    request.headers().set(HttpHeaderNames.HOST, local.getHostString() + ":" + local.getPort());
                }
            }
        }
        ctx.fireChannelRead(msg);
    }

    record Refusal(HttpResponseStatus status, String detail) {
    }

    /** Why {@code request} is refused before any handler, or null. */
    static Refusal refusal(HttpRequest request) {
        HttpVersion version = request.protocolVersion();
        if (!version.equals(HttpVersion.HTTP_1_1) && !version.equals(HttpVersion.HTTP_1_0)) {
            return new Refusal(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED, "HTTP/" + version.majorVersion() + "."
                    + version.minorVersion() + " is not supported; send HTTP/1.1 (or HTTP/1.0).");
        }
        if (version.equals(HttpVersion.HTTP_1_1) && !request.headers().contains(HttpHeaderNames.HOST)) {
            return new Refusal(HttpResponseStatus.BAD_REQUEST, "An HTTP/1.1 request must carry a Host header.");
        }
        String uri = request.uri();
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                // Netty reads the request line byte by byte: a raw UTF-8 byte is one char here
                return new Refusal(HttpResponseStatus.BAD_REQUEST, "The request target holds a raw byte outside "
                        + "printable ASCII (0x" + Integer.toHexString(c & 0xff) + " at character " + i + "); "
                        + "percent-encode it as UTF-8 (%C3%A9 for \u00e9).");
            }
        }
        return null;
    }

    /** The path of a request target (origin form or absolute form), without its query. */
    static String path(String uri) {
        int start = 0;
        int scheme = uri.indexOf("://");
        if (scheme > 0 && scheme < uri.indexOf('/') + 1) {
            int slash = uri.indexOf('/', scheme + 3);
            start = slash < 0 ? uri.length() : slash;
        }
        int query = uri.indexOf('?', start);
        StringBuilder path = new StringBuilder();
        for (int i = start; i < (query < 0 ? uri.length() : query); i++) {
            char c = uri.charAt(i);
            // a raw byte (one char each, as Netty reads the line) shown percent-encoded: the instance stays a URI
            if (c <= 0x20 || c >= 0x7f) {
                path.append('%').append(String.format("%02X", c & 0xff));
            } else {
                path.append(c);
            }
        }
        return path.isEmpty() ? "/" : path.toString();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        // Netty's own answers carry no trace id; an application's always does, and is never touched: replacing one
        // (an empty 400 of the firewall, before it had a problem body) left the next request on the connection
        // unanswered.
        if (msg instanceof FullHttpResponse response && response.content().readableBytes() == 0
                && !response.headers().contains(HttpHeaderNames.CONTENT_TYPE)
                && !response.headers().contains("X-Trace-Id")) {
            int status = response.status().code();
            String detail = switch (status) {
                case 414 -> "The request URI is longer than the server accepts (" + MAX_INITIAL_LINE
                        + " characters for the request line).";
                case 431 -> "The request headers are larger than the server accepts (" + MAX_HEADER_BYTES / 1024
                        + " KB in total).";
                case 400 -> "The request is not valid HTTP.";
                default -> null;
            };
            if (detail != null) {
                ctx.write(problem(ctx.channel(), response, detail), promise);
                return;
            }
        }
        ctx.write(msg, promise);
    }

    /** {@code response} (empty) with the problem body of {@code detail}, CORS and a trace id. */
    private static FullHttpResponse problem(Channel channel, FullHttpResponse response, String detail) {
        String traceId = ProblemJson.newTraceId();
        // A request line Netty could not read has no path: the occurrence is named by its trace id.
        String path = channel.attr(PATH).get();
        String instance = path != null ? path : "urn:trace:" + traceId;
        byte[] body = ProblemJson.body(response.status().code(), response.status().reasonPhrase(), detail, instance,
                traceId);
        FullHttpResponse problem = response.replace(Unpooled.wrappedBuffer(body));
        response.release();
        problem.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "application/problem+json")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, "*")
                .set("X-Trace-Id", traceId);
        return problem;
    }

    /**
     * Every close the server starts (a refusal, an answer to {@code Connection: close}, an error) lingers: a client may
     * still be sending a body the server never read (an early 401, 413 or 415), and closing with it unread resets the
     * connection, which can destroy the answer before the client reads it.
     */
    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        Channel channel = ctx.channel();
        if (!(channel instanceof DuplexChannel duplex) || !channel.isActive() || duplex.isOutputShutdown()
                || channel.attr(LINGERING).setIfAbsent(Boolean.TRUE) != null) {
            ctx.close(promise);
            return;
        }
        // Shutting the output down fails writes still queued: only once everything written is out (writes are
        // ordered, so this empty one completes after them).
        ChannelFuture written = ctx.writeAndFlush(Unpooled.EMPTY_BUFFER);
        written.addListener(out -> duplex.shutdownOutput().addListener(shut -> {
            channel.eventLoop().schedule(() -> {
                if (channel.isOpen()) {
                    ctx.close(promise);
                }
            }, LINGER_MILLIS, TimeUnit.MILLISECONDS);
            // The client closing (or the connection breaking) ends the lingering before the deadline.
            channel.closeFuture().addListener(closed -> promise.trySuccess());
            if (channel.isActive()) {
                channel.pipeline().addFirst("lingeringDiscard", Discard.INSTANCE);
                channel.config().setAutoRead(true);
                channel.read();
            }
        }));
    }

    /** Drops whatever the client still sends while the connection lingers. */
    @ChannelHandler.Sharable
    private static final class Discard extends ChannelInboundHandlerAdapter {
        static final Discard INSTANCE = new Discard();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }
    }
}
