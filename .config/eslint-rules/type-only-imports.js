// A local lint rule: files matching the block may import the modules under `dir` (resolved, however
// the path is spelled) with `import type` / `export type` only. import-x's no-restricted-paths
// cannot tell a type import from a value import, and a value import of the contract would pull
// zod and the schemas into the window's bundle. Files listed in `allow` (plain constants that
// import nothing) may be imported for their values too.
import { dirname, relative, resolve, sep } from 'node:path';

const within = (file, dir) => {
  const rel = relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
};

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    schema: [
      {
        type: 'object',
        properties: {
          dir: { type: 'string' },
          message: { type: 'string' },
          allow: { type: 'array', items: { type: 'string' } },
        },
        required: ['dir', 'message'],
        additionalProperties: false,
      },
    ],
    messages: { valueImport: '{{message}}' },
  },
  create(context) {
    const { dir, message, allow = [] } = context.options[0];
    const root = resolve(context.cwd, dir);
    const allowed = new Set(
      allow.flatMap((f) => [resolve(context.cwd, f), resolve(context.cwd, f).replace(/\.ts$/, '')]),
    );
    const here = dirname(context.filename);
    const targetsDir = (spec) =>
      typeof spec === 'string' &&
      spec.startsWith('.') &&
      within(resolve(here, spec), root) &&
      !allowed.has(resolve(here, spec));
    const allTypes = (node) =>
      node.importKind === 'type' ||
      node.exportKind === 'type' ||
      (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
    const check = (node) => {
      if (node.source && targetsDir(node.source.value) && !allTypes(node))
        context.report({ node: node.source, messageId: 'valueImport', data: { message } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression(node) {
        if (node.source.type === 'Literal' && targetsDir(node.source.value))
          context.report({ node: node.source, messageId: 'valueImport', data: { message } });
      },
    };
  },
};
