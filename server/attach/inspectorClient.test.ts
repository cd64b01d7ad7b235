import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { InspectorError, targetUrlOfStarting } from './inspectorClient';

/**
 * A loopback server standing in for an inspector that is still starting: it resets the first
 * `resets` connections (RST, as the kernel sends when a socket is closed with unread data or
 * SO_LINGER 0), then answers /json/list as Node's inspector does.
 */
async function startingInspector(resets: number): Promise<{ server: Server; port: number; connections: () => number }> {
  let seen = 0;
  const server = createServer((socket: Socket) => {
    seen++;
    if (seen <= resets) {
      socket.resetAndDestroy();
      return;
    }
    socket.once('data', () => {
      const body = JSON.stringify([{ id: 'a1b2-c3', type: 'node', webSocketDebuggerUrl: 'ws://elsewhere.example:1/x' }]);
      socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  return { server, port: address.port, connections: () => seen };
}

describe('attach: an inspector SIGUSR1 has just opened', () => {
  it('asks its target list again while its first connections are reset, and keeps only the id', async () => {
    const inspector = await startingInspector(3);
    try {
      const url = await targetUrlOfStarting('127.0.0.1', inspector.port, 1000, 3000);
      assert.equal(url, `ws://127.0.0.1:${inspector.port}/a1b2-c3`);
      assert.equal(inspector.connections(), 4);
    } finally {
      inspector.server.close();
    }
  });

  it('gives up in one line once the settling time is spent', async () => {
    const inspector = await startingInspector(Number.POSITIVE_INFINITY);
    try {
      await assert.rejects(targetUrlOfStarting('127.0.0.1', inspector.port, 1000, 300), (error: unknown) => {
        assert.ok(error instanceof InspectorError);
        assert.equal(error.message, `127.0.0.1:${inspector.port}: ECONNRESET`);
        return true;
      });
      assert.ok(inspector.connections() >= 2, `asked ${inspector.connections()} times`);
    } finally {
      inspector.server.close();
    }
  });

  it('does not ask again when the port answers as something else', async () => {
    const server = createServer((socket: Socket) => socket.once('data', () => socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')));
    let seen = 0;
    server.on('connection', () => seen++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      await assert.rejects(targetUrlOfStarting('127.0.0.1', port, 1000, 3000), /does not answer as a Node inspector/);
      assert.equal(seen, 1);
    } finally {
      server.close();
    }
  });
});
