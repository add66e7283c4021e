// Bundles into main/.build/:
//   cli/       the `scanbridge` command (main/cli.ts) and its DICOM scan worker, ESM, split into
//              shared chunks so `scan` never loads the HTTP client or the settings store; the bin
//              (main/bin/scanbridge.mjs) runs it when it is newer than every source it was built from;
//   index.cjs  the Electron entry (main/index.ts), CommonJS as package.json's "main";
//   scan-worker.js  the scan worker the Electron entry starts;
//   libdeflate.mjs  libdeflate (its WebAssembly inlined) for the deflate workers, here and in cli/;
//   preload.cjs     the window's preload (sandboxed preloads must be one CommonJS file);
//   patient-preload.cjs  the patient display's own preload: the consent session's methods only.
//
// `node main/esbuild.config.mjs` (npm run build:main; run by `npm ci` through `prepare` and by
// `npm test`). `--cli` builds only the command; `--desktop` only the rest (the desktop shell's test
// builds it so, leaving the command's folder alone while other tests run it).
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // `npm ci --omit=dev` has no esbuild: the command then runs from the TypeScript sources (slower start).
  process.stderr.write(
    'esbuild is not installed: skipping the build; `scanbridge` will run from the TypeScript sources.\n',
  );
  process.exit(0);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const onlyCli = process.argv.includes('--cli');
const onlyDesktop = process.argv.includes('--desktop');

/**
 * memorystream 0.3.1 (dcmjs-dimse's buffer for each association; the last release) allocates with
 * the deprecated `new Buffer()`. Node stays quiet about it for code under node_modules, but bundled
 * here it is our code to Node, which printed DEP0005 on stderr at the listener's first association.
 * Its three calls are given as the safe constructors that do the same for their arguments (a size,
 * a string or array chunk); the build fails if a new release changed them, so the patch is revisited.
 */
const modernBuffer = {
  name: 'memorystream-modern-buffer',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]memorystream[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const patched = source
        .replace('new Buffer(this._getQueueSize())', 'Buffer.alloc(this._getQueueSize())')
        .replaceAll('new Buffer(', 'Buffer.from(');
      if (patched === source || patched.includes('new Buffer('))
        throw new Error(`memorystream changed (${args.path}): review the Buffer patch in esbuild.config.mjs`);
      return { contents: patched, loader: 'js' };
    });
  },
};

const common = {
  plugins: [modernBuffer],
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
};

// ESM output for a "type": "module" package; the CommonJS dependencies bundled in need a require().
const esmRequireBanner =
  "import { createRequire as __scanbridgeCreateRequire } from 'node:module'; const require = __scanbridgeCreateRequire(import.meta.url);";

/**
 * The command. Built into a fresh folder and swapped in whole, so that a `scanbridge` started
 * during a rebuild never sees half of it. inputs.json lists the sources the bin compares against.
 * The folder sits as deep as main/core/cli/ so that paths the core resolves from import.meta.url
 * (the built window, ../../../renderer/dist) land in the same place.
 */
async function buildCli() {
  const out = `main/.build/cli`;
  const staging = `main/.build/cli.${process.pid}.tmp`;
  rmSync(`${root}${staging}`, { recursive: true, force: true });
  const builtAt = Date.now();
  const result = await esbuild.build({
    ...common,
    entryPoints: {
      cli: 'main/cli.ts',
      'scan-worker': 'main/core/dicom/scan/scan-worker.ts',
      // Imported by the deflate workers by URL (main/core/upload/compression/deflate-pool.ts).
      libdeflate: 'node_modules/libdeflate/index.js',
    },
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    splitting: true,
    target: 'node20',
    // keytar is a native, optional module: loaded at run time when installed.
    external: ['keytar', 'electron'],
    banner: { js: esmRequireBanner },
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules/'));
  writeFileSync(`${root}${staging}/inputs.json`, `${JSON.stringify({ built_ms: builtAt, inputs })}\n`);
  mkdirSync(`${root}main/.build`, { recursive: true });
  const old = `main/.build/cli.${process.pid}.old`;
  try {
    renameSync(`${root}${out}`, `${root}${old}`);
  } catch {
    // first build
  }
  renameSync(`${root}${staging}`, `${root}${out}`);
  rmSync(`${root}${old}`, { recursive: true, force: true });
}

if (!onlyDesktop) await buildCli();

if (!onlyCli) {
  await esbuild.build({
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

  // The desktop app's scan worker threads load main/.build/scan-worker.js (see main/core/dicom/scan/scan-pool.ts).
  await esbuild.build({
    ...common,
    entryPoints: ['main/core/dicom/scan/scan-worker.ts'],
    outfile: 'main/.build/scan-worker.js',
    format: 'esm',
    target: 'node22',
    banner: { js: esmRequireBanner },
  });

  // The desktop app's deflate workers import main/.build/libdeflate.mjs (main/core/upload/compression/deflate-pool.ts).
  await esbuild.build({
    ...common,
    entryPoints: ['node_modules/libdeflate/index.js'],
    outfile: 'main/.build/libdeflate.mjs',
    format: 'esm',
    target: 'node22',
  });

  await esbuild.build({
    ...common,
    entryPoints: ['preload/index.ts'],
    outfile: 'main/.build/preload.cjs',
    target: 'chrome140',
    minify: true,
    external: ['electron'],
  });

  await esbuild.build({
    ...common,
    entryPoints: ['preload/patient.ts'],
    outfile: 'main/.build/patient-preload.cjs',
    target: 'chrome140',
    minify: true,
    external: ['electron'],
  });
}
