// Bundles the Electron entry (main/index.ts), the DICOM scan worker and the preloads
// (preload/index.ts, and preload/patient.ts for the patient display) into main/.build/. Entry and preload are CommonJS: package.json's "main" is
// main/.build/index.cjs, and sandboxed preloads must be one CommonJS file.
// `node main/esbuild.config.mjs` (npm run build:main).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  sourcemap: 'linked',
  logLevel: 'info',
  legalComments: 'none',
};

await build({
  ...common,
  entryPoints: ['main/index.ts'],
  outfile: 'main/.build/index.cjs',
  target: 'node22',
  // Native and Electron modules are loaded at run time; everything else goes into the bundle.
  external: ['electron', 'keytar'],
  // The core is ESM and uses import.meta.url (createRequire, worker paths); CommonJS has __filename.
  define: { 'import.meta.url': '__scanbridge_import_meta_url' },
  banner: { js: "const __scanbridge_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
});

// The DICOM scan's worker threads load main/.build/scan-worker.js (see main/core/dicom/scan-pool.ts).
// ESM, because the package is "type": "module"; its CommonJS dependencies get a require().
await build({
  ...common,
  entryPoints: ['main/core/dicom/scan-worker.ts'],
  outfile: 'main/.build/scan-worker.js',
  format: 'esm',
  target: 'node22',
  banner: { js: "import { createRequire as __scanbridgeCreateRequire } from 'node:module'; const require = __scanbridgeCreateRequire(import.meta.url);" },
});

await build({
  ...common,
  entryPoints: ['preload/index.ts'],
  outfile: 'main/.build/preload.cjs',
  target: 'chrome140',
  minify: true,
  external: ['electron'],
});

// The patient display's own preload: the consent session's methods only.
await build({
  ...common,
  entryPoints: ['preload/patient.ts'],
  outfile: 'main/.build/patient-preload.cjs',
  target: 'chrome140',
  minify: true,
  external: ['electron'],
});
