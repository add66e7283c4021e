// The C-STORE response (PS3.7 §9.3.1.2), encoded here and written as one P-DATA-TF PDU (PS3.8
// §9.3.5). The DIMSE library would build the same few bytes through a general-purpose data-set
// writer, which costs about as much per object as receiving a CT slice; this is the listener's one
// answer per object, so it is written directly.

/** One implicit-VR little-endian command element (group 0000). */
function element(elementNo: number, value: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(0x0000, 0);
  head.writeUInt16LE(elementNo, 2);
  head.writeUInt32LE(value.length, 4);
  return Buffer.concat([head, value]);
}

const us = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n, 0);
  return b;
};

const ui = (uid: string): Buffer => {
  const raw = Buffer.from(uid, 'latin1');
  return raw.length % 2 === 0 ? raw : Buffer.concat([raw, Buffer.from([0])]);
};

export type StoreAnswer = {
  presentationContextId: number;
  messageId: number;
  sopClassUid: string;
  sopInstanceUid: string;
  status: number;
};

/** The C-STORE-RSP as a whole P-DATA-TF PDU, ready for the socket. */
export function storeResponsePdu(a: StoreAnswer): Buffer {
  const body = Buffer.concat([
    element(0x0002, ui(a.sopClassUid)),
    element(0x0100, us(0x8001)), // C-STORE-RSP
    element(0x0120, us(a.messageId)),
    element(0x0800, us(0x0101)), // no data set
    element(0x0900, us(a.status)),
    element(0x1000, ui(a.sopInstanceUid)),
  ]);
  const groupLength = Buffer.alloc(4);
  groupLength.writeUInt32LE(body.length, 0);
  const command = Buffer.concat([element(0x0000, groupLength), body]);
  const pdu = Buffer.alloc(6 + 4 + 2);
  pdu.writeUInt8(0x04, 0); // P-DATA-TF
  pdu.writeUInt32BE(4 + 2 + command.length, 2);
  pdu.writeUInt32BE(2 + command.length, 6); // the one PDV item
  pdu.writeUInt8(a.presentationContextId, 10);
  pdu.writeUInt8(0x03, 11); // command, last fragment
  return Buffer.concat([pdu, command]);
}
