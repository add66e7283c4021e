// The storage SCP on the network: a TCP server whose every connection is one dcmjs-dimse `Scp`
// behind a store channel (store-channel.ts). dcmjs-dimse negotiates (our called AE title, the
// optional allow-list, the accepted classes and transfer syntaxes), answers C-ECHO and sees the
// release or abort; the channel streams each C-STORE data set into a Part-10 file (part10.ts) and
// answers it. The owner is told when an object is whole on disk and how each association ended
// (released or aborted). It holds no study in memory and writes no patient data to the log.
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { ReceiveProblem } from '../../../preload/contract';
import type { FolderExamType } from '../../../preload/contract/vocabulary';
import { judgeContexts, VERIFICATION_SOP_CLASS } from './accepted';
import { constants, responses, Scp } from './dimse';
import type { association, requests, responseTypes } from './dimse';
import { type AssociationInfo, type IncomingObject, StoreChannel, type StoreSession } from './store-channel';
import { errorCode, type Logger } from '../log';
import { listenProblem, receiveProblemWords } from './problem-words';

export type { AssociationInfo, IncomingObject } from './store-channel';

const {
  PresentationContextResult: PCR,
  RejectResult,
  RejectSource,
  RejectReason,
  Status,
  AbortSource,
  AbortReason,
} = constants;

export type ListenerConfig = {
  aeTitle: string;
  /** Calling AE titles and IP addresses allowed to send; empty: anyone who calls us by our AE title. */
  allowed: readonly string[];
  examType: FolderExamType;
};

export type ListenerHandlers = {
  /** Files the object; false answers the sender with a failure status (it then sends it again). */
  stored(a: AssociationInfo, o: IncomingObject): Promise<boolean>;
  /** The association ended: released by the sender, or aborted / cut off. */
  ended(a: AssociationInfo, how: 'released' | 'aborted', objects: number): void;
  /** An association was refused, or a connection broke the protocol: a code and its facts, for the front ends. */
  problem(problem: ReceiveProblem): void;
  /** The log (AE titles, addresses and codes only: nothing a sender put in an object). */
  log: Logger;
};

const normalizeAddress = (a: string | undefined): string => (a ?? '').replace(/^::ffff:/, '');

/** Whether the caller may send: no list, or its AE title or address is on it. */
export function callerAllowed(allowed: readonly string[], callingAet: string, address: string): boolean {
  if (allowed.length === 0) return true;
  return allowed.some((entry) => entry.trim() === callingAet.trim() || entry.trim() === address);
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
): { info: AssociationInfo; contexts: Map<number, string> } | { reject: number } {
  const { aeTitle, allowed, examType } = owner.config();
  const calling = a.getCallingAeTitle().trim();
  const called = a.getCalledAeTitle().trim();
  if (called !== aeTitle) {
    owner.handlers.log.warn('association refused: it called another AE title', { aet: calling, peer: address });
    owner.handlers.problem({ code: 'called_other_aet', calling_aet: calling, address, called, ours: aeTitle });
    return { reject: RejectReason.CalledAeNotRecognized };
  }
  if (!callerAllowed(allowed, calling, address)) {
    owner.handlers.log.warn('association refused: not on the allow-list', { aet: calling, peer: address });
    owner.handlers.problem({ code: 'not_allowed', calling_aet: calling, address });
    return { reject: RejectReason.CallingAeNotRecognized };
  }
  // Senders propose every class they might send: one log line names each refused context and why.
  const refused = new Map<string, number[]>();
  const contexts = new Map<number, string>();
  const proposed = a.getPresentationContexts().map((pc) => {
    const context = a.getPresentationContext(pc.id);
    return {
      id: pc.id,
      context,
      abstractSyntax: context.getAbstractSyntaxUid(),
      transferSyntaxes: context.getTransferSyntaxUids(),
    };
  });
  const verdicts = judgeContexts(proposed, examType);
  for (const pc of proposed) {
    const { context, abstractSyntax } = pc;
    const verdict = verdicts.get(pc.id);
    if (!verdict) continue;
    if (verdict.accept) {
      context.setResult(PCR.Accept, verdict.transferSyntax);
      if (abstractSyntax !== VERIFICATION_SOP_CLASS) contexts.set(pc.id, verdict.transferSyntax);
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
    owner.handlers.log.info('presentation contexts refused', {
      aet: calling,
      count: [...refused.values()].reduce((n, ids) => n + ids.length, 0),
    });
  return {
    info: { id: `as_${randomBytes(6).toString('hex')}`, callingAet: calling, address, startedAt: Date.now() },
    contexts,
  };
}

type Connection = { socket: Socket; session: StoreSession & { objects: number }; channel: () => StoreChannel };

type StoreScpClass = new (
  ...args: ConstructorParameters<typeof Scp>
) => InstanceType<typeof Scp> & { protocolError(message: string): void };

function scpClass(owner: Owner, c: Connection): StoreScpClass {
  const { socket, session } = c;
  return class StoreScp extends Scp {
    private ended = false;

    override associationRequested(a: association.Association): void {
      const verdict = negotiate(owner, normalizeAddress(socket.remoteAddress), a);
      if ('reject' in verdict) {
        this.sendAssociationReject(RejectResult.Permanent, RejectSource.ServiceUser, verdict.reject);
        return;
      }
      session.info = verdict.info;
      session.contexts = verdict.contexts;
      this.on('close', () => this.finish('aborted'));
      this.sendAssociationAccept();
    }

    override cEchoRequest(request: requests.CEchoRequest, callback: (r: responseTypes.CEchoResponse) => void): void {
      const response = responses.CEchoResponse.fromRequest(request);
      response.setStatus(Status.Success);
      callback(response);
    }

    /** Never reached: the store channel takes every C-STORE. Should one get here, the sender is told it failed. */
    override cStoreRequest(request: requests.CStoreRequest, callback: (r: responseTypes.CStoreResponse) => void): void {
      const response = responses.CStoreResponse.fromRequest(request);
      response.setStatus(Status.ProcessingFailure);
      callback(response);
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

    /** The peer broke the protocol: an A-ABORT (when associated), words in the log, the connection closed. */
    protocolError(message: string): void {
      const address = normalizeAddress(socket.remoteAddress);
      owner.handlers.log.warn('protocol error: connection closed', { aet: session.info?.callingAet, peer: address });
      owner.handlers.problem(
        session.info
          ? { code: 'association_aborted', calling_aet: session.info.callingAet, address, detail: message }
          : { code: 'connection_closed', address, detail: message },
      );
      if (session.info && !this.ended) this.sendAbort(AbortSource.ServiceProvider, AbortReason.InvalidPduParameter);
      this.finish('aborted');
      socket.destroy();
    }

    private finish(how: 'released' | 'aborted'): void {
      c.channel().discard();
      if (this.ended || !session.info) return;
      this.ended = true;
      owner.handlers.ended(session.info, how, session.objects);
    }
  };
}

/** The listener could not open its port: why, as a problem (its message in English words). */
export class ListenError extends Error {
  override name = 'ListenError';
  constructor(
    readonly problem: ReceiveProblem,
    readonly code: string,
  ) {
    super(receiveProblemWords(problem, 'en', ''));
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
    const session = { info: null, contexts: new Map<number, string>(), objects: 0 };
    let channel: StoreChannel | null = null;
    const Cls = scpClass(owner, { socket, session, channel: () => channel as StoreChannel });
    // dcmjs-dimse reads and writes through the channel's view of the socket (it uses only its
    // `on`, `setTimeout` and `write`); the channel keeps C-STORE's data to itself.
    let scp: InstanceType<typeof Cls> | null = null;
    channel = new StoreChannel(socket, {
      session,
      incoming: owner.incoming,
      store: async (o) => {
        if (!session.info) return false;
        const ok = await owner.handlers.stored(session.info, o);
        if (ok) session.objects += 1;
        return ok;
      },
      log: owner.handlers.log,
      malformed: (m) => scp?.protocolError(m),
    });
    scp = new Cls(channel.view as unknown as Socket, { associationTimeout: 60_000, pduTimeout: 120_000 });
    scp.on('networkError', (e: Error) => {
      owner.handlers.log.warn('connection failed', {
        peer: normalizeAddress(socket.remoteAddress),
        code: errorCode(e),
      });
      socket.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new ListenError(listenProblem(err.code ?? err.name, port), err.code ?? 'error')),
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
