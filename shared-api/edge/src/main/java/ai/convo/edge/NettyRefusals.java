package ai.convo.edge;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Requests Netty refuses before any handler sees them (a request line or headers over the limits, a request that is
 * not HTTP) get an empty 414, 431 or 400 from Reactor Netty. This outbound handler, right after the HTTP codec, gives
 * those answers the problem body every other error has (with CORS and a trace id); nothing else is touched: an
 * application response (it has a trace id) is never touched. Every server of the system installs it: the gateway, and
 * each service on its own port.
 */
@ChannelHandler.Sharable
public final class NettyRefusals extends ChannelOutboundHandlerAdapter {

    private static final NettyRefusals HANDLER = new NettyRefusals();

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
}
