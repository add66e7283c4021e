// The listener's C-STORE path against a raw peer that sends what DCMTK never does: a command split
// over PDUs, a data set cut at odd places, an A-ABORT in the middle of an object, bytes that are
// no PDU. The listener (the real ReceiveService on a real port) must store what is whole, drop
// what is not, abort a broken association with words in its log, and keep listening.
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LogFields, type LogMethod } from '@main/core/log';
import { type ReceiveConfig, ReceiveService, studyDirName } from '@main/core/receive';
import { dcmtk } from '@support/harness/receive-harness';
import { waitFor } from '@support/harness/watch-harness';
import {
  abortRq,
  associateRq,
  commandSet,
  CT_IMAGE,
  EXPLICIT_LE,
  pdata,
  pdu,
  releaseRq,
  responseStatus,
  WireClient,
} from '@support/network/dicom-wire';

const dir = mkdtempSync(join(tmpdir(), 'sb-store-channel-'));
const config: ReceiveConfig = {
  aeTitle: 'SCANBRIDGE',
  allowed: [],
  examType: 'from_dicom',
  port: 0,
  quietSeconds: 60,
  stoppedAfterMinutes: 60,
  mode: 'auto',
};
const logs: ({ msg: string } & LogFields)[] = [];
const keep: LogMethod = (msg, fields) => void logs.push({ msg, ...fields });
const service = new ReceiveService({
  root: join(dir, 'receive'),
  config,
  log: { info: keep, warn: keep, error: keep },
});
let port = 0;
beforeAll(async () => {
  port = await service.start();
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const STUDY = '1.2.826.0.1.3680043.8.498.77';

/** An Explicit VR Little Endian CT data set: its UIDs, then `pixels` bytes of Pixel Data (OW). */
function dataset(sop: string, pixels: number): Buffer {
  const el = (group: number, element: number, vr: string, value: string): Buffer => {
    const v = Buffer.from(value.length % 2 ? `${value}\0` : value, 'latin1');
    const h = Buffer.alloc(8);
    h.writeUInt16LE(group, 0);
    h.writeUInt16LE(element, 2);
    h.write(vr, 4, 'latin1');
    h.writeUInt16LE(v.length, 6);
    return Buffer.concat([h, v]);
  };
  const pixelHead = Buffer.alloc(12);
  pixelHead.writeUInt16LE(0x7fe0, 0);
  pixelHead.writeUInt16LE(0x0010, 2);
  pixelHead.write('OW', 4, 'latin1');
  pixelHead.writeUInt32LE(pixels, 8);
  return Buffer.concat([
    el(0x0008, 0x0016, 'UI', CT_IMAGE),
    el(0x0008, 0x0018, 'UI', sop),
    el(0x0020, 0x000d, 'UI', STUDY),
    pixelHead,
    Buffer.from(Array.from({ length: pixels }, (_, i) => (i * 7) % 256)),
  ]);
}

/** An association accepted for CT in Explicit VR Little Endian on presentation context 1. */
async function associate(): Promise<WireClient> {
  const client = await WireClient.open(port);
  await client.send(
    associateRq('SCANBRIDGE', 'RAWPEER', [{ id: 1, abstractSyntax: CT_IMAGE, transferSyntaxes: [EXPLICIT_LE] }]),
  );
  await waitFor(() => client.received.length > 0, 10_000, 'the association answer');
  expect(client.received[0]?.type).toBe(0x02); // A-ASSOCIATE-AC
  return client;
}

const storeCommand = (sop: string, messageId: number): Buffer =>
  commandSet({ field: 0x0001, messageId, sopClass: CT_IMAGE, sopInstance: sop, hasDataSet: true });

const fileOf = (sop: string): string => join(dir, 'receive', 'studies', studyDirName(STUDY), `${sop}.dcm`);

describe("the listener's C-STORE path, against a raw peer", () => {
  it('stores an object whose command and data set come split over PDUs and reads, and answers it', async () => {
    const sop = `${STUDY}.1`;
    const data = dataset(sop, 40_000);
    const command = storeCommand(sop, 3);
    const client = await associate();
    const stream = Buffer.concat([
      // The command over two PDUs; the data set's first two PDVs in one PDU with the command's end.
      pdata({ pcId: 1, command: true, last: false, value: command.subarray(0, 30) }),
      pdata(
        { pcId: 1, command: true, last: true, value: command.subarray(30) },
        { pcId: 1, command: false, last: false, value: data.subarray(0, 100) },
        { pcId: 1, command: false, last: false, value: data.subarray(100, 16_000) },
      ),
      pdata({ pcId: 1, command: false, last: true, value: data.subarray(16_000) }),
    ]);
    // Written in pieces that cut PDU and PDV headers (each write its own segment, TCP_NODELAY).
    const cuts = [3, 9, 40, 41, 57, 200, 16_050, 16_053, stream.length];
    await client.send(...cuts.map((end, i) => stream.subarray(cuts[i - 1] ?? 0, end)));
    await waitFor(() => client.received.length > 1, 10_000, 'the C-STORE answer');
    expect(responseStatus(client.received[1] ?? { type: 0, body: Buffer.alloc(0) })).toBe(0x0000);
    const file = await readFile(fileOf(sop));
    expect(file.toString('latin1', 128, 132)).toBe('DICM');
    expect(file.subarray(file.length - data.length)).toEqual(data);
    expect((await stat(fileOf(sop))).mode & 0o777).toBe(0o600);
    await client.send(releaseRq());
    await waitFor(() => client.closed || client.received.length > 2, 10_000, 'the release answer');
    client.end();
  });

  it('drops an object cut off by an A-ABORT, keeps listening, and takes the whole object when it is sent again', async () => {
    const sop = `${STUDY}.2`;
    const data = dataset(sop, 20_000);
    const aborted = await associate();
    await aborted.send(
      pdata({ pcId: 1, command: true, last: true, value: storeCommand(sop, 1) }),
      pdata({ pcId: 1, command: false, last: false, value: data.subarray(0, 10_000) }),
      abortRq(),
    );
    await waitFor(() => aborted.closed, 10_000, 'the listener to close the aborted connection');
    await waitFor(
      () =>
        logs.some((l) => l.msg === 'association ended' && l.aet === 'RAWPEER' && l.code === 'aborted' && l.count === 0),
      10_000,
      'the log line',
    );
    await expect(stat(fileOf(sop))).rejects.toThrow(/ENOENT/);
    expect(await readdir(join(dir, 'receive', 'incoming'))).toEqual([]);

    const again = await associate();
    await again.send(
      pdata(
        { pcId: 1, command: true, last: true, value: storeCommand(sop, 1) },
        { pcId: 1, command: false, last: true, value: data },
      ),
    );
    await waitFor(() => again.received.length > 1, 10_000, 'the C-STORE answer');
    expect(responseStatus(again.received[1] ?? { type: 0, body: Buffer.alloc(0) })).toBe(0x0000);
    expect((await readFile(fileOf(sop))).subarray(-data.length)).toEqual(data);
    again.end();
  });

  it('aborts an association that sends a malformed PDU, says why in words, and keeps answering others', async () => {
    const client = await associate();
    await client.send(pdu(0x09, Buffer.alloc(4)));
    await waitFor(() => client.closed, 10_000, 'the listener to close the connection');
    expect(client.received.map((p) => p.type)).toEqual([0x02, 0x07]); // A-ASSOCIATE-AC, then A-ABORT
    expect(service.state().errors.map((e) => e.message)).toContain(
      'the association from RAWPEER at 127.0.0.1 was aborted: unknown PDU type 0x09',
    );

    // Not DICOM at all, before any association: closed, said, no crash.
    const stranger = await WireClient.open(port);
    await stranger.send(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    await waitFor(() => stranger.closed, 10_000, 'the listener to close the connection');
    expect(stranger.received).toEqual([]);
    expect(service.state().errors.at(-1)?.message).toBe(
      'a connection from 127.0.0.1 was closed: unknown PDU type 0x47',
    );

    expect((await dcmtk('echoscu', ['-aec', 'SCANBRIDGE', '127.0.0.1', String(port)])).code).toBe(0);
    expect(service.state().state).toBe('listening');
  });
});
