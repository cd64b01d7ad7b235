// Free loopback ports for the services the tests start (unit and e2e). A cluster's or pm2's
// workers open their inspectors on the primary's port + n, so a run of ports must be free; it is
// drawn below the kernel's ephemeral range, where no outgoing connection (the tests' own load on
// loopback included) takes one of them meanwhile. Once in CI a worker's inspector port, drawn from
// the ephemeral range, was taken by the load's own sockets, and the worker was missing from a capture.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Whether a loopback port can be listened on now. */
async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (listening) await new Promise((resolve) => server.close(resolve));
  return listening;
}

/** The first port of the kernel's ephemeral range (what outgoing connections' local ports are drawn from). */
function ephemeralStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(first) && first > 2048) return first;
  } catch {
    // not Linux: the IANA range's start
  }
  return 49152;
}

/** The first of `count` consecutive ports free now, below the ephemeral range. */
export async function freePort(count = 1): Promise<number> {
  const high = ephemeralStart() - count;
  for (let attempt = 0; attempt < 200; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * (high - 20_000));
    let free = true;
    for (let port = first; free && port < first + count; port++) free = await isFree(port);
    if (free) return first;
  }
  throw new Error(`no ${count} consecutive free ports found below ${high + count}`);
}
