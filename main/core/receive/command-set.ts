// The few elements of a DIMSE command set (PS3.7 §E.1, group 0000, always Implicit VR Little
// Endian) that the store path needs, read directly: the whole command set is a few hundred bytes
// of fixed-form elements, and a general data-set reader costs more per C-STORE than the rest of
// receiving the object.

export const CommandField = { CStoreRq: 0x0001, CEchoRq: 0x0030 } as const;

/** CommandDataSetType (0000,0800): this value says no data set follows; any other, one does. */
export const NO_DATA_SET = 0x0101;

/** The largest command set taken (they are a few hundred bytes; this leaves room for private senders). */
export const MAX_COMMAND_BYTES = 64 * 1024;

export type CommandSet = {
  commandField: number;
  messageId: number;
  affectedSopClassUid: string;
  affectedSopInstanceUid: string;
  hasDataSet: boolean;
};

/** A UI value without its padding (a trailing NUL, or a space from careless senders). */
function uidValue(b: Buffer, start: number, end: number): string {
  let e = end;
  while (e > start && (b[e - 1] === 0x00 || b[e - 1] === 0x20)) e--;
  return b.toString('latin1', start, e);
}

/** Reads a command set; a string says why it is not one. */
export function readCommandSet(b: Buffer): CommandSet | string {
  let commandField: number | undefined;
  let messageId = 0;
  let affectedSopClassUid = '';
  let affectedSopInstanceUid = '';
  let dataSetType = NO_DATA_SET;
  let at = 0;
  while (at < b.length) {
    if (at + 8 > b.length) return 'a command set ends inside an element header';
    const group = b.readUInt16LE(at);
    const element = b.readUInt16LE(at + 2);
    const length = b.readUInt32LE(at + 4);
    const start = at + 8;
    const end = start + length;
    if (group !== 0x0000) return `a command set holds an element of group ${group.toString(16).padStart(4, '0')}`;
    if (end > b.length) return 'a command set element runs past its end';
    const us = (): number | string => (length === 2 ? b.readUInt16LE(start) : 'a US command element is not 2 bytes');
    switch (element) {
      case 0x0002:
        affectedSopClassUid = uidValue(b, start, end);
        break;
      case 0x0100: {
        const v = us();
        if (typeof v === 'string') return v;
        commandField = v;
        break;
      }
      case 0x0110: {
        const v = us();
        if (typeof v === 'string') return v;
        messageId = v;
        break;
      }
      case 0x0800: {
        const v = us();
        if (typeof v === 'string') return v;
        dataSetType = v;
        break;
      }
      case 0x1000:
        affectedSopInstanceUid = uidValue(b, start, end);
        break;
    }
    at = end;
  }
  if (commandField === undefined) return 'a command set without its Command Field (0000,0100)';
  return {
    commandField,
    messageId,
    affectedSopClassUid,
    affectedSopInstanceUid,
    hasDataSet: dataSetType !== NO_DATA_SET,
  };
}
