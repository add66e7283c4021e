#!/usr/bin/env node
// `scanbridge` command: runs the TypeScript CLI through tsx's loader (no build step needed).
import { register } from 'tsx/esm/api';

register();
await import('../cli.ts');
