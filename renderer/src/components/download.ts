// Bytes main made (a patient's sheet, a support bundle) saved as a file through the browser's own
// download: the desktop app asks where to save it, browser mode saves it to the downloads folder.
import { fromBase64 } from './pdf/base64';

/** Saves base64 bytes as `name`, of the given media type. */
export function downloadBytes(base64: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([fromBase64(base64) as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // The click has handed the bytes to the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
