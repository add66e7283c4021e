// Surface meshes (intra-oral scans, printed models) travel as STL, PLY or OBJ files next to, or
// instead of, DICOM. A file counts as a mesh only when its extension and its first bytes agree.
import type { MeshFormat } from './dicom-types';

const EXTENSIONS: Record<string, MeshFormat> = { '.stl': 'stl', '.ply': 'ply', '.obj': 'obj' };

/** The mesh format a file extension claims, if any. */
export function meshFormatOfExtension(ext: string): MeshFormat | null {
  return EXTENSIONS[ext.toLowerCase()] ?? null;
}

function head(bytes: Uint8Array, n: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(n, bytes.length)).toString('latin1');
}

/** Whether `bytes` (the first bytes of a file of `fileSize` bytes) look like a mesh of `format`. */
export function looksLikeMesh(format: MeshFormat, bytes: Uint8Array, fileSize: number): boolean {
  switch (format) {
    case 'stl': {
      // Binary STL: 80-byte header, triangle count, 50 bytes per triangle — the size must match.
      if (bytes.length >= 84) {
        const triangles = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readUInt32LE(80);
        if (triangles > 0 && 84 + 50 * triangles === fileSize) return true;
      }
      const text = head(bytes, 4096);
      return /^\s*solid\b/.test(text) && /\bfacet\b|\bendsolid\b/.test(text);
    }
    case 'ply':
      return /^ply\r?\n/.test(head(bytes, 8));
    case 'obj':
      return /^v\s+[-+.\d]/m.test(head(bytes, 64 * 1024));
  }
}
