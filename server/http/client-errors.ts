import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser refuses before Koa sees them (a URL or headers
 * over `maxHeaderSize`, a malformed request line, headers not all in within
 * `headersTimeout`) get the same JSON error envelope as everything else instead
 * of Node's bare, empty answer. (A body that stops arriving: http/body.ts.)
 */
export function answerClientErrorsWithJson(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // Only what the HTTP parser refused has an HTTP answer. Anything else (a TLS handshake that
    // failed or timed out) does not: the answer, queued behind a handshake that never finishes,
    // kept the connection open for good, and stopping waited for it.
    const http = err.code !== undefined && (err.code.startsWith('HPE_') || err.code === 'ERR_HTTP_REQUEST_TIMEOUT');
    if (err.code === 'ECONNRESET' || !socket.writable || !http) {
      socket.destroy();
      return;
    }
    const [status, reason, msg] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request URL or headers are too large; send long parameters in a POST body']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request did not arrive in time']
          : [400, 'Bad Request', 'Malformed HTTP request'];
    const body = JSON.stringify({ result: 'error', msg, code: 'BAD_REQUEST' });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
