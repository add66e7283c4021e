/** One measured figure of a benchmark, written to test/bench/RESULTS.md by test/bench/run.ts. */
export type BenchFigure = {
  /** What was measured, e.g. "scan 1500 slices: ScanBridge". */
  name: string;
  value: number;
  unit: string;
  /** The goal, stated in words, e.g. "≤ 0.5 × dcmdump". */
  goal?: string;
  /** Whether the goal was met, when there is one. */
  met?: boolean;
  note?: string;
};

/** A benchmark section: a title and the figures it measured in one run. */
export type BenchSection = { title: string; figures: BenchFigure[]; details?: string };

export type Bench = () => Promise<BenchSection>;
