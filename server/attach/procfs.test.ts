import { strict as assert } from 'node:assert';
import { createServer } from 'node:net';

import { catchesSignal, isLoopbackOrAny, listeningSocketsOf, loopbackHostFor, parentOf, parseListening, SIGUSR1_NUMBER, uidOf } from './procfs';
import { inspectPortOf, looksLikeNode } from './openInspector';

describe('attach: /proc parsers', () => {
  it('reads whether SIGUSR1 is caught from the SigCgt mask', () => {
    // Node 20 at rest: SIGINT, SIGUSR1, SIGSEGV, SIGTERM (bits 1, 9, 10, 14)
    assert.equal(catchesSignal('Name:\tnode\nSigCgt:\t0000000100004602\n', SIGUSR1_NUMBER), true);
    // a shell-like mask without bit 9
    assert.equal(catchesSignal('SigCgt:\t0000000000004002\n', SIGUSR1_NUMBER), false);
    assert.equal(catchesSignal('no mask here', SIGUSR1_NUMBER), false);
  });

  it('reads the uid and the parent pid (a command name with spaces and parentheses)', () => {
    assert.equal(uidOf('Uid:\t1000\t1000\t1000\t1000\n'), 1000);
    assert.equal(parentOf('4242 (PM2 v5.3.0: God (x)) S 17 4242 4242 0 -1'), 17);
    assert.equal(parentOf('garbage'), null);
  });

  it('parses the listening sockets of /proc/net/tcp and tcp6', () => {
    const tcp = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:240D 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 55534 1 0000000000000000 100 0 0 10 0
   1: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1167 1 0000000000000000 100 0 0 10 0
   2: 020200C0:CC0A 507100CB:01BB 01 00000000:00000000 02:00000025 00000000     0        0 49394 2 0000000000000000 20 4 28 148 -1`;
    assert.deepEqual(parseListening(tcp), [
      { address: '127.0.0.1', port: 9229, inode: 55534 },
      { address: '0.0.0.0', port: 2024, inode: 1167 },
    ]);
    const tcp6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:240D 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1 0000000000000000 100 0 0 10 0
   1: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 778 1 0000000000000000 100 0 0 10 0
   2: 0000000000000000FFFF00000100007F:1F91 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 779 1 0000000000000000 100 0 0 10 0`;
    assert.deepEqual(parseListening(tcp6), [
      { address: '::1', port: 9229, inode: 777 },
      { address: '::', port: 8080, inode: 778 },
      { address: '127.0.0.1', port: 8081, inode: 779 },
    ]);
  });

  it('connects on loopback only', () => {
    assert.equal(isLoopbackOrAny('127.0.0.1'), true);
    assert.equal(isLoopbackOrAny('0.0.0.0'), true);
    assert.equal(isLoopbackOrAny('192.168.1.4'), false);
    assert.equal(loopbackHostFor('0.0.0.0'), '127.0.0.1');
    assert.equal(loopbackHostFor('::1'), '::1');
  });

  it('finds a socket this process listens on, in the real /proc', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      assert.ok(listeningSocketsOf(process.pid).some((s) => s.port === port && s.address === '127.0.0.1'));
    } finally {
      server.close();
    }
  });
});

describe('attach: which process is Node, and its inspector port', () => {
  it('knows Node executables by name', () => {
    for (const name of ['/usr/bin/node', '/usr/bin/nodejs', '/opt/node20', '/x/node-18.19.0', 'C:\\node.exe', '/usr/bin/node (deleted)']) assert.equal(looksLikeNode(name), true, name);
    for (const name of ['/bin/sleep', '/usr/bin/bun', '/usr/bin/nodemon', '/usr/bin/python3']) assert.equal(looksLikeNode(name), false, name);
  });

  it('reads the port from --inspect-port, --inspect=[host:]port and NODE_OPTIONS words', () => {
    assert.equal(inspectPortOf([]), null);
    assert.equal(inspectPortOf(['--max-old-space-size=100']), null);
    assert.equal(inspectPortOf(['--inspect-port=9400']), 9400);
    assert.equal(inspectPortOf(['--inspect-port', '9401']), 9401);
    assert.equal(inspectPortOf(['--inspect=127.0.0.1:9402']), 9402);
    assert.equal(inspectPortOf(['--inspect=9403']), 9403);
    assert.equal(inspectPortOf(['--inspect']), null);
  });
});
