import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDicomHeaderSync } from '@main/core/dicom';
import type { MeshFiles } from '@fixtures/dicom/generate';
import { newUid, writeDicom, writeMeshFiles } from '@fixtures/dicom/generate';

let tmp: string;
let meshes: MeshFiles;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'scanbridge-mesh-'));
  meshes = await writeMeshFiles(tmp);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('mesh detection', () => {
  it('recognises binary and ASCII STL, PLY and OBJ by extension and content', () => {
    expect(readDicomHeaderSync(meshes.stlBinary).outcome).toEqual({ kind: 'mesh', format: 'stl' });
    expect(readDicomHeaderSync(meshes.stlAscii).outcome).toEqual({ kind: 'mesh', format: 'stl' });
    expect(readDicomHeaderSync(meshes.ply).outcome).toEqual({ kind: 'mesh', format: 'ply' });
    expect(readDicomHeaderSync(meshes.obj).outcome).toEqual({ kind: 'mesh', format: 'obj' });
  });

  it('finds the vertices of an OBJ behind a long comment block, even right after a DICOM file', async () => {
    const dicom = await writeDicom(join(tmp, 'small.dcm'), {
      studyUid: newUid(),
      seriesUid: newUid(),
      rows: 8,
      cols: 8,
    });
    expect(readDicomHeaderSync(dicom.path).outcome.kind).toBe('dicom');
    writeFileSync(
      join(tmp, 'commented.obj'),
      `${'# exported by the intra-oral scanner\n'.repeat(800)}v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n`,
    );
    expect(readDicomHeaderSync(join(tmp, 'commented.obj')).outcome).toEqual({ kind: 'mesh', format: 'obj' });
  });

  it('rejects a file whose extension says mesh but whose content does not', () => {
    const fakes: [string, string | Buffer][] = [
      ['fake.stl', Buffer.alloc(200, 1)],
      ['fake.ply', 'not a ply\n'],
      ['fake.obj', '# only comments\nmtllib x.mtl\n'],
    ];
    for (const [name, data] of fakes) {
      writeFileSync(join(tmp, name), data);
      expect(readDicomHeaderSync(join(tmp, name)).outcome).toEqual({ kind: 'skipped', reason: 'not_dicom' });
    }
  });

  it('does not call mesh content a mesh without a mesh extension', () => {
    writeFileSync(join(tmp, 'model.txt'), 'ply\nformat ascii 1.0\n');
    expect(readDicomHeaderSync(join(tmp, 'model.txt')).outcome).toEqual({ kind: 'skipped', reason: 'not_dicom' });
  });
});
