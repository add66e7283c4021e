// A local lint rule: no import cycle, type imports included. import-x's no-cycle skips `import type`,
// yet a cycle of types still ties two modules together (neither can be read, moved or tested without
// the other). Relative imports only: a package never imports our code. The graph of the other files
// is read from disk (each file's imports through TypeScript's own pre-processor), the linted file's
// from the text being linted.
import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];
/** path -> { mtimeMs, imports: resolved paths } */
const cache = new Map();

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function resolveSpecifier(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    if (/\.tsx?$/.test(candidate) && isFile(candidate)) return candidate;
  }
  return null;
}

function importsOfText(file, text) {
  const info = ts.preProcessFile(text, true, true);
  return [...new Set(info.importedFiles.map((f) => resolveSpecifier(file, f.fileName)).filter((p) => p !== null))];
}

function importsOf(file) {
  let mtimeMs;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.imports;
  const imports = importsOfText(file, readFileSync(file, 'utf8'));
  cache.set(file, { mtimeMs, imports });
  return imports;
}

/** A path of imports from `start` back to `target` (excluded), or null. */
function pathBack(start, target) {
  const seen = new Set();
  const stack = [[start, [start]]];
  while (stack.length > 0) {
    const [file, path] = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of importsOf(file)) {
      if (next === target) return path;
      if (!seen.has(next)) stack.push([next, [...path, next]]);
    }
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { message: { type: 'string' } }, additionalProperties: false }],
    messages: { cycle: 'Import cycle: {{path}}. {{message}}' },
  },
  create(context) {
    const file = context.filename;
    const message = context.options[0]?.message ?? '';
    const name = (p) => relative(context.cwd, p);
    const reported = new Set();
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      const target = resolveSpecifier(file, spec);
      if (!target || reported.has(target)) return;
      const back = target === file ? [] : pathBack(target, file);
      if (!back) return;
      reported.add(target);
      context.report({
        node,
        messageId: 'cycle',
        data: { path: [file, ...back, file].map(name).join(' → '), message },
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      TSImportType: (node) => {
        const arg = node.argument?.literal ?? node.argument;
        if (arg?.type === 'Literal') check(arg, arg.value);
      },
    };
  },
};
