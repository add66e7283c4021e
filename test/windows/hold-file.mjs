// Run by Windows Node in the Windows job: holds a file open without sharing, as a scanner's
// software or an antivirus does (every other open fails with a sharing violation, EBUSY), until a
// flag file appears, then closes it without having changed it.
//   node.exe hold-file.mjs <file> <release flag>
import { closeSync, existsSync, openSync } from 'node:fs';

// libuv's UV_FS_O_EXLOCK: CreateFile with share mode 0 (Node does not export the constant).
const EXCLUSIVE = 0x10000000;
const [file, releaseFlag] = process.argv.slice(2);
const fd = openSync(file, EXCLUSIVE); // read-only, no sharing
process.stdout.write(`held ${process.pid}\n`);
const timer = setInterval(() => {
  if (!existsSync(releaseFlag)) return;
  clearInterval(timer);
  closeSync(fd);
  process.stdout.write('released\n');
}, 50);
