// Runs before every vitest test file (`setupFiles`). The files of a worker run one after the other
// in one process that keeps its loaded modules (`isolate: false`: loading the agent, the emulator
// and their libraries again for each file was a large share of the suite's time). What one
// file leaves in that process must not reach the next, so the process-wide state is put back here:
// - the process's network (`useNetwork`): an agent started with a proxy in Settings sets it;
// - the environment variables, as they were when the worker started.
import { useNetwork } from '@main/core/net/network';

const store = globalThis as { scanbridgeTestEnv?: NodeJS.ProcessEnv };
store.scanbridgeTestEnv ??= { ...process.env };
const startEnv = store.scanbridgeTestEnv;

useNetwork(null);
for (const name of Object.keys(process.env)) if (!(name in startEnv)) Reflect.deleteProperty(process.env, name);
Object.assign(process.env, startEnv);
