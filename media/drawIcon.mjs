// Draws media/icon.png (128x128 RGBA): a small flame graph on a dark rounded tile. Run with
// `node media/drawIcon.mjs`; written as a PNG by hand (zlib + CRC) so no image library is needed.
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SIZE = 128;
const pixels = new Uint8Array(SIZE * SIZE * 4);

/** Coverage of a rounded rectangle at a pixel, sampled 4x4 for smooth corners. */
function coverage(px, py, x0, y0, x1, y1, r) {
  let inside = 0;
  for (let sy = 0; sy < 4; sy++) {
    for (let sx = 0; sx < 4; sx++) {
      const x = px + (sx + 0.5) / 4;
      const y = py + (sy + 0.5) / 4;
      if (x < x0 || x > x1 || y < y0 || y > y1) continue;
      const cx = Math.min(Math.max(x, x0 + r), x1 - r);
      const cy = Math.min(Math.max(y, y0 + r), y1 - r);
      if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) inside++;
    }
  }
  return inside / 16;
}

function fill(x0, y0, x1, y1, r, [red, green, blue]) {
  for (let py = Math.floor(y0); py < Math.ceil(y1); py++) {
    for (let px = Math.floor(x0); px < Math.ceil(x1); px++) {
      const a = coverage(px, py, x0, y0, x1, y1, r);
      if (a === 0) continue;
      const i = (py * SIZE + px) * 4;
      const under = pixels[i + 3] / 255;
      const out = a + under * (1 - a);
      pixels[i] = Math.round((red * a + pixels[i] * under * (1 - a)) / out);
      pixels[i + 1] = Math.round((green * a + pixels[i + 1] * under * (1 - a)) / out);
      pixels[i + 2] = Math.round((blue * a + pixels[i + 2] * under * (1 - a)) / out);
      pixels[i + 3] = Math.round(out * 255);
    }
  }
}

fill(0, 0, 128, 128, 24, [43, 18, 6]);
// Rows from the root (bottom) up, [x0, x1] spans: hotter colours towards the leaves.
const rows = [
  { color: [200, 40, 20], spans: [[14, 114]] },
  { color: [226, 72, 24], spans: [[14, 82], [84, 114]] },
  { color: [240, 110, 30], spans: [[14, 56], [58, 82], [84, 104]] },
  { color: [248, 150, 40], spans: [[20, 56], [60, 78], [86, 98]] },
  { color: [252, 196, 60], spans: [[28, 50], [62, 74]] },
  { color: [255, 232, 120], spans: [[34, 46]] },
];
rows.forEach(({ color, spans }, level) => {
  const y1 = 112 - level * 16;
  for (const [x0, x1] of spans) fill(x0, y1 - 14, x1, y1, 3, color);
});

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) raw.set(pixels.subarray(y * SIZE * 4, (y + 1) * SIZE * 4), y * (SIZE * 4 + 1) + 1);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(fileURLToPath(new URL('./icon.png', import.meta.url)), png);
console.log(`media/icon.png: ${png.length} bytes`);
