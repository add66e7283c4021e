// The Part-10 file of a received object, written as it streams in: the 128-byte preamble, "DICM",
// the file-meta group (PS3.10 §7.1, always Explicit VR Little Endian) and then the data set's
// bytes exactly as the sender encoded them in the accepted transfer syntax. Nothing is decoded or
// re-encoded, so pixel data on the service is byte for byte what the scanner sent.
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { PRIVATE_FILE_MODE } from '../private-fs';

/** ScanBridge's Implementation Class UID (a UUID-derived UID, PS3.5 §B.2), and its version name. */
export const IMPLEMENTATION_CLASS_UID = '2.25.248138156298014199921377266995941793935';
export const IMPLEMENTATION_VERSION_NAME = 'SCANBRIDGE';

export type FileMeta = {
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntaxUid: string;
  /** The sender's AE title (Source Application Entity Title, 0002,0016). */
  sourceAeTitle?: string;
};

const UID_RE = /^[0-9]+(\.[0-9]+)*$/;

/** Pads a value to even length: UIDs with NUL, text with a space (PS3.5 §6.2). */
function padded(value: string, pad: '\0' | ' '): Buffer {
  const raw = Buffer.from(value, 'latin1');
  return raw.length % 2 === 0 ? raw : Buffer.concat([raw, Buffer.from(pad, 'latin1')]);
}

/** One explicit-VR little-endian element with a 2-byte length (every file-meta VR but OB). */
function shortElement(element: number, vr: string, value: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(0x0002, 0);
  head.writeUInt16LE(element, 2);
  head.write(vr, 4, 'latin1');
  head.writeUInt16LE(value.length, 6);
  return Buffer.concat([head, value]);
}

function uid(element: number, value: string): Buffer {
  if (!UID_RE.test(value) || value.length > 64)
    throw new Error(`not a UID: (0002,${element.toString(16).padStart(4, '0')})`);
  return shortElement(element, 'UI', padded(value, '\0'));
}

/** The preamble, the "DICM" prefix and the file-meta group with its correct group length. */
export function part10Header(meta: FileMeta): Buffer {
  const version = Buffer.alloc(14);
  version.writeUInt16LE(0x0002, 0);
  version.writeUInt16LE(0x0001, 2);
  version.write('OB', 4, 'latin1');
  version.writeUInt32LE(2, 8); // after 2 reserved bytes
  version.writeUInt16LE(0x0100, 12); // 00 01
  const body: Buffer[] = [
    version,
    uid(0x0002, meta.sopClassUid),
    uid(0x0003, meta.sopInstanceUid),
    uid(0x0010, meta.transferSyntaxUid),
    uid(0x0012, IMPLEMENTATION_CLASS_UID),
    shortElement(0x0013, 'SH', padded(IMPLEMENTATION_VERSION_NAME, ' ')),
  ];
  const aet = meta.sourceAeTitle?.trim();
  if (aet) body.push(shortElement(0x0016, 'AE', padded(aet.slice(0, 16), ' ')));
  const groupBytes = body.reduce((n, b) => n + b.length, 0);
  const groupLength = shortElement(0x0000, 'UL', Buffer.alloc(4));
  groupLength.writeUInt32LE(groupBytes, 8);
  return Buffer.concat([Buffer.alloc(128), Buffer.from('DICM', 'latin1'), groupLength, ...body]);
}

/**
 * Objects up to this size are gathered in memory and written in one go (a CT slice is ~0.5 MB);
 * larger ones (multi-frame) stream to a file as they arrive. Memory stays at about one object
 * per open association, whatever the study's size.
 */
export const SPILL_BYTES = 8 * 1024 * 1024;

/** What a sink holds once its object is whole: the bytes (small objects), or the file they were streamed to. */
export type SinkResult =
  { kind: 'memory'; chunks: Buffer[]; bytes: number } | { kind: 'file'; path: string; bytes: number };

type DetachableBuffer = ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };

/**
 * Frees the memory of `chunk` now, when it is the whole of a buffer of its own (a socket read is),
 * instead of when V8 next collects garbage: detaching an ArrayBuffer releases its memory at once
 * (ArrayBuffer.prototype.transfer, Node 22 and later; a no-op before). Only for memory nothing
 * else refers to any more.
 */
export function releaseBuffer(chunk: Buffer): void {
  const backing = chunk.buffer as DetachableBuffer;
  if (chunk.length === 0 || !(backing instanceof ArrayBuffer)) return;
  if (chunk.byteOffset !== 0 || backing.byteLength !== chunk.length) return;
  backing.transfer?.(0);
}

/**
 * The memory an object's bytes are gathered in, kept from one object to the next of an
 * association. Each socket read is copied in (a few microseconds for a CT slice) so that the read
 * itself can be released at once (`releaseBuffer`): V8 counts buffers waiting for collection as
 * external memory, and under its default heap settings a study's reads piled up between full
 * collections and made its young generation grow. Growing replaces the memory by one twice the size.
 */
export class ObjectBuffer {
  private memory = Buffer.alloc(0);
  private used = 0;
  /** Held by a sink from `take` until its object is filed (`giveBack`). */
  private held = false;

  /** This buffer, emptied, for one object; null while another object holds it. */
  take(): ObjectBuffer | null {
    if (this.held) return null;
    this.held = true;
    this.used = 0;
    return this;
  }

  giveBack(): void {
    this.held = false;
  }

  /** Lets go of the memory (after an object too large to gather). */
  shrink(): void {
    releaseBuffer(this.memory);
    this.memory = Buffer.alloc(0);
    this.used = 0;
  }

  get size(): number {
    return this.used;
  }

  append(chunk: Buffer): void {
    const need = this.used + chunk.length;
    if (need > this.memory.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(need, this.memory.length * 2, 256 * 1024));
      this.memory.copy(grown, 0, 0, this.used);
      releaseBuffer(this.memory);
      this.memory = grown;
    }
    chunk.copy(this.memory, this.used);
    this.used = need;
  }

  /** A view of the bytes gathered: valid until the buffer is given back and taken again. */
  bytes(): Buffer {
    return this.memory.subarray(0, this.used);
  }
}

/**
 * Where one C-STORE data set goes as it arrives, after the file-meta header. Every piece written
 * is copied (into `gather`, or into the spill file's stream), so the caller may release its own
 * buffers once `write` returns. `write` never asks the caller to wait: once an object spills to
 * disk and the disk lags, the sink pauses the socket instead (`throttle`), so TCP slows the sender.
 * The spill file is named only when an object spills (most never do).
 */
export class Part10Sink {
  private readonly gather: ObjectBuffer;
  private file: WriteStream | null = null;
  /** Bytes written to the spill file, once the object spilled. */
  private size = 0;
  private failed: Error | null = null;
  private settle!: { resolve: (r: SinkResult) => void; reject: (e: Error) => void };
  /** The spill file, once the object spilled (for the caller to remove if the object is dropped). */
  spilledTo: string | null = null;
  readonly done: Promise<SinkResult>;

  constructor(
    /** Names the file the object goes to if it spills. */
    private readonly spillPath: () => string,
    readonly meta: FileMeta,
    private readonly throttle: { pause(): void; resume(): void },
    /** The association's reusable memory, taken for this object (else memory of the sink's own). */
    gather?: ObjectBuffer,
  ) {
    this.gather = gather ?? (new ObjectBuffer().take() as ObjectBuffer);
    this.done = new Promise<SinkResult>((resolve, reject) => (this.settle = { resolve, reject }));
    this.done.catch(() => undefined);
    this.write(part10Header(meta));
  }

  write(chunk: Buffer): void {
    if (this.failed) return;
    if (this.file) {
      this.size += chunk.length;
      if (!this.file.write(Buffer.from(chunk))) this.throttle.pause();
      return;
    }
    this.gather.append(chunk);
    if (this.gather.size > SPILL_BYTES) this.spill();
  }

  private spill(): void {
    const path = this.spillPath();
    this.spilledTo = path;
    const file = createWriteStream(path, { mode: PRIVATE_FILE_MODE, flags: 'wx', highWaterMark: 1 << 20 });
    file.on('drain', () => this.throttle.resume());
    file.on('error', (e) => {
      this.failed = e;
      this.throttle.resume();
      this.settle.reject(e);
    });
    file.on('close', () => {
      if (!this.failed) this.settle.resolve({ kind: 'file', path, bytes: this.size });
    });
    this.file = file;
    this.size = this.gather.size;
    const pending = Buffer.from(this.gather.bytes());
    // Memory the size of a spilled object is not kept for the next one.
    this.gather.shrink();
    this.gather.giveBack();
    if (!file.write(pending)) this.throttle.pause();
  }

  /** The object is whole: `done` settles once it is in memory, or written to its spill file. */
  end(): void {
    if (this.file) this.file.end();
    else this.settle.resolve({ kind: 'memory', chunks: [this.gather.bytes()], bytes: this.gather.size });
  }

  /** The object was filed (or dropped): its memory goes back to the association for the next one. */
  finished(): void {
    if (!this.file) this.gather.giveBack();
  }

  /** Stops writing (association aborted mid-object): a spilled file is closed, for the caller to remove. */
  discard(): void {
    if (this.file) this.file.destroy();
    else {
      this.gather.giveBack();
      this.settle.reject(new Error('discarded'));
    }
    this.throttle.resume();
  }
}

let counter = 0;
/** Unique per process without a system call per name: the process id, a random tag chosen once, a counter. */
const PROCESS_TAG = `${process.pid.toString(36)}${randomBytes(3).toString('hex')}`;

/** A name for a temporary file that no other object, association or ScanBridge process uses. */
export function uniqueName(): string {
  counter += 1;
  return `${PROCESS_TAG}-${counter.toString(36)}`;
}
