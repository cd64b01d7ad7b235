// pprof protobuf written byte by byte for the hostile suite: inputs of millions of entries are
// repeated byte patterns (Buffer fills), never objects encoded one by one in the test process.

export function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

/** A length-delimited field. */
export function message(field: number, bytes: readonly number[] | Buffer): Buffer {
  return Buffer.concat([Buffer.from([(field << 3) | 2, ...varint(bytes.length)]), Buffer.from(bytes)]);
}

/** A varint field. */
export function scalar(field: number, n: number): number[] {
  return [(field << 3) | 0, ...varint(n)];
}

/** `part` repeated `times` times, in one buffer. */
export function repeat(part: Buffer, times: number): Buffer {
  return Buffer.alloc(part.length * times, part);
}

/**
 * A profile's head: strings, `sampleTypes` sample types (samples/count), function 1 (f in
 * /app.js line 1) and location 1 (one line of f). Samples and further locations follow.
 */
export function pprofHead(sampleTypes = 1): Buffer {
  const strings = ['', 'samples', 'count', 'f', '/app.js'].map((s) => message(6, [...Buffer.from(s)]));
  return Buffer.concat([
    ...strings,
    repeat(message(1, [...scalar(1, 1), ...scalar(2, 2)]), sampleTypes),
    message(5, [...scalar(1, 1), ...scalar(2, 3), ...scalar(4, 4), ...scalar(5, 1)]),
    message(4, [...scalar(1, 1), ...message(4, [...scalar(1, 1), ...scalar(2, 2)])]),
  ]);
}

/** A sample with a value of 1 whose stack is `locationIds` (leaf first), packed. */
export function pprofSample(locationIds: Buffer): Buffer {
  return message(2, Buffer.concat([message(1, locationIds), message(2, [1])]));
}
