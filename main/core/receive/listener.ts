// The storage SCP on the network: a TCP server whose every connection is one dcmjs-dimse `Scp`.
// It negotiates (our called AE title, the optional allow-list, the accepted classes and transfer
// syntaxes), answers C-ECHO, streams each C-STORE data set into a Part-10 file (part10.ts), and
// tells its owner when an object is whole on disk and how each association ended (released or
// aborted). It holds no study in memory and writes no patient data to the log.
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FolderExamType } from '../../../preload/contract/vocabulary';
import { judgeContext } from './accepted';
import { constants, Dataset, responses, Scp } from './dimse';
import type { association, requests, responseTypes } from './dimse';
import { Part10Sink, type SinkResult } from './part10';
import { storeResponsePdu } from './store-response';

const { PresentationContextResult: PCR, RejectResult, RejectSource, RejectReason, Status } = constants;

export type ListenerConfig = {
  aeTitle: string;
  /** Calling AE titles and IP addresses allowed to send; empty: anyone who calls us by our AE title. */
  allowed: readonly string[];
  examType: FolderExamType;
};

export type AssociationInfo = { id: string; callingAet: string; address: string; startedAt: number };

/** An object received whole: in memory, or streamed to the listener's incoming folder; for its owner to file. */
export type IncomingObject = { sopClassUid: string; sopInstanceUid: string; content: SinkResult };

export type ListenerHandlers = {
  /** Files the object; false answers the sender with a failure status (it then sends it again). */
  stored(a: AssociationInfo, o: IncomingObject): Promise<boolean>;
  /** The association ended: released by the sender, or aborted / cut off. */
  ended(a: AssociationInfo, how: 'released' | 'aborted', objects: number): void;
  /** An association was refused, or a presentation context, or a socket failed: words for the log and the window. */
  problem(message: string): void;
  log(message: string): void;
};

const normalizeAddress = (a: string | undefined): string => (a ?? '').replace(/^::ffff:/, '');

/** Whether the caller may send: no list, or its AE title or address is on it. */
export function callerAllowed(allowed: readonly string[], callingAet: string, address: string): boolean {
  if (allowed.length === 0) return true;
  return allowed.some((entry) => entry.trim() === callingAet.trim() || entry.trim() === address);
}

/** Discards a data set the listener cannot file (its UIDs are not UIDs). */
class NullSink extends Writable {
  override _write(_c: Buffer, _e: BufferEncoding, cb: () => void): void {
    cb();
  }
}

type Owner = { config: () => ListenerConfig; handlers: ListenerHandlers; incoming: string };

/**
 * Who may send, and what: our called AE title, the allow-list, then a verdict per presentation
 * context. Returns the association's identity, or the reason to reject it.
 */
function negotiate(
  owner: Owner,
  address: string,
  a: association.Association,
): { info: AssociationInfo } | { reject: number } {
  const { aeTitle, allowed, examType } = owner.config();
  const calling = a.getCallingAeTitle().trim();
  const called = a.getCalledAeTitle().trim();
  if (called !== aeTitle) {
    owner.handlers.problem(
      `refused an association from ${calling} at ${address}: it called AE title "${called}", ours is "${aeTitle}"`,
    );
    return { reject: RejectReason.CalledAeNotRecognized };
  }
  if (!callerAllowed(allowed, calling, address)) {
    owner.handlers.problem(`refused an association from ${calling} at ${address}: not on the allow-list`);
    return { reject: RejectReason.CallingAeNotRecognized };
  }
  // Senders propose every class they might send: one log line names each refused context and why.
  const refused = new Map<string, number[]>();
  for (const pc of a.getPresentationContexts()) {
    const context = a.getPresentationContext(pc.id);
    const verdict = judgeContext(context.getAbstractSyntaxUid(), context.getTransferSyntaxUids(), examType);
    if (verdict.accept) {
      context.setResult(PCR.Accept, verdict.transferSyntax);
      continue;
    }
    refused.set(verdict.detail, [...(refused.get(verdict.detail) ?? []), pc.id]);
    context.setResult(
      verdict.reason === 'abstract_syntax'
        ? PCR.RejectAbstractSyntaxNotSupported
        : PCR.RejectTransferSyntaxesNotSupported,
    );
  }
  if (refused.size > 0)
    owner.handlers.log(
      `${calling}: refused presentation context(s): ${[...refused].map(([detail, ids]) => `${ids.join(', ')} (${detail})`).join('; ')}`,
    );
  return { info: { id: `as_${randomBytes(6).toString('hex')}`, callingAet: calling, address, startedAt: Date.now() } };
}

/** Answers a C-STORE: directly (store-response.ts) when its presentation context is known. */
function answerStore(
  socket: Socket,
  request: requests.CStoreRequest,
  pcId: number | null,
  status: number,
  callback: (r: responseTypes.CStoreResponse) => void,
): void {
  if (pcId === null) {
    const response = responses.CStoreResponse.fromRequest(request);
    response.setStatus(status);
    callback(response);
    return;
  }
  socket.write(
    storeResponsePdu({
      presentationContextId: pcId,
      messageId: request.getMessageId(),
      sopClassUid: String(request.getAffectedSopClassUid() ?? ''),
      sopInstanceUid: String(request.getAffectedSopInstanceUid() ?? ''),
      status,
    }),
  );
}

function scpClass(owner: Owner, socket: Socket): typeof Scp {
  return class StoreScp extends Scp {
    private info: AssociationInfo | null = null;
    private objects = 0;
    private ended = false;
    private sink: Part10Sink | null = null;
    private outcome = false;
    private pcId: number | null = null;

    override associationRequested(a: association.Association): void {
      const verdict = negotiate(owner, normalizeAddress(socket.remoteAddress), a);
      if ('reject' in verdict) {
        this.sendAssociationReject(RejectResult.Permanent, RejectSource.ServiceUser, verdict.reject);
        return;
      }
      this.info = verdict.info;
      this.on('close', () => this.finish('aborted'));
      this.sendAssociationAccept();
    }

    override cEchoRequest(request: requests.CEchoRequest, callback: (r: responseTypes.CEchoResponse) => void): void {
      const response = responses.CEchoResponse.fromRequest(request);
      response.setStatus(Status.Success);
      callback(response);
    }

    override createStoreWritableStream(pc: association.PresentationContext, request: requests.CStoreRequest): Writable {
      const sopClassUid = String(request.getAffectedSopClassUid() ?? '').trim();
      const sopInstanceUid = String(request.getAffectedSopInstanceUid() ?? '').trim();
      const path = join(owner.incoming, `${randomBytes(8).toString('hex')}.part`);
      try {
        this.sink = new Part10Sink(
          path,
          {
            sopClassUid,
            sopInstanceUid,
            transferSyntaxUid: pc.getAcceptedTransferSyntaxUid() ?? '',
            sourceAeTitle: this.info?.callingAet ?? '',
          },
          socket,
        );
        return this.sink;
      } catch {
        owner.handlers.log(`an object from ${this.info?.callingAet ?? '?'} had no valid SOP UIDs; refused`);
        return new NullSink();
      }
    }

    override createDatasetFromStoreWritableStream(
      _w: Writable,
      pc: association.PresentationContext,
      callback: (dataset: InstanceType<typeof Dataset>) => void,
    ): void {
      const sink = this.sink;
      this.sink = null;
      const info = this.info;
      const answer = (ok: boolean): void => {
        this.outcome = ok;
        this.pcId = pc.getPresentationContextId();
        // The data set is on disk: the DIMSE layer gets an empty one (it only logs it).
        callback(new Dataset({}, pc.getAcceptedTransferSyntaxUid()));
      };
      if (!sink || !info) return answer(false);
      sink.done
        .then(
          (content) =>
            owner.handlers.stored(info, {
              sopClassUid: sink.meta.sopClassUid,
              sopInstanceUid: sink.meta.sopInstanceUid,
              content,
            }),
          () => false,
        )
        .then((ok) => {
          if (ok) this.objects += 1;
          answer(ok);
        })
        .catch(() => answer(false));
    }

    override cStoreRequest(request: requests.CStoreRequest, callback: (r: responseTypes.CStoreResponse) => void): void {
      answerStore(socket, request, this.pcId, this.outcome ? Status.Success : Status.ProcessingFailure, callback);
      this.outcome = false;
      this.pcId = null;
    }

    override associationReleaseRequested(): void {
      this.sendAssociationReleaseResponse();
      this.finish('released');
    }

    override abort(): void {
      this.finish('aborted');
      // After an A-ABORT the transport connection is closed (PS3.8 §9.2.5); the sender waits for it.
      socket.destroy();
    }

    private finish(how: 'released' | 'aborted'): void {
      if (this.ended || !this.info) return;
      this.ended = true;
      const sink = this.sink;
      this.sink = null;
      if (sink) {
        sink.discard();
        void sink.done.catch(() => undefined).finally(() => unlink(sink.spillPath).catch(() => undefined));
      }
      owner.handlers.ended(this.info, how, this.objects);
    }
  };
}

/** Why the listener could not open its port, in words. */
export function listenProblem(err: NodeJS.ErrnoException, port: number): string {
  if (err.code === 'EADDRINUSE') return `port ${port} is already in use by another program`;
  if (err.code === 'EACCES') return `port ${port} needs administrator rights (use a port above 1023)`;
  return `the port ${port} could not be opened (${err.code ?? err.name})`;
}

export class ListenError extends Error {
  override name = 'ListenError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** A running listener: its port, and how to stop it (open associations are cut: senders resend). */
export type RunningListener = { port: number; close(): Promise<void> };

export function startListener(port: number, host: string | undefined, owner: Owner): Promise<RunningListener> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    // One small C-STORE-RSP per object: without this, Nagle and delayed ACKs add ~40 ms to each.
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    const Cls = scpClass(owner, socket);
    const scp = new Cls(socket, { associationTimeout: 60_000, pduTimeout: 120_000 });
    scp.on('networkError', (e: Error) => {
      owner.handlers.log(`connection from ${normalizeAddress(socket.remoteAddress)} failed: ${e.name}`);
      socket.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new ListenError(listenProblem(err, port), err.code ?? 'error')),
    );
    server.listen({ port, host }, () => {
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      resolve({
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
