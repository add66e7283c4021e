import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Ensures the scratch folder for test artifacts exists before any suite runs. */
export default function setup(): void {
  mkdirSync(fileURLToPath(new URL('../.artifacts', import.meta.url)), { recursive: true });
}
