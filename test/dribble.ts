// Bytes handed out a few at a time, as a slow file or pipe gives them: the streamed readers
// (server/profile/readers/scan*.ts) must read a value cut anywhere exactly as one read whole.
import type { ByteSource } from '../server/profile/readers/jsonBytes';

/** The bytes 1 to 7 per read, in turn. */
export function dribble(bytes: Buffer): ByteSource {
  let at = 0;
  let turn = 0;
  return {
    read(target, offset, length) {
      const n = Math.min(length, bytes.length - at, 1 + (turn++ % 7));
      bytes.copy(target, offset, at, at + n);
      at += n;
      return n;
    },
  };
}
