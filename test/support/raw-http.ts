// Raw HTTP/1.1 exchanges for tests that compare a shortcut's bytes with the SDK's own (status line,
// headers, SSE events, content-length or chunked framing).
import { connect } from 'node:net';

/** One raw HTTP/1.1 exchange on a fresh connection: the response bytes with `Date` masked. */
export function exchange(port: number, head: Record<string, string>, body?: string, method = 'POST'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const headers: Record<string, string | number> = {
      Host: `127.0.0.1:${port}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...head,
      Connection: 'close',
    };
    if (body !== undefined) headers['Content-Length'] = Buffer.byteLength(body);
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    const done = () => {
      socket.destroy();
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]*/i, ''),
      );
    };
    // The SSE answers say `connection: keep-alive`: the response is over when its framing says so.
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (complete(Buffer.concat(chunks).toString('latin1'))) done();
    });
    socket.on('end', done);
    socket.on('error', reject);
    socket.write(`${method} /mcp HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
  });
}

/** Whether `text` holds a whole HTTP/1.1 response (content-length, chunked, or no body). */
export function complete(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = text.slice(0, end);
  const length = /\r\ncontent-length: (\d+)/i.exec(head);
  if (length) return text.length - end - 4 >= Number(length[1]);
  if (/\r\ntransfer-encoding: chunked/i.test(head)) return text.endsWith('\r\n0\r\n\r\n');
  return true;
}
