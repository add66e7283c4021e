#!/usr/bin/env -S node --max-semi-space-size=2
// `scanbridge` command: runs the TypeScript CLI through tsx's loader (no build step needed).
import { register } from 'tsx/esm/api';

register();
await import('../cli.ts');
