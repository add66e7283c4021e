// The listener's own reading of the DICOM upper layer and of DIMSE command sets, fed bytes written
// independently from the standard (support/dicom-wire.ts), cut at every awkward place.
import { describe, expect, it } from 'vitest';
import { readCommandSet } from '@main/core/receive/command-set';
import { PduReader } from '@main/core/receive/pdu-reader';
import { abortRq, commandSet, CT_IMAGE, pdata, releaseRq } from '@support/network/dicom-wire';

type Event =
  | { kind: 'pdu'; bytes: Buffer }
  | { kind: 'fragment'; pcId: number; control: number; piece: Buffer; end: boolean }
  | { kind: 'malformed'; message: string };

function read(chunks: Buffer[]): Event[] {
  const events: Event[] = [];
  const reader = new PduReader({
    pdu: (bytes) => events.push({ kind: 'pdu', bytes: Buffer.from(bytes) }),
    fragment: (pcId, control, piece, end) =>
      events.push({ kind: 'fragment', pcId, control, piece: Buffer.from(piece), end }),
    malformed: (message) => events.push({ kind: 'malformed', message }),
  });
  for (const c of chunks) reader.push(c);
  return events;
}

/** `bytes` cut into reads of 1, 2, 3, … bytes, then the rest: every header is split somewhere. */
function cutUp(bytes: Buffer, maxPiece = 13): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0, n = 1; at < bytes.length; at += n, n = (n % maxPiece) + 1) out.push(bytes.subarray(at, at + n));
  return out;
}

/** The PDVs' values reassembled from the fragments: one entry per PDV (a PDV ends at `end`). */
function pdvs(events: Event[]): { pcId: number; control: number; value: Buffer }[] {
  const out: { pcId: number; control: number; value: Buffer }[] = [];
  let pieces: Buffer[] = [];
  for (const e of events) {
    if (e.kind !== 'fragment') continue;
    pieces.push(e.piece);
    if (e.end) {
      out.push({ pcId: e.pcId, control: e.control, value: Buffer.concat(pieces) });
      pieces = [];
    }
  }
  return out;
}

const SOP = '1.2.826.0.1.3680043.8.498.1';
const store = commandSet({ field: 0x0001, messageId: 7, sopClass: CT_IMAGE, sopInstance: SOP, hasDataSet: true });
const data = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));

describe("the listener's PDU reader", () => {
  it('reads PDUs whose headers are split across socket reads, byte by byte', () => {
    const stream = Buffer.concat([pdata({ pcId: 1, command: true, last: true, value: store }), releaseRq(), abortRq()]);
    const whole = read([stream]);
    const bytewise = read(cutUp(stream, 1));
    const cut = read(cutUp(stream));
    for (const events of [bytewise, cut]) {
      expect(pdvs(events)).toEqual(pdvs(whole));
      expect(events.filter((e) => e.kind === 'pdu')).toEqual(whole.filter((e) => e.kind === 'pdu'));
    }
    expect(whole.filter((e) => e.kind === 'pdu').map((e) => (e.kind === 'pdu' ? e.bytes : null))).toEqual([
      releaseRq(),
      abortRq(),
    ]);
    expect(pdvs(whole)).toEqual([{ pcId: 1, control: 0x03, value: store }]);
    expect(bytewise.some((e) => e.kind === 'malformed')).toBe(false);
  });

  it('reads several PDVs in one PDU, in order, each with its context and control header', () => {
    const events = read([
      pdata(
        { pcId: 3, command: true, last: true, value: store },
        { pcId: 3, command: false, last: false, value: data.subarray(0, 1000) },
        { pcId: 3, command: false, last: true, value: data.subarray(1000) },
      ),
    ]);
    expect(pdvs(events)).toEqual([
      { pcId: 3, control: 0x03, value: store },
      { pcId: 3, control: 0x00, value: data.subarray(0, 1000) },
      { pcId: 3, control: 0x02, value: data.subarray(1000) },
    ]);
  });

  it('hands a data fragment on as views of the reads, split where the reads split, without gathering it', () => {
    // One data set over three PDUs (three PDVs), the stream cut into reads of up to 13 bytes.
    const stream = Buffer.concat([
      pdata({ pcId: 1, command: false, last: false, value: data.subarray(0, 1200) }),
      pdata({ pcId: 1, command: false, last: false, value: data.subarray(1200, 2400) }),
      pdata({ pcId: 1, command: false, last: true, value: data.subarray(2400) }),
    ]);
    const events = read(cutUp(stream));
    const fragments = events.filter((e) => e.kind === 'fragment');
    expect(fragments.length).toBeGreaterThan(200); // pieces, not whole PDVs
    expect(Math.max(...fragments.map((e) => (e.kind === 'fragment' ? e.piece.length : 0)))).toBeLessThanOrEqual(13);
    expect(Buffer.concat(pdvs(events).map((p) => p.value))).toEqual(data);
    expect(pdvs(events).map((p) => p.control)).toEqual([0x00, 0x00, 0x02]);
  });

  it('reads a command set split over two PDVs in two PDUs', () => {
    const events = read(
      cutUp(
        Buffer.concat([
          pdata({ pcId: 5, command: true, last: false, value: store.subarray(0, 41) }),
          pdata({ pcId: 5, command: true, last: true, value: store.subarray(41) }),
        ]),
      ),
    );
    const parts = pdvs(events);
    expect(parts.map((p) => p.control)).toEqual([0x01, 0x03]);
    expect(readCommandSet(Buffer.concat(parts.map((p) => p.value)))).toEqual({
      commandField: 0x0001,
      messageId: 7,
      affectedSopClassUid: CT_IMAGE,
      affectedSopInstanceUid: SOP,
      hasDataSet: true,
    });
  });

  it('says in words why bytes are not a PDU stream, once, and reads nothing after', () => {
    const cases: [Buffer, RegExp][] = [
      [Buffer.from('GET / HTTP/1.1\r\n\r\n'), /unknown PDU type 0x47/],
      [Buffer.from([0x04, 0, 0, 0, 0, 2, 0, 0]), /P-DATA-TF PDU of 2 bytes holds no PDV/],
      // A PDV claiming 100 bytes in a PDU of 8.
      [Buffer.from([0x04, 0, 0, 0, 0, 8, 0, 0, 0, 100, 1, 3, 0, 0]), /does not fit its P-DATA-TF PDU/],
      // A whole PDV, then 3 bytes: too few for another.
      [Buffer.from([0x04, 0, 0, 0, 0, 9, 0, 0, 0, 2, 1, 3, 9, 9, 9]), /bytes too few for a PDV/],
      [Buffer.from([0x01, 0, 0x10, 0, 0, 0]), /claims 268435456 bytes/],
    ];
    for (const [bytes, words] of cases) {
      const events = read([...cutUp(bytes), releaseRq()]);
      const malformed = events.filter((e) => e.kind === 'malformed');
      expect(malformed).toHaveLength(1);
      expect(malformed[0]?.kind === 'malformed' && malformed[0].message).toMatch(words);
      expect(events.filter((e) => e.kind === 'pdu')).toEqual([]);
    }
  });
});

describe("the listener's command set reader", () => {
  it('reads a C-ECHO without a data set, and UIDs without their padding', () => {
    const echo = commandSet({ field: 0x0030, messageId: 65535, sopClass: '1.2.840.10008.1.1', hasDataSet: false });
    expect(readCommandSet(echo)).toEqual({
      commandField: 0x0030,
      messageId: 65535,
      affectedSopClassUid: '1.2.840.10008.1.1', // sent NUL-padded to 18 bytes
      affectedSopInstanceUid: '',
      hasDataSet: false,
    });
  });

  it('says why a command set cannot be read', () => {
    expect(readCommandSet(store.subarray(0, store.length - 3))).toMatch(/runs past its end/);
    expect(readCommandSet(store.subarray(0, 5))).toMatch(/ends inside an element header/);
    const dataGroup = Buffer.from(store);
    dataGroup.writeUInt16LE(0x0008, 0);
    expect(readCommandSet(dataGroup)).toMatch(/group 0008/);
    // Only the group length (12 bytes) and the SOP class: no Command Field.
    expect(readCommandSet(store.subarray(0, 12 + 8 + store.readUInt32LE(12 + 4)))).toMatch(/without its Command Field/);
  });
});
