// The window's texts as the renderer loads them: the base file `renderer/locales/<lang>.json` merged
// with every area file `renderer/locales/<lang>/<area>.json` (held under the key `<area>`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type LocaleTree = { [k: string]: string | LocaleTree };

const localesDir = fileURLToPath(new URL('../../renderer/locales', import.meta.url));

/** The whole text tree of one language; an area file whose key the base already has is an error. */
export function loadLocaleTree(lang: string): LocaleTree {
  const tree = JSON.parse(readFileSync(join(localesDir, `${lang}.json`), 'utf8')) as LocaleTree;
  const areaDir = join(localesDir, lang);
  if (!existsSync(areaDir)) return tree;
  for (const file of readdirSync(areaDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const area = file.slice(0, -'.json'.length);
    if (area in tree) throw new Error(`renderer/locales/${lang}/${file}: the key "${area}" is already in ${lang}.json`);
    tree[area] = JSON.parse(readFileSync(join(areaDir, file), 'utf8')) as LocaleTree;
  }
  return tree;
}

/** A text tree as dotted keys: `{ a: { b: 'x' } }` is `a.b` → 'x'. */
export function flattenLocaleTree(tree: LocaleTree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else for (const [kk, vv] of flattenLocaleTree(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}
