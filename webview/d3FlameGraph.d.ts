// Types for the parts of d3-flame-graph v4 (its ESM source, src/flamegraph.js) and d3-selection
// that the webview uses. Neither package ships declarations.
declare module 'd3-flame-graph/src/flamegraph.js' {
  /** A d3-hierarchy node as d3-flame-graph keeps it (values recomputed on zoom). */
  export interface FlameFrame<D> {
    /** The input node; d3-flame-graph adds fade/hide flags to it while zoomed. */
    data: D & { fade?: boolean; hide?: boolean };
    value: number;
    depth: number;
    height: number;
    x0: number;
    x1: number;
    id: number;
    parent: FlameFrame<D> | null;
    children?: FlameFrame<D>[];
    highlight?: boolean;
    delta?: number;
    originalValue?: number;
  }

  export interface FlameTooltip<D> {
    (selection: unknown): void;
    show(frame: FlameFrame<D>, element: Element): void;
    hide(): void;
    destroy?(): void;
  }

  export interface FlameChart<D> {
    (selection: unknown): void;
    width(px: number): FlameChart<D>;
    cellHeight(px: number): FlameChart<D>;
    minHeight(px: number): FlameChart<D>;
    minFrameSize(px: number): FlameChart<D>;
    transitionDuration(ms: number): FlameChart<D>;
    inverted(on: boolean): FlameChart<D>;
    sort(on: boolean): FlameChart<D>;
    title(text: string): FlameChart<D>;
    selfValue(on: boolean): FlameChart<D>;
    tooltip(tip: FlameTooltip<D>): FlameChart<D>;
    setColorMapper(mapper: (frame: FlameFrame<D>, original: string) => string): FlameChart<D>;
    setSearchMatch(match: (frame: FlameFrame<D>, term: string) => boolean): FlameChart<D>;
    setSearchHandler(handler: (results: FlameFrame<D>[], sum: number, total: number) => void): FlameChart<D>;
    setDetailsHandler(handler: (text: string | null) => void): FlameChart<D>;
    onClick(handler: (frame: FlameFrame<D>) => void): FlameChart<D>;
    search(term: string): void;
    clear(): void;
    resetZoom(): void;
    zoomTo(frame: FlameFrame<D>): void;
    update(data?: unknown): FlameChart<D>;
    destroy(): FlameChart<D>;
  }

  export default function flamegraph<D>(): FlameChart<D>;
}

declare module 'd3-selection' {
  export interface Selection {
    datum(value: unknown): Selection;
    call(fn: (selection: Selection) => void): Selection;
  }
  export function select(element: Element): Selection;
}

declare module 'd3-transition' {
  /** Cancels the element's scheduled transitions and stops its active one. */
  export function interrupt(node: Element, name?: string): void;
}
