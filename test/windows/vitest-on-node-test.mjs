// vitest's test API on Node's own runner (node:test) and vitest's `expect` (@vitest/expect), so
// that the portable unit tests run on Node for Windows under Wine, where vitest itself cannot start
// (its bundler's native module needs a DLL Wine 8 lacks). unit-tests.mjs bundles each test file
// with `vitest` pointing here. Covered: describe/it/test (with .each, .skip, .only, .runIf,
// .skipIf, .concurrent), the four hooks and expect; `vi` (mocks, fake timers) is not.
import {
  after,
  afterEach as nodeAfterEach,
  before,
  beforeEach as nodeBeforeEach,
  describe as d,
  it as t,
} from 'node:test';
import { format } from 'node:util';
import {
  ASYMMETRIC_MATCHERS_OBJECT,
  chai,
  GLOBAL_EXPECT,
  getState,
  JestAsymmetricMatchers,
  JestChaiExpect,
  JestExtend,
  setState,
} from '@vitest/expect';

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

export const expect = (value, message) => {
  const { assertionCalls } = getState(expect);
  setState({ assertionCalls: assertionCalls + 1 }, expect);
  return chai.expect(value, message);
};
Object.assign(expect, chai.expect);
Object.assign(expect, globalThis[ASYMMETRIC_MATCHERS_OBJECT]);
expect.getState = () => getState(expect);
expect.setState = (state) => setState(state, expect);
expect.extend = (matchers) => chai.expect.extend(expect, matchers);
setState({ assertionCalls: 0, isExpectingAssertions: false, expectedAssertionsNumber: null }, expect);
Object.defineProperty(globalThis, GLOBAL_EXPECT, { value: expect, writable: true, configurable: true });

const options = (timeout) => (typeof timeout === 'number' ? { timeout } : typeof timeout === 'object' ? timeout : {});

function wrap(node) {
  const fn = (name, body, timeout) => node(String(name), options(timeout), body ?? (() => undefined));
  fn.skip = (name, body) => node(String(name), { skip: true }, body ?? (() => undefined));
  fn.only = fn;
  fn.concurrent = fn;
  fn.sequential = fn;
  fn.runIf = (condition) => (condition ? fn : fn.skip);
  fn.skipIf = (condition) => (condition ? fn.skip : fn);
  fn.each = (table) => (name, body, timeout) => {
    table.forEach((row, i) => {
      const args = Array.isArray(row) ? row : [row];
      const title = String(name).includes('%')
        ? format(String(name), ...args)
        : String(name).replace(/\$(\w+)/g, (_, k) => String(row?.[k])) || `${name} ${i}`;
      fn(title, () => body(...args), timeout);
    });
  };
  fn.concurrent.each = fn.each;
  return fn;
}

export const it = wrap(t);
export const test = it;
export const describe = wrap(d);
export const beforeAll = (fn, timeout) => before(fn, options(timeout));
export const afterAll = (fn, timeout) => after(fn, options(timeout));
export const beforeEach = (fn, timeout) => nodeBeforeEach(fn, options(timeout));
export const afterEach = (fn, timeout) => nodeAfterEach(fn, options(timeout));
export const vi = new Proxy(
  {},
  {
    get: (_, name) => {
      throw new Error(`vi.${String(name)} is not available on Windows Node (test/windows/vitest-on-node-test.mjs)`);
    },
  },
);
