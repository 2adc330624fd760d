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
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
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
                case 414 -> "The request URI is longer than the server accepts (4096 characters for the request line).";
                case 431 -> "The request headers are larger than the server accepts (64 KB).";
                case 400 -> "The request is not valid HTTP.";
                default -> null;
            };
            if (detail != null) {
                String traceId = ProblemJson.newTraceId();
                byte[] body = ProblemJson.body(status, response.status().reasonPhrase(), detail, traceId);
                FullHttpResponse problem = response.replace(Unpooled.wrappedBuffer(body));
                response.release();
                problem.headers()
                        .set(HttpHeaderNames.CONTENT_TYPE, "application/problem+json")
                        .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                        .set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, "*")
                        .set("X-Trace-Id", traceId);
                ctx.write(problem, promise);
                return;
            }
        }
        ctx.write(msg, promise);
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
