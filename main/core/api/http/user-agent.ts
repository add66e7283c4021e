import packageJson from '../../../../package.json' with { type: 'json' };

/** The app's version, from package.json. */
export const APP_VERSION: string = packageJson.version;

/** `ScanBridge/<version> (Node <v>; <platform>)`: lets the service tell our traffic apart. */
export function userAgent(version: string = APP_VERSION): string {
  return `ScanBridge/${version} (Node ${process.versions.node}; ${process.platform})`;
}
