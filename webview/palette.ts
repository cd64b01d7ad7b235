// Frame colours. The colours themselves live in flame.css as custom properties (one place, and
// the legend swatches use the same ones); this file reads them once per render and shades
// each frame slightly by a hash of its name so that neighbours stay distinguishable.
import type { Category } from '../server/protocol/wire';
import { CATEGORIES } from './categories';

type Rgb = readonly [number, number, number];

export interface Palette {
  category: Record<Category, Rgb>;
  slower: Rgb;
  faster: Rgb;
  unchanged: Rgb;
  /** Search matches. */
  match: string;
}

const grey: Rgb = [200, 200, 200];

export function parseHexColour(text: string): Rgb | null {
  const match = /^#([0-9a-f]{6})$/i.exec(text.trim());
  if (!match) return null;
  const n = Number.parseInt(match[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** `style` is the computed style of the element carrying the --hf-* properties. */
export function readPalette(style: Pick<CSSStyleDeclaration, 'getPropertyValue'>): Palette {
  const colour = (name: string): Rgb => parseHexColour(style.getPropertyValue(name)) ?? grey;
  const category = {} as Record<Category, Rgb>;
  for (const c of CATEGORIES) category[c] = colour(`--hf-${c}`);
  return {
    category,
    slower: colour('--hf-diff-slower'),
    faster: colour('--hf-diff-faster'),
    unchanged: colour('--hf-diff-unchanged'),
    match: rgb(parseHexColour(style.getPropertyValue('--hf-match')) ?? [230, 0, 230]),
  };
}

function rgb([r, g, b]: Rgb): string {
  return `rgb(${Math.round(r)},${Math.round(g)},${Math.round(b)})`;
}

function mix(a: Rgb, b: Rgb, weight: number): Rgb {
  return [a[0] + (b[0] - a[0]) * weight, a[1] + (b[1] - a[1]) * weight, a[2] + (b[2] - a[2]) * weight];
}

/** 0..1 from a name, stable across renders. */
function nameShade(name: string): number {
  let hash = 2166136261;
  for (let i = 0; i < name.length && i < 64; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 16777619);
  return ((hash >>> 0) % 1000) / 1000;
}

const white: Rgb = [255, 255, 255];
const black: Rgb = [0, 0, 0];

export function categoryColour(palette: Palette, category: Category, name: string): string {
  const shade = nameShade(name);
  // Up to 20% lighter or 8% darker than the category's base colour.
  const base = palette.category[category];
  return rgb(shade < 0.3 ? mix(base, black, shade * 0.27) : mix(base, white, (shade - 0.3) * 0.29));
}

/**
 * Differential colour: red when the frame got slower, blue when faster, the stronger the larger
 * the change relative to the frame's own time. `valueMs` is the frame's total in ms.
 */
export function diffColour(palette: Palette, deltaMs: number, valueMs: number): string {
  if (deltaMs === 0 || !Number.isFinite(deltaMs)) return rgb(palette.unchanged);
  const strength = Math.min(1, Math.abs(deltaMs) / Math.max(valueMs, Math.abs(deltaMs)));
  // Even a small change gets a visible tint (20%); the strongest stops at 70% so black labels stay readable.
  const weight = 0.2 + 0.5 * strength;
  return rgb(mix(palette.unchanged, deltaMs > 0 ? palette.slower : palette.faster, weight));
}
