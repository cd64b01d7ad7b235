// What Linux's /proc says about a running process, for attaching to it: whether it is a Node process
// that catches SIGUSR1 (sending SIGUSR1 to a process that does not catch it kills it, so this is
// checked before any signal), which loopback TCP ports it listens on (to find the inspector port
// SIGUSR1 opened, whatever its --inspect-port), which process holds a port, and its children (a
// cluster primary's or pm2 daemon's workers).
//
// The parsers are pure (unit-tested on text); the readers go through guardedRead (a /proc file is
// a regular file of size 0 whose bytes arrive as read; the cap bounds it). Every text here comes
// from another process (its command line is anything it wants): it is returned as data, never
// interpreted.
import { readdirSync, readlinkSync } from 'node:fs';
import { readGuardedText } from '../shared/guardedRead';

const SMALL = 64 * 1024;
/** /proc/net/tcp of a busy machine: 150 bytes a socket. */
const NET_TABLE = 32 * 1024 * 1024;

export const SIGUSR1_NUMBER = 10;

/** True when the signal mask of /proc/<pid>/status ("SigCgt:\t0000000000004a02") catches `signal`. */
export function catchesSignal(statusText: string, signal: number): boolean {
  const match = /^SigCgt:\s*([0-9a-fA-F]+)\s*$/m.exec(statusText);
  if (!match) return false;
  return ((BigInt(`0x${match[1]}`) >> BigInt(signal - 1)) & 1n) === 1n;
}

/** The uid that owns a process (/proc/<pid>/status "Uid:\treal\teffective..."), or null. */
export function uidOf(statusText: string): number | null {
  const match = /^Uid:\s*(\d+)/m.exec(statusText);
  return match ? Number(match[1]) : null;
}

/** The parent pid from /proc/<pid>/stat ("pid (comm) state ppid ..."; comm may hold spaces and parentheses). */
export function parentOf(statText: string): number | null {
  const close = statText.lastIndexOf(')');
  if (close === -1) return null;
  const fields = statText.slice(close + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) ? ppid : null;
}

export interface ListeningSocket {
  /** Dotted IPv4 or bracket-less IPv6 text; '0.0.0.0' and '::' mean every address. */
  address: string;
  port: number;
  inode: number;
}

function ipv4(hex: string): string {
  // /proc prints the address as a little-endian 32-bit word.
  const bytes = [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return bytes.join('.');
}

function ipv6(hex: string): string {
  const groups: string[] = [];
  // four little-endian 32-bit words
  for (let word = 0; word < 4; word++) {
    const w = hex.slice(word * 8, word * 8 + 8);
    const bytes = [6, 4, 2, 0].map((i) => w.slice(i, i + 2));
    groups.push(bytes[0] + bytes[1], bytes[2] + bytes[3]);
  }
  const text = groups.map((g) => parseInt(g, 16).toString(16)).join(':');
  if (text === '0:0:0:0:0:0:0:0') return '::';
  if (text === '0:0:0:0:0:0:0:1') return '::1';
  const mapped = /^0:0:0:0:0:ffff:([0-9a-f]+):([0-9a-f]+)$/.exec(text);
  if (mapped) {
    const n = (parseInt(mapped[1], 16) << 16) | parseInt(mapped[2], 16);
    return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
  }
  return text;
}

/** The listening sockets (state 0A) of a /proc/net/tcp or tcp6 table. */
export function parseListening(tableText: string): ListeningSocket[] {
  const sockets: ListeningSocket[] = [];
  for (const line of tableText.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10 || fields[3] !== '0A') continue;
    const [addressHex, portHex] = fields[1].split(':');
    if (addressHex === undefined || portHex === undefined) continue;
    const address = addressHex.length === 8 ? ipv4(addressHex) : addressHex.length === 32 ? ipv6(addressHex) : null;
    const inode = Number(fields[9]);
    if (address === null || !Number.isInteger(inode)) continue;
    sockets.push({ address, port: parseInt(portHex, 16), inode });
  }
  return sockets;
}

/** An address a client on this machine reaches over loopback: loopback itself, or every address. */
export function isLoopbackOrAny(address: string): boolean {
  return address === '::' || address === '::1' || address === '0.0.0.0' || /^127\./.test(address);
}

/** The address to connect to a socket listening on `address`, on loopback only. */
export function loopbackHostFor(address: string): string {
  if (address === '::' || address === '::1') return address === '::' ? '127.0.0.1' : '::1';
  if (address === '0.0.0.0') return '127.0.0.1';
  return address;
}

// ---- readers ----------------------------------------------------------------------------------

const proc = (pid: number, file: string): string => `/proc/${pid}/${file}`;

export function hasProcfs(): boolean {
  try {
    readGuardedText('/proc/self/stat', SMALL);
    return true;
  } catch {
    return false;
  }
}

export function readStatus(pid: number): string {
  return readGuardedText(proc(pid, 'status'), SMALL);
}

/** The command line, its NUL-separated words; empty for a kernel thread or a process gone. */
export function commandLineOf(pid: number): string[] {
  try {
    const words = readGuardedText(proc(pid, 'cmdline'), SMALL).split('\0');
    if (words.at(-1) === '') words.pop();
    return words;
  } catch {
    return [];
  }
}

/** The environment, `NAME=value` words; empty when it cannot be read. */
export function environmentOf(pid: number): string[] {
  try {
    return readGuardedText(proc(pid, 'environ'), 4 * 1024 * 1024).split('\0');
  } catch {
    return [];
  }
}

/** The executable's path, or null (a process of another user: EACCES). */
export function executableOf(pid: number): string | null {
  try {
    return readlinkSync(proc(pid, 'exe'));
  } catch {
    return null;
  }
}

/** Every process's children, from one pass over /proc/<pid>/stat. */
export function childrenByParent(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const parent = parentOf(readGuardedText(`/proc/${name}/stat`, SMALL));
      if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** The socket inodes a process holds (needs the right to read its fd folder: same user or root). */
export function socketInodesOf(pid: number): Set<number> {
  const inodes = new Set<number>();
  for (const fd of readdirSync(proc(pid, 'fd'))) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`${proc(pid, 'fd')}/${fd}`));
      if (match) inodes.add(Number(match[1]));
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

/** Every listening TCP socket in the network namespace of `pid`. */
export function listeningSocketsSeenBy(pid: number): ListeningSocket[] {
  const sockets: ListeningSocket[] = [];
  for (const table of ['tcp', 'tcp6']) {
    try {
      sockets.push(...parseListening(readGuardedText(proc(pid, `net/${table}`), NET_TABLE)));
    } catch {
      // no IPv6
    }
  }
  return sockets;
}

/** The listening TCP sockets `pid` holds. */
export function listeningSocketsOf(pid: number): ListeningSocket[] {
  const mine = socketInodesOf(pid);
  return listeningSocketsSeenBy(pid).filter((s) => mine.has(s.inode));
}

/** The process holding a socket, by its inode (scans the fd folders we may read), or null. */
export function ownerOfSocket(inode: number): number | null {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (socketInodesOf(Number(name)).has(inode)) return Number(name);
    } catch {
      // another user's, or gone
    }
  }
  return null;
}
