import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeContext, judgeContexts, preferredTransferSyntax } from '@main/core/receive';
import {
  IMPLEMENTATION_CLASS_UID,
  ObjectBuffer,
  Part10Sink,
  part10Header,
  releaseBuffer,
} from '@main/core/receive/part10';

const dir = mkdtempSync(join(tmpdir(), 'sb-part10-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An Explicit VR Little Endian data set: SOP class and instance, Study and Series UIDs, Modality. */
function dataset(sop: string): Buffer {
  const el = (group: number, element: number, vr: string, value: string): Buffer => {
    const v = Buffer.from(value.length % 2 ? `${value}${vr === 'UI' ? '\0' : ' '}` : value, 'latin1');
    const h = Buffer.alloc(8);
    h.writeUInt16LE(group, 0);
    h.writeUInt16LE(element, 2);
    h.write(vr, 4, 'latin1');
    h.writeUInt16LE(v.length, 6);
    return Buffer.concat([h, v]);
  };
  return Buffer.concat([
    el(0x0008, 0x0016, 'UI', '1.2.840.10008.5.1.4.1.1.2'),
    el(0x0008, 0x0018, 'UI', sop),
    el(0x0008, 0x0060, 'CS', 'CT'),
    el(0x0020, 0x000d, 'UI', '1.2.3.4'),
    el(0x0020, 0x000e, 'UI', '1.2.3.4.5'),
  ]);
}

describe('the Part-10 file of a received object', () => {
  it('has a file-meta group DCMTK reads, with the group length, UIDs, transfer syntax and our implementation', async () => {
    const sop = '1.2.3.4.5.6'; // odd length: padded with NUL
    const path = join(dir, 'a.dcm');
    const header = part10Header({
      sopClassUid: '1.2.840.10008.5.1.4.1.1.2',
      sopInstanceUid: sop,
      transferSyntaxUid: '1.2.840.10008.1.2.1',
      sourceAeTitle: 'CS3D',
    });
    writeFileSync(path, Buffer.concat([header, dataset(sop)]));
    const { stdout } = await promisify(execFile)('dcmdump', ['-M', '+L', path]);
    expect(stdout).toMatch(/\(0002,0000\) UL (\d+)/);
    expect(Number(/\(0002,0000\) UL (\d+)/.exec(stdout)?.[1])).toBe(header.length - 132 - 12);
    expect(stdout).toContain('(0002,0002) UI =CTImageStorage');
    expect(stdout).toContain(`(0002,0003) UI [${sop}]`);
    expect(stdout).toContain('(0002,0010) UI =LittleEndianExplicit');
    expect(stdout).toContain(`(0002,0012) UI [${IMPLEMENTATION_CLASS_UID}]`);
    expect(stdout).toContain('(0002,0016) AE [CS3D]');
    expect(stdout).toContain('(0020,000d) UI [1.2.3.4]');
  });

  it('refuses UIDs that are not UIDs (they name the file)', () => {
    expect(() =>
      part10Header({ sopClassUid: '1.2', sopInstanceUid: '../../x', transferSyntaxUid: '1.2.840.10008.1.2' }),
    ).toThrow(/not a UID/);
  });
});

describe('presentation contexts', () => {
  it('accepts our classes in an offered syntax stored as is, refuses others with a reason', () => {
    expect(
      judgeContext('1.2.840.10008.5.1.4.1.1.2', ['1.2.840.10008.1.2.4.90', '1.2.840.10008.1.2'], 'from_dicom'),
    ).toEqual({
      accept: true,
      transferSyntax: '1.2.840.10008.1.2.4.90',
    });
    expect(judgeContext('1.2.840.10008.5.1.4.1.1.4', ['1.2.840.10008.1.2'], 'cbct')).toMatchObject({
      accept: false,
      reason: 'abstract_syntax',
    });
    expect(judgeContext('1.2.840.10008.5.1.4.1.1.4', ['1.2.840.10008.1.2'], 'atm')).toMatchObject({ accept: true });
    expect(judgeContext('1.2.840.10008.5.1.4.1.1.2', ['1.2.840.10008.1.2.4.50'], 'from_dicom')).toMatchObject({
      accept: false,
      reason: 'transfer_syntax',
    });
  });

  it('takes the syntax the viewer reads best whatever the order offered; the sender decides among equals', () => {
    const deflated = '1.2.840.10008.1.2.1.99';
    const implicit = '1.2.840.10008.1.2';
    const explicit = '1.2.840.10008.1.2.1';
    const big = '1.2.840.10008.1.2.2';
    const orders = (items: string[]): string[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((x, i) => orders(items.filter((_, j) => j !== i)).map((o) => [x, ...o]));
    for (const order of orders([deflated, implicit, explicit, big]))
      expect([order, preferredTransferSyntax(order)]).toEqual([order, explicit]);
    expect(preferredTransferSyntax([deflated, big, implicit])).toBe(implicit);
    expect(preferredTransferSyntax([deflated, big])).toBe(big);
    expect(preferredTransferSyntax([deflated, '1.2.840.10008.1.2.4.50'])).toBe(deflated);
    // The image's own compressed syntax and explicit VR little endian are equals: the sender's order holds.
    expect(preferredTransferSyntax(['1.2.840.10008.1.2.4.80', implicit, explicit])).toBe('1.2.840.10008.1.2.4.80');
    expect(preferredTransferSyntax([explicit, '1.2.840.10008.1.2.4.80'])).toBe(explicit);
    expect(preferredTransferSyntax(['1.2.840.10008.1.2.4.50'])).toBeUndefined();
  });

  it('refuses a context of a class accepted elsewhere in a syntax viewers read better', () => {
    const ct = '1.2.840.10008.5.1.4.1.1.2';
    const verdicts = judgeContexts(
      [
        { id: 1, abstractSyntax: ct, transferSyntaxes: ['1.2.840.10008.1.2.1.99'] },
        { id: 3, abstractSyntax: ct, transferSyntaxes: ['1.2.840.10008.1.2.1'] },
        { id: 5, abstractSyntax: ct, transferSyntaxes: ['1.2.840.10008.1.2'] },
        { id: 7, abstractSyntax: ct, transferSyntaxes: ['1.2.840.10008.1.2.4.80'] },
        { id: 9, abstractSyntax: '1.2.840.10008.5.1.4.1.1.7', transferSyntaxes: ['1.2.840.10008.1.2'] },
      ],
      'from_dicom',
    );
    expect([...verdicts].map(([id, v]) => [id, v.accept])).toEqual([
      [1, false],
      [3, true],
      [5, false],
      [7, true],
      [9, true],
    ]);
    expect(verdicts.get(1)).toMatchObject({ reason: 'transfer_syntax' });
  });
});

describe("an object's bytes gathered from socket reads", () => {
  const meta = {
    sopClassUid: '1.2.840.10008.5.1.4.1.1.2',
    sopInstanceUid: '1.2.3.4',
    transferSyntaxUid: '1.2.840.10008.1.2.1',
  };
  const still = { pause: () => undefined, resume: () => undefined };
  /** A read as the socket hands it over: memory of its own. */
  const read = (bytes: Buffer): Buffer => {
    const b = Buffer.allocUnsafeSlow(bytes.length);
    bytes.copy(b);
    return b;
  };

  it('keeps every byte after each read is released, object after object in one reused buffer', async () => {
    const gather = new ObjectBuffer();
    for (const size of [300_000, 70_000, 1_200_000]) {
      const data = Buffer.alloc(size);
      for (let i = 0; i < size; i++) data[i] = (i * 7 + size) & 0xff;
      const taken = gather.take();
      expect(taken).not.toBeNull();
      // A second object while the first is held gets no shared buffer.
      expect(gather.take()).toBeNull();
      const sink = new Part10Sink(() => join(dir, 'never.part'), meta, still, taken ?? undefined);
      for (let at = 0; at < size; at += 65_536) {
        const chunk = read(data.subarray(at, at + 65_536));
        sink.write(chunk.subarray(0, 10));
        sink.write(chunk.subarray(10));
        releaseBuffer(chunk);
        // Node 22 and later free the read at once; Node 20 has no way to (it waits for V8's collection).
        if (typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === 'function')
          expect(chunk.buffer.byteLength).toBe(0);
      }
      sink.end();
      const result = await sink.done;
      if (result.kind !== 'memory') throw new Error('expected the object in memory');
      const whole = Buffer.concat(result.chunks);
      expect(whole.subarray(0, 132).equals(part10Header(meta).subarray(0, 132))).toBe(true);
      expect(whole.subarray(whole.length - size).equals(data)).toBe(true);
      expect(result.bytes).toBe(part10Header(meta).length + size);
      sink.finished();
    }
  });

  it('never releases memory that is not wholly its own (a view into a larger buffer, a pooled buffer)', () => {
    const big = Buffer.allocUnsafeSlow(1024).fill(1);
    releaseBuffer(big.subarray(0, 512));
    expect(big.buffer.byteLength).toBe(1024);
    const pooled = Buffer.from('small');
    releaseBuffer(pooled);
    expect(pooled.toString()).toBe('small');
  });
});
