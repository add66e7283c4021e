// DICOMDIR: the index of a DICOM file set (CD/DVD/USB exports). It is not a study, but the
// number of instance records it lists tells how many image files a complete export holds.
import type { DataSet } from 'dicom-parser';
import type { DicomdirSummary } from './dicom-types';

const CONTAINER_RECORDS = new Set(['PATIENT', 'STUDY', 'SERIES']);
const ITEM_HEADER_BYTES = 8;

function recordType(item: DataSet): string {
  return (item.string('x00041430') ?? '').trim().toUpperCase();
}

function isInstanceRecord(item: DataSet): boolean {
  const type = recordType(item);
  return type !== '' && !CONTAINER_RECORDS.has(type) && item.elements.x00041500 !== undefined;
}

/** Counts the directory records of a parsed DICOMDIR, per referenced study. */
export function summarizeDicomdir(ds: DataSet): DicomdirSummary {
  const items = (ds.elements.x00041220?.items ?? []).flatMap((el) =>
    el.dataSet ? [{ offset: el.dataOffset - ITEM_HEADER_BYTES, ds: el.dataSet }] : [],
  );
  const perStudy = new Map<string, number>();
  const byOffset = new Map(items.map((i) => [i.offset, i.ds]));
  let instances = 0;
  const count = (study: string): void => {
    instances++;
    if (study !== '') perStudy.set(study, (perStudy.get(study) ?? 0) + 1);
  };

  // Follow the record hierarchy through its byte offsets (PS3.3 F.3.2.2); a visited set makes
  // a corrupt index with offset cycles finish.
  const visited = new Set<number>();
  const walk = (first: number, study: string, depth: number): void => {
    let offset = first;
    while (offset !== 0 && !visited.has(offset) && depth < 16) {
      visited.add(offset);
      const item = byOffset.get(offset);
      if (!item) return;
      const here = recordType(item) === 'STUDY' ? (item.string('x0020000d') ?? '').trim() : study;
      if (isInstanceRecord(item)) count(here);
      const lower = item.uint32('x00041420') ?? 0;
      if (lower !== 0) walk(lower, here, depth + 1);
      offset = item.uint32('x00041400') ?? 0;
    }
  };
  walk(ds.uint32('x00041200') ?? 0, '', 0);

  if (visited.size === 0 && items.length > 0) {
    // Offsets that lead nowhere: fall back to the depth-first order every writer uses.
    let study = '';
    for (const { ds: item } of items) {
      if (recordType(item) === 'STUDY') study = (item.string('x0020000d') ?? '').trim();
      else if (isInstanceRecord(item)) count(study);
    }
  }
  return {
    records: items.length,
    instances,
    studies: [...perStudy].map(([study_uid, n]) => ({ study_uid, instances: n })),
  };
}
