// Entry of a scan worker when the core runs from TypeScript sources (tsx, the CLI, vitest):
// worker threads do not inherit the parent's loader, so register tsx here, then load the worker.
import { register } from 'tsx/esm/api';

register();
await import('./scan-worker.ts');
