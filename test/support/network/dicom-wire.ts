// The DICOM upper layer (PS3.8 §9.3) and DIMSE command sets (PS3.7 §E) written byte by byte, for
// tests that must send what no well-behaved tool sends: a command split over PDUs, an A-ABORT in
// the middle of an object, bytes that are no PDU at all. Written from the standard, independently
// of the listener's own reader. `WireClient` is a raw TCP peer that collects the PDUs it receives.
import { connect, type Socket } from 'node:net';

export const IMPLICIT_LE = '1.2.840.10008.1.2';
export const EXPLICIT_LE = '1.2.840.10008.1.2.1';
export const VERIFICATION = '1.2.840.10008.1.1';
export const CT_IMAGE = '1.2.840.10008.5.1.4.1.1.2';

const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const evenUid = (uid: string): Buffer => Buffer.from(uid.length % 2 ? `${uid}\0` : uid, 'latin1');

/** A PDU: type, a reserved byte, the 4-byte length, the body. */
export function pdu(type: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([type, 0]), u32(body.length), body]);
}

/** A variable item of an association PDU (type, reserved, 2-byte length). */
const item = (type: number, body: Buffer): Buffer => Buffer.concat([Buffer.from([type, 0]), u16(body.length), body]);
const aet = (name: string): Buffer => Buffer.from(name.padEnd(16, ' ').slice(0, 16), 'latin1');

export type ProposedContext = { id: number; abstractSyntax: string; transferSyntaxes: string[] };

/** A-ASSOCIATE-RQ (PS3.8 §9.3.2) with its application context, presentation contexts and a maximum PDU length. */
export function associateRq(called: string, calling: string, contexts: ProposedContext[]): Buffer {
  const pcs = contexts.map((c) =>
    item(
      0x20,
      Buffer.concat([
        Buffer.from([c.id, 0, 0, 0]),
        item(0x30, evenUid(c.abstractSyntax)),
        ...c.transferSyntaxes.map((t) => item(0x40, evenUid(t))),
      ]),
    ),
  );
  const userInfo = item(0x50, Buffer.concat([item(0x51, u32(16384)), item(0x52, evenUid('1.2.3.4.5.6'))]));
  return pdu(
    0x01,
    Buffer.concat([
      u16(1),
      u16(0),
      aet(called),
      aet(calling),
      Buffer.alloc(32),
      item(0x10, Buffer.from('1.2.840.10008.3.1.1.1', 'latin1')),
      ...pcs,
      userInfo,
    ]),
  );
}

export type Pdv = { pcId: number; command: boolean; last: boolean; value: Buffer };

/** P-DATA-TF (PS3.8 §9.3.5) with its PDV items. */
export function pdata(...pdvs: Pdv[]): Buffer {
  return pdu(
    0x04,
    Buffer.concat(
      pdvs.map((p) =>
        Buffer.concat([
          u32(p.value.length + 2),
          Buffer.from([p.pcId, (p.command ? 1 : 0) | (p.last ? 2 : 0)]),
          p.value,
        ]),
      ),
    ),
  );
}

export const releaseRq = (): Buffer => pdu(0x05, Buffer.alloc(4));
export const abortRq = (): Buffer => pdu(0x07, Buffer.alloc(4));

/** One implicit-VR little-endian command element. */
function commandElement(element: number, value: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(0x0000, 0);
  head.writeUInt16LE(element, 2);
  head.writeUInt32LE(value.length, 4);
  return Buffer.concat([head, value]);
}
const usLe = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};

/** A DIMSE command set with its group length (PS3.7 §E.1). */
export function commandSet(o: {
  field: number;
  messageId: number;
  sopClass: string;
  sopInstance?: string;
  hasDataSet: boolean;
}): Buffer {
  const body = Buffer.concat([
    commandElement(0x0002, evenUid(o.sopClass)),
    commandElement(0x0100, usLe(o.field)),
    commandElement(0x0110, usLe(o.messageId)),
    ...(o.field === 0x0001 ? [commandElement(0x0700, usLe(0))] : []),
    commandElement(0x0800, usLe(o.hasDataSet ? 0x0000 : 0x0101)),
    ...(o.sopInstance ? [commandElement(0x1000, evenUid(o.sopInstance))] : []),
  ]);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length);
  return Buffer.concat([commandElement(0x0000, length), body]);
}

/** A received PDU: its type and body (after the 6-byte header). */
export type ReceivedPdu = { type: number; body: Buffer };

/** The status (0000,0900) of a DIMSE response carried whole in one P-DATA-TF PDU's one PDV. */
export function responseStatus(p: ReceivedPdu): number | null {
  if (p.type !== 0x04) return null;
  const value = p.body.subarray(6);
  for (let at = 0; at + 8 <= value.length;) {
    const element = value.readUInt16LE(at + 2);
    const length = value.readUInt32LE(at + 4);
    if (element === 0x0900) return value.readUInt16LE(at + 8);
    at += 8 + length;
  }
  return null;
}

/** A raw TCP peer of the listener: writes bytes as given, collects the PDUs it gets back. */
export class WireClient {
  readonly received: ReceivedPdu[] = [];
  closed = false;
  private pending = Buffer.alloc(0);

  private constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => {
      this.pending = Buffer.concat([this.pending, d]);
      while (this.pending.length >= 6 && this.pending.length >= 6 + this.pending.readUInt32BE(2)) {
        const length = this.pending.readUInt32BE(2);
        this.received.push({ type: this.pending[0] ?? 0, body: this.pending.subarray(6, 6 + length) });
        this.pending = this.pending.subarray(6 + length);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => (this.closed = true));
  }

  static open(port: number): Promise<WireClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => resolve(new WireClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes each buffer in its own socket write, waiting for each to be flushed. */
  async send(...parts: Buffer[]): Promise<void> {
    for (const p of parts) await new Promise<void>((r, j) => this.socket.write(p, (e) => (e ? j(e) : r())));
  }

  end(): void {
    this.socket.destroy();
  }
}
