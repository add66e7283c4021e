// Before any end-to-end test: the emulator's bundle, so each worker's and test's emulator starts from
// it (emulator-bundle.ts).
import { buildEmulatorBundle } from '../emulator/emulator-bundle';

export default async function globalSetup(): Promise<void> {
  await buildEmulatorBundle();
}
