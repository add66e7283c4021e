// Runs the store path's pure parts over a synthetic object before the listener opens its port:
// the PDU reader, the command reader, the Part-10 sink (in memory), the UID read and the answer.
// A fresh process compiles these on first use, and the scanner's first association after a start
// paid for it (its first objects took about twice as long as the rest). No file, no socket.
import { readCommandSet } from './command-set';
import { readObjectIds } from './object-ids';
import { ObjectBuffer, Part10Sink } from './part10';
import { PduReader, pdataPdu, PDV_COMMAND, PDV_LAST } from './pdu-reader';
import { storeResponsePdu } from './store-response';

const CT = '1.2.840.10008.5.1.4.1.1.2';
const SOP = '2.25.1';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';
/** Objects run through: enough for the engine to optimise the per-object functions (a few ms). */
const ROUNDS = 200;

function implicit(element: number, value: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(element, 2);
  head.writeUInt32LE(value.length, 4);
  return Buffer.concat([head, value]);
}

function explicit(group: number, element: number, value: string): Buffer {
  const v = Buffer.from(value.length % 2 ? `${value}\0` : value, 'latin1');
  const head = Buffer.alloc(8);
  head.writeUInt16LE(group, 0);
  head.writeUInt16LE(element, 2);
  head.write('UI', 4, 'latin1');
  head.writeUInt16LE(v.length, 6);
  return Buffer.concat([head, v]);
}

const us = (n: number): Buffer => Buffer.from([n & 0xff, n >> 8]);

/** A C-STORE of a tiny CT object as the wire carries it: the command PDU, then the data PDU. */
function syntheticStore(): Buffer {
  const command = Buffer.concat([
    implicit(0x0002, Buffer.from(`${CT}\0`, 'latin1')),
    implicit(0x0100, us(0x0001)),
    implicit(0x0110, us(1)),
    implicit(0x0800, us(0)),
    implicit(0x1000, Buffer.from(`${SOP}\0`, 'latin1')),
  ]);
  const data = Buffer.concat([
    explicit(0x0008, 0x0016, CT),
    explicit(0x0008, 0x0018, SOP),
    explicit(0x0020, 0x000d, '2.25.2'),
  ]);
  return Buffer.concat([pdataPdu(1, PDV_COMMAND | PDV_LAST, command), pdataPdu(1, PDV_LAST, data)]);
}

/** Runs the synthetic object through the store path, as a C-STORE would go, without its I/O. */
export async function warmStorePath(): Promise<void> {
  const stream = syntheticStore();
  const still = { pause: () => undefined, resume: () => undefined };
  // One buffer for every round, as an association reuses one for its objects.
  const gather = new ObjectBuffer();
  for (let i = 0; i < ROUNDS; i++) {
    const command: Buffer[] = [];
    const sinks: Part10Sink[] = [];
    const reader = new PduReader({
      pdu: () => undefined,
      fragment: (_pcId, control, piece, end) => {
        if ((control & PDV_COMMAND) === 0) {
          sinks[0]?.write(piece);
          if (end) sinks[0]?.end();
          return;
        }
        command.push(piece);
        const c = end ? readCommandSet(Buffer.concat(command)) : null;
        if (c && typeof c !== 'string') {
          const meta = {
            sopClassUid: c.affectedSopClassUid,
            sopInstanceUid: c.affectedSopInstanceUid,
            transferSyntaxUid: EXPLICIT_LE,
          };
          sinks.push(new Part10Sink(() => '', meta, still, gather.take() ?? undefined));
        }
      },
      malformed: () => undefined,
    });
    // In two reads, as a socket would hand it.
    reader.push(stream.subarray(0, 20));
    reader.push(stream.subarray(20));
    const content = await sinks[0]?.done;
    if (content?.kind === 'memory') readObjectIds(content.chunks, content.bytes);
    sinks[0]?.finished();
    storeResponsePdu({ presentationContextId: 1, messageId: i, sopClassUid: CT, sopInstanceUid: SOP, status: 0 });
  }
}
