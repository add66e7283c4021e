// One connection's bytes, split between the two halves of the listener (see README.md here):
// C-STORE, the listener's one hot path, is read here — PDUs framed from the socket (pdu-reader.ts),
// the command read directly (command-set.ts), data fragments poured into the object's Part-10
// sink, the object filed and answered — and everything else (association, release, abort, C-ECHO
// and any other message) is handed whole to dcmjs-dimse through `view`, the socket it sees, so
// its state machine still runs the association.
import { diskFullIn, isNoSpace } from '../disk-full';
import { EventEmitter } from 'node:events';
import { unlink } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { CommandField, type CommandSet, MAX_COMMAND_BYTES, readCommandSet } from './command-set';
import { ObjectBuffer, Part10Sink, releaseBuffer, type SinkResult, uniqueName } from './part10';
import { PDV_COMMAND, PDV_LAST, PduReader, pdataPdu } from './pdu-reader';
import { storeResponsePdu } from './store-response';
import { errorCode, type Logger } from '../log';

export type AssociationInfo = { id: string; callingAet: string; address: string; startedAt: number };

/** An object received whole: in memory, or streamed to the listener's incoming folder; for its owner to file. */
export type IncomingObject = {
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntaxUid: string;
  content: SinkResult;
};

/** The association as negotiated: who sends, and the accepted storage contexts (id → transfer syntax). */
export type StoreSession = { info: AssociationInfo | null; contexts: Map<number, string> };

export type ChannelDeps = {
  session: StoreSession;
  /** Where an object too large to gather in memory is streamed to. */
  incoming: string;
  /** Files a whole object; false answers the sender with a failure status (it then sends it again). */
  store(o: IncomingObject): Promise<boolean>;
  log: Logger;
  /** The peer broke the protocol (words for the log): its owner aborts the association. */
  malformed(message: string): void;
};

const STATUS_SUCCESS = 0x0000;
const STATUS_PROCESSING_FAILURE = 0x0110;
/** C-STORE "Refused: Out of Resources" (PS3.4 Annex B.2.3, A7xx). */
const STATUS_OUT_OF_RESOURCES = 0xa700;

/**
 * The socket as dcmjs-dimse sees it: what it reads is what the channel hands on; what it writes
 * goes to the real socket. dcmjs-dimse (0.3.x) uses only `on`, `setTimeout` and `write` of its socket.
 */
export class DimseSocketView extends EventEmitter {
  constructor(private readonly socket: Socket) {
    super();
  }

  write(bytes: Buffer): boolean {
    return this.socket.destroyed ? false : this.socket.write(bytes);
  }

  setTimeout(ms: number): this {
    this.socket.setTimeout(ms);
    return this;
  }
}

/** What the channel is reading: a command, a C-STORE's data set, or another message's data set (dcmjs-dimse's). */
type Mode =
  | { kind: 'command' }
  | { kind: 'store'; pcId: number; command: CommandSet; sink: Part10Sink | null }
  | { kind: 'dimse'; pcId: number };

export class StoreChannel {
  readonly view: DimseSocketView;
  private readonly reader: PduReader;
  private mode: Mode = { kind: 'command' };
  /** Fragments of the command being read, and on which presentation context. */
  private command: Buffer[] = [];
  private commandBytes = 0;
  private commandPc = -1;
  /** The memory objects are gathered in, reused from one object to the next. */
  private readonly objectBuffer = new ObjectBuffer();
  /** Work that must keep the stream's order: filing and answering objects, then what dcmjs-dimse sees after them. */
  private tail: Promise<void> | null = null;

  constructor(
    private readonly socket: Socket,
    private readonly deps: ChannelDeps,
  ) {
    this.view = new DimseSocketView(socket);
    this.reader = new PduReader({
      pdu: (bytes) => this.toDimse('data', bytes),
      fragment: (pcId, control, piece, end) => this.fragment(pcId, control, piece, end),
      malformed: (message) => deps.malformed(message),
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        this.reader.push(chunk);
      } finally {
        // Everything kept from a read was copied (the object's bytes, a command split over reads):
        // its memory goes back now rather than at V8's next collection.
        releaseBuffer(chunk);
      }
    });
    socket.on('error', (e: Error) => this.toDimse('error', e));
    socket.on('timeout', () => this.toDimse('timeout'));
    socket.on('close', () => this.toDimse('close'));
  }

  /** The association is over (aborted, cut off): the object being received is dropped and nothing more is read. */
  discard(): void {
    this.reader.stop();
    if (this.mode.kind === 'store' && this.mode.sink) dropSink(this.mode.sink);
    this.mode = { kind: 'command' };
  }

  private fragment(pcId: number, control: number, piece: Buffer, end: boolean): void {
    const isCommand = (control & PDV_COMMAND) !== 0;
    const last = end && (control & PDV_LAST) !== 0;
    const mode = this.mode;
    if (mode.kind === 'command') {
      if (!isCommand) return this.deps.malformed('a data fragment arrived before its command');
      return this.commandFragment(pcId, piece, last);
    }
    if (isCommand || pcId !== mode.pcId)
      return this.deps.malformed(`a message's data set was interrupted (presentation context ${pcId})`);
    if (mode.kind === 'dimse') {
      // A piece of a PDV is a fragment of its own: only the PDV's last piece keeps its "last" bit.
      this.toDimse('data', pdataPdu(pcId, end ? control : control & ~PDV_LAST, piece));
      if (last) this.mode = { kind: 'command' };
      return;
    }
    mode.sink?.write(piece);
    if (!last) return;
    this.mode = { kind: 'command' };
    mode.sink?.end();
    this.inOrder(() => this.fileAndAnswer(mode.pcId, mode.command, mode.sink));
  }

  private commandFragment(pcId: number, piece: Buffer, last: boolean): void {
    if (this.command.length > 0 && pcId !== this.commandPc)
      return this.deps.malformed('a command was split across presentation contexts');
    this.commandPc = pcId;
    this.commandBytes += piece.length;
    if (this.commandBytes > MAX_COMMAND_BYTES) return this.deps.malformed('a command set is too large');
    // A command read in one piece is used before this read returns; pieces kept across reads are copied.
    this.command.push(last && this.command.length === 0 ? piece : Buffer.from(piece));
    if (!last) return;
    const bytes = this.command.length === 1 && this.command[0] ? this.command[0] : Buffer.concat(this.command);
    this.command = [];
    this.commandBytes = 0;
    const command = readCommandSet(bytes);
    if (typeof command === 'string') return this.deps.malformed(command);
    if (command.commandField !== CommandField.CStoreRq) {
      // Any other message (C-ECHO above all) is dcmjs-dimse's, with its data set if it has one.
      this.toDimse('data', pdataPdu(pcId, PDV_COMMAND | PDV_LAST, bytes));
      if (command.hasDataSet) this.mode = { kind: 'dimse', pcId };
      return;
    }
    if (!command.hasDataSet) {
      this.deps.log.warn('a C-STORE request came without its data set; the sender was told it failed');
      this.inOrder(() => this.answer(pcId, command, STATUS_PROCESSING_FAILURE));
      return;
    }
    this.mode = { kind: 'store', pcId, command, sink: this.openSink(pcId, command) };
  }

  /** The sink of a C-STORE's data set, or null when the object cannot be stored (its data is read and dropped). */
  private openSink(pcId: number, command: CommandSet): Part10Sink | null {
    const { info, contexts } = this.deps.session;
    const transferSyntaxUid = contexts.get(pcId);
    if (!info || transferSyntaxUid === undefined) {
      this.deps.log.warn('an object on a presentation context not accepted for storage was refused', { count: pcId });
      return null;
    }
    // Taken unless a sender sends its next object before the last one was answered.
    const gather = this.objectBuffer.take() ?? undefined;
    try {
      return new Part10Sink(
        () => join(this.deps.incoming, `${uniqueName()}.part`),
        {
          sopClassUid: command.affectedSopClassUid,
          sopInstanceUid: command.affectedSopInstanceUid,
          transferSyntaxUid,
          sourceAeTitle: info.callingAet,
        },
        this.socket,
        gather,
      );
    } catch {
      gather?.giveBack();
      this.deps.log.warn('an object had no valid SOP UIDs; refused', { aet: info.callingAet });
      return null;
    }
  }

  private async fileAndAnswer(pcId: number, command: CommandSet, sink: Part10Sink | null): Promise<void> {
    let status = STATUS_PROCESSING_FAILURE;
    if (sink) {
      try {
        const content = await sink.done;
        const { sopClassUid, sopInstanceUid, transferSyntaxUid } = sink.meta;
        if (await this.deps.store({ sopClassUid, sopInstanceUid, transferSyntaxUid, content })) status = STATUS_SUCCESS;
      } catch (e) {
        // No room to store it: "out of resources" tells the sender to keep the object and send it
        // again later, rather than that the object itself was wrong.
        if (isNoSpace(e) || diskFullIn(e)) status = STATUS_OUT_OF_RESOURCES;
      }
      sink.finished();
    }
    this.answer(pcId, command, status);
  }

  private answer(pcId: number, command: CommandSet, status: number): void {
    if (this.socket.destroyed) return;
    this.socket.write(
      storeResponsePdu({
        presentationContextId: pcId,
        messageId: command.messageId,
        sopClassUid: command.affectedSopClassUid,
        sopInstanceUid: command.affectedSopInstanceUid,
        status,
      }),
    );
  }

  /** Hands an event to dcmjs-dimse, after any object still being filed (so a release follows the last answer). */
  private toDimse(event: 'data' | 'error' | 'timeout' | 'close', arg?: Buffer | Error): void {
    this.inOrder(() => {
      this.view.emit(event, arg);
    });
  }

  /** Runs `task` now when nothing is pending, else after what is. */
  private inOrder(task: () => void | Promise<void>): void {
    if (this.tail === null) {
      const result = task();
      if (!result) return;
      this.track(result);
      return;
    }
    this.track(this.tail.then(task));
  }

  private track(p: Promise<void>): void {
    const next = p.catch((e: unknown) => this.deps.log.warn('the store path failed', { code: errorCode(e) }));
    this.tail = next;
    void next.then(() => {
      if (this.tail === next) this.tail = null;
    });
  }
}

/** Drops an object cut off mid-way, and its spill file if it had one. */
function dropSink(sink: Part10Sink): void {
  sink.discard();
  void sink.done
    .catch(() => undefined)
    .finally(() => (sink.spilledTo ? unlink(sink.spilledTo).catch(() => undefined) : undefined));
}
