package ai.convo.gateway;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import reactor.netty.NettyPipeline;

/**
 * Requests Netty refuses before any handler sees them (a request line or headers over the limits, a request that is
 * not HTTP) get an empty 414, 431 or 400 from Reactor Netty. This outbound handler, right after the HTTP codec, gives
 * those answers the problem body every other error has (with CORS and a trace id); nothing else is touched: an
 * application response is never an empty full response of these statuses without a Content-Type.
 */
@ChannelHandler.Sharable
final class DecodeFailureProblems extends ChannelOutboundHandlerAdapter {

    /** Adds the handler to every connection of the server. */
    static NettyServerCustomizer customizer() {
        DecodeFailureProblems handler = new DecodeFailureProblems();
        return server -> server.doOnChannelInit((observer, channel, address) -> {
            if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, "decodeFailureProblems", handler);
            }
        });
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof FullHttpResponse response && response.content().readableBytes() == 0
                && !response.headers().contains(HttpHeaderNames.CONTENT_TYPE)) {
            int status = response.status().code();
            String detail = switch (status) {
                case 414 -> "The request URI is longer than the server accepts (4096 characters for the request line).";
                case 431 -> "The request headers are larger than the server accepts (64 KB).";
                case 400 -> "The request is not valid HTTP.";
                default -> null;
            };
            if (detail != null) {
                String traceId = ProblemErrorHandler.newTraceId();
                String reason = response.status().reasonPhrase();
                byte[] body = ("{\"type\":" + ProblemErrorHandler.json(reason)
                        + ",\"title\":" + ProblemErrorHandler.json(reason + " Error")
                        + ",\"status\":" + status
                        + ",\"detail\":" + ProblemErrorHandler.json(detail)
                        + ",\"code\":\"1000\",\"traceId\":\"" + traceId + "\",\"details\":{}}")
                        .getBytes(StandardCharsets.UTF_8);
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
