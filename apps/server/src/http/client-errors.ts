import { maxHeaderSize, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { messages } from "@gradecast/contract/messages";

// Requests Node's HTTP parser refuses before Fastify sees them (headers over 16 KB, a malformed
// request line, a client too slow to send its headers) in the API's error shape and with the
// same security headers as every other answer. Written on the raw socket, as Node does.
export function createClientErrorHandler(securityHeaders: () => [string, string][]) {
  return (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const [status, code, message] =
      error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "validation_failed", messages.headersTooLarge(maxHeaderSize / 1024)]
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "validation_failed", messages.requestTooSlow]
          : [400, "validation_failed", messages.requestNotHttp];
    const body = JSON.stringify({ error: { code, message } });
    const headers = [
      ...securityHeaders(),
      ["content-type", "application/json; charset=utf-8"],
      ["content-length", String(Buffer.byteLength(body))],
      ["cache-control", "no-store"],
      ["connection", "close"],
    ];
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers.map(([k, v]) => `${k}: ${v}`).join("\r\n")}\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
