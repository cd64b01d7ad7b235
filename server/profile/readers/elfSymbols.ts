// The code symbols of an ELF file (Node's binary, a shared library), read from its symbol table
// directly: what `nm -n -S --defined-only` lists with a t/T/w/W type, without spawning nm over the
// whole binary (a second on Node's 110k symbols, most of the fixed cost of reading a V8 log).
// Only the table's fixed-size entries are decoded up front; a symbol's name is read from the
// string table when it is asked for (the few symbols ticks fall in, and the Builtins_* prefix
// check), as the mangled name the file holds.
//
// The file is untrusted (its path comes from a V8 log): every offset and size read from it is
// checked against the file's size and against caps before anything is allocated or read.
import { readSync } from 'node:fs';
import type { RegularFile } from '../../shared/guardedRead';

/** Node's .symtab is ~2.6 MB and its .strtab ~8 MB: a table past these caps is not read. */
const MAX_SYMTAB_BYTES = 128 * 1024 * 1024;
const MAX_STRTAB_BYTES = 256 * 1024 * 1024;
const MAX_SECTIONS = 65_535;

const SHT_SYMTAB = 2;
const SHT_DYNSYM = 11;
const SHF_EXECINSTR = 0x4;
const STT_SECTION = 3;
const STT_FILE = 4;
const SHN_LORESERVE = 0xff00;

/** Code symbols in the table's order; names read on demand from the string table. */
export interface ElfCodeSymbols {
  count: number;
  address: Float64Array;
  size: Float64Array;
  /** The symbol's name, as the file spells it (mangled). */
  name(index: number): string;
  /** True when the name starts with `prefix` (ASCII), without decoding the rest. */
  nameStartsWith(index: number, prefix: string): boolean;
  /** Compares two symbols' names byte by byte, as nm -n orders symbols at one address. */
  compareNames(a: number, b: number): number;
}

export class ElfError extends Error {}

function readAt(file: RegularFile, offset: number, length: number): Buffer {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > file.size) {
    throw new ElfError('a section lies outside the file');
  }
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(file.fd, buffer, done, length - done, offset + done);
    if (n === 0) throw new ElfError('the file ended early');
    done += n;
  }
  return buffer;
}

/** Reads an ELF file's code symbols (its .symtab, else its .dynsym); throws ElfError on a malformed file. */
export function readElfCodeSymbols(file: RegularFile): ElfCodeSymbols {
  const ident = readAt(file, 0, Math.min(64, file.size));
  if (ident.length < 52 || ident.readUInt32BE(0) !== 0x7f454c46) throw new ElfError('not an ELF file');
  const is64 = ident[4] === 2;
  if (!is64 && ident[4] !== 1) throw new ElfError('unknown ELF class');
  const le = ident[5] === 1;
  if (!le && ident[5] !== 2) throw new ElfError('unknown ELF byte order');
  const u16 = (b: Buffer, o: number): number => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (b: Buffer, o: number): number => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  // 64-bit fields as numbers: addresses and offsets of real binaries stay far below 2^53.
  const u64 = (b: Buffer, o: number): number => (le ? b.readUInt32LE(o) + b.readUInt32LE(o + 4) * 2 ** 32 : b.readUInt32BE(o) * 2 ** 32 + b.readUInt32BE(o + 4));
  const word = is64 ? u64 : u32;
  if (is64 && ident.length < 64) throw new ElfError('truncated ELF header');
  const shoff = word(ident, is64 ? 0x28 : 0x20);
  const shentsize = u16(ident, is64 ? 0x3a : 0x2e);
  const shnum = u16(ident, is64 ? 0x3c : 0x30);
  const wantEntry = is64 ? 64 : 40;
  if (shnum === 0 || shnum > MAX_SECTIONS || shentsize < wantEntry) throw new ElfError('no section headers');
  const headers = readAt(file, shoff, shnum * shentsize);
  interface Section { type: number; flags: number; offset: number; size: number; link: number; entsize: number }
  const sections: Section[] = [];
  for (let i = 0; i < shnum; i++) {
    const o = i * shentsize;
    sections.push(
      is64
        ? { type: u32(headers, o + 4), flags: u64(headers, o + 8), offset: u64(headers, o + 0x18), size: u64(headers, o + 0x20), link: u32(headers, o + 0x28), entsize: u64(headers, o + 0x38) }
        : { type: u32(headers, o + 4), flags: u32(headers, o + 8), offset: u32(headers, o + 0x10), size: u32(headers, o + 0x14), link: u32(headers, o + 0x18), entsize: u32(headers, o + 0x24) },
    );
  }
  const table = sections.find((s) => s.type === SHT_SYMTAB) ?? sections.find((s) => s.type === SHT_DYNSYM);
  if (table === undefined) throw new ElfError('no symbol table (a stripped binary)');
  const strings = sections[table.link];
  const entsize = is64 ? 24 : 16;
  if (strings === undefined || table.entsize !== entsize) throw new ElfError('a malformed symbol table');
  if (table.size > MAX_SYMTAB_BYTES || strings.size > MAX_STRTAB_BYTES) throw new ElfError('a symbol table larger than Hotframe reads');
  const symtab = readAt(file, table.offset, table.size - (table.size % entsize));
  const strtab = readAt(file, strings.offset, strings.size);

  const count = symtab.length / entsize;
  const address = new Float64Array(count);
  const size = new Float64Array(count);
  const nameAt = new Uint32Array(count);
  // Which sections hold code (nm's t/T/w/W), looked up per symbol.
  const code = Uint8Array.from(sections, (section) => ((section.flags & SHF_EXECINSTR) !== 0 ? 1 : 0));
  // A DataView over the table: Node's holds ~100k entries, read in one pass (Buffer's readUInt*
  // methods check their arguments on every call).
  const view = new DataView(symtab.buffer, symtab.byteOffset, symtab.length);
  const word64 = (o: number): number => (le ? view.getUint32(o, true) + view.getUint32(o + 4, true) * 2 ** 32 : view.getUint32(o) * 2 ** 32 + view.getUint32(o + 4));
  let kept = 0;
  for (let i = 1; i < count; i++) {
    const o = i * entsize;
    const info = symtab[is64 ? o + 4 : o + 12];
    const shndx = view.getUint16(is64 ? o + 6 : o + 14, le);
    const type = info & 0xf;
    if (shndx === 0 || shndx >= SHN_LORESERVE || type === STT_SECTION || type === STT_FILE) continue;
    // nm's t/T/w/W: defined in a section of code.
    if (shndx >= code.length || code[shndx] === 0) continue;
    const name = view.getUint32(o, le);
    if (name === 0 || name >= strtab.length) continue;
    nameAt[kept] = name;
    address[kept] = is64 ? word64(o + 8) : view.getUint32(o + 4, le);
    size[kept] = is64 ? word64(o + 16) : view.getUint32(o + 8, le);
    kept++;
  }
  const end = (at: number): number => {
    const nul = strtab.indexOf(0, at);
    return nul === -1 ? strtab.length : nul;
  };
  return {
    count: kept,
    address: address.subarray(0, kept),
    size: size.subarray(0, kept),
    name: (index) => strtab.toString('latin1', nameAt[index], end(nameAt[index])),
    nameStartsWith: (index, prefix) => {
      const at = nameAt[index];
      if (at + prefix.length > strtab.length) return false;
      for (let k = 0; k < prefix.length; k++) if (strtab[at + k] !== prefix.charCodeAt(k)) return false;
      return true;
    },
    compareNames: (a, b) => Buffer.compare(strtab.subarray(nameAt[a], end(nameAt[a])), strtab.subarray(nameAt[b], end(nameAt[b]))),
  };
}
