import { describe, expect, it } from 'vitest';
import {
  AUTO_ZIP_MAX_BYTES,
  AUTO_ZIP_MAX_MEAN_FILE_BYTES,
  AUTO_ZIP_MIN_FILES,
  chooseMode,
} from '@main/core/upload/plan/auto-mode';

const files = (n: number, size: number): { size: number }[] => Array.from({ length: n }, () => ({ size }));

describe('auto mode', () => {
  it('zips many small files', () => {
    const f = files(AUTO_ZIP_MIN_FILES, 8 * 1024);
    expect(chooseMode(f, AUTO_ZIP_MIN_FILES * 8300)).toBe('zip');
  });

  it('sends few files, or large ones, one by one', () => {
    expect(chooseMode(files(AUTO_ZIP_MIN_FILES - 1, 1024), 300_000)).toBe('files');
    expect(chooseMode(files(1000, AUTO_ZIP_MAX_MEAN_FILE_BYTES + 1), 1000 * (AUTO_ZIP_MAX_MEAN_FILE_BYTES + 200))).toBe(
      'files',
    );
  });

  it('never builds a ZIP larger than its cap', () => {
    expect(chooseMode(files(5000, 60_000), AUTO_ZIP_MAX_BYTES + 1)).toBe('files');
  });
});
