import { describe, expect, it } from 'vitest';
import { appDataDir } from '@main/core/paths';

describe('app data folder', () => {
  it('uses SCANBRIDGE_DATA_DIR when set', () => {
    expect(appDataDir({ SCANBRIDGE_DATA_DIR: '/srv/sb' }, 'linux', '/home/u')).toBe('/srv/sb');
  });

  it('follows each OS convention otherwise', () => {
    expect(appDataDir({}, 'linux', '/home/u')).toBe('/home/u/.local/share/scanbridge');
    expect(appDataDir({ XDG_DATA_HOME: '/x' }, 'linux', '/home/u')).toBe('/x/scanbridge');
    expect(appDataDir({ XDG_DATA_HOME: 'relative' }, 'linux', '/home/u')).toBe('/home/u/.local/share/scanbridge');
    expect(appDataDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/ScanBridge');
    expect(appDataDir({ APPDATA: 'C:/Users/u/AppData/Roaming' }, 'win32', 'C:/Users/u')).toMatch(
      /AppData[/\\]Roaming[/\\]ScanBridge$/,
    );
  });
});
