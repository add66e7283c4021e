// The DICOM upper layer framed straight from the socket's reads (PS3.8 §9.3): the 6-byte PDU
// header, then either a whole PDU (association, release, abort: small, handed on as one buffer)
// or, for P-DATA-TF, its PDV items (§9.3.5.1) handed on piece by piece as they arrive. A data
// fragment's bytes are never copied or gathered here: a piece is a view of the socket's buffer.
// Only the 6-byte headers are assembled when a read splits them.

export const PduType = {
  AssociateRq: 0x01,
  AssociateAc: 0x02,
  AssociateRj: 0x03,
  PDataTf: 0x04,
  ReleaseRq: 0x05,
  ReleaseRp: 0x06,
  Abort: 0x07,
} as const;

/** The message control header of a PDV (PS3.8 §E.2): bit 0 command (else data), bit 1 last fragment. */
export const PDV_COMMAND = 0x01;
export const PDV_LAST = 0x02;

/**
 * The largest PDU other than P-DATA-TF taken: an A-ASSOCIATE-RQ with a hundred presentation
 * contexts of a dozen transfer syntaxes each is ~40 KB.
 */
export const MAX_CONTROL_PDU_BYTES = 1 << 20;

export type PduHandlers = {
  /** A whole PDU other than P-DATA-TF, its 6-byte header included. */
  pdu(bytes: Buffer): void;
  /** A piece of one PDV's value, in order; `end` on its last piece (a PDV may span reads and PDUs never). */
  fragment(pcId: number, control: number, piece: Buffer, end: boolean): void;
  /** The bytes cannot be a DICOM upper-layer stream: why, in words. Nothing more is read. */
  malformed(message: string): void;
};

type State = 'pdu-head' | 'control-body' | 'pdv-head' | 'pdv-value';

const TAIL = 'a P-DATA-TF PDU ends with bytes too few for a PDV';

const KNOWN_TYPES: ReadonlySet<number> = new Set(Object.values(PduType));

export class PduReader {
  private state: State = 'pdu-head';
  /** Stopped by its owner, or on a malformed stream. */
  private halted = false;
  /** The 6-byte header being read (a PDU's or a PDV item's), and how much of it is here. */
  private readonly head = Buffer.alloc(6);
  private headHave = 0;
  /** A control PDU being gathered. */
  private body: Buffer = Buffer.alloc(0);
  private bodyHave = 0;
  /** Bytes left in the current P-DATA-TF PDU, and in its current PDV's value. */
  private pduLeft = 0;
  private pdvLeft = 0;
  private pcId = 0;
  private control = 0;

  constructor(private readonly on: PduHandlers) {}

  /** Stops reading (the association is over): later bytes are ignored. */
  stop(): void {
    this.halted = true;
  }

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && !this.halted) {
      switch (this.state) {
        case 'pdu-head':
        case 'pdv-head':
          at = this.readHead(chunk, at);
          break;
        case 'control-body': {
          const n = Math.min(this.body.length - this.bodyHave, chunk.length - at);
          chunk.copy(this.body, this.bodyHave, at, at + n);
          this.bodyHave += n;
          at += n;
          if (this.bodyHave === this.body.length) this.controlDone();
          break;
        }
        case 'pdv-value': {
          const n = Math.min(this.pdvLeft, chunk.length - at);
          this.pdvLeft -= n;
          this.pduLeft -= n;
          const end = this.pdvLeft === 0;
          // Next state first: the handler may stop the reader.
          if (end) this.state = this.afterPdv();
          this.on.fragment(this.pcId, this.control, chunk.subarray(at, at + n), end);
          at += n;
          if (end && this.pduLeft > 0 && this.pduLeft < 6) this.fail(TAIL);
          break;
        }
      }
    }
  }

  private readHead(chunk: Buffer, at: number): number {
    // Usually the whole header is in this read: parsed where it is, not copied.
    if (this.headHave === 0 && chunk.length - at >= 6) {
      this.header(chunk, at);
      return at + 6;
    }
    const n = Math.min(6 - this.headHave, chunk.length - at);
    chunk.copy(this.head, this.headHave, at, at + n);
    this.headHave += n;
    if (this.headHave === 6) {
      this.headHave = 0;
      this.header(this.head, 0);
    }
    return at + n;
  }

  private header(b: Buffer, at: number): void {
    if (this.state === 'pdu-head') this.pduHeader(b, at);
    else this.pdvHeader(b, at);
  }

  private pduHeader(b: Buffer, at: number): void {
    const type = b[at] ?? 0;
    const length = b.readUInt32BE(at + 2);
    if (!KNOWN_TYPES.has(type)) return this.fail(`unknown PDU type 0x${type.toString(16).padStart(2, '0')}`);
    if (type === PduType.PDataTf) {
      if (length < 6) return this.fail(`a P-DATA-TF PDU of ${length} bytes holds no PDV`);
      this.pduLeft = length;
      this.state = 'pdv-head';
      return;
    }
    if (length > MAX_CONTROL_PDU_BYTES) return this.fail(`a PDU of type ${type} claims ${length} bytes`);
    this.body = Buffer.allocUnsafe(6 + length);
    b.copy(this.body, 0, at, at + 6);
    this.bodyHave = 6;
    this.state = 'control-body';
    if (length === 0) this.controlDone();
  }

  /** Where reading goes once a PDV's value is whole (a tail too short for a PDV header fails after it). */
  private afterPdv(): State {
    return this.pduLeft === 0 ? 'pdu-head' : 'pdv-head';
  }

  private pdvHeader(b: Buffer, at: number): void {
    const itemLength = b.readUInt32BE(at);
    if (itemLength < 2 || itemLength + 4 > this.pduLeft)
      return this.fail(`a PDV of ${itemLength} bytes does not fit its P-DATA-TF PDU (${this.pduLeft - 4} left)`);
    this.pcId = b[at + 4] ?? 0;
    this.control = b[at + 5] ?? 0;
    this.pduLeft -= 6;
    this.pdvLeft = itemLength - 2;
    this.state = 'pdv-value';
    if (this.pdvLeft === 0) {
      this.state = this.afterPdv();
      this.on.fragment(this.pcId, this.control, Buffer.alloc(0), true);
      if (this.pduLeft > 0 && this.pduLeft < 6) this.fail(TAIL);
    }
  }

  private controlDone(): void {
    const body = this.body;
    this.body = Buffer.alloc(0);
    this.state = 'pdu-head';
    this.on.pdu(body);
  }

  private fail(message: string): void {
    if (this.halted) return;
    this.halted = true;
    this.on.malformed(message);
  }
}

/** One P-DATA-TF PDU carrying one PDV: how a message the listener does not handle itself is handed to the DIMSE library. */
export function pdataPdu(pcId: number, control: number, value: Buffer): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt8(PduType.PDataTf, 0);
  head.writeUInt32BE(6 + value.length, 2);
  head.writeUInt32BE(2 + value.length, 6);
  head.writeUInt8(pcId, 10);
  head.writeUInt8(control, 11);
  return Buffer.concat([head, value]);
}
