// The types of what the club pages and the table page's typed modules use from table.js, so that they can be
// checked strictly while table.js itself (the browser table's drawing, being changed with the browser table) is
// not yet typed. Delete this file when
// table.js carries its own JSDoc types and joins tsconfig.json's "include": TypeScript reads a .d.ts next to a
// .js in its place.

/** A point on the table in metres: x across (0 = left seen from the head), y along (0 = the head cushion). */
export type Point = [number, number];

/** The table as /api/table gives it (metres). */
export interface TableJson {
  width: number;
  length: number;
  ball_radius: number;
  lines: { head_string: number; centre_line: number; foot_string: number; [name: string]: unknown };
  pockets: Record<string, { jaws: { point: Point }[]; [key: string]: unknown }>;
  [key: string]: unknown;
}

export const BALL_IDS: string[];
export const POCKET_IDS: string[];
export function degrees(rad: number): number;
export function radians(deg: number): number;
export function dist(a: Point, b: Point): number;
export function segmentDistance(p: Point, a: Point, b: Point): number;

/** A stroke's motion: sample times and each ball's samples (null once it is gone). */
export interface Trajectories {
  t: number[];
  balls: Record<string, (Point | null)[]>;
}
/** Merge the records of one action into one set of ball paths (also used by the table page's rulings). */
export function mergeTrajectories(records: { stroke?: { ball: string }; trajectories?: Trajectories | null }[] | null | undefined): {
  paths: Record<string, { t: number[]; samples: (Point | null)[] }>;
  duration: number;
};

export class Geometry {
  constructor(table: TableJson);
  table: TableJson;
  W: number;
  L: number;
  R: number;
  headString: number;
  centreLine: number;
  footString: number;
  mouth(pocket: string): Point;
  fits(p: Point, margin?: number): boolean;
  clampToBed(p: Point, margin?: number): Point;
  /** The direction (degrees) from `cue` to the ghost ball that sends `object` to `pocket`'s mouth. */
  ghostAim(cue: Point, object: Point, pocket: string): number;
}

/** What is drawn over the balls (lit areas, calls, draggable balls...); each page sets what it needs. */
export type Overlay = Record<string, any>;

export class TableView {
  constructor(canvas: HTMLCanvasElement, table: TableJson);
  canvas: HTMLCanvasElement;
  ctx: CanvasRenderingContext2D;
  geo: Geometry;
  table: TableJson;
  balls: Record<string, Point | null | undefined>;
  overlay: Overlay;
  scale: number;
  dpr: number;
  landscape: boolean;
  animating: boolean;
  fit(maxWidth: number, maxHeight: number, landscape?: boolean): void;
  toPx(p: Point): Point;
  toTable(px: number, py: number): Point;
  eventPoint(event: { clientX: number; clientY: number }): Point;
  ballAt(p: Point, reach?: number): string | null;
  pocketAt(p: Point): string | null;
  /** The pocket whose drawn hole holds `p`, or null. */
  pocketHoleAt(p: Point): string | null;
  draw(): void;
  animate(records: object[], speed?: number): Promise<{ frames: number; duration: number }>;
  skip(): void;
  respot(id: string, from: Point | null, to: Point, ms?: number): Promise<void>;
  _metres(): void;
  _pixels(): void;
  _drawOverlayOver(): void;
}
